/**
 * One instance of the search kernel (assembly/search.ts) holding a rank table, the rules and the placement
 * table in its memory. Used on the main thread by StackingAI and, over shared memory, by the simulator's workers.
 */
import { StackRankError, describe, requireInt } from '../errors.js';
import { requireRankTable, type RankTable } from '../rank/table.js';
import { kernelImports } from '../wasm.js';
import { searchImage, type LeafRowsSource } from './shared-table.js';
import {
  CFG_BOARD_HEIGHT,
  CFG_COLLAPSE,
  CFG_EXCESS_FIRST,
  CFG_FIT,
  CFG_MAX_STEP,
  CFG_PIECE_MAX,
  CFG_PIECE_START,
  CFG_PLACEMENTS,
  CFG_STEPS,
  CFG_STRATEGY,
  CFG_TABLE,
  CFG_TETRIS_MODE,
  CFG_TETRIS_THRESHOLD,
  CFG_WIDTH,
  CFG_WORDS,
  CTX_BEST_LEN,
  CTX_BEST_PATH,
  CTX_BEST_VALUE,
  CTX_NODES,
  CTX_WEIGHTS,
  CTX_WORDS,
  GAME_WORDS,
  HEIGHTS_WORDS,
  LEAF_ROW_SLOTS,
  MAX_DEPTH,
  MOVE_NONE,
  STRATEGY_EXPECT,
  STRATEGY_EXPECT2,
  STRATEGY_RANK,
  TETRIS_MODE_CHOICE,
  TETRIS_MODE_FORCED,
  VALUE_DEPTH_SHIFT,
  WEIGHT_WORDS_EXPECT,
  WEIGHT_WORDS_EXPECT2,
} from './layout.js';
import { placementTable, type PlacementTable } from './placements.js';
import type { StackingRules } from './rules.js';

export interface SearchKernel {
  alloc(bytes: number): number;
  search(cfg: number, ctx: number, heights: number, queue: number, lookahead: number): number;
  playGame(cfg: number, game: number): number;
  CTX_WORDS: WebAssembly.Global;
  GAME_WORDS: WebAssembly.Global;
}

/** A StackingEngine's memory and pointers, to attach it on a worker thread (StackingEngine.attach). */
export interface EngineParts {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  cfg: number;
  ctx: number;
  heightsPtr: number;
  queuePtr: number;
  width: number;
  maxStep: number;
  /** Where the table's u16 ranks are (rank = value * rankScale), one per surface index. */
  tablePtr: number;
  rules: StackingRules;
  rankScale: number;
  strategy: Strategy;
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

/**
 * How leaves are scored: 'rank' (the article: the rank of the final surface), 'expectimax' (the expected best
 * rank after one more, unknown piece drawn from the randomizer's exact distribution) or 'expectimax2' (two
 * unknown pieces: the expected best 'expectimax' score after the first, the second drawn from the randomizer's
 * distribution given the first). The number of unknown pieces is the expectimax depth: 0 = 'rank'.
 */
export type Strategy = 'rank' | 'expectimax' | 'expectimax2';
export const STRATEGIES: readonly Strategy[] = ['rank', 'expectimax', 'expectimax2'];

/** What callers may ask for: a strategy, or 'best' = the strongest we have measured (docs/results.md). */
export type StrategyName = Strategy | 'best';
// Strongest per docs/results.md: two unknown pieces beat one at lookahead 0-1 with either leaf rows (7-8x the cost
// per move); with preview-table leaves (leafRows) it beats the previous best at every lookahead 0-4.
export const BEST_STRATEGY: Strategy = 'expectimax2';

export function checkStrategy(strategy: unknown): Strategy {
  if (strategy === undefined) return 'rank';
  if (strategy === 'best') return BEST_STRATEGY;
  if ((STRATEGIES as readonly unknown[]).includes(strategy)) return strategy as Strategy;
  throw new StackRankError(
    'BAD_ARGUMENT',
    `strategy must be ${STRATEGIES.map((s) => `"${s}"`).join(', ')} or "best"; got ${describe(strategy)}`,
  );
}

/** The strategy that averages over `unknownPieces` unknown pieces (0 = the article's rank leaves). */
export function expectimaxStrategy(unknownPieces: number): Strategy {
  if (typeof unknownPieces !== 'number')
    throw new StackRankError('BAD_ARGUMENT', `unknown pieces must be 0, 1 or 2; got ${describe(unknownPieces)}`);
  const strategy = STRATEGIES[unknownPieces];
  if (!Number.isInteger(unknownPieces) || !strategy)
    throw new StackRankError('BAD_ARGUMENT', `unknown pieces must be 0, 1 or 2; got ${unknownPieces}`);
  return strategy;
}

/**
 * Integer weights (x 65536) of a next-piece distribution; uniform when none is given. They sum to exactly 65536
 * (the rounding remainder goes to the likeliest piece), so a weighted sum of u16 ranks stays below 2^32. Written
 * to `out[at..at+8)` (slot 7 zero) when given, so a caller filling a buffer allocates nothing.
 */
function checkWeightsTarget(out: unknown, at: unknown, words: number): void {
  if (!(out instanceof Int32Array))
    throw new StackRankError('BAD_ARGUMENT', `out must be an Int32Array; got ${describe(out)}`);
  requireInt('at', at, 0, Math.max(-1, out.length - words));
}

export function distributionWeights(
  dist?: ArrayLike<number>,
  out: Int32Array = new Int32Array(WEIGHT_WORDS_EXPECT),
  at = 0,
): Int32Array {
  checkWeightsTarget(out, at, WEIGHT_WORDS_EXPECT);
  if (dist !== undefined) checkChances(dist, 7, 'dist');
  return fillDistributionWeights(dist, out, at);
}

/** distributionWeights without the argument checks (the simulator's per-piece path, arguments made here). */
export function fillDistributionWeights(dist: ArrayLike<number> | undefined, out: Int32Array, at: number): Int32Array {
  let sum = 0;
  let likeliest = 0;
  for (let p = 0; p < 7; p++) {
    out[at + p] = Math.round((dist ? dist[p] : 1 / 7) * 65536);
    sum += out[at + p];
    if (out[at + p] > out[at + likeliest]) likeliest = p;
  }
  out[at + 7] = 0;
  if (sum > 0) out[at + likeliest] += 65536 - sum;
  return out;
}

const firstPiece = new Float64Array(7);
const secondGivenFirst = new Float64Array(7);

/**
 * Weights for two unknown pieces from a pair distribution (49 numbers, p1 * 7 + p2 = P(p1) P(p2 | p1)): the first
 * piece's 8 weights, then for each p1 the 8 weights of the second given p1 (zeros where p1 is impossible).
 * Uniform pairs when none is given. Written to `out[at..at+64)` when given.
 */
/** A distribution argument: `count` finite non-negative numbers (normalised by the callers' checks or not). */
function checkChances(values: unknown, count: number, name: string): void {
  const ok =
    values !== null &&
    typeof values === 'object' &&
    (values as ArrayLike<unknown>).length === count &&
    Array.from({ length: count }, (_, i) => (values as ArrayLike<unknown>)[i]).every(
      (x) => typeof x === 'number' && Number.isFinite(x) && x >= 0,
    );
  if (!ok)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${name} must be ${count} finite non-negative numbers; got ${describe(values)}`,
    );
}

export function pairWeights(
  pair?: ArrayLike<number>,
  out: Int32Array = new Int32Array(WEIGHT_WORDS_EXPECT2),
  at = 0,
): Int32Array {
  checkWeightsTarget(out, at, WEIGHT_WORDS_EXPECT2);
  if (pair !== undefined) checkChances(pair, 49, 'pair');
  return fillPairWeights(pair, out, at);
}

/** pairWeights without the argument checks (the simulator's per-piece path). */
export function fillPairWeights(pair: ArrayLike<number> | undefined, out: Int32Array, at: number): Int32Array {
  const chance = (p1: number, p2: number) => (pair ? pair[p1 * 7 + p2] : 1 / 49);
  firstPiece.fill(0);
  for (let p1 = 0; p1 < 7; p1++) for (let p2 = 0; p2 < 7; p2++) firstPiece[p1] += chance(p1, p2);
  fillDistributionWeights(firstPiece, out, at);
  for (let p1 = 0; p1 < 7; p1++) {
    if (firstPiece[p1] <= 0) {
      out.fill(0, at + WEIGHT_WORDS_EXPECT * (p1 + 1), at + WEIGHT_WORDS_EXPECT * (p1 + 2));
      continue;
    }
    for (let p2 = 0; p2 < 7; p2++) secondGivenFirst[p2] = chance(p1, p2) / firstPiece[p1];
    fillDistributionWeights(secondGivenFirst, out, at + WEIGHT_WORDS_EXPECT * (p1 + 1));
  }
  return out;
}

/**
 * Leaf rows for the expectimax strategies: 8 u16 per surface, slot p = the value of the surface with piece p to
 * place next, slot 7 = its value right after a Tetris. By default the article table's piece-max rows; a preview
 * table (src/rank/preview.ts) has the same layout.
 */
export interface LeafRows {
  readonly width: number;
  readonly maxStep: number;
  readonly rows: Uint16Array;
}

function checkLeafRows(leaf: LeafRows, table: RankTable): Uint16Array {
  if (leaf === null || typeof leaf !== 'object' || !(leaf.rows instanceof Uint16Array)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `leafRows must be a preview table (or { width, maxStep, rows: Uint16Array }); got ${describe(leaf)}`,
    );
  }
  if (
    leaf.width !== table.width ||
    leaf.maxStep !== table.maxStep ||
    leaf.rows?.length !== table.size * LEAF_ROW_SLOTS
  ) {
    throw new StackRankError(
      'TABLE_MISMATCH',
      `leaf rows are for ${leaf.width}x${leaf.maxStep} surfaces; the table is ${table.width}x${table.maxStep}`,
    );
  }
  return leaf.rows;
}

const UNIFORM = distributionWeights();
const UNIFORM_PAIRS = pairWeights();

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
    readonly strategy: Strategy,
    state?: { ctx: number; heightsPtr: number; queuePtr: number },
  ) {
    this.placements = placements;
    this.ctx = state?.ctx ?? this.allocContext();
    this.heightsPtr = state?.heightsPtr ?? kernel.alloc(HEIGHTS_WORDS * 4);
    this.queuePtr = state?.queuePtr ?? kernel.alloc(MAX_DEPTH);
  }

  /**
   * What another thread needs to search with this engine's state (EngineParts can be posted to a worker when the
   * memory is shared): the engine must then be used on that thread only, through StackingEngine.attach.
   */
  parts(): EngineParts {
    const cfg = new Int32Array(this.memory.buffer, this.cfg, CFG_WORDS);
    return {
      module: this.module,
      memory: this.memory,
      cfg: this.cfg,
      ctx: this.ctx,
      heightsPtr: this.heightsPtr,
      queuePtr: this.queuePtr,
      width: this.width,
      maxStep: cfg[CFG_MAX_STEP],
      tablePtr: cfg[CFG_TABLE],
      rules: this.rules,
      rankScale: this.rankScale,
      strategy: this.strategy,
    };
  }

  /** An engine over parts() made on another thread: its own kernel instance, no allocation (the owner did it). */
  static attach(parts: EngineParts): StackingEngine {
    const instance = new WebAssembly.Instance(parts.module, kernelImports(parts.memory));
    const kernel = {
      ...(instance.exports as unknown as SearchKernel),
      alloc(): number {
        throw new StackRankError('BAD_ARGUMENT', 'an attached engine cannot allocate; allocate on the owner thread');
      },
    };
    return new StackingEngine(
      kernel,
      parts.memory,
      parts.module,
      parts.cfg,
      parts.width,
      parts.rules,
      parts.rankScale,
      placementTable(parts.width, parts.maxStep),
      parts.strategy,
      parts,
    );
  }

  static async create(
    table: RankTable,
    rules: StackingRules,
    opts: { shared?: boolean; strategy?: Strategy; leafRows?: LeafRows } = {},
  ): Promise<StackingEngine> {
    requireRankTable(table);
    const strategy = opts.strategy ?? 'rank';
    if (opts.leafRows !== undefined && strategy === 'rank')
      throw new StackRankError('BAD_ARGUMENT', 'leafRows need an expectimax strategy');
    // Expectimax leaves read 8 values per surface: the given rows, or the table's best rank per piece. The table
    // and rows live once per process in a shared search image (src/stacking/shared-table.ts); this engine gets its
    // own kernel instance over that memory and allocates through the image's owner.
    if (opts.leafRows !== undefined) checkLeafRows(opts.leafRows, table);
    const leaf: LeafRowsSource = strategy === 'rank' ? null : (opts.leafRows ?? 'pieceMax');
    const image = await searchImage(table, leaf, !!opts.shared);
    const { memory, module } = image;
    const instance = (await WebAssembly.instantiate(module, kernelImports(memory))) as unknown as WebAssembly.Instance;
    const kernel = { ...(instance.exports as unknown as SearchKernel), alloc: image.alloc };
    if (kernel.CTX_WORDS.value !== CTX_WORDS || kernel.GAME_WORDS.value !== GAME_WORDS) {
      throw new StackRankError(
        'WASM_FAILED',
        'search kernel layout does not match assembly/search/layout.ts (rebuild the kernels)',
      );
    }
    const { tablePtr, rowsPtr, scale } = image;
    const placements = placementTable(table.width, table.maxStep);
    // The kernel packs a sequence of moves one byte per depth (placement id + 1, 0 = Tetris).
    if (placements.placements.length > 254)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${placements.placements.length} placements do not fit the kernel's one-byte move codes`,
      );
    const recordsPtr = kernel.alloc(placements.records.byteLength);
    new Int32Array(memory.buffer, recordsPtr, placements.records.length).set(placements.records);
    const fitPtr = kernel.alloc(placements.fit.byteLength);
    new BigUint64Array(memory.buffer, fitPtr, placements.fit.length).set(placements.fit);
    const stepsPtr = kernel.alloc(placements.steps.byteLength);
    new Int32Array(memory.buffer, stepsPtr, placements.steps.length).set(placements.steps);
    const startPtr = kernel.alloc(placements.start.byteLength);
    new Int32Array(memory.buffer, startPtr, placements.start.length).set(placements.start);
    const cfg = kernel.alloc(CFG_WORDS * 4);
    const words = new Int32Array(memory.buffer, cfg, CFG_WORDS);
    words[CFG_WIDTH] = table.width;
    words[CFG_MAX_STEP] = table.maxStep;
    words[CFG_BOARD_HEIGHT] = rules.boardHeight;
    words[CFG_TETRIS_THRESHOLD] = rules.tetrisThreshold;
    words[CFG_EXCESS_FIRST] = rules.steep === 'excessFirst' ? 1 : 0;
    words[CFG_TABLE] = tablePtr;
    words[CFG_PLACEMENTS] = recordsPtr;
    words[CFG_PIECE_START] = startPtr;
    words[CFG_TETRIS_MODE] = rules.tetris === 'choice' ? TETRIS_MODE_CHOICE : TETRIS_MODE_FORCED;
    words[CFG_STRATEGY] = { rank: STRATEGY_RANK, expectimax: STRATEGY_EXPECT, expectimax2: STRATEGY_EXPECT2 }[strategy];
    words[CFG_PIECE_MAX] = rowsPtr;
    words[CFG_FIT] = fitPtr;
    words[CFG_STEPS] = stepsPtr;
    words[CFG_COLLAPSE] = rules.steep === 'collapse' ? 1 : 0;
    return new StackingEngine(kernel, memory, module, cfg, table.width, rules, scale, placements, strategy);
  }

  /** A fresh search context (for a game or a worker). */
  allocContext(): number {
    return this.kernel.alloc(CTX_WORDS * 4);
  }

  /**
   * Searches from `heights` with the queue of piece ids; `lookahead` pieces after queue[0] are known. `weights`:
   * distributionWeights (expectimax) or pairWeights (expectimax2) of the unknown pieces after the queue.
   */
  search(heights: readonly number[], queue: readonly number[], lookahead: number, weights?: Int32Array): SearchOutcome {
    weights ??= this.strategy === 'expectimax2' ? UNIFORM_PAIRS : UNIFORM;
    const weightCount = this.strategy === 'expectimax2' ? WEIGHT_WORDS_EXPECT2 : WEIGHT_WORDS_EXPECT;
    if (weights.length !== weightCount) {
      const maker = weightCount === WEIGHT_WORDS_EXPECT ? 'distributionWeights' : 'pairWeights';
      throw new StackRankError(
        'BAD_ARGUMENT',
        `a ${this.strategy} search takes ${weightCount} weights (${maker}); got ${weights.length}`,
      );
    }
    if (lookahead + 1 > MAX_DEPTH) throw new StackRankError('BAD_ARGUMENT', `lookahead is at most ${MAX_DEPTH - 1}`);
    // Plain loops: TypedArray.set from a JS array, subarray and Array.from each cost more than this whole
    // wrapper at lookahead 0.
    const { words, bytes } = this.views();
    const heightsWord = this.heightsPtr >> 2;
    for (let i = 0; i < this.width; i++) words[heightsWord + i] = heights[i];
    for (let i = 0; i <= lookahead; i++) bytes[this.queuePtr + i] = queue[i];
    const ctxWord = this.ctx >> 2;
    for (let p = 0; p < weights.length; p++) words[ctxWord + CTX_WEIGHTS + p] = weights[p];
    words[ctxWord + CTX_NODES] = 0;
    words[ctxWord + CTX_NODES + 1] = 0;
    const move = this.kernel.search(this.cfg, this.ctx, this.heightsPtr, this.queuePtr, lookahead);
    const len = words[ctxWord + CTX_BEST_LEN];
    // The best value is an i64 (VALUE_DEPTH_SHIFT = 56): its high word holds the depth in its top byte.
    const valueLow = words[ctxWord + CTX_BEST_VALUE] >>> 0;
    const valueHigh = words[ctxWord + CTX_BEST_VALUE + 1];
    const plan: number[] = [];
    if (move !== MOVE_NONE) for (let i = 0; i < len; i++) plan.push(words[ctxWord + CTX_BEST_PATH + i]);
    return {
      move,
      plan,
      depth: valueHigh >> (VALUE_DEPTH_SHIFT - 32),
      leafScore: valueLow,
      nodes: words[ctxWord + CTX_NODES] >>> 0,
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
