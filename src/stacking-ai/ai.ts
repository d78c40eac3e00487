/**
 * StackingAI: the move a game asks for (docs/rules.md, "The stacking game"). Wraps one search-kernel instance holding the rank table.
 *
 *   const ai = await StackingAI.create();                     // cached default table (built on first use)
 *   const move = ai.bestPlacement([0,0,0,0,0,0,0,0,0], 'TSZ', 2);
 *   const tgm = await StackingAI.create({ rules: 'tgm20g' }); // only placements a 20G piece can reach
 */
import {
  StackRankError,
  checkCallback,
  checkSignal,
  optionNames,
  optionsObject,
  refuseUnknownOptions,
  requireInt,
} from '../errors.js';
import { ORIENTATIONS } from '../pieces.js';
import { inNode } from '../node-builtins.js';
import { indexedDbAvailable } from '../rank/idb-cache.js';
import { type SetupProgress, setupReporter } from '../setup-progress.js';
import { classicMove } from '../rules/rotation-systems.js';
import { PASS_A_TABLE_IN_A_BROWSER, requireRankTable, type RankTable } from '../rank/table.js';
import { surfaceFromHeights } from '../surface.js';
import { StackingEngine } from '../kernels/search.js';
import { distributionWeights, pairWeights } from '../kernels/search-format.js';
import { checkStrategy, type NextPieceValues, type Strategy, type StrategyName } from './strategy.js';
import type { UnknownPieces } from '../kernels/search-format.js';
import { checkLookahead, toHeights, toQueue } from './input.js';
import { MOVE_NONE, MOVE_TETRIS } from '../kernels/search-format.js';
import { applyMove, collapseSteps } from './placements.js';
import { checkRuleSet } from './reach.js';
import { rankSurfacePlacements, type SurfacePlacementRanking } from './rank-placements.js';
import { resolveStacking, type StackingSettings } from './rules.js';
import type { BestPlacement, PlanStep } from './surface-move.js';
import type { RuleSet } from '../rules/rule-sets.js';
import type { RuleSetName } from '../rules/types.js';

export interface StackingAIOptions {
  /** A rank table; default: the cached 9x4, 15-iteration table (Node: built and cached on first use). */
  table?: RankTable;
  /** The real game's rule set whose reachable placements the AI may play: a preset name ('classic' = every
   * placement from above, the default; 'nes', 'guideline', 'tgm', 'tgm20g') or a RuleSet (docs/rules.md). */
  rules?: RuleSetName | RuleSet;
  /** The stacking game's own rules (board height, Tetris rule, steep steps) or a preset name ('article' = the
   * article's, 'default'). */
  stacking?: Partial<StackingSettings> | 'article' | 'default';
  /** 'rank' (the article's leaf, default), 'expectimax' (average over the pieces after the known queue) or 'best'
   * (the strongest measured: expectimax over 2 unknown pieces); expectimax needs Node-sized memory for the 9x4
   * table. Rule sets other than classic and guideline play 'rank' only. */
  strategy?: StrategyName;
  /** With 'expectimax': how many unknown pieces after the queue it averages over, 1 (default) or 2. */
  unknownPieces?: 1 | 2;
  /** With 'expectimax': a preview table (buildPreviewTable / loadOrBuildCachedPreviewTable) for the randomizer the
   * games use scores the leaves instead of the rank table's best rank per piece. */
  previewTable?: NextPieceValues;
  /** Cancels the setup (ABORTED): laying out the search's memory takes a quarter of a second the first time a
   * process searches a 9x4 table, about a second with expectimax. */
  signal?: AbortSignal;
  /** Hears the setup's progress: the table loaded or built (and written to the cache), the reach records, the
   * search's memory, then `ready` (SetupProgress; docs/game.md, "Setup: progress, abort and the cache"). */
  onProgress?: (p: SetupProgress) => void;
}

const STACKING_AI_OPTIONS = optionNames<StackingAIOptions>({
  table: true,
  rules: true,
  stacking: true,
  strategy: true,
  unknownPieces: true,
  previewTable: true,
  signal: true,
  onProgress: true,
});

/** bestPlacement's options (the unknown pieces' distributions); rankPlacements takes a `limit` too. */
interface SearchOptions {
  next?: ArrayLike<number>;
  nextPair?: ArrayLike<number>;
}

const SEARCH_OPTIONS = optionNames<SearchOptions>({ next: true, nextPair: true });
const RANK_PLACEMENTS_OPTIONS = optionNames<SearchOptions & { limit?: number }>({
  next: true,
  nextPair: true,
  limit: true,
});

/** A next-piece distribution: 7 non-negative finite numbers (I O T S Z L J) summing to 1. */
export function checkDistribution(dist: unknown): ArrayLike<number> {
  const ok =
    dist !== null &&
    typeof dist === 'object' &&
    (dist as ArrayLike<number>).length === 7 &&
    Array.from(dist as ArrayLike<number>).every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0) &&
    Math.abs(Array.from(dist as ArrayLike<number>).reduce((a, b) => a + b, 0) - 1) < 1e-6;
  if (!ok)
    throw new StackRankError('BAD_ARGUMENT', 'next must be 7 non-negative probabilities (I O T S Z L J) that sum to 1');
  return dist as ArrayLike<number>;
}

/** A pair distribution: 49 non-negative finite numbers, p1 * 7 + p2 = P(p1) P(p2 | p1), summing to 1. */
export function checkPairDistribution(pair: unknown): ArrayLike<number> {
  const values =
    pair !== null && typeof pair === 'object' && (pair as ArrayLike<number>).length === 49
      ? Array.from(pair as ArrayLike<number>)
      : [];
  const ok =
    values.length === 49 &&
    values.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0) &&
    Math.abs(values.reduce((a, b) => a + b, 0) - 1) < 1e-6;
  if (!ok)
    throw new StackRankError(
      'BAD_ARGUMENT',
      'nextPair must be 49 non-negative probabilities (p1 * 7 + p2) that sum to 1',
    );
  return pair as ArrayLike<number>;
}

/** The Tetris is the upright I: orientation 1 of the I in ORIENTATIONS (docs/rules.md, "Pieces"). */
const TETRIS_ORIENTATION = 1;

/** The constructor's first argument from StackingAI.create; a caller's `new StackingAI(...)` is refused. */
const INTERNAL: unique symbol = Symbol('StackingAI');

export class StackingAI {
  private constructor(
    token: typeof INTERNAL,
    readonly table: RankTable,
    readonly stacking: StackingSettings,
    /** The rule set whose reachable placements the AI plays. */
    readonly rules: RuleSet,
    readonly strategy: Strategy,
    /** Unknown pieces after the queue that expectimax averages over; 0 for 'rank'. */
    readonly unknownPieces: UnknownPieces,
    private readonly engine: StackingEngine,
  ) {
    if (token !== INTERNAL)
      throw new StackRankError(
        'BAD_ARGUMENT',
        'StackingAI has no public constructor: use await StackingAI.create(options)',
      );
  }

  static async create(options: StackingAIOptions = {}): Promise<StackingAI> {
    const opts = optionsObject('StackingAI.create', options);
    refuseUnknownOptions('StackingAI.create', opts, STACKING_AI_OPTIONS);
    const stacking = resolveStacking(opts.stacking);
    const ruleSet = checkRuleSet(opts.rules);
    const { strategy, unknownPieces } = checkStrategy(opts.strategy, opts.unknownPieces);
    const signal = checkSignal(opts.signal, 'StackingAI.create: signal');
    let table = opts.table === undefined ? undefined : requireRankTable(opts.table, 'StackingAI.create: table');
    if (opts.previewTable !== undefined && strategy === 'rank')
      throw new StackRankError('BAD_ARGUMENT', 'previewTable needs strategy "expectimax" (or "best")');
    const report = setupReporter(checkCallback('StackingAI.create: onProgress', opts.onProgress));
    if (!table) {
      if (!inNode && !indexedDbAvailable()) {
        throw new StackRankError('BAD_ARGUMENT', PASS_A_TABLE_IN_A_BROWSER);
      }
      const { sharedDefaultTable } = await import('../rank/cache.js');
      table = (await sharedDefaultTable('drop', signal, report)).table;
    }
    if (signal?.aborted) throw new StackRankError('ABORTED', "the AI's setup was aborted");
    const engine = await StackingEngine.create(table, stacking, {
      unknownPieces,
      leafValues: opts.previewTable,
      ruleSet,
      signal,
      onProgress: report,
    });
    const ai = new StackingAI(INTERNAL, table, stacking, ruleSet, strategy, unknownPieces, engine);
    // The AI alone uses its engine: dropped, it gives the engine's blocks back to the table's search image.
    engine.releaseWith(ai);
    report?.({ stage: 'ready', fraction: 1 });
    return ai;
  }

  get width(): number {
    return this.table.width;
  }

  /**
   * The best move for the current piece queue[0] with `lookahead` more pieces known, or null when the current
   * piece has no legal placement (the perfect stack must break). With the expectimax strategy, `next` is the
   * distribution of the first piece after the queue (e.g. a cloned randomizer's distribution(); default uniform);
   * with two unknown pieces, `nextPair` is the distribution of the two pieces after the queue (a cloned randomizer's
   * nextPairDistribution(); default: `next` for both, independently, or uniform).
   */
  bestPlacement(
    surface: readonly number[] | string | object,
    queue: string | readonly string[],
    lookahead = 0,
    options: SearchOptions = {},
  ): BestPlacement | null {
    const { heights, ids, weights } = this.searchInput('bestPlacement', surface, queue, lookahead, options);
    const outcome = this.engine.search(heights, ids, lookahead, weights);
    if (outcome.move === MOVE_NONE) return null;
    // Each step of the plan is placed on the heights the steps before it leave.
    const plan: PlanStep[] = [];
    let now = heights;
    let after = heights;
    for (let i = 0; i < outcome.plan.length; i++) {
      plan.push(this.describeMove(outcome.plan[i], ids[i], now));
      const placed = applyMove(this.engine.placements, now, outcome.plan[i]);
      now = this.stacking.steep === 'collapse' ? collapseSteps(placed, this.table.maxStep) : placed;
      if (i === 0) after = now;
    }
    const surfaceAfter = surfaceFromHeights(after, { maxStep: this.table.maxStep });
    return {
      ...plan[0],
      heights: after,
      steps: surfaceAfter.steps.slice(),
      rank: this.table.rank(surfaceAfter),
      plan,
      survives: outcome.depth,
    };
  }

  /**
   * Every legal placement of the current piece queue[0], valued for a person in expected pieces of perfect-stack
   * survival (the unit of `TetrisAI.rankPlacements` in stack mode): bestPlacement's move first, then the rest by
   * value, each with its `loss` against the first. Each first move is played and the search runs on over the rest
   * of the known window; at lookahead 0 the leaf is the surface's rank whatever the strategy. Empty when the piece
   * has no legal placement. `afterNextPiece`: for the first entry, the expected pieces if each piece came next.
   */
  rankPlacements(
    surface: readonly number[] | string | object,
    queue: string | readonly string[],
    lookahead = 0,
    options: SearchOptions & { limit?: number } = {},
  ): SurfacePlacementRanking {
    const opts = optionsObject('rankPlacements', options, RANK_PLACEMENTS_OPTIONS);
    const { limit: rawLimit, ...searchOptions } = opts;
    const limit = rawLimit === undefined ? Infinity : requireInt('limit', rawLimit, 1, 10000);
    const { heights, ids, weights } = this.searchInput('rankPlacements', surface, queue, lookahead, searchOptions);
    const best = this.engine.search(heights, ids, lookahead, weights);
    return rankSurfacePlacements({
      engine: this.engine,
      table: this.table,
      stacking: this.stacking,
      heights,
      ids,
      lookahead,
      weights,
      bestMove: best.move,
      limit,
      describe: (move, h) => this.describeMove(move, ids[0], h),
    });
  }

  /** bestPlacement's and rankPlacements' input, checked: heights, piece ids, and the unknown pieces' weights. */
  private searchInput(
    caller: string,
    surface: unknown,
    queue: string | readonly string[],
    lookahead: number,
    options: SearchOptions,
  ): { heights: number[]; ids: number[]; weights: Int32Array } {
    const opts = optionsObject(caller, options, SEARCH_OPTIONS);
    const heights = toHeights(surface, this.table.width, this.table.maxStep, this.stacking.boardHeight);
    const ids = toQueue(queue);
    checkLookahead(lookahead, ids.length);
    const next = opts.next === undefined ? undefined : checkDistribution(opts.next);
    let weights: Int32Array;
    if (this.unknownPieces === 2) {
      let pair = opts.nextPair === undefined ? undefined : checkPairDistribution(opts.nextPair);
      if (!pair && next) pair = Array.from({ length: 49 }, (_, k) => next[Math.floor(k / 7)] * next[k % 7]);
      weights = pairWeights(pair);
    } else weights = distributionWeights(next);
    return { heights, ids, weights };
  }

  /** A kernel move code (placement id or MOVE_TETRIS) of piece `pieceId` on `heights`, as a PlanStep. */
  private describeMove(move: number, pieceId: number, heights: readonly number[]): PlanStep {
    if (move === MOVE_TETRIS) {
      const well = this.table.width;
      return {
        ...classicMove(pieceId, TETRIS_ORIENTATION, well, 0),
        orientation: TETRIS_ORIENTATION,
        column: well,
        tetris: true,
      };
    }
    const { piece, orientation, column } = this.engine.placements.placements[move];
    const y = heights[column] - ORIENTATIONS[piece][orientation].bot[0];
    return { ...classicMove(piece, orientation, column, y), orientation, column, tetris: false };
  }
}
