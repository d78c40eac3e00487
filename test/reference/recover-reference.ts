/**
 * Reference of the recover mode (docs/game.md, "Recover"), independent of the recover kernel (assembly/recover/):
 * the TypeScript beam search and board evaluator the game AI ran before they moved into WebAssembly, kept as they
 * were (objects per node, lockCells and the row-by-row features) so the tests can hold the kernel-based search to
 * the same move and the same value, bit for bit. Test-only.
 */
import { PIECES, type Piece } from '../../src/pieces.js';
import type { GamePlacement } from '../../src/rules/types.js';
import type { BoardFeatures, MoveFacts, RecoverWeights } from '../../src/kernels/recover.js';
import { popcount } from '../../src/board-rows.js';
import { lockCells, stackFloor } from '../../src/tetris-ai/grid.js';

export type Reach = (rows: Uint32Array, piece: Piece) => readonly GamePlacement[];

export interface RefRecoverContext {
  width: number;
  /** Rows a board may hold (the matrix); the row-transition feature counts them all. */
  height: number;
  /** Rows a piece may end in without topping out. */
  visibleHeight: number;
  /** Column of the well the recover terms aim for (-1: none, the plain full-board player). */
  wellColumn: number;
  /** Column of a well a piece may cover (with wellColumn -1): no holes under its cover, which costs per cell. */
  coverWell: number;
  /** The highest floor a clean stack may stand on. */
  maxFloor: number;
  weights: RecoverWeights;
  depth: number;
  beam: number;
  holdAllowed: boolean;
  reach: Reach;
  /** The chance ply: the best `lines` lines valued over the next piece (`pieces`: its chances, I O T S Z L J). */
  chance?: { lines: number; pieces: ArrayLike<number> };
}

export interface RecoverState {
  rows: Uint32Array;
  current: Piece;
  queue: readonly Piece[];
  hold: Piece | null;
  canHold: boolean;
}

export interface RecoverChoice {
  hold: boolean;
  placement: GamePlacement;
  value: number;
}

/** What overflowing the visible field costs: more than any board's terms. */
const TOP_OUT = -1e9;

interface Node {
  rows: Uint32Array;
  current: Piece | null;
  /** Index of the next queue piece. */
  next: number;
  hold: Piece | null;
  canHold: boolean;
  /** Σ of the move terms of the line so far. */
  acc: number;
  value: number;
  root: RecoverChoice | null;
}

/** The first move of the best line, or null when no piece the turn allows has a reachable placement. */
export function refRecoverMove(
  ctx: RefRecoverContext,
  state: RecoverState,
  rootReach?: (piece: Piece) => readonly GamePlacement[],
): RecoverChoice | null {
  const best = lastChoice(ctx, searchLevels(ctx, state.queue, [rootNode(state)], 0, rootReach));
  return best?.root ? { ...best.root, value: best.value } : null;
}

/** Every root move (with and without hold), each valued by the best line the search finds after it. */
export function refRecoverRootValues(
  ctx: RefRecoverContext,
  state: RecoverState,
  rootReach: (piece: Piece) => readonly GamePlacement[],
): RecoverChoice[] {
  const roots: Node[] = [];
  expand(ctx, state.queue, rootNode(state), (_rows, p) => rootReach(p), roots);
  return roots.map((n) => ({ ...n.root!, value: lastChoice(ctx, searchLevels(ctx, state.queue, [n], 1))!.value }));
}

/** The line the search plays from its last level (best first): the first, or the chance ply's best. */
function lastChoice(ctx: RefRecoverContext, level: Node[]): { root: RecoverChoice | null; value: number } | undefined {
  if (!ctx.chance) return level[0];
  let best: { root: RecoverChoice | null; value: number } | undefined;
  for (const node of level.slice(0, ctx.chance.lines)) {
    let expected = 0;
    PIECES.forEach((piece, p) => {
      const w = node.current === null ? ctx.chance!.pieces[p] : node.current === piece ? 1 : 0;
      if (w === 0) return;
      const after: Node[] = [];
      expand(ctx, [], { ...node, current: piece, canHold: false }, ctx.reach, after);
      const top = after.length === 0 ? node.value + TOP_OUT : Math.max(...after.map((n) => n.value));
      expected += w * top;
    });
    if (!best || expected > best.value) best = { root: node.root, value: expected };
  }
  return best;
}

function rootNode(state: RecoverState): Node {
  return {
    rows: state.rows,
    current: state.current,
    next: 0,
    hold: state.hold,
    canHold: state.canHold,
    acc: 0,
    value: 0,
    root: null,
  };
}

/** The beam search from `level` at depth `from`: the last level, best first. */
function searchLevels(
  ctx: RefRecoverContext,
  queue: readonly Piece[],
  level: Node[],
  from: number,
  rootReach?: (piece: Piece) => readonly GamePlacement[],
): Node[] {
  for (let d = from; d < ctx.depth; d++) {
    const children: Node[] = [];
    for (const node of level) {
      if (node.current === null) {
        children.push(node); // nothing more is known down this line: it competes as it is
        continue;
      }
      expand(ctx, queue, node, d === 0 && rootReach ? (_rows, p) => rootReach(p) : ctx.reach, children);
    }
    if (children.length === 0) break;
    children.sort((a, b) => b.value - a.value);
    level = d + 1 < ctx.depth ? children.slice(0, ctx.beam) : children;
    if (level.every((n) => n.current === null)) break;
  }
  return level;
}

function expand(ctx: RefRecoverContext, queue: readonly Piece[], node: Node, reach: Reach, out: Node[]): void {
  const turns: { hold: boolean; piece: Piece; current: Piece | null; next: number; holdPiece: Piece | null }[] = [
    { hold: false, piece: node.current!, current: queue[node.next] ?? null, next: node.next + 1, holdPiece: node.hold },
  ];
  if (ctx.holdAllowed && node.canHold) {
    if (node.hold !== null) {
      if (node.hold !== node.current)
        turns.push({
          hold: true,
          piece: node.hold,
          current: queue[node.next] ?? null,
          next: node.next + 1,
          holdPiece: node.current,
        });
    } else if (node.next < queue.length) {
      turns.push({
        hold: true,
        piece: queue[node.next],
        current: queue[node.next + 1] ?? null,
        next: node.next + 2,
        holdPiece: node.current,
      });
    }
  }
  const w = ctx.weights;
  for (const turn of turns) {
    for (const placement of reach(node.rows, turn.piece)) {
      const locked = lockCells(node.rows, ctx.width, placement.cells);
      const f = refBoardFeatures(
        locked.rows,
        ctx.width,
        ctx.height,
        locked,
        ctx.wellColumn,
        ctx.coverWell,
        ctx.maxFloor,
      );
      let acc = node.acc + w.landingHeight * f.landingHeight + w.erodedPieceCells * f.erodedPieceCells;
      if (overflows(locked.rows, ctx.visibleHeight)) acc += TOP_OUT;
      const boardTerms = refScoreBoardTerms(f, w);
      out.push({
        rows: locked.rows,
        current: turn.current,
        next: turn.next,
        hold: turn.holdPiece,
        canHold: true,
        acc,
        value: acc + boardTerms,
        root: node.root ?? { hold: turn.hold, placement, value: 0 },
      });
    }
  }
}

function overflows(rows: Uint32Array, visibleHeight: number): boolean {
  for (let r = visibleHeight; r < rows.length; r++) if (rows[r] !== 0) return true;
  return false;
}

/**
 * The features of a board after a move (rows already cleared). `rows` bottom first, `height` rows counted for
 * the row-transition feature (every empty row counts 2, as in the reference); `wellColumn` -1 for none; `coverWell`
 * the column of a well a piece may cover, -1 for none; `maxFloor` the highest floor a clean stack may stand on.
 */
export function refBoardFeatures(
  rows: ArrayLike<number>,
  width: number,
  height: number,
  move: MoveFacts,
  wellColumn: number,
  coverWell = -1,
  maxFloor = 0,
): BoardFeatures {
  const full = (1 << width) - 1;
  let top = 0; // rows 0..top-1 hold every filled cell
  for (let r = rows.length - 1; r >= 0; r--) {
    if (rows[r] !== 0) {
      top = r + 1;
      break;
    }
  }
  // Row transitions, walls filled: bit i of x = cell i - 1, bits 0 and width + 1 the walls.
  let rowTransitions = 2 * (height - top);
  // Column transitions: the floor counts as filled; the row above the board as empty.
  let columnTransitions = 0;
  let prev = full;
  // An open well is the stack's purpose, not a flaw: row transitions and wells read the well column as filled
  // (its cells cost `wellCells` instead). Without a well (-1) these are exactly the reference features.
  const wellBit = wellColumn >= 0 ? 1 << wellColumn : 0;
  for (let r = 0; r < top; r++) {
    const m = rows[r];
    const x = ((m | wellBit) << 1) | 1 | (1 << (width + 1));
    rowTransitions += popcount((x ^ (x >>> 1)) & ((1 << (width + 1)) - 1));
    columnTransitions += popcount(m ^ prev);
    prev = m;
  }
  columnTransitions += popcount(prev); // the top cells meet the empty row above (an empty board: the floor does)
  // Holes, rows with holes, hole depth: scan down with the columns already covered. A covered well's empty cells
  // are none of them: its cover is the filled run over the first of them met on the way down.
  const coverBit = coverWell >= 0 ? 1 << coverWell : 0;
  let holes = 0;
  let rowsWithHoles = 0;
  let holeDepth = 0;
  let covered = 0;
  let wellCells = 0;
  let wellCover = 0;
  let coverOpen = true; // no empty cell of the covered well met yet
  for (let r = top - 1; r >= 0; r--) {
    const m = rows[r];
    if (coverBit && coverOpen && !(m & coverBit) && covered & coverBit) {
      coverOpen = false;
      for (let k = r + 1; k < top && rows[k] & coverBit; k++) wellCover++;
    }
    const holeMask = ~m & covered & full & ~coverBit;
    if (holeMask) {
      holes += popcount(holeMask);
      rowsWithHoles++;
      // Each hole's depth: the filled cells directly above it, up to the first empty one (counted on demand:
      // holes are few, rows times columns are many).
      for (let v = holeMask; v; v &= v - 1) {
        const c = 31 - Math.clz32(v & -v);
        for (let k = r + 1; k < top && (rows[k] >> c) & 1; k++) holeDepth++;
      }
    }
    covered |= m;
    if (wellColumn >= 0 && (m >> wellColumn) & 1) wellCells++;
  }
  // Cumulative wells: a well cell (empty, both neighbours filled, walls filled) adds the empty run from it down.
  // (The empty run from row r down, counted on demand for the few well cells.)
  let cumulativeWells = 0;
  for (let r = 0; r < top; r++) {
    const w = rows[r] | wellBit;
    const wells = ~w & ((w << 1) | 1) & ((w >> 1) | (1 << (width - 1))) & full;
    for (let v = wells; v; v &= v - 1) {
      const c = 31 - Math.clz32(v & -v);
      for (let k = r; k >= 0 && !((rows[k] >> c) & 1); k--) cumulativeWells++;
    }
  }
  // A clean stack on the bottom (no holes, nothing in the well) or over a floor of buried rows.
  const floor = wellColumn < 0 ? -1 : holes === 0 && wellCells === 0 ? 0 : stackFloor(rows, width, wellColumn);
  const clean = floor >= 0 && floor <= maxFloor ? 1 : 0;
  return {
    landingHeight: move.landingRow + (move.pieceHeight - 1) / 2,
    erodedPieceCells: move.lines * move.erodedCells,
    rowTransitions,
    columnTransitions,
    holes,
    cumulativeWells,
    holeDepth,
    rowsWithHoles,
    wellCells,
    clean,
    floorRows: clean ? floor : 0,
    wellCover,
  };
}

/** Σ weight × feature. */
export function refScoreFeatures(f: BoardFeatures, w: RecoverWeights): number {
  return w.landingHeight * f.landingHeight + w.erodedPieceCells * f.erodedPieceCells + refScoreBoardTerms(f, w);
}

/** Σ weight × feature over the features of the board alone (all but the move's landing height and eroded cells). */
export function refScoreBoardTerms(f: BoardFeatures, w: RecoverWeights): number {
  return (
    w.rowTransitions * f.rowTransitions +
    w.columnTransitions * f.columnTransitions +
    w.holes * f.holes +
    w.cumulativeWells * f.cumulativeWells +
    w.holeDepth * f.holeDepth +
    w.rowsWithHoles * f.rowsWithHoles +
    w.wellCells * f.wellCells +
    w.clean * f.clean +
    w.floorRows * f.floorRows +
    w.wellCover * f.wellCover
  );
}
