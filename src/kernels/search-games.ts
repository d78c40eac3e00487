/**
 * Whole stacking games inside the search kernel (assembly/search/game.ts playGame): a slot per thread holds a game
 * record, its search context and a buffer of pieces (plus, for expectimax, the chances of every buffered piece), so
 * the kernel crosses into JavaScript once per buffer of pieces, not per move. simulateStacking
 * (src/stacking-ai/simulate.ts) deals the pieces and keeps the games' records; this module runs them.
 */
import { StackRankError } from '../errors.js';
import {
  CTX_WORDS,
  GAME_DEAD,
  GAME_NEEDS_PIECES,
  GAME_WORDS,
  G_AVAILABLE,
  G_CAP,
  G_CTX,
  G_DEATH_PIECE,
  G_HEIGHTS,
  G_LOOKAHEAD,
  G_PIECES,
  G_PLAYED,
  G_POSITION,
  G_STATUS,
  G_TETRISES,
  G_WEIGHTS,
  HEIGHTS_WORDS,
  WEIGHT_WORDS_EXPECT,
  WEIGHT_WORDS_EXPECT2,
} from '../../assembly/search/layout.js';
import { KernelPool } from './pool.js';
import type { StackingEngine } from './search.js';
import { fillDistributionWeights, fillPairWeights, type UnknownPieces } from './search-format.js';
import { MAX_MEMORY_PAGES, WASM_PAGE } from './wasm.js';

/** Piece buffer per slot. A game starts with a small fill that grows 8x per refill (short games stay cheap). */
const CHUNK = 1 << 16;
/** The piece buffer with two unknown pieces, whose 64 words of chances per piece would make a 16 MB slot. */
const WEIGHTED_CHUNK = 1 << 13;
const FIRST_FILL = 512;
/** Kernel memory kept free beyond the estimate (the search's own scratch, rounding of pages). */
const MEMORY_MARGIN = 16 << 20;

/** One game as the kernel ends it: its length in pieces, whether it died, the piece it died on, its Tetrises. */
export interface KernelGame {
  length: number;
  dead: boolean;
  deathPiece: number;
  tetrises: number;
}

/** What deals a game's pieces (a Randomizer): ids, and each piece's chances before it for expectimax. */
export interface PieceDealer {
  nextId(): number;
  fillIds(out: Uint8Array, count?: number): void;
  distribution(into?: Float64Array): Float64Array;
  nextPairDistribution(into?: Float64Array): Float64Array;
}

interface Slot {
  game: number;
  pieces: number;
  /** Expectimax: weightWords i32 per buffered piece, its chances (x 65536) just before it was dealt (and, for two
   * unknown pieces, the next one's given each piece: pairWeights); 0 otherwise. */
  weights: number;
  weightWords: number;
}

/** Deals `count` pieces into ids[from..]; with a weights buffer, records each piece's chances before it. */
function deal(rng: PieceDealer, memory: WebAssembly.Memory, slot: Slot, from: number, count: number): void {
  const ids = new Uint8Array(memory.buffer, slot.pieces + from, count);
  if (!slot.weights) {
    rng.fillIds(ids, count);
    return;
  }
  const stride = slot.weightWords;
  const weights = new Int32Array(memory.buffer, slot.weights + from * stride * 4, count * stride);
  const one = stride === WEIGHT_WORDS_EXPECT;
  const chances = new Float64Array(one ? 7 : 49);
  for (let i = 0; i < count; i++) {
    if (one) fillDistributionWeights(rng.distribution(chances), weights, i * stride);
    else fillPairWeights(rng.nextPairDistribution(chances), weights, i * stride);
    ids[i] = rng.nextId();
  }
}

/** Game slots over one engine, one per thread; with more than one, a worker pool plays them. */
export class KernelGames {
  private constructor(
    private readonly engine: StackingEngine,
    private readonly slots: Slot[],
    private readonly pool: KernelPool | null,
    private readonly chunk: number,
    private readonly lookahead: number,
  ) {}

  /** Games played at once (the thread count, perhaps lowered to what fits in memory). */
  get threads(): number {
    return this.slots.length;
  }

  /**
   * Slots for `threads` games at once over `engine` (made for shared memory when threads > 1). The kernel memory is
   * capped (MAX_MEMORY_PAGES): a default thread count (`threadsGiven` false) is lowered to what fits, an explicit
   * one that does not fit is refused before anything is allocated.
   */
  static async open(
    engine: StackingEngine,
    options: { threads: number; threadsGiven: boolean; unknownPieces: UnknownPieces; lookahead: number },
  ): Promise<KernelGames> {
    const { memory } = engine;
    let threads = options.threads;
    const weightWords = [0, WEIGHT_WORDS_EXPECT, WEIGHT_WORDS_EXPECT2][options.unknownPieces];
    const chunk = weightWords > WEIGHT_WORDS_EXPECT ? WEIGHTED_CHUNK : CHUNK;
    const slotBytes = GAME_WORDS * 4 + (chunk + 16) * (1 + 4 * weightWords) + CTX_WORDS * 4 + 64;
    const free = MAX_MEMORY_PAGES * WASM_PAGE - memory.buffer.byteLength - MEMORY_MARGIN;
    const fitting = Math.max(0, Math.floor(free / slotBytes));
    if (threads > fitting) {
      if (options.threadsGiven || fitting < 1) {
        throw new StackRankError(
          'BAD_ARGUMENT',
          `threads: ${threads} threads need ${Math.ceil((threads * slotBytes) / 2 ** 20)} MB of WebAssembly memory beside the ${Math.ceil(memory.buffer.byteLength / 2 ** 20)} MB this table and strategy use; at most ${fitting} fit in the ${(MAX_MEMORY_PAGES * WASM_PAGE) / 2 ** 30} GB limit`,
        );
      }
      threads = fitting;
    }
    let slots: Slot[];
    try {
      slots = Array.from({ length: threads }, () => {
        const game = engine.allocOwned(GAME_WORDS * 4);
        const pieces = engine.allocOwned(chunk + 16);
        const weights = weightWords ? engine.allocOwned((chunk + 16) * weightWords * 4) : 0;
        const ctx = engine.allocContext();
        const words = new Int32Array(memory.buffer, game, GAME_WORDS);
        words[G_CTX] = ctx;
        words[G_WEIGHTS] = weights;
        return { game, pieces, weights, weightWords };
      });
    } catch (e) {
      // The kernel's allocator traps when the memory cannot grow (the system refused it below the limit).
      throw new StackRankError('WASM_FAILED', `out of WebAssembly memory for ${threads} game slot(s): ${String(e)}`, {
        cause: e,
      });
    }
    const pool = threads > 1 ? await KernelPool.create(engine.module, memory, threads) : null;
    return new KernelGames(engine, slots, pool, chunk, options.lookahead);
  }

  /** Stops the workers (a call under way rejects). */
  terminate(): void {
    this.pool?.terminate();
  }

  /** One playGame call in a slot: on its worker, or here after a turn of the event loop. */
  private async call(slotIndex: number): Promise<number> {
    const { engine, pool } = this;
    const slot = this.slots[slotIndex];
    if (pool) return pool.run(slotIndex, [{ fn: 'playGame', args: [engine.cfg, slot.game] }]);
    await new Promise<void>((r) => setTimeout(r, 0));
    return engine.kernel.playGame(engine.cfg, slot.game);
  }

  /**
   * Plays one game in slot `slotIndex` with pieces from `rng`, for at most `cap` pieces; `onPieces(n)` after each
   * buffer with the pieces played since the last call; `stopped()` is asked before each buffer (true: the game is
   * abandoned with ABORTED).
   */
  async play(
    slotIndex: number,
    rng: PieceDealer,
    cap: number,
    onPieces: (played: number) => void,
    stopped: () => boolean,
  ): Promise<KernelGame> {
    const { memory } = this.engine;
    const slot = this.slots[slotIndex];
    const g = () => new Int32Array(memory.buffer, slot.game, GAME_WORDS);
    const words = g();
    words.fill(0, G_HEIGHTS, G_HEIGHTS + HEIGHTS_WORDS);
    words[G_PIECES] = slot.pieces;
    words[G_POSITION] = 0;
    words[G_PLAYED] = 0;
    words[G_TETRISES] = 0;
    // The kernel writes the death piece only when the game dies: a game the budget cuts keeps 0 (docs/file-formats.md,
    // "Run files"), not the piece of an earlier game played in this slot.
    words[G_DEATH_PIECE] = 0;
    words[G_CAP] = Math.min(cap, 2 ** 31 - 1);
    words[G_LOOKAHEAD] = this.lookahead;
    words[G_STATUS] = 0;
    let fill = FIRST_FILL;
    deal(rng, memory, slot, 0, fill);
    words[G_AVAILABLE] = fill;
    let counted = 0;
    for (;;) {
      if (stopped()) throw new StackRankError('ABORTED', 'the simulation was cancelled');
      const status = await this.call(slotIndex);
      const w = g();
      onPieces(w[G_PLAYED] - counted);
      counted = w[G_PLAYED];
      if (status !== GAME_NEEDS_PIECES) {
        return {
          length: w[G_PLAYED],
          dead: status === GAME_DEAD,
          deathPiece: w[G_DEATH_PIECE],
          tetrises: w[G_TETRISES],
        };
      }
      // Keep the unplayed window, refill the rest of the buffer.
      const pos = w[G_POSITION];
      const keep = w[G_AVAILABLE] - pos;
      fill = Math.min(this.chunk, fill * 8);
      new Uint8Array(memory.buffer, slot.pieces, fill).copyWithin(0, pos, pos + keep);
      if (slot.weights)
        new Int32Array(memory.buffer, slot.weights, fill * slot.weightWords).copyWithin(
          0,
          pos * slot.weightWords,
          (pos + keep) * slot.weightWords,
        );
      deal(rng, memory, slot, keep, fill - keep);
      w[G_POSITION] = 0;
      w[G_AVAILABLE] = fill;
    }
  }
}
