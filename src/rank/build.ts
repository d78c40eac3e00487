/**
 * Builds rank values with the WebAssembly kernel (assembly/rank.ts), on this thread or on worker threads that
 * share one memory. Both paths compute every surface with the same instructions, so they are bit-identical.
 */
import { StackRankError, describe, requireInt } from '../errors.js';
import { checkGeometry, surfaceCount } from '../surface.js';
import { MAX_THREADS, defaultThreadCount } from '../threads.js';
import { instantiateKernel, pickVariant } from '../wasm.js';
import { KernelPool, type KernelCall } from '../workers.js';
import { TABLE_STEEP, rankMoves, type TableSteep } from './moves.js';
import { rankMoves20G } from './moves-20g.js';
import { PLAN_WORDS, makeRankPlan, type RankPlanArrays } from './plan.js';

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
  pieceMaxBlocks(plan: number, prev: number, out: number, hiStart: number, hiEnd: number, scratch: number): void;
  rankBlocksWeighted(
    plan: number,
    prev: number,
    next: number,
    hiStart: number,
    hiEnd: number,
    scratch: number,
    weights: number,
  ): void;
}

export function checkBuildOptions(opts: BuildOptions) {
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
  if (gravity === '20G' && steep !== 'forbid') {
    throw new StackRankError('BAD_ARGUMENT', 'a 20G table is built with steep "forbid" only');
  }
  if (opts.onProgress !== undefined && typeof opts.onProgress !== 'function') {
    throw new StackRankError('BAD_ARGUMENT', 'onProgress must be a function');
  }
  return { width, maxStep, iterations, steep, gravity };
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

/** Writes the plan into kernel memory; returns the plan pointer. */
export function writePlan(kernel: Pick<RankKernel, 'alloc'>, memory: WebAssembly.Memory, plan: RankPlanArrays): number {
  const put = (arr: Int32Array | Uint8Array): number => {
    const ptr = kernel.alloc(Math.max(4, arr.byteLength));
    new Uint8Array(memory.buffer, ptr, arr.byteLength).set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
    return ptr;
  };
  const words: Record<(typeof PLAN_WORDS)[number], number> = {
    lo: plan.lo,
    hi: plan.hi,
    pieceEnd: put(plan.pieceEnd),
    delta: put(plan.delta),
    runFirst: put(plan.runFirst),
    runCount: put(plan.runCount),
    hiOk: put(plan.hiOk),
    runs: put(plan.runs),
    role: put(plan.role),
  };
  return put(Int32Array.from(PLAN_WORDS, (w) => words[w]));
}

function abortError(): StackRankError {
  return new StackRankError('ABORTED', 'the rank-table build was cancelled');
}

/**
 * Computes r_k for every surface (docs/rules.md, "The rank iteration") and returns a copy of the final f32 values, indexed by surface.
 * With `weights` (7 values, equal within the mirror pairs S/Z and L/J) it runs the weighted variant instead:
 * r_{k+1}(s) = sum_p weights[p] max over p's placements of r_k (src/rank/weighted.ts).
 */
export async function buildRankValues(opts: BuildOptions = {}, weights?: ArrayLike<number>): Promise<Float32Array> {
  const { width, maxStep, iterations, steep, gravity } = checkBuildOptions(opts);
  const threads = opts.threads ?? (await defaultThreadCount());
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw abortError();

  const size = surfaceCount(width, maxStep);
  const plan = makeRankPlan(buildMoves(width, maxStep, steep, gravity), width, maxStep);
  const variant = pickVariant(threads > 1, opts.simd);
  const { exports: kernel, memory, module } = await instantiateKernel<RankKernel>('rank', variant);
  let pool: KernelPool | null = null;
  const onAbort = () => pool?.terminate();
  try {
    const planPtr = writePlan(kernel, memory, plan);
    const buffers = [kernel.alloc(size * 4), kernel.alloc(size * 4)];
    const scratch = Array.from({ length: threads }, () => kernel.alloc(plan.lo * 12));
    kernel.fillF32(buffers[0], size, 1);
    let weightsPtr = 0;
    if (weights) {
      weightsPtr = kernel.alloc(4 * 7);
      new Float32Array(memory.buffer, weightsPtr, 7).set(Array.from(weights));
    }
    const blocksCall = (prev: number, next: number, a: number, b: number, scratchPtr: number): KernelCall =>
      weights
        ? { fn: 'rankBlocksWeighted', args: [planPtr, prev, next, a, b, scratchPtr, weightsPtr] }
        : { fn: 'rankBlocks', args: [planPtr, prev, next, a, b, scratchPtr] };

    const started = performance.now();
    const report = (done: number) => {
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
          await new Promise<void>((r) => setTimeout(r, 0));
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
