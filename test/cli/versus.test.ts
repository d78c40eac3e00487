/**
 * `stackrank bench versus` (src/cli/versus.ts): its JSON line is playVersus's result for the same options, its table
 * names both sides and side A's score, and option combinations that do not go together are usage errors.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { playVersus } from '../../src/versus/run.js';
import { runCli } from '../helpers/cli.js';

let table: RankTable;
let file: string;
beforeAll(async () => {
  table = await buildRankTable({ width: 7, iterations: 3, threads: 1 });
  file = join(mkdtempSync(join(tmpdir(), 'stackrank-cli-versus-')), 't7.srk');
  await table.save(file);
}, 120_000);

const ARGS = ['--matches', '2', '--max-pieces', '60', '--seed', '4', '--lookahead', '1', '--b-lookahead', '0'];

describe('stackrank bench versus', () => {
  it("prints one JSON object: playVersus's result for the same options, without the per-match tallies", async () => {
    const run = await runCli(['bench', 'versus', '--table', file, ...ARGS, '--garbage-delay', '1', '--json']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    expect(lines).toHaveLength(1);
    const got = JSON.parse(lines[0]);
    const want = await playVersus({
      a: { ai: { lookahead: 1 } },
      b: { ai: { lookahead: 0 } },
      matches: 2,
      maxPieces: 60,
      seed: 4,
      garbageDelay: 1,
      table,
    });
    const { tallies, seconds, piecesPerSecond, threads, ...figures } = want;
    void [seconds, piecesPerSecond, threads];
    expect(got).toMatchObject(JSON.parse(JSON.stringify(figures)));
    expect(got).not.toHaveProperty('tallies');
    expect(tallies).toHaveLength(2);
    expect(got.sides.map((s: { player: string }) => s.player)).toEqual([
      'TetrisAI lookahead 1',
      'TetrisAI lookahead 0',
    ]);
  }, 120_000);

  it('passes --messiness-within, --messiness-between and --streams to playVersus', async () => {
    const direct = (options: Partial<Parameters<typeof playVersus>[0]> = {}) =>
      playVersus({
        a: { ai: { lookahead: 1 } },
        b: { ai: { lookahead: 0 } },
        matches: 2,
        maxPieces: 60,
        seed: 4,
        table,
        threads: 1,
        ...options,
      });
    /** What the JSON line and a direct call share: the figures, not the clock. */
    const figures = (r: object) => {
      const { tallies, seconds, piecesPerSecond, threads, ...rest } = r as Awaited<ReturnType<typeof playVersus>>;
      void [tallies, seconds, piecesPerSecond, threads];
      return JSON.parse(JSON.stringify(rest));
    };
    const byDefault = figures(await direct());
    for (const [extra, options] of [
      [
        ['--messiness-within', '0.9', '--messiness-between', '0.5'],
        { messiness: { withinAttack: 0.9, betweenAttacks: 0.5 } },
      ],
      [['--streams', 'independent'], { streams: 'independent' }],
    ] as const) {
      const run = await runCli(['bench', 'versus', '--table', file, ...ARGS, '--threads', '1', ...extra, '--json']);
      expect(run.code, run.err).toBe(0);
      const want = figures(await direct(options));
      expect(figures(JSON.parse(run.out))).toEqual(want);
      // Other matches than the defaults', or the test would not see the option passed.
      expect(want.sides).not.toEqual(byDefault.sides);
    }
  }, 120_000);

  it('prints the sides, a row each, and side A score with its interval', async () => {
    const run = await runCli(['bench', 'versus', '--table', file, ...ARGS, '--threads', '1']);
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    expect(lines[0]).toMatch(/^versus, guideline, 8-wide boards: 2 matches from 0, at most 60 pieces each, seed 4/);
    expect(lines[1]).toBe('A: TetrisAI lookahead 1');
    expect(lines[2]).toBe('B: TetrisAI lookahead 0');
    expect(lines[4]).toMatch(/^A\s+\d+\s+\d\.\d{3}\s+\d\.\d{3}\s+\d+/);
    expect(lines[5]).toMatch(/^B\s+\d+\s+\d\.\d{3}/);
    expect(lines[6]).toMatch(
      /^A's score \d+\.\d % \(95 % interval \d+\.\d %–\d+\.\d %\): \d+ won, \d+ lost, \d+ drawn/,
    );
  }, 120_000);

  it('options that do not go together are usage errors; a bot that cannot run is a runtime error', async () => {
    const thinkAlone = await runCli(['bench', 'versus', '--table', file, '--think-ms', '10']);
    expect(thinkAlone.code).toBe(2);
    expect(thinkAlone.err).toMatch(/--think-ms needs --tbp/);
    const both = await runCli(['bench', 'versus', '--table', file, '--tbp', 'bot', '--b-lookahead', '2']);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/with --tbp side B is the bot/);
    const expectimaxVersus = await runCli(['bench', 'versus', '--table', file, '--goal', 'versus', '--expectimax']);
    expect(expectimaxVersus.code).toBe(2);
    expect(expectimaxVersus.err).toMatch(/--expectimax is the survival policy's/);
    const goalWithBot = await runCli(['bench', 'versus', '--table', file, '--tbp', 'bot', '--b-goal', 'versus']);
    expect(goalWithBot.code).toBe(2);
    expect(goalWithBot.err).toBe(
      'stackrank bench versus: --b-lookahead, --b-expectimax, --b-goal and --b-versus-placements set a TetrisAI side B; with --tbp side B is the bot',
    );
    const placementsSurvival = await runCli(['bench', 'versus', '--table', file, '--versus-placements', 'full']);
    expect(placementsSurvival.code).toBe(2);
    expect(placementsSurvival.err).toMatch(/set a side playing goal versus/);
    const placementsBot = await runCli([
      'bench',
      'versus',
      '--table',
      file,
      '--tbp',
      'bot',
      '--b-versus-placements',
      'full',
    ]);
    expect(placementsBot.code).toBe(2);
    expect(placementsBot.err).toMatch(/with --tbp side B is the bot/);
    const versusNarrow = await runCli(['bench', 'versus', '--table', file, '--goal', 'versus']);
    expect(versusNarrow.code).toBe(1);
    expect(versusNarrow.err).toMatch(/goal 'versus' plays a 10-wide board.*\[BAD_ARGUMENT\]/);
    const narrow = await runCli(['bench', 'versus', '--table', file, '--tbp', join(dirname(file), 'no-such-bot')]);
    expect(narrow.code).toBe(1);
    expect(narrow.err).toMatch(/10-wide board.*\[BAD_ARGUMENT\]/);
  }, 60_000);
});
