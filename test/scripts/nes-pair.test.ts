/**
 * bench/nes-pair.ts: two `bench nes` run files of the same games compared game by game. Its figures are checked
 * against the files' own game records, computed here; a `bench game` file under the timed rules pairs with `bench
 * nes`'s games; files of other seeds, other games, no NES scores or another command are refused with exit 2 and
 * no stack trace.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable } from '../../src/rank/table.js';
import { runCli } from '../helpers/cli.js';
import { runBenchScript } from '../helpers/bench-script.js';

/** The normal distribution's two-sided 95 % point. */
const Z95 = 1.959963984540054;
let dir: string;
let table: string;

const pair = (...args: string[]) => runBenchScript('nes-pair.ts', args, dir);

/** A `bench nes` run file of 4 short games (to level 19) of `seed` with `extra` options. */
async function nesRun(name: string, seed: number, ...extra: string[]): Promise<string> {
  const out = join(dir, name);
  const args = ['bench', 'nes', '--table', table, '--games', '4', '--max-level', '19', '--seed', String(seed)];
  const run = await runCli([...args, '--threads', '1', '--out', out, ...extra]);
  expect(run.code, run.err).toBe(0);
  return out;
}

interface Rec {
  game: number;
  nes: { score: number; bandScore: number[] };
}
const records = async (file: string): Promise<Rec[]> => JSON.parse(await readFile(file, 'utf8')).parts[0].records;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stackrank-nes-pair-'));
  table = join(dir, 't.srk');
  await (await buildRankTable({ width: 9, iterations: 3 })).save(table);
}, 120_000);

describe('bench/nes-pair.ts', () => {
  it('gives the mean per-game difference, its standard error and interval, overall and by band', async () => {
    const a = await nesRun('a.json', 11);
    const b = await nesRun('b.json', 11, '--lookahead', '0');
    const r = pair('--a', a, '--b', b, '--json');
    expect(r.status, r.stderr).toBe(0);
    const { rows } = JSON.parse(r.stdout);
    const [ra, rb] = [await records(a), await records(b)];
    const columns = [(x: Rec) => x.nes.score, ...[0, 1, 2, 3].map((i) => (x: Rec) => x.nes.bandScore[i])];
    expect(rows.map((row: { measure: string }) => row.measure)).toEqual([
      'score',
      'score ≤18',
      'score 19–28',
      'score 29–38',
      'score 39+',
    ]);
    columns.forEach((column, k) => {
      const d = ra.map((x, i) => column(rb[i]) - column(x));
      const mean = d.reduce((s, x) => s + x, 0) / 4;
      const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / 3);
      expect(rows[k].games).toBe(4);
      expect(rows[k].meanA).toBeCloseTo(ra.reduce((s, x) => s + column(x), 0) / 4, 6);
      expect(rows[k].meanB).toBeCloseTo(rb.reduce((s, x) => s + column(x), 0) / 4, 6);
      expect(rows[k].difference).toBeCloseTo(mean, 6);
      expect(rows[k].standardError).toBeCloseTo(sd / 2, 6);
      expect(rows[k].low95).toBeCloseTo(mean - (Z95 * sd) / 2, 6);
      expect(rows[k].high95).toBeCloseTo(mean + (Z95 * sd) / 2, 6);
      expect(rows[k].equal).toBe(d.filter((x) => x === 0).length);
    });
    // Without the next piece the AI plays other games: the comparison must see a difference.
    expect(rows[0].difference).not.toBe(0);
    // The printed table shows the same figures, rounded, and the results file holds the rows --json printed.
    const table = pair('--a', a, '--b', b);
    expect(table.status, table.stderr).toBe(0);
    const cells = (measure: string) =>
      table.stdout
        .split('\n')
        .find((line) => line.startsWith(`| ${measure} `))
        ?.split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
    const whole = (x: number) => Math.round(x).toLocaleString('en-US');
    rows.forEach((row: Record<string, number> & { measure: string }) => {
      expect(cells(row.measure), row.measure).toEqual([
        row.measure,
        '4',
        whole(row.meanA),
        whole(row.meanB),
        whole(row.difference),
        whole(row.standardError),
        `${whole(row.low95)} to ${whole(row.high95)}`,
        String(row.equal),
      ]);
    });
    const written = join(dir, 'nes-pair.json');
    expect(table.stdout).toContain(`wrote ${written}`);
    expect(JSON.parse(await readFile(written, 'utf8')).rows).toEqual(rows);
    // The same file twice: every game equal, no difference.
    const same = JSON.parse(pair('--a', a, '--b', a, '--json').stdout).rows[0];
    expect([same.difference, same.standardError, same.equal]).toEqual([0, 0, 4]);
  }, 240_000);

  it('reads a bench game file under the timed rules too: the same games as bench nes', async () => {
    const a = await nesRun('f.json', 14, '--max-pieces', '80');
    const game = join(dir, 'h.json');
    const gameArgs = ['bench', 'game', '--rules', 'nes', '--table', table, '--games', '4', '--max-pieces', '80'];
    expect((await runCli([...gameArgs, '--seed', '14', '--threads', '1', '--out', game])).code).toBe(0);
    const r = pair('--a', a, '--b', game, '--json');
    expect(r.status, r.stderr).toBe(0);
    const [score] = JSON.parse(r.stdout).rows;
    expect(score.meanA).toBeGreaterThan(0);
    expect([score.difference, score.equal]).toEqual([0, 4]);
  }, 240_000);

  it('refuses files of another seed, other games, no NES scores or another command, naming the problem (exit 2)', async () => {
    const a = await nesRun('c.json', 12);
    const otherSeed = await nesRun('d.json', 13);
    const shard = await nesRun('e.json', 12, '--shard', '0/2');
    const untimed = join(dir, 'g.json');
    const gameArgs = ['bench', 'game', '--rules', 'classic', '--table', table, '--games', '4', '--max-pieces', '20'];
    expect((await runCli([...gameArgs, '--seed', '12', '--threads', '1', '--out', untimed])).code).toBe(0);
    const survival = join(dir, 's.json');
    const survivalArgs = ['bench', 'survival', '--table', table, '--games', '4', '--max-pieces', '20'];
    expect((await runCli([...survivalArgs, '--seed', '12', '--threads', '1', '--out', survival])).code).toBe(0);
    for (const [file, problem] of [
      [otherSeed, 'different seeds (12 and 13)'],
      [shard, 'different games (A 0..3, B 0..1)'],
      [untimed, 'B has no NES scores'],
      [survival, 'not one of bench nes or bench game'],
      [join(dir, 'missing.json'), 'missing.json'],
    ]) {
      const r = pair('--a', a, '--b', file);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(problem);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const usage = pair('--a', a);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--a FILE and --b FILE');
  }, 240_000);
});
