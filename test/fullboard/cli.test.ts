import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { CliIO } from '../../src/cli/io.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const x: CliIO = { out: (l) => out.push(l), err: (l) => err.push(l), status: () => {}, isTTY: false, env: {} };
  return { io: x, out, err };
}

describe('stackrank full', () => {
  it('plays games and prints a JSON summary', async () => {
    const t = io();
    expect(
      await main(
        ['full', 'play', '--weights', 'dellacherie', '--games', '3', '--seed', '5', '--max-lines', '500', '--json'],
        t.io,
      ),
    ).toBe(0);
    const r = JSON.parse(t.out.join('\n'));
    expect(r.games.map((g: { seed: number }) => g.seed)).toEqual([5, 6, 7]);
    expect(r.summary.games).toBe(3);
    expect(r.summary.capped).toBe(3);
    expect(r.summary.censored.mean).toBeNull(); // no game lost: unbounded (JSON null)
  });

  it('prints a table, reads a weights file, and rejects bad options', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stackrank-full-'));
    const file = join(dir, 'w.json');
    writeFileSync(file, JSON.stringify({ features: ['holes', 'maxHeight', 'rowsCleared'], weights: [-4, -1, 1] }));
    const t = io();
    expect(await main(['full', 'play', '--weights', file, '--games', '2', '--height', '10'], t.io)).toBe(0);
    expect(t.out.some((l) => l.startsWith('games 2'))).toBe(true);
    const bad = io();
    expect(await main(['full', 'play', '--weights', 'nosuch'], bad.io)).toBe(2);
    expect(await main(['full', 'play', '--games', 'x'], bad.io)).toBe(2);
    writeFileSync(file, JSON.stringify({ features: ['holes'], weights: [1, 2] }));
    expect(await main(['full', 'play', '--weights', file], bad.io)).toBe(1);
    expect(bad.err.at(-1)).toMatch(/BAD_ARGUMENT/);
  });

  it('trains with a checkpoint, resumes, and writes the weights', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stackrank-train-'));
    const ck = join(dir, 'ck.json');
    const out = join(dir, 'best.json');
    const common = [
      '--population',
      '12',
      '--games-per-eval',
      '2',
      '--board-height',
      '8',
      '--max-pieces',
      '2000',
      '--seed',
      '3',
      '--checkpoint',
      ck,
    ];
    const a = io();
    expect(await main(['full', 'train', ...common, '--generations', '2'], a.io)).toBe(0);
    expect(a.out.filter((l) => /^\s+\d+\s/.test(l)).length).toBe(2);
    const b = io();
    expect(await main(['full', 'train', ...common, '--generations', '3', '--resume', '--out', out], b.io)).toBe(0);
    expect(b.out.filter((l) => /^\s+\d+\s/.test(l)).length).toBe(1);
    const best = JSON.parse(readFileSync(out, 'utf8'));
    expect(best.best.weights.length).toBe(8);
    expect(best.history.length).toBe(3);
    const c = io();
    expect(await main(['full', 'play', '--weights', out, '--games', '1', '--height', '8'], c.io)).toBe(0);
  });

  it('--resume refuses flags that differ from the checkpoint and keeps its values for the flags not given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stackrank-train-'));
    const ck = join(dir, 'ck.json');
    const first = io();
    const start = ['--population', '6', '--games-per-eval', '1', '--board-height', '6', '--max-pieces', '500'];
    expect(await main(['full', 'train', ...start, '--generations', '1', '--checkpoint', ck], first.io)).toBe(0);
    const saved = readFileSync(ck, 'utf8');
    // It used to train with the checkpoint's values and exit 0.
    const bad = io();
    const conflicting = ['--population', '4', '--seed', '9', '--board-height', '10', '--checkpoint', ck, '--resume'];
    expect(await main(['full', 'train', ...conflicting], bad.io)).toBe(1);
    expect(bad.err).toEqual([
      `stackrank full train: the checkpoint ${ck} belongs to another run: --population is 4 here and 6 in the checkpoint; leave --population out to continue with the checkpoint's [RUN_MISMATCH]`,
    ]);
    expect(bad.out).toEqual([]);
    expect(readFileSync(ck, 'utf8')).toBe(saved); // not overwritten
    const features = io();
    expect(
      await main(['full', 'train', '--features', 'dellacherie', '--checkpoint', ck, '--resume'], features.io),
    ).toBe(1);
    expect(features.err[0]).toMatch(/--features is dellacherie here and bcts in the checkpoint; .*\[RUN_MISMATCH\]$/);
    // Only --resume: the checkpoint's population, board and seed (not the defaults 100, 12 and 1), and its
    // generations target (1, already reached) unless --generations is given.
    const same = io();
    expect(await main(['full', 'train', '--checkpoint', ck, '--resume', '--json'], same.io)).toBe(0);
    expect(JSON.parse(same.out.join('\n')).options).toMatchObject({
      population: 6,
      boardHeight: 6,
      seed: 1,
      gamesPerEval: 1,
      maxPieces: 500,
      generations: 1,
    });
    const more = io();
    expect(
      await main(['full', 'train', ...start, '--generations', '2', '--checkpoint', ck, '--resume', '--json'], more.io),
    ).toBe(0);
    expect(JSON.parse(more.out.join('\n')).history.map((h: { generation: number }) => h.generation)).toEqual([1, 2]);
  });

  /** A tiny training run: a generation takes well under a second. */
  const tiny = ['--population', '4', '--games-per-eval', '1', '--board-height', '6', '--max-pieces', '200'];

  it('--out and --checkpoint naming one file is a usage error, and the checkpoint is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stackrank-train-'));
    const ck = join(dir, 'ck.json');
    expect(await main(['full', 'train', ...tiny, '--generations', '1', '--checkpoint', ck], io().io)).toBe(0);
    const saved = readFileSync(ck, 'utf8');
    for (const out of [ck, `${dir}/./ck.json`, relative(process.cwd(), ck)]) {
      const same = io();
      const argv = ['full', 'train', ...tiny, '--generations', '2', '--checkpoint', ck, '--resume', '--out', out];
      expect(await main(argv, same.io)).toBe(2);
      expect(same.err).toEqual(['stackrank full train: --out and --checkpoint must be different files']);
      expect(same.out).toEqual([]);
    }
    expect(readFileSync(ck, 'utf8')).toBe(saved);
  });

  it('an existing --checkpoint without --resume is a usage error, not overwritten', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stackrank-train-'));
    const ck = join(dir, 'ck.json');
    expect(await main(['full', 'train', ...tiny, '--generations', '1', '--checkpoint', ck], io().io)).toBe(0);
    const saved = readFileSync(ck, 'utf8');
    const again = io();
    expect(await main(['full', 'train', ...tiny, '--generations', '2', '--checkpoint', ck], again.io)).toBe(2);
    expect(again.err).toEqual([
      `stackrank full train: --checkpoint: ${ck} exists; pass --resume to continue from it, or remove it to start a new run`,
    ]);
    expect(again.out).toEqual([]);
    expect(readFileSync(ck, 'utf8')).toBe(saved);
  });

  it('--resume reads the checkpoint as a file to read: a directory is IO, a truncated file BAD_HEADER (exit 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stackrank-train-'));
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const asDir = io();
    expect(await main(['full', 'train', '--checkpoint', folder, '--resume'], asDir.io)).toBe(1);
    expect(asDir.err).toEqual([
      expect.stringMatching(
        /^stackrank full train: --checkpoint: could not read GA checkpoint .*folder: not a regular file .* \[IO\]$/,
      ),
    ]);
    // A parser's message quoting the file's lines is still one line.
    const lines = join(dir, 'lines.json');
    writeFileSync(lines, 'line1\nline2\n');
    const twoLines = io();
    expect(await main(['full', 'train', '--checkpoint', lines, '--resume'], twoLines.io)).toBe(1);
    expect(twoLines.err).toEqual([
      expect.stringMatching(
        /^stackrank full train: .*lines\.json is not a stackrank GA checkpoint \(not JSON: [^\n]*\) \[BAD_HEADER\]$/,
      ),
    ]);
    const ck = join(dir, 'ck.json');
    expect(await main(['full', 'train', ...tiny, '--generations', '1', '--checkpoint', ck], io().io)).toBe(0);
    const text = readFileSync(ck, 'utf8');
    writeFileSync(ck, text.slice(0, text.length >> 1));
    const truncated = io();
    expect(await main(['full', 'train', '--checkpoint', ck, '--resume'], truncated.io)).toBe(1);
    expect(truncated.err).toEqual([
      expect.stringMatching(
        /^stackrank full train: .*ck\.json is not a stackrank GA checkpoint \(not JSON: .*\) \[BAD_HEADER\]$/,
      ),
    ]);
    // Without --resume the checkpoint is only written: a directory there is refused before the work (exit 2).
    const write = io();
    expect(await main(['full', 'train', '--checkpoint', folder], write.io)).toBe(2);
    expect(write.err).toEqual([`stackrank full train: --checkpoint: ${folder} is a directory; give a file name`]);
  });
});
