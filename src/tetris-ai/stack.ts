/**
 * Stack mode (docs/game.md): the surface AI of src/stacking-ai/ plays a real board that is a clean stack, on the
 * field's bottom or over a floor of buried rows (grid.ts stackFloor).
 *
 * The board is seen as the stacking game sees it: the rows from the floor up, the columns beside the well are the
 * stack (their heights above the floor are the surface, the stack's limit lowered by the floor), the well is the
 * last column (a left well is the mirror image: rows, pieces and the next-piece chances
 * are mirrored in, cells mirrored back out). The kernel searches the known queue; its first move is turned into
 * board cells and played only if the rule set can reach those cells. When it cannot, every reachable first move that
 * the surface game allows is tried and the rest of the window searched after it. A first move that clears rows and
 * leaves a clean stack (a smaller clear, e.g. an L's foot or an O in the well) is weighed in when the surface game
 * alone would die inside the window or the stack is near the top with no Tetris in sight.
 */
import { MIRROR_PIECE, ORIENTATIONS, PIECES, type Piece } from '../pieces.js';
import type { RankTable } from '../rank/table.js';
import type { SearchHold, StackingEngine } from '../kernels/search.js';
import { MOVE_NONE, MOVE_TETRIS } from '../kernels/search-format.js';
import { applyMove, legalMoves } from '../stacking-ai/placements.js';
import { TETRIS_ROWS, type StackingSettings } from '../stacking-ai/rules.js';
import { truncatedHeightsIndex } from '../surface.js';
import type { Cell, GamePlacement } from '../rules/types.js';
import { cellsKey, cellsKeyOf, frameHeightsInto, lockCells, stackFloor } from './grid.js';
import type { PieceReach } from './rules-adapter.js';

/** One way to play the turn: with or without pressing hold, and the pieces that are then known, in order. */
export interface TurnOption {
  hold: boolean;
  /** pieces[0] is placed now; the rest is the known queue after it. */
  pieces: readonly Piece[];
  /** Reachable placements of pieces[0] on the board (found when first asked). */
  reach: PieceReach;
  /** The hold box once this option's piece is placed: the held piece, or the current one after hold (null: empty). */
  boxAfter: Piece | null;
}

export interface StackContext {
  engine: StackingEngine;
  table: Pick<RankTable, 'maxStep' | 'searchValue' | 'searchScale'>;
  stacking: StackingSettings;
  /** Board width (the stack is width - 1 columns plus the well). */
  width: number;
  lookahead: number;
  /** Weights of the unknown pieces after the queue (distributionWeights / pairWeights), in the board's frame and
   * in the mirrored frame. */
  weights: { right: Int32Array; left: Int32Array };
  /** Rows from the top of the stack at which smaller clears are weighed in. */
  dangerMargin: number;
  /** Play only moves that clear rows and leave a clean stack (the stack is tall and no I is in sight). */
  clearsOnly?: boolean;
  /** Highest floor (buried rows under a clean stack, stackFloor) stack mode plays over. 0: clean stacks only. */
  maxFloor: number;
  /**
   * A first move with no piece known after it (a smaller clear, or a surface move tried where the kernel's move is
   * out of reach) is valued over the unknown piece (unknownPieceScore), as the search's own leaves are, not by its
   * surface's rank: an expectimax search whose window is the current piece alone (TetrisAI under a timed rule set,
   * where the next piece is not known yet: docs/game.md, "The reaction").
   */
  unknownAfter?: boolean;
  /** The search may press hold at every ply after the first (whose hold the turn's options weigh): the rule set has
   * hold and the game lets this turn use it. */
  holdPlies?: boolean;
}

export interface StackChoice {
  option: TurnOption;
  placement: GamePlacement;
  /** depth · 2^48 + (0xffff − excess) · 2^32 + leaf score: the kernel's order, exact in a double. */
  order: number;
  /** The leaf score as a fraction (rank, or expected rank under expectimax). */
  value: number;
  side: 'right' | 'left';
  /** Rows buried under the stack this move was chosen over (stackFloor). */
  floor: number;
}

/** A board seen as a clean stack for one well side: the rows from the floor up, mirrored for a left well. */
export interface StackSurface {
  side: 'right' | 'left';
  /** Rows buried under the stack (stackFloor). */
  floor: number;
  /** Column heights of the stack above the floor (the surface), well excluded. */
  heights: number[];
}

/** The stacking game's view of a board for one well side, with the context it is searched under. */
interface Frame extends StackSurface {
  /** The context with the stack's limit lowered by the floor. */
  ctx: StackContext;
}

/** Smallest stack (rows above the floor) the surface game is played on; a higher floor is recover's business. */
const MIN_FRAME_ROWS = 8;

/** The board as a clean stack for a well side, or null when it is none (stackFloor). */
function surfaceOn(rows: Uint32Array, width: number, side: 'right' | 'left'): StackSurface | null {
  const floor = stackFloor(rows, width, side === 'right' ? width - 1 : 0);
  if (floor < 0) return null;
  return { side, floor, heights: frameHeightsInto(rows, width, side, floor, new Array<number>(width - 1)) };
}

/** The board as a clean stack for each of `sides` that has one: found once a turn, for the policy and stack mode. */
export function stackSurfaces(rows: Uint32Array, width: number, sides: readonly ('right' | 'left')[]): StackSurface[] {
  const out: StackSurface[] = [];
  for (const side of sides) {
    const surface = surfaceOn(rows, width, side);
    if (surface) out.push(surface);
  }
  return out;
}

/** Whether an I down the well makes a Tetris on this surface now: its lowest column stands at least TETRIS_ROWS over
 * the floor. */
export function isTetrisReady(surface: StackSurface): boolean {
  return Math.min(...surface.heights) >= TETRIS_ROWS;
}

/** The frame of a surface under a context, or null when its floor is one stack mode does not play over. */
function frameOf(ctx: StackContext, surface: StackSurface | null): Frame | null {
  if (!surface || surface.floor > ctx.maxFloor) return null;
  const boardHeight = ctx.stacking.boardHeight - surface.floor;
  if (boardHeight < MIN_FRAME_ROWS) return null;
  return { ...surface, ctx: surface.floor === 0 ? ctx : { ...ctx, stacking: { ...ctx.stacking, boardHeight } } };
}

/** Surface heights of a board after a move, in a frame (null when it is no longer a clean stack over that floor). */
function frameHeightsAfter(ctx: StackContext, rows: Uint32Array, frame: Frame): number[] | null {
  if (stackFloor(rows, ctx.width, frame.side === 'right' ? ctx.width - 1 : 0) !== frame.floor) return null;
  return frameHeightsInto(rows, ctx.width, frame.side, frame.floor, new Array<number>(ctx.width - 1));
}

const TWO_32 = 2 ** 32;
const TWO_48 = 2 ** 48;

/**
 * The best stack-mode move on a clean board (its surfaces: stackSurfaces), or null when the surface game has none
 * that the rules reach.
 */
export function stackMove(
  ctx: StackContext,
  rows: Uint32Array,
  options: readonly TurnOption[],
  surfaces: readonly StackSurface[],
): StackChoice | null {
  let best: StackChoice | null = null;
  for (const surface of surfaces) {
    const frame = frameOf(ctx, surface);
    if (!frame) continue;
    const choice = bestOnSide(frame, rows, options);
    if (choice && (!best || choice.order > best.order)) best = choice;
  }
  return best;
}

function bestOnSide(frame: Frame, rows: Uint32Array, options: readonly TurnOption[]): StackChoice | null {
  const { ctx } = frame;
  const full = ctx.lookahead + 1;
  let best: StackChoice | null = null;
  let bestDepth = 0;
  const consider = (c: StackChoice | null) => {
    if (c && (!best || c.order > best.order)) {
      best = c;
      bestDepth = Math.floor(c.order / TWO_48);
    }
  };
  if (ctx.clearsOnly) {
    for (const option of options) consider(smallerClear(frame, rows, option));
    return best;
  }
  for (const option of options) consider(searchOption(frame, option));
  const top = best ? topAfter(frame, best) : Infinity;
  // Near the top, a smaller clear lowers the stack; but a Tetris in sight lowers it by 4 rows without one.
  const nearTop = top > ctx.stacking.boardHeight - ctx.dangerMargin && !tetrisInSight(frame, options);
  if (!best || bestDepth < full || nearTop) {
    for (const option of options) consider(smallerClear(frame, rows, option));
  }
  return best;
}

/**
 * Whether a Tetris is coming inside the known window: the stack is Tetris-ready (its lowest column at least
 * TETRIS_ROWS above the floor) and an I is among some option's window pieces (current, queue, hold; the box too where
 * the search holds at every ply).
 */
function tetrisInSight(frame: Frame, options: readonly TurnOption[]): boolean {
  if (!isTetrisReady(frame)) return false;
  const window = frame.ctx.lookahead + 1;
  return options.some(
    (o) => o.pieces.slice(0, window).includes('I') || (frame.ctx.holdPlies === true && o.boxAfter === 'I'),
  );
}

/** The hold box of an option's search (engine.search's `hold`), in the frame; undefined without hold at every ply. */
function boxOf(
  ctx: StackContext,
  option: TurnOption,
  side: 'right' | 'left',
  fromDepth: 0 | 1,
): SearchHold | undefined {
  if (!ctx.holdPlies) return undefined;
  return { piece: option.boxAfter === null ? null : frameId(option.boxAfter, side), fromDepth };
}

/** Frame piece id (mirrored for a left well). */
function frameId(piece: Piece, side: 'right' | 'left'): number {
  const id = PIECES.indexOf(piece);
  return side === 'right' ? id : MIRROR_PIECE[id];
}

/**
 * cellsKey of a surface move's cells on the board: a placement id on `heights` (the frame's surface), or the Tetris I
 * in the well; frame rows are counted from the floor and a left well's frame is mirrored.
 */
function moveKey(
  ctx: StackContext,
  heights: readonly number[],
  move: number,
  side: 'right' | 'left',
  floor: number,
): number {
  const w = ctx.width;
  const boardX = (x: number) => (side === 'right' ? x : w - 1 - x);
  if (move === MOVE_TETRIS) {
    const x = boardX(w - 1);
    return cellsKeyOf(floor * 64 + x, (floor + 1) * 64 + x, (floor + 2) * 64 + x, (floor + 3) * 64 + x);
  }
  const p = ctx.engine.placements.placements[move];
  const o = ORIENTATIONS[p.piece][p.orientation];
  const base = heights[p.column] - o.bot[0] + floor;
  let k = 0;
  for (let j = 0; j < o.width; j++)
    for (let r = o.bot[j]; r < o.top[j]; r++) KEY_CELLS[k++] = (base + r) * 64 + boardX(p.column + j);
  return cellsKeyOf(KEY_CELLS[0], KEY_CELLS[1], KEY_CELLS[2], KEY_CELLS[3]);
}
const KEY_CELLS = new Int32Array(4);

function excessOf(heights: readonly number[], maxStep: number): number {
  let e = 0;
  for (let i = 1; i < heights.length; i++) e += Math.max(0, Math.abs(heights[i] - heights[i - 1]) - maxStep);
  return e;
}

function orderOf(ctx: StackContext, depth: number, leafHeights: readonly number[], leafScore: number): number {
  const excess =
    ctx.stacking.steep === 'excessFirst' ? Math.min(0xffff, excessOf(leafHeights, ctx.table.maxStep)) : 0xffff;
  return depth * TWO_48 + (0xffff - excess) * TWO_32 + leafScore;
}

/** The highest stack column (frame heights, well left out) after the choice's piece. */
function topAfter(frame: Frame, choice: StackChoice): number {
  const { heights, side, floor } = frame;
  const w = frame.ctx.width;
  let top = 0;
  for (let c = 0; c < heights.length; c++) if (heights[c] > top) top = heights[c];
  // Mirroring is its own inverse; rows go back down by the floor.
  for (const [x, y] of choice.placement.cells) {
    const c = side === 'right' ? x : w - 1 - x;
    if (c < heights.length && y - floor + 1 > top) top = y - floor + 1;
  }
  return top;
}

/** The kernel's best for one option; its first move if reachable, else the reachable first moves one by one. */
function searchOption(frame: Frame, option: TurnOption): StackChoice | null {
  const { ctx, heights, side, floor } = frame;
  if (option.reach.count === 0) return null;
  const ids = option.pieces.map((p) => frameId(p, side));
  const lookahead = Math.min(ctx.lookahead, ids.length - 1);
  const weights = ctx.weights[side];
  const outcome = ctx.engine.search(
    heights,
    ids,
    lookahead,
    weights,
    ctx.stacking.boardHeight,
    boxOf(ctx, option, side, 1),
  );
  if (outcome.move === MOVE_NONE) return null;
  const first = option.reach.find(moveKey(ctx, heights, outcome.move, side, floor));
  if (first) {
    return {
      option,
      placement: first,
      order: outcome.order,
      value: (outcome.leafScore / 65536) * ctx.engine.rankScale,
      side,
      floor,
    };
  }
  // The kernel's first move is out of reach: try each surface move the rules reach, and search on after it.
  const reach = reachableByKey(option.reach.list);
  let best: StackChoice | null = null;
  for (const move of surfaceMoves(ctx, heights, ids[0])) {
    const placement = reach.get(moveKey(ctx, heights, move, side, floor));
    if (!placement) continue;
    const child = applyMove(ctx.engine.placements, heights, move);
    const c = continueAfter(ctx, child, ids.slice(1), lookahead - 1, weights, { option, placement, side, floor });
    if (!best || c.order > best.order) best = c;
  }
  return best;
}

/**
 * Scores the window after a first move to `child` heights: the kernel on the rest (holding at every ply where the
 * turn's search does, from the box the first move left), or the child's rank.
 */
function continueAfter(
  ctx: StackContext,
  child: readonly number[],
  rest: readonly number[],
  lookahead: number,
  weights: Int32Array,
  what: Pick<StackChoice, 'option' | 'placement' | 'side' | 'floor'>,
  hold: SearchHold | undefined = what.option && boxOf(ctx, what.option, what.side, 0),
): StackChoice {
  if (lookahead >= 0 && rest.length > 0) {
    const outcome = ctx.engine.search(child, rest, lookahead, weights, ctx.stacking.boardHeight, hold);
    if (outcome.move !== MOVE_NONE) {
      return {
        ...what,
        // one more piece placed: the forced first move
        order: outcome.order + TWO_48,
        value: (outcome.leafScore / 65536) * ctx.engine.rankScale,
      };
    }
    return { ...what, order: orderOf(ctx, 1, child, 0), value: 0 };
  }
  // Nothing known after this piece: with unknownAfter, over the unknown piece the search's own leaves average over
  // (the same horizon); else by the surface's rank (the 'rank' strategy's leaf).
  const score = ctx.unknownAfter ? unknownPieceScore(ctx, child, weights) : rankScore(ctx, child);
  return { ...what, order: orderOf(ctx, 1, child, score), value: (score / 65536) * ctx.table.searchScale() };
}

/** The rank of a surface as the kernel reads it (searchValue, scaled where its shape keeps a 20G I from the well),
 * x 65536. */
function rankScore(ctx: StackContext, heights: readonly number[]): number {
  const index = truncatedHeightsIndex(heights, ctx.table.maxStep);
  return ctx.engine.wellScaled(index, ctx.table.searchValue(index) * 65536);
}

/**
 * A surface with nothing known after it valued over one unknown piece, as the search's expectimax leaf values one
 * (assembly/search/leaves.ts expectScore), x 65536: the sum over pieces of the piece's weight (`weights`, x 65536)
 * times the best rank after placing it on the surface (its legal surface moves under the stack's limit, the Tetris
 * where the rule allows one; 0 for a piece with none).
 */
function unknownPieceScore(ctx: StackContext, heights: readonly number[], weights: Int32Array): number {
  let total = 0;
  for (let p = 0; p < PIECES.length; p++) {
    const w = weights[p];
    if (w === 0) continue;
    let best = 0;
    for (const move of legalMoves(ctx.engine.placements, heights, p, ctx.stacking))
      best = Math.max(best, rankScore(ctx, applyMove(ctx.engine.placements, heights, move)) / 65536);
    total += w * best;
  }
  return Math.round(total);
}

/** Surface moves of a piece (frame id) legal on `heights` under the stacking rules (legalMoves). */
function surfaceMoves(ctx: StackContext, heights: readonly number[], id: number): number[] {
  return legalMoves(ctx.engine.placements, heights, id, ctx.stacking);
}

/** The best reachable first move that clears rows and leaves a clean stack, searched on after it. */
function smallerClear(frame: Frame, rows: Uint32Array, option: TurnOption): StackChoice | null {
  const { ctx, side, floor } = frame;
  const ids = option.pieces.map((p) => frameId(p, side));
  const lookahead = Math.min(ctx.lookahead, ids.length - 1);
  let best: StackChoice | null = null;
  for (const placement of option.reach.clearing()) {
    const locked = lockCells(rows, ctx.width, placement.cells);
    const child = frameHeightsAfter(ctx, locked.rows, frame);
    if (!child || Math.max(...child) > ctx.stacking.boardHeight) continue;
    const c = continueAfter(ctx, child, ids.slice(1), lookahead - 1, ctx.weights[side], {
      option,
      placement,
      side,
      floor,
    });
    if (!best || c.order > best.order) best = c;
  }
  return best;
}

function reachableByKey(list: readonly GamePlacement[]): Map<number, GamePlacement> {
  const map = new Map<number, GamePlacement>();
  for (const p of list) {
    const key = cellsKey(p.cells);
    const had = map.get(key);
    if (!had || p.inputs.length < had.inputs.length) map.set(key, p);
  }
  return map;
}

/** One scored first move of a turn option, in the search's order (StackChoice.order). */
export interface ScoredStackMove extends StackChoice {
  /** Pieces the known window places with this first move (1 = only this one). */
  depth: number;
  /** The window's pieces: 1 + the lookahead the queue allows for this option. */
  window: number;
}

/**
 * Every reachable first move of every option that keeps the perfect stack on `side` (a surface move, or a clear that
 * leaves a clean stack), each scored as the search scores a forced first move (continueAfter). Placements not in
 * the list break the perfect stack.
 */
export function scoreStackMoves(
  baseCtx: StackContext,
  rows: Uint32Array,
  options: readonly TurnOption[],
  side: 'right' | 'left',
): ScoredStackMove[] {
  const frame = frameOf(baseCtx, surfaceOn(rows, baseCtx.width, side));
  if (!frame) return [];
  const { ctx, heights, floor } = frame;
  const out: ScoredStackMove[] = [];
  for (const option of options) {
    if (option.reach.count === 0) continue;
    const ids = option.pieces.map((p) => frameId(p, side));
    const lookahead = Math.min(ctx.lookahead, ids.length - 1);
    const reach = reachableByKey(option.reach.list);
    const seen = new Set<number>();
    const push = (c: StackChoice, key: number) => {
      seen.add(key);
      out.push({ ...c, depth: Math.floor(c.order / TWO_48), window: lookahead + 1 });
    };
    for (const move of surfaceMoves(ctx, heights, ids[0])) {
      const key = moveKey(ctx, heights, move, side, floor);
      const placement = reach.get(key);
      if (!placement || seen.has(key)) continue;
      const child = applyMove(ctx.engine.placements, heights, move);
      const what = { option, placement, side, floor };
      push(continueAfter(ctx, child, ids.slice(1), lookahead - 1, ctx.weights[side], what), key);
    }
    for (const [key, placement] of reach) {
      if (seen.has(key)) continue;
      const locked = lockCells(rows, ctx.width, placement.cells);
      if (locked.lines === 0) continue;
      const child = frameHeightsAfter(ctx, locked.rows, frame);
      if (!child || Math.max(...child) > ctx.stacking.boardHeight) continue;
      const what = { option, placement, side, floor };
      push(continueAfter(ctx, child, ids.slice(1), lookahead - 1, ctx.weights[side], what), key);
    }
  }
  return out;
}

/** After `cells` are placed on a clean stack: for each piece (I O T S Z L J) that could come next, the rank
 * (fraction) of the best surface after it with nothing known beyond, or null when it has no stack move. */
export function nextPieceRanks(
  baseCtx: StackContext,
  rows: Uint32Array,
  cells: readonly Cell[],
  side: 'right' | 'left',
): (number | null)[] {
  const frame = frameOf(baseCtx, surfaceOn(rows, baseCtx.width, side));
  const child = frame && frameHeightsAfter(frame.ctx, lockCells(rows, baseCtx.width, cells).rows, frame);
  if (!frame || !child) return PIECES.map(() => null);
  return PIECES.map((p) => {
    const c = continueAfter(
      frame.ctx,
      child,
      [frameId(p, side)],
      0,
      frame.ctx.weights[side],
      { option: null as never, placement: null as never, side, floor: frame.floor },
      undefined,
    );
    return Math.floor(c.order / TWO_48) >= 2 ? c.value : null;
  });
}
