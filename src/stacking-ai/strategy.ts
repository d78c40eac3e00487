/**
 * How the stacking search scores its leaves (docs/api.md, "Strategies"), checked once where a caller names one,
 * and the leaf values expectimax reads (a preview table, or the rank table's best rank per piece).
 */
import { StackRankError, describe, requireInt } from '../errors.js';
import { LEAF_ROW_SLOTS } from '../kernels/search-format.js';
import type { RankTable } from '../rank/table.js';
import type { UnknownPieces } from '../kernels/search-format.js';

/**
 * How leaves are scored (docs/api.md, "Strategies"): 'rank' (the article: the rank of the final surface) or
 * 'expectimax' (the expected best rank after `unknownPieces` more pieces nobody has seen yet, drawn from the
 * randomizer's exact distribution). With two unknown pieces, a leaf is the expected best one-piece score after the
 * first, the second drawn from the randomizer's distribution given the first.
 */
export type Strategy = 'rank' | 'expectimax';
export const STRATEGIES: readonly Strategy[] = Object.freeze(['rank', 'expectimax']);
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
