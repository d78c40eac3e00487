/**
 * Recover mode (docs/game.md): a full-board search for any board, aimed back at a clean stack.
 *
 * A beam search over the known pieces (the current one, the queue, and hold): each level places one piece in every
 * reachable way, with or without pressing hold, and keeps the `beam` best lines by value; after `depth` levels the
 * first move of the best line is played. A line's value is the sum of its moves' terms (landing height, eroded
 * cells) plus the board terms of where it ends (src/tetris-ai/evaluate.ts), so at depth 1 it is the BCTS player with
 * the recover terms. A move that leaves cells above the visible field tops out in the simulator: it costs more than
 * any board, so it is played only when nothing else is possible.
 *
 * The boards live in WebAssembly (src/kernels/recover.ts): per node the reachable kernel lists the placements,
 * their cells go to the recover kernel, which locks, measures and values them all; this file keeps only the plain
 * numbers of the search (pieces, hold, which line a node belongs to) in typed arrays reused from move to move.
 * Lines of equal value keep the order they were made in (a stable sort), the order of the TypeScript search this
 * replaced (test/reference/recover-reference.ts), which the tests hold it to.
 *
 * The chance ply (RecoverContext.chance) looks one piece past the known ones: the best few lines are each valued by
 * the expected value, over the piece that comes next, of that piece's best placement at the end of the line
 * (expectimax with a max level of one piece). Two known pieces see too little of what a board does to the next
 * one; this ply is what turns a recovery's holes and covered wells into fewer lines (bench/notes/results.md).
 */
import { CERTAIN_PIECE, PIECES, type Piece } from '../pieces.js';
import type { GamePlacement } from '../rules/types.js';
import type { RecoverWeights } from '../kernels/recover.js';
import { RecoverKernel, TOP_OUT } from '../kernels/recover.js';
import { reachableOnRows, type GameRuleFacts } from './rules-adapter.js';

export interface RecoverContext {
  width: number;
  /** Rows a board may hold (the matrix); the row-transition feature counts them all. */
  height: number;
  /** Rows a piece may end in without topping out. */
  visibleHeight: number;
  /** Column of the well the recover terms aim for (-1: none, the plain full-board player). */
  wellColumn: number;
  /**
   * Column of a well a piece may cover, on a board whose well is forgotten (wellColumn -1): its empty cells under
   * the cover are not holes, and the cover costs `weights.wellCover` per cell (-1: none).
   */
  coverWell: number;
  /** The highest floor (rows buried under a clean stack) the clean-stack terms accept (TetrisAI's: policy.ts, MAX_FLOOR). */
  maxFloor: number;
  weights: RecoverWeights;
  depth: number;
  beam: number;
  holdAllowed: boolean;
  /** The rule set the placements are reached under. */
  rules: GameRuleFacts;
  /** The chance ply after the known pieces, or absent for none. */
  chance?: RecoverChance;
}

/** The chance ply: how many of the best lines it values, and the chances of the piece after the known ones. */
export interface RecoverChance {
  /** Lines (the best after the known pieces, in order) valued by the expected value of the next piece; at least 1. */
  lines: number;
  /** Chances of the piece after the known ones, I O T S Z L J (a line that still knows its next piece places that). */
  pieces: ArrayLike<number>;
  /**
   * The caller reads the move, not its value (playGame's simulator): where every line the ply would value began with
   * the same first move, the ply cannot change the move and is skipped, and the value is the best line's without it.
   */
  moveOnly?: boolean;
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

/** The reachable placements of a piece on the root board (the caller's, memoized: the same objects it plays). */
export type RootReach = (piece: Piece) => readonly GamePlacement[];

/** The first move of the best line, or null when no piece the turn allows has a reachable placement. */
export function recoverMove(ctx: RecoverContext, state: RecoverState, rootReach?: RootReach): RecoverChoice | null {
  const search = beam.start(ctx, state, rootReach ?? memoReach(ctx, state.rows));
  const best = search.run(0, search.rootLevel());
  return best.root >= 0 ? { ...search.rootChoice(best.root), value: best.value } : null;
}

/** Every root move (with and without hold), each valued by the best line the search finds after it. */
export function recoverRootValues(ctx: RecoverContext, state: RecoverState, rootReach: RootReach): RecoverChoice[] {
  const search = beam.start(ctx, state, rootReach);
  const roots = search.rootMoves();
  const out: RecoverChoice[] = [];
  for (let r = 0; r < roots; r++)
    out.push({ ...search.rootChoice(r), value: search.run(1, search.rootAlone(r)).value });
  return out;
}

function memoReach(ctx: RecoverContext, rows: Uint32Array): RootReach {
  const memo = new Map<Piece, readonly GamePlacement[]>();
  return (p) => {
    let r = memo.get(p);
    if (!r) memo.set(p, (r = reachableOnRows(rows, ctx.width, ctx.height, p, ctx.rules)));
    return r;
  };
}

const NO_PIECE = -1;

/** One level of the beam: node i's board is node i of the kernel's level buffer `buffer`. */
class Level {
  size = 0;
  current = new Int8Array(0);
  next = new Int32Array(0);
  hold = new Int8Array(0);
  canHold = new Uint8Array(0);
  /** The root move of node i's line (-1: the root board itself). */
  root = new Int32Array(0);
  value = new Float64Array(0);
  constructor(readonly buffer: number) {}

  ensure(n: number): void {
    if (n <= this.current.length) return;
    const cap = Math.max(n, 2 * this.current.length, 16);
    this.current = new Int8Array(cap);
    this.next = new Int32Array(cap);
    this.hold = new Int8Array(cap);
    this.canHold = new Uint8Array(cap);
    this.root = new Int32Array(cap);
    this.value = new Float64Array(cap);
  }
}

/**
 * The children of a level, by group: the children one node makes with one piece (or a node carried as it is) share
 * everything but their placement, so the kernel holds each child's cells and value and this holds one record per
 * group. Group g is children start[g] .. start[g + 1] - 1.
 */
class Children {
  size = 0;
  groups = 0;
  start = new Int32Array(0);
  parent = new Int32Array(0);
  /** 1: the parent itself, carried to the next level as it is (nothing more is known down its line). */
  carried = new Uint8Array(0);
  current = new Int8Array(0);
  next = new Int32Array(0);
  hold = new Int8Array(0);
  /** The root move of the group's lines; -1: each child is a root move, rootBase + its place in the group. */
  root = new Int32Array(0);
  rootBase = new Int32Array(0);
  /** Children in order of value (RecoverKernel.bestChildren). */
  order = new Int32Array(0);

  reset(): void {
    this.size = 0;
    this.groups = 0;
  }

  /** A new group of n children (n > 0) made by node `parent`; returns its index. */
  add(parent: number, n: number): number {
    const g = this.groups;
    if (g === this.start.length) this.grow(Math.max(64, 2 * g));
    this.start[g] = this.size;
    this.parent[g] = parent;
    this.groups = g + 1;
    this.size += n;
    if (this.order.length < this.size) this.order = new Int32Array(Math.max(this.size, 2 * this.order.length, 1024));
    return g;
  }

  private grow(cap: number): void {
    const grow = <T extends Int32Array | Int8Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a.subarray(0, this.groups));
      return b;
    };
    this.start = grow(this.start, (c) => new Int32Array(c));
    this.parent = grow(this.parent, (c) => new Int32Array(c));
    this.carried = grow(this.carried, (c) => new Uint8Array(c));
    this.current = grow(this.current, (c) => new Int8Array(c));
    this.next = grow(this.next, (c) => new Int32Array(c));
    this.hold = grow(this.hold, (c) => new Int8Array(c));
    this.root = grow(this.root, (c) => new Int32Array(c));
    this.rootBase = grow(this.rootBase, (c) => new Int32Array(c));
  }

  /** The group child c belongs to. */
  groupOf(c: number): number {
    let lo = 0;
    let hi = this.groups - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.start[mid] <= c) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  rootOf(c: number, g = this.groupOf(c)): number {
    return this.root[g] >= 0 ? this.root[g] : this.rootBase[g] + c - this.start[g];
  }
}

/** The beam search's state, one per thread, reused by every search. */
class BeamSearch {
  private ctx!: RecoverContext;
  private rows!: Uint32Array;
  private queue = new Int8Array(0);
  private queueLength = 0;
  private rootHold = NO_PIECE;
  private rootCurrent = NO_PIECE;
  private rootCanHold = false;
  private rootReach!: RootReach;
  private kernel!: RecoverKernel;
  /** Levels 0 and 1 take turns as the beam goes down; level 2 holds the root moves of recoverRootValues. */
  private readonly levels = [new Level(0), new Level(1), new Level(2)];
  private readonly children = new Children();
  /** Root moves: hold pressed, piece, index in rootReach(piece). */
  private roots = { size: 0, hold: new Uint8Array(64), piece: new Int8Array(64), index: new Int32Array(64) };
  start(ctx: RecoverContext, state: RecoverState, rootReach: RootReach): this {
    this.ctx = ctx;
    this.rows = state.rows;
    this.kernel = RecoverKernel.get();
    this.kernel.configure({
      width: ctx.width,
      height: ctx.height,
      visibleHeight: ctx.visibleHeight,
      wellColumn: ctx.wellColumn,
      coverWell: ctx.coverWell,
      rowCount: state.rows.length,
      maxFloor: ctx.maxFloor,
      weights: ctx.weights,
    });
    if (this.queue.length < state.queue.length) this.queue = new Int8Array(state.queue.length);
    for (let i = 0; i < state.queue.length; i++) this.queue[i] = PIECES.indexOf(state.queue[i]);
    this.queueLength = state.queue.length;
    this.rootCurrent = PIECES.indexOf(state.current);
    this.rootHold = state.hold === null ? NO_PIECE : PIECES.indexOf(state.hold);
    this.rootCanHold = state.canHold;
    this.rootReach = rootReach;
    this.roots.size = 0;
    this.kernel.useRules(ctx.rules.ruleSet);
    return this;
  }

  /** Level 0 holding the root board alone; returns its level index. */
  rootLevel(): number {
    const level = this.levels[0];
    level.ensure(1);
    this.kernel.ensureNodes(level.buffer, 1);
    this.kernel.writeNode(level.buffer, 0, this.rows, 0);
    level.size = 1;
    level.current[0] = this.rootCurrent;
    level.next[0] = 0;
    level.hold[0] = this.rootHold;
    level.canHold[0] = this.rootCanHold ? 1 : 0;
    level.root[0] = -1;
    level.value[0] = 0;
    return 0;
  }

  /**
   * Expands the root board once: the root moves, in order, their boards kept in level 2 for rootAlone. Returns
   * how many there are.
   */
  rootMoves(): number {
    this.rootLevel();
    const ch = this.children;
    ch.reset();
    this.expandNode(this.levels[0], 0, true);
    for (let c = 0; c < ch.size; c++) ch.order[c] = c;
    this.select(this.levels[0], ch.size, this.levels[2]);
    return this.roots.size;
  }

  /** Level 1 holding root move r's board alone (after rootMoves); returns its level index. */
  rootAlone(r: number): number {
    const from = this.levels[2];
    const to = this.levels[1];
    to.ensure(1);
    this.kernel.ensureNodes(to.buffer, 1);
    this.kernel.copyNode(from.buffer, r, to.buffer, 0);
    to.size = 1;
    to.current[0] = from.current[r];
    to.next[0] = from.next[r];
    to.hold[0] = from.hold[r];
    to.canHold[0] = from.canHold[r];
    to.root[0] = from.root[r];
    to.value[0] = from.value[r];
    return 1;
  }

  rootChoice(r: number): Omit<RecoverChoice, 'value'> {
    const placement = this.rootReach(PIECES[this.roots.piece[r]])[this.roots.index[r]];
    return { hold: this.roots.hold[r] === 1, placement };
  }

  /**
   * The beam search from the level `at` at depth `from`: the best line's value and root move (-1 when the root
   * board has no move).
   */
  run(from: number, at: number): { value: number; root: number } {
    const ch = this.children;
    let level = this.levels[at];
    for (let d = from; d < this.ctx.depth; d++) {
      ch.reset();
      for (let i = 0; i < level.size; i++) {
        if (level.current[i] === NO_PIECE) this.carry(level, i);
        else this.expandNode(level, i, d === 0);
      }
      if (ch.size === 0) break;
      const last = d + 1 >= this.ctx.depth;
      if (last && !this.ctx.chance) {
        // The last level: only its best line is asked for (the first of the best: a stable sort's first).
        const best = this.kernel.bestChild(ch.size);
        return { value: this.kernel.childValue(best), root: ch.rootOf(best) };
      }
      // The best lines become the next level's nodes: the beam's, or on the last level the chance ply's.
      const kept = this.kernel.bestChildren(ch.size, last ? this.ctx.chance!.lines : this.ctx.beam, ch.order);
      const next = this.levels[1 - this.levels.indexOf(level)];
      this.select(level, kept, next);
      level = next;
      if (last) break;
      let open = false;
      for (let i = 0; i < level.size && !open; i++) open = level.current[i] !== NO_PIECE;
      if (!open) break;
    }
    if (this.ctx.chance) return this.chanceBest(level, this.ctx.chance);
    return { value: level.value[0], root: level.root[0] };
  }

  /**
   * The chance ply over a level in order of value: of its first `chance.lines` nodes, the one whose best placement
   * of the next piece is worth most on average over that piece (the first of equals); a piece with no placement
   * is worth the line's value plus TOP_OUT. The next piece is the node's own when its line still knows one.
   */
  private chanceBest(level: Level, chance: RecoverChance): { value: number; root: number } {
    const lines = Math.min(chance.lines, level.size);
    if (chance.moveOnly && sameRoot(level, lines)) return { value: level.value[0], root: level.root[0] };
    let bestValue = -Infinity;
    let bestRoot = -1;
    for (let j = 0; j < lines; j++) {
      const known = level.current[j];
      const chances = known === NO_PIECE ? chance.pieces : CERTAIN_PIECE[known];
      const expected = this.kernel.expectedBest(level.buffer, j, chances, level.value[j] + TOP_OUT);
      if (expected > bestValue) {
        bestValue = expected;
        bestRoot = level.root[j];
      }
    }
    return { value: bestValue, root: bestRoot };
  }

  /** The next level := the children at order[0 .. n - 1], their boards made in the kernel from their parents'. */
  private select(from: Level, n: number, to: Level): void {
    const ch = this.children;
    to.ensure(n);
    this.kernel.ensureNodes(to.buffer, n);
    for (let j = 0; j < n; j++) {
      const c = ch.order[j];
      const g = ch.groupOf(c);
      const p = ch.parent[g];
      if (ch.carried[g]) this.kernel.copyNode(from.buffer, p, to.buffer, j);
      else this.kernel.materialize(from.buffer, p, c, to.buffer, j);
      to.current[j] = ch.current[g];
      to.next[j] = ch.next[g];
      to.hold[j] = ch.hold[g];
      to.canHold[j] = ch.carried[g] ? from.canHold[p] : 1;
      to.root[j] = ch.rootOf(c, g);
      to.value[j] = this.kernel.childValue(c);
    }
    to.size = n;
  }

  /** Node i goes on as it is: a child that is its parent. */
  private carry(level: Level, i: number): void {
    const ch = this.children;
    const c = ch.size;
    this.kernel.carry(c, level.value[i]);
    const g = ch.add(i, 1);
    ch.carried[g] = 1;
    ch.current[g] = level.current[i];
    ch.next[g] = level.next[i];
    ch.hold[g] = level.hold[i];
    ch.root[g] = level.root[i];
  }

  /** Every child of node i: each turn the rules allow (without hold, then with), each reachable placement. */
  private expandNode(level: Level, i: number, atRoot: boolean): void {
    const current = level.current[i];
    const next = level.next[i];
    const held = level.hold[i];
    const queue = this.queue;
    const length = this.queueLength;
    const after = next < length ? queue[next] : NO_PIECE;
    this.expandTurn(level, i, atRoot, false, current, after, next + 1, held);
    if (this.ctx.holdAllowed && level.canHold[i]) {
      if (held !== NO_PIECE) {
        if (held !== current) this.expandTurn(level, i, atRoot, true, held, after, next + 1, current);
      } else if (next < length) {
        const afterHold = next + 1 < length ? queue[next + 1] : NO_PIECE;
        this.expandTurn(level, i, atRoot, true, queue[next], afterHold, next + 2, current);
      }
    }
  }

  private expandTurn(
    level: Level,
    i: number,
    atRoot: boolean,
    hold: boolean,
    piece: number,
    current: number,
    next: number,
    holdPiece: number,
  ): void {
    const ch = this.children;
    const first = ch.size;
    let n: number;
    if (atRoot) {
      const list = this.rootReach(PIECES[piece]);
      n = list.length;
      this.kernel.expandPlacements(level.buffer, i, first, list);
    } else n = this.kernel.expandPiece(level.buffer, i, first, piece);
    if (n === 0) return;
    const g = ch.add(i, n);
    ch.carried[g] = 0;
    ch.current[g] = current;
    ch.next[g] = next;
    ch.hold[g] = holdPiece;
    ch.root[g] = level.root[i];
    if (level.root[i] < 0) {
      ch.rootBase[g] = this.roots.size;
      for (let j = 0; j < n; j++) this.addRoot(hold, piece, j);
    }
  }

  private addRoot(hold: boolean, piece: number, index: number): number {
    const r = this.roots;
    if (r.size === r.hold.length) {
      const cap = 2 * r.size;
      const hold2 = new Uint8Array(cap);
      const piece2 = new Int8Array(cap);
      const index2 = new Int32Array(cap);
      hold2.set(r.hold);
      piece2.set(r.piece);
      index2.set(r.index);
      this.roots = { size: r.size, hold: hold2, piece: piece2, index: index2 };
    }
    const roots = this.roots;
    roots.hold[roots.size] = hold ? 1 : 0;
    roots.piece[roots.size] = piece;
    roots.index[roots.size] = index;
    return roots.size++;
  }
}

/** Whether the first `lines` nodes of a level all began with the same root move. */
function sameRoot(level: Level, lines: number): boolean {
  for (let j = 1; j < lines; j++) if (level.root[j] !== level.root[0]) return false;
  return true;
}

const beam = new BeamSearch();
