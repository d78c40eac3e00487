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
import { ORIENTATIONS, PIECE_COUNT } from '../pieces.js';
import { Reacher } from '../rules/reacher.js';
import { RULE_SETS } from '../rules/rule-sets.js';
import { ROTATION_SYSTEMS } from '../rules/rotation-systems.js';
import { type SliceOptions, type Steps, runInSlices, runToEnd } from '../slices.js';
import { surfaceBase } from '../surface.js';
import { packBoxesSteps } from './boxes.js';
import { rankMoves, type RankMove } from './moves.js';

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
 * wider (the well, on the right), as in the game the table is played in. Once per process and shape.
 */
export function rankMoves20G(width: number, maxStep: number): RankMove[] {
  return memo.get(`${width}x${maxStep}`) ?? runToEnd(moves20G(width, maxStep));
}

/**
 * rankMoves20G in slices with the event loop run between them (src/slices.ts): about 0.3 s of work at 9x4,
 * abortable, with the fraction of moves done.
 */
export async function rankMoves20GSliced(
  width: number,
  maxStep: number,
  options: SliceOptions = {},
): Promise<RankMove[]> {
  return memo.get(`${width}x${maxStep}`) ?? runInSlices(moves20G(width, maxStep), options);
}

/** Combinations a move's legality is looked up for between two pauses of moves20G. */
const COMBOS_PER_STEP = 256;

function* moves20G(width: number, maxStep: number): Steps<RankMove[]> {
  const base = surfaceBase(maxStep);
  const boardWidth = width + 1;
  const reacher = new Reacher(TWENTY_G_RULES);
  const rows = new Int32Array(BOARD_ROWS);
  const heights = new Array<number>(boardWidth);
  // The placements reached on each window board, found once: by window (piece, a, b), one entry per combination of
  // the window's steps (a number in base `base`, first step most significant) pointing into `pool`, where a board's
  // placements are its count, then each as (orientation, column and row relative to the window's column a and the
  // surface's height there) packed in one number. Several moves share a window and its boards.
  const windows = new Map<string, Int32Array>();
  let pool = new Int32Array(1 << 16);
  let used = 1; // entry 0 means "not searched yet"
  const search = (piece: number, a: number, b: number, steps: ArrayLike<number>): number => {
    let h = 0;
    let low = 0;
    heights[0] = 0;
    for (let i = 0; i < steps.length; i++) {
      h += steps[i];
      heights[i + 1] = h;
      low = Math.min(low, h);
    }
    // Every column outside the window is a wall, full height; the well is open when the window reaches it. The
    // window's columns stand on the well's floor, WELL_DEPTH above it.
    let walls = 0;
    for (let x = 0; x < boardWidth; x++) if ((x < a || x > b) && !(x === width && b === width - 1)) walls |= 1 << x;
    rows.fill(walls);
    for (let x = a; x <= b; x++) {
      const top = heights[x - a] - low + WELL_DEPTH;
      for (let y = 0; y < top; y++) rows[y] |= 1 << x;
    }
    reacher.search(rows, boardWidth, BOARD_ROWS, piece);
    const { found, count } = reacher.placements;
    if (used + 1 + count > pool.length) {
      const grown = new Int32Array(2 * (used + 1 + count));
      grown.set(pool);
      pool = grown;
    }
    const at = used;
    pool[used++] = count;
    for (let i = 0; i < count; i++)
      pool[used++] = placementCode(found[3 * i], found[3 * i + 1] - a, found[3 * i + 2] + low - WELL_DEPTH);
    return at;
  };
  /** Whether the window board of these steps reaches `target` (a placementCode). */
  const reaches = (
    boards: Int32Array,
    combo: number,
    piece: number,
    a: number,
    b: number,
    steps: number[],
    target: number,
  ) => {
    let at = boards[combo];
    if (at === 0) boards[combo] = at = search(piece, a, b, steps);
    for (let i = at + 1, end = at + 1 + pool[at]; i < end; i++) if (pool[i] === target) return true;
    return false;
  };

  const article = rankMoves(width, maxStep, 'forbid');
  const out: RankMove[] = [];
  let done = 0;
  for (let piece = 0; piece < PIECE_COUNT; piece++) {
    const [sa, sb] = spawnColumns(piece, boardWidth);
    for (const move of article) {
      if (move.piece !== piece) continue;
      const o = ORIENTATIONS[piece][move.orientation];
      const x = move.column;
      const a = Math.min(sa, x);
      const b = Math.min(width - 1, Math.max(sb, x + o.width - 1));
      // Window steps: digits a .. b-1 (heights of columns a..b). The target's lowest cell sits on column x, at
      // height (heights[x - a] - bot[0]) relative to column a.
      const digits = Array.from({ length: b - a }, (_, i) => a + i);
      const ranges = digits.map((d): [number, number] => [move.lo[d], move.hi[d]]);
      // Whether the target is reached, for every combination of the move's digit ranges (first digit most
      // significant), looked up before the boxes are packed so the lookups can pause.
      const sizes = ranges.map(([lo, hi]) => hi - lo + 1);
      const combos = sizes.reduce((n, k) => n * k, 1);
      const legal = new Uint8Array(combos);
      const steps = new Array<number>(digits.length);
      const windowKey = `${piece}:${a}:${b}`;
      let boards = windows.get(windowKey);
      if (!boards) windows.set(windowKey, (boards = new Int32Array(base ** digits.length)));
      for (let c = 0; c < combos; c++) {
        let combo = 0;
        for (let i = digits.length - 1, rest = c, weight = 1; i >= 0; i--, weight *= base) {
          const digit = ranges[i][0] + (rest % sizes[i]);
          steps[i] = digit - maxStep;
          combo += digit * weight;
          rest = (rest - (rest % sizes[i])) / sizes[i];
        }
        let hx = 0;
        for (let i = a; i < x; i++) hx += steps[i - a];
        const target = placementCode(move.orientation, x - a, hx - o.bot[0]);
        legal[c] = reaches(boards, combo, piece, a, b, steps, target) ? 1 : 0;
        if (c % COMBOS_PER_STEP === COMBOS_PER_STEP - 1) yield done / article.length;
      }
      const found = yield* packBoxesSteps(ranges, (values) => {
        let c = 0;
        for (let i = 0; i < values.length; i++) c = c * sizes[i] + values[i] - ranges[i][0];
        return legal[c] === 1;
      });
      for (const [lo, hi] of found) {
        const mlo = move.lo.slice();
        const mhi = move.hi.slice();
        digits.forEach((d, i) => {
          mlo[d] = lo[i];
          mhi[d] = hi[i];
        });
        out.push({ ...move, lo: mlo, hi: mhi });
      }
      yield ++done / article.length;
    }
  }
  memo.set(`${width}x${maxStep}`, out);
  return out;
}

/** A placement on a window board as one number: library orientation, column and row (each relative). */
function placementCode(orientation: number, x: number, y: number): number {
  return (orientation + 1) * 1048576 + (x + 512) * 1024 + (y + 512);
}
