/**
 * Reference of the 20G rank table, independent of src/rank: for every surface and piece it builds the whole board
 * (surface columns standing on a deep, empty well column at the right), asks the rules layer's
 * `reachablePlacements` under `tgm20g` for every placement (with `window`, the variant's definition: again on the
 * board walled outside the columns from the spawn box to the placement, keeping it only if still reached), keeps the hole-free ones inside the surface whose steps
 * stay within ±S, and iterates the article's recurrence r_{k+1}(s) = mean over pieces of the best successor's r_k
 * (0 without one). Test-only; values are f64.
 */
import { ORIENTATIONS, orientationCells } from '../../src/pieces.js';
import { Board } from '../../src/rules/board.js';
import { reachablePlacements } from '../../src/rules/reachable.js';
import { ARS } from '../../src/rules/rotation-systems.js';
import { referenceIndex, referenceSteps } from './rank-reference.js';

const BOARD_ROWS = 40;
/** The lowest surface column stands this high, so the well beside it is deep. */
const WELL_DEPTH = 4;

function shape(cells: readonly (readonly [number, number])[]): string {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells
    .map(([x, y]) => `${x - mx},${y - my}`)
    .sort()
    .join(' ');
}

/** The board of a surface: its columns on a well WELL_DEPTH deep; columns outside [from, to] walled up to the top. */
function boardOf(h: number[], width: number, from = 0, to = width - 1): Board {
  const rows = new Array<number>(BOARD_ROWS).fill(0);
  for (let x = 0; x <= width; x++) {
    const height = x >= from && x <= to ? h[x] : x === width && to === width - 1 ? 0 : BOARD_ROWS;
    for (let y = 0; y < height; y++) rows[y] |= 1 << x;
  }
  return Board.fromBits(rows, width + 1, BOARD_ROWS);
}

/**
 * Surface indices reachable from `index` by one 20G placement of `piece` (hole-free, steps within ±S). With
 * `window`, the variant's restriction: each target is searched on the board with every column outside the range
 * from the piece's spawn box to the target walled (the well stays open when the range reaches it).
 */
export function reference20GSuccessors(
  index: number,
  piece: number,
  width: number,
  maxStep: number,
  window = true,
): number[] {
  const steps = referenceSteps(index, width, maxStep);
  const heights = [0];
  for (const d of steps) heights.push(heights[heights.length - 1] + d);
  const low = Math.min(...heights);
  const h = heights.map((v) => v - low + WELL_DEPTH);
  const shapes = ORIENTATIONS[piece].map((o) => shape(orientationCells(o)));
  const spawnLeft = ARS.spawnX(piece, width + 1);
  const spawnRight = spawnLeft + ARS.pieces[piece].spawnBox - 1;
  const reached = (from: number, to: number) =>
    reachablePlacements(boardOf(h, width, from, to), piece, { rules: 'tgm20g' });
  const found = window
    ? reached(0, width - 1).filter((p) => {
        const xs = p.cells.map((c) => c[0]);
        const from = Math.min(spawnLeft, ...xs);
        const to = Math.min(width - 1, Math.max(spawnRight, ...xs));
        return reached(from, to).some(
          (q) =>
            shape(q.cells) === shape(p.cells) &&
            q.cells.every((c, i) => c[0] === p.cells[i][0] && c[1] === p.cells[i][1]),
        );
      })
    : reached(0, width - 1);
  const out = new Set<number>();
  for (const p of found) {
    if (p.cells.some(([x]) => x >= width)) continue;
    const next = h.slice();
    let holeFree = true;
    const columns = new Map<number, number[]>();
    for (const [x, y] of p.cells) columns.set(x, [...(columns.get(x) ?? []), y]);
    for (const [x, ys] of columns) {
      if (Math.min(...ys) !== h[x]) holeFree = false;
      next[x] = Math.max(...ys) + 1;
    }
    if (!holeFree || !shapes.includes(shape(p.cells))) continue;
    const nextSteps = next.slice(1).map((v, i) => v - next[i]);
    if (nextSteps.every((d) => Math.abs(d) <= maxStep)) out.add(referenceIndex(nextSteps, maxStep));
  }
  return [...out];
}

export function reference20GRanks(width: number, maxStep: number, iterations: number, window = true): Float64Array {
  const size = (2 * maxStep + 1) ** (width - 1);
  const successors: number[][][] = [];
  for (let s = 0; s < size; s++)
    successors.push([0, 1, 2, 3, 4, 5, 6].map((p) => reference20GSuccessors(s, p, width, maxStep, window)));
  let prev = new Float64Array(size).fill(1);
  for (let k = 0; k < iterations; k++) {
    const next = new Float64Array(size);
    for (let s = 0; s < size; s++) {
      let sum = 0;
      for (const succ of successors[s]) sum += succ.reduce((m, t) => Math.max(m, prev[t]), 0) / 7;
      next[s] = sum;
    }
    prev = next;
  }
  return prev;
}
