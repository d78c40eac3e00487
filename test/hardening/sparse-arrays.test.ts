/**
 * Sparse arrays at every public entry point (docs/errors.md): a caller's array with a hole (`[1, , 3]`,
 * `new Array(3)`, `delete a[i]`) is refused with a StackRankError, never read as shorter, skipped by a check written
 * with every/some/forEach/filter/map/reduce, or turned into a TypeError further in. Each case makes a valid call
 * first (it must succeed), then punches a hole at the first, a middle and the last index of one array and expects
 * a StackRankError whose message names the argument. The work stays small: 4-column (and one 9-column, max step 1)
 * tables, a few pieces per game, one thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Board,
  ORIENTATIONS,
  PieceMover,
  PreviewTable,
  RankTable,
  Rng,
  StackRankError,
  StackingAI,
  TetrisAI,
  benchGame,
  bestMove,
  boardFromFumen,
  buildPreviewTable,
  buildRankTable,
  buildWeightedTable,
  cachedPreviewTablePath,
  cachedWeightedTablePath,
  checkCheckpoint,
  checkSeed,
  countReachablePlacements,
  createRandomizer,
  distributionWeights,
  fumenFromBoard,
  loadAnyTable,
  loadOrBuildCachedPreviewTable,
  loadOrBuildCachedWeightedTable,
  loadPreviewTable,
  loadRankTable,
  mergeFullGames,
  mergeGameResults,
  mergeSimulations,
  mirrorSurface,
  orientationCells,
  pairWeights,
  playFullGame,
  playFullGames,
  playGame,
  reachTable,
  reachablePlacements,
  recordReached,
  resolveWeights,
  restoreRandomizer,
  searchPlacements,
  shardRange,
  simulateStacking,
  summarizeLines,
  surfaceDigits,
  surfaceFromHeights,
  surfaceFromSteps,
  surfaceHeights,
  surfaceIndex,
  trainWeights,
  transitionModel,
  weightsModel,
  type FullGamesResult,
  type PlayGameResult,
  type RandomizerState,
  type SimulationResult,
  type TrainCheckpoint,
} from '../helpers/api.js';

/** Copies of `valid` with one hole each: at the first, a middle and the last index. */
function holed<T>(valid: readonly T[]): { at: number; copy: T[] }[] {
  const at = [...new Set([0, Math.floor(valid.length / 2), valid.length - 1])];
  return at.map((i) => {
    const copy = valid.slice();
    delete copy[i];
    return { at: i, copy };
  });
}

/** One array argument of one call: a valid value, how to call with it, and what the refusal's message names. */
interface Case<T = unknown> {
  name: string;
  valid: () => readonly T[];
  call: (a: T[]) => unknown;
  /** Text the error message must contain (the argument's name). */
  names?: string | RegExp;
}

function caught(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

async function caughtAsync(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  return undefined;
}

function expectRefusal(e: unknown, label: string, names: Case['names']): void {
  expect(e, `${label}: accepted`).toBeDefined();
  expect(e, `${label}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`).toBeInstanceOf(StackRankError);
  if (names !== undefined) expect((e as Error).message, label).toMatch(names);
}

function sync<T>(c: Case<T>): void {
  it(`${c.name} refuses a hole`, () => {
    const valid = c.valid();
    const ok = caught(() => c.call(valid.slice()));
    expect(ok, `${c.name}: the valid call threw ${String(ok)}`).toBeUndefined();
    for (const { at, copy } of holed(valid))
      expectRefusal(
        caught(() => c.call(copy)),
        `${c.name}, hole at ${at}`,
        c.names,
      );
  });
}

function async<T>(c: Case<T>): void {
  it(`${c.name} refuses a hole`, async () => {
    const valid = c.valid();
    const ok = await caughtAsync(() => c.call(valid.slice()));
    expect(ok, `${c.name}: the valid call threw ${String(ok)}`).toBeUndefined();
    for (const { at, copy } of holed(valid))
      expectRefusal(await caughtAsync(() => c.call(copy)), `${c.name}, hole at ${at}`, c.names);
  });
}

/**
 * For the calls that play games or build tables: the valid call reports work through `work` (a progress or game
 * callback), each call with a hole is refused before reporting any.
 */
async function refusedBeforeWork<T>(valid: readonly T[], start: (a: T[], work: () => void) => Promise<unknown>) {
  let work = 0;
  await start(valid.slice(), () => work++);
  expect(work, 'the valid call reports its work').toBeGreaterThan(0);
  for (const { at, copy } of holed(valid)) {
    work = 0;
    await expect(
      start(copy, () => work++),
      `hole at ${at}`,
    ).rejects.toBeInstanceOf(StackRankError);
    expect(work, `hole at ${at}`).toBe(0);
  }
}

const UNIFORM = Array.from({ length: 7 }, () => 1 / 7);
const UNIFORM_PAIRS = Array.from({ length: 49 }, () => 1 / 49);
const small = { width: 4, maxStep: 1, iterations: 1, threads: 1 } as const;

let table: RankTable;
let table9: RankTable;
let ai: StackingAI;
let ai2: StackingAI;
let gameAi: TetrisAI;
beforeAll(async () => {
  table = await buildRankTable({ width: 4, maxStep: 1, iterations: 2, threads: 1 });
  // The game AI plays a 10-wide board on a 9-column table; max step 1 and one iteration keep it to 6,561 surfaces.
  table9 = await buildRankTable({ width: 9, maxStep: 1, iterations: 1, threads: 1 });
  ai = await StackingAI.create({ table });
  ai2 = await StackingAI.create({ table, strategy: 'expectimax', unknownPieces: 2 });
  gameAi = await TetrisAI.create({ rules: 'classic', lookahead: 1, table: table9 });
});

describe('surfaces', () => {
  sync({
    name: 'surfaceFromHeights(heights)',
    valid: () => [0, 1, 2, 1],
    call: (h) => surfaceFromHeights(h),
    names: 'heights',
  });
  sync({ name: 'surfaceFromSteps(steps)', valid: () => [1, 0, -1], call: (s) => surfaceFromSteps(s), names: 'steps' });
  const surface = (steps: number[]) => ({ width: 4, maxStep: 1, steps });
  const surfaceReaders = { surfaceIndex, surfaceDigits, surfaceHeights, mirrorSurface };
  for (const [name, read] of Object.entries(surfaceReaders))
    sync({ name: `${name}(surface.steps)`, valid: () => [1, 0, -1], call: (s) => read(surface(s)), names: 'surface' });
  sync({
    name: 'RankTable.rank(surface.steps)',
    valid: () => [1, 0, -1],
    call: (s) => table.rank(surface(s)),
    names: 'surface',
  });
});

describe('the stacking AI', () => {
  for (const method of ['bestPlacement', 'rankPlacements'] as const) {
    const run = (who: StackingAI, ...a: Parameters<StackingAI['bestPlacement']>) =>
      method === 'bestPlacement' ? who.bestPlacement(...a) : who.rankPlacements(...a);
    sync({
      name: `StackingAI.${method}(heights)`,
      valid: () => [0, 1, 1, 0],
      call: (h) => run(ai, h, 'T'),
      names: 'surface',
    });
    sync({
      name: `StackingAI.${method}(steps)`,
      valid: () => [1, 0, -1],
      call: (s) => run(ai, s, 'T'),
      names: 'surface',
    });
    sync({
      name: `StackingAI.${method}(queue)`,
      valid: () => ['T', 'S', 'Z'],
      call: (q) => run(ai, [0, 0, 0, 0], q, 2),
      names: 'queue',
    });
    sync({
      name: `StackingAI.${method}({ next })`,
      valid: () => UNIFORM,
      call: (next) => run(ai, [0, 0, 0, 0], 'T', 0, { next }),
      names: 'next',
    });
    sync({
      name: `StackingAI.${method}({ nextPair })`,
      valid: () => UNIFORM_PAIRS,
      call: (nextPair) => run(ai2, [0, 0, 0, 0], 'T', 0, { nextPair }),
      names: 'nextPair',
    });
  }
  sync({ name: 'distributionWeights(dist)', valid: () => UNIFORM, call: (d) => distributionWeights(d), names: 'dist' });
  sync({ name: 'pairWeights(pair)', valid: () => UNIFORM_PAIRS, call: (p) => pairWeights(p), names: 'pair' });
});

describe('the survival simulator', () => {
  let run: SimulationResult;
  let parts: SimulationResult[];
  const options = { lookahead: 0, games: 4, maxPieces: 200, threads: 1, seed: 3 } as const;
  beforeAll(async () => {
    run = await simulateStacking({ table, ...options });
    parts = [
      await simulateStacking({ table, ...options, range: { start: 0, end: 2 } }),
      await simulateStacking({ table, ...options, range: { start: 2, end: 4 } }),
    ];
    // Each stream's piece budget (50) ends its last game: several games per stream give a games list to punch.
    expect(run.records.some((r) => r.games.length >= 2)).toBe(true);
  });
  const manyGames = () => run.records.find((r) => r.games.length >= 2)!;

  async({
    name: 'simulateStacking({ resume })',
    valid: () => run.records,
    call: (resume) => simulateStacking({ table, ...options, resume }),
    names: 'resume',
  });
  async({
    name: 'simulateStacking({ resume: [{ games }] })',
    valid: () => manyGames().games,
    call: (games) => simulateStacking({ table, ...options, resume: [{ ...manyGames(), games }] }),
    names: /game \d/,
  });
  it('simulateStacking refuses a hole in resume before playing a stream', () =>
    refusedBeforeWork(run.records.slice(0, 2), (resume, onStream) =>
      simulateStacking({ table, ...options, resume, onStream }),
    ));
  sync({ name: 'mergeSimulations(results)', valid: () => parts, call: (r) => mergeSimulations(r), names: 'result' });
  sync({
    name: 'mergeSimulations(results[i].records)',
    valid: () => parts[0].records,
    call: (records) => mergeSimulations([{ ...parts[0], records }, parts[1]]),
    names: 'record',
  });
  sync({
    name: 'mergeSimulations(results[i].records[k].games)',
    valid: () => manyGames().games,
    call: (games) =>
      mergeSimulations([
        {
          ...run,
          records: run.records.map((r) => (r === manyGames() ? { ...r, games } : r)),
        },
      ]),
    names: /game \d/,
  });
});

describe('randomizers and the PRNG', () => {
  const stateOf = (name: Parameters<typeof createRandomizer>[0], dealt = 5): RandomizerState => {
    const r = createRandomizer(name, { seed: 11 });
    r.take(dealt);
    return JSON.parse(JSON.stringify(r.state()));
  };
  const field = (name: Parameters<typeof createRandomizer>[0], key: string, dealt = 5): Case => ({
    name: `restoreRandomizer(${name} state.${key})`,
    valid: () => stateOf(name, dealt)[key] as unknown[],
    call: (value) => restoreRandomizer({ ...stateOf(name, dealt), [key]: value }).take(3),
    names: key === 'bags' ? 'bag' : key,
  });
  sync(field('tgm1', 'rng'));
  sync(field('tgm1', 'history'));
  sync(field('tgm3', 'pool'));
  sync(field('tgm3', 'droughtOrder'));
  sync(field('tgm3', 'history'));
  sync(field('decay', 'weights'));
  sync(field('bag14', 'bags', 3));
  sync({
    name: 'restoreRandomizer(bag7 state.bags[0])',
    valid: () => (stateOf('bag7', 2).bags as number[][])[0],
    call: (bag) => restoreRandomizer({ ...stateOf('bag7', 2), bags: [bag] }).take(3),
    names: 'bag 0',
  });
  // A mixture: twoBag before it deals (which bag the first piece comes from is still open).
  const mixture = () => {
    const r = createRandomizer('twoBag', { seed: 11 });
    return JSON.parse(JSON.stringify(r.afterDealing(r.distribution().findIndex((p) => p > 0)).state()));
  };
  it('(a twoBag state after one piece is a mixture of two or more states)', () => {
    expect(mixture().mixture.length).toBeGreaterThanOrEqual(2);
  });
  sync({
    name: 'restoreRandomizer(state.mixture)',
    valid: () => mixture().mixture,
    call: (m) => restoreRandomizer({ ...mixture(), mixture: m }).take(3),
    names: 'mixture',
  });
  sync({
    name: 'restoreRandomizer(state.mixture[0].bags)',
    valid: () => mixture().mixture[0].bags,
    call: (bags) => {
      const s = mixture();
      s.mixture[0] = { ...s.mixture[0], bags };
      return restoreRandomizer(s).take(3);
    },
    names: 'bag',
  });
  sync({
    name: 'new Rng(state)',
    valid: () => new Rng(5).state(),
    call: (s) => new Rng(s as never),
    names: 'PRNG state',
  });
  it('checkSeed and createRandomizer refuse an array for a seed', () => {
    expect(() => checkSeed([1, , 3])).toThrow(StackRankError);
    expect(() => createRandomizer('tgm1', { seed: [1, , 3] as never })).toThrow(StackRankError);
    expect(() => createRandomizer('decay', { denominator: [2, , 3] as never })).toThrow(StackRankError);
  });
});

describe('the full-board player', () => {
  const bcts = () => resolveWeights('bcts');
  const weightsCase = (name: string, call: (spec: { features: string[]; weights: number[] }) => unknown): Case[] => [
    {
      name: `${name}: weights.weights`,
      valid: () => bcts().weights,
      call: (weights) => call({ features: [...bcts().features], weights: weights as number[] }),
      names: 'weight',
    },
    {
      name: `${name}: weights.features`,
      valid: () => bcts().features,
      call: (features) => call({ features: features as string[], weights: [...bcts().weights] }),
      names: 'feature',
    },
  ];
  for (const c of weightsCase('resolveWeights', (w) => resolveWeights(w))) sync(c);
  for (const c of weightsCase('bestMove', (w) => bestMove(Board.empty(), 'T', { weights: w as never }))) async(c);
  for (const c of weightsCase('playFullGame', (w) => playFullGame({ weights: w as never, maxPieces: 20 }))) async(c);
  for (const c of weightsCase('playFullGames', (w) => playFullGames({ weights: w as never, games: 1, maxPieces: 20 })))
    async(c);
  it("orientationCells takes the library's orientations: a copy with a hole is refused", () => {
    const o = ORIENTATIONS[2][0];
    expect(orientationCells(o)).toHaveLength(4);
    for (const key of ['bot', 'top'] as const) {
      for (const { copy } of holed(o[key])) {
        const bad = { ...o, [key]: copy };
        expect(() => orientationCells(bad)).toThrow(StackRankError);
      }
    }
  });
  sync({
    name: 'summarizeLines(lines)',
    valid: () => [3, 5, 8],
    call: (lines) => summarizeLines(lines as number[], [true, false, true]),
    names: 'lines',
  });
  sync({
    name: 'summarizeLines(lines, lost)',
    valid: () => [true, false, true],
    call: (lost) => summarizeLines([3, 5, 8], lost as boolean[]),
    names: 'lost',
  });

  let full: FullGamesResult;
  let fullParts: FullGamesResult[];
  const fullOptions = { games: 4, maxPieces: 30, seed: 2 } as const;
  beforeAll(async () => {
    full = await playFullGames(fullOptions);
    fullParts = [
      await playFullGames({ ...fullOptions, range: { start: 0, end: 2 } }),
      await playFullGames({ ...fullOptions, range: { start: 2, end: 4 } }),
    ];
  });
  async({
    name: 'playFullGames({ resume })',
    valid: () => full.records,
    call: (resume) => playFullGames({ ...fullOptions, resume: resume as never }),
    names: 'resume',
  });
  it('playFullGames refuses a hole in resume before playing a game', () =>
    refusedBeforeWork(full.records.slice(0, 2), (resume, onGame) =>
      playFullGames({ ...fullOptions, resume: resume as never, onGame }),
    ));
  sync({
    name: 'mergeFullGames(results)',
    valid: () => fullParts,
    call: (r) => mergeFullGames(r as never),
    names: 'result',
  });
  sync({
    name: 'mergeFullGames(results[i].records)',
    valid: () => fullParts[0].records,
    call: (records) => mergeFullGames([{ ...fullParts[0], records: records as never }, fullParts[1]]),
    names: 'record',
  });
  sync({
    name: 'mergeFullGames(results[i].weights.weights)',
    valid: () => full.weights.weights,
    call: (weights) => mergeFullGames([{ ...full, weights: { ...full.weights, weights: weights as number[] } }]),
    names: 'weight',
  });
});

describe('the trainer', () => {
  const trainOptions = { generations: 1, population: 4, tournament: 2, maxPieces: 20, gamesPerEval: 1, threads: 1 };
  let checkpoint: TrainCheckpoint;
  beforeAll(async () => {
    await trainWeights({
      ...trainOptions,
      onGeneration: (g) => (checkpoint = JSON.parse(JSON.stringify(g.checkpoint))),
    });
  });
  const withCheckpoint = (change: (c: TrainCheckpoint) => void) => {
    const c: TrainCheckpoint = JSON.parse(JSON.stringify(checkpoint));
    change(c);
    return c;
  };
  async({
    name: 'trainWeights({ features })',
    valid: () => ['holes', 'rowsCleared', 'landingHeight'],
    call: (features) => trainWeights({ ...trainOptions, features: features as never }),
    names: 'feature',
  });
  it('trainWeights refuses a hole in the checkpoint before a generation', () =>
    refusedBeforeWork(checkpoint.population, (population, onGeneration) =>
      trainWeights({
        ...trainOptions,
        generations: 2,
        resume: withCheckpoint((c) => (c.population = population)),
        onGeneration,
      }),
    ));
  const checkpointCases: Case[] = [
    {
      name: 'checkpoint.population',
      valid: () => checkpoint.population,
      call: (population) => withCheckpoint((c) => (c.population = population as never)),
      names: 'population',
    },
    {
      name: 'checkpoint.population[i].weights',
      valid: () => checkpoint.population[1].weights,
      call: (weights) => withCheckpoint((c) => (c.population[1].weights = weights as number[])),
      names: 'weights',
    },
    {
      name: 'checkpoint.rng',
      valid: () => checkpoint.rng,
      call: (rng) => withCheckpoint((c) => (c.rng = rng as never)),
      names: 'rng',
    },
    {
      name: 'checkpoint.history',
      // generations 1, 2 and 3 (an entry is its generation's: checkCheckpoint holds them in order)
      valid: () => [1, 2, 3].map((generation) => ({ ...checkpoint.history[0], generation })),
      // The generations completed are the history's length (checkCheckpoint holds them equal).
      call: (history) =>
        withCheckpoint((c) => {
          c.history = history as never;
          c.generation = (history as unknown[]).length;
        }),
      names: 'history',
    },
    {
      name: 'checkpoint.options.features',
      valid: () => checkpoint.options.features,
      call: (features) =>
        withCheckpoint((c) => {
          c.options.features = features as never;
        }),
      names: 'feature',
    },
  ];
  for (const c of checkpointCases) {
    sync({ ...c, name: `checkCheckpoint(${c.name})`, call: (a) => checkCheckpoint(c.call(a)) });
    async({
      ...c,
      name: `trainWeights({ resume: ${c.name} })`,
      call: (a) => {
        const resume = c.call(a) as TrainCheckpoint;
        // to generation 2, or the checkpoint's own when it completed more (a resume cannot end before it)
        const generations = Math.max(2, Number.isInteger(resume.generation) ? resume.generation : 0);
        return trainWeights({ ...trainOptions, generations, resume });
      },
    });
  }
});

describe('rank tables and piece models', () => {
  let preview: PreviewTable;
  const cacheHome = mkdtempSync(join(tmpdir(), 'stackrank-sparse-'));
  afterAll(() => rmSync(cacheHome, { recursive: true, force: true }));
  beforeAll(async () => {
    preview = await buildPreviewTable({ ...small, randomizer: 'memoryless' });
  });
  async({
    name: 'buildWeightedTable({ weights })',
    valid: () => UNIFORM,
    call: (weights) => buildWeightedTable({ ...small, weights: weights as number[] }),
    names: 'weights',
  });
  async({
    name: 'buildPreviewTable({ transition }) (49 numbers)',
    valid: () => Array.from({ length: 49 }, () => 1 / 7),
    call: (transition) => buildPreviewTable({ ...small, transition: transition as number[] }),
    names: 'transition',
  });
  async({
    name: 'buildPreviewTable({ transition }) (7 rows)',
    valid: () => Array.from({ length: 7 }, () => UNIFORM),
    call: (transition) => buildPreviewTable({ ...small, transition: transition as number[][] }),
    names: 'transition',
  });
  async({
    name: 'buildPreviewTable({ transition }) (a row)',
    valid: () => UNIFORM,
    call: (row) =>
      buildPreviewTable({
        ...small,
        transition: Array.from({ length: 7 }, (_, n) => (n === 3 ? row : UNIFORM)) as never,
      }),
    names: 'transition',
  });
  it('buildWeightedTable and buildPreviewTable refuse a hole before building', async () => {
    await refusedBeforeWork(UNIFORM, (weights, onProgress) => buildWeightedTable({ ...small, weights, onProgress }));
    await refusedBeforeWork(
      Array.from({ length: 49 }, () => 1 / 7),
      (transition, onProgress) => buildPreviewTable({ ...small, transition, onProgress }),
    );
  });
  sync({
    name: 'RankTable.fromValues(values, { params: { model } })',
    valid: () => UNIFORM,
    call: (model) =>
      RankTable.fromValues(table.toFloat32(), {
        width: small.width,
        maxStep: small.maxStep,
        iterations: small.iterations, // fromValues takes no threads: an unknown option is refused
        variant: 'weighted',
        params: { randomizer: 'custom', samples: 0, seed: 0, parameter: 0, model: model as never },
      }),
    names: 'model',
  });
  const cache = () => ({ XDG_CACHE_HOME: cacheHome });
  async({
    name: 'cachedWeightedTablePath({ weights })',
    valid: () => UNIFORM,
    call: (weights) => cachedWeightedTablePath({ ...small, weights }, cache()),
    names: 'weights',
  });
  async({
    name: 'cachedPreviewTablePath({ transition })',
    valid: () => Array.from({ length: 49 }, () => 1 / 7),
    call: (transition) => cachedPreviewTablePath({ ...small, transition }, cache()),
    names: 'transition',
  });
  async({
    name: 'loadOrBuildCachedWeightedTable({ weights })',
    valid: () => UNIFORM,
    call: (weights) => loadOrBuildCachedWeightedTable({ ...small, weights, env: cache() }),
    names: 'weights',
  });
  async({
    name: 'loadOrBuildCachedPreviewTable({ transition })',
    valid: () => Array.from({ length: 49 }, () => 1 / 7),
    call: (transition) => loadOrBuildCachedPreviewTable({ ...small, transition, env: cache() }),
    names: 'transition',
  });
  sync({
    name: 'PreviewTable.row(surface.steps)',
    valid: () => [1, 0, -1],
    call: (steps) => preview.row({ width: 4, maxStep: 1, steps }),
    names: 'surface',
  });
  it('the loaders take bytes or a path: an array is refused', async () => {
    const bytes = [...table.toBytes()];
    delete bytes[3];
    expect(() => RankTable.fromBytes(bytes as never)).toThrow(StackRankError);
    expect(() => PreviewTable.fromBytes(bytes as never)).toThrow(StackRankError);
    for (const load of [loadRankTable, loadPreviewTable, loadAnyTable])
      await expect(load(bytes as never)).rejects.toBeInstanceOf(StackRankError);
  });
  it('weightsModel and transitionModel take no arrays: an array where the options go is refused', () => {
    expect(() => weightsModel([1, , 3] as never)).toThrow(StackRankError);
    expect(() => transitionModel({ samples: 100, randomizerParams: [1, , 3] as never })).toThrow(StackRankError);
  });
});

describe('real games: boards, placements, fumen', () => {
  const rows = () => ['..........', '#.........', '##.......#', '###.....##'];
  sync({ name: 'Board.fromRows(rows)', valid: rows, call: (r) => Board.fromRows(r as string[]), names: 'row' });
  sync({ name: 'Board.from(rows)', valid: rows, call: (r) => Board.from(r as string[]), names: 'row' });
  sync({
    name: 'Board.fromBits(rows)',
    valid: () => [7, 3, 1, 0],
    call: (r) => Board.fromBits(r as number[], 10),
    names: 'row',
  });
  sync({
    name: 'Board.from({ width, rows })',
    valid: () => [7, 3, 1, 0],
    call: (r) => Board.from({ width: 10, rows: r as number[] }),
    names: 'row',
  });
  const cells = () => [
    [4, 10],
    [5, 10],
    [6, 10],
    [5, 11],
  ];
  sync({
    name: 'Board.withCells(cells)',
    valid: cells,
    call: (c) => Board.empty().withCells(c as never),
    names: 'cell',
  });
  sync({ name: 'Board.place(cells)', valid: cells, call: (c) => Board.empty().place(c as never), names: 'cell' });
  sync({
    name: 'Board.withCells(cells[i])',
    valid: () => [4, 10],
    call: (c) => Board.empty().withCells([c as never]),
    names: 'cell',
  });
  sync({
    name: 'reachablePlacements(rows)',
    valid: rows,
    call: (r) => reachablePlacements(r as string[], 'T', { rules: 'classic' }),
    names: 'row',
  });
  sync({
    name: 'countReachablePlacements(rows)',
    valid: rows,
    call: (r) => countReachablePlacements(r as string[], 'T', { rules: 'classic' }),
    names: 'row',
  });
  sync({
    name: 'searchPlacements(rows)',
    valid: rows,
    call: (r) => searchPlacements(r as string[], 'T', 'classic'),
    names: 'row',
  });
  sync({
    name: 'new PieceMover(rows)',
    valid: rows,
    call: (r) => new PieceMover(r as string[], 'T', 'classic'),
    names: 'row',
  });
  sync({
    name: 'fumenFromBoard(board, { placement: { cells } })',
    valid: cells,
    call: (c) => fumenFromBoard(Board.empty(), { placement: { piece: 'T', cells: c as never } }),
    names: 'placement',
  });
  sync({
    name: 'fumenFromBoard(board, { placement: { cells[i] } })',
    valid: () => [4, 10],
    // A T's four cells, the first one the cell under test.
    call: (c) =>
      fumenFromBoard(Board.empty(), {
        placement: {
          piece: 'T',
          cells: [c as never, [5, 10], [6, 10], [5, 11]],
        },
      }),
    names: 'placement',
  });
  it('boardFromFumen takes a string: an array is refused', () => {
    const fumen = fumenFromBoard(Board.fromRows(rows(), 20));
    expect(boardFromFumen(fumen).board.equals(Board.fromRows(rows(), 20))).toBe(true);
    expect(() => boardFromFumen([fumen, , fumen] as never)).toThrow(StackRankError);
  });
});

describe('the game AI', () => {
  const board = () => ['..........', '#.........', '##.......#', '###.....##'];
  for (const method of ['nextMove', 'rankPlacements'] as const) {
    const run = (state: Parameters<TetrisAI['nextMove']>[0]) =>
      method === 'nextMove' ? gameAi.nextMove(state) : gameAi.rankPlacements(state);
    sync({
      name: `TetrisAI.${method}({ board })`,
      valid: board,
      call: (b) => run({ board: b as string[], current: 'T' }),
      names: 'row',
    });
    sync({
      name: `TetrisAI.${method}({ board: { rows } })`,
      valid: () => [7, 3, 1],
      call: (r) => run({ board: { width: 10, rows: r as number[] }, current: 'T' }),
      names: 'row',
    });
    sync({
      name: `TetrisAI.${method}({ queue })`,
      valid: () => ['S', 'Z', 'O'],
      call: (queue) => run({ board: board(), current: 'T', queue: queue as string[] }),
      names: 'queue',
    });
    sync({
      name: `TetrisAI.${method}({ next })`,
      valid: () => UNIFORM,
      call: (next) => run({ board: board(), current: 'T', queue: 'S', next: next as number[] }),
      names: 'next',
    });
  }
  it('TetrisAI.create, playGame: an array where an option object goes is refused', async () => {
    await expect(TetrisAI.create([1, , 3] as never)).rejects.toBeInstanceOf(StackRankError);
    await expect(playGame([1, , 3] as never)).rejects.toBeInstanceOf(StackRankError);
  });

  let game: PlayGameResult;
  let gameParts: PlayGameResult[];
  const gameOptions = { rules: 'classic', lookahead: 1, games: 4, maxPieces: 8, threads: 1, seed: 4 } as const;
  beforeAll(async () => {
    game = await playGame({ ...gameOptions, table: table9 });
    gameParts = [
      await playGame({ ...gameOptions, games: 2, table: table9 }),
      await playGame({ ...gameOptions, games: 2, firstGame: 2, table: table9 }),
    ];
  });
  async({
    name: 'benchGame({ players })',
    valid: () => ['both', 'stackOnly', 'fullBoardOnly'],
    call: (players) => benchGame({ ...gameOptions, games: 1, maxPieces: 4, table: table9, players: players as never }),
    names: 'players',
  });
  it('benchGame refuses a hole in players before playing a game', () =>
    refusedBeforeWork(['both', 'stackOnly'], (players, onGame) =>
      benchGame({ ...gameOptions, games: 1, maxPieces: 4, table: table9, players: players as never, onGame }),
    ));
  sync({
    name: 'mergeGameResults(results)',
    valid: () => gameParts,
    call: (r) => mergeGameResults(r as never),
    names: 'result',
  });
  sync({
    name: 'mergeGameResults(results[i].tallies)',
    valid: () => gameParts[0].tallies,
    call: (tallies) => mergeGameResults([{ ...gameParts[0], tallies: tallies as never }, gameParts[1]]),
    names: 'record',
  });
  sync({
    name: 'mergeGameResults(results[i].tallies[k].clears)',
    valid: () => game.tallies[1].clears,
    call: (clears) =>
      mergeGameResults([
        { ...game, tallies: game.tallies.map((t, k) => (k === 1 ? { ...t, clears: clears as never } : t)) },
      ]),
    names: 'clears',
  });
});

describe('reach tables and shards', () => {
  const placements = () => [
    { piece: 2, orientation: 0, column: 0 },
    { piece: 0, orientation: 0, column: 0 },
    { piece: 1, orientation: 0, column: 2 },
  ];
  sync({
    name: 'reachTable(placements)',
    valid: placements,
    call: (p) => reachTable('nes', 4, 1, 20, p as never),
    names: 'placement',
  });
  sync({
    name: 'recordReached(heights)',
    valid: () => [0, 1, 1, 0],
    call: (h) => recordReached(reachTable('nes', 4, 1, 20, placements())!, 0, h as number[], 1),
    names: 'heights',
  });
  it('shardRange takes numbers: an array is refused', () => {
    expect(shardRange(1, 2, 4)).toEqual({ start: 2, end: 4 });
    expect(() => shardRange([1, , 2] as never, 2, 4)).toThrow(StackRankError);
  });
});
