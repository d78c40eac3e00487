import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import type { CliIO } from '../../src/cli/io.js';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { playGame, type PlayGameOptions } from '../../src/tetris-ai/play.js';
import type { PlayGameResult } from '../../src/tetris-ai/game-results.js';
import { cachedPreviewTablePath, loadOrBuildCachedPreviewTable } from '../../src/rank/variant-cache.js';
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
  it('--goal versus prints the versus figures playGame measures, garbage included', async () => {
    const args = ['--games', '2', '--max-pieces', '40', '--seed', '4', '--threads', '1'];
    const run = await runCli([
      'bench',
      'game',
      '--rules',
      'guideline',
      '--goal',
      'versus',
      '--versus-beam',
      '4',
      '--garbage',
      '1-2/3-5',
      ...args,
      '--json',
    ]);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.out.trim());
    const want = await playGame({
      rules: 'guideline',
      goal: 'versus',
      versus: { beam: 4 },
      garbage: { lines: [1, 2], every: [3, 5] },
      games: 2,
      maxPieces: 40,
      seed: 4,
      threads: 1,
    });
    expect([r.pieces, r.topOuts, r.versus]).toEqual([want.pieces, want.topOuts, want.versus]);
    expect(want.versus!.garbageReceived).toBeGreaterThan(0);
    expect(Object.values(want.versus!.kinds).reduce((a, b) => a + b, 0)).toBe(want.pieces);
    // the versus options go with --goal versus and a rule set with an attack table
    const notVersus =
      '--versus-beam, --versus-placements and --versus-weights set the versus search: give them with --goal versus';
    for (const [bad, message] of [
      [
        ['--goal', 'versus', '--rules', 'nes'],
        '--goal versus plays for attack: it needs a rule set with an attack table (guideline); nes has none',
      ],
      [['--versus-beam', '4'], notVersus],
      [['--versus-placements', 'full'], notVersus],
      [['--goal', 'versus', '--versus-placements', 'all'], '--versus-placements must be one of quick, full; got "all"'],
      [
        ['--goal', 'versus', '--garbage', '0/5'],
        '--garbage must be LINES/EVERY, each a number or a range MIN-MAX (e.g. 1-2/8-12: 1 to 2 lines every 8 to 12 pieces; lines 1 to 20, pieces 1 to 1000); got "0/5"',
      ],
    ] as const) {
      const refused = await runCli(['bench', 'game', ...bad, ...args]);
      expect([bad, refused.code, refused.err]).toEqual([bad, 2, `stackrank bench game: ${message}`]);
    }
  }, 120_000);

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
    expect([r.player, r.leaf, r.rules, r.randomizer, r.lookahead, r.hold, r.games, r.seed]).toEqual([
      'both',
      'piece-max',
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
    // These games do not top out: at least pieces / 3.688879 (the exact upper bound of a Poisson count of 0), open above.
    expect(r.topOuts).toBe(0);
    expect(r.piecesPerTopOutCi95[0]).toBeCloseTo(r.pieces / 3.688879, 3);
    expect(r.piecesPerTopOutCi95[1]).toBeNull();
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
    // The full-board player has no stack search, so no leaf.
    expect(rows.map((r) => r.leaf)).toEqual(['piece-max', 'piece-max', null]);
    for (const r of rows) expect([r.rules, r.randomizer, r.hold]).toEqual(['guideline', 'bag7', true]);
  }, 120_000);

  it("plays without hold with --no-hold, and with the rule set's hold when neither flag is given", async () => {
    const args = ['bench', 'game', '--table', file, '--rules', 'guideline', '--games', '1', '--max-pieces', '30'];
    const hold = async (...extra: string[]) => {
      const run = await runCli([...args, ...extra, '--json']);
      expect(run.code, run.err).toBe(0);
      return JSON.parse(run.out).hold;
    };
    expect(await hold()).toBe(true);
    expect(await hold('--no-hold')).toBe(false);
    expect(await hold('--hold')).toBe(true);
  }, 120_000);

  // The games the two recover flags' tests below play, called directly: nes, 2 games of at most 300 pieces, seed 0.
  const nesArgs = () => ['bench', 'game', '--table', file, '--rules', 'nes', '--games', '2', '--max-pieces', '300'];
  /** The games `nesArgs()` plays, through playGame: a player and the options a flag stands for. */
  const direct = (policy: PlayGameOptions['policy'], options: Partial<PlayGameOptions> = {}) =>
    playGame({ rules: 'nes', games: 2, maxPieces: 300, seed: 0, table, policy, threads: 1, ...options });

  it("passes --recover-chance to the AI's recover mode only, not to the baselines", async () => {
    const run = await runCli([...nesArgs(), '--recover-chance', '6', '--baselines', '--json', '--threads', '1']);
    expect(run.code).toBe(0);
    const [ai, , fullBoard] = run.out.split('\n').map((l) => JSON.parse(l));
    const chance = await direct('both', { recover: { chance: 6 } });
    const byDefault = await direct('both');
    expect([ai.pieces, ai.lines, ai.clears]).toEqual([chance.pieces, chance.lines, chance.clears]);
    // nes's chance ply values 3 lines by default, so these games differ from the flag's 6.
    expect([byDefault.lines, byDefault.clears]).not.toEqual([chance.lines, chance.clears]);
    const plain = await direct('fullBoardOnly');
    expect([fullBoard.pieces, fullBoard.lines, fullBoard.clears]).toEqual([plain.pieces, plain.lines, plain.clears]);
  }, 120_000);

  it("passes --recover-weights (a weights object or a tune-recover results file) to the AI's recover mode only", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-cli-weights-'));
    const weightsFile = join(dir, 'w.json');
    const resultsFile = join(dir, 'tune.json');
    await writeFile(weightsFile, JSON.stringify({ holes: -40, clean: 5 }));
    await writeFile(resultsFile, JSON.stringify({ generations: [], final: { holes: -40, clean: 5 } }));
    const given = await direct('both', { recover: { weights: { holes: -40, clean: 5 } } });
    const byDefault = await direct('both');
    // These weights play other games than the defaults, or the test would not see them passed.
    expect([byDefault.lines, byDefault.clears]).not.toEqual([given.lines, given.clears]);
    const plain = await direct('fullBoardOnly');
    for (const source of [weightsFile, resultsFile]) {
      const run = await runCli([...nesArgs(), '--recover-weights', source, '--baselines', '--json', '--threads', '1']);
      expect(run.code).toBe(0);
      const [ai, , fullBoard] = run.out.split('\n').map((l) => JSON.parse(l));
      expect([ai.pieces, ai.lines, ai.clears]).toEqual([given.pieces, given.lines, given.clears]);
      expect([fullBoard.pieces, fullBoard.lines, fullBoard.clears]).toEqual([plain.pieces, plain.lines, plain.clears]);
    }
  }, 120_000);

  it('passes --stack-room to the AI and the stacking-only baseline, not to the full-board player', async () => {
    const run = await runCli([...nesArgs(), '--stack-room', '10', '--baselines', '--json', '--threads', '1']);
    expect(run.code).toBe(0);
    const [ai, stackOnly, fullBoard] = run.out.split('\n').map((l) => JSON.parse(l));
    const given = await direct('both', { stackRoom: 10 });
    // A room of 10 rows plays other games than nes/nes's default 8, or the test would not see it passed.
    const byDefault = await direct('both');
    expect([byDefault.lines, byDefault.clears]).not.toEqual([given.lines, given.clears]);
    expect([ai.pieces, ai.lines, ai.clears]).toEqual([given.pieces, given.lines, given.clears]);
    const stacking = await direct('stackOnly', { stackRoom: 10 });
    expect([stackOnly.pieces, stackOnly.lines]).toEqual([stacking.pieces, stacking.lines]);
    const plain = await direct('fullBoardOnly');
    expect([fullBoard.pieces, fullBoard.lines, fullBoard.clears]).toEqual([plain.pieces, plain.lines, plain.clears]);
  }, 120_000);

  it('passes --hold-plies to the AI and the stacking-only baseline, not to the full-board player', async () => {
    // Guideline games play the same figures with either hold (all Tetrises), so the test watches what the AIs are
    // made with (the full-board player has no stack search: the default).
    const create = vi.spyOn(TetrisAI, 'create');
    try {
      const args = ['bench', 'game', '--table', file, '--rules', 'guideline', '--lookahead', '3', '--games', '1'];
      const run = await runCli([...args, '--max-pieces', '20', '--hold-plies', 'all', '--baselines', '--threads', '1']);
      expect(run.code).toBe(0);
      const made = create.mock.calls.map(([o]) => [o?.policy, o?.holdPlies]);
      expect(made).toEqual([
        ['both', 'all'],
        ['stackOnly', 'all'],
        ['fullBoardOnly', 'auto'],
      ]);
    } finally {
      create.mockRestore();
    }
  }, 120_000);

  it('refuses a --recover-weights file it cannot read, that is not JSON or that names an unknown term', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-cli-weights-'));
    const notJson = join(dir, 'bad.json');
    const unknownTerm = join(dir, 'unknown.json');
    const tooBig = join(dir, 'big.json');
    await writeFile(notJson, '{ holes: ');
    await writeFile(unknownTerm, JSON.stringify({ hole: -3 }));
    await writeFile(tooBig, JSON.stringify({ holes: 1e6 }));
    const args = ['bench', 'game', '--table', file, '--rules', 'nes', '--games', '1', '--max-pieces', '10'];
    const missing = await runCli([...args, '--recover-weights', join(dir, 'missing.json')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/--recover-weights: could not read .*missing\.json: .* \[IO\]/);
    const bad = await runCli([...args, '--recover-weights', notJson]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/--recover-weights: .*bad\.json is not JSON \[BAD_ARGUMENT\]/);
    const unknown = await runCli([...args, '--recover-weights', unknownTerm]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown term "hole"; terms are landingHeight, .*\[BAD_ARGUMENT\]/);
    const big = await runCli([...args, '--recover-weights', tooBig]);
    expect(big.code).toBe(1);
    expect(big.err).toMatch(/holes must be a finite number from -1000 to 1000; got 1000000 \[BAD_ARGUMENT\]/);
    // Nothing was played or printed.
    for (const run of [missing, bad, unknown, big]) expect(run.out).toBe('');
  }, 60_000);

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
      /real games under nes, randomizer nes, lookahead 1, no hold, leaf piece-max, 1 game of at most 40 pieces, seed 0/,
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
      '--stack-room',
      '--hold-plies',
      '--leaf',
      '--leaf-iterations',
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
    [['bench', 'game', '--stack-room', '1'], /--stack-room must be an integer from 2 to 12/],
    [['bench', 'game', '--stack-room', '13'], /--stack-room must be an integer from 2 to 12/],
    [['bench', 'game', '--hold-plies', 'every'], /--hold-plies must be one of auto, all, first; got "every"/],
    [['bench', 'game', '--goal', 'versus', '--hold-plies', 'all'], /--hold-plies is an option of the survival policy/],
    [
      ['bench', 'game', '--rules', 'classic', '--hold'],
      /--hold needs a rule set with hold \(guideline\); classic has none/,
    ],
    // tgm20g plays the cached 20G table, which exists only iterated forbidding steep placements.
    [['bench', 'game', '--rules', 'tgm20g', '--table-steep', 'collapse'], /20G table .* drop --table-steep/],
    [['bench', 'game', '--leaf', 'oracle'], /--leaf must be one of piece-max, preview; got "oracle"/],
    [['bench', 'game', '--leaf-iterations', '30'], /--leaf-iterations needs --leaf preview/],
    [['bench', 'game', '--leaf', 'piece-max', '--leaf-iterations', '30'], /--leaf-iterations needs --leaf preview/],
    // Refused before the 20G table is loaded: preview tables exist for dropped pieces only.
    [
      ['bench', 'game', '--rules', 'tgm20g', '--leaf', 'preview'],
      /--leaf preview plays the rule sets with dropped pieces \(classic, nes, nesUntimed, guideline, tgm\); tgm20g plays at 20G/,
    ],
  ])('rejects %j with exit code 2', async (argv, message) => {
    const run = await runCli(argv as string[]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(message);
  });

  it.each(['1', '2'])('the status line counts games up to --games, not past it (--threads %s)', async (threads) => {
    const run = await runCli([
      ...['bench', 'game', '--table', file, '--rules', 'classic', '--games', '3', '--max-pieces', '20'],
      ...['--baselines', '--threads', threads],
    ]);
    expect(run.code, run.err).toBe(0);
    const counted = run.statuses.filter((l) => l !== '').map((l) => /: game (\d+)\/(\d+),/.exec(l));
    expect(counted.length).toBeGreaterThan(0);
    for (const m of counted) {
      expect(m, 'every status names the game out of the total').not.toBeNull();
      expect(Number(m![1])).toBeGreaterThanOrEqual(1);
      expect(Number(m![1])).toBeLessThanOrEqual(3);
      expect(m![2]).toBe('3');
    }
    // Each game's end is reported: the last status of a player is its last game.
    expect(run.statuses.filter((l) => /^TetrisAI: game 3\/3,/.test(l)).length).toBeGreaterThan(0);
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

/**
 * --leaf preview. The preview table of the default 9-column rank table is 344 MB and takes about 21 s to build, so
 * these runs play a 9-column rank table of max step 2 (5^8 surfaces): its preview table is 3 MB and builds in about
 * 5 s (mostly estimating the randomizer's piece transitions). The cache is a temporary directory (XDG_CACHE_HOME), so
 * the first run builds the table there as on a user's first use, and nothing touches the user's cache.
 */
describe('stackrank bench game --leaf preview', () => {
  let dir: string;
  let smallFile: string;
  let small: RankTable;
  const cache = { XDG_CACHE_HOME: '' };
  const PREVIEW = { width: 9, maxStep: 2, iterations: 3, randomizer: 'tgm1' } as const;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stackrank-cli-game-leaf-'));
    cache.XDG_CACHE_HOME = join(dir, 'cache');
    smallFile = join(dir, 's2.srk');
    small = await buildRankTable({ width: 9, maxStep: 2, iterations: 3 });
    await small.save(smallFile);
  }, 60_000);
  /** Two classic games of 60 pieces with the small table; `games` and `more` options added. */
  const game = (games: number, ...more: string[]) => [
    'bench',
    'game',
    '--table',
    smallFile,
    '--rules',
    'classic',
    '--randomizer',
    'tgm1',
    '--games',
    String(games),
    '--max-pieces',
    '60',
    ...more,
  ];
  const figures = (
    r: Pick<PlayGameResult, 'pieces' | 'lines' | 'clears' | 'topOuts' | 'stackShare' | 'holesPer1000'>,
  ) => [r.pieces, r.lines, r.clears, r.topOuts, r.stackShare, r.holesPer1000];

  it('builds the preview table into the cache on first use and plays the games playGame plays with it', async () => {
    // Two games on the default thread count (2 here, at most --games): the workers receive the preview table.
    const run = await runCli(game(2, '--leaf', 'preview', '--json'), cache);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain(`built and cached ${await cachedPreviewTablePath(PREVIEW, cache)}`);
    const r = JSON.parse(run.out);
    expect([r.player, r.leaf]).toEqual(['both', 'preview']);
    const { table: previewTable, cached } = await loadOrBuildCachedPreviewTable({ ...PREVIEW, env: cache });
    expect(cached).toBe(true);
    const direct = { rules: 'classic', randomizer: 'tgm1', games: 2, maxPieces: 60, table: small, threads: 1 } as const;
    const withPreview = await playGame({ ...direct, previewTable });
    // These games differ between the two leaves, so a run that ignored --leaf would fail the last check.
    expect(figures(withPreview)).not.toEqual(figures(await playGame(direct)));
    expect(figures(r)).toEqual(figures(withPreview));

    // The second run loads the cached table; the stacking-only baseline searches with it too, the full-board player
    // has no leaf; the table's header names the leaf.
    const again = await runCli(game(1, '--leaf', 'preview', '--baselines', '--json'), cache);
    expect(again.code, again.err).toBe(0);
    expect(again.err).not.toContain('built and cached');
    const rows = again.out.split('\n').map((l) => JSON.parse(l));
    expect(rows.map((row) => [row.player, row.leaf])).toEqual([
      ['both', 'preview'],
      ['stackOnly', 'preview'],
      ['fullBoardOnly', null],
    ]);
    const text = await runCli(game(1, '--leaf', 'preview'), cache);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(/lookahead 1, no hold, leaf preview, 1 game of at most 60 pieces/);
  }, 180_000);

  it('records the leaf in the run file: shards and checkpoints of different leaves are refused', async () => {
    const d = await mkdtemp(join(dir, 'runs-'));
    const file = (name: string) => join(d, name);
    const shard = async (name: string, index: number, ...leaf: string[]) => {
      const run = await runCli(game(2, ...leaf, '--shard', `${index}/2`, '--out', file(name)), cache);
      expect(run.code, run.err).toBe(0);
      return JSON.parse(await readFile(file(name), 'utf8')).params;
    };
    const preview0 = await shard('preview-0.json', 0, '--leaf', 'preview');
    const preview1 = await shard('preview-1.json', 1, '--leaf', 'preview');
    const pieceMax1 = await shard('piece-max-1.json', 1);
    // A piece-max run records no leaf: run files made before --leaf existed played piece-max and still merge.
    expect([preview0.leaf, preview1.leaf, 'leaf' in pieceMax1]).toEqual(['preview', 'preview', false]);

    const merged = await runCli(['merge', file('preview-0.json'), file('preview-1.json')]);
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out).toMatch(/no hold, leaf preview, 2 games/);
    const mixed = await runCli(['merge', file('preview-0.json'), file('piece-max-1.json')]);
    expect(mixed.code).toBe(1);
    expect(mixed.err).toMatch(/different runs: leaf is "preview" in one and not set in the other \[RUN_MISMATCH\]$/);
    const resumed = await runCli(game(2, '--shard', '0/2', '--checkpoint', file('preview-0.json')), cache);
    expect(resumed.code).toBe(1);
    expect(resumed.err).toMatch(
      /leaf is "preview" in one and not set in the other \(checkpoint, this run\) \[RUN_MISMATCH\]$/,
    );
  }, 180_000);

  it('refuses a checkpoint of a piece-max run before building a preview table', async () => {
    const d = await mkdtemp(join(dir, 'checkpoint-'));
    const fresh = { XDG_CACHE_HOME: join(d, 'cache') };
    const checkpoint = join(d, 'ck.json');
    const first = await runCli(game(1, '--checkpoint', checkpoint), fresh);
    expect(first.code, first.err).toBe(0);
    const preview = await runCli(game(1, '--leaf', 'preview', '--checkpoint', checkpoint), fresh);
    expect(preview.code).toBe(1);
    expect(preview.err).toMatch(
      /leaf is not set in one and "preview" in the other \(checkpoint, this run\) \[RUN_MISMATCH\]$/,
    );
    expect(existsSync(await cachedPreviewTablePath(PREVIEW, fresh))).toBe(false);
  }, 60_000);

  it('refuses --leaf preview with a 20G rank table file before building a preview table', async () => {
    const d = await mkdtemp(join(dir, 'table-20g-'));
    const file20G = join(d, '20g.srk');
    await (await buildRankTable({ width: 9, maxStep: 2, iterations: 1, gravity: '20G' })).save(file20G);
    const fresh = { XDG_CACHE_HOME: join(d, 'cache') };
    const run = await runCli(['bench', 'game', '--table', file20G, '--rules', 'classic', '--leaf', 'preview'], fresh);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(
      /--leaf preview needs a rank table of dropped pieces \(variant article, collapse or weighted\); this is the 20G table/,
    );
    expect(readdirSync(d)).toEqual(['20g.srk']);
  }, 60_000);
});
