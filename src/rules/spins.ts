/**
 * Spins (docs/rules.md, "Versus"): which placements a rule set counts as spins, as data both searches read (the
 * TypeScript one in reachable.ts and the kernel's piece tables, written by kernel.ts).
 *
 * The guideline's T-spin rule (`tSpins`): a T locks right after a turn (no shift or fall since) with at least three
 * of the four cells diagonal to its centre filled (walls, the floor and the rows over the matrix count as filled).
 * It is a `full` T-spin when both of those corners on the side the T points to are filled, or when the turn took the
 * rotation system's upgrade kick (SRS: the fifth kick test, the "TST" and "fin" kicks); else a `mini`.
 */
import { PIECES, type Piece } from '../pieces.js';
import type { RotationSystem, RotationSystemName } from './rotation-systems.js';
import type { Cell, Spin } from './types.js';

/**
 * How a rule set recognises spins: `'tSpins'` the guideline's T-spins (three-corner rule, above); `'none'` none.
 * (Rules where other pieces spin too, such as TETR.IO's "all-mini", would be further values with their own test.)
 */
export type SpinRule = 'none' | 'tSpins';
export const SPIN_RULES: readonly SpinRule[] = Object.freeze(['none', 'tSpins']);

interface SpinRuleData {
  /** Pieces that spin by the three-corner rule (each has a centre cell with three neighbours in the piece). */
  readonly threeCorner: readonly Piece[];
  /** Per rotation system: the kick test (index in its list of offsets, 0 = the plain turn) that makes a spin full. */
  readonly upgradeKick: Readonly<Partial<Record<RotationSystemName, number>>>;
}

const SPIN_RULE_DATA: Readonly<Record<SpinRule, SpinRuleData>> = Object.freeze({
  none: { threeCorner: [], upgradeKick: {} },
  // The guideline (Tetris DS onwards; TETR.IO's "T-spins"): T only; SRS's fifth test upgrades a mini.
  tSpins: { threeCorner: ['T'], upgradeKick: { SRS: 4 } },
});

/** Spin levels, ordered: a better spin never sends less or keeps back-to-back less (docs/rules.md, "Versus"). */
export const SPINS: readonly Spin[] = Object.freeze(['none', 'mini', 'full']);

/** What the three-corner test needs of one piece under a rotation system: per state, its corners. */
export interface SpinGeometry {
  /** corners[s]: the four cells diagonal to state s's centre, relative to its reference point, in the order (-1, -1)
   * (+1, -1) (-1, +1) (+1, +1) from the centre (the kernel's, assembly/reachable/layout.ts). */
  readonly corners: readonly (readonly Cell[])[];
  /** front[s]: bit i set when corners[s][i] lies on the side the piece points to (two bits per state). */
  readonly front: readonly number[];
  /** The kick test index that makes a spin full (SRS: 4), or -1. */
  readonly upgradeKick: number;
}

const geometryCache = new Map<string, SpinGeometry | null>();

/**
 * The three-corner geometry of a piece under a spin rule and rotation system, or null when the piece does not spin
 * under that rule. Derived from the piece's cells: the centre is the cell with three neighbours in the piece, the
 * piece points away from its missing neighbour.
 */
export function spinGeometry(rule: SpinRule, system: RotationSystem, pieceId: number): SpinGeometry | null {
  const key = `${rule}:${system.name}:${pieceId}`;
  const cached = geometryCache.get(key);
  if (cached !== undefined) return cached;
  const data = SPIN_RULE_DATA[rule];
  let g: SpinGeometry | null = null;
  if (data.threeCorner.includes(PIECES[pieceId])) {
    const corners: Cell[][] = [];
    const front: number[] = [];
    for (const cells of system.pieces[pieceId].cells) {
      const has = (x: number, y: number) => cells.some((c) => c[0] === x && c[1] === y);
      const centre = cells.find(
        ([x, y]) => [has(x - 1, y), has(x + 1, y), has(x, y - 1), has(x, y + 1)].filter(Boolean).length === 3,
      );
      if (!centre) throw new Error(`${PIECES[pieceId]} has no centre cell under ${system.name}`);
      const [cx, cy] = centre;
      // The pointing side: the direction of the centre's one neighbour with no opposite neighbour.
      const px = has(cx + 1, cy) && !has(cx - 1, cy) ? 1 : has(cx - 1, cy) && !has(cx + 1, cy) ? -1 : 0;
      const py = has(cx, cy + 1) && !has(cx, cy - 1) ? 1 : has(cx, cy - 1) && !has(cx, cy + 1) ? -1 : 0;
      const around: Cell[] = [
        [cx - 1, cy - 1],
        [cx + 1, cy - 1],
        [cx - 1, cy + 1],
        [cx + 1, cy + 1],
      ];
      corners.push(around);
      let mask = 0;
      around.forEach(([x, y], i) => {
        if ((px !== 0 && x - cx === px) || (py !== 0 && y - cy === py)) mask |= 1 << i;
      });
      front.push(mask);
    }
    g = Object.freeze({ corners, front, upgradeKick: data.upgradeKick[system.name] ?? -1 });
  }
  geometryCache.set(key, g);
  return g;
}

/**
 * The spin of a piece that locks in state `s` at (x, y) right after a turn that took kick test `kick` (0 = the plain
 * turn), by the three-corner rule; `filled` answers for any cell, walls, floor and the rows over the field included.
 * The caller checks that the turn was the last move (the piece rests where it turned).
 */
export function threeCornerSpin(
  g: SpinGeometry,
  s: number,
  x: number,
  y: number,
  kick: number,
  filled: (x: number, y: number) => boolean,
): Spin {
  let corners = 0;
  let front = 0;
  g.corners[s].forEach(([dx, dy], i) => {
    if (!filled(x + dx, y + dy)) return;
    corners++;
    if ((g.front[s] >> i) & 1) front++;
  });
  if (corners < 3) return 'none';
  return front === 2 || kick === g.upgradeKick ? 'full' : 'mini';
}
