import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
