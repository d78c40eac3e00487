/**
 * One instance of the search kernel (assembly/search.ts) holding a rank table, the rules and the placement
 * table in its memory. Used on the main thread by StackingAI and, over shared memory, by the simulator's workers.
 */
import { StackRankError } from '../errors.js';
import type { RankTable } from '../rank/table.js';
import { instantiateKernel, pickVariant } from '../wasm.js';
import { pieceMaxFor } from '../rank/piece-max.js';
import { CFG, CFG_WORDS, CTX, CTX_WEIGHTS, CTX_WORDS, DEPTH_SHIFT, GAME_WORDS, MAX_DEPTH, MOVE_NONE, STRATEGY_EXPECT, STRATEGY_RANK, TETRIS_MODE } from './layout.js';
import { placementTable, type PlacementTable } from './placements.js';
import type { StackingRules } from './rules.js';

export interface SearchKernel {
  alloc(bytes: number): number;
  search(cfg: number, ctx: number, heights: number, queue: number, lookahead: number): number;
  playGame(cfg: number, game: number): number;
  CTX_WORDS: WebAssembly.Global;
  GAME_WORDS: WebAssembly.Global;
}

export interface SearchOutcome {
  /** Placement id, MOVE_TETRIS or MOVE_NONE. */
  move: number;
  /** The best sequence (placement ids / MOVE_TETRIS), first move first. */
  plan: number[];
  /** How many pieces of the window the best sequence places (lookahead + 1 when it survives). */
  depth: number;
  /** 32-bit score of the best sequence's final surface (rank << 16, or the expected best rank x 65536). */
  leafScore: number;
  nodes: number;
}

/** How leaves are scored: 'rank' (the article: the rank of the final surface) or 'expectimax' (the expected best
 * rank after one more piece, drawn from the randomizer's distribution). */
export type Strategy = 'rank' | 'expectimax';

/** What callers may ask for: a strategy, or 'best' = the strongest we have measured (docs/results.md). */
export type StrategyName = Strategy | 'best';
export const BEST_STRATEGY: Strategy = 'expectimax';

export function checkStrategy(strategy: unknown): Strategy {
  if (strategy === undefined) return 'rank';
  if (strategy === 'best') return BEST_STRATEGY;
  if (strategy === 'rank' || strategy === 'expectimax') return strategy;
  throw new StackRankError('BAD_ARGUMENT', `strategy must be "rank", "expectimax" or "best"; got ${JSON.stringify(strategy)}`);
}

/** Integer weights (x 65536) of a next-piece distribution; uniform when none is given. */
export function distributionWeights(dist?: ArrayLike<number>): Int32Array {
  const w = new Int32Array(8);
  for (let p = 0; p < 7; p++) w[p] = Math.round((dist ? dist[p] : 1 / 7) * 65536);
  return w;
}

const UNIFORM = distributionWeights();

export class StackingEngine {
  readonly placements: PlacementTable;
  private readonly ctx: number;
  private readonly heightsPtr: number;
  private readonly queuePtr: number;

  private constructor(
    readonly kernel: SearchKernel,
    readonly memory: WebAssembly.Memory,
    readonly module: WebAssembly.Module,
    readonly cfg: number,
    readonly width: number,
    readonly rules: StackingRules,
    readonly rankScale: number,
    placements: PlacementTable,
  ) {
    this.placements = placements;
    this.ctx = this.allocContext();
    this.heightsPtr = kernel.alloc(64);
    this.queuePtr = kernel.alloc(64);
  }

  static async create(table: RankTable, rules: StackingRules, opts: { shared?: boolean; strategy?: Strategy } = {}): Promise<StackingEngine> {
    const strategy = opts.strategy ?? 'rank';
    const pieceMax = strategy === 'expectimax' ? await pieceMaxFor(table) : null;
    const { exports: kernel, memory, module } = await instantiateKernel<SearchKernel>('search', pickVariant(!!opts.shared));
    if (kernel.CTX_WORDS.value !== CTX_WORDS || kernel.GAME_WORDS.value !== GAME_WORDS) {
      throw new StackRankError('WASM_FAILED', 'search kernel layout does not match src/stacking/layout.ts (rebuild)');
    }
    const { values, scale } = table.searchValues();
    const tablePtr = kernel.alloc(values.byteLength);
    new Uint16Array(memory.buffer, tablePtr, values.length).set(values);
    const placements = placementTable(table.width, table.maxStep);
    // The kernel packs a sequence of moves one byte per depth (placement id + 1, 0 = Tetris).
    if (placements.placements.length > 254) throw new StackRankError('BAD_ARGUMENT', `${placements.placements.length} placements do not fit the kernel's one-byte move codes`);
    const recordsPtr = kernel.alloc(placements.records.byteLength);
    new Int32Array(memory.buffer, recordsPtr, placements.records.length).set(placements.records);
    const fitPtr = kernel.alloc(placements.fit.byteLength);
    new Uint8Array(memory.buffer, fitPtr, placements.fit.length).set(placements.fit);
    const startPtr = kernel.alloc(placements.start.byteLength);
    new Int32Array(memory.buffer, startPtr, placements.start.length).set(placements.start);
    let pieceMaxPtr = 0;
    if (pieceMax) {
      pieceMaxPtr = kernel.alloc(pieceMax.byteLength);
      new Uint16Array(memory.buffer, pieceMaxPtr, pieceMax.length).set(pieceMax);
    }
    const cfg = kernel.alloc(CFG_WORDS * 4);
    const words = new Int32Array(memory.buffer, cfg, CFG_WORDS);
    words[CFG.width] = table.width;
    words[CFG.maxStep] = table.maxStep;
    words[CFG.boardHeight] = rules.boardHeight;
    words[CFG.tetrisThreshold] = rules.tetrisThreshold;
    words[CFG.excessFirst] = rules.steep === 'excessFirst' ? 1 : 0;
    words[CFG.table] = tablePtr;
    words[CFG.placements] = recordsPtr;
    words[CFG.pieceStart] = startPtr;
    words[CFG.tetrisMode] = TETRIS_MODE[rules.tetris];
    words[CFG.strategy] = pieceMax ? STRATEGY_EXPECT : STRATEGY_RANK;
    words[CFG.pieceMax] = pieceMaxPtr;
    words[CFG.fit] = fitPtr;
    return new StackingEngine(kernel, memory, module, cfg, table.width, rules, scale, placements);
  }

  /** A fresh search context (for a game or a worker). */
  allocContext(): number {
    return this.kernel.alloc(CTX_WORDS * 4);
  }

  /** Searches from `heights` with the queue of piece ids; `lookahead` pieces after queue[0] are known. */
  search(heights: readonly number[], queue: readonly number[], lookahead: number, weights: Int32Array = UNIFORM): SearchOutcome {
    if (lookahead + 1 > MAX_DEPTH) throw new StackRankError('BAD_ARGUMENT', `lookahead is at most ${MAX_DEPTH - 1}`);
    // Plain loops: TypedArray.set from a JS array, subarray and Array.from each cost more than this whole
    // wrapper at lookahead 0.
    const { words, bytes } = this.views();
    const heightsWord = this.heightsPtr >> 2;
    for (let i = 0; i < this.width; i++) words[heightsWord + i] = heights[i];
    for (let i = 0; i <= lookahead; i++) bytes[this.queuePtr + i] = queue[i];
    const ctxWord = this.ctx >> 2;
    for (let p = 0; p < 8; p++) words[ctxWord + CTX_WEIGHTS + p] = weights[p];
    words[ctxWord + CTX.nodes] = 0;
    words[ctxWord + CTX.nodes + 1] = 0;
    const move = this.kernel.search(this.cfg, this.ctx, this.heightsPtr, this.queuePtr, lookahead);
    const len = words[ctxWord + CTX.bestLen];
    // The best value is an i64 (DEPTH_SHIFT = 56): its high word holds the depth in its top byte.
    const valueLow = words[ctxWord + CTX.bestValue] >>> 0;
    const valueHigh = words[ctxWord + CTX.bestValue + 1];
    const plan: number[] = [];
    if (move !== MOVE_NONE) for (let i = 0; i < len; i++) plan.push(words[ctxWord + CTX.bestPath + i]);
    return {
      move,
      plan,
      depth: valueHigh >> (Number(DEPTH_SHIFT) - 32),
      leafScore: valueLow,
      nodes: words[ctxWord + CTX.nodes] >>> 0,
    };
  }

  private wordsView?: Int32Array;
  private bytesView?: Uint8Array;

  /** Views of the kernel's memory, made again only when the memory has grown (which detaches the old buffer). */
  private views(): { words: Int32Array; bytes: Uint8Array } {
    if (!this.wordsView || this.wordsView.buffer !== this.memory.buffer) {
      this.wordsView = new Int32Array(this.memory.buffer);
      this.bytesView = new Uint8Array(this.memory.buffer);
    }
    return { words: this.wordsView, bytes: this.bytesView! };
  }
}
