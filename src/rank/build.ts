/**
 * Builds rank values (docs/rules.md, "The rank iteration"): the build's options, checked here, and the moves the
 * iteration allows; the rank kernel's driver (src/kernels/rank.ts) runs it, on this thread or on worker threads.
 */
import { StackRankError, checkCallback, checkSignal, describe, optionsObject, requireInt } from '../errors.js';
import { checkGeometry, surfaceCount } from '../surface.js';
import { MAX_THREADS, defaultThreadCount } from '../threads.js';
import { TABLE_STEEP, rankMoves, type TableSteep } from './moves.js';
import { rankMoves20GSliced } from './moves-20g.js';
import { rankValuesF32, ranksU16, type U16Ranks } from '../kernels/rank.js';
import { rankPlanSteps } from '../kernels/rank-plan.js';
import { mirrorPlanSteps, plainPlanSteps } from '../kernels/rank-mirror-plan.js';
import { runInSlices, type SliceOptions } from '../slices.js';
import { foldShape } from './fold.js';

export const MAX_ITERATIONS = 1000;
/** The article's iteration count. */
export const DEFAULT_ITERATIONS = 15;

export interface BuildProgress {
  /** Iterations finished (fractional inside an iteration on the single-threaded path). */
  iteration: number;
  iterations: number;
  fraction: number;
  elapsedMs: number;
  /** Estimated time left, from the rate so far; null before the first progress report. */
  etaMs: number | null;
  /**
   * Before the first iteration (iteration 0): how much of the build's plan is laid out, 0..1. The 20G table's plan
   * includes finding which placements a piece reaches at 20G, about a third of its build.
   */
  planned?: number;
}

export interface BuildOptions {
  width?: number;
  maxStep?: number;
  iterations?: number;
  /**
   * Threads computing the table; 1 runs on this thread. The u16 build (the default) computes on this thread too,
   * with `threads - 1` workers; the f32 build runs on `threads` workers. Default: the number of cores (1 where
   * shared memory is missing).
   */
  threads?: number;
  onProgress?: (p: BuildProgress) => void;
  signal?: AbortSignal;
  /** Force the scalar (non-SIMD) kernel, for comparison. */
  simd?: boolean;
  /**
   * Placements that would leave a step steeper than ±S: 'forbid' (the article's iteration, default) or 'collapse'
   * (legal, the step becomes ±S: the exact model of the game rule steep 'collapse'). Recorded as the table's variant.
   */
  steep?: TableSteep;
  /**
   * 'drop' (default): any orientation at any column, dropped from above (the article). '20G': only placements
   * reachable at 20G from TGM's spawn (rule set tgm20g; src/rank/moves-20g.ts). Recorded as the table's variant.
   */
  gravity?: TableGravity;
}

/** BuildOptions' keys: the table builds' option lists (optionNames) spread them and add their own. */
export const BUILD_OPTION_KEYS: { readonly [K in keyof Required<BuildOptions>]: true } = {
  width: true,
  maxStep: true,
  iterations: true,
  threads: true,
  onProgress: true,
  signal: true,
  simd: true,
  steep: true,
  gravity: true,
};

/** Which placements the rank iteration allows: dropped from above ('drop'), or reachable at 20G ('20G'). */
export type TableGravity = 'drop' | '20G';
export const TABLE_GRAVITY: readonly TableGravity[] = Object.freeze(['drop', '20G']);

/** The moves of a build: the article's, or the 20G variant's (derived in slices: src/slices.ts). */
export async function buildMoves(
  width: number,
  maxStep: number,
  steep: TableSteep,
  gravity: TableGravity,
  slices: SliceOptions = {},
) {
  return gravity === '20G' ? rankMoves20GSliced(width, maxStep, slices) : rankMoves(width, maxStep, steep);
}

/**
 * How a build lays out its plan (the moves, then their blocks and runs) in slices: abortable, reporting `planned`
 * (BuildProgress) at most once a slice, the moves taking the first half when they are derived (20G), and 1 once the
 * plan is made (`done`).
 */
function planSlices(
  gravity: TableGravity,
  signal: AbortSignal | undefined,
  onProgress: ((p: BuildProgress) => void) | undefined,
  iterations: number,
): { moves: SliceOptions; plan: SliceOptions; done(): void } {
  const report = (planned: number) =>
    onProgress?.({ iteration: 0, iterations, fraction: 0, elapsedMs: 0, etaMs: null, planned });
  const movesShare = gravity === '20G' ? 0.5 : 0;
  const abortMessage = 'the rank-table build was cancelled';
  return {
    moves: { signal, abortMessage, onFraction: (f) => report(f * movesShare) },
    plan: { signal, abortMessage, onFraction: (f) => report(movesShare + f * (1 - movesShare)) },
    done: () => report(1),
  };
}

/**
 * A build's options as checkBuildOptions returns them: checked once where a caller gives them (buildRankTable,
 * the cache functions, the preview and weighted builds) and passed inward as they are.
 */
export interface CheckedBuild {
  readonly width: number;
  readonly maxStep: number;
  readonly iterations: number;
  readonly steep: TableSteep;
  readonly gravity: TableGravity;
  /** Threads asked for; undefined: the default (the core count where shared memory exists). */
  readonly threads: number | undefined;
  readonly simd: boolean | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((p: BuildProgress) => void) | undefined;
  /** A table's value encoding, where the caller takes one (buildRankTable, the weighted build). */
  readonly encoding: 'u16' | 'f32' | undefined;
}

/** A build's options (and, where a caller takes them, `encoding`, `env`, `force`), checked: BAD_ARGUMENT names what is wrong. */
export function checkBuildOptions(options: BuildOptions): CheckedBuild {
  const opts = optionsObject('a table build', options) as BuildOptions & {
    encoding?: unknown;
    env?: unknown;
    force?: unknown;
  };
  checkSignal(opts.signal);
  if (opts.simd !== undefined && typeof opts.simd !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `simd must be true or false; got ${describe(opts.simd)}`);
  if (opts.encoding !== undefined && opts.encoding !== 'u16' && opts.encoding !== 'f32') {
    throw new StackRankError('BAD_ARGUMENT', `encoding must be "u16" or "f32"; got ${describe(opts.encoding)}`);
  }
  if (opts.force !== undefined && typeof opts.force !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `force must be true or false; got ${describe(opts.force)}`);
  if (opts.env !== undefined && (opts.env === null || typeof opts.env !== 'object'))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `env must be an object of environment variables; got ${describe(opts.env)}`,
    );
  const { width, maxStep } = checkGeometry({ width: opts.width, maxStep: opts.maxStep });
  const iterations = requireInt('iterations', opts.iterations ?? DEFAULT_ITERATIONS, 1, MAX_ITERATIONS);
  if (opts.threads !== undefined) requireInt('threads', opts.threads, 1, MAX_THREADS);
  const steep = opts.steep ?? 'forbid';
  if (!TABLE_STEEP.includes(steep)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `steep must be one of ${TABLE_STEEP.map((s) => `"${s}"`).join(', ')}; got ${describe(steep)}`,
    );
  }
  const gravity = opts.gravity ?? 'drop';
  if (!TABLE_GRAVITY.includes(gravity)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `gravity must be one of ${TABLE_GRAVITY.map((s) => `"${s}"`).join(', ')}; got ${describe(gravity)}`,
    );
  }
  if (gravity === '20G' && steep !== 'forbid')
    throw new StackRankError('BAD_ARGUMENT', 'a 20G table is built with steep "forbid" only');
  checkCallback('onProgress', opts.onProgress);
  return {
    width,
    maxStep,
    iterations,
    steep,
    gravity,
    threads: opts.threads,
    simd: opts.simd,
    signal: opts.signal,
    onProgress: opts.onProgress,
    encoding: opts.encoding,
  };
}

/**
 * The onProgress calls of one build: `report(done)` after `done` of `iterations` iterations (fractions allowed),
 * with the elapsed time since the first report and an estimate of the rest from the mean time per iteration so far.
 */
export function progressReporter(iterations: number, onProgress?: (p: BuildProgress) => void): (done: number) => void {
  // The clock starts at the first report (iteration 0, once the kernel is set up), not at the build's call.
  let started = -1;
  return (done) => {
    if (started < 0) started = performance.now();
    if (!onProgress) return;
    const elapsedMs = performance.now() - started;
    onProgress({
      iteration: done,
      iterations,
      fraction: done / iterations,
      elapsedMs,
      etaMs: done > 0 ? (elapsedMs / done) * (iterations - done) : null,
    });
  };
}

function abortError(): StackRankError {
  return new StackRankError('ABORTED', 'the rank-table build was cancelled');
}

/**
 * Computes r_k for every surface (docs/rules.md, "The rank iteration") and returns a copy of the final f32 values, indexed by surface.
 * With `weights` (7 values, equal within the mirror pairs S/Z and L/J) it runs the weighted variant instead:
 * r_{k+1}(s) = sum_p weights[p] max over p's placements of r_k (src/rank/weighted.ts).
 */
export async function buildRankValues(options: BuildOptions = {}, weights?: ArrayLike<number>): Promise<Float32Array> {
  return computeRankValues(checkBuildOptions(options), weights);
}

/** buildRankValues for options checked already. */
export async function computeRankValues(build: CheckedBuild, weights?: ArrayLike<number>): Promise<Float32Array> {
  const { width, maxStep, iterations, steep, gravity, signal, onProgress } = build;
  const threads = build.threads ?? (await defaultThreadCount());
  if (signal?.aborted) throw abortError();

  const size = surfaceCount(width, maxStep);
  const slices = planSlices(gravity, signal, onProgress, iterations);
  const moves = await buildMoves(width, maxStep, steep, gravity, slices.moves);
  const plan = await runInSlices(rankPlanSteps(moves, width, maxStep), slices.plan);
  slices.done();
  const report = progressReporter(iterations, onProgress);
  return rankValuesF32(plan, size, { iterations, threads, simd: build.simd, signal, report }, weights);
}

export interface FoldedRanks {
  /** u16 values in the table file's folded layout (src/rank/fold.ts). */
  folded: Uint16Array;
  /** value = stored * scale. */
  scale: number;
}

/**
 * The article's iteration (and its collapsing variant) computed mirror-folded in u16 fixed point: only the
 * canonical half of the surfaces is computed (src/kernels/rank-mirror-plan.ts), and each iteration rescales so that its
 * largest value is stored as 65535 (the iteration is positively homogeneous, so rescaling changes nothing but the
 * scale). Each iteration rounds once per surface, so the values differ from the f32 iteration's by a few units of
 * the last stored digit (test/rank/u16.test.ts measures it and checks that play is unchanged). Returns the values
 * already in the folded layout of the table file, with their scale.
 */
export async function buildFoldedRanks(options: BuildOptions = {}): Promise<FoldedRanks> {
  return computeFoldedRanks(checkBuildOptions(options));
}

/** buildFoldedRanks for options checked already. */
export async function computeFoldedRanks(build: CheckedBuild): Promise<FoldedRanks> {
  const { values, scale } = await computeU16Ranks(build, true);
  return { folded: values, scale };
}

/**
 * The same u16 iteration for a table that is not mirror-symmetric (the 20G variant): every surface computed from its
 * own moves (src/kernels/rank-mirror-plan.ts plainPlanSteps), the values returned in index order, one per surface,
 * with their scale. About three times faster than the f32 iteration on the 20G table's moves, in half the memory.
 */
export async function buildPlainRanks(options: BuildOptions = {}): Promise<U16Ranks> {
  return computePlainRanks(checkBuildOptions(options));
}

/** buildPlainRanks for options checked already. */
export function computePlainRanks(build: CheckedBuild): Promise<U16Ranks> {
  return computeU16Ranks(build, false);
}

/** computeFoldedRanks (`mirrored`: values folded) and computePlainRanks (values in index order). */
async function computeU16Ranks(build: CheckedBuild, mirrored: boolean): Promise<U16Ranks> {
  const { width, maxStep, iterations, steep, gravity, signal, onProgress } = build;
  // Folding keeps one surface of each mirror pair: the 20G table's values are not mirror-symmetric.
  if (mirrored && gravity === '20G') throw new StackRankError('BAD_ARGUMENT', 'a 20G table cannot be built folded');
  const threads = build.threads ?? (await defaultThreadCount());
  if (signal?.aborted) throw abortError();

  const size = surfaceCount(width, maxStep);
  const foldedSize = foldShape(width, maxStep).foldedSize;
  const report = progressReporter(iterations, onProgress);
  // The workers start while the plan is laid out (in slices, with the event loop run between them).
  const makePlan = async () => {
    const slices = planSlices(gravity, signal, onProgress, iterations);
    const moves = await buildMoves(width, maxStep, steep, gravity, slices.moves);
    const plan = await runInSlices(
      mirrored ? mirrorPlanSteps(moves, width, maxStep) : plainPlanSteps(moves, width, maxStep),
      slices.plan,
    );
    slices.done();
    return plan;
  };
  return ranksU16(makePlan, mirrored, size, foldedSize, { iterations, threads, simd: build.simd, signal, report });
}
