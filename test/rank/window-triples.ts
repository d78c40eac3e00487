/**
 * The 20G table's window against the full board (docs/rules.md, "The 20G table"): the (surface, piece, successor)
 * triples the window misses and the ones it adds, counted from the definition on boards the rules layer searches,
 * without src/rank or test/reference. The reference (test/reference/rank-20g-reference.ts) keeps the windowed
 * placements among the full board's, so it cannot find one the window allows and the full board does not; this
 * count searches every window board, so it can.
 */
import { Board, reachablePlacements } from '../../src/rules/index.js';

export const PIECES = ['I', 'O', 'T', 'S', 'Z', 'L', 'J'] as const;
export type Piece = (typeof PIECES)[number];
/** Width of each piece's spawn box under ARS (docs/rules.md: columns 3–6 for the I, 4–5 for the O at W = 9). */
const SPAWN_BOX: Record<Piece, number> = { I: 4, O: 2, T: 3, S: 3, Z: 3, L: 3, J: 3 };
/** Rows of the boards, as the table's (src/rank/moves-20g.ts): the piece appears far above every surface here. */
const ROWS = 40;
/** The lowest surface column stands this high above the well's floor (docs/rules.md). */
const WELL_DEPTH = 4;

/** The columns a piece's spawn box covers on a board `boardWidth` wide: box left edge at ⌊(W + 1 − box) / 2⌋. */
export function spawnColumns(piece: Piece, boardWidth: number): [number, number] {
  const left = Math.floor((boardWidth - SPAWN_BOX[piece]) / 2);
  return [left, left + SPAWN_BOX[piece] - 1];
}

type Cells = (readonly [number, number])[];

/** A triple one board has and the other lacks: the piece, and whether its placement stands upright (3+ rows). */
export interface Triple {
  piece: Piece;
  upright: boolean;
}

/**
 * Every surface of `width` columns with steps within ±maxStep and every piece: the successors reached on the full
 * board (every column open, the well on the right) and those reached under the window (a placement counts only when
 * the board walled outside the columns from the spawn box to the placement, the well open when that range reaches
 * the last surface column, reaches it too). Successors come from hole-free placements inside the surface whose steps
 * stay within ±maxStep.
 */
export function windowTriples(width: number, maxStep: number) {
  const boardWidth = width + 1;
  let full = 0;
  let windowed = 0;
  const missed: Triple[] = [];
  const added: Triple[] = [];
  /** The placements the rules layer reaches on the surface `h` with every column outside from..to walled. */
  const reached = (h: readonly number[], piece: Piece, from: number, to: number): Cells[] => {
    const rows = new Array<number>(ROWS).fill(0);
    for (let x = 0; x < boardWidth; x++) {
      const top = x >= from && x <= to ? h[x] : x === width && to === width - 1 ? 0 : ROWS;
      for (let y = 0; y < top; y++) rows[y] |= 1 << x;
    }
    return reachablePlacements(Board.fromBits(rows, boardWidth, ROWS), piece, { rules: 'tgm20g' }).map((p) =>
      p.cells.map(([x, y]) => [x, y] as const),
    );
  };
  const steps = new Array<number>(width - 1).fill(-maxStep);
  for (;;) {
    const raw = [0];
    for (const d of steps) raw.push(raw[raw.length - 1] + d);
    const low = Math.min(...raw);
    const h = raw.map((v) => v - low + WELL_DEPTH);
    /** The successor's steps (as a key) of a placement, or null when it leaves no surface of the table. */
    const successor = (cells: Cells): string | null => {
      if (cells.some(([x]) => x >= width)) return null;
      const bottom = new Map<number, number>();
      const next = h.slice();
      for (const [x, y] of cells) {
        bottom.set(x, Math.min(bottom.get(x) ?? y, y));
        next[x] = Math.max(next[x], y + 1);
      }
      for (const [x, y] of bottom) if (y !== h[x]) return null;
      const nextSteps = next.slice(1).map((v, i) => v - next[i]);
      return nextSteps.every((d) => Math.abs(d) <= maxStep) ? nextSteps.join(',') : null;
    };
    const triple = (piece: Piece, cells: Cells): Triple => {
      const ys = cells.map(([, y]) => y);
      return { piece, upright: Math.max(...ys) - Math.min(...ys) >= 2 };
    };
    for (const piece of PIECES) {
      const [spawnLeft, spawnRight] = spawnColumns(piece, boardWidth);
      const right = Math.min(width - 1, spawnRight);
      const whole = reached(h, piece, 0, width - 1);
      const fullSet = new Map<string, Cells>();
      for (const cells of whole) {
        const t = successor(cells);
        if (t !== null) fullSet.set(t, cells);
      }
      // Each placement has one window: search every window board and keep the placements whose window it is.
      const windowSet = new Map<string, Cells>();
      for (let from = 0; from <= spawnLeft; from++) {
        for (let to = right; to < width; to++) {
          for (const cells of from === 0 && to === width - 1 ? whole : reached(h, piece, from, to)) {
            const xs = cells.map(([x]) => x);
            if (Math.min(spawnLeft, ...xs) !== from || Math.min(width - 1, Math.max(spawnRight, ...xs)) !== to)
              continue;
            const t = successor(cells);
            if (t !== null) windowSet.set(t, cells);
          }
        }
      }
      full += fullSet.size;
      windowed += windowSet.size;
      for (const [t, cells] of fullSet) if (!windowSet.has(t)) missed.push(triple(piece, cells));
      for (const [t, cells] of windowSet) if (!fullSet.has(t)) added.push(triple(piece, cells));
    }
    let i = steps.length - 1;
    while (i >= 0 && steps[i] === maxStep) steps[i--] = -maxStep;
    if (i < 0) break;
    steps[i]++;
  }
  return { full, windowed, missed, added };
}

/** The triples a set of product-set moves covers: their boxes' volumes (disjoint boxes, one successor each). */
export const volume = (moves: { lo: number[]; hi: number[] }[]) =>
  moves.reduce((sum, m) => sum + m.lo.reduce((v, lo, i) => v * (m.hi[i] - lo + 1), 1), 0);
