/**
 * The rank kernel (assembly/rank.ts): the rank iteration over every surface (docs/rules.md, "The rank iteration"),
 * in f32 or in the mirror-folded u16 fixed point, the preview iteration, and the best rank per piece. On this thread
 * or on worker threads that share one memory; both paths compute every surface with the same instructions, so they
 * are bit-identical. src/rank/ checks the options and makes the moves; this module writes the plan (./rank-plan.ts,
 * ./rank-mirror-plan.ts) into kernel memory, runs the iterations and reads the values out.
 */
import { StackRankError, sliceClock, yieldToEventLoop } from '../errors.js';
import { SLICE_MS } from '../slices.js';
import { PIECE_COUNT } from '../pieces.js';
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
} from '../../assembly/rank/layout.js';
import { KernelPool, type KernelCall } from './pool.js';
import type { MirrorPlan } from './rank-mirror-plan.js';
import type { RankPlanArrays } from './rank-plan.js';
import { LEAF_ROW_SLOTS as SLOTS, LEAF_SLOT_AFTER_TETRIS } from './search-format.js';
import { loadKernel, pickVariant } from './wasm.js';

/** Values set per call when the first buffer is filled (between two looks at the event loop). */
const FILL_SLICE = 1 << 21;

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

/** Writes the plan into kernel memory; returns the plan pointer (its header: PLAN_* of assembly/rank/layout.ts). */
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

/** What a run of the rank kernel is given: how many iterations, on how many threads, and whom to tell. */
export interface RankRun {
  iterations: number;
  threads: number;
  /** Force the scalar (false) or SIMD (true) kernel; default: SIMD where the engine runs it. */
  simd?: boolean;
  signal?: AbortSignal;
  /** Called with the iterations done (fractions allowed inside an iteration on one thread). */
  report(done: number): void;
}

/**
 * r_k for every surface of `plan` (`size` surfaces) after `run.iterations` iterations from r_0 = 1, as f32 values
 * indexed by surface (a copy). With `weights` (7 values, equal within the mirror pairs S/Z and L/J) the weighted
 * variant: r_{k+1}(s) = sum_p weights[p] max over p's placements of r_k (src/rank/weighted.ts).
 */
export async function rankValuesF32(
  plan: RankPlanArrays,
  size: number,
  run: RankRun,
  weights?: ArrayLike<number>,
): Promise<Float32Array> {
  const { iterations, threads, signal, report } = run;
  const variant = pickVariant(threads > 1, run.simd);
  const { exports: kernel, memory, module } = await loadKernel<RankKernel>('rank', variant);
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

/** u16 ranks and their scale (value = stored * scale). */
export interface U16Ranks {
  /** The values: in the table file's folded layout (src/rank/fold.ts) for a mirrored plan, else in index order. */
  values: Uint16Array;
  scale: number;
}

/**
 * The article's iteration (and its collapsing variant) in u16 fixed point over the plan `makePlan` makes (awaited
 * once the workers are starting: the two overlap); each iteration rescales so that its largest value is stored as
 * 65535. `mirrored` (a mirror-folded plan, src/kernels/rank-mirror-plan.ts): only the canonical half of the `size`
 * surfaces is computed and the values come back in the folded layout of the table file (`foldedSize` of them);
 * else (a plain plan: the 20G variant) every surface is computed and the values come back in index order.
 */
export async function ranksU16(
  makePlan: () => Promise<MirrorPlan>,
  mirrored: boolean,
  size: number,
  foldedSize: number,
  run: RankRun,
): Promise<U16Ranks> {
  const { iterations, threads, signal, report } = run;
  const variant = pickVariant(threads > 1, run.simd);
  const { exports: kernel, memory, module } = await loadKernel<RankKernel>('rank', variant);
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
    const plan = await makePlan();
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
    // Blocks per call of this thread (nextCallSize: from the rate the threads took blocks at in the last call).
    let step = CLAIM_BLOCKS;
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
        step = nextCallSize(step, done - from, performance.now() - started, CLAIM_BLOCKS, count);
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
    // Fold into the other buffer (free now).
    const out = buffers[(iterations + 1) % 2];
    await foldTiles(kernel, plan, pool as KernelPool | null, threads, result, out, check, rethrow);
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

/**
 * The work units of this thread's next kernel call, after a call of `size` units that did `did` in `ms`: doubled (up
 * to `most`) while a call takes under a millisecond, too short to time, then as many as that rate does in about
 * SLICE_MS (at least `least`), so the thread returns to the event loop every few milliseconds.
 */
function nextCallSize(size: number, did: number, ms: number, least: number, most: number): number {
  return ms >= 1 ? Math.max(least, Math.round((did / ms) * SLICE_MS)) : Math.min(2 * size, most);
}

/**
 * ranksU16's last step for a mirrored plan: folds the values at `result` into `out` (the table file's layout), in
 * tiles of (middle step, inner right half). The workers of `pool` take the first tiles in calls of growing length
 * (the engine's baseline compiler again), this thread the rest in calls of about SLICE_MS each (at the rate of its
 * last call), returning to the event loop between them; `check` throws on an abort, `rethrow` maps a worker's failure.
 */
async function foldTiles(
  kernel: RankKernel,
  plan: MirrorPlan,
  pool: KernelPool | null,
  threads: number,
  result: number,
  out: number,
  check: () => void,
  rethrow: (e: unknown) => never,
): Promise<void> {
  const workers = threads - 1;
  const tiles = plan.order.middle * plan.order.innerHalf;
  const foldArgs = [plan.lo, plan.order.middle, plan.order.innerHalf, plan.order.base ** plan.order.edgePairs] as const;
  const foldCalls = (first: number, end: number): [number, number][] => {
    const cuts = [first, ...[8, 4, 2, 1].map((d) => first + Math.ceil((end - first) / d))];
    return cuts
      .slice(1)
      .map((to, i) => [cuts[i], to] as [number, number])
      .filter(([a, b]) => b > a);
  };
  const mine = pool ? Math.floor(tiles / threads) : tiles;
  const folding = pool
    ? pool.runEach(
        Array.from({ length: workers }, (_, w): KernelCall[] => {
          const per = Math.ceil((tiles - mine) / workers);
          const [a, b] = [Math.min(tiles - mine, w * per), Math.min(tiles - mine, (w + 1) * per)];
          return foldCalls(a, b).map(([x, y]) => ({ fn: 'foldU16', args: [result, out, ...foldArgs, x, y] }));
        }),
      )
    : null;
  folding?.catch(() => {}); // awaited below
  // Tiles per call (nextCallSize).
  let tileStep = 1;
  for (let a = tiles - mine; a < tiles; ) {
    check();
    const b = Math.min(tiles, a + tileStep);
    const started = performance.now();
    kernel.foldU16(result, out, ...foldArgs, a, b);
    tileStep = nextCallSize(tileStep, b - a, performance.now() - started, 1, Number.POSITIVE_INFINITY);
    a = b;
    await yieldToEventLoop();
  }
  if (folding) await folding.catch(rethrow);
}

/** Values per surface of the preview rows: seven pieces plus the after-Tetris value. */
const PREVIEW_SLOTS = 8;
/** The piece whose last mixture becomes slot 7 (a Tetris is made with an I); phase B handles it last. */
const AFTER_PIECE = 0;
/** Order of the pieces in phase B: the I last, so its mixed plane u_{K-1}(., I) survives as the spare plane. */
const PHASE_B_ORDER = [1, 2, 3, 4, 5, 6, AFTER_PIECE];
/** Surfaces per chunk of the rows output (16 bytes each: 64 MiB). */
const ROWS_CHUNK = 1 << 22;
const U16_MAX = 65535;

interface PreviewKernel {
  alloc(bytes: number): number;
  previewMix(planes: number, matrix: number, start: number, end: number): void;
  previewBlocks(plan: number, src: number, dst: number, piece: number, hiStart: number, hiEnd: number): void;
  previewMax(planes: number, start: number, end: number): number;
  previewRows(planes: number, out: number, start: number, end: number, scale: number): void;
  fillF32(ptr: number, n: number, v: number): void;
}

/** Estimated work per block for one piece's moves (for splitting blocks across threads). */
function pieceBlockCost(plan: RankPlanArrays, piece: number): Float64Array {
  const cost = new Float64Array(plan.hi).fill(plan.lo);
  const first = piece === 0 ? 0 : plan.pieceEnd[piece - 1];
  for (let m = first; m < plan.pieceEnd[piece]; m++) {
    let len = 0;
    for (let r = plan.runFirst[m]; r < plan.runFirst[m] + plan.runCount[m]; r++) len += plan.runs[2 * r + 1] + 4;
    for (let h = 0; h < plan.hi; h++) if (plan.hiOk[m * plan.hi + h]) cost[h] += len;
  }
  return cost;
}

/** Splits [0, n) into `parts` contiguous ranges (multiples of 4 but the last, so SIMD lanes never straddle two). */
function splitRange(n: number, parts: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < parts; i++) {
    const a = i === 0 ? 0 : Math.min(n, Math.floor((n * i) / parts / 4) * 4);
    const b = i === parts - 1 ? n : Math.min(n, Math.floor((n * (i + 1)) / parts / 4) * 4);
    if (b > a) out.push([a, b]);
  }
  return out;
}

/** The preview iteration's output: 8 u16 per surface with their scale, and with `raw` the final f32 planes. */
export interface PreviewRows {
  rows: Uint16Array;
  scale: number;
  values?: Float32Array;
}

/**
 * The preview iteration (src/rank/preview.ts) over `plan` (`size` surfaces) with the piece model `model` (P(p | n)
 * at [7 n + p]): every surface is computed by the same instructions whatever the thread count. `raw`: the final f32
 * values too, plane-major, 8 x surfaces.
 */
export async function previewRows(
  plan: RankPlanArrays,
  size: number,
  model: ArrayLike<number>,
  run: RankRun,
  raw = false,
): Promise<PreviewRows> {
  const { iterations, threads, signal, report } = run;
  const {
    exports: kernel,
    memory,
    module,
  } = await loadKernel<PreviewKernel>('rank', pickVariant(threads > 1, run.simd));
  let pool: KernelPool | null = null;
  const onAbort = () => pool?.terminate();
  try {
    const planPtr = writePlan(kernel, memory, plan);
    const matrixPtr = kernel.alloc(4 * 49);
    new Float32Array(memory.buffer, matrixPtr, 49).set(model);
    const planesPtr = kernel.alloc(4 * 8);
    // Eight planes (one allocation each: the stub runtime caps a block at 1 GiB): slot[n] = the plane holding
    // piece n, spare = the free one.
    const planeBytes = Math.ceil((size * 4) / 16) * 16;
    const slot = [0, 1, 2, 3, 4, 5, 6].map(() => kernel.alloc(planeBytes));
    let spare = kernel.alloc(planeBytes);
    const perChunk = Math.min(size, ROWS_CHUNK);
    const chunk = kernel.alloc(perChunk * 16);
    const writeSlots = () => new Int32Array(memory.buffer, planesPtr, 8).set([...slot, spare]);
    // Each plane takes tens of ms at 9x4: the event loop gets a turn between them (a page's thread, an abort).
    for (let n = 0; n < PIECE_COUNT; n++) {
      kernel.fillF32(slot[n], size, 1);
      await yieldToEventLoop();
      if (signal?.aborted) throw abortError();
    }
    writeSlots();

    report(0);

    const parts = Math.max(1, threads);
    // On this thread a phase runs as many short calls with a turn of the event loop between them (about 20-40 ms
    // each at 9x4), so an abort or a page's frame waits that long at most; the results do not depend on the split.
    const mixRanges = splitRange(size, threads > 1 ? parts : 32);
    const blockRanges = Array.from({ length: PIECE_COUNT }, (_, n) =>
      splitBlocks(pieceBlockCost(plan, n), threads > 1 ? parts : 16),
    );
    if (threads > 1) {
      pool = await KernelPool.create(module, memory, threads);
      signal?.addEventListener('abort', onAbort);
    }
    // Runs one phase: a list of calls split across the pool (or chunk by chunk on this thread, yielding between).
    const phase = async (calls: KernelCall[]): Promise<number[]> => {
      if (signal?.aborted) throw abortError();
      if (pool) {
        try {
          return await pool.runEach(calls.map((c) => [c]));
        } catch (e) {
          if (signal?.aborted) throw abortError();
          throw e;
        }
      }
      const results: number[] = [];
      for (const c of calls) {
        if (signal?.aborted) throw abortError();
        results.push((kernel as unknown as Record<string, (...a: number[]) => number>)[c.fn](...c.args));
        await yieldToEventLoop();
      }
      return results;
    };

    for (let k = 0; k < iterations; k++) {
      await phase(mixRanges.map(([a, b]) => ({ fn: 'previewMix', args: [planesPtr, matrixPtr, a, b] })));
      report(k + 1 / 8);
      for (const [i, n] of PHASE_B_ORDER.entries()) {
        const src = slot[n];
        await phase(blockRanges[n].map(([a, b]) => ({ fn: 'previewBlocks', args: [planPtr, src, spare, n, a, b] })));
        slot[n] = spare;
        spare = src;
        writeSlots();
        report(k + (i + 2) / 8);
      }
    }
    // Now slot[n] holds v_K(., n), and the spare plane (entry 7 of the plane table) u_{K-1}(., I) =
    // sum_p P(p | I) v_{K-1}(., p): slot 7, the value of spending the I in hand on a Tetris, on the same horizon
    // as slot 0 (the I placed instead).

    const maxima = await phase(mixRanges.map(([a, b]) => ({ fn: 'previewMax', args: [planesPtr, a, b] })));
    const max = Math.max(0, ...maxima);
    const scale = max > 0 ? max / U16_MAX : 1;

    // The rows go out through a chunk buffer, ROWS_CHUNK surfaces at a time (16 bytes per surface).
    const rows = new Uint16Array(size * PREVIEW_SLOTS);
    for (let c = 0; c < size; c += perChunk) {
      const end = Math.min(size, c + perChunk);
      const ranges = splitRange(end - c, threads > 1 ? parts : 1).map(([a, b]) => [a + c, b + c]);
      await phase(
        ranges.map(([a, b]) => ({ fn: 'previewRows', args: [planesPtr, chunk + (a - c) * 16, a, b, scale] })),
      );
      rows.set(new Uint16Array(memory.buffer, chunk, (end - c) * PREVIEW_SLOTS), c * PREVIEW_SLOTS);
    }
    let values: Float32Array | undefined;
    if (raw) {
      values = new Float32Array(size * PREVIEW_SLOTS);
      for (let n = 0; n < PIECE_COUNT; n++) values.set(new Float32Array(memory.buffer, slot[n], size), n * size);
      values.set(new Float32Array(memory.buffer, spare, size), PIECE_COUNT * size);
    }
    return { rows, scale, values };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    pool?.terminate();
  }
}

/** What pieceMaxRowChunks reads of a rank table: its size, and its values as the search reads them. */
export interface SearchValuesSource {
  readonly size: number;
  writeSearchValues(target: Uint16Array, signal?: AbortSignal): Promise<number>;
}

/**
 * Computes the rows chunk by chunk with the rank kernel and hands each chunk (its first surface, its rows: a view
 * of kernel memory, valid during the call) to `take`, so the kernel's memory holds only a slice of the
 * 16-byte-per-surface result. Stops with ABORTED at the next chunk once `signal` aborts; `onFraction` hears the
 * share of surfaces done whenever the event loop gets a turn.
 */
export async function pieceMaxRowChunks(
  table: SearchValuesSource,
  plan: RankPlanArrays,
  take: (first: number, rows: Uint16Array) => void,
  signal: AbortSignal | undefined,
  onFraction?: (done: number) => void,
): Promise<void> {
  const size = table.size;
  const { exports: kernel, memory } = await loadKernel<RankKernel>('rank', pickVariant(false));
  const planPtr = writePlan(kernel, memory, plan);
  // The table's values straight into kernel memory (16 bytes of slack: the kernel's last 8-lane step may pass the end).
  const prev = kernel.alloc(size * 2 + 16);
  await table.writeSearchValues(new Uint16Array(memory.buffer, prev, size), signal);
  const scratch = kernel.alloc(plan.lo * 2 + 16);
  // 2 MB of rows (131,072 surfaces) per chunk: kernel, slot 7 and `take` together take a few milliseconds, so a
  // chunk fits in a slice (16 MB chunks kept the event loop 110-140 ms under load: bench/notes/setup-lag.md).
  const blocksPerChunk = Math.max(1, Math.floor((2 << 20) / (plan.lo * SLOTS * 2)));
  const chunk = kernel.alloc(blocksPerChunk * plan.lo * SLOTS * 2);
  const values = new Uint16Array(memory.buffer, prev, size);
  // About a second of work in all (an AI's first engine): the event loop gets a turn between chunks, so a caller's
  // abort (TetrisAI.create's signal) or timer is not held up by it.
  const due = sliceClock();
  for (let hi = 0; hi < plan.hi; hi += blocksPerChunk) {
    if (due()) {
      onFraction?.(hi / plan.hi);
      await yieldToEventLoop();
    }
    if (signal?.aborted) throw new StackRankError('ABORTED', "the search's setup was aborted");
    const end = Math.min(plan.hi, hi + blocksPerChunk);
    // The kernel writes surface s at out + s * 16; shift the base so block `hi` lands at the chunk's start.
    const shifted = (chunk - hi * plan.lo * SLOTS * 2) >>> 0;
    kernel.pieceMaxBlocksU16(planPtr, prev, shifted, hi, end, scratch);
    const first = hi * plan.lo;
    const rows = new Uint16Array(memory.buffer, chunk, (end - hi) * plan.lo * SLOTS);
    for (let s = 0; s < rows.length / SLOTS; s++) rows[s * SLOTS + LEAF_SLOT_AFTER_TETRIS] = values[first + s];
    take(first, rows);
  }
}
