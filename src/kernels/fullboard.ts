/**
 * TypeScript side of the full-board kernel (assembly/fullboard.ts): the piece tables written into kernel memory
 * from src/pieces.ts (the kernel knows no shapes), boards in and out, and a small context pool over one
 * single-threaded instance. The context layout is assembly/fullboard/layout.ts (re-exported by ./layout.ts).
 */
import { ORIENTATIONS } from '../pieces.js';
import { instantiateKernel, pickVariant, type KernelInstance } from './wasm.js';
import { FullBoard, orientationRowMasks, pieceHeight } from '../fullboard/board.js';
import {
  BOARD_ROWS,
  B_ROWS,
  FEATURE_COUNT,
  FEATURE_SLOTS,
  OE_BOT,
  OE_BYTES,
  OE_HEIGHT,
  OE_MASK,
  OE_TOP,
  OE_WIDTH,
  ORIENT_SLOTS,
  O_BOARD_A,
  O_FEAT,
  O_NORIENT,
  O_ORIENT,
  PIECE_COUNT,
} from '../fullboard/layout.js';

// Offsets that callers of this module read (the rest: ./layout.ts).
export {
  B_ROWS,
  B_TOP,
  O_BEST_SCORE,
  O_BOARD_A,
  O_FEAT,
  O_LINES,
  O_NORIENT,
  O_ORIENT,
  O_PIECES,
  O_RNG,
  O_WEIGHTS,
} from '../fullboard/layout.js';

export interface FullKernelExports {
  alloc(bytes: number): number;
  ctxBytes(): number;
  init(ctx: number, width: number, height: number): void;
  resetGame(ctx: number): void;
  setWeights(ctx: number, wptr: number): void;
  seedRng(ctx: number, s0: number, s1: number, s2: number, s3: number): void;
  rngNextU32(ctx: number): number;
  rngNextInt(ctx: number, n: number): number;
  setPieceBuffer(ctx: number, ptr: number, len: number): void;
  syncBoard(ctx: number): void;
  bestMove(ctx: number, p: number, q: number): number;
  applyMove(ctx: number, p: number, o: number, x: number): number;
  boardFeatures(ctx: number, out: number): void;
  moveFeatures(ctx: number, p: number, o: number, x: number, out: number): number;
  moveFeaturesIncremental(ctx: number, p: number, o: number, x: number, out: number): number;
  setLookahead(ctx: number, look: number): void;
  playChunk(ctx: number, budget: number, lineCap: number): number;
  runGame(
    ctx: number,
    wptr: number,
    s0: number,
    s1: number,
    s2: number,
    s3: number,
    maxPieces: number,
    lineCap: number,
    out: number,
  ): void;
}

/** Writes the orientation records (OE_*: width, height, bot[4], row masks[4], top[4]) of every piece at ctx. */
export function writePieceTables(memory: WebAssembly.Memory, ctx: number): void {
  const i32 = new Int32Array(memory.buffer);
  const word = (byteOffset: number) => byteOffset >> 2;
  for (let p = 0; p < PIECE_COUNT; p++) {
    i32[word(ctx + O_NORIENT) + p] = ORIENTATIONS[p].length;
    ORIENTATIONS[p].forEach((o, oi) => {
      const record = ctx + O_ORIENT + (p * ORIENT_SLOTS + oi) * OE_BYTES;
      i32.fill(0, word(record), word(record + OE_BYTES));
      i32[word(record + OE_WIDTH)] = o.width;
      i32[word(record + OE_HEIGHT)] = pieceHeight(o);
      const masks = orientationRowMasks(o);
      for (let j = 0; j < 4; j++) {
        i32[word(record + OE_BOT) + j] = j < o.width ? o.bot[j] : 0;
        i32[word(record + OE_MASK) + j] = masks[j] ?? 0;
        i32[word(record + OE_TOP) + j] = j < o.width ? o.top[j] : 0;
      }
    });
  }
}

/** Allocates and initialises one context (piece tables, size, empty game) in kernel memory. */
export function createContext(k: FullKernelExports, memory: WebAssembly.Memory, width: number, height: number): number {
  const ctx = k.alloc(k.ctxBytes());
  writePieceTables(memory, ctx);
  k.init(ctx, width, height);
  return ctx;
}

/** Writes a weight vector (FEATURE_SLOTS f64, weightSlots in ./presets.ts) at `ptr`. */
export function writeWeights(memory: WebAssembly.Memory, ptr: number, slots: Float64Array): void {
  new Float64Array(memory.buffer, ptr, FEATURE_SLOTS).set(slots);
}

let local: Promise<KernelInstance<FullKernelExports>> | undefined;
const freeContexts = new Map<string, number[]>();

/** The single-threaded instance, created once. */
export function localKernel(): Promise<KernelInstance<FullKernelExports>> {
  if (!local) {
    local = instantiateKernel<FullKernelExports>('fullboard', pickVariant(false)).catch((e) => {
      local = undefined;
      throw e;
    });
  }
  return local;
}

/** A context of the local instance for a board size, reused after release (the stub allocator never frees). */
export async function acquireContext(
  width: number,
  height: number,
): Promise<{ kernel: KernelInstance<FullKernelExports>; ctx: number }> {
  const kernel = await localKernel();
  const key = `${width}x${height}`;
  const free = freeContexts.get(key);
  const ctx = free && free.length > 0 ? free.pop()! : createContext(kernel.exports, kernel.memory, width, height);
  kernel.exports.init(ctx, width, height);
  return { kernel, ctx };
}

export function releaseContext(width: number, height: number, ctx: number): void {
  const key = `${width}x${height}`;
  let free = freeContexts.get(key);
  if (!free) freeContexts.set(key, (free = []));
  free.push(ctx);
}

/** Copies a board into the context's current board and lets the kernel derive heights. */
export function loadBoard(kernel: KernelInstance<FullKernelExports>, ctx: number, board: FullBoard): void {
  const i32 = new Int32Array(kernel.memory.buffer);
  const rows = (i32[(ctx + O_BOARD_A) >> 2] + B_ROWS) >> 2;
  i32.fill(0, rows, rows + BOARD_ROWS);
  for (let r = 0; r < board.height; r++) i32[rows + r] = board.rows[r];
  kernel.exports.syncBoard(ctx);
}

/** Reads the context's current board back. */
export function readBoard(
  kernel: KernelInstance<FullKernelExports>,
  ctx: number,
  width: number,
  height: number,
): FullBoard {
  const i32 = new Int32Array(kernel.memory.buffer);
  const rows = (i32[(ctx + O_BOARD_A) >> 2] + B_ROWS) >> 2;
  return new FullBoard({ width, height }, Array.from(i32.subarray(rows, rows + height)));
}

export function readFeatures(kernel: KernelInstance<FullKernelExports>, ctx: number): number[] {
  return Array.from(new Float64Array(kernel.memory.buffer, ctx + O_FEAT, FEATURE_COUNT));
}
