/**
 * Regression tests for table files: atomic saves under concurrency, cache names and concurrent builders, bounded
 * reads of hostile paths, the header checks, and stale temporary files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildPreviewTable,
  buildRankTable,
  cachedTablePath,
  loadAnyTable,
  loadOrBuildCachedTable,
  loadPreviewTable,
  loadRankTable,
  type PreviewTable,
  type RankTable,
} from '../helpers/api.js';
import { StackRankError } from '../../src/errors.js';
import { loadOrBuild } from '../../src/rank/cache.js';
import { checksum } from '../../src/rank/file.js';
import { writeFileAtomic } from '../../src/rank/node-io.js';
import { checkOutputFile, writeBytesAtomic, writeKeepingResult } from '../../src/cli/files.js';

let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 5, maxStep: 2, iterations: 3, threads: 1 });
});

const typed = (code: string) => expect.objectContaining({ name: 'StackRankError', code });
/** What `work` rejects with (null when it resolves). */
const rejectionOf = (work: Promise<unknown>): Promise<Error | null> =>
  work.then(
    () => null,
    (err: unknown) => err as Error,
  );
const tempDir = () => mkdtemp(join(tmpdir(), 'stackrank-files-'));

describe('concurrent writers (defect 5)', () => {
  it('many saves to one path in the same millisecond all resolve and leave a loadable file', async () => {
    const dir = await tempDir();
    const path = join(dir, 't.srk');
    for (let trial = 0; trial < 5; trial++) {
      await Promise.all(Array.from({ length: 12 }, () => table.save(path)));
      expect((await loadRankTable(path)).toBytes()).toEqual(table.toBytes());
    }
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('saves of two different tables racing a reader: every read sees one whole table, never a mix or a part', async () => {
    const dir = await tempDir();
    const path = join(dir, 't.srk');
    // Two tables of different sizes and contents: a torn or truncated write is neither.
    const other = await buildRankTable({ width: 7, maxStep: 3, iterations: 2, threads: 1 });
    const a = Buffer.from(table.toBytes());
    const b = Buffer.from(other.toBytes());
    expect(a.equals(b)).toBe(false);
    await table.save(path);
    let saving = true;
    const saves = (async () => {
      try {
        for (let round = 0; round < 40; round++)
          await Promise.all([table.save(path), other.save(path), (round % 2 ? table : other).save(path)]);
      } finally {
        saving = false;
      }
    })();
    let reads = 0;
    const seen = { a: 0, b: 0 };
    // Bounded: the reader stops when the saves end (or after 20000 reads, far more than 40 rounds allow).
    while (saving && reads < 20_000) {
      const bytes = await readFile(path);
      reads++;
      if (bytes.equals(a)) seen.a++;
      else if (bytes.equals(b)) seen.b++;
      else
        expect.fail(`read ${reads} saw ${bytes.byteLength} bytes, neither table (${a.byteLength} or ${b.byteLength})`);
    }
    await saves;
    expect(saving).toBe(false);
    expect(seen.a + seen.b).toBe(reads);
    expect(reads).toBeGreaterThan(10);
    const last = await readFile(path);
    expect(last.equals(a) || last.equals(b)).toBe(true);
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('two parallel loadOrBuildCachedTable calls for one entry both resolve with the same table', async () => {
    const env = { XDG_CACHE_HOME: await tempDir() };
    for (let trial = 0; trial < 3; trial++) {
      const opts = { width: 5, maxStep: 2, iterations: 2 + trial, threads: 1, env };
      const [a, b] = await Promise.all([loadOrBuildCachedTable(opts), loadOrBuildCachedTable(opts)]);
      expect(a.path).toBe(b.path);
      expect(a.table.toBytes()).toEqual(b.table.toBytes());
      expect((await loadRankTable(a.path)).toBytes()).toEqual(a.table.toBytes());
    }
  });

  it('a path that names no file is BAD_ARGUMENT to read as to save: empty, or holding a NUL', async () => {
    for (const path of ['', 'a\0b'])
      for (const io of [() => loadRankTable(path), () => loadAnyTable(path), () => table.save(path)])
        expect(await rejectionOf(io())).toEqual(
          expect.objectContaining({
            code: 'BAD_ARGUMENT',
            message: expect.stringMatching(
              /: path must be a non-empty string naming a file \(without NUL characters\)/,
            ),
          }),
        );
  });

  it('force rebuilds a valid cached entry and writes it in place of the old file', async () => {
    const env = { XDG_CACHE_HOME: await tempDir() };
    const opts = { width: 5, maxStep: 2, iterations: 2, threads: 1, env };
    const first = await loadOrBuildCachedTable(opts);
    expect(first.cached).toBe(false);
    const before = await stat(first.path);
    expect((await loadOrBuildCachedTable(opts)).cached).toBe(true);
    const forced = await loadOrBuildCachedTable({ ...opts, force: true });
    expect(forced.cached).toBe(false);
    expect(forced.table).not.toBe(first.table);
    // saved atomically (a new file renamed over the old): another inode at the same path
    expect((await stat(forced.path)).ino).not.toBe(before.ino);
    expect((await loadRankTable(forced.path)).toBytes()).toEqual(first.table.toBytes());
  });

  it('an abort that comes as the cache build ends saves no file (the signal is looked at before the save)', async () => {
    const path = join(await tempDir(), 'rank-article-w5-s2-i3.srk');
    const controller = new AbortController();
    const saved: string[] = [];
    const built = { save: async (p: string) => void saved.push(p), toBytes: () => new Uint8Array(8) };
    const build = async () => {
      controller.abort(); // as the build returns: its own last look at the signal was before
      return built;
    };
    const place = {
      path,
      read: () => Promise.reject(new StackRankError('IO', `could not read ${path}: no such file`)),
      write: async (t: typeof built) => (await t.save(path), 8),
    };
    await expect(loadOrBuild(place, false, () => true, build, controller.signal)).rejects.toEqual(typed('ABORTED'));
    expect(saved).toEqual([]);
    // Not aborted: saved.
    await expect(
      loadOrBuild(
        place,
        false,
        () => true,
        async () => built,
        undefined,
      ),
    ).resolves.toMatchObject({
      cached: false,
    });
    expect(saved).toEqual([path]);
  });

  it('the cache name carries the encoding, so u16 and f32 builds do not overwrite each other', async () => {
    const env = { XDG_CACHE_HOME: await tempDir() };
    const build = { width: 5, maxStep: 2, iterations: 2, threads: 1 };
    const opts = { ...build, env };
    expect(await cachedTablePath({ ...build, encoding: 'f32' }, env)).not.toBe(await cachedTablePath(build, env));
    const [u16, f32] = await Promise.all([
      loadOrBuildCachedTable(opts),
      loadOrBuildCachedTable({ ...opts, encoding: 'f32' }),
    ]);
    expect((await loadRankTable(u16.path)).encoding).toBe('u16');
    expect((await loadRankTable(f32.path)).encoding).toBe('f32');
    expect((await loadOrBuildCachedTable(opts)).cached).toBe(true);
    expect((await loadOrBuildCachedTable({ ...opts, encoding: 'f32' })).cached).toBe(true);
  });
});

describe('reading what is not a table file (defect 7)', () => {
  it('/dev/zero is refused at once with IO (not read without end)', async () => {
    const started = performance.now();
    for (const load of [loadRankTable, loadAnyTable, loadPreviewTable])
      await expect(load('/dev/zero')).rejects.toEqual(typed('IO'));
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a FIFO is refused with IO instead of blocking forever', async () => {
    const fifo = join(await tempDir(), 'pipe.srk');
    execFileSync('mkfifo', [fifo]);
    await expect(loadRankTable(fifo)).rejects.toEqual(typed('IO'));
    await expect(loadRankTable(await tempDir())).rejects.toEqual(typed('IO'));
  });

  it('a large file that is not a table is judged on its first bytes', async () => {
    const path = join(await tempDir(), 'big.srk');
    await writeFile(path, Buffer.alloc(64 << 20, 1));
    await expect(loadRankTable(path)).rejects.toEqual(typed('BAD_MAGIC'));
    // A valid header followed by far more data than it implies: refused without reading it all.
    await writeFile(path, Buffer.concat([table.toBytes(), Buffer.alloc(64 << 20)]));
    await expect(loadRankTable(path)).rejects.toEqual(typed('BAD_HEADER'));
  });
});

/** A version-1 file with `edit` applied to its bytes and the header checksum made right again. */
function edited(edit: (bytes: Uint8Array, view: DataView) => void, resum = true): Uint8Array {
  const bytes = table.toBytes().slice();
  const view = new DataView(bytes.buffer);
  edit(bytes, view);
  if (resum) view.setUint32(48, checksum(bytes.subarray(0, 48)), true);
  return bytes;
}

describe('everything in the header is checked (defect 14)', () => {
  it('reserved bytes 52..63 of a version-1 file must be zero', async () => {
    for (const at of [52, 57, 63]) {
      await expect(loadRankTable(edited((b) => (b[at] = 1), false))).rejects.toEqual(typed('BAD_HEADER'));
    }
  });

  it('the variant name must be a known one-value variant, NUL-padded', async () => {
    const named = (name: string) =>
      edited((b) => {
        b.fill(0, 32, 48);
        b.set(new TextEncoder().encode(name), 32);
      });
    await expect(loadRankTable(named('bogus'))).rejects.toEqual(typed('BAD_HEADER'));
    await expect(loadRankTable(named('preview'))).rejects.toEqual(typed('BAD_HEADER'));
    await expect(loadRankTable(edited((b) => (b[45] = 0x41)))).rejects.toEqual(typed('BAD_HEADER'));
    expect((await loadRankTable(named('collapse'))).variant).toBe('collapse');
  });

  it('an absurd scale is refused (ranks would be Infinity)', async () => {
    for (const scale of [1e308, 1e-3, 2, -1 / 65535, Number.NaN]) {
      await expect(loadRankTable(edited((_, v) => v.setFloat64(16, scale, true)))).rejects.toEqual(typed('BAD_HEADER'));
    }
    const loaded = await loadRankTable(table.toBytes());
    expect(Number.isFinite(loaded.get(0))).toBe(true);
  });

  it('the golden file still loads (the format did not change)', async () => {
    const hex = (await readFile(join(__dirname, '..', 'golden', 'rank-w4-s1-i2.srk.hex'), 'utf8')).replace(/\s+/g, '');
    const golden = Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
    expect((await loadRankTable(golden)).width).toBe(4);
  });
});

describe('temporary files of writers that died (defect 15)', () => {
  it('are removed by the next save to the same path; those of live processes stay', async () => {
    const dir = await tempDir();
    const path = join(dir, 't.srk');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(`${path}.${dead}.k3j2h1.tmp`, 'half a table');
    await writeFile(`${path}.${process.pid}.abcdef.tmp`, 'being written');
    await writeFile(join(dir, `other.srk.${dead}.k3j2h1.tmp`), 'not ours');
    await table.save(path);
    expect((await readdir(dir)).sort()).toEqual(
      [`other.srk.${dead}.k3j2h1.tmp`, 't.srk', `t.srk.${process.pid}.abcdef.tmp`].sort(),
    );
  });
});

/** A FIFO in a fresh temp dir, or null where mkfifo is unavailable. */
async function makeFifo(name = 'pipe.srk'): Promise<{ dir: string; fifo: string } | null> {
  const dir = await tempDir();
  const fifo = join(dir, name);
  try {
    execFileSync('mkfifo', [fifo], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return { dir, fifo };
}
const hasMkfifo = spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).error === undefined;

describe('saving to a caller-given path (file-fixes)', () => {
  let preview: PreviewTable;
  beforeAll(async () => {
    const uniform = Array.from({ length: 7 }, () => Array(7).fill(1 / 7));
    preview = await buildPreviewTable({ width: 4, maxStep: 1, iterations: 2, threads: 1, transition: uniform });
  });
  const savers = () =>
    [
      ['RankTable.save', (p: unknown) => table.save(p as string)],
      ['PreviewTable.save', (p: unknown) => preview.save(p as string)],
    ] as const;

  it("a path that is not a non-empty string is BAD_ARGUMENT naming the path (not IO with Node's message)", async () => {
    for (const [name, save] of savers()) {
      for (const bad of [null, undefined, '', 42, {}, 'a\0b.srk']) {
        const e = await rejectionOf(save(bad));
        expect(e).toEqual(typed('BAD_ARGUMENT'));
        expect((e as Error).message).toMatch(
          new RegExp(`^${name.replace('.', '\\.')}: path must be a non-empty string`),
        );
      }
    }
    await expect(writeFileAtomic(null as never, new Uint8Array(1))).rejects.toEqual(typed('BAD_ARGUMENT'));
  });

  it.skipIf(!hasMkfifo)('a FIFO at the target is refused with IO and left a FIFO; nothing is written', async () => {
    for (const [, save] of savers()) {
      const made = await makeFifo();
      if (!made) return;
      const { dir, fifo } = made;
      const e = await rejectionOf(save(fifo));
      expect(e).toEqual(typed('IO'));
      expect((e as Error).message).toMatch(/not a regular file/);
      expect((await lstat(fifo)).isFIFO()).toBe(true);
      expect(await readdir(dir)).toEqual(['pipe.srk']);
    }
  });

  it.skipIf(!hasMkfifo)(
    'a symbolic link to a FIFO is refused too; the shared writer (CLI files) refuses a FIFO',
    async () => {
      const made = await makeFifo();
      if (!made) return;
      const link = join(made.dir, 'link.srk');
      await symlink(made.fifo, link);
      await expect(table.save(link)).rejects.toEqual(typed('IO'));
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      await expect(writeFileAtomic(made.fifo, new Uint8Array(3), { createDir: false })).rejects.toEqual(typed('IO'));
      await expect(writeFileAtomic(made.fifo, new Uint8Array(3))).rejects.toEqual(typed('IO'));
      expect((await lstat(made.fifo)).isFIFO()).toBe(true);
      expect((await readdir(made.dir)).sort()).toEqual(['link.srk', 'pipe.srk']);
    },
  );

  it('a directory at the target is refused with IO before a temporary file is written', async () => {
    const dir = await tempDir();
    const target = join(dir, 'sub.srk');
    await mkdir(target);
    for (const [, save] of savers()) {
      const e = await rejectionOf(save(target));
      expect(e).toEqual(typed('IO'));
      expect((e as Error).message).toMatch(/not a regular file/);
      expect((await stat(target)).isDirectory()).toBe(true);
      expect(await readdir(dir)).toEqual(['sub.srk']);
    }
  });

  it('missing folders are created (mkdir -p, as documented); an existing regular file is replaced', async () => {
    const dir = await tempDir();
    for (const [name, save] of savers()) {
      const path = join(dir, name, 'deeper', 't.srk');
      await save(path);
      expect((await stat(path)).isFile()).toBe(true);
    }
    const path = join(dir, 't.srk');
    await writeFile(path, 'an old file');
    await table.save(path);
    expect((await loadRankTable(path)).toBytes()).toEqual(table.toBytes());
    await preview.save(path);
    expect((await loadPreviewTable(path)).toBytes()).toEqual(preview.toBytes());
    // A path through a regular file cannot be made: IO, nothing written.
    await expect(table.save(join(path, 'inside.srk'))).rejects.toEqual(typed('IO'));
    // The CLI's writer makes no folder: IO naming the missing one.
    const e = await rejectionOf(writeFileAtomic(join(dir, 'none', 'x.json'), new Uint8Array(1), { createDir: false }));
    expect(e).toEqual(typed('IO'));
    expect((e as Error).message).toMatch(/ENOENT: directory .*none does not exist/);
    expect((await readdir(dir)).sort()).toEqual(['PreviewTable.save', 'RankTable.save', 't.srk']);
  });

  it('the cache still creates its own (nested, missing) folder', async () => {
    const root = join(await tempDir(), 'a', 'b');
    const r = await loadOrBuildCachedTable({
      width: 4,
      maxStep: 1,
      iterations: 2,
      threads: 1,
      env: { XDG_CACHE_HOME: root },
    });
    expect(r.cached).toBe(false);
    expect(r.path.startsWith(root)).toBe(true);
    expect((await loadRankTable(r.path)).toBytes()).toEqual(r.table.toBytes());
  });

  it.skipIf(!hasMkfifo)('the CLI refuses an --out path that is a FIFO before the work starts', async () => {
    const made = await makeFifo();
    if (!made) return;
    expect(() => checkOutputFile('out', made.fifo)).toThrow(
      /--out: .*pipe\.srk is not a regular file; give a file name/,
    );
    expect(() => checkOutputFile('out', made.dir)).toThrow(/is a directory; give a file name/);
    expect(() => checkOutputFile('out', join(made.dir, 'new.srk'))).not.toThrow();
  });
});

describe('a --out folder removed while the command ran', () => {
  it('is not made again: the result goes to a temporary folder, named in the IO error', async () => {
    const table = await buildRankTable({ width: 4, maxStep: 1, iterations: 1, threads: 1 });
    const gone = join(await mkdtemp(join(tmpdir(), 'stackrank-gone-')), 'removed');
    const e = await rejectionOf(
      writeKeepingResult(join(gone, 't.srk'), 'table', (p) => writeBytesAtomic(p, table.toBytes())),
    );
    expect(e).toEqual(expect.objectContaining({ name: 'StackRankError', code: 'IO' }));
    const kept = /it was kept in (.*)$/.exec(e!.message)?.[1];
    expect(e!.message).toMatch(/does not exist \(any more\)/);
    expect((await stat(kept!)).isFile()).toBe(true);
    await expect(stat(gone)).rejects.toThrow();
  });
});
