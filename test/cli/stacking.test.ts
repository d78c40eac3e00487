import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable } from '../../src/rank/table.js';
import { simulateStacking } from '../../src/stacking-ai/simulate.js';
import { drawBoard } from '../../src/cli/play.js';
import { main } from '../../src/cli.js';
import type { CliIO } from '../../src/cli/io.js';
import { runCli } from '../helpers/cli.js';

let file: string;
beforeAll(async () => {
  file = join(await mkdtemp(join(tmpdir(), 'stackrank-cli-stack-')), 't.srk');
  await (await buildRankTable({ width: 9, iterations: 3 })).save(file);
}, 120_000);

/** `bench survival` on the test's table: one lookahead, games and pieces, then any other arguments. */
function survivalArgs(lookahead: string, games: string, maxPieces: string, ...more: string[]): string[] {
  return [
    'bench',
    'survival',
    '--table',
    file,
    '--lookahead',
    lookahead,
    '--games',
    games,
    '--max-pieces',
    maxPieces,
    ...more,
  ];
}

describe('stackrank bench survival', () => {
  it('prints one JSON row per lookahead with the article figure', async () => {
    const run = await runCli(survivalArgs('0,1', '8', '3000', '--seed', '3', '--threads', '2', '--json'));
    expect(run.code).toBe(0);
    const rows = run.out.split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => r.lookahead)).toEqual([0, 1]);
    expect(rows.map((r) => r.articleFigure)).toEqual([153, 823]);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(
        expect.arrayContaining([
          'lookahead',
          'meanPieces',
          'ci95',
          'deaths',
          'pieces',
          'piecesPerSecond',
          'estimator',
          'articleFigure',
          'strategy',
        ]),
      );
      expect(r.strategy).toBe('rank');
      expect(r.pieces).toBe(3000);
      expect(r.meanPieces).toBeCloseTo(r.pieces / r.deaths, 6);
    }
    const again = await runCli(survivalArgs('0', '8', '3000', '--seed', '3', '--threads', '1', '--json'));
    expect(JSON.parse(again.out).deaths).toBe(rows[0].deaths);
  });

  it('passes --board-height to the rules: a low board kills games sooner', async () => {
    const args = survivalArgs('1', '8', '4000', '--seed', '5', '--json');
    const tall = JSON.parse((await runCli([...args, '--board-height', '63'])).out);
    const usual = JSON.parse((await runCli(args)).out);
    const low = JSON.parse((await runCli([...args, '--board-height', '9'])).out);
    expect([tall.boardHeight, usual.boardHeight, low.boardHeight]).toEqual([63, 20, 9]);
    expect(low.deaths).toBeGreaterThan(usual.deaths);
    expect(tall.deaths).toBeLessThanOrEqual(usual.deaths);
  });

  it('prints a readable table', async () => {
    const run = await runCli(survivalArgs('0', '4', '500', '--steep', 'excessFirst'));
    expect(run.out).toMatch(/steep excessFirst/);
    expect(run.out).toMatch(/, 4 streams, budget 500 pieces per lookahead,/);
    expect((await runCli(survivalArgs('0', '1', '100'))).out).toMatch(/, 1 stream, budget 100 pieces per lookahead,/);
    expect(run.out).toMatch(/^\s+0\s+\d+\.\d\s+\[\d+, \d+\]\s+\d+\s+[\d,]+\s+153$/m);
    // The text names the leaf the JSON reports ("rank" for the rank strategy), and says which game the article fits.
    const json = JSON.parse((await runCli(survivalArgs('0', '4', '500', '--json'))).out);
    expect(run.out).toMatch(new RegExp(`strategy rank, leaf ${json.leaf},`));
    // The table's variant is named; the note on the article's figures comes after the rows.
    expect(run.out).toMatch(/, table article 9x4\/3 iterations,/);
    const lines = run.out.split('\n');
    expect(lines[1]).toMatch(/^lookahead .* article$/);
    expect(lines.at(-1)).toMatch(/^article: .*steep steps collapse/);
    expect(lines).toHaveLength(4);
  });

  it.each([
    ['bag7', ['--randomizer', 'bag7']],
    ['tgm20g', ['--rules', 'tgm20g', '--board-height', '20']],
  ])('prints no article figure where the article has none (%s)', async (_what, extra) => {
    const args = survivalArgs('0', '4', '500', ...extra);
    const text = await runCli(args);
    expect(text.code, text.err).toBe(0);
    expect(text.out).not.toMatch(/article:|\barticle$/m);
    expect(text.out.split('\n')[2]).toMatch(/^\s+0\s+\d+\.\d\s+\[\d+, \d+\]\s+\d+\s+[\d,]+$/);
    const json = JSON.parse((await runCli([...args, '--json'])).out);
    expect(json.articleFigure).toBeNull();
  });

  it("plays --strategy and --steep: the row is simulateStacking's for the same options", async () => {
    // A 7-column table: the expectimax leaves of the 9-column one take seconds to set up.
    const table = await buildRankTable({ width: 7, iterations: 3, threads: 1 });
    const narrow = join(await mkdtemp(join(tmpdir(), 'stackrank-cli-strategy-')), 't7.srk');
    await table.save(narrow);
    const args = survivalArgs('0', '4', '2000', '--seed', '3', '--threads', '1');
    const run = await runCli([
      ...args.map((a) => (a === file ? narrow : a)),
      ...['--strategy', 'expectimax', '--steep', 'truncate', '--json'],
    ]);
    expect(run.code, run.err).toBe(0);
    const row = JSON.parse(run.out);
    const direct = (strategy: 'rank' | 'expectimax', steep: 'truncate' | 'excessFirst') =>
      simulateStacking({
        table,
        lookahead: 0,
        games: 4,
        maxPieces: 2000,
        seed: 3,
        threads: 1,
        strategy,
        stacking: { steep },
      });
    const want = await direct('expectimax', 'truncate');
    expect(row).toMatchObject({
      strategy: 'expectimax',
      steep: 'truncate',
      leaf: want.leaf,
      deaths: want.deaths,
      pieces: want.pieces,
      meanPieces: want.meanPieces,
      ci95: want.ci95,
    });
    // Each option alone plays other games here, or the test would not see it passed.
    for (const other of [await direct('rank', 'truncate'), await direct('expectimax', 'excessFirst')])
      expect([other.deaths, other.ci95]).not.toEqual([want.deaths, want.ci95]);
  });

  it('names one unknown piece in the singular', async () => {
    const run = await runCli(survivalArgs('0', '2', '100', '--strategy', 'expectimax'));
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/strategy expectimax \(1 unknown piece\), leaf piece-max,/);
  });

  it.each([
    [['bench', 'survival', '--lookahead', '9'], /--lookahead must be an integer from 0 to 6/],
    [['bench', 'survival', '--randomizer', 'fair'], /--randomizer must be one of/],
    [['bench', 'survival', '--steep', 'soft'], /--steep must be one of truncate, excessFirst, collapse/],
    [['bench', 'nope'], /unknown command 'nope'/],
    [['bench', 'survival', '--strategy', 'greedy'], /--strategy must be one of rank, expectimax, best; got "greedy"/],
    [['bench', 'survival', '--leaf', 'oracle'], /--leaf must be one of piece-max, preview/],
    [['bench', 'survival', '--leaf', 'preview'], /--leaf preview needs --strategy expectimax/],
    [['bench', 'survival', '--board-height', '64'], /--board-height must be an integer from 4 to 63/],
    [['bench', 'survival', '--leaf-iterations', '30'], /--leaf-iterations needs --leaf preview/],
    [['bench', 'survival', '--board-height', '7'], /the Tetris threshold \(8\) must not exceed --board-height \(7\)/],
    [
      ['bench', 'survival', '--rules', 'tgm3'],
      /--rules must be one of classic, nes, nesUntimed, guideline, tgm, tgm20g/,
    ],
    [
      ['bench', 'survival', '--rules', 'tgm20g', '--strategy', 'expectimax'],
      /--rules tgm20g plays with --strategy rank only/,
    ],
    [['bench', 'survival', '--rules', 'nes', '--board-height', '63'], /--rules nes needs --board-height of at most 40/],
  ])('rejects %j', async (argv, message) => {
    const run = await runCli(argv as string[]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
  });
});

describe('stackrank bench survival --rules', () => {
  it('plays only the placements the rule set reaches: tgm20g games die sooner than classic ones', async () => {
    const small = join(await mkdtemp(join(tmpdir(), 'stackrank-cli-rules-')), 'w6.srk');
    await (await buildRankTable({ width: 6, iterations: 4, threads: 1 })).save(small);
    const args = ['bench', 'survival', '--table', small, '--lookahead', '0', '--games', '4', '--max-pieces', '2000'];
    const run = async (extra: string[]) => {
      const r = await runCli([...args, ...extra, '--seed', '2', '--threads', '1', '--json']);
      expect(r.code).toBe(0);
      return JSON.parse(r.out);
    };
    const classic = await run([]);
    const explicit = await run(['--rules', 'classic']);
    const twenty = await run(['--rules', 'tgm20g']);
    expect(classic.rules).toBe('classic');
    expect(explicit.deaths).toBe(classic.deaths);
    expect(twenty.rules).toBe('tgm20g');
    expect(twenty.deaths).toBeGreaterThan(classic.deaths);
    const help = await runCli(['bench', 'survival', '--help']);
    expect(help.out).toMatch(/--rules <classic\|nes\|nesUntimed\|guideline\|tgm\|tgm20g>/);
  }, 60_000);
});

describe('stackrank play', () => {
  it('plays a game to the end and draws the board with the well', async () => {
    const run = await runCli(['play', '--table', file, '--lookahead', '0', '--seed', '9', '--json']);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out);
    expect(summary.pieces).toBeGreaterThan(5);
    expect(summary.ended).toMatch(/perfect stack breaks/);
    const human = await runCli(['play', '--table', file, '--lookahead', '1', '--seed', '9', '--max-pieces', '40']);
    expect(human.out).toMatch(/game over after 40 pieces \(reached --max-pieces\)/);
    expect(human.out).toMatch(/\+-{18}\+--\+/);
  });

  it('stops on Ctrl-C with exit code 130 even when running flat out (no --delay)', async () => {
    const args = ['play', '--table', file, '--lookahead', '3', '--seed', '2']; // a game of about 1,000 pieces
    const whole = JSON.parse((await runCli([...args, '--json'])).out);
    expect(whole.ended).toMatch(/perfect stack breaks/);
    // A terminal's io, which draws the board after every move. Ctrl-C arrives as a signal does, through the event
    // loop, from the first move on: the game must give the loop a turn to see it (a Ctrl-C during the AI's setup is
    // answered there, before any move).
    const controller = new AbortController();
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIO = {
      out: (l) => {
        // A terminal takes its time to draw (1 ms a board here), so the game lasts far longer than the 20 ms
        // between the loop's turns, on any machine.
        for (const until = performance.now() + 1; performance.now() < until; );
        if (out.push(l) === 1) setTimeout(() => controller.abort(), 0);
      },
      err: (l) => err.push(l),
      status: () => {},
      isTTY: true,
      env: {},
      signal: controller.signal,
    };
    expect(await main([...args, '--delay', '0'], io)).toBe(130);
    expect(err).toEqual(['stackrank play: interrupted']);
    const pieces = Number(/game over after (\d+) pieces \(interrupted\)/.exec(out.at(-1) ?? '')?.[1]);
    expect(pieces).toBeGreaterThan(0);
    expect(pieces).toBeLessThan(whole.pieces);
  });

  it('draws heights as filled cells', () => {
    expect(drawBoard([2, 0, 1, 0], 3)).toEqual(['| . . . .|  |', '|[] . . .|  |', '|[] .[] .|  |', '+--------+--+']);
  });
});
