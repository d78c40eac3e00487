/**
 * One instance of the search kernel (assembly/search.ts) holding a rank table, the rules and the placement
 * table in its memory. Used on the main thread by StackingAI and, over shared memory, by the simulator's workers.
 */
import { StackRankError, describe, requireInt } from '../errors.js';
import { requireRankTable, type RankTable } from '../rank/table.js';
import { kernelImports } from '../wasm.js';
import { searchImage, type LeafRowsSource, type SearchImage } from './shared-table.js';
import {
  CFG_BOARD_HEIGHT,
  CFG_COLLAPSE,
  CFG_EXCESS_FIRST,
  CFG_FIT,
  CFG_MAX_STEP,
  CFG_PIECE_MAX,
  CFG_ROWS_FOLD,
  CFG_PIECE_START,
  CFG_PLACEMENTS,
  CFG_REACH,
  CFG_REACH_BOXES,
  CFG_STEPS,
  CFG_STRATEGY,
  CFG_TABLE,
  CFG_TETRIS_MODE,
  CFG_TETRIS_THRESHOLD,
  CFG_WIDTH,
  CFG_WELL_COMBOS,
  CFG_WELL_FACTOR,
  CFG_WELL_WINDOW,
  CFG_WORDS,
  CTX_BEST_LEN,
  CTX_BEST_PATH,
  CTX_BEST_VALUE,
  CTX_HOLD,
  CTX_HOLD_FROM,
  CTX_NODES,
  CTX_QUEUE_LENGTH,
  CTX_WEIGHTS,
  CTX_WORDS,
  GAME_WORDS,
  HEIGHTS_WORDS,
  HOLD_EMPTY,
  HOLD_NONE,
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
import { type ReachTable, type StackingRuleSet, type WellWindow, wellWindow20GSliced } from './reach.js';
import type { SetupReport } from '../setup-progress.js';
import { cachedReachTable } from './reach-cache.js';
import { MIN_BOARD_HEIGHT, type StackingRules } from './rules.js';

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
  unknownPieces: UnknownPieces;
}

/** The hold box of a search with hold (StackingEngine.search): its piece id (null: empty), and from which depth the
 * search may press hold (1 when the caller weighs the first move's hold itself). */
export interface SearchHold {
  piece: number | null;
  fromDepth: 0 | 1;
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
 * How leaves are scored (docs/api.md, "Strategies"): 'rank' (the article: the rank of the final surface) or
 * 'expectimax' (the expected best rank after `unknownPieces` more pieces nobody has seen yet, drawn from the
 * randomizer's exact distribution). With two unknown pieces, a leaf is the expected best one-piece score after the
 * first, the second drawn from the randomizer's distribution given the first.
 */
export type Strategy = 'rank' | 'expectimax';
export const STRATEGIES: readonly Strategy[] = ['rank', 'expectimax'];
/** Unknown pieces a leaf averages over: 0 for 'rank', 1 or 2 for 'expectimax'. */
export type UnknownPieces = 0 | 1 | 2;
export const MAX_UNKNOWN_PIECES = 2;

/** What callers may ask for: a strategy, or 'best' = the strongest we have measured (bench/notes/results.md). */
export type StrategyName = Strategy | 'best';
/** A checked strategy and its number of unknown pieces. */
export interface SearchStrategy {
  readonly strategy: Strategy;
  readonly unknownPieces: UnknownPieces;
}
// Strongest per bench/notes/results.md: two unknown pieces beat one at lookahead 0-1 with either leaf values (7-8x the
// cost per move); with a preview table's leaf values it beats the previous best at every lookahead 0-4.
export const BEST_STRATEGY: SearchStrategy = Object.freeze({ strategy: 'expectimax', unknownPieces: 2 });

/**
 * Checks `strategy` and `unknownPieces` (options of StackingAI.create and simulateStacking). 'expectimax' averages
 * over 1 unknown piece unless told 2; 'rank' takes none; 'best' chooses both.
 */
export function checkStrategy(strategy: unknown, unknownPieces?: unknown): SearchStrategy {
  if (strategy !== undefined && strategy !== 'best' && !(STRATEGIES as readonly unknown[]).includes(strategy)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `strategy must be ${STRATEGIES.map((s) => `"${s}"`).join(', ')} or "best"; got ${describe(strategy)}`,
    );
  }
  if (strategy === 'expectimax') {
    if (unknownPieces === undefined) return { strategy, unknownPieces: 1 };
    return expectimaxStrategy(requireInt('unknownPieces', unknownPieces, 1, MAX_UNKNOWN_PIECES));
  }
  if (unknownPieces !== undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `unknownPieces goes with strategy "expectimax"; strategy ${strategy === undefined ? '"rank" (the default)' : `"${strategy}"`} sets its own`,
    );
  return strategy === 'best' ? BEST_STRATEGY : { strategy: 'rank', unknownPieces: 0 };
}

/** The strategy that averages over `unknownPieces` unknown pieces (0 = the article's rank leaves). */
export function expectimaxStrategy(unknownPieces: number): SearchStrategy {
  if (typeof unknownPieces !== 'number')
    throw new StackRankError('BAD_ARGUMENT', `unknown pieces must be 0, 1 or 2; got ${describe(unknownPieces)}`);
  if (!Number.isInteger(unknownPieces) || unknownPieces < 0 || unknownPieces > MAX_UNKNOWN_PIECES)
    throw new StackRankError('BAD_ARGUMENT', `unknown pieces must be 0, 1 or 2; got ${unknownPieces}`);
  return { strategy: unknownPieces === 0 ? 'rank' : 'expectimax', unknownPieces: unknownPieces as UnknownPieces };
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
 * Leaf values for expectimax: for every surface (in table index order), 8 u16 values: slot p = the surface's value
 * with piece p to place next, slot 7 = its value right after a Tetris. By default the rank table's best rank per
 * piece ("piece-max"); a preview table (src/rank/preview.ts, surface x piece in hand) is one of these.
 */
export interface NextPieceValues {
  readonly width: number;
  readonly maxStep: number;
  readonly rows: Uint16Array;
}

/** Checks a caller's leaf values (`what`: the option's name) against the rank table they go with. */
export function checkNextPieceValues(values: unknown, table: RankTable, what: string): NextPieceValues {
  const leaf = values as NextPieceValues;
  if (leaf === null || typeof leaf !== 'object' || !(leaf.rows instanceof Uint16Array)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what} must be a preview table (or { width, maxStep, rows: Uint16Array }); got ${describe(values)}`,
    );
  }
  if (
    leaf.width !== table.width ||
    leaf.maxStep !== table.maxStep ||
    leaf.rows?.length !== table.size * LEAF_ROW_SLOTS
  ) {
    throw new StackRankError(
      'TABLE_MISMATCH',
      `${what} is for ${leaf.width}x${leaf.maxStep} surfaces; the table is ${table.width}x${table.maxStep}`,
    );
  }
  return leaf;
}

const UNIFORM = distributionWeights();
const UNIFORM_PAIRS = pairWeights();

/** Blocks of the search image an engine allocated for itself, and how to give them back (StackingEngine.release). */
interface OwnedBlocks {
  free(ptr: number, bytes: number): void;
  blocks: { ptr: number; bytes: number }[];
  released: boolean;
}

/** Gives an engine's own blocks back to its image, once (no reference to the engine: a finalizer may call it). */
function releaseBlocks(owned: OwnedBlocks): void {
  if (owned.released) return;
  owned.released = true;
  for (const { ptr, bytes } of owned.blocks) owned.free(ptr, bytes);
  owned.blocks.length = 0;
}

/**
 * Releases the engine of an AI once the AI is collected: a game server that makes and drops AIs over one table
 * keeps the table's search image from growing. Only engines nothing else uses are registered (an AI's own).
 */
const releaseWhenCollected = new FinalizationRegistry<OwnedBlocks>(releaseBlocks);

export class StackingEngine {
  readonly placements: PlacementTable;
  private readonly ctx: number;
  private readonly heightsPtr: number;
  private readonly queuePtr: number;
  /** The blocks this engine allocated (null for an engine attached on another thread: it allocates nothing). */
  private readonly owned: OwnedBlocks | null;

  private constructor(
    readonly kernel: SearchKernel,
    readonly memory: WebAssembly.Memory,
    readonly module: WebAssembly.Module,
    readonly cfg: number,
    readonly width: number,
    readonly rules: StackingRules,
    readonly rankScale: number,
    placements: PlacementTable,
    /** Unknown pieces a leaf averages over (0: the rank strategy). */
    readonly unknownPieces: UnknownPieces,
    state?: { ctx: number; heightsPtr: number; queuePtr: number },
    /** The rule set's reach records; null when every placement that fits is reachable (classic). The kernel reads
     * them through the config block, so an attached engine searches with them too. */
    readonly reach: ReachTable | null = null,
    /** The engine's own blocks so far (its config block), for an engine made on this thread; null when attached. */
    owned: OwnedBlocks | null = null,
  ) {
    this.placements = placements;
    this.owned = owned;
    this.ctx = state?.ctx ?? this.allocContext();
    this.heightsPtr = state?.heightsPtr ?? this.allocOwned(HEIGHTS_WORDS * 4);
    this.queuePtr = state?.queuePtr ?? this.allocOwned(MAX_DEPTH);
  }

  /**
   * A block of the search image for this engine's own use, given back by release(): game slots and contexts of a
   * simulation, the engine's own state.
   */
  allocOwned(bytes: number): number {
    if (!this.owned || this.owned.released)
      throw new StackRankError('BAD_ARGUMENT', 'an attached or released engine cannot allocate');
    const ptr = this.kernel.alloc(bytes);
    this.owned.blocks.push({ ptr, bytes });
    return ptr;
  }

  /**
   * Gives this engine's own blocks back to the search image, for the next engine over it. Only when nothing uses
   * the engine any more, on this thread or any worker attached to it.
   */
  release(): void {
    if (this.owned) releaseBlocks(this.owned);
  }

  /**
   * A leaf score (the kernel's: rank × 65536, or an expected rank × 65536) as the kernel values the leaf surface
   * `index` (its surface index): scaled down where the surface keeps a 20G I from the well (`blockedWell` of
   * create; read from the config block, so an attached engine answers the same).
   */
  wellScaled(index: number, score: number): number {
    const cfg = new Int32Array(this.memory.buffer, this.cfg, CFG_WORDS);
    const window = cfg[CFG_WELL_WINDOW];
    if (window === 0 || new Uint8Array(this.memory.buffer)[window + (index % cfg[CFG_WELL_COMBOS])] !== 0) return score;
    return Math.floor((score * cfg[CFG_WELL_FACTOR]) / 65536);
  }

  /** Releases this engine when `user` (the AI that alone uses it) is collected. */
  releaseWith(user: object): void {
    if (this.owned) releaseWhenCollected.register(user, this.owned);
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
      unknownPieces: this.unknownPieces,
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
      parts.unknownPieces,
      parts,
    );
  }

  static async create(
    table: RankTable,
    rules: StackingRules,
    opts: {
      shared?: boolean;
      unknownPieces?: UnknownPieces;
      leafValues?: NextPieceValues;
      ruleSet?: StackingRuleSet;
      /**
       * Scores a leaf surface that keeps the I from a right-hand well under this 20G rule set at `factor` (0..1) of
       * its score (TetrisAI at 20G: docs/game.md, "The policy"; the surfaces: reach.ts wellWindow20G). The leaf rows
       * are then kept one per surface (not folded), since a surface and its mirror image differ in this.
       */
      blockedWell?: { ruleSet: StackingRuleSet; factor: number };
      /** The search image holds the u16 ranks under expectimax too (EngineParts.tablePtr): for callers that read a
       * surface's rank from it themselves, as playGame's worker threads do (86 MB more at 9x4). */
      ranks?: boolean;
      /** Stops waiting for the shared search image (ABORTED), and stops its making if no one else waits. */
      signal?: AbortSignal;
      /** Hears the setup's progress: the reach records and the search image (src/setup-progress.ts). */
      onProgress?: SetupReport;
    } = {},
  ): Promise<StackingEngine> {
    requireRankTable(table);
    const unknownPieces = opts.unknownPieces ?? 0;
    if (opts.leafValues !== undefined && unknownPieces === 0)
      throw new StackRankError('BAD_ARGUMENT', 'leaf values (a preview table) need the expectimax strategy');
    // The rule set's reach records (src/stacking/reach.ts), before any kernel memory is touched: from the disk
    // cache in Node (src/stacking/reach-cache.ts), else derived.
    const placements = placementTable(table.width, table.maxStep);
    const { table: reach } = await cachedReachTable(
      opts.ruleSet ?? 'classic',
      table.width,
      table.maxStep,
      rules.boardHeight,
      placements.placements,
      undefined,
      opts.signal,
      opts.onProgress,
    );
    if (reach && unknownPieces !== 0)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `the expectimax strategy plays only rule sets that reach every placement (classic, guideline); the ${reach.ruleSet.name} rule set needs strategy 'rank'`,
      );
    // Expectimax leaves read 8 values per surface: the given rows, or the table's best rank per piece. The table
    // and rows live once per process in a shared search image (src/stacking/shared-table.ts); this engine gets its
    // own kernel instance over that memory and allocates through the image's owner.
    if (opts.leafValues !== undefined) checkNextPieceValues(opts.leafValues, table, 'previewTable');
    const leaf: LeafRowsSource = unknownPieces === 0 ? null : (opts.leafValues ?? 'pieceMax');
    const well = opts.blockedWell ? await checkedBlockedWell(opts.blockedWell, table, opts) : null;
    const image = await searchImage(
      table,
      leaf,
      !!opts.shared,
      opts.signal,
      { unfolded: well !== null, ranks: opts.ranks },
      opts.onProgress,
    );
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
    // The kernel packs a sequence of moves one byte per depth (placement id + 1, 0 = Tetris).
    if (placements.placements.length > 254)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${placements.placements.length} placements do not fit the kernel's one-byte move codes`,
      );
    // Over folded leaf rows the kernel indexes surfaces by their mirror-pair index (src/stacking/folded-rows.ts):
    // its placement records and step lookup carry those shares; the placements themselves are the same.
    const [recordsPtr, fitPtr, stepsPtr, startPtr] = constantBlocks(
      image,
      `placements ${table.width}x${table.maxStep}`,
      () => {
        const indexed = image.mirrorPair
          ? placementTable(table.width, table.maxStep, image.mirrorPair.share)
          : placements;
        return [indexed.records, placements.fit, indexed.steps, placements.start];
      },
    );
    const owned: OwnedBlocks = { free: image.free, blocks: [], released: false };
    const cfg = kernel.alloc(CFG_WORDS * 4);
    owned.blocks.push({ ptr: cfg, bytes: CFG_WORDS * 4 });
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
    words[CFG_STRATEGY] = [STRATEGY_RANK, STRATEGY_EXPECT, STRATEGY_EXPECT2][unknownPieces];
    words[CFG_PIECE_MAX] = rowsPtr;
    words[CFG_ROWS_FOLD] = image.foldPtr;
    words[CFG_FIT] = fitPtr;
    words[CFG_STEPS] = stepsPtr;
    words[CFG_COLLAPSE] = rules.steep === 'collapse' ? 1 : 0;
    if (well) {
      const { window, factor } = well;
      [words[CFG_WELL_WINDOW]] = constantBlocks(image, window, () => [window.reached]);
      words[CFG_WELL_COMBOS] = window.reached.length;
      words[CFG_WELL_FACTOR] = Math.round(factor * 65536);
    }
    if (reach) {
      const [recordsAt, boxesAt] = constantBlocks(image, reach, () => [reach.records, reach.boxes]);
      const view = new Int32Array(memory.buffer, cfg, CFG_WORDS);
      view[CFG_REACH] = recordsAt;
      view[CFG_REACH_BOXES] = boxesAt;
    }
    return new StackingEngine(
      kernel,
      memory,
      module,
      cfg,
      table.width,
      rules,
      scale,
      placements,
      unknownPieces,
      undefined,
      reach,
      owned,
    );
  }

  /** A fresh search context (for a game or a worker), given back by release(). */
  allocContext(): number {
    return this.allocOwned(CTX_WORDS * 4);
  }

  /**
   * Searches from `heights` with the queue of piece ids; `lookahead` pieces after queue[0] are known. `weights`:
   * distributionWeights (one unknown piece, or none) or pairWeights (two) of the unknown pieces after the queue.
   * `boardHeight` (at most the rules') lowers the board for this search: the game AI stacks over buried rows.
   * `hold` (rule sets with hold): the piece in the hold box (null: empty) and the first depth at which the search may
   * press hold (every ply from there: the held piece, or the piece after the current one into an empty box); the
   * whole queue (up to MAX_DEPTH pieces) is then known to the search. Without it the search never holds.
   */
  search(
    heights: readonly number[],
    queue: readonly number[],
    lookahead: number,
    weights?: Int32Array,
    boardHeight: number = this.rules.boardHeight,
    hold?: SearchHold,
  ): SearchOutcome {
    weights ??= this.unknownPieces === 2 ? UNIFORM_PAIRS : UNIFORM;
    const weightCount = this.unknownPieces === 2 ? WEIGHT_WORDS_EXPECT2 : WEIGHT_WORDS_EXPECT;
    if (weights.length !== weightCount) {
      const maker = weightCount === WEIGHT_WORDS_EXPECT ? 'distributionWeights' : 'pairWeights';
      throw new StackRankError(
        'BAD_ARGUMENT',
        `a search over ${this.unknownPieces} unknown piece(s) takes ${weightCount} weights (${maker}); got ${weights.length}`,
      );
    }
    if (lookahead + 1 > MAX_DEPTH) throw new StackRankError('BAD_ARGUMENT', `lookahead is at most ${MAX_DEPTH - 1}`);
    // Plain loops: TypedArray.set from a JS array, subarray and Array.from each cost more than this whole
    // wrapper at lookahead 0.
    const { words, bytes } = this.views();
    const heightsWord = this.heightsPtr >> 2;
    for (let i = 0; i < this.width; i++) words[heightsWord + i] = heights[i];
    const known = hold ? Math.min(queue.length, MAX_DEPTH) : lookahead + 1;
    for (let i = 0; i < known; i++) bytes[this.queuePtr + i] = queue[i];
    if (boardHeight !== this.rules.boardHeight)
      requireInt('boardHeight', boardHeight, MIN_BOARD_HEIGHT, this.rules.boardHeight);
    words[(this.cfg >> 2) + CFG_BOARD_HEIGHT] = boardHeight;
    const ctxWord = this.ctx >> 2;
    words[ctxWord + CTX_HOLD] = !hold ? HOLD_NONE : hold.piece === null ? HOLD_EMPTY : hold.piece + 1;
    words[ctxWord + CTX_HOLD_FROM] = hold?.fromDepth ?? 0;
    words[ctxWord + CTX_QUEUE_LENGTH] = known;
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

/**
 * Blocks of `image` holding `arrays` (read-only to the kernel), written once per image and key and shared by every
 * engine over it; their addresses in the arrays' order. A reach table is its own key: reachTable keeps one per
 * process and request (src/stacking/reach.ts).
 */
function constantBlocks(
  image: SearchImage,
  key: string | object,
  arrays: () => readonly (Int32Array | BigUint64Array | Uint8Array)[],
): number[] {
  const known = image.constants.get(key);
  if (known) return known;
  const ptrs = arrays().map((a) => {
    // An empty array still gets a block of 8 bytes: the kernel is given its address.
    const ptr = image.alloc(Math.max(8, a.byteLength));
    if (a instanceof BigUint64Array) new BigUint64Array(image.memory.buffer, ptr, a.length).set(a);
    else if (a instanceof Uint8Array) new Uint8Array(image.memory.buffer, ptr, a.length).set(a);
    else new Int32Array(image.memory.buffer, ptr, a.length).set(a);
    return ptr;
  });
  image.constants.set(key, ptrs);
  return ptrs;
}

/**
 * create's `blockedWell` checked: its factor, and its window of surfaces for this table's shape (found in slices the
 * first time in a process, with the event loop run between them).
 */
async function checkedBlockedWell(
  blockedWell: { ruleSet: StackingRuleSet; factor: number },
  table: RankTable,
  opts: { signal?: AbortSignal; onProgress?: SetupReport },
): Promise<{ window: WellWindow; factor: number }> {
  const { factor } = blockedWell;
  if (typeof factor !== 'number' || !(factor >= 0 && factor <= 1))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `blockedWell.factor must be a number from 0 to 1; got ${describe(factor)}`,
    );
  const { onProgress: report, signal } = opts;
  const window = await wellWindow20GSliced(blockedWell.ruleSet, table.width, table.maxStep, {
    signal,
    abortMessage: "the search's setup was aborted",
    onFraction: report && ((fraction) => report({ stage: 'reach', fraction })),
  });
  return { window, factor };
}
