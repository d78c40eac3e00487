/**
 * Genetic-algorithm trainer for full-board weights, as described in the CS3243 GA report (its §4.2, §5):
 *   - population of `population` weight vectors; initial weights uniform in [0, 20] for the features to maximise
 *     (rowsCleared, erodedPieceCells) and in [-8, 2] for the others;
 *   - fitness = mean lines over `gamesPerEval` games; every candidate of a generation plays the SAME games
 *     (seeds drawn from the trainer's PRNG each generation), which makes comparisons fairer;
 *   - the best `elite` fraction is kept with its fitness and not re-simulated;
 *   - every other child: pick `tournament` distinct individuals uniformly, take the fittest `parents`, crossover
 *     (uniform: each weight from a random parent; or onePoint), then each weight mutates with probability
 *     `mutationRate` by a uniform amount of up to ±25 % of its initial range.
 * Games run in the WebAssembly kernel (runGame), in worker threads over one shared memory when threads > 1. The
 * trainer checkpoints after every generation (a JSON-safe object handed to onGeneration) and resumes from one;
 * the same seed gives the same weights whatever the thread count.
 *
 * Proxy: training on the full 10×20 board is hopeless for good players (games of millions of lines), so training
 * runs on a lower board (`boardHeight`, default 12) with a piece cap (`maxPieces`); bench/notes/fullboard-results.md
 * reports how well the proxy ranks weights on the full board.
 */
import {
  StackRankError,
  checkCallback,
  checkSignal,
  describe,
  fieldsOnce,
  firstHole,
  optionNames,
  optionsObject,
  requireInt,
} from '../errors.js';
import { Rng, checkSeed, type RngState } from '../random.js';
import { jsonDataProblem } from '../runs.js';
import { MAX_THREADS } from '../threads.js';
import { localGames, workerGames, type FullBoardGames } from '../kernels/fullboard.js';
import { sharedMemorySupported } from '../kernels/wasm.js';
import { DEFAULT_WIDTH, checkSize } from './drops.js';
import type { FeatureName } from './features.js';
import {
  BCTS_FEATURES,
  FEATURE_SETS,
  FEATURE_SET_NAMES,
  type FeatureSetName,
  isFeatureSetName,
  resolveWeights,
  weightSlots,
} from './presets.js';

export interface TrainOptions {
  /** The features to weigh: a list of feature names, or the name of a set (FEATURE_SETS); default bcts's eight. */
  features?: readonly FeatureName[] | FeatureSetName;
  population?: number;
  /** Individuals drawn per tournament; default 8, or the population when that is smaller. */
  tournament?: number;
  parents?: number;
  crossover?: 'uniform' | 'onePoint';
  mutationRate?: number;
  elite?: number;
  gamesPerEval?: number;
  /** Generations to run in all (counting those of a resumed checkpoint); with `resume`, default the checkpoint's. */
  generations?: number;
  boardWidth?: number;
  boardHeight?: number;
  maxPieces?: number;
  seed?: number;
  threads?: number;
  onGeneration?(info: GenerationInfo): void;
  signal?: AbortSignal;
  /**
   * A checkpoint from onGeneration (or its JSON): training continues from it with its own options. An option given
   * here besides `generations`, `threads` and the callbacks must equal the checkpoint's (RUN_MISMATCH otherwise).
   */
  resume?: TrainCheckpoint;
}

const TRAIN_OPTIONS = optionNames<TrainOptions>({
  features: true,
  population: true,
  tournament: true,
  parents: true,
  crossover: true,
  mutationRate: true,
  elite: true,
  gamesPerEval: true,
  generations: true,
  boardWidth: true,
  boardHeight: true,
  maxPieces: true,
  seed: true,
  threads: true,
  onGeneration: true,
  signal: true,
  resume: true,
});

export interface ResolvedTrainOptions {
  features: FeatureName[];
  population: number;
  tournament: number;
  parents: number;
  crossover: 'uniform' | 'onePoint';
  mutationRate: number;
  elite: number;
  gamesPerEval: number;
  generations: number;
  boardWidth: number;
  boardHeight: number;
  maxPieces: number;
  seed: number;
}

export interface Individual {
  weights: number[];
  /** Mean lines over the games it played; null until evaluated. */
  fitness: number | null;
}

export interface GenerationStats {
  generation: number;
  best: number;
  mean: number;
  median: number;
  bestWeights: number[];
  /** Candidates simulated this generation (the elite is not re-simulated). */
  evaluated: number;
  seconds: number;
}

export interface TrainCheckpoint {
  format: 'stackrank-ga';
  version: 1;
  options: ResolvedTrainOptions;
  /** Generations completed. */
  generation: number;
  /** The population of the next generation (children unevaluated). */
  population: Individual[];
  rng: RngState;
  history: GenerationStats[];
}

export interface GenerationInfo extends GenerationStats {
  checkpoint: TrainCheckpoint;
}

export interface TrainResult {
  features: FeatureName[];
  weights: number[];
  fitness: number;
  history: GenerationStats[];
  options: ResolvedTrainOptions;
}

/** The trainer's defaults (the CS3243 GA report's setup on a 10 x 12 proxy board). */
export const TRAIN_DEFAULTS = Object.freeze({
  population: 100,
  /** Capped at the population when that is smaller. */
  tournament: 8,
  parents: 2,
  mutationRate: 0.1,
  elite: 0.2,
  gamesPerEval: 3,
  boardWidth: DEFAULT_WIDTH,
  boardHeight: 12,
  maxPieces: 200_000,
  seed: 1,
});

/** Limits of the trainer's integer options. */
export const TRAIN_LIMITS = Object.freeze({
  population: { min: 4, max: 100_000 },
  gamesPerEval: { min: 1, max: 10_000 },
  generations: { min: 1, max: 1_000_000 },
});

const POSITIVE: readonly FeatureName[] = ['rowsCleared', 'erodedPieceCells'];
function initRange(f: FeatureName): [number, number] {
  return POSITIVE.includes(f) ? [0, 20] : [-8, 2];
}

function num(name: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw new StackRankError('BAD_ARGUMENT', `${name} must be a number from ${min} to ${max}; got ${describe(v)}`);
  }
  return v;
}

export function resolveTrainOptions(o: TrainOptions): ResolvedTrainOptions {
  if (o.features !== undefined && !Array.isArray(o.features) && !isFeatureSetName(o.features)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `features must be an array of feature names or a feature set (${FEATURE_SET_NAMES.join(', ')}; docs/fullboard.md); got ${describe(o.features)}`,
    );
  }
  const features = [...(isFeatureSetName(o.features) ? FEATURE_SETS[o.features] : (o.features ?? BCTS_FEATURES))];
  resolveWeights({ features, weights: features.map(() => 0) });
  const population = requireInt(
    'population',
    o.population ?? TRAIN_DEFAULTS.population,
    TRAIN_LIMITS.population.min,
    TRAIN_LIMITS.population.max,
  );
  const tournament = requireInt(
    'tournament',
    o.tournament ?? Math.min(TRAIN_DEFAULTS.tournament, population),
    2,
    population,
  );
  const parents = requireInt('parents', o.parents ?? TRAIN_DEFAULTS.parents, 1, tournament);
  const crossover = o.crossover ?? 'uniform';
  if (crossover !== 'uniform' && crossover !== 'onePoint')
    throw new StackRankError('BAD_ARGUMENT', `crossover must be "uniform" or "onePoint"; got ${describe(crossover)}`);
  const { width, height } = checkSize(
    o.boardWidth ?? TRAIN_DEFAULTS.boardWidth,
    o.boardHeight ?? TRAIN_DEFAULTS.boardHeight,
  );
  return {
    features,
    population,
    tournament,
    parents,
    crossover,
    mutationRate: num('mutationRate', o.mutationRate ?? TRAIN_DEFAULTS.mutationRate, 0, 1),
    elite: num('elite', o.elite ?? TRAIN_DEFAULTS.elite, 0, 0.9),
    gamesPerEval: requireInt(
      'gamesPerEval',
      o.gamesPerEval ?? TRAIN_DEFAULTS.gamesPerEval,
      TRAIN_LIMITS.gamesPerEval.min,
      TRAIN_LIMITS.gamesPerEval.max,
    ),
    generations: requireInt('generations', o.generations, TRAIN_LIMITS.generations.min, TRAIN_LIMITS.generations.max),
    boardWidth: width,
    boardHeight: height,
    maxPieces: requireInt('maxPieces', o.maxPieces ?? TRAIN_DEFAULTS.maxPieces, 1, Number.MAX_SAFE_INTEGER),
    seed: checkSeed(o.seed ?? TRAIN_DEFAULTS.seed),
  };
}

/** The options a checkpoint records that decide the run (all of ResolvedTrainOptions but `generations`). */
export const RESUMED_OPTIONS = [
  'features',
  'population',
  'tournament',
  'parents',
  'crossover',
  'mutationRate',
  'elite',
  'gamesPerEval',
  'boardWidth',
  'boardHeight',
  'maxPieces',
  'seed',
] as const satisfies readonly (keyof ResolvedTrainOptions & keyof TrainOptions)[];

export type ResumedOption = (typeof RESUMED_OPTIONS)[number];

/**
 * The first option of `options` that is given (not undefined) and differs from the checkpoint's, with both values;
 * null when every given option agrees. Options left out take the checkpoint's values.
 */
export function resumeConflict(
  options: TrainOptions,
  checkpoint: TrainCheckpoint,
): { option: ResumedOption; given: unknown; saved: unknown } | null {
  for (const option of RESUMED_OPTIONS) {
    const given: unknown = options[option];
    const saved: unknown = checkpoint.options[option];
    // a feature set's name stands for its features (the checkpoint records the list)
    const compared = option === 'features' && isFeatureSetName(given) ? FEATURE_SETS[given] : given;
    if (given !== undefined && !sameValue(compared, saved)) return { option, given, saved };
  }
  return null;
}

/** Equal numbers or strings, or arrays of them (a feature list) with equal entries in the same order. */
function sameValue(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const CHECKPOINT_FIELDS = optionNames<TrainCheckpoint>({
  format: true,
  version: true,
  options: true,
  generation: true,
  population: true,
  rng: true,
  history: true,
});

/** Checks a parsed checkpoint (from onGeneration, or JSON.parse of a saved one). */
export function checkCheckpoint(json: unknown): TrainCheckpoint {
  // Read once (docs/errors.md): a getter or Proxy that throws is BAD_ARGUMENT; the copy is what is checked and used.
  const c = (
    json !== null && typeof json === 'object' ? fieldsOnce('checkCheckpoint', json, CHECKPOINT_FIELDS) : json
  ) as TrainCheckpoint;
  if (
    c?.format !== 'stackrank-ga' ||
    c.version !== 1 ||
    !Array.isArray(c.population) ||
    !Array.isArray(c.rng) ||
    !c.options
  ) {
    throw new StackRankError('BAD_HEADER', 'not a stackrank GA checkpoint (format "stackrank-ga", version 1)');
  }
  // A checkpoint is JSON data (it is saved as a file): a cycle, a BigInt or deep nesting would fail its next save.
  const problem = jsonDataProblem('the checkpoint', c);
  if (problem) throw new StackRankError('BAD_HEADER', `not a stackrank GA checkpoint: ${problem}`);
  const opts = resolveTrainOptions(c.options);
  const n = opts.features.length;
  if (c.population.length !== opts.population)
    throw new StackRankError('BAD_HEADER', 'checkpoint population does not match its options');
  // Index loops, not some/every: a sparse array's holes are entries too (and bad ones), never skipped.
  for (let i = 0; i < c.population.length; i++) {
    const ind: unknown = c.population[i];
    const { weights, fitness } = (
      ind !== null && typeof ind === 'object'
        ? fieldsOnce(`checkCheckpoint: population entry ${i}`, ind, ['weights', 'fitness'])
        : {}
    ) as Partial<Individual>;
    if (
      ind === null ||
      typeof ind !== 'object' ||
      !finiteList(weights, n) ||
      !(fitness === null || (typeof fitness === 'number' && Number.isFinite(fitness) && fitness >= 0))
    )
      throw new StackRankError(
        'BAD_HEADER',
        `checkpoint population entry ${i} must be { weights: ${n} finite numbers, fitness: lines (a number not below 0) or null }; got ${describe(ind)}`,
      );
  }
  try {
    new Rng(c.rng);
  } catch (e) {
    throw new StackRankError('BAD_HEADER', `checkpoint rng: ${(e as Error).message}`, { cause: e });
  }
  if (!Array.isArray(c.history))
    throw new StackRankError('BAD_HEADER', `checkpoint history must be an array; got ${describe(c.history)}`);
  // The generations completed are those the history records: a resume numbers the next ones after them.
  if (c.generation !== c.history.length)
    throw new StackRankError(
      'BAD_HEADER',
      `checkpoint generation must be the number of generations its history holds (${c.history.length}); got ${describe(c.generation)}`,
    );
  for (let i = 0; i < c.history.length; i++) {
    const h: unknown = c.history[i];
    const stats = h as GenerationStats;
    const figures = h !== null && typeof h === 'object' ? [stats.best, stats.mean, stats.median] : [];
    if (
      h === null ||
      typeof h !== 'object' ||
      !finiteList(stats.bestWeights, n) ||
      stats.generation !== i + 1 ||
      !finiteList(figures, 3) ||
      figures.some((f) => f < 0)
    )
      throw new StackRankError(
        'BAD_HEADER',
        `checkpoint history entry ${i} must be generation ${i + 1}'s stats: best, mean and median lines (finite, not negative) and ${n} bestWeights; got ${describe(h)}`,
      );
  }
  return c;
}

/** Whether `value` is an array of exactly `length` finite numbers, without holes. */
function finiteList(value: unknown, length: number): boolean {
  return (
    Array.isArray(value) &&
    value.length === length &&
    firstHole(value) < 0 &&
    value.every((v) => typeof v === 'number' && Number.isFinite(v))
  );
}

function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng.nextFloat();
}

function randomIndividual(rng: Rng, features: readonly FeatureName[]): Individual {
  return { weights: features.map((f) => uniform(rng, ...initRange(f))), fitness: null };
}

/** Sorts by fitness, best first; ties keep population order. */
function ranked(pop: Individual[]): Individual[] {
  return pop
    .map((ind, i) => ({ ind, i }))
    .sort((a, b) => b.ind.fitness! - a.ind.fitness! || a.i - b.i)
    .map((x) => x.ind);
}

function breed(rng: Rng, pop: Individual[], o: ResolvedTrainOptions): Individual[] {
  const order = ranked(pop);
  const eliteCount = Math.round(o.elite * o.population);
  const next: Individual[] = order.slice(0, eliteCount).map((i) => ({ weights: [...i.weights], fitness: i.fitness }));
  while (next.length < o.population) {
    // tournament: `tournament` distinct individuals (partial Fisher–Yates), keep the fittest `parents`
    const idx = pop.map((_, i) => i);
    for (let k = 0; k < o.tournament; k++) {
      const j = k + rng.nextInt(idx.length - k);
      [idx[k], idx[j]] = [idx[j], idx[k]];
    }
    const chosen = idx
      .slice(0, o.tournament)
      .sort((a, b) => pop[b].fitness! - pop[a].fitness! || a - b)
      .slice(0, o.parents)
      .map((i) => pop[i]);
    const n = o.features.length;
    let child: number[];
    if (o.crossover === 'uniform')
      child = Array.from({ length: n }, (_, k) => chosen[rng.nextInt(chosen.length)].weights[k]);
    else {
      const cut = rng.nextInt(n + 1);
      child = Array.from({ length: n }, (_, k) => (k < cut ? chosen[0] : chosen[chosen.length - 1]).weights[k]);
    }
    child = child.map((w, k) => {
      if (rng.nextFloat() >= o.mutationRate) return w;
      const [lo, hi] = initRange(o.features[k]);
      return w + uniform(rng, -0.25, 0.25) * (hi - lo);
    });
    next.push({ weights: child, fitness: null });
  }
  return next;
}

/** The games of a generation: the lines of each job's game (its weights, its seed state), in job order. */
interface Evaluator {
  run(jobs: { weights: number[]; state: RngState }[]): Promise<number[]>;
  close(): void;
}

/** An evaluator over the kernel's games: on this thread, or on worker threads over one shared memory. */
async function evaluator(o: ResolvedTrainOptions, threads: number, signal?: AbortSignal): Promise<Evaluator> {
  const games: FullBoardGames =
    threads > 1 && sharedMemorySupported()
      ? await workerGames(o.boardWidth, o.boardHeight, threads, signal)
      : await localGames(o.boardWidth, o.boardHeight);
  return {
    run: (jobs) =>
      games.run(
        jobs.map((job) => ({ slots: weightSlots({ features: o.features, weights: job.weights }), state: job.state })),
        o.maxPieces,
        signal,
      ),
    close: () => games.close(),
  };
}

/** The generations a resumed run ends at: at least those the checkpoint completed, which a resume cannot undo. */
function resumedGenerations(given: unknown, resume: TrainCheckpoint): number {
  const { min, max } = TRAIN_LIMITS.generations;
  const generations = requireInt('generations', given ?? resume.options.generations, min, max);
  if (generations < resume.generation)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `generations is ${generations}, fewer than the ${resume.generation} the checkpoint completed; give ${resume.generation} or more`,
    );
  return generations;
}

/** Runs the genetic algorithm; see the module comment. */
export async function trainWeights(trainOptions: TrainOptions): Promise<TrainResult> {
  const options = optionsObject('trainWeights', trainOptions, TRAIN_OPTIONS) as TrainOptions;
  const signal = checkSignal(options.signal, 'trainWeights: signal');
  checkCallback('trainWeights: onGeneration', options.onGeneration);
  const resume = options.resume ? checkCheckpoint(options.resume) : undefined;
  if (resume) {
    // A value that is not allowed at all is BAD_ARGUMENT, as without resume; an allowed one must be the checkpoint's.
    resolveTrainOptions({ ...options, generations: options.generations ?? resume.options.generations });
    const conflict = resumeConflict(options, resume);
    if (conflict)
      throw new StackRankError(
        'RUN_MISMATCH',
        `trainWeights: resume: ${conflict.option} is ${describe(conflict.given)} here and ${describe(conflict.saved)} in the checkpoint; leave ${conflict.option} out to continue with the checkpoint's`,
      );
  }
  const o = resume
    ? {
        ...resolveTrainOptions(resume.options),
        generations: resumedGenerations(options.generations, resume),
      }
    : resolveTrainOptions(options);
  const threads = requireInt('threads', options.threads ?? 1, 1, MAX_THREADS);
  let rng: Rng;
  let population: Individual[];
  let generation: number;
  const history: GenerationStats[] = resume ? [...resume.history] : [];
  if (resume) {
    rng = new Rng(resume.rng);
    population = resume.population.map((i) => ({ weights: [...i.weights], fitness: i.fitness }));
    generation = resume.generation;
  } else {
    rng = new Rng(o.seed);
    population = Array.from({ length: o.population }, () => randomIndividual(rng, o.features));
    generation = 0;
  }
  if (signal?.aborted) throw new StackRankError('ABORTED', 'training was aborted');
  const games = await evaluator(o, threads, signal);
  let evaluated: Individual[] = population;
  try {
    while (generation < o.generations) {
      if (signal?.aborted) throw new StackRankError('ABORTED', 'training was aborted');
      const t0 = performance.now();
      const states = Array.from({ length: o.gamesPerEval }, () => new Rng(rng.nextU32()).state());
      const todo = population.filter((i) => i.fitness === null);
      const jobs = todo.flatMap((ind) => states.map((state) => ({ weights: ind.weights, state })));
      const lines = await games.run(jobs);
      todo.forEach((ind, i) => {
        let s = 0;
        for (let g = 0; g < o.gamesPerEval; g++) s += lines[i * o.gamesPerEval + g];
        ind.fitness = s / o.gamesPerEval;
      });
      generation++;
      const fit = population.map((i) => i.fitness!).sort((a, b) => a - b);
      const best = ranked(population)[0];
      const n = fit.length;
      const stats: GenerationStats = {
        generation,
        best: best.fitness!,
        mean: fit.reduce((s, v) => s + v, 0) / n,
        median: n % 2 ? fit[(n - 1) / 2] : (fit[n / 2 - 1] + fit[n / 2]) / 2,
        bestWeights: [...best.weights],
        evaluated: todo.length,
        seconds: (performance.now() - t0) / 1000,
      };
      history.push(stats);
      evaluated = population;
      population = breed(rng, population, o);
      const checkpoint: TrainCheckpoint = {
        format: 'stackrank-ga',
        version: 1,
        options: o,
        generation,
        population: population.map((i) => ({ weights: [...i.weights], fitness: i.fitness })),
        rng: rng.state(),
        history: history.map((h) => ({ ...h, bestWeights: [...h.bestWeights] })),
      };
      // the event's own copy: a callback that edits it leaves the run's history as it was
      options.onGeneration?.({ ...stats, bestWeights: [...stats.bestWeights], checkpoint });
    }
  } finally {
    games.close();
  }
  // the best of the last evaluated generation (on a resume that is already complete: the checkpoint's elite)
  const pool = evaluated.every((i) => i.fitness !== null) ? evaluated : population.filter((i) => i.fitness !== null);
  const best = ranked(pool)[0];
  return { features: [...o.features], weights: [...best.weights], fitness: best.fitness!, history, options: o };
}
