/**
 * What the game AI needs from the rules layer (src/rules/), in one place: the rule set's facts (hold, previews)
 * and the reachable placements of a piece on the AI's bit rows.
 */
import { StackRankError, describe } from '../errors.js';
import { PIECES, type Piece } from '../pieces.js';
import { Board } from '../rules/board.js';
import { kernelLandings, kernelPlacements, kernelReach } from '../rules/kernel.js';
import { MAX_PLACEMENTS } from '../rules/layout.js';
import { RULE_SETS, RULE_SET_NAMES, isRuleSetName, type RuleSet } from '../rules/rule-sets.js';
import type { GamePlacement, RuleSetName } from '../rules/types.js';

/** Rows of the visible field: a piece that ends with a cell above them tops out (docs/game.md). */
export const VISIBLE_ROWS = 20;

export interface GameRuleFacts {
  name: RuleSetName;
  hold: boolean;
  previews: number;
  visibleHeight: number;
  ruleSet: RuleSet;
}

export function ruleFacts(name: unknown): GameRuleFacts {
  if (!isRuleSetName(name))
    throw new StackRankError(
      'BAD_RULES',
      `unknown rule set ${describe(name)}; rule sets are ${RULE_SET_NAMES.join(', ')}`,
    );
  const ruleSet = RULE_SETS[name];
  return { name, hold: ruleSet.hold, previews: ruleSet.previews, visibleHeight: VISIBLE_ROWS, ruleSet };
}

/**
 * Reachable placements of `piece` on the bit rows (bottom first) of a `width` × `height` board (the rows above
 * `height` must be empty: they are where the piece appears under the rule set).
 */
export function reachableOnRows(
  rows: Uint32Array,
  width: number,
  height: number,
  piece: Piece,
  rules: GameRuleFacts,
): GamePlacement[] {
  // The rules layer's kernel straight away: reachablePlacements would check the options and copy the rule set on
  // every call (the searches call this thousands of times per move); ruleSet is a checked preset already.
  const pid = PIECES.indexOf(piece);
  return kernelPlacements(
    kernelReach(Board.fromBits(rows.subarray(0, height), width, height), pid, rules.ruleSet),
    pid,
    rules.ruleSet,
  );
}

/** Room reachableLandings needs in its `out` array: 3 numbers per placement. */
export const LANDINGS_WORDS = 3 * MAX_PLACEMENTS;

/**
 * The same placements as reachableOnRows, in the same order, without objects: per placement its state (the index
 * in the rotation system's states of piece `pid`), then x and y, into `out` (LANDINGS_WORDS long). Returns the count.
 */
export function reachableLandings(
  rows: Uint32Array,
  width: number,
  height: number,
  pid: number,
  rules: GameRuleFacts,
  out: Int32Array,
): number {
  const n = kernelReach(Board.fromBits(rows.subarray(0, height), width, height), pid, rules.ruleSet);
  kernelLandings(n, out);
  return n;
}
