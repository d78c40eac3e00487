/**
 * Recover mode (docs/game.md): a full-board search for any board, aimed back at a clean stack.
 *
 * A beam search over the known pieces (the current one, the queue, and hold): each level places one piece in every
 * reachable way, with or without pressing hold, and keeps the `beam` best lines by value; after `depth` levels the
 * first move of the best line is played. A line's value is the sum of its moves' terms (landing height, eroded
 * cells) plus the board terms of where it ends (src/game/evaluate.ts), so at depth 1 it is the BCTS player with
 * the recover terms. A move that leaves cells above the visible field tops out in the simulator: it costs more than
 * any board, so it is played only when nothing else is possible.
 */
import type { Piece } from '../pieces.js';
import type { GamePlacement } from '../rules/types.js';
import { boardFeatures, scoreBoardTerms, type RecoverWeights } from './evaluate.js';
import { lockCells } from './grid.js';

export type Reach = (rows: Uint32Array, piece: Piece) => readonly GamePlacement[];

export interface RecoverContext {
  width: number;
  /** Rows a board may hold (the matrix); the row-transition feature counts them all. */
  height: number;
  /** Rows a piece may end in without topping out. */
  visibleHeight: number;
  /** Column of the well the recover terms aim for (-1: none, the plain full-board player). */
  wellColumn: number;
  weights: RecoverWeights;
  depth: number;
  beam: number;
  holdAllowed: boolean;
  reach: Reach;
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
export function recoverMove(
  ctx: RecoverContext,
  state: RecoverState,
  rootReach?: (piece: Piece) => readonly GamePlacement[],
): RecoverChoice | null {
  const level = searchLevels(ctx, state.queue, [rootNode(state)], 0, rootReach);
  const best = level[0];
  return best?.root ? { ...best.root, value: best.value } : null;
}

/** Every root move (with and without hold), each valued by the best line the search finds after it. */
export function recoverRootValues(
  ctx: RecoverContext,
  state: RecoverState,
  rootReach: (piece: Piece) => readonly GamePlacement[],
): RecoverChoice[] {
  const roots: Node[] = [];
  expand(ctx, state.queue, rootNode(state), (_rows, p) => rootReach(p), roots);
  return roots.map((n) => ({ ...n.root!, value: searchLevels(ctx, state.queue, [n], 1)[0].value }));
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
  ctx: RecoverContext,
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

function expand(ctx: RecoverContext, queue: readonly Piece[], node: Node, reach: Reach, out: Node[]): void {
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
      const f = boardFeatures(locked.rows, ctx.width, ctx.height, locked, ctx.wellColumn);
      let acc = node.acc + w.landingHeight * f.landingHeight + w.erodedPieceCells * f.erodedPieceCells;
      if (overflows(locked.rows, ctx.visibleHeight)) acc += TOP_OUT;
      const boardTerms = scoreBoardTerms(f, w);
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
