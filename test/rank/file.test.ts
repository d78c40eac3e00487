import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankValues } from '../../src/rank/build.js';
import { HEADER_BYTES, checksum } from '../../src/rank/file.js';
import { foldIndex, foldShape, foldValues, unfoldValues } from '../../src/rank/fold.js';
import { RankTable, buildRankTable, loadRankTable } from '../../src/rank/table.js';
import { parseSurface, surfaceFromSteps } from '../../src/surface.js';

const GOLDEN = join(__dirname, '..', 'golden', 'rank-w4-s1-i2.srk.hex');

describe('mirror folding', () => {
  it.each([
    [4, 1],
    [5, 4],
    [6, 2],
    [9, 4],
  ])('W=%i S=%i: a surface and its mirror share a slot, and slots are in range', (width, maxStep) => {
    const shape = foldShape(width, maxStep);
    const size = (2 * maxStep + 1) ** (width - 1);
    expect(shape.foldedSize).toBeLessThan(size * 0.51 + 100);
    const step = Math.max(1, Math.floor(size / 50_000));
    for (let s = 0; s < size; s += step) {
      const slot = foldIndex(s, shape);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(shape.foldedSize);
    }
  });

  it('folded values unfold to the unfolded values exactly (W = 7)', async () => {
    const values = await buildRankValues({ width: 7, maxStep: 4, iterations: 5, threads: 2 });
    const shape = foldShape(7, 4);
    const folded = foldValues(values, shape, (n) => new Float32Array(n));
    const back = unfoldValues(folded, shape, values.length, (n) => new Float32Array(n));
    expect(Buffer.from(back.buffer).equals(Buffer.from(values.buffer))).toBe(true);
  });

  it.each([
    [2, 3],
    [4, 2],
    [5, 3],
    [6, 2],
    [6, 4],
    [8, 1],
    [9, 2],
  ])('W=%i S=%i: every surface unfolds to the value at its folded slot (foldIndex)', (width, maxStep) => {
    const shape = foldShape(width, maxStep);
    const size = (2 * maxStep + 1) ** (width - 1);
    const folded = Uint16Array.from({ length: shape.foldedSize }, (_, i) => (i * 2654435761) >>> 16);
    const out = unfoldValues(folded, shape, size, (n) => new Uint16Array(n));
    for (let s = 0; s < size; s++)
      if (out[s] !== folded[foldIndex(s, shape)]) expect([s, out[s]]).toEqual([s, folded[foldIndex(s, shape)]]);
  });
});

describe('table files', () => {
  let table: RankTable;
  let values: Float32Array;
  beforeAll(async () => {
    values = await buildRankValues({ width: 6, maxStep: 4, iterations: 6, threads: 1 });
    table = RankTable.fromValues(values, { width: 6, maxStep: 4, iterations: 6 });
  });

  it('keeps u16 values within 2e-5 of the f32 iteration, and f32 exactly', async () => {
    let worst = 0;
    for (let s = 0; s < values.length; s++) worst = Math.max(worst, Math.abs(table.get(s) - values[s]));
    expect(worst).toBeLessThan(2e-5);
    // Each stored value is the nearest multiple of the scale (docs/file-formats.md: error below 7.7e-6), so no value
    // is off by more than half a step; truncating instead would be off by up to a whole step.
    expect(worst).toBeLessThanOrEqual(table.scale / 2 + 1e-12);
    const f32 = await buildRankTable({ width: 6, maxStep: 4, iterations: 6, encoding: 'f32', threads: 1 });
    for (let s = 0; s < values.length; s += 7) expect(f32.get(s)).toBe(values[s]);
    expect(f32.toFloat32()).toEqual(values);
    // The search reads an f32 table through u16 values made the same way: the u16 table's values and scale.
    const search = new Uint16Array(f32.size);
    expect(await f32.writeSearchValues(search)).toBe(table.scale);
    expect(search).toEqual(table.toUint16());
  });

  it('fromValues refuses values that are no ranks, params that do not fit the variant, and unknown options', () => {
    const meta = { width: 6, maxStep: 4, iterations: 6 };
    // Each once made a table that read back other numbers (a -1 as 65535), or whose bytes did not load again.
    for (const bad of [-1, Number.NaN, Infinity, 2]) {
      const v = values.slice();
      v[5] = bad;
      expect(() => RankTable.fromValues(v, meta)).toThrow(
        expect.objectContaining({
          code: 'BAD_ARGUMENT',
          message: expect.stringMatching(/^value 5 must be a rank from 0 to 1/),
        }),
      );
    }
    expect(() => RankTable.fromValues(values, { ...meta, variant: 'weighted' })).toThrow(
      /a weighted table needs params \(its piece model\)/,
    );
    expect(() => RankTable.fromValues(values, { ...meta, colour: 'red' } as never)).toThrow(
      /RankTable.fromValues: unknown option "colour"/,
    );
  });

  it('ranks surfaces, truncating steep steps, and refuses a surface of another width', () => {
    expect(table.rank(parseSurface('44444'))).toBeCloseTo(values[(values.length - 1) / 2], 4);
    expect(table.rank(surfaceFromSteps([0, 9, -7, 0, 0]))).toBe(table.rank(parseSurface('48044')));
    expect(() => table.rank(parseSurface('4444'))).toThrow(expect.objectContaining({ code: 'TABLE_MISMATCH' }));
    expect(() => table.get(values.length)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });

  it('tells a surface of another shape (TABLE_MISMATCH) from something that is no surface (BAD_ARGUMENT)', () => {
    expect(() => table.rank(parseSurface('444', { maxStep: 4 }))).toThrow(
      expect.objectContaining({
        code: 'TABLE_MISMATCH',
        message: 'this table ranks 6-column surfaces with max step 4; got a 4-column surface with max step 4',
      }),
    );
    for (const [notASurface, got] of [
      [null, 'null'],
      [undefined, 'undefined'],
      ['44444', '"44444"'],
      [[0, 0, 0, 0, 0], '[0, 0, 0, 0, 0]'],
      [{}, 'an object'],
      [{ width: '6', maxStep: 4, steps: [0, 0, 0, 0, 0] }, 'an object'],
    ] as const)
      expect(() => table.rank(notASurface as never)).toThrow(
        expect.objectContaining({
          code: 'BAD_ARGUMENT',
          message: `RankTable.rank takes a Surface (from parseSurface, surfaceFromSteps, surfaceFromHeights or surfaceFromIndex); got ${got}`,
        }),
      );
    expect(() => table.rank(null as never)).not.toThrow(/undefined/);
  });

  it('round-trips through bytes and through an atomically written file', async () => {
    const again = await loadRankTable(table.toBytes());
    expect(again.toUint16()).toEqual(table.toUint16());
    expect([again.width, again.maxStep, again.iterations, again.encoding, again.variant]).toEqual([
      6,
      4,
      6,
      'u16',
      'article',
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-'));
    const path = join(dir, 'sub', 't.srk');
    await table.save(path);
    expect(await readdir(join(dir, 'sub'))).toEqual(['t.srk']);
    const loaded = await loadRankTable(path);
    expect(loaded.toUint16()).toEqual(table.toUint16());
    expect(loaded.toBytes().byteLength).toBeLessThan(HEADER_BYTES + values.length * 2 * 0.52);
  });

  it('matches the golden file byte for byte (format stability)', async () => {
    const small = await buildRankTable({ width: 4, maxStep: 1, iterations: 2, threads: 1 });
    const hex = Buffer.from(small.toBytes()).toString('hex');
    if (process.env.UPDATE_GOLDEN) await writeFile(GOLDEN, hex + '\n');
    expect(hex).toBe((await readFile(GOLDEN, 'utf8')).trim());
  });

  describe('refuses damaged files with a clear typed error', () => {
    const corrupt = (edit: (b: Uint8Array) => Uint8Array) => loadRankTable(edit(table.toBytes().slice()));
    const fixHeader = (b: Uint8Array) => {
      new DataView(b.buffer).setUint32(48, checksum(b.subarray(0, 48)), true);
      return b;
    };
    it.each([
      ['BAD_MAGIC', (b: Uint8Array) => ((b[1] = 0x58), b), /signature/],
      ['BAD_MAGIC', () => new TextEncoder().encode('hello, not a table'), /signature/],
      ['TRUNCATED', (b: Uint8Array) => b.subarray(0, 20), /shorter than its 64-byte header/],
      ['TRUNCATED', (b: Uint8Array) => b.subarray(0, b.length - 10), /holds \d+ of its \d+ data bytes/],
      ['BAD_VERSION', (b: Uint8Array) => fixHeader(((b[8] = 9), b)), /version 9/],
      ['CHECKSUM', (b: Uint8Array) => ((b[10] = 5), b), /header checksum/],
      ['CHECKSUM', (b: Uint8Array) => ((b[b.length - 3] ^= 0xff), b), /data checksum/],
      ['BAD_HEADER', (b: Uint8Array) => fixHeader(((b[10] = 12), b)), /width 12/],
      ['BAD_HEADER', (b: Uint8Array) => fixHeader(((b[14] = 7), b)), /unknown value encoding/],
      ['BAD_HEADER', (b: Uint8Array) => fixHeader(((b[24] ^= 1), b)), /claims/],
      ['BAD_HEADER', (b: Uint8Array) => Uint8Array.of(...b, 0, 0), /it has 2 unexpected bytes after its data/],
      ['BAD_HEADER', (b: Uint8Array) => Uint8Array.of(...b, 0), /it has 1 unexpected byte after its data/],
    ] as const)('%s (%#)', async (code, edit, message) => {
      await expect(corrupt(edit as (b: Uint8Array) => Uint8Array)).rejects.toMatchObject({
        code,
        message: expect.stringMatching(message),
      });
    });

    it('IO for a missing file', async () => {
      const missing = join(await mkdtemp(join(tmpdir(), 'stackrank-file-')), 'missing', 'table.srk');
      await expect(loadRankTable(missing)).rejects.toMatchObject({
        code: 'IO',
        message: expect.stringMatching(/no such file/),
      });
    });
  });
});

describe('the docs say what the writer does (file-fixes)', () => {
  const doc = (name: string) => readFile(join(__dirname, '..', '..', 'docs', name), 'utf8');

  it('every variant written as version 1 (one value, no parameters; 20g too) is listed as version 1', async () => {
    const { VARIANTS, encodeTable } = await import('../../src/rank/file.js');
    const text = (await doc('file-formats.md')).replace(/\s+/g, ' ');
    const listed = /\(version 1: ([^)]*)\)/.exec(text)?.[1] ?? '';
    const summary = /\*\*Version 1\*\*(.*?)\*\*Version 2\*\*/.exec(text)?.[1] ?? '';
    for (const [variant, shape] of Object.entries(VARIANTS)) {
      if (shape.slots !== 1 || shape.modelValues !== 0) continue;
      const asymmetric = 'asymmetric' in shape && shape.asymmetric;
      const count = asymmetric ? 4 ** 3 : foldShape(4, 1).foldedSize;
      const bytes = encodeTable(
        { width: 4, maxStep: 1, iterations: 1, encoding: 'u16', folded: !asymmetric, scale: 1 / 65535, variant },
        new Uint16Array(count),
      );
      expect(new DataView(bytes.buffer).getUint16(8, true), variant).toBe(1);
      expect(listed, variant).toContain(`\`${variant}\``);
      expect(summary, variant).toContain(`\`${variant}\``);
    }
    const t20g = await buildRankTable({ width: 4, maxStep: 1, iterations: 1, gravity: '20G', threads: 1 });
    expect(new DataView(t20g.toBytes().buffer).getUint16(8, true)).toBe(1);
  });

  it('cachedTablePath returns a Promise, and docs/api.md says so', async () => {
    const { cachedTablePath } = await import('../../src/rank/cache.js');
    const home = await mkdtemp(join(tmpdir(), 'stackrank-file-'));
    const result = cachedTablePath({ width: 4, maxStep: 1 }, { XDG_CACHE_HOME: home });
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(join(home, 'stackrank', 'rank-article-w4-s1-i15.srk'));
    const row = (await doc('api.md')).split('\n').find((l) => l.includes('`cachedTablePath(')) ?? '';
    expect(row).toMatch(/async|Promise/);
  });
});
