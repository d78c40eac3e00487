/**
 * bench/nes-peer.ts: `sequences` writes the pieces `bench nes` deals each game (checked against the pieces the
 * simulator's own games are dealt); `compare` pairs a peer's per-game JSON lines with a `bench nes` run file, its
 * figures checked against both files' games computed here; bad files and options exit 2 naming the problem, with
 * no stack trace.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { playOneGame } from '../../src/tetris-ai/game-simulator.js';
import { runCli } from '../helpers/cli.js';
import { runBenchScript } from '../helpers/bench-script.js';

const Z95 = 1.959963984540054;
let dir: string;
let tablePath: string;
let table: RankTable;

// its results file goes to the test's directory, not the repository's bench/results
const peerScript = (...args: string[]) => runBenchScript('nes-peer.ts', args, dir);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stackrank-nes-peer-'));
  tablePath = join(dir, 't.srk');
  table = await buildRankTable({ width: 9, iterations: 3 });
  await table.save(tablePath);
}, 120_000);

describe('bench/nes-peer.ts', () => {
  it('sequences: each line is the pieces bench nes deals that game, in order', async () => {
    const out = join(dir, 'seqs.txt');
    const r = peerScript('sequences', '--seed', '5', '--games', '3', '--pieces', '40', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const lines = (await readFile(out, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const ai = await TetrisAI.create({ rules: 'nes', lookahead: 1, table, randomizer: 'nes', playOuts: false });
    for (let game = 0; game < 3; game++) {
      const dealt: string[] = [];
      await playOneGame(
        ai,
        game,
        { randomizer: 'nes', lookahead: 1, hold: false, maxPieces: 30, seed: 5, maxLevel: null },
        { onTurn: (t) => dealt.push(t.current) },
      );
      expect(lines[game]).toMatch(/^[IOTSZLJ]{40}$/);
      expect(lines[game]!.slice(0, dealt.length)).toBe(dealt.join(''));
    }
    // other games, other pieces
    expect(new Set(lines).size).toBe(3);
  }, 120_000);

  it("compare: the paired difference and each player's figures over the games both played", async () => {
    const run = join(dir, 'ours.json');
    const args = ['bench', 'nes', '--table', tablePath, '--games', '3', '--max-level', '19', '--seed', '11'];
    const played = await runCli([...args, '--threads', '1', '--out', run]);
    expect(played.code, played.err).toBe(0);
    type Rec = { game: number; lines: number; clears: number[]; topOut: boolean; nes: { score: number } };
    const ours: Rec[] = JSON.parse(await readFile(run, 'utf8')).parts[0].records;
    const peer = [
      { game: 0, score: 900_000, lines: 131, singles: 3, doubles: 2, triples: 0, tetrises: 31, topout: false },
      { game: 2, score: 10, lines: 1, singles: 1, doubles: 0, triples: 0, tetrises: 0, topout: true },
      { game: 1, score: 500_000, lines: 120, singles: 0, doubles: 0, triples: 4, tetrises: 27 },
    ];
    const peerFile = join(dir, 'peer.jsonl');
    const summary = JSON.stringify({ summary: true, games: 3 });
    await writeFile(peerFile, [...peer.map((p) => JSON.stringify(p)), summary, ''].join('\n'));
    const r = peerScript('compare', '--peer', peerFile, '--ours', run, '--json');
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    const byGame = (g: number) => peer.find((p) => p.game === g)!;
    const d = ours.map((o) => o.nes.score - byGame(o.game).score);
    const mean = d.reduce((s, x) => s + x, 0) / 3;
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / 2);
    expect(got.games).toBe(3);
    expect(got.seed).toBe(11);
    expect(got.difference).toBeCloseTo(mean, 6);
    expect(got.standardError).toBeCloseTo(sd / Math.sqrt(3), 6);
    expect(got.ci95[0]).toBeCloseTo(mean - (Z95 * sd) / Math.sqrt(3), 6);
    expect(got.ci95[1]).toBeCloseTo(mean + (Z95 * sd) / Math.sqrt(3), 6);
    expect(got.ours.meanLines).toBeCloseTo(ours.reduce((s, o) => s + o.lines, 0) / 3, 9);
    const ourLines = ours.reduce((s, o) => s + o.lines, 0);
    expect(got.ours.averageScore).toBeCloseTo(ours.reduce((s, o) => s + o.nes.score, 0) / 3, 6);
    expect(got.ours.tetrisRate).toBeCloseTo((4 * ours.reduce((s, o) => s + o.clears[3]!, 0)) / ourLines, 9);
    expect(got.ours.otherLines).toBeCloseTo(
      ours.reduce((s, o) => s + o.clears[0]! + 2 * o.clears[1]! + 3 * o.clears[2]!, 0) / 3,
      9,
    );
    expect(got.ours.topOuts).toBe(ours.filter((o) => o.topOut).length);
    expect(got.ours.gamesAhead).toBe(d.filter((x) => x > 0).length);
    expect(got.peer).toEqual({
      averageScore: 1_400_010 / 3,
      meanLines: 252 / 3,
      tetrisRate: (4 * 58) / 252,
      otherLines: (3 + 4 + 1 + 12) / 3,
      topOuts: 1,
      gamesAhead: d.filter((x) => x < 0).length,
    });
    // --first 1: the peer's games 0 and 1 are the run's games 1 and 2
    const shifted = join(dir, 'shifted.jsonl');
    await writeFile(shifted, [peer[2], peer[1]].map((p, i) => JSON.stringify({ ...p, game: i })).join('\n'));
    const s = peerScript('compare', '--peer', shifted, '--ours', run, '--first', '1', '--json');
    expect(s.status, s.stderr).toBe(0);
    const later = JSON.parse(s.stdout);
    expect(later.games).toBe(2);
    expect(later.difference).toBeCloseTo((d[1]! + d[2]!) / 2, 6);
    // the table and the results file
    const table = peerScript('compare', '--peer', peerFile, '--ours', run);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain('3 games of seed 11');
    expect(table.stdout).toMatch(/\| peer +\| 466,670 /);
    const whole = (x: number) => Math.round(x).toLocaleString('en-US');
    expect(table.stdout).toContain(
      `ours − peer: ${whole(mean)} a game (standard error ${whole(sd / Math.sqrt(3))}, 95 % interval ` +
        `${whole(mean - (Z95 * sd) / Math.sqrt(3))} to ${whole(mean + (Z95 * sd) / Math.sqrt(3))})`,
    );
    const written = join(dir, 'nes-peer.json');
    expect(table.stdout).toContain(`wrote ${written}`);
    const { machine, ...figures } = JSON.parse(await readFile(written, 'utf8'));
    expect(machine.cores).toBeGreaterThan(0);
    // the same figures as --json printed (the machine's load aside)
    const printed = Object.fromEntries(Object.entries(got).filter(([key]) => key !== 'machine'));
    expect(figures).toEqual(printed);
    expect([figures.peerFile, figures.runFile]).toEqual([peerFile, run]);
    // Our top-outs come from the run file: games at level 29 with a slow tap rate top out within 300 pieces.
    const fast = join(dir, 'topped.json');
    const killscreen = ['--start-level', '29', '--double-killscreen', '29', '--timeline', 'X.....', '--max-level', '0'];
    const fastArgs = ['bench', 'nes', '--table', tablePath, '--games', '3', '--max-pieces', '300', '--seed', '11'];
    expect((await runCli([...fastArgs, ...killscreen, '--threads', '1', '--out', fast])).code).toBe(0);
    const toppedOut = (JSON.parse(await readFile(fast, 'utf8')).parts[0].records as Rec[]).filter((o) => o.topOut);
    expect(toppedOut.length).toBeGreaterThan(0);
    const topped = peerScript('compare', '--peer', peerFile, '--ours', fast, '--json');
    expect(topped.status, topped.stderr).toBe(0);
    expect(JSON.parse(topped.stdout).ours.topOuts).toBe(toppedOut.length);
  }, 240_000);

  it('refuses bad peer lines, runs that share no game, a run of another command and bad options (exit 2)', async () => {
    const run = join(dir, 'short.json');
    const args = ['bench', 'nes', '--table', tablePath, '--games', '2', '--max-pieces', '30', '--seed', '3'];
    expect((await runCli([...args, '--threads', '1', '--out', run])).code).toBe(0);
    const survival = join(dir, 'survival.json');
    const survivalArgs = ['bench', 'survival', '--table', tablePath, '--games', '2', '--max-pieces', '20'];
    expect((await runCli([...survivalArgs, '--seed', '3', '--threads', '1', '--out', survival])).code).toBe(0);
    const good = { game: 0, score: 1, lines: 1, singles: 1, doubles: 0, triples: 0, tetrises: 0 };
    const cases: [string, string, string][] = [
      ['json.jsonl', `${JSON.stringify(good)}\n{oops`, 'line 2 is not JSON'],
      ['field.jsonl', JSON.stringify({ ...good, score: undefined }), 'line 1: score is undefined'],
      ['negative.jsonl', JSON.stringify({ ...good, lines: -1 }), 'line 1: lines is -1'],
      ['twice.jsonl', `${JSON.stringify(good)}\n${JSON.stringify(good)}`, 'game 0 appears twice'],
      ['none.jsonl', JSON.stringify({ ...good, game: 7 }), 'share no game numbers'],
      ['empty.jsonl', '\n', 'holds no games'],
    ];
    for (const [name, text, problem] of cases) {
      const file = join(dir, name);
      await writeFile(file, text);
      const r = peerScript('compare', '--peer', file, '--ours', run);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(problem);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const peerFile = join(dir, 'good.jsonl');
    await writeFile(peerFile, JSON.stringify(good));
    for (const [argv, problem] of [
      [['compare', '--peer', peerFile, '--ours', survival], 'not one of bench nes'],
      [['compare', '--peer', join(dir, 'missing.jsonl'), '--ours', run], 'cannot read'],
      [['compare', '--peer', peerFile], 'compare needs --peer'],
      [['sequences', '--seed', '1', '--games', '2'], 'sequences needs'],
      [['sequences', '--seed', '1', '--games', '2', '--pieces', '0', '--out', join(dir, 'x.txt')], '--pieces is 0'],
      [['compare', '--peer', peerFile, '--ours', run, '--first', '1.5'], '--first is 1.5'],
      [['play'], 'sequences or compare'],
      [['compare', '--bogus'], "Unknown option '--bogus'"],
    ] as [string[], string][]) {
      const r = peerScript(...argv);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(problem);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 240_000);
});
