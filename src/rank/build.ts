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
import { rankMoves20G } from './moves-20g.js';
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
import { makeRankPlan, type RankPlanArrays } from './plan.js';
import { makeMirrorPlan, type MirrorPlan } from './mirror-plan.js';
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
}

export interface BuildOptions {
  width?: number;
  maxStep?: number;
  iterations?: number;
  /** Worker threads; 1 runs on this thread. Default: the number of cores (1 where shared memory is missing). */
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

/** Which placements the rank iteration allows: dropped from above ('drop'), or reachable at 20G ('20G'). */
export type TableGravity = 'drop' | '20G';
export const TABLE_GRAVITY: readonly TableGravity[] = ['drop', '20G'];

/** The moves of a build: the article's, or the 20G variant's. */
export function buildMoves(width: number, maxStep: number, steep: TableSteep, gravity: TableGravity) {
  return gravity === '20G' ? rankMoves20G(width, maxStep) : rankMoves(width, maxStep, steep);
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
  fillBytes(ptr: number, bytes: number, byte: number): void;
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
  const { width, maxStep } = checkGeometry(opts);
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
  const plan = makeRankPlan(buildMoves(width, maxStep, steep, gravity), width, maxStep);
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
      // Chunks keep the thread responsive to abort and give progress inside an iteration.
      const chunks = splitBlocks(plan.blockCost, 16);
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
  const { width, maxStep, iterations, steep } = checkBuildOptions(opts);
  const threads = opts.threads ?? (await defaultThreadCount());
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw abortError();

  const size = surfaceCount(width, maxStep);
  const foldedSize = foldShape(width, maxStep).foldedSize;
  const variant = pickVariant(threads > 1, opts.simd);
  const { exports: kernel, memory, module } = await instantiateKernel<RankKernel>('rank', variant);
  // Workers take a while to start (each is a new engine instance: about as long as three iterations), so they
  // start first and this thread prepares the plan and the buffers meanwhile.
  const starting = threads > 1 ? KernelPool.create(module, memory, threads) : null;
  starting?.catch(() => {}); // awaited below; a failure before then is reported there
  let pool: KernelPool | null = null;
  const onAbort = () => pool?.terminate();
  try {
    if (starting) await yieldToEventLoop(); // lets the pool spawn its workers before the synchronous work below
    const plan = makeMirrorPlan(rankMoves(width, maxStep, steep), width, maxStep);
    const planPtr = writePlan(kernel, memory, plan);
    // Two u16 buffers and the scratch, each with slack: a run's last 8-lane step may pass its end.
    const bufferBytes = Math.ceil((size * 2) / 16) * 16 + U16_SLACK_BYTES;
    const buffers = [kernel.alloc(bufferBytes), kernel.alloc(bufferBytes)];
    const scratch = Array.from({ length: threads }, () =>
      kernel.alloc(plan.lo * 2 * U16_SCRATCH_ARRAYS + U16_SLACK_BYTES),
    );
    // The block counter the threads take work from, then each thread's largest sum.
    const control = kernel.alloc(4 * (1 + threads));
    let scale = 1 / U16_TOP;
    let top = U16_TOP;

    const report = progressReporter(iterations, onProgress);
    const rethrow = (e: unknown): never => {
      if (signal?.aborted) throw abortError();
      throw e;
    };

    // r0 = 1 everywhere (65535 = bytes of 0xFF). Most of a fill's cost is the first touch of fresh pages, so the
    // second buffer is touched here too, while the workers start, instead of during the first iteration.
    const fillBytes = size * 2;
    kernel.fillBytes(buffers[0], fillBytes, 0xff);
    if (starting) kernel.fillBytes(buffers[1], fillBytes, 0);
    if (starting) {
      pool = await starting;
      signal?.addEventListener('abort', onAbort);
    }
    if (signal?.aborted) throw abortError();
    // Iteration 0 starts now (the set-up before it is not an iteration's time).
    report(0);
    const count = plan.blocks.length;
    // Each call returns after the shared counter passes its limit. The first iteration is cut into calls of
    // growing length: the engine starts the kernel in its baseline compiler and swaps in optimised code only
    // between calls, so one long call would run the whole first iteration at the baseline's speed. The
    // single-threaded path returns to the event loop after every part (abort, progress).
    const limits = (k: number): number[] =>
      pool
        ? k === 0
          ? [64, 32, 16, 8, 4, 2, 1].map((d) => Math.ceil(count / d))
          : [count]
        : Array.from({ length: 16 }, (_, i) => Math.ceil((count * (i + 1)) / 16));
    // The largest sum of an iteration is at most 7 * top; `ratio` predicts how close it comes (from the previous
    // iteration, with a margin) so the factor maps it to just under 65535. Should a sum still pass 65535 after
    // scaling, the iteration is run again with the exact factor (prev is untouched, so a rerun is the same work).
    let ratio = 1;
    const runIteration = async (prev: number, next: number, factor: number, k: number): Promise<number> => {
      new Int32Array(memory.buffer, control, 1 + threads).fill(0);
      const call = (limit: number, t: number): KernelCall => ({
        fn: 'rankBlocksU16',
        args: [planPtr, prev, next, control, CLAIM_BLOCKS, limit, scratch[t], factor, control + 4 * (1 + t)],
      });
      const parts = limits(k);
      if (pool) {
        if (signal?.aborted) throw abortError();
        const calls = Array.from({ length: threads }, (_, t) => parts.map((limit) => call(limit, t)));
        return Math.max(...(await pool.runEach(calls).catch(rethrow)));
      }
      let best = 0;
      for (let c = 0; c < parts.length; c++) {
        if (signal?.aborted) throw abortError();
        const { args } = call(parts[c], 0);
        best = kernel.rankBlocksU16(...(args as Parameters<RankKernel['rankBlocksU16']>));
        // The iteration's end is reported once, by the caller.
        if (c + 1 < parts.length) report(k + (c + 1) / parts.length);
        await new Promise<void>((r) => setTimeout(r, 0));
      }
      return best;
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
    if (signal?.aborted) throw abortError();
    const result = buffers[iterations % 2];
    const out = buffers[(iterations + 1) % 2];
    // Fold into the other buffer (free now), tiles of (middle step, inner right half) split evenly across threads.
    const tiles = plan.order.middle * plan.order.innerHalf;
    const foldArgs = [
      plan.lo,
      plan.order.middle,
      plan.order.innerHalf,
      plan.order.base ** plan.order.edgePairs,
    ] as const;
    if (pool) {
      const per = Math.ceil(tiles / threads);
      const calls = Array.from({ length: threads }, (_, t): KernelCall[] => [
        { fn: 'foldU16', args: [result, out, ...foldArgs, Math.min(tiles, t * per), Math.min(tiles, (t + 1) * per)] },
      ]);
      await pool.runEach(calls).catch(rethrow);
    } else {
      kernel.foldU16(result, out, ...foldArgs, 0, tiles);
    }
    const folded = new Uint16Array(memory.buffer, out, foldedSize).slice();
    return { folded, scale };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    pool?.terminate();
    // Left before the pool was ready (abort, a failure): stop it when it is.
    if (starting && !pool)
      starting.then(
        (p) => p.terminate(),
        () => {},
      );
  }
}
