/**
 * A misspelt option is refused, not ignored (docs/errors.md, BAD_ARGUMENT): every public function that takes an
 * options object names the unknown key and lists the ones it takes. Each call below is valid but for its one extra
 * key and would finish quickly without the check (a small table, few pieces, a private cache folder).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Board,
  RULE_SETS,
  StackingAI,
  TetrisAI,
  analyzeRandomizer,
  analyzeRandomizerAsync,
  bestMove,
  boardFromFumen,
  buildPreviewTable,
  buildRankTable,
  buildWeightedTable,
  cachedPreviewTablePath,
  cachedTablePath,
  cachedWeightedTablePath,
  checkGeometry,
  countReachablePlacements,
  createRandomizer,
  frequencySpread,
  fumenFromBoard,
  loadOrBuildCachedPreviewTable,
  loadOrBuildCachedTable,
  loadOrBuildCachedWeightedTable,
  parseSurface,
  playFullGame,
  playFullGames,
  reachablePlacements,
  restoreRandomizer,
  simulateStacking,
  streamSeed,
  surfaceFromHeights,
  surfaceFromIndex,
  surfaceFromSteps,
  surfaceIndex,
  trainWeights,
  transitionModel,
  weightsModel,
  type RankTable,
} from '../helpers/api.js';
import { checkRange } from '../../src/runs.js';
import { stackProfile } from '../../src/stacking-ai/profile.js';
import { runCli } from '../helpers/cli.js';

/** The smallest table: every call that needs one stays cheap. */
const SMALL = { width: 4, maxStep: 1, iterations: 1, threads: 1 } as const;
const MODEL = { randomizer: 'memoryless', samples: 10 } as const;
const UNIFORM = Array.from({ length: 7 }, () => 1 / 7);

let table: RankTable;
let table9: RankTable;
let env: { XDG_CACHE_HOME: string };
beforeAll(async () => {
  table = await buildRankTable(SMALL);
  table9 = await buildRankTable({ width: 9, maxStep: 1, iterations: 1, threads: 1 });
  env = { XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), 'stackrank-unknown-options-')) };
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** [the function as the message names it, a call with one unknown key, that key]. */
const cases: [string, () => unknown, string][] = [
  // Surfaces.
  ['checkGeometry', () => checkGeometry({ width: 4, maxStep: 1, maxstep: 2 } as never), 'maxstep'],
  ['surfaceFromSteps', () => surfaceFromSteps([0, 0, 0], { maxStep: 1, width: 4 } as never), 'width'],
  ['surfaceFromHeights', () => surfaceFromHeights([0, 0, 0, 0], { maxStep: 1, width: 4 } as never), 'width'],
  ['parseSurface', () => parseSurface('111', { maxStep: 1, width: 4 } as never), 'width'],
  ['surfaceFromIndex', () => surfaceFromIndex(0, { width: 4, maxStep: 1, truncate: true } as never), 'truncate'],
  ['surfaceIndex', () => surfaceIndex(parseSurface('111'), { truncat: true } as never), 'truncat'],
  // Randomizers.
  [
    'restoreRandomizer',
    () => restoreRandomizer(createRandomizer('tgm1').state(), { onwarning: () => {} } as never),
    'onwarning',
  ],
  ['analyzeRandomizer', () => analyzeRandomizer('tgm1', { pieces: 1000, piece: 100 } as never), 'piece'],
  [
    'analyzeRandomizerAsync',
    () => analyzeRandomizerAsync('tgm1', { pieces: 1000, onprogress: () => {} } as never),
    'onprogress',
  ],
  ['frequencySpread', () => frequencySpread('tgm1', { trials: 2, trial: 1 } as never), 'trial'],
  // Rank tables, their piece models and the cache.
  ['transitionModel', () => transitionModel({ ...MODEL, sample: 5 } as never), 'sample'],
  ['weightsModel', () => weightsModel({ ...MODEL, sample: 5 } as never), 'sample'],
  ['buildRankTable', () => buildRankTable({ ...SMALL, iteration: 2 } as never), 'iteration'],
  ['buildPreviewTable', () => buildPreviewTable({ ...SMALL, ...MODEL, encoding: 'u16' } as never), 'encoding'],
  ['buildWeightedTable', () => buildWeightedTable({ ...SMALL, ...MODEL, force: true } as never), 'force'],
  ['cachedTablePath', () => cachedTablePath({ ...SMALL, env } as never, env), 'env'],
  [
    'cachedPreviewTablePath',
    () => cachedPreviewTablePath({ ...SMALL, ...MODEL, encoding: 'u16' } as never, env),
    'encoding',
  ],
  [
    'cachedWeightedTablePath',
    () => cachedWeightedTablePath({ ...SMALL, ...MODEL, force: true } as never, env),
    'force',
  ],
  ['loadOrBuildCachedTable', () => loadOrBuildCachedTable({ ...SMALL, env, forced: true } as never), 'forced'],
  [
    'loadOrBuildCachedPreviewTable',
    () => loadOrBuildCachedPreviewTable({ ...SMALL, ...MODEL, env, weights: UNIFORM } as never),
    'weights',
  ],
  [
    'loadOrBuildCachedWeightedTable',
    () => loadOrBuildCachedWeightedTable({ ...SMALL, ...MODEL, env, transition: [UNIFORM] } as never),
    'transition',
  ],
  // The full-board player.
  ['bestMove', () => bestMove(Board.empty(), 'T', { next: 'S', lookahead: 1 } as never), 'lookahead'],
  ['playFullGame', () => playFullGame({ maxPieces: 10, maxPiece: 5 } as never), 'maxPiece'],
  ['playFullGames', () => playFullGames({ games: 1, maxPieces: 10, game: 1 } as never), 'game'],
  [
    'trainWeights',
    () =>
      trainWeights({
        generations: 1,
        population: 4,
        gamesPerEval: 1,
        maxPieces: 10,
        boardWidth: 6,
        threads: 1,
        generation: 2,
      } as never),
    'generation',
  ],
  // The stacking AI.
  ['StackingAI.create', () => StackingAI.create({ table, lookahead: 1 } as never), 'lookahead'],
  [
    'bestPlacement',
    async () => (await StackingAI.create({ table })).bestPlacement([0, 0, 0, 0], 'T', 0, { limit: 3 } as never),
    'limit',
  ],
  [
    'rankPlacements',
    async () => (await StackingAI.create({ table })).rankPlacements([0, 0, 0, 0], 'T', 0, { nextpair: [] } as never),
    'nextpair',
  ],
  [
    'simulateStacking',
    () => simulateStacking({ table, lookahead: 0, games: 1, maxPieces: 10, threads: 1, maxPiece: 5 } as never),
    'maxPiece',
  ],
  ['stackProfile', () => stackProfile({ table, pieces: 10, piece: 5 } as never), 'piece'],
  // The rules layer and the game AI.
  [
    'reachablePlacements',
    () => reachablePlacements(Board.empty(), 'T', { rules: 'nes', rule: 'nes' } as never),
    'rule',
  ],
  [
    'countReachablePlacements',
    () => countReachablePlacements(Board.empty(), 'T', { rules: 'nes', hold: true } as never),
    'hold',
  ],
  ['boardFromFumen', () => boardFromFumen(fumenFromBoard(Board.empty()), { page: 0, pages: 1 } as never), 'pages'],
  ['fumenFromBoard', () => fumenFromBoard(Board.empty(), { comment: 'T', coment: 'T' } as never), 'coment'],
  [
    'rankPlacements',
    async () =>
      (await TetrisAI.create({ table: table9, rules: 'classic' })).rankPlacements(
        { board: Board.empty(), current: 'T', queue: '', hold: null, canHold: false },
        { limit: 3, limt: 2 } as never,
      ),
    'limt',
  ],
];

describe('an unknown (misspelt) option is a BAD_ARGUMENT naming it', () => {
  it.each(cases)('%s', async (name, call, key) => {
    await expect(Promise.resolve().then(call)).rejects.toMatchObject({
      name: 'StackRankError',
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(new RegExp(`^${escapeRegExp(name)}: unknown option "${key}"; options are \\w`)),
    });
  });

  it('createRandomizer names the family and the parameters it accepts', () => {
    expect(() => createRandomizer('decay', { seed: 1, denominater: 2 } as never)).toThrow(
      expect.objectContaining({
        code: 'BAD_ARGUMENT',
        message: 'decay has no parameter "denominater"; it accepts denominator',
      }),
    );
  });

  it('an unknown key is refused even when its value is undefined; a known one left undefined is fine', () => {
    expect(() => createRandomizer('tgm1', { sed: undefined } as never)).toThrow(/tgm1 has no parameter "sed"/);
    expect(createRandomizer('tgm1', { seed: undefined, denominator: undefined }).take(3)).toHaveLength(3);
    expect(() => surfaceFromSteps([0, 0, 0], { maxstep: undefined } as never)).toThrow(
      /^surfaceFromSteps: unknown option "maxstep"; options are maxStep$/,
    );
    expect(surfaceFromSteps([0, 0, 0], { maxStep: undefined }).maxStep).toBe(4);
    expect(surfaceIndex(parseSurface('111', { maxStep: 1 }), { truncate: undefined })).toBe(13);
  });
});

describe('objects inside the options are checked too', () => {
  it('a RuleSet object with a misspelt field, a range with one more key, a misspelt reachablePlacements option', () => {
    const board = Board.empty(10, 20);
    expect(() => reachablePlacements(board, 'T', { rules: { ...RULE_SETS.nes, softdrop: true } as never })).toThrow(
      /unknown rule set field "softdrop"; a RuleSet has name, rotationSystem, /,
    );
    expect(() => reachablePlacements(board, 'T', { rule: 'nes' } as never)).toThrow(
      /^reachablePlacements: unknown option "rule"; options are rules$/,
    );
    expect(() => checkRange('range', { start: 0, end: 2, ned: 3 }, 4)).toThrow(/^range: unknown option "ned"/);
  });

  it('an option given as null is refused (left out or undefined takes the default); nextMove takes a null hold', async () => {
    await expect(buildRankTable({ width: 4, maxStep: 1, iterations: null } as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: 'buildRankTable: iterations is null; leave it out (or undefined) for its default',
    });
    await expect(playFullGame({ weights: null } as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^playFullGame: weights is null/),
    });
    expect(() => surfaceFromSteps([0, 0, 0], { maxStep: null } as never)).toThrow(/surfaceFromSteps: maxStep is null/);
    expect(surfaceFromSteps([0, 0, 0], { maxStep: undefined }).maxStep).toBe(4);
  });

  it('loose types: truncate must be a boolean, streamSeed takes integers', () => {
    expect(() => surfaceIndex(parseSurface('111'), { truncate: 'yes' } as never)).toThrow(
      /truncate must be true or false; got "yes"/,
    );
    expect(() => streamSeed(1.5, 2, 3)).toThrow(/streamSeed takes three safe integers/);
    expect(streamSeed(1, 2, 3)).toBe(streamSeed(1, 2, 3));
  });
});

describe('a table as the geometry of its surfaces', () => {
  it('surfaceFromIndex reads a RankTable for its width and maxStep; a plain object with one more key is refused', async () => {
    const table = await buildRankTable({ width: 4, maxStep: 1, iterations: 1, threads: 1 });
    expect(surfaceFromIndex(5, table)).toEqual(surfaceFromIndex(5, { width: 4, maxStep: 1 }));
    expect(() => surfaceFromIndex(5, { width: 4, maxStep: 1, size: 27 } as never)).toThrow(
      /surfaceFromIndex: unknown option "size"/,
    );
  });
});

describe('internal callers pass only the options the callee takes', () => {
  it('the cache entries hand the build its own options (no force or env) and still build and reuse', async () => {
    const own = { XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), 'stackrank-unknown-options-')) };
    const first = await loadOrBuildCachedTable({ ...SMALL, env: own, force: true });
    expect(first.cached).toBe(false);
    expect((await loadOrBuildCachedTable({ ...SMALL, env: own })).cached).toBe(true);
    const preview = await loadOrBuildCachedPreviewTable({ ...SMALL, ...MODEL, env: own });
    expect([preview.cached, preview.table.width]).toEqual([false, 4]);
    const weighted = await loadOrBuildCachedWeightedTable({ ...SMALL, ...MODEL, env: own });
    expect([weighted.cached, weighted.table.variant]).toEqual([false, 'weighted']);
  });

  it('stackrank table build --variant preview into the cache (its options carry no encoding)', async () => {
    const run = await runCli(
      [
        'table',
        'build',
        '--variant',
        'preview',
        '--randomizer',
        'memoryless',
        '--width',
        '4',
        '--max-step',
        '1',
      ].concat(['--iterations', '1', '--threads', '1', '--json']),
      env,
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({ variant: 'preview', randomizer: 'memoryless', width: 4 });
  });
});
