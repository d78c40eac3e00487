/**
 * Every file the CLI reads goes through one reader (src/rank/node-io.ts): regular files only, asynchronous, bounded
 * by what its kind can need, and anything else is IO at once (issue 50, defect 1). Before it, `merge`, `full play
 * --weights`, `bench game --recover-weights` and `--table`, and `full train --checkpoint … --resume` blocked for ever
 * on a FIFO (a synchronous read: Ctrl-C and SIGTERM were not served either) and read /dev/zero without end.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { buildRankTable } from '../../src/rank/table.js';

const ROOT = resolve(__dirname, '../..');
/** Generous: the commands are refused in milliseconds; a hang is what this catches. */
const CHILD_TIMEOUT_MS = 60_000;

/** The file options of the CLI: each gets the same hostile paths. */
const COMMANDS = (file: string): string[][] => [
  ['merge', file],
  ['full', 'play', '--weights', file],
  ['bench', 'game', '--recover-weights', file, '--games', '1'],
  ['bench', 'game', '--table', file, '--games', '1'],
  ['full', 'train', '--checkpoint', file, '--resume'],
  ['table', 'info', file],
  ['table', 'rank', file, '4444'],
  ['analyze', '--table', file, '--fumen', 'v115@vhAAgH', '--queue', 'T'],
  ['bench', 'survival', '--table', file, '--games', '1'],
];

/**
 * A run's --checkpoint is written too, so a path that is not a regular file is a usage error before any work (exit
 * 2); an existing regular file is read to resume from. The bench commands get a small real table: they read the
 * checkpoint once the table is loaded.
 */
const CHECKPOINTS = (file: string, table: string): string[][] => [
  ['bench', 'game', '--checkpoint', file, '--games', '1', '--rules', 'classic', '--table', table],
  ['bench', 'survival', '--checkpoint', file, '--games', '1', '--table', table],
  ['full', 'play', '--checkpoint', file, '--games', '1'],
];

interface Outcome {
  argv: string[];
  code: number;
  err: string;
  ms: number;
}

function runChild(cases: string[][], cache: string): Promise<{ done: Outcome[]; hung?: string[] }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'fixtures', 'read-files-child.ts'), JSON.stringify(cases), cache],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('exit', () => {
      clearTimeout(timer);
      const lines = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const results = lines.filter((l) => 'code' in l) as Outcome[];
      const last = lines.at(-1);
      done({ done: results, hung: last && 'start' in last ? last.start : undefined });
    });
  });
}

it('a FIFO, /dev/zero, a directory, a symbolic-link loop and a huge file are IO at once for every file option', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stackrank-read-files-'));
  const fifo = join(dir, 'pipe.json');
  execFileSync('mkfifo', [fifo]);
  const folder = join(dir, 'folder.json');
  mkdirSync(folder);
  const loop = join(dir, 'loop.json');
  symlinkSync(loop, loop);
  // Sparse: 600 MB on paper, nothing on disk. Over the JSON limit; a table file is judged on its header.
  const huge = join(dir, 'huge.json');
  writeFileSync(huge, '');
  truncateSync(huge, 600 << 20);
  const table = join(dir, 't9.srk');
  await (await buildRankTable({ width: 9, maxStep: 3, iterations: 2, threads: 1 })).save(table);
  const checkpoints = [fifo, '/dev/zero', folder, loop, huge].flatMap((f) => CHECKPOINTS(f, table));
  const cases = [...[fifo, '/dev/zero', folder, loop, huge].flatMap(COMMANDS), ...checkpoints];
  const { done, hung } = await runChild(cases, mkdtempSync(join(tmpdir(), 'stackrank-read-files-cache-')));
  expect(hung, `this command did not return within ${CHILD_TIMEOUT_MS} ms`).toBeUndefined();
  expect(done.length).toBe(cases.length);
  for (const { argv, code, err } of done) {
    if (argv.includes('--checkpoint') && argv[1] !== 'train' && !argv.includes(huge)) {
      const why = argv.includes(folder)
        ? 'a directory'
        : argv.includes(loop)
          ? 'a loop of symbolic links'
          : 'not a regular file';
      expect({ argv, code, err }).toEqual({ argv, code: 2, err: expect.stringContaining(`--checkpoint: `) });
      expect(err).toMatch(new RegExp(` is ${why}; give a file name$`));
      continue;
    }
    const table =
      (argv.includes('--table') && !(argv.includes('--checkpoint') && argv[1] !== 'train')) || argv[0] === 'table';
    const expected =
      argv.includes(huge) && table
        ? /\[BAD_MAGIC\]$/
        : argv.includes(huge)
          ? /it is 629,145,600 bytes; a .* may be at most [\d,]+ .*\[IO\]$/
          : argv.includes(loop)
            ? /symbolic links .*\[IO\]$/
            : /not a regular file .*\[IO\]$/;
    expect({ argv, code, err }).toEqual({ argv, code: 1, err: expect.stringMatching(expected) });
  }
  const slowest = [...done].sort((a, b) => b.ms - a.ms)[0];
  console.log(`${done.length} refusals; the slowest took ${slowest.ms.toFixed(0)} ms: ${slowest.argv.join(' ')}`);
}, 120_000);
