/**
 * Rules of the stacking game (docs/rules.md, "The stacking game") that the search and the simulator share, with their checks:
 * the `stacking` option of StackingAI and simulateStacking (`rules` there is the real game's rule set, src/stacking-ai/reach.ts).
 */
import { StackRankError, describe, fieldsOnce, firstUnknownKey, requireInt } from '../errors.js';
import { TETRIS_ROWS } from '../kernels/search-format.js';

/** Rows an I clears down the well: it needs the lowest column at least this high (assembly/search/layout.ts). */
export { TETRIS_ROWS };

export type SteepRule = 'truncate' | 'excessFirst' | 'collapse';
export const STEEP_RULES: readonly SteepRule[] = Object.freeze(['truncate', 'excessFirst', 'collapse']);
/** 'forced': an I goes down the well exactly when the Tetris rule fires (the stacking article). 'choice': it may also go
 * down whenever the lowest column is at least TETRIS_ROWS, if the search prefers that; it must when the rule fires. */
export type TetrisRule = 'forced' | 'choice';
export const TETRIS_RULES: readonly TetrisRule[] = ['forced', 'choice'];
/** Board heights the search takes (it packs heights in 6 bits); the Tetris threshold lies in the same range. */
export const MIN_BOARD_HEIGHT = 4;
export const MAX_BOARD_HEIGHT = 63;

export interface StackingSettings {
  /** Rows of the board; a placement whose top passes it is illegal. */
  boardHeight: number;
  /** An I is sent down the well (all heights fall by TETRIS_ROWS) when the lowest column is >= TETRIS_ROWS and the
   * highest >= this (tetrisOptions). */
  tetrisThreshold: number;
  /** How surfaces with steps steeper than ±S compare: 'truncate' ranks them with the steps clamped (the stacking article);
   * 'excessFirst' prefers less total steepness beyond ±S first, then rank; 'collapse' keeps no steep step at all:
   * after every move a step steeper than ±S becomes ±S (the game's state is the truncated surface, as in a
   * surface-only simulator; the lowest column keeps its height). */
  steep: SteepRule;
  tetris: TetrisRule;
}

/** The article's rules as we read them (the 2009 PageRank stacking article): 20 rows, forced Tetris at 8, steep steps truncated. */
export const ARTICLE_STACKING: Readonly<StackingSettings> = Object.freeze({
  boardHeight: 20,
  tetrisThreshold: 8,
  steep: 'truncate',
  tetris: 'forced',
});

/** Our default rules: the stacking article's board and Tetris rule, with the steep rule that measured stronger (bench/notes/results.md). */
export const DEFAULT_STACKING: Readonly<StackingSettings> = Object.freeze({
  boardHeight: 20,
  tetrisThreshold: 8,
  steep: 'excessFirst',
  tetris: 'forced',
});

export const STACKING_PRESETS = { article: ARTICLE_STACKING, default: DEFAULT_STACKING } as const;

export function resolveStacking(
  rules: Partial<StackingSettings> | 'article' | 'default' | undefined,
): StackingSettings {
  if (rules === undefined) return { ...DEFAULT_STACKING };
  if (typeof rules === 'string') {
    const preset = Object.hasOwn(STACKING_PRESETS, rules)
      ? STACKING_PRESETS[rules as keyof typeof STACKING_PRESETS]
      : undefined;
    if (!preset)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `unknown stacking preset ${describe(rules)}; presets are ${Object.keys(STACKING_PRESETS).join(', ')}`,
      );
    return { ...preset };
  }
  if (typeof rules !== 'object' || rules === null)
    throw new StackRankError('BAD_ARGUMENT', 'stacking must be an object or a preset name (article, default)');
  const known = ['boardHeight', 'tetrisThreshold', 'steep', 'tetris'];
  const given = fieldsOnce('stacking', rules, known);
  const unknown = firstUnknownKey(given, known);
  if (unknown !== undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `unknown rule ${describe(unknown)} in stacking; its rules are ${known.join(', ')}`,
    );
  const merged = { ...DEFAULT_STACKING, ...given } as StackingSettings;
  requireInt('stacking.boardHeight', merged.boardHeight, MIN_BOARD_HEIGHT, MAX_BOARD_HEIGHT);
  requireInt('stacking.tetrisThreshold', merged.tetrisThreshold, MIN_BOARD_HEIGHT, merged.boardHeight);
  if (!STEEP_RULES.includes(merged.steep)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `stacking.steep must be one of ${STEEP_RULES.map((r) => `"${r}"`).join(', ')}; got ${describe(merged.steep)}`,
    );
  }
  if (merged.tetris !== 'forced' && merged.tetris !== 'choice') {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `stacking.tetris must be "forced" or "choice"; got ${describe(merged.tetris)}`,
    );
  }
  return merged;
}

/**
 * The Tetris rule (docs/rules.md), TypeScript's one copy (the kernel's is assembly/search/rules.ts tetrisChoiceOf):
 * what an I may do on a stack of these heights. 'forced': only go down the well (the lowest column is at least
 * TETRIS_ROWS and the highest at least `tetrisThreshold`); 'optional': either (rules.tetris 'choice', lowest column
 * at least TETRIS_ROWS); 'none': only be placed.
 */
export function tetrisOptions(
  heights: readonly number[],
  rules: Pick<StackingSettings, 'tetrisThreshold' | 'tetris'>,
): 'none' | 'optional' | 'forced' {
  let low = Infinity;
  let high = -Infinity;
  for (const h of heights) {
    low = Math.min(low, h);
    high = Math.max(high, h);
  }
  if (!(low >= TETRIS_ROWS)) return 'none';
  if (high >= rules.tetrisThreshold) return 'forced';
  return rules.tetris === 'choice' ? 'optional' : 'none';
}
