/**
 * TypeScript side of the full-board kernel (assembly/fullboard.ts): the context layout, the piece tables written
 * into kernel memory from src/pieces.ts (the kernel knows no shapes), and a small context pool over one
 * single-threaded instance. Keep the offsets below in step with the kernel's.
 */
import { ORIENTATIONS } from '../pieces.js';
import { instantiateKernel, pickVariant, type KernelInstance } from '../wasm.js';
import { FullBoard, orientationRowMasks, pieceHeight } from './board.js';
import { FEATURE_COUNT } from './features.js';

export const O_RNG = 16;
export const O_LINES = 64;
export const O_PIECES = 72;
export const O_BEST_SCORE = 80;
export const O_BOARD_A = 88;
export const O_NORIENT = 128;
export const O_ORIENT = 160;
export const O_WEIGHTS = 1984;
export const O_FEAT = 2112;
export const B_ROWS = 0;
export const B_TOP = 192;

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
  runGame(ctx: number, wptr: number, s0: number, s1: number, s2: number, s3: number, maxPieces: number, lineCap: number, out: number): void;
}

/** Writes the orientation records (width, height, bot[4], row masks[4], top[4]) of every piece at ctx. */
export function writePieceTables(memory: WebAssembly.Memory, ctx: number): void {
  const i32 = new Int32Array(memory.buffer);
  for (let p = 0; p < 7; p++) {
    i32[(ctx + O_NORIENT) / 4 + p] = ORIENTATIONS[p].length;
    ORIENTATIONS[p].forEach((o, oi) => {
      const base = (ctx + O_ORIENT + (p * 4 + oi) * 64) / 4;
      i32.fill(0, base, base + 16);
      i32[base] = o.width;
      i32[base + 1] = pieceHeight(o);
      const masks = orientationRowMasks(o);
      for (let j = 0; j < 4; j++) {
        i32[base + 4 + j] = j < o.width ? o.bot[j] : 0;
        i32[base + 8 + j] = masks[j] ?? 0;
        i32[base + 12 + j] = j < o.width ? o.top[j] : 0;
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

export function writeWeights(memory: WebAssembly.Memory, ptr: number, slots: Float64Array): void {
  new Float64Array(memory.buffer, ptr, 16).set(slots);
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
export async function acquireContext(width: number, height: number): Promise<{ kernel: KernelInstance<FullKernelExports>; ctx: number }> {
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
  const a = i32[(ctx + O_BOARD_A) / 4];
  i32.fill(0, a / 4, a / 4 + 32);
  for (let r = 0; r < board.height; r++) i32[a / 4 + r] = board.rows[r];
  kernel.exports.syncBoard(ctx);
}

/** Reads the context's current board back. */
export function readBoard(kernel: KernelInstance<FullKernelExports>, ctx: number, width: number, height: number): FullBoard {
  const i32 = new Int32Array(kernel.memory.buffer);
  const a = i32[(ctx + O_BOARD_A) / 4];
  return new FullBoard({ width, height }, Array.from(i32.subarray(a / 4, a / 4 + height)));
}

export function readFeatures(kernel: KernelInstance<FullKernelExports>, ctx: number): number[] {
  return Array.from(new Float64Array(kernel.memory.buffer, ctx + O_FEAT, FEATURE_COUNT));
}
