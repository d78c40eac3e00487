/**
 * The rules layer's reachable placements on one board as the library's orientations (src/pieces.ts): for the
 * derivations that ask the rules layer about many boards (the 20G table's moves, src/rank/moves-20g.ts; the stacking
 * game's reach records, src/stacking-ai/reach.ts). It reads the reachable kernel's landings as numbers, without making
 * a placement object per answer.
 */
import { ORIENTATIONS, PIECE_COUNT, orientationCells } from '../pieces.js';
import { pieceGeometry, type PieceGeometry } from './geometry.js';
import { LANDINGS_WORDS, reachLandings } from '../kernels/reachable.js';
import { ROTATION_SYSTEMS, shapeKey } from './rotation-systems.js';
import type { RuleSet } from './rule-sets.js';

/** One state of a piece in the rules layer, as the library orientation it has and where its cells start. */
interface StateShape {
  /** Index in ORIENTATIONS[piece]; -1 for a state whose cells are no library orientation. */
  orientation: number;
  dx: number;
  dy: number;
}

function stateShapes(g: PieceGeometry, piece: number): StateShape[] {
  const keys = ORIENTATIONS[piece].map((o) => shapeKey(orientationCells(o)));
  return g.cells.map((cells) => ({
    orientation: keys.indexOf(shapeKey(cells)),
    dx: Math.min(...cells.map((c) => c[0])),
    dy: Math.min(...cells.map((c) => c[1])),
  }));
}

/** Placements the rules layer reaches on one board: each as (orientation, lowest-leftmost column, lowest row). */
export class Reacher {
  private readonly shapes: StateShape[][];
  private readonly landings = new Int32Array(LANDINGS_WORDS);
  private readonly found = new Int32Array(LANDINGS_WORDS);
  private count = 0;

  constructor(readonly ruleSet: RuleSet) {
    const system = ROTATION_SYSTEMS[ruleSet.rotationSystem];
    this.shapes = Array.from({ length: PIECE_COUNT }, (_, p) => stateShapes(pieceGeometry(system, p), p));
  }

  /**
   * Searches the board of bit rows `rows` (bottom first, `height` of them, each within the `width` columns: the
   * callers build them, so they are not checked again), for `piece`.
   */
  search(rows: ArrayLike<number>, width: number, height: number, piece: number): void {
    const n = reachLandings({ rows, width, height }, piece, this.ruleSet, this.landings);
    const shapes = this.shapes[piece];
    for (let i = 0; i < n; i++) {
      const s = shapes[this.landings[3 * i]];
      this.found[3 * i] = s.orientation;
      this.found[3 * i + 1] = this.landings[3 * i + 1] + s.dx;
      this.found[3 * i + 2] = this.landings[3 * i + 2] + s.dy;
    }
    this.count = n;
  }

  /** Whether the last search reached orientation `o` with its lowest-leftmost column at x, lowest row at y. */
  has(o: number, x: number, y: number): boolean {
    for (let i = 0; i < this.count; i++)
      if (this.found[3 * i] === o && this.found[3 * i + 1] === x && this.found[3 * i + 2] === y) return true;
    return false;
  }

  /** The last search's placements as (orientation, x, y) triples, `count` of them (a view valid until the next search). */
  get placements(): { found: Int32Array; count: number } {
    return { found: this.found, count: this.count };
  }
}
