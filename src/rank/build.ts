/**
 * Builds rank values with the WebAssembly kernel (assembly/rank.ts), on this thread or on worker threads that
 * share one memory. Both paths compute every surface with the same instructions, so they are bit-identical.
 */
import {
  StackRankError,
  checkCallback,
  checkSignal,
  describe,
  optionsObject,
  requireInt,
  yieldToEventLoop,
} from '../errors.js';
import { checkGeometry, surfaceCount } from '../surface.js';
import { MAX_THREADS, defaultThreadCount } from '../threads.js';
import { instantiateKernel, pickVariant } from '../wasm.js';
import { KernelPool, type KernelCall } from '../workers.js';
import { TABLE_STEEP, rankMoves, type TableSteep } from './moves.js';
import { rankMoves20GSliced } from './moves-20g.js';
import {
  PLAN_BLOCK_LIST,
  PLAN_DELTA,
  PLAN_EDGE,
  PLAN_HI,
  PLAN_HI_OK,
  PLAN_LIST_COUNT,
  PLAN_LIST_OK,
  PLAN_LO,
  PLAN_MIRROR_BLOCK,
  PLAN_MOVES,
  PLAN_PIECE_END,
  PLAN_ROLE,
  PLAN_RUN_COUNT,
  PLAN_RUN_FIRST,
  PLAN_RUNS,
  PLAN_WORDS,
  U16_SCRATCH_ARRAYS,
  U16_SLACK_BYTES,
} from './layout.js';
import { rankPlanSteps, type RankPlanArrays } from './plan.js';
import { mirrorPlanSteps, plainPlanSteps, type MirrorPlan } from './mirror-plan.js';
import { SLICE_MS, runInSlices, type SliceOptions } from '../slices.js';
import { foldShape } from './fold.js';

export const MAX_ITERATIONS = 1000;
/** The article's iteration count. */
export const DEFAULT_ITERATIONS = 15;
/** Values set per call when the first buffer is filled (between two looks at the event loop). */
const FILL_SLICE = 1 << 21;

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
export const TABLE_GRAVITY: readonly TableGravity[] = ['drop', '20G'];

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

export interface RankKernel {
  alloc(bytes: number): number;
  rankBlocks(plan: number, prev: number, next: number, hiStart: number, hiEnd: number, scratch: number): void;
  fillF32(ptr: number, n: number, v: number): void;
  pieceMaxBlocksU16(plan: number, prev: number, out: number, hiStart: number, hiEnd: number, scratch: number): void;
  rankBlocksWeighted(
    plan: number,
    prev: number,
    next: number,
    hiStart: number,
    hiEnd: number,
    scratch: number,
    weights: number,
  ): void;
  rankBlocksU16(
    plan: number,
    prev: number,
    next: number,
    counter: number,
    chunk: number,
    limit: number,
    scratch: number,
    factor: number,
    best: number,
  ): number;
  rankBlocksU16Ones: RankKernel['rankBlocksU16'];
  foldU16(
    src: number,
    out: number,
    lo: number,
    middle: number,
    inner: number,
    edge: number,
    first: number,
    end: number,
  ): void;
}

export function checkBuildOptions(options: BuildOptions) {
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
  return { width, maxStep, iterations, steep, gravity };
}

/**
 * The onProgress calls of one build: `report(done)` after `done` of `iterations` iterations (fractions allowed),
 * with the elapsed time and an estimate of the rest from the mean time per iteration so far.
 */
export function progressReporter(iterations: number, onProgress?: (p: BuildProgress) => void): (done: number) => void {
  const started = performance.now();
  return (done) => {
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

/** Splits blocks [0, hi) into `parts` contiguous ranges of about equal estimated work. */
export function splitBlocks(cost: Float64Array, parts: number): [number, number][] {
  const total = cost.reduce((a, b) => a + b, 0);
  const ranges: [number, number][] = [];
  let start = 0;
  let acc = 0;
  for (let part = 1; part <= parts; part++) {
    const target = (total * part) / parts;
    let end = start;
    while (end < cost.length && (acc + cost[end] <= target || part === parts)) acc += cost[end++];
    if (end === start && end < cost.length && part < parts) acc += cost[end++];
    ranges.push([start, end]);
    start = end;
  }
  return ranges.filter(([a, b]) => b > a);
}

/** Writes the plan into kernel memory; returns the plan pointer (its header: PLAN_* of src/rank/layout.ts). */
export function writePlan(
  kernel: Pick<RankKernel, 'alloc'>,
  memory: WebAssembly.Memory,
  plan: RankPlanArrays | MirrorPlan,
): number {
  const put = (arr: Int32Array | Uint8Array): number => {
    const ptr = kernel.alloc(Math.max(4, arr.byteLength));
    new Uint8Array(memory.buffer, ptr, arr.byteLength).set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
    return ptr;
  };
  const header = new Int32Array(PLAN_WORDS);
  header[PLAN_LO] = plan.lo;
  header[PLAN_HI] = plan.hi;
  header[PLAN_PIECE_END] = put(plan.pieceEnd);
  header[PLAN_DELTA] = put(plan.delta);
  header[PLAN_RUN_FIRST] = put(plan.runFirst);
  header[PLAN_RUN_COUNT] = put(plan.runCount);
  header[PLAN_HI_OK] = put(plan.hiOk);
  header[PLAN_RUNS] = put(plan.runs);
  header[PLAN_ROLE] = put(plan.role);
  header[PLAN_MOVES] = plan.delta.length;
  if ('blocks' in plan) {
    header[PLAN_BLOCK_LIST] = put(plan.blocks);
    header[PLAN_MIRROR_BLOCK] = put(plan.mirrorBlocks);
    header[PLAN_LIST_COUNT] = plan.blocks.length;
    header[PLAN_EDGE] = plan.order.base ** plan.order.edgePairs;
    header[PLAN_LIST_OK] = put(plan.listOk);
  }
  return put(header);
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
  const { width, maxStep, iterations, steep, gravity } = checkBuildOptions(options);
  const opts = options;
  const threads = opts.threads ?? (await defaultThreadCount());
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw abortError();

  const size = surfaceCount(width, maxStep);
  const slices = planSlices(gravity, signal, onProgress, iterations);
  const moves = await buildMoves(width, maxStep, steep, gravity, slices.moves);
  const plan = await runInSlices(rankPlanSteps(moves, width, maxStep), slices.plan);
  slices.done();
  const variant = pickVariant(threads > 1, opts.simd);
  const { exports: kernel, memory, module } = await instantiateKernel<RankKernel>('rank', variant);
  if (signal?.aborted) throw abortError();
  let pool: KernelPool | null = null;
  const onAbort = () => pool?.terminate();
  try {
    const planPtr = writePlan(kernel, memory, plan);
    const buffers = [kernel.alloc(size * 4), kernel.alloc(size * 4)];
    const scratch = Array.from({ length: threads }, () => kernel.alloc(plan.lo * 12));
    // r_0 = 1, in slices: the first touch of a 9x4 buffer's pages takes most of a second.
    for (let at = 0; at < size; at += FILL_SLICE) {
      if (signal?.aborted) throw abortError();
      kernel.fillF32(buffers[0] + at * 4, Math.min(FILL_SLICE, size - at), 1);
      if (size > FILL_SLICE) await yieldToEventLoop();
    }
    let weightsPtr = 0;
    if (weights) {
      weightsPtr = kernel.alloc(4 * 7);
      new Float32Array(memory.buffer, weightsPtr, 7).set(Array.from(weights));
    }
    const blocksCall = (prev: number, next: number, a: number, b: number, scratchPtr: number): KernelCall =>
      weights
        ? { fn: 'rankBlocksWeighted', args: [planPtr, prev, next, a, b, scratchPtr, weightsPtr] }
        : { fn: 'rankBlocks', args: [planPtr, prev, next, a, b, scratchPtr] };

    const report = progressReporter(iterations, onProgress);
    report(0);

    if (threads > 1) {
      pool = await KernelPool.create(module, memory, threads);
      signal?.addEventListener('abort', onAbort);
      const ranges = splitBlocks(plan.blockCost, threads);
      for (let k = 0; k < iterations; k++) {
        if (signal?.aborted) throw abortError();
        const [prev, next] = k % 2 === 0 ? buffers : [buffers[1], buffers[0]];
        const calls: KernelCall[][] = ranges.map(([a, b], t) => [blocksCall(prev, next, a, b, scratch[t])]);
        try {
          await pool.runEach(calls);
        } catch (e) {
          if (signal?.aborted) throw abortError();
          throw e;
        }
        report(k + 1);
      }
    } else {
      // Chunks keep the thread responsive to abort and give progress inside an iteration (a few ms each at 9x4).
      const chunks = splitBlocks(plan.blockCost, 64);
      for (let k = 0; k < iterations; k++) {
        const [prev, next] = k % 2 === 0 ? buffers : [buffers[1], buffers[0]];
        for (let c = 0; c < chunks.length; c++) {
          if (signal?.aborted) throw abortError();
          if (weights)
            kernel.rankBlocksWeighted(planPtr, prev, next, chunks[c][0], chunks[c][1], scratch[0], weightsPtr);
          else kernel.rankBlocks(planPtr, prev, next, chunks[c][0], chunks[c][1], scratch[0]);
          report(k + (c + 1) / chunks.length);
          await yieldToEventLoop();
        }
      }
    }
    const result = buffers[iterations % 2];
    return new Float32Array(memory.buffer, result, size).slice();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    pool?.terminate();
  }
}

/** Largest stored value: the u16 build's fixed point (value = stored * scale). */
const U16_TOP = 65535;
/** Listed blocks a thread takes from the shared counter at a time (about 0.1 ms of work at 9x4). */
const CLAIM_BLOCKS = 4;

export interface FoldedRanks {
  /** u16 values in the table file's folded layout (src/rank/fold.ts). */
  folded: Uint16Array;
  /** value = stored * scale. */
  scale: number;
}

/**
 * The article's iteration (and its collapsing variant) computed mirror-folded in u16 fixed point: only the
 * canonical half of the surfaces is computed (src/rank/mirror-plan.ts), and each iteration rescales so that its
 * largest value is stored as 65535 (the iteration is positively homogeneous, so rescaling changes nothing but the
 * scale). Each iteration rounds once per surface, so the values differ from the f32 iteration's by a few units of
 * the last stored digit (test/rank/u16.test.ts measures it and checks that play is unchanged). Returns the values
 * already in the folded layout of the table file, with their scale.
 */
export async function buildFoldedRanks(opts: BuildOptions = {}): Promise<FoldedRanks> {
  const { values, scale } = await buildU16Ranks(opts, true);
  return { folded: values, scale };
}

/**
 * The same u16 iteration for a table that is not mirror-symmetric (the 20G variant): every surface computed from its
 * own moves (src/rank/mirror-plan.ts plainPlanSteps), the values returned in index order, one per surface, with
 * their scale. About three times faster than the f32 iteration on the 20G table's moves, in half the memory.
 */
export async function buildPlainRanks(opts: BuildOptions = {}): Promise<{ values: Uint16Array; scale: number }> {
  return buildU16Ranks(opts, false);
}

/** buildFoldedRanks (`mirrored`: values folded) and buildPlainRanks (values in index order). */
async function buildU16Ranks(opts: BuildOptions, mirrored: boolean): Promise<{ values: Uint16Array; scale: number }> {
  const { width, maxStep, iterations, steep, gravity } = checkBuildOptions(opts);
  // Folding keeps one surface of each mirror pair: the 20G table's values are not mirror-symmetric.
  if (mirrored && gravity === '20G') throw new StackRankError('BAD_ARGUMENT', 'a 20G table cannot be built folded');
  const threads = opts.threads ?? (await defaultThreadCount());
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw abortError();

  const size = surfaceCount(width, maxStep);
  const foldedSize = foldShape(width, maxStep).foldedSize;
  const variant = pickVariant(threads > 1, opts.simd);
  const { exports: kernel, memory, module } = await instantiateKernel<RankKernel>('rank', variant);
  // This thread computes too; the other `threads - 1` are workers. A worker takes a while to start (a new engine
  // instance: about as long as a few iterations), so they start first and join the iteration under way once ready:
  // the threads take blocks from a shared counter, so whoever is there shares the work.
  const workers = threads - 1;
  let pool: KernelPool | null = null;
  let poolFailure: unknown = null;
  const starting = workers > 0 ? KernelPool.create(module, memory, workers) : null;
  starting?.then(
    (p) => {
      pool = p;
    },
    (e) => {
      poolFailure = e;
    },
  );
  const onAbort = () => pool?.terminate();
  signal?.addEventListener('abort', onAbort);
  try {
    // The workers start while the plan is laid out (in slices, with the event loop run between them).
    const slices = planSlices(gravity, signal, onProgress, iterations);
    const moves = await buildMoves(width, maxStep, steep, gravity, slices.moves);
    const plan = await runInSlices(
      mirrored ? mirrorPlanSteps(moves, width, maxStep) : plainPlanSteps(moves, width, maxStep),
      slices.plan,
    );
    slices.done();
    const planPtr = writePlan(kernel, memory, plan);
    // Two u16 buffers and the scratch, each with slack: a run's last 8-lane step may pass its end. r0 = 1
    // everywhere is not stored: the first iteration reads no previous value (rankBlocksU16Ones), so both buffers
    // stay untouched until the threads' writes first touch their pages, in parallel.
    const bufferBytes = Math.ceil((size * 2) / 16) * 16 + U16_SLACK_BYTES;
    const buffers = [kernel.alloc(bufferBytes), kernel.alloc(bufferBytes)];
    const scratch = Array.from({ length: threads }, () =>
      kernel.alloc(plan.lo * 2 * U16_SCRATCH_ARRAYS + U16_SLACK_BYTES),
    );
    // The block counter the threads take work from, then each thread's largest sum (this thread's first).
    const control = kernel.alloc(4 * (1 + threads));
    let scale = 1 / U16_TOP;
    let top = U16_TOP;

    const report = progressReporter(iterations, onProgress);
    const check = () => {
      if (signal?.aborted) throw abortError();
      if (poolFailure) throw poolFailure;
    };
    const rethrow = (e: unknown): never => {
      if (signal?.aborted) throw abortError();
      throw e;
    };
    check();
    // Iteration 0 starts now (the set-up before it is not an iteration's time).
    report(0);
    const count = plan.blocks.length;
    // A call returns once the shared counter passes its limit. The engine starts a WebAssembly function in its
    // baseline compiler and swaps in optimised code only between calls, so the workers' first calls are cut to
    // growing lengths (one long call would run at the baseline's speed). This thread's calls are sized to take about
    // SLICE_MS each at the rate the threads took blocks in its last call, so it returns to the event loop every few
    // milliseconds (abort, progress, workers that have become ready; src/slices.ts) and its own first calls, short
    // too, let the optimised code in.
    const growing = (from: number): number[] =>
      [64, 32, 16, 8, 4, 2, 1].map((d) => from + Math.ceil((count - from) / d));
    // Blocks per call of this thread: doubled while a call takes under a millisecond (too short to time), then set
    // from the rate the threads took blocks at in the last call.
    let step = CLAIM_BLOCKS;
    const nextStep = (did: number, ms: number) =>
      ms >= 1 ? Math.max(CLAIM_BLOCKS, Math.round((did / ms) * SLICE_MS)) : Math.min(2 * step, count);
    let workerIterations = 0;
    // The largest sum of an iteration is at most 7 * top; `ratio` predicts how close it comes (from the previous
    // iteration, with a margin) so the factor maps it to just under 65535. Should a sum still pass 65535 after
    // scaling, the iteration is run again with the exact factor (prev is untouched, so a rerun is the same work).
    let ratio = 1;
    const runIteration = async (prev: number, next: number, factor: number, k: number): Promise<number> => {
      new Int32Array(memory.buffer, control, 1 + threads).fill(0);
      const counter = new Int32Array(memory.buffer, control, 1);
      const call = (limit: number, t: number): KernelCall => ({
        fn: k === 0 ? 'rankBlocksU16Ones' : 'rankBlocksU16',
        args: [planPtr, prev, next, control, CLAIM_BLOCKS, limit, scratch[t], factor, control + 4 * (1 + t)],
      });
      let running: Promise<unknown> | null = null;
      const join = () => {
        if (running || !pool) return;
        const from = Atomics.load(counter, 0);
        if (from >= count) return;
        const parts = workerIterations++ === 0 ? growing(from) : [count];
        running = pool.runEach(Array.from({ length: workers }, (_, w) => parts.map((limit) => call(limit, w + 1))));
        running.catch(() => {}); // awaited below; when this thread stops first (abort), nobody waits for it
      };
      join();
      for (;;) {
        check();
        const from = Atomics.load(counter, 0);
        if (from >= count) break;
        const { fn, args } = call(Math.min(count, from + step), 0);
        const started = performance.now();
        kernel[fn as 'rankBlocksU16'](...(args as Parameters<RankKernel['rankBlocksU16']>));
        const done = Atomics.load(counter, 0);
        step = nextStep(done - from, performance.now() - started);
        if (done >= count) break;
        // Fractions only where this thread does all the work (the iteration's end is reported by the caller).
        if (threads === 1) report(k + done / count);
        await yieldToEventLoop();
        join();
      }
      if (running) await (running as Promise<unknown>).catch(rethrow);
      check();
      return Math.max(...new Int32Array(memory.buffer, control + 4, threads));
    };
    for (let k = 0; k < iterations; k++) {
      const [prev, next] = k % 2 === 0 ? buffers : [buffers[1], buffers[0]];
      let factor = Math.fround(U16_TOP / (7 * Math.max(top, 1) * ratio));
      let maxSum = await runIteration(prev, next, factor, k);
      if (Math.fround(maxSum * factor) >= U16_TOP + 0.5) {
        factor = Math.fround(U16_TOP / maxSum);
        maxSum = await runIteration(prev, next, factor, k);
      }
      ratio = Math.min(1, (maxSum / (7 * Math.max(top, 1))) * 1.01);
      scale /= 7 * factor;
      top = Math.min(U16_TOP, Math.round(Math.fround(maxSum * factor)));
      report(k + 1);
    }
    check();
    const result = buffers[iterations % 2];
    if (!mirrored) {
      // Values in index order already: one copy out of kernel memory (86 MB at 9x4, tens of milliseconds).
      if (starting) await starting.catch(() => {});
      check();
      return { values: new Uint16Array(memory.buffer, result, size).slice(), scale };
    }
    const out = buffers[(iterations + 1) % 2];
    // Fold into the other buffer (free now), in tiles of (middle step, inner right half): the workers take the
    // first tiles in calls of growing length (the baseline compiler again), this thread the rest in calls of about
    // SLICE_MS each (at the rate of its last call).
    const tiles = plan.order.middle * plan.order.innerHalf;
    const foldArgs = [
      plan.lo,
      plan.order.middle,
      plan.order.innerHalf,
      plan.order.base ** plan.order.edgePairs,
    ] as const;
    const foldCalls = (first: number, end: number): [number, number][] => {
      const cuts = [first, ...[8, 4, 2, 1].map((d) => first + Math.ceil((end - first) / d))];
      return cuts
        .slice(1)
        .map((to, i) => [cuts[i], to] as [number, number])
        .filter(([a, b]) => b > a);
    };
    const shared = pool as KernelPool | null;
    const mine = shared ? Math.floor(tiles / threads) : tiles;
    const folding = shared
      ? shared.runEach(
          Array.from({ length: workers }, (_, w): KernelCall[] => {
            const per = Math.ceil((tiles - mine) / workers);
            const [a, b] = [Math.min(tiles - mine, w * per), Math.min(tiles - mine, (w + 1) * per)];
            return foldCalls(a, b).map(([x, y]) => ({ fn: 'foldU16', args: [result, out, ...foldArgs, x, y] }));
          }),
        )
      : null;
    folding?.catch(() => {}); // awaited below
    // Tiles per call: doubled while a call takes under a millisecond, then sized to about SLICE_MS.
    let tileStep = 1;
    for (let a = tiles - mine; a < tiles; ) {
      check();
      const b = Math.min(tiles, a + tileStep);
      const started = performance.now();
      kernel.foldU16(result, out, ...foldArgs, a, b);
      const ms = performance.now() - started;
      tileStep = ms >= 1 ? Math.max(1, Math.round(((b - a) / ms) * SLICE_MS)) : 2 * tileStep;
      a = b;
      await yieldToEventLoop();
    }
    if (folding) await folding.catch(rethrow);
    // A small table may be done before the workers are: a worker that could not start still fails the build
    // (WORKER_FAILED), as when it is needed, instead of going unnoticed.
    if (starting) await starting.catch(() => {});
    check();
    const folded = new Uint16Array(memory.buffer, out, foldedSize).slice();
    return { values: folded, scale };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Stops the workers now, or once they have started (a failure or an abort before they were ready).
    starting?.then(
      (p) => p.terminate(),
      () => {},
    );
  }
}
