/**
 * Rank-table moves of the 20G variant: the article's moves (src/rank/moves.ts) kept only on the surfaces where the
 * placement is reachable at 20G from TGM's spawn (rule set `tgm20g`: ARS, initial rotation, the piece resting on
 * the stack after every shift and turn). docs/rules.md ("The 20G table") defines the variant.
 *
 * Reachability is taken from the rules layer itself (`reachablePlacements`, src/rules/reachable.ts), not re-derived.
 * The variant's one restriction (docs/rules.md says why): the piece may use only the columns from its spawn box to
 * the target (the move's "window"), plus the well when the window reaches it; the rest of the board is wall. So
 * legality depends on the window's steps only. Every combination of those steps allowed by the move is searched
 * once on a board holding just those columns, and the combinations where the target placement is reached are
 * packed into product sets: consecutive values of a step whose remaining steps give the same sets are merged into
 * one range. The sets are disjoint, so the kernel's sums and maxima over them are exact.
 */
import { ORIENTATIONS, PIECE_COUNT, orientationCells } from '../pieces.js';
import { Board } from '../rules/board.js';
import { reachablePlacements } from '../rules/reachable.js';
import { RULE_SETS } from '../rules/rule-sets.js';
import { ROTATION_SYSTEMS, shapeKey } from '../rules/rotation-systems.js';
import { packBoxes } from './boxes.js';
import { rankMoves } from './moves.js';
import type { RankMove } from '../kernels/rank-plan.js';

/** The rule set the 20G table follows. */
export const TWENTY_G_RULES = RULE_SETS.tgm20g;
/** Rows of the search board: room for the tallest window (8 steps of 4) under the spawn rows. */
const BOARD_ROWS = 40;
/** How far the lowest surface column stands above the well's floor (deeper wells behave the same). */
export const WELL_DEPTH = 4;

/** Columns the piece's spawn box covers (board `width` columns wide, the well included). */
function spawnColumns(piece: number, boardWidth: number): [number, number] {
  const system = ROTATION_SYSTEMS[TWENTY_G_RULES.rotationSystem];
  const x = system.spawnX(piece, boardWidth);
  return [x, x + system.pieces[piece].spawnBox - 1];
}

const memo = new Map<string, RankMove[]>();

/**
 * The 20G variant's moves on a `width`-column surface with steps of at most ±maxStep; the board is one column
 * wider (the well, on the right), as in the game the table is played in.
 */
export function rankMoves20G(width: number, maxStep: number): RankMove[] {
  const key = `${width}x${maxStep}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const boardWidth = width + 1;
  const out: RankMove[] = [];
  const shapes = ORIENTATIONS.map((os) => os.map((o) => shapeKey(orientationCells(o))));
  // Reach of one board, by (piece, window, steps): several moves share a window.
  const reachCache = new Map<string, Set<string>>();
  const reached = (piece: number, a: number, b: number, steps: number[]): Set<string> => {
    const k = `${piece}:${a}:${b}:${steps.join(',')}`;
    let set = reachCache.get(k);
    if (!set) {
      const heights = [0];
      for (const d of steps) heights.push(heights[heights.length - 1] + d);
      const low = Math.min(...heights);
      const rows = new Array<number>(BOARD_ROWS).fill(0);
      for (let x = 0; x < boardWidth; x++) {
        // The window's columns stand on the well's floor, WELL_DEPTH above it; the well is open when the window
        // reaches it, every other column outside the window is a wall.
        const inWindow = x >= a && x <= b;
        const well = x === width && b === width - 1;
        const h = inWindow ? heights[x - a] - low + WELL_DEPTH : well ? 0 : BOARD_ROWS;
        for (let y = 0; y < h; y++) rows[y] |= 1 << x;
      }
      set = new Set();
      for (const p of reachablePlacements(Board.fromBits(rows, boardWidth, BOARD_ROWS), piece, {
        rules: TWENTY_G_RULES,
      })) {
        const minX = Math.min(...p.cells.map((c) => c[0]));
        const minY = Math.min(...p.cells.map((c) => c[1]));
        set.add(`${shapeKey(p.cells)}@${minX - a},${minY + low - WELL_DEPTH}`);
      }
      reachCache.set(k, set);
    }
    return set;
  };

  for (let piece = 0; piece < PIECE_COUNT; piece++) {
    const [sa, sb] = spawnColumns(piece, boardWidth);
    for (const move of rankMoves(width, maxStep, 'forbid')) {
      if (move.piece !== piece) continue;
      const o = ORIENTATIONS[piece][move.orientation];
      const x = move.column;
      const a = Math.min(sa, x);
      const b = Math.min(width - 1, Math.max(sb, x + o.width - 1));
      // Window steps: digits a .. b-1 (heights of columns a..b). The target's lowest cell sits on column x, at
      // height (heights[x - a] - bot[0]) relative to column a.
      const digits = Array.from({ length: b - a }, (_, i) => a + i);
      const targetShape = shapes[piece][move.orientation];
      const legal = (steps: number[]): boolean => {
        let hx = 0;
        for (let i = a; i < x; i++) hx += steps[i - a];
        return reached(piece, a, b, steps).has(`${targetShape}@${x - a},${hx - o.bot[0]}`);
      };
      const ranges = digits.map((d): [number, number] => [move.lo[d], move.hi[d]]);
      const found = packBoxes(ranges, (values) => legal(values.map((v) => v - maxStep)));
      for (const [lo, hi] of found) {
        const mlo = move.lo.slice();
        const mhi = move.hi.slice();
        digits.forEach((d, i) => {
          mlo[d] = lo[i];
          mhi[d] = hi[i];
        });
        out.push({ ...move, lo: mlo, hi: mhi });
      }
    }
  }
  memo.set(key, out);
  return out;
}
