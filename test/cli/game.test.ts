import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { CliIO } from '../../src/cli/io.js';
import { playGame } from '../../src/game/play.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { RULE_SET_NAMES } from '../../src/rules/rule-sets.js';
import { runCli } from '../helpers/cli.js';

let file: string;
let table: RankTable;
beforeAll(async () => {
  file = join(await mkdtemp(join(tmpdir(), 'stackrank-cli-game-')), 't.srk');
  table = await buildRankTable({ width: 9, iterations: 3 });
  await table.save(file);
}, 120_000);

describe('stackrank bench game', () => {
  it('prints one JSON line per player with the figures playGame measures', async () => {
    const args = [
      'bench',
      'game',
      '--table',
      file,
      '--rules',
      'classic',
      '--randomizer',
      'tgm1',
      '--lookahead',
      '1',
      '--games',
      '2',
      '--max-pieces',
      '60',
      '--seed',
      '4',
      '--json',
    ];
    const run = await runCli(args);
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    expect(lines).toHaveLength(1);
    const r = JSON.parse(lines[0]);
    expect(Object.keys(r)).toEqual(
      expect.arrayContaining([
        'player',
        'rules',
        'randomizer',
        'lookahead',
        'hold',
        'games',
        'pieces',
        'lines',
        'tetrisRate',
        'clears',
        'topOuts',
        'stackShare',
        'holesPer1000',
        'piecesPerSecond',
      ]),
    );
    expect([r.player, r.rules, r.randomizer, r.lookahead, r.hold, r.games, r.seed]).toEqual([
      'both',
      'classic',
      'tgm1',
      1,
      false,
      2,
      4,
    ]);
    // The same games played through the library directly: the CLI passes every option through.
    const direct = await playGame({
      rules: 'classic',
      randomizer: 'tgm1',
      lookahead: 1,
      games: 2,
      maxPieces: 60,
      seed: 4,
      table,
    });
    expect([r.pieces, r.lines, r.clears, r.topOuts, r.stackShare, r.holesPer1000]).toEqual([
      direct.pieces,
      direct.lines,
      direct.clears,
      direct.topOuts,
      direct.stackShare,
      direct.holesPer1000,
    ]);
    expect(r.lines).toBe(r.clears.single + 2 * r.clears.double + 3 * r.clears.triple + 4 * r.clears.tetris);
    // The intervals are the library's (JSON has no Infinity: an open end is null).
    expect(r.tetrisRateCi95).toEqual(direct.tetrisRateCi95);
    expect(r.piecesPerTopOutCi95).toEqual(direct.piecesPerTopOutCi95.map((x) => (Number.isFinite(x) ? x : null)));
    expect(r.piecesPerTopOutCi95[0]).toBeCloseTo(r.pieces / (r.topOuts === 0 ? 3.688879 : r.topOuts + 1), -2);
  }, 60_000);

  it('plays the same games on --threads 1 and --threads 2, and its result file records the thread count', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-cli-game-threads-'));
    const args = [
      'bench',
      'game',
      '--table',
      file,
      '--rules',
      'classic',
      '--games',
      '2',
      '--max-pieces',
      '80',
      '--json',
    ];
    const one = await runCli([...args, '--threads', '1', '--out', join(dir, 'one.json')]);
    const two = await runCli([...args, '--threads', '2', '--out', join(dir, 'two.json')]);
    expect([one.code, two.code]).toEqual([0, 0]);
    const threads = async (name: string) => JSON.parse(await readFile(join(dir, name), 'utf8')).parts[0].meta.threads;
    expect([await threads('one.json'), await threads('two.json')]).toEqual([1, 2]);
    const games = (r: { pieces: number; lines: number; clears: unknown; topOuts: number; stackShare: number }) => [
      r.pieces,
      r.lines,
      r.clears,
      r.topOuts,
      r.stackShare,
    ];
    expect(games(JSON.parse(two.out))).toEqual(games(JSON.parse(one.out)));
  }, 120_000);

  it('runs the baselines after the AI with --baselines, and uses hold with --hold', async () => {
    const run = await runCli([
      'bench',
      'game',
      '--table',
      file,
      '--rules',
      'guideline',
      '--hold',
      '--games',
      '1',
      '--max-pieces',
      '30',
      '--baselines',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const rows = run.out.split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => r.player)).toEqual(['both', 'stackOnly', 'fullBoardOnly']);
    for (const r of rows) expect([r.rules, r.randomizer, r.hold]).toEqual(['guideline', 'bag7', true]);
  }, 120_000);

  it('prints a readable table naming the randomizer played', async () => {
    const run = await runCli([
      'bench',
      'game',
      '--table',
      file,
      '--rules',
      'nes',
      '--games',
      '1',
      '--max-pieces',
      '40',
    ]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /real games under nes, randomizer nes, lookahead 1, no hold, 1 game of at most 40 pieces, seed 0/,
    );
    expect(run.out).toMatch(/Tetris rate .*top-outs .*holes\/1000/);
    expect(run.out).toMatch(
      /^TetrisAI\s+40\s+\d+\s+\d+\.\d %\s+\d+\/\d+\/\d+\/\d+\s+0\s+\d+\.\d %\s+\d+\.\d\s+[\d,]+$/m,
    );
    // One game: no interval for the Tetris rate; 40 pieces without a top-out: at least 40 / 3.689 pieces per top-out.
    expect(run.out).toMatch(
      /^\s+95 % intervals: Tetris rate none \(fewer than 2 games with lines\), pieces per top-out at least 11$/m,
    );
  }, 60_000);

  it('documents every option in --help', async () => {
    const run = await runCli(['bench', 'game', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--rules',
      '--randomizer',
      '--lookahead',
      '--hold',
      '--games',
      '--max-pieces',
      '--seed',
      '--baselines',
      '--threads',
      '--json',
    ])
      expect(run.out).toContain(flag);
    for (const name of RULE_SET_NAMES) expect(run.out).toContain(name);
  });

  it.each([
    [['bench', 'game', '--rules', 'tetris99'], new RegExp(`--rules must be one of ${RULE_SET_NAMES.join(', ')}`)],
    [['bench', 'game', '--randomizer', 'fair'], /--randomizer must be one of/],
    [['bench', 'game', '--lookahead', '7'], /--lookahead must be an integer from 0 to 6/],
    [['bench', 'game', '--games', '0'], /--games must be an integer from 1 to/],
    [['bench', 'game', '--threads', '0'], /--threads must be an integer from 1 to 256/],
    [
      ['bench', 'game', '--rules', 'classic', '--hold'],
      /--hold needs a rule set with hold \(guideline\); classic has none/,
    ],
    // tgm20g plays the cached 20G table, which exists only iterated forbidding steep placements.
    [['bench', 'game', '--rules', 'tgm20g', '--table-steep', 'collapse'], /20G table .* drop --table-steep/],
  ])('rejects %j with exit code 2', async (argv, message) => {
    const run = await runCli(argv as string[]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
  });

  it('stops on Ctrl-C during play with exit code 130', async () => {
    // Ctrl-C arrives as an event (like SIGINT), queued once the games report progress: the games must give the event
    // loop a turn while pieces are being placed, or the abort is never seen.
    const controller = new AbortController();
    const err: string[] = [];
    let queued = false;
    const status = (l: string) => {
      if (!queued && /pieces/.test(l)) {
        queued = true;
        setTimeout(() => controller.abort(), 0);
      }
    };
    const io: CliIO = {
      out: () => {},
      err: (l) => err.push(l),
      status,
      isTTY: false,
      env: {},
      signal: controller.signal,
    };
    const code = await main(
      ['bench', 'game', '--table', file, '--rules', 'classic', '--games', '1000', '--max-pieces', '100000'],
      io,
    );
    expect(controller.signal.aborted).toBe(true);
    expect(code).toBe(130);
    expect(err.join('\n')).toMatch(/stackrank bench game: interrupted/);
  }, 60_000);
});
