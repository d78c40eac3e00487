/**
 * The full-board kernel (assembly/fullboard.ts): the full-board player's move choice, features and whole games in
 * WebAssembly. This module writes the piece tables the kernel reads from src/pieces.ts (the kernel knows no
 * shapes), moves boards and weights in and out, and keeps a pool of contexts over one single-threaded instance
 * (loaded asynchronously on first use); the GA trainer's games run on worker threads over one shared memory.
 */
import { StackRankError, yieldToEventLoop } from '../errors.js';
import { ORIENTATIONS } from '../pieces.js';
import { Rng, type RngState } from '../random.js';
import { orientationRowMasks, pieceHeight } from '../pieces.js';
import {
  BOARD_ROWS,
  B_ROWS,
  CHUNK_LINE_CAP,
  CHUNK_LOST,
  CHUNK_NEEDS_PIECES,
  FEATURE_COUNT,
  FEATURE_SLOTS,
  MOVE_LOSES,
  MOVE_ORIENT_SHIFT,
  NO_PIECE,
  OE_BOT,
  OE_BYTES,
  OE_HEIGHT,
  OE_MASK,
  OE_TOP,
  OE_WIDTH,
  ORIENT_SLOTS,
  O_BEST_SCORE,
  O_BOARD_A,
  O_FEAT,
  O_LINES,
  O_NORIENT,
  O_ORIENT,
  O_PIECES,
  PIECE_COUNT,
  RESULT_BYTES,
  RESULT_LINES,
} from '../../assembly/fullboard/layout.js';
import { KernelPool, type KernelCall } from './pool.js';
import { compileKernel, createMemory, instantiateOver, loadKernel, pickVariant, type KernelInstance } from './wasm.js';

// The feature ids (weights and feature vectors are indexed by them: src/fullboard/features.ts) and the room a
// weight vector has (FEATURE_SLOTS f64: src/fullboard/presets.ts weightSlots).
export {
  FEATURE_COUNT,
  FEATURE_SLOTS,
  F_COLUMN_TRANSITIONS,
  F_COLUMN_TRANSITIONS_BELOW_TOP,
  F_CUMULATIVE_WELLS,
  F_ERODED_PIECE_CELLS,
  F_HOLES,
  F_HOLES_TIMES_TEN,
  F_HOLE_DEPTH,
  F_LANDING_HEIGHT,
  F_MAX_HEIGHT,
  F_ROWS_CLEARED,
  F_ROWS_WITH_HOLES,
  F_ROW_TRANSITIONS,
  F_ROW_TRANSITIONS_CONTINUOUS,
  F_WELLS_TRIANGLE,
} from '../../assembly/fullboard/layout.js';

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

/** Writes a weight vector (FEATURE_SLOTS f64, weightSlots in src/fullboard/presets.ts) at `ptr`. */
function writeWeights(memory: WebAssembly.Memory, ptr: number, slots: Float64Array): void {
  new Float64Array(memory.buffer, ptr, FEATURE_SLOTS).set(slots);
}

let local: Promise<KernelInstance<FullKernelExports>> | undefined;
const freeContexts = new Map<string, number[]>();

/** The single-threaded instance, created once. */
function localKernel(): Promise<KernelInstance<FullKernelExports>> {
  if (!local) {
    local = loadKernel<FullKernelExports>('fullboard', pickVariant(false)).catch((e) => {
      local = undefined;
      throw e;
    });
  }
  return local;
}

/** A move the kernel chose: the orientation index, the left column, and its value. */
export interface KernelChoice {
  orientation: number;
  x: number;
  value: number;
}

/**
 * How a chunk of a game ended (FullBoardContext.playChunk): its budget used, the game lost, the line cap reached,
 * or the dealt pieces used up (dealt again: the game goes on with the next chunk).
 */
export type ChunkEnd = 'budget' | 'lost' | 'lineCap' | 'dealt';

/** What deals a game's pieces in buffers (a Randomizer). */
export interface PieceSource {
  fillIds(out: Uint8Array, count?: number): void;
}

/** One piece buffer per context, reused (the kernel's allocator never frees). */
const pieceBuffers = new Map<number, number>();
/** Pieces a game's buffer holds when a randomizer deals them from TypeScript. */
const PIECE_BUFFER = 65536;

/**
 * A context of the single-threaded instance for one board size (acquire, then release: contexts are reused, the
 * stub allocator never frees): a board, weights, and a game played in it.
 */
export class FullBoardContext {
  private pieces: PieceSource | null = null;
  private pieceBuf = 0;

  private constructor(
    private readonly kernel: KernelInstance<FullKernelExports>,
    private readonly ctx: number,
    readonly width: number,
    readonly height: number,
  ) {}

  static async acquire(width: number, height: number): Promise<FullBoardContext> {
    const kernel = await localKernel();
    const key = `${width}x${height}`;
    const free = freeContexts.get(key);
    const ctx = free && free.length > 0 ? free.pop()! : createContext(kernel.exports, kernel.memory, width, height);
    kernel.exports.init(ctx, width, height);
    return new FullBoardContext(kernel, ctx, width, height);
  }

  release(): void {
    const key = `${this.width}x${this.height}`;
    let free = freeContexts.get(key);
    if (!free) freeContexts.set(key, (free = []));
    free.push(this.ctx);
  }

  /** The weights the context values moves with (FEATURE_SLOTS by feature id). */
  setWeights(slots: Float64Array): void {
    const { kernel, ctx } = this;
    const wptr = ctx + O_FEAT; // stage weights in the feature scratch, then copy into place
    writeWeights(kernel.memory, wptr, slots);
    kernel.exports.setWeights(ctx, wptr);
  }

  /** Copies a board (its row masks, bottom first: a Board the full-board player takes) into the context and lets the kernel derive heights. */
  setBoard(board: { readonly height: number; readonly rows: ArrayLike<number> }): void {
    const { kernel, ctx } = this;
    const i32 = new Int32Array(kernel.memory.buffer);
    const rows = (i32[(ctx + O_BOARD_A) >> 2] + B_ROWS) >> 2;
    i32.fill(0, rows, rows + BOARD_ROWS);
    for (let r = 0; r < board.height; r++) i32[rows + r] = board.rows[r];
    kernel.exports.syncBoard(ctx);
  }

  /** The best placement of piece `p` on the board (2-ply over piece `next` when it is known), or null when every one loses. */
  bestMove(p: number, next: number | null): KernelChoice | null {
    const { kernel, ctx } = this;
    const mv = kernel.exports.bestMove(ctx, p, next ?? NO_PIECE);
    if (mv === MOVE_LOSES) return null;
    const value = new Float64Array(kernel.memory.buffer, ctx + O_BEST_SCORE, 1)[0];
    return { orientation: mv >> MOVE_ORIENT_SHIFT, x: mv & ((1 << MOVE_ORIENT_SHIFT) - 1), value };
  }

  /** The board's features (FEATURE_COUNT, by feature id). */
  boardFeatures(): number[] {
    this.kernel.exports.boardFeatures(this.ctx, this.ctx + O_FEAT);
    return this.features();
  }

  /** The features after a move (by feature id), or null when the move loses. */
  moveFeatures(p: number, orientation: number, x: number): number[] | null {
    if (this.kernel.exports.moveFeatures(this.ctx, p, orientation, x, this.ctx + O_FEAT) < 0) return null;
    return this.features();
  }

  /**
   * The same from the evaluator of moves that clear no row (assembly/fullboard/incremental.ts), or null where it
   * does not answer (the move clears a row); for the tests that hold the two evaluators equal.
   */
  moveFeaturesIncremental(p: number, orientation: number, x: number): number[] | null {
    if (this.kernel.exports.moveFeaturesIncremental(this.ctx, p, orientation, x, this.ctx + O_FEAT) !== 0) return null;
    return this.features();
  }

  /** The trainer's games on a context of this size (localGames). */
  static async games(width: number, height: number): Promise<FullBoardGames> {
    const context = await FullBoardContext.acquire(width, height);
    const { kernel, ctx } = context;
    const k = kernel.exports;
    const area = k.alloc(FEATURE_SLOTS * 8);
    return {
      async run(games, maxPieces, signal) {
        const out: number[] = [];
        for (const game of games) {
          // The kernel's runGame in slices: the same calls (setWeights, PRNG mode, reset, seed, then playChunk until
          // the piece cap or a loss), so the same games, with the event loop run between slices.
          writeWeights(kernel.memory, area, game.slots);
          k.setWeights(ctx, area);
          k.setPieceBuffer(ctx, 0, -1);
          k.resetGame(ctx);
          k.seedRng(ctx, ...game.state);
          const pieces = () => new Float64Array(kernel.memory.buffer, ctx + O_PIECES, 1)[0];
          for (;;) {
            if (signal?.aborted) throw trainingAborted();
            const left = maxPieces - pieces();
            if (left <= 0) break;
            const status = k.playChunk(ctx, Math.min(left, LOCAL_SLICE), Infinity);
            if (status !== 0) break;
            await yieldToEventLoop();
          }
          out.push(new Float64Array(kernel.memory.buffer, ctx + O_LINES, 1)[0]);
          await yieldToEventLoop();
        }
        return out;
      },
      close() {
        context.release();
      },
    };
  }

  private features(): number[] {
    return Array.from(new Float64Array(this.kernel.memory.buffer, this.ctx + O_FEAT, FEATURE_COUNT));
  }

  /**
   * A new game on an empty board: 2-ply over a preview piece when `lookahead` is 1; pieces from the kernel's own
   * PRNG seeded with `seed` (exactly new Rng(seed).nextInt(7)), or dealt by `pieces` in buffers when given.
   */
  startGame(lookahead: 0 | 1, seed: RngState, pieces: PieceSource | null): void {
    const { kernel, ctx } = this;
    const k = kernel.exports;
    k.setLookahead(ctx, lookahead);
    k.resetGame(ctx);
    k.seedRng(ctx, ...seed);
    this.pieces = pieces;
    if (pieces) {
      this.pieceBuf = pieceBuffers.get(ctx) ?? k.alloc(PIECE_BUFFER);
      pieceBuffers.set(ctx, this.pieceBuf);
      this.dealPieces();
    } else k.setPieceBuffer(ctx, 0, -1);
  }

  private dealPieces(): void {
    const { kernel, ctx } = this;
    this.pieces!.fillIds(new Uint8Array(kernel.memory.buffer, this.pieceBuf, PIECE_BUFFER), PIECE_BUFFER);
    kernel.exports.setPieceBuffer(ctx, this.pieceBuf, PIECE_BUFFER);
  }

  /** Plays up to `budget` pieces of the game; stops early on a loss, at `lineCap` lines, or when it needs pieces. */
  playChunk(budget: number, lineCap: number): ChunkEnd {
    const status = this.kernel.exports.playChunk(this.ctx, budget, lineCap);
    if (status === CHUNK_LOST) return 'lost';
    if (status === CHUNK_LINE_CAP) return 'lineCap';
    if (status !== CHUNK_NEEDS_PIECES) return 'budget';
    // the kernel consumed the whole buffer: refill it (same pointer)
    this.dealPieces();
    return 'dealt';
  }

  /** Lines and pieces of the game so far. */
  counters(): { lines: number; pieces: number } {
    const f64 = new Float64Array(this.kernel.memory.buffer);
    return { lines: f64[(this.ctx + O_LINES) >> 3], pieces: f64[(this.ctx + O_PIECES) >> 3] };
  }
}

/** One game of the GA trainer: weights by feature id and the seed state of its kernel PRNG. */
export interface TrainerGame {
  slots: Float64Array;
  state: RngState;
}

/** Plays the trainer's games (1-ply, memoryless pieces, a piece cap): the lines each one made, in order. */
export interface FullBoardGames {
  run(games: readonly TrainerGame[], maxPieces: number, signal?: AbortSignal): Promise<number[]>;
  close(): void;
}

/** Pieces per kernel call in single-threaded training, between two looks at the event loop (abort, timers). */
const LOCAL_SLICE = 20_000;

function trainingAborted(): StackRankError {
  return new StackRankError('ABORTED', 'training was aborted');
}

/** The trainer's games on this thread, in slices with the event loop run between them. */
export function localGames(width: number, height: number): Promise<FullBoardGames> {
  return FullBoardContext.games(width, height);
}

/** The trainer's games on `threads` worker threads over one shared memory (runGame per game). */
export async function workerGames(
  width: number,
  height: number,
  threads: number,
  signal?: AbortSignal,
): Promise<FullBoardGames> {
  const variant = pickVariant(true);
  const module = await compileKernel('fullboard', variant);
  const memory = createMemory(true);
  const main = await instantiateOver<FullKernelExports>(module, memory);
  const ctxs = Array.from({ length: threads }, () => createContext(main, memory, width, height));
  const pool = await KernelPool.create(module, memory, threads);
  // Abort stops the workers mid-generation; the running games reject and run() reports ABORTED.
  const onAbort = () => pool.terminate();
  signal?.addEventListener('abort', onAbort);
  const WEIGHTS_BYTES = FEATURE_SLOTS * 8;
  let capacity = 0;
  let wArea = 0;
  let outArea = 0;
  return {
    async run(games, maxPieces) {
      if (games.length > capacity) {
        capacity = Math.max(games.length, 2 * capacity);
        wArea = main.alloc(capacity * WEIGHTS_BYTES);
        outArea = main.alloc(capacity * RESULT_BYTES);
      }
      for (const [i, game] of games.entries()) writeWeights(memory, wArea + i * WEIGHTS_BYTES, game.slots);
      const calls: KernelCall[][] = ctxs.map(() => []);
      // interleaved static split: game lengths vary a lot, interleaving keeps the threads' totals close
      games.forEach((game, i) => {
        const t = i % threads;
        calls[t].push({
          fn: 'runGame',
          args: [ctxs[t], wArea + i * WEIGHTS_BYTES, ...game.state, maxPieces, Infinity, outArea + i * RESULT_BYTES],
        });
      });
      try {
        await pool.runEach(calls);
      } catch (e) {
        if (signal?.aborted) throw trainingAborted();
        throw e;
      }
      const f64 = new Float64Array(memory.buffer);
      return games.map((_, i) => f64[(outArea + i * RESULT_BYTES + RESULT_LINES) >> 3]);
    },
    close() {
      signal?.removeEventListener('abort', onAbort);
      pool.terminate();
    },
  };
}

/**
 * 1-ply memoryless games on a 10 × 20 board in one instance of `module` (this build's kernel, or another build of
 * assembly/fullboard.ts with the same context layout): plays `pieces` pieces from seed 1 with the weights and
 * returns how many it played. For benchmarks that time two kernel builds against each other (bench/fullboard.ts).
 */
export async function gameRunner(module: WebAssembly.Module): Promise<(slots: Float64Array, pieces: number) => number> {
  const memory = createMemory(false);
  const k = await instantiateOver<FullKernelExports>(module, memory);
  const ctx = createContext(k, memory, 10, 20);
  const wptr = k.alloc(128);
  return (slots, pieces) => {
    writeWeights(memory, wptr, slots);
    k.setWeights(ctx, wptr);
    k.setLookahead(ctx, 0);
    k.resetGame(ctx);
    k.seedRng(ctx, ...new Rng(1).state());
    k.setPieceBuffer(ctx, 0, -1);
    k.playChunk(ctx, pieces, Infinity);
    return new Float64Array(memory.buffer, ctx + O_PIECES, 1)[0];
  };
}

/** This build's full-board kernel, compiled (scalar or SIMD as this engine runs it), for gameRunner. */
export function fullBoardModule(): Promise<WebAssembly.Module> {
  return compileKernel('fullboard', pickVariant(false));
}
