/**
 * What the game AI needs from the rules layer, in one place: the rule set's facts (hold, previews, field height)
 * and the reachable placements of a piece on bit rows.
 */
import { StackRankError, describe } from '../errors.js';
import { ORIENTATIONS, PIECES, type Piece } from '../pieces.js';
import type { Cell, GamePlacement, Input, RuleSetName } from './../rules/types.js';

export const RULE_SET_NAMES: readonly RuleSetName[] = ['classic', 'nes', 'guideline', 'tgm', 'tgm20g'];

export interface GameRuleFacts {
  name: RuleSetName;
  hold: boolean;
  previews: number;
  /** Rows of the visible field: a piece that ends with a cell above them tops out (docs/game.md). */
  visibleHeight: number;
}

const FACTS: Record<RuleSetName, Omit<GameRuleFacts, 'name'>> = {
  classic: { hold: false, previews: 1, visibleHeight: 20 },
  nes: { hold: false, previews: 1, visibleHeight: 20 },
  guideline: { hold: true, previews: 5, visibleHeight: 20 },
  tgm: { hold: false, previews: 1, visibleHeight: 20 },
  tgm20g: { hold: false, previews: 1, visibleHeight: 20 },
};

export function ruleFacts(name: unknown): GameRuleFacts {
  if (typeof name !== 'string' || !(RULE_SET_NAMES as readonly string[]).includes(name)) {
    throw new StackRankError('BAD_ARGUMENT', `unknown rule set ${describe(name)}; rule sets are ${RULE_SET_NAMES.join(', ')}`);
  }
  return { name: name as RuleSetName, ...FACTS[name as RuleSetName] };
}

/** Reachable placements of `piece` on the bit rows (bottom first) of a `width` × `height` board. */
export function reachableOnRows(rows: Uint32Array, width: number, height: number, piece: Piece, _rules: RuleSetName): GamePlacement[] {
  // Straight drops from above, every orientation and column (the classic rule set).
  const out: GamePlacement[] = [];
  const id = PIECES.indexOf(piece);
  ORIENTATIONS[id].forEach((o, rotation) => {
    for (let x = 0; x + o.width <= width; x++) {
      let y = 0;
      for (let j = 0; j < o.width; j++) {
        let h = 0;
        for (let r = rows.length - 1; r >= 0; r--) if ((rows[r] >> (x + j)) & 1) { h = r + 1; break; }
        y = Math.max(y, h - o.bot[j]);
      }
      if (y + Math.max(...o.top) > height) continue;
      const cells: Cell[] = [];
      for (let j = 0; j < o.width; j++) for (let r = o.bot[j]; r < o.top[j]; r++) cells.push([x + j, y + r]);
      const inputs: Input[] = ['hardDrop'];
      out.push({ piece, rotation: String(rotation), x, y, cells, inputs });
    }
  });
  return out;
}
