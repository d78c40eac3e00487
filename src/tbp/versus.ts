/**
 * The little of the guideline's versus rules the TBP bot needs (docs/tbp.md, "Messages": combo, back-to-back and spins): the
 * counters `play` carries on, and the spin a suggested T placement makes. Kept apart on purpose: the rules layer's
 * versus rules (T-spins per placement, clear kinds, attack) are to take its place.
 */
import { pieceId } from '../pieces.js';
import { Board } from '../rules/board.js';
import { Mover, type PieceState } from '../rules/reachable.js';
import { RULE_SETS } from '../rules/rule-sets.js';
import { SRS } from '../rules/rotation-systems.js';
import type { Input } from '../rules/types.js';
import { TBP_HEIGHT, TBP_WIDTH, type Spin } from './engine.js';

/** The counters after a lock that cleared `lines` with `spin`, as TBP counts them (docs/tbp.md). */
export function countersAfter(
  before: { readonly combo: number; readonly backToBack: boolean },
  lines: number,
  spin: Spin,
): { combo: number; backToBack: boolean } {
  if (lines === 0) return { combo: 0, backToBack: before.backToBack };
  return { combo: before.combo + 1, backToBack: lines === 4 || spin !== 'none' };
}

/** The T's four corners around its centre (box cell (1, 1)) and, per SRS state, the two on the side it points to. */
const CORNERS = [
  [0, 0],
  [2, 0],
  [0, 2],
  [2, 2],
] as const;
const FRONT: readonly (readonly number[])[] = [
  [2, 3], // 0: points up
  [1, 3], // R: points right
  [0, 1], // 2: points down
  [0, 2], // L: points left
];
/** SRS's fifth kick test (index 4): a T-spin that takes it is full, whatever its corners (the "TST" and "fin" kicks). */
const UPGRADE_KICK = 4;
const T_ID = pieceId('T');

/**
 * The spin of a T placed by `inputs` (from spawn, 'hold' and 'hardDrop' included or not) on `rows`, by the
 * guideline's three-corner rule: the last move is a turn (the hard drop does not move the piece), and three of the
 * four cells diagonal to the T's centre are filled (walls and floor count). Full when both corners the T points to
 * are filled or the turn took SRS's fifth kick test, else mini. Other pieces: 'none'.
 */
export function tSpinOf(rows: ArrayLike<number>, piece: string, inputs: readonly Input[]): Spin {
  if (piece !== 'T') return 'none';
  const mover = new Mover(Board.fromBits(rows, TBP_WIDTH, TBP_HEIGHT), T_ID, RULE_SETS.guideline);
  let p: PieceState = mover.spawn;
  let lastTurn: { from: PieceState } | null = null;
  for (const input of inputs) {
    if (input === 'hold' || input === 'hardDrop') continue;
    const next = mover.apply(p, input);
    if (next === null) continue;
    lastTurn = input === 'cw' || input === 'ccw' ? { from: p } : null;
    p = next;
  }
  if (lastTurn === null || mover.dropY(p.rotation, p.x, p.y) !== p.y) return 'none';
  const filled = (x: number, y: number) =>
    x < 0 || x >= TBP_WIDTH || y < 0 || (y < TBP_HEIGHT && ((rows[y] >> x) & 1) === 1);
  let corners = 0;
  let front = 0;
  CORNERS.forEach(([dx, dy], i) => {
    if (!filled(p.x + dx, p.y + dy)) return;
    corners++;
    if (FRONT[p.rotation].includes(i)) front++;
  });
  if (corners < 3) return 'none';
  const { from } = lastTurn;
  const kick = SRS.kicks(T_ID, from.rotation, p.rotation).findIndex(
    ([kx, ky]) => from.x + kx === p.x && from.y + ky === p.y,
  );
  return front === 2 || kick === UPGRADE_KICK ? 'full' : 'mini';
}
