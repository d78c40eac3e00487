/**
 * The search kernel (assembly/search.ts): search(surface, queue) -> the best sequence of placements and its value.
 * An engine is one instance of the kernel over a search image (./search-image.ts: the table's ranks or leaf rows,
 * shared by every engine over the table) holding the stacking game's settings, the placement records and the rule set's
 * reach records. StackingAI and the game AI search with one on their thread; the simulator's games and playGame's
 * worker threads run engines attached to its shared memory.
 */
import { StackRankError, describe } from '../errors.js';
import { requireRankTable, type RankTable } from '../rank/table.js';
import { placementTable, type PlacementTable } from '../stacking-ai/placements.js';
import { type ReachTable, type WellWindow, wellWindow20GSliced } from '../stacking-ai/reach.js';
import { cachedReachTable } from '../stacking-ai/reach-cache.js';
import type { StackingSettings } from '../stacking-ai/rules.js';
import { checkNextPieceValues, type NextPieceValues } from '../stacking-ai/strategy.js';
import type { UnknownPieces } from './search-format.js';
import { distributionWeights, pairWeights, placementRecords } from './search-format.js';
import { searchImage, type LeafRowsSource, type SearchImage } from './search-image.js';
import { attachKernel, instantiateOver } from './wasm.js';
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
  MAX_DEPTH,
  STRATEGY_EXPECT,
  STRATEGY_EXPECT2,
  STRATEGY_RANK,
  TETRIS_MODE_CHOICE,
  TETRIS_MODE_FORCED,
  VALUE_DEPTH_SHIFT,
  VALUE_EXCESS_SHIFT,
} from '../../assembly/search/layout.js';
import { MOVE_NONE } from './search-format.js';
import type { RuleSet } from '../rules/rule-sets.js';
import type { RuleSetName } from '../rules/types.js';
import type { SetupReport } from '../setup-progress.js';

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
  stacking: StackingSettings;
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
  /**
   * The kernel's order of the best sequence, exact in a double: depth · 2^48 + (0xffff − its steepness beyond ±S,
   * under the excessFirst rule; else 0) · 2^32 + leafScore. Sequences compare by it as the kernel compares them.
   */
  order: number;
  nodes: number;
}

const TWO_32 = 2 ** 32;
const TWO_48 = 2 ** 48;
/** The bits of the value's high word under its depth byte: (0xffff − excess) << VALUE_EXCESS_SHIFT. */
const EXCESS_FIELD = (1 << (VALUE_DEPTH_SHIFT - 32)) - 1;

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
    readonly stacking: StackingSettings,
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

  /** The max step of the table this engine searches. */
  get maxStep(): number {
    return new Int32Array(this.memory.buffer, this.cfg, CFG_WORDS)[CFG_MAX_STEP];
  }

  /**
   * The table's value of surface `index` as the search reads it (u16; rank = value × rankScale), from the image's
   * ranks: for an engine whose image holds them (create's `ranks`, or the rank strategy).
   */
  rankValue(index: number): number {
    if (!this.ranksView || this.ranksView.buffer !== this.memory.buffer) {
      const cfg = new Int32Array(this.memory.buffer, this.cfg, CFG_WORDS);
      if (cfg[CFG_TABLE] === 0) throw new Error('the search image of this engine holds no ranks');
      this.ranksView = new Uint16Array(this.memory.buffer, cfg[CFG_TABLE]);
    }
    return this.ranksView[index];
  }
  private ranksView?: Uint16Array;

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
      stacking: this.stacking,
      rankScale: this.rankScale,
      unknownPieces: this.unknownPieces,
    };
  }

  /** An engine over parts() made on another thread: its own kernel instance, no allocation (the owner did it). */
  static attach(parts: EngineParts): StackingEngine {
    const kernel = {
      ...attachKernel<SearchKernel>(parts.module, parts.memory),
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
      parts.stacking,
      parts.rankScale,
      placementTable(parts.width),
      parts.unknownPieces,
      parts,
    );
  }

  static async create(
    table: RankTable,
    stacking: StackingSettings,
    opts: {
      shared?: boolean;
      unknownPieces?: UnknownPieces;
      leafValues?: NextPieceValues;
      ruleSet?: RuleSetName | RuleSet;
      /**
       * Scores a leaf surface that keeps the I from a right-hand well under this 20G rule set at `factor` (0..1) of
       * its score (TetrisAI at 20G: docs/game.md, "The policy"; the surfaces: reach.ts wellWindow20G). The leaf rows
       * are then kept one per surface (not folded), since a surface and its mirror image differ in this.
       */
      blockedWell?: { ruleSet: RuleSetName | RuleSet; factor: number };
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
    // The rule set's reach records (src/stacking-ai/reach.ts), before any kernel memory is touched: from the disk
    // cache in Node (src/stacking-ai/reach-cache.ts), else derived.
    const placements = placementTable(table.width);
    const { table: reach } = await cachedReachTable(
      opts.ruleSet ?? 'classic',
      table.width,
      table.maxStep,
      stacking.boardHeight,
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
    // and rows live once per process in a shared search image (src/kernels/search-image.ts); this engine gets its
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
    const kernel = { ...(await instantiateOver<SearchKernel>(module, memory)), alloc: image.alloc };
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
    // Over folded leaf rows the kernel indexes surfaces by their mirror-pair index (src/kernels/search-folded-rows.ts):
    // its placement records and step lookup carry those shares; the placements themselves are the same.
    const [recordsPtr, fitPtr, stepsPtr, startPtr] = constantBlocks(
      image,
      `placements ${table.width}x${table.maxStep}`,
      () => {
        const { records, fit, steps } = placementRecords(table.width, table.maxStep, image.mirrorPair?.share);
        return [records, fit, steps, placements.start];
      },
    );
    const owned: OwnedBlocks = { free: image.free, blocks: [], released: false };
    const cfg = kernel.alloc(CFG_WORDS * 4);
    owned.blocks.push({ ptr: cfg, bytes: CFG_WORDS * 4 });
    const words = new Int32Array(memory.buffer, cfg, CFG_WORDS);
    writeConfig(words, table, stacking, unknownPieces, {
      table: tablePtr,
      placements: recordsPtr,
      pieceStart: startPtr,
      leafRows: rowsPtr,
      rowsFold: image.foldPtr,
      fit: fitPtr,
      steps: stepsPtr,
    });
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
      stacking,
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
   * `boardHeight` (at most the settings') lowers the board for this search: the game AI stacks over buried rows.
   * `hold` (rule sets with hold): the piece in the hold box (null: empty) and the first depth at which the search may
   * press hold (every ply from there: the held piece, or the piece after the current one into an empty box); the
   * whole queue (up to MAX_DEPTH pieces) is then known to the search. Without it the search never holds.
   * The arguments are the callers' checked ones (StackingAI's and TetrisAI's public calls check them once): the
   * lookahead at most MAX_LOOKAHEAD, weights of this engine's unknown pieces, a board height from MIN_BOARD_HEIGHT
   * to the settings'.
   */
  search(
    heights: readonly number[],
    queue: readonly number[],
    lookahead: number,
    weights?: Int32Array,
    boardHeight: number = this.stacking.boardHeight,
    hold?: SearchHold,
  ): SearchOutcome {
    weights ??= this.unknownPieces === 2 ? UNIFORM_PAIRS : UNIFORM;
    // Plain loops: TypedArray.set from a JS array, subarray and Array.from each cost more than this whole
    // wrapper at lookahead 0.
    const { words, bytes } = this.views();
    const heightsWord = this.heightsPtr >> 2;
    for (let i = 0; i < this.width; i++) words[heightsWord + i] = heights[i];
    const known = hold ? Math.min(queue.length, MAX_DEPTH) : lookahead + 1;
    for (let i = 0; i < known; i++) bytes[this.queuePtr + i] = queue[i];
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
    const depth = valueHigh >> (VALUE_DEPTH_SHIFT - 32);
    const excessField = (valueHigh & EXCESS_FIELD) >>> (VALUE_EXCESS_SHIFT - 32);
    return {
      move,
      plan,
      depth,
      leafScore: valueLow,
      order: depth * TWO_48 + excessField * TWO_32 + valueLow,
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
 * process and request (src/stacking-ai/reach.ts).
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
  blockedWell: { ruleSet: RuleSetName | RuleSet; factor: number },
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

/** Where the search image holds what the kernel reads: the table, the placement records and the leaf rows. */
interface ConfigPointers {
  table: number;
  placements: number;
  pieceStart: number;
  leafRows: number;
  rowsFold: number;
  fit: number;
  steps: number;
}

/** The engine's config words (assembly/search/layout.ts) for the table's shape, the stacking rules and strategy. */
function writeConfig(
  words: Int32Array,
  table: RankTable,
  stacking: StackingSettings,
  unknownPieces: UnknownPieces,
  at: ConfigPointers,
): void {
  words[CFG_WIDTH] = table.width;
  words[CFG_MAX_STEP] = table.maxStep;
  words[CFG_BOARD_HEIGHT] = stacking.boardHeight;
  words[CFG_TETRIS_THRESHOLD] = stacking.tetrisThreshold;
  words[CFG_EXCESS_FIRST] = stacking.steep === 'excessFirst' ? 1 : 0;
  words[CFG_TABLE] = at.table;
  words[CFG_PLACEMENTS] = at.placements;
  words[CFG_PIECE_START] = at.pieceStart;
  words[CFG_TETRIS_MODE] = stacking.tetris === 'choice' ? TETRIS_MODE_CHOICE : TETRIS_MODE_FORCED;
  words[CFG_STRATEGY] = [STRATEGY_RANK, STRATEGY_EXPECT, STRATEGY_EXPECT2][unknownPieces];
  words[CFG_PIECE_MAX] = at.leafRows;
  words[CFG_ROWS_FOLD] = at.rowsFold;
  words[CFG_FIT] = at.fit;
  words[CFG_STEPS] = at.steps;
  words[CFG_COLLAPSE] = stacking.steep === 'collapse' ? 1 : 0;
}
