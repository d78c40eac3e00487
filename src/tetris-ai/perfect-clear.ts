/**
 * The perfect-clear finder (docs/game.md, "The versus policy"): an exhaustive depth-first search over the known
 * pieces (the current piece, the hold box, the queue) for a line of placements that empties the board. It places
 * only within a box of `lines` rows (fewer as rows clear), so every line it finds is a perfect clear of that many
 * rows; each piece takes every reachable placement the rules layer finds (SRS kicks, so tucks and spins count), with
 * the guideline's hold (one hold per piece: press it, then place the held piece, or the queue's first when the box
 * is empty). Boxes are tried from the fewest pieces up, so the first line found is a shortest one.
 *
 * Pruning, besides the box: the empty cells of the box must number four per piece still to come, and every region
 * of empty cells of the box (four-connected) must hold a multiple of 4 cells. That last check is exact while no row
 * clears between now and the region's filling; a line that fills a covered region only after the row over it clears
 * is missed (a line found is always a real perfect clear: the finder may miss lines, never invent one; on 2,830 low
 * boards of the versus policy's games it found 864 of the 906 lines a search without the check finds, 70 times
 * faster: bench/notes/versus.md). Failed positions are remembered, so orderings of the same pieces are searched once.
 * Where no filled cell of the box stands over an empty one, a piece's placements are its hard drops, listed here
 * without the reach search (the same placements: nothing overhangs, and the piece moves freely over a low stack).
 */
import { popcount } from '../board-rows.js';
import { PIECES, type Piece } from '../pieces.js';
import { pieceGeometry } from '../rules/geometry.js';
import { ROTATION_SYSTEMS, type RotationSystem } from '../rules/rotation-systems.js';
import type { Cell } from '../rules/types.js';
import { LANDINGS_WORDS, reachableLandings, type GameRuleFacts } from './rules-adapter.js';

/** One placement of a perfect-clear line: whether hold is pressed first, the piece placed and where it rests. */
export interface PerfectClearStep {
  hold: boolean;
  piece: Piece;
  /** The piece's four cells on the board as it stands before this step (rows cleared earlier in the line gone). */
  cells: Cell[];
}

export interface PerfectClearLine {
  steps: PerfectClearStep[];
  /** Rows the line clears in all (the box's height). */
  lines: number;
}

export interface PerfectClearQuery {
  /** Bit rows, bottom first (bit x = column x); rows from `height` up are empty. */
  rows: ArrayLike<number>;
  width: number;
  /** Rows the placements are reached on (the turn's board height). */
  height: number;
  rules: GameRuleFacts;
  current: Piece;
  queue: readonly Piece[];
  hold: Piece | null;
  /** Whether hold may be pressed before the current piece (after it, hold may be pressed once per piece). */
  canHold: boolean;
  /** The tallest box tried (rows). */
  maxLines: number;
  /**
   * Positions the search may visit before it gives up (the answer is then null, as for no line). Default unlimited.
   */
  maxNodes?: number;
  /**
   * Whether the last step may hold the unknown piece after the queue to place the held one: a line of one piece
   * more than the queue alone gives, whatever that piece is. Default true.
   */
  holdUnknown?: boolean;
}

export interface PerfectClearResult {
  line: PerfectClearLine | null;
  /** Positions visited. */
  nodes: number;
  /** True when the search stopped at maxNodes before it had tried every box. */
  gaveUp: boolean;
}

const MAX_STEPS = 8;
/** Open rows over the box the reach search is given (below, reachHeight). */
const REACH_HEADROOM = 4;

/** Per-depth buffers for the kernel's landings: the search walks one list per depth while deeper ones are read. */
const LANDINGS = Array.from({ length: MAX_STEPS + 1 }, () => new Int32Array(LANDINGS_WORDS));

/** Whether every four-connected region of empty cells in rows 0..limit-1 holds a multiple of 4 cells. */
function regionsDivisible(
  rows: Uint32Array,
  width: number,
  limit: number,
  seen: Uint8Array,
  stack: Int32Array,
): boolean {
  const cells = width * limit;
  seen.fill(0, 0, cells);
  for (let start = 0; start < cells; start++) {
    if (seen[start]) continue;
    const sy = (start / width) | 0;
    const sx = start - sy * width;
    if ((rows[sy] >>> sx) & 1) continue;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const c = stack[--top];
      size++;
      const y = (c / width) | 0;
      const x = c - y * width;
      if (x > 0 && !seen[c - 1] && !((rows[y] >>> (x - 1)) & 1)) (seen[c - 1] = 1), (stack[top++] = c - 1);
      if (x < width - 1 && !seen[c + 1] && !((rows[y] >>> (x + 1)) & 1)) (seen[c + 1] = 1), (stack[top++] = c + 1);
      if (y > 0 && !seen[c - width] && !((rows[y - 1] >>> x) & 1)) (seen[c - width] = 1), (stack[top++] = c - width);
      if (y < limit - 1 && !seen[c + width] && !((rows[y + 1] >>> x) & 1))
        (seen[c + width] = 1), (stack[top++] = c + width);
    }
    if (size % 4 !== 0) return false;
  }
  return true;
}

/**
 * The positions a search found no line from: open addressing over three words (the box's rows in two, the pieces
 * and the box in the third), emptied by a new generation. When full it forgets nothing and remembers no more.
 */
class FailedSet {
  private static readonly SLOTS = 1 << 15;
  private readonly keys = new Int32Array(3 * FailedSet.SLOTS);
  private readonly stamp = new Int32Array(FailedSet.SLOTS);
  private generation = 0;
  private count = 0;

  clear(): void {
    this.generation++;
    this.count = 0;
  }

  private slot(lo: number, hi: number, meta: number): number {
    const mask = FailedSet.SLOTS - 1;
    let i = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + meta, 0x85ebca6b)) >>> 17;
    for (;;) {
      i &= mask;
      if (this.stamp[i] !== this.generation) return i;
      const k = 3 * i;
      if (this.keys[k] === lo && this.keys[k + 1] === hi && this.keys[k + 2] === meta) return i;
      i++;
    }
  }

  has(lo: number, hi: number, meta: number): boolean {
    return this.stamp[this.slot(lo, hi, meta)] === this.generation;
  }

  add(lo: number, hi: number, meta: number): void {
    if (this.count >= FailedSet.SLOTS / 2) return;
    const i = this.slot(lo, hi, meta);
    if (this.stamp[i] === this.generation) return;
    this.stamp[i] = this.generation;
    this.keys[3 * i] = lo;
    this.keys[3 * i + 1] = hi;
    this.keys[3 * i + 2] = meta;
    this.count++;
  }
}

const FAILED = new FailedSet();

type PieceCells = readonly (readonly (readonly Cell[])[])[];

/** A rotation system's pieces as the finder reads them: per piece and rotation state its cells, the states whose
 * cells differ in shape from every earlier state's, and each state's row masks (shapeRowMasks). */
interface PieceShapes {
  cells: PieceCells;
  distinct: number[][];
  rowMasks: number[][][];
}

/** Made once per rotation system. */
const SHAPES = new Map<string, PieceShapes>();
function pieceShapes(system: RotationSystem): PieceShapes {
  let shapes = SHAPES.get(system.name);
  if (!shapes) {
    const cells = PIECES.map((_, pid) => pieceGeometry(system, pid).cells);
    shapes = { cells, distinct: distinctStates(cells), rowMasks: shapeRowMasks(cells) };
    SHAPES.set(system.name, shapes);
  }
  return shapes;
}

/** Per piece: the rotation states whose cells differ in shape from every earlier state's. */
function distinctStates(shapes: PieceCells): number[][] {
  return shapes.map((states) => {
    const seen = new Set<string>();
    const keep: number[] = [];
    states.forEach((cells, state) => {
      const mx = Math.min(...cells.map((c) => c[0]));
      const my = Math.min(...cells.map((c) => c[1]));
      const shape = cells
        .map(([x, y]) => (y - my) * 8 + (x - mx))
        .sort((a, b) => a - b)
        .join();
      if (!seen.has(shape)) seen.add(shape), keep.push(state);
    });
    return keep;
  });
}

/** Per piece and rotation state: the lowest dx and dy of its cells, then per row from the lowest its cells as a
 * mask from the lowest dx. */
function shapeRowMasks(shapes: PieceCells): number[][][] {
  return shapes.map((states) =>
    states.map((cells) => {
      const dx0 = Math.min(...cells.map((c) => c[0]));
      const dy0 = Math.min(...cells.map((c) => c[1]));
      const dy1 = Math.max(...cells.map((c) => c[1]));
      const m = [dx0, dy0];
      for (let dy = dy0; dy <= dy1; dy++)
        m.push(cells.reduce((a, [cx, cy]) => (cy === dy ? a | (1 << (cx - dx0)) : a), 0));
      return m;
    }),
  );
}

/** Whether no filled cell of the box's `limit` rows stands over an empty one: then every reachable placement is a
 * hard drop. */
function overhangFree(rows: Uint32Array, limit: number): boolean {
  for (let r = 1; r < limit; r++) if ((rows[r] & ~rows[r - 1]) !== 0) return false;
  return true;
}

/**
 * The hard drops of a piece (its `states`' cells; `distinct`: the states of distinct shapes) on an overhang-free
 * board, one per distinct shape and column, into `out` as the reach kernel writes its landings (state, x, y): the
 * same placements as the kernel's (the piece moves freely over a low stack, and no resting place lies under a filled
 * cell), in another order. `tops`: scratch of `width` columns. Returns how many.
 */
function hardDrops(
  rows: Uint32Array,
  width: number,
  limit: number,
  states: readonly (readonly Cell[])[],
  distinct: readonly number[],
  tops: Int32Array,
  out: Int32Array,
): number {
  for (let c = 0; c < width; c++) {
    let t = 0;
    for (let r = 0; r < limit; r++) if ((rows[r] >>> c) & 1) t = r + 1;
    tops[c] = t;
  }
  let count = 0;
  for (const state of distinct) {
    const cells = states[state];
    let lo = width;
    let hi = -1;
    for (const [dx] of cells) (lo = Math.min(lo, dx)), (hi = Math.max(hi, dx));
    for (let x = -lo; x + hi < width; x++) {
      let y = -1000;
      for (const [dx, dy] of cells) y = Math.max(y, tops[x + dx] - dy);
      out[3 * count] = state;
      out[3 * count + 1] = x;
      out[3 * count + 2] = y;
      count++;
    }
  }
  return count;
}

/** The most rows and columns a box may have (the failed positions' key holds 6 rows of 10 cells). */
export const MAX_PERFECT_CLEAR_ROWS = 6;
const MAX_WIDTH = 10;

/**
 * A shortest perfect-clear line for the position, or null when the known pieces make none within `maxLines` rows
 * (or the search gave up: `gaveUp`). The caller checks its arguments (an internal search of the versus policy and
 * of bench/versus-pc.ts).
 */
export function findPerfectClear(q: PerfectClearQuery): PerfectClearResult {
  const { width, height, rules } = q;
  if (width > MAX_WIDTH || q.maxLines > MAX_PERFECT_CLEAR_ROWS)
    throw new Error(`the perfect-clear finder takes boxes of up to ${MAX_PERFECT_CLEAR_ROWS} rows of ${MAX_WIDTH}`);
  const full = (1 << width) - 1;
  const maxNodes = q.maxNodes ?? Number.POSITIVE_INFINITY;
  const holdUnknown = q.holdUnknown ?? true;
  const hold = rules.hold;
  const seq = [q.current, ...q.queue].slice(0, MAX_STEPS - 1);
  const pids = seq.map((p) => PIECES.indexOf(p));
  const n = pids.length;
  const { cells: shapes, distinct, rowMasks } = pieceShapes(ROTATION_SYSTEMS[rules.ruleSet.rotationSystem]);
  const tops = new Int32Array(width);
  const drops = (rows: Uint32Array, limit: number, pid: number, out: Int32Array) =>
    hardDrops(rows, width, limit, shapes[pid], distinct[pid], tops, out);

  const start = new Uint32Array(height);
  let filled = 0;
  let top = 0;
  for (let y = 0; y < height; y++) {
    start[y] = q.rows[y] ?? 0;
    filled += popcount(start[y]);
    if (start[y] !== 0) top = y + 1;
  }
  const seen = new Uint8Array(width * Math.max(q.maxLines, 1));
  const stack = new Int32Array(width * Math.max(q.maxLines, 1));
  const maxRows = Math.min(Math.max(q.maxLines, top), height);
  // The placements are reached on a board of the box and REACH_HEADROOM open rows over it: a piece finds the same
  // resting places in the box as from the top of the field (every rotation and column is open over the stack), and
  // the reach search walks fewer empty rows.
  const reachHeight = Math.min(height, maxRows + REACH_HEADROOM);
  const boards = Array.from({ length: MAX_STEPS + 1 }, () => new Uint32Array(height));
  const failed = FAILED;
  // The line being tried: per depth the piece, its rotation state, x, y and whether hold was pressed.
  const line = new Int32Array(5 * (MAX_STEPS + 1));
  let nodes = 0;
  let gaveUp = false;
  let length = 0;

  /** Pieces the position (next piece index p, hold box h: -1 empty) may still place. */
  const piecesLeft = (p: number, h: number, canHold: boolean) => {
    if (p >= n) return h >= 0 && hold && canHold && holdUnknown ? 1 : 0;
    const rest = n - p;
    if (h < 0) return rest;
    return hold && holdUnknown ? rest + 1 : rest;
  };

  /** Places piece `pid` in every reachable way within the box; true when a line below empties the board. */
  const tryPiece = (
    rows: Uint32Array,
    cellsFilled: number,
    limit: number,
    depth: number,
    pid: number,
    pressHold: boolean,
    nextP: number,
    nextH: number,
  ): boolean => {
    const out = LANDINGS[depth];
    const count = overhangFree(rows, limit)
      ? drops(rows, limit, pid, out)
      : reachableLandings(rows, width, reachHeight, pid, rules, out);
    const next = boards[depth + 1];
    const masks = rowMasks[pid];
    for (let i = 0; i < count; i++) {
      const m = masks[out[3 * i]];
      const x = out[3 * i + 1] + m[0];
      const y = out[3 * i + 2] + m[1];
      const rowsUsed = m.length - 2;
      if (y < 0 || y + rowsUsed > limit || x < 0) continue;
      // rows over the box stay empty for the reach (a buffer may hold a taller box's rows from another branch)
      for (let r = 0; r < maxRows; r++) next[r] = r < limit ? rows[r] : 0;
      for (let k = 0; k < rowsUsed; k++) next[y + k] |= m[2 + k] << x;
      // clear the full rows of the box (nothing lies over it)
      let w = 0;
      for (let r = 0; r < limit; r++) if (next[r] !== full) next[w++] = next[r];
      const cleared = limit - w;
      for (let r = w; r < limit; r++) next[r] = 0;
      const nowFilled = cellsFilled + 4 - width * cleared;
      line[5 * depth] = pid;
      line[5 * depth + 1] = out[3 * i];
      line[5 * depth + 2] = out[3 * i + 1];
      line[5 * depth + 3] = out[3 * i + 2];
      line[5 * depth + 4] = pressHold ? 1 : 0;
      if (nowFilled === 0) {
        length = depth + 1;
        return true;
      }
      if (search(next, nowFilled, w, depth + 1, nextP, nextH)) return true;
      if (gaveUp) return false;
    }
    return false;
  };

  const search = (rows: Uint32Array, cellsFilled: number, limit: number, depth: number, p: number, h: number) => {
    const need = (limit * width - cellsFilled) / 4;
    const canHoldHere = depth > 0 || q.canHold;
    if (need > piecesLeft(p, h, canHoldHere) || depth >= MAX_STEPS) return false;
    if (!regionsDivisible(rows, width, limit, seen, stack)) return false;
    // the position: the box's rows (at most 6 of 10 columns: two 30-bit words), the pieces and the box
    const lo = rows[0] | (rows[1] << 10) | (rows[2] << 20);
    const hi = rows[3] | (rows[4] << 10) | (rows[5] << 20);
    const meta = p | ((h + 1) << 4) | (limit << 8);
    if (failed.has(lo, hi, meta)) return false;
    if (++nodes > maxNodes) {
      gaveUp = true;
      return false;
    }
    if (p < n) {
      if (tryPiece(rows, cellsFilled, limit, depth, pids[p], false, p + 1, h)) return true;
      if (gaveUp) return false;
      if (hold && canHoldHere) {
        if (h >= 0 && h !== pids[p]) {
          if (tryPiece(rows, cellsFilled, limit, depth, h, true, p + 1, pids[p])) return true;
        } else if (h < 0 && p + 1 < n) {
          if (tryPiece(rows, cellsFilled, limit, depth, pids[p + 1], true, p + 2, pids[p])) return true;
        }
        if (gaveUp) return false;
      }
    } else if (h >= 0 && hold && canHoldHere && holdUnknown && need === 1) {
      // the piece after the queue is unknown: hold it and place the held piece (nothing is known after that)
      if (tryPiece(rows, cellsFilled, limit, depth, h, true, p + 1, -1)) return true;
      if (gaveUp) return false;
    }
    failed.add(lo, hi, meta);
    return false;
  };

  const h0 = q.hold === null ? -1 : PIECES.indexOf(q.hold);
  for (let lines = Math.max(top, 1); lines <= q.maxLines && lines <= height; lines++) {
    const cells = lines * width - filled;
    if (cells <= 0 || cells % 4 !== 0) continue;
    failed.clear();
    boards[0].set(start);
    if (search(boards[0], filled, lines, 0, 0, h0)) {
      const steps: PerfectClearStep[] = [];
      for (let d = 0; d < length; d++) {
        const [pid, state, x, y, held] = line.subarray(5 * d, 5 * d + 5);
        const cells = shapes[pid][state].map(([dx, dy]) => [x + dx, y + dy] as Cell);
        steps.push({ hold: held === 1, piece: PIECES[pid], cells });
      }
      return { line: { steps, lines }, nodes, gaveUp };
    }
    if (gaveUp) break;
  }
  return { line: null, nodes, gaveUp };
}
