/**
 * The recover-search kernel (assembly/recover.ts): the boards of recover mode's beam search (src/tetris-ai/recover.ts)
 * in WebAssembly, each piece's placements on them locked, measured and valued there. One instance per thread,
 * loaded synchronously on first use, with its buffers (two levels of beam nodes, the children of a level) grown as
 * a search needs and kept for the next. The search calls this module once per node and piece: where the kernel
 * cannot drop the piece itself (rule sets with kicks, soft drop or 20G), the reachable kernel's placements are
 * found and handed over here, in the same call.
 */
import { StackRankError } from '../errors.js';
import { pieceGeometry } from '../rules/geometry.js';
import { ROTATION_SYSTEMS, type RotationSystemName } from '../rules/rotation-systems.js';
import type { RuleSet } from '../rules/rule-sets.js';
import type { Cell } from '../rules/types.js';
import { LANDINGS_WORDS, REACH_MAX_ROWS, reachLandings, topDrops } from './reachable.js';
import { loadKernelSync, type KernelInstance } from './wasm.js';
import {
  CELL_WORDS,
  CTX_BYTES,
  D_CLEAR_BELOW,
  D_COUNT,
  D_LIST,
  D_LOCK_TOP,
  DROP_TABLE_WORDS,
  MAX_DROPS,
  MAX_STATES,
  MAX_COLUMNS,
  MAX_ROWS,
  NODE_BYTES,
  N_ACC,
  O_BOARD,
  O_CHILD_ACCS,
  O_CHILD_CELLS,
  O_CHILD_VALUES,
  O_FEATURES,
  O_GEOMETRY,
  O_HEIGHT,
  O_LANDINGS,
  O_MAX_FLOOR,
  O_ROW_COUNT,
  O_VISIBLE,
  O_WEIGHTS,
  O_WELL,
  O_COVER_WELL,
  O_DROPS,
  O_WIDTH,
  PIECE_CELLS,
  PIECE_COUNT,
  W_CLEAN,
  W_COLUMN_TRANSITIONS,
  W_CUMULATIVE_WELLS,
  W_ERODED_PIECE_CELLS,
  W_FLOOR_ROWS,
  W_HOLES,
  W_HOLE_DEPTH,
  W_LANDING_HEIGHT,
  W_ROWS_WITH_HOLES,
  W_ROW_TRANSITIONS,
  W_WELL_CELLS,
  W_WELL_COVER,
} from '../../assembly/recover/layout.js';

/** What a move that leaves a cell at or above the visible field costs: more than any board's terms. */
export { TOP_OUT } from '../../assembly/recover/layout.js';

interface RecoverKernelExports {
  alloc(bytes: number): number;
  expand(ctx: number, node: number, first: number, n: number): void;
  expandLandings(ctx: number, node: number, first: number, n: number, piece: number, again: number): void;
  dropLandings(ctx: number, node: number, piece: number): number;
  bestDrop(ctx: number, node: number, piece: number, again: number): number;
  bestDropCounts(): number;
  profileGeometry(ctx: number): void;
  materialize(ctx: number, node: number, child: number, dst: number): void;
  prepareNode(ctx: number, node: number): void;
  boardFeatures(ctx: number, lines: number, eroded: number, landingRow: number, pieceHeight: number): void;
  CTX_BYTES: WebAssembly.Global;
}

// The terms of recover mode's evaluator (docs/game.md, "Recover mode"), as this kernel measures and weighs them:
// the evaluator (src/tetris-ai/evaluate.ts) and the beam search (src/tetris-ai/recover.ts) speak them too.

/** The eight BCTS features (Thiery & Scherrer 2009) plus the recover terms, in the order of RecoverWeights. */
export interface BoardFeatures {
  landingHeight: number;
  erodedPieceCells: number;
  rowTransitions: number;
  columnTransitions: number;
  holes: number;
  cumulativeWells: number;
  holeDepth: number;
  rowsWithHoles: number;
  /** Filled cells in the well column (a well holding them is not Tetris-ready). */
  wellCells: number;
  /** 1 when the board is a clean stack with the well open (docs/game.md), on the field's bottom or over a floor of
   * at most the AI's highest floor of buried rows (policy.ts, MAX_FLOOR), else 0. */
  clean: number;
  /** The floor of that clean stack (rows buried under it), 0 when the board is not one. */
  floorRows: number;
  /** In the column of a well a piece may cover (tall boards near the top: docs/game.md, "Recover mode"), the cells
   * over its highest empty cell, 0 elsewhere; that column's empty cells under them are not holes. */
  wellCover: number;
}

export type RecoverWeights = { readonly [K in keyof BoardFeatures]: number };

/** What a move did, for the move-dependent features. */
export interface MoveFacts {
  /** Rows the move cleared. */
  lines: number;
  /** Cells of the placed piece inside the cleared rows. */
  erodedCells: number;
  /** Row of the piece's lowest cell, before rows were cleared. */
  landingRow: number;
  /** Rows the piece spans (highest cell row − lowest + 1). */
  pieceHeight: number;
}

/** What a search's boards share: the context words. */
export interface RecoverBoardSettings {
  width: number;
  height: number;
  visibleHeight: number;
  wellColumn: number;
  /** The well a piece may cover (RecoverContext.coverWell), -1 for none. */
  coverWell: number;
  rowCount: number;
  maxFloor: number;
  weights: RecoverWeights;
}

/** Weight order of the kernel (assembly/recover/layout.ts W_*). */
const WEIGHT_INDEX: readonly [keyof BoardFeatures, number][] = [
  ['landingHeight', W_LANDING_HEIGHT],
  ['erodedPieceCells', W_ERODED_PIECE_CELLS],
  ['rowTransitions', W_ROW_TRANSITIONS],
  ['columnTransitions', W_COLUMN_TRANSITIONS],
  ['holes', W_HOLES],
  ['cumulativeWells', W_CUMULATIVE_WELLS],
  ['holeDepth', W_HOLE_DEPTH],
  ['rowsWithHoles', W_ROWS_WITH_HOLES],
  ['wellCells', W_WELL_CELLS],
  ['clean', W_CLEAN],
  ['floorRows', W_FLOOR_ROWS],
  ['wellCover', W_WELL_COVER],
];

const NODE_WORDS = NODE_BYTES / 4;
const CHILD_BYTES = CELL_WORDS * 4 + 16;

/**
 * The kernel's beam: node buffers by level (0, 1 and 2), each node a board with its line's sum of move terms; and
 * the children of one level, each a placement on its parent's board with its line's value.
 */
export class RecoverKernel {
  private static instance: RecoverKernel | undefined;
  /** This thread's kernel. */
  static get(): RecoverKernel {
    RecoverKernel.instance ??= new RecoverKernel(loadKernelSync<RecoverKernelExports>('recover'));
    return RecoverKernel.instance;
  }

  private readonly k: RecoverKernelExports;
  private readonly ctx: number;
  /** Views over the whole memory, made again whenever an allocation may have grown it. */
  private i32!: Int32Array;
  private u32!: Uint32Array;
  private f64!: Float64Array;
  private nodeCap = [0, 0, 0];
  private nodeBase = [0, 0, 0];
  private childCap = 0;
  /** Word index of child 0's cells, and f64 index of child 0's value. */
  private cellsWord = 0;
  private valuesIndex = 0;
  private accsIndex = 0;
  private width = 0;
  private height = 0;
  private rowCount = 0;
  private readonly landingsAt: number;
  private landingsView!: Int32Array;
  private geometrySystem = '';
  /** The rule set placements are reached under (useRules), for the boards no drop table holds on. */
  private rules: RuleSet | null = null;
  /** The drop tables (useRules): where, and for which rule set and board shape they were written. */
  private dropsAt = 0;
  private dropsFor: { rules: RuleSet | null; width: number; height: number } = { rules: null, width: 0, height: 0 };

  private constructor(private readonly kernel: KernelInstance<RecoverKernelExports>) {
    this.k = kernel.exports;
    if (this.k.CTX_BYTES.value !== CTX_BYTES)
      throw new StackRankError(
        'WASM_FAILED',
        'recover kernel layout does not match assembly/recover/layout.ts (rebuild the kernels)',
      );
    this.ctx = this.k.alloc(CTX_BYTES);
    this.landingsAt = this.k.alloc(LANDINGS_WORDS * 4);
    this.views();
    this.i32[(this.ctx + O_LANDINGS) >> 2] = this.landingsAt;
  }

  private views(): void {
    const buffer = this.kernel.memory.buffer;
    this.i32 = new Int32Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.landingsView = this.i32.subarray(this.landingsAt >> 2, (this.landingsAt >> 2) + LANDINGS_WORDS);
  }

  /**
   * The kernel's landings (state, x, y per placement, as the reachable kernel lists them): what dropLandings
   * writes and expandLandings reads. A view, for the kernel's tests; valid until the next allocation.
   */
  get landings(): Int32Array {
    return this.landingsView;
  }

  /** Writes the context words every board of a search shares. */
  configure(s: RecoverBoardSettings): void {
    if (s.rowCount > MAX_ROWS)
      throw new StackRankError('BAD_BOARD', `the recover search takes at most ${MAX_ROWS} rows; got ${s.rowCount}`);
    if (!Number.isInteger(s.width) || s.width < 1 || s.width > MAX_COLUMNS)
      throw new StackRankError('BAD_BOARD', `the recover search takes 1 to ${MAX_COLUMNS} columns; got ${s.width}`);
    // A well the terms aim for and a well a piece may cover are two readings of one column's cells: the kernel's
    // floor and the reference's differ when both are set (RecoverContext.coverWell).
    if (s.coverWell >= 0 && s.wellColumn >= 0) throw new Error('a covered well is read only with no well aimed for');
    const w = this.ctx >> 2;
    this.i32[w + (O_WIDTH >> 2)] = s.width;
    this.i32[w + (O_HEIGHT >> 2)] = s.height;
    this.i32[w + (O_VISIBLE >> 2)] = s.visibleHeight;
    this.i32[w + (O_WELL >> 2)] = s.wellColumn;
    this.i32[w + (O_COVER_WELL >> 2)] = s.coverWell;
    this.i32[w + (O_ROW_COUNT >> 2)] = s.rowCount;
    this.i32[w + (O_MAX_FLOOR >> 2)] = s.maxFloor;
    const f = (this.ctx + O_WEIGHTS) >> 3;
    for (const [name, i] of WEIGHT_INDEX) this.f64[f + i] = s.weights[name];
    this.width = s.width;
    this.height = s.height;
    this.rowCount = s.rowCount;
  }

  /**
   * The rule set pieces are placed under on the configured board shape: the cells of every piece state of its
   * rotation system, and each piece's drop table (where the kernel drops the piece itself), each written when they
   * change.
   */
  useRules(rules: RuleSet): void {
    this.useRotationSystem(rules.rotationSystem);
    this.useDrops(rules, this.width, this.height);
    this.rules = rules;
  }

  /** Writes the cells of every piece state of a rotation system (once per system change). */
  private useRotationSystem(system: RotationSystemName): void {
    if (system === this.geometrySystem) return;
    const base = (this.ctx + O_GEOMETRY) >> 2;
    for (let pid = 0; pid < PIECE_COUNT; pid++) {
      const g = pieceGeometry(ROTATION_SYSTEMS[system], pid);
      if (g.cells.length > MAX_STATES)
        throw new Error(`${g.cells.length} states do not fit the kernel's ${MAX_STATES}`);
      for (let st = 0; st < g.cells.length; st++) {
        const at = base + (pid * MAX_STATES + st) * CELL_WORDS;
        for (let c = 0; c < PIECE_CELLS; c++) {
          this.i32[at + 2 * c] = g.cells[st][c][0];
          this.i32[at + 2 * c + 1] = g.cells[st][c][1];
        }
      }
    }
    this.k.profileGeometry(this.ctx);
    this.geometrySystem = system;
  }

  /**
   * Writes each piece's drop table for a rule set and board shape (once per change): where dropLandings places the
   * piece without the reachable kernel (src/kernels/reachable.ts topDrops), or nowhere under rule sets whose
   * placements need that kernel's search. The tables index the states useRotationSystem wrote for the same system.
   */
  private useDrops(rules: RuleSet, width: number, height: number): void {
    const f = this.dropsFor;
    if (f.rules === rules && f.width === width && f.height === height) return;
    if (this.dropsAt === 0) {
      this.dropsAt = this.k.alloc(PIECE_COUNT * DROP_TABLE_WORDS * 4);
      this.views();
    }
    for (let pid = 0; pid < PIECE_COUNT; pid++) {
      const t = (this.dropsAt >> 2) + pid * DROP_TABLE_WORDS;
      const drops = topDrops(width, height, pid, rules);
      if (!drops) {
        this.i32[t + D_COUNT] = -1;
        continue;
      }
      if (drops.states.length > MAX_DROPS)
        throw new Error(`${drops.states.length} drops do not fit the kernel's ${MAX_DROPS}`);
      this.i32[t + D_COUNT] = drops.states.length;
      this.i32[t + D_CLEAR_BELOW] = drops.clearBelow;
      this.i32[t + D_LOCK_TOP] = drops.lockTop;
      for (let i = 0; i < drops.states.length; i++) {
        this.i32[t + D_LIST + 2 * i] = drops.states[i];
        this.i32[t + D_LIST + 2 * i + 1] = drops.xs[i];
      }
    }
    this.i32[(this.ctx + O_DROPS) >> 2] = this.dropsAt;
    this.dropsFor = { rules, width, height };
  }

  /** Room for n nodes in level buffer `level` (0, 1 or 2); what it held is lost when it grows. */
  ensureNodes(level: number, n: number): void {
    if (n <= this.nodeCap[level]) return;
    const cap = Math.max(n, 2 * this.nodeCap[level], 16);
    this.nodeBase[level] = this.k.alloc(cap * NODE_BYTES);
    this.nodeCap[level] = cap;
    this.views();
    this.writeChildPointers();
  }

  /** Byte address of node i of a level. */
  private node(level: number, i: number): number {
    return this.nodeBase[level] + i * NODE_BYTES;
  }

  /** Node i's bit rows (a view: valid until the next ensure call). */
  private nodeRows(level: number, i: number): Uint32Array {
    const w = this.node(level, i) >> 2;
    return this.u32.subarray(w, w + this.rowCount);
  }

  /** Sets node i of a level to these rows (at most the configured row count) with a line total of `acc`. */
  writeNode(level: number, i: number, rows: ArrayLike<number>, acc: number): void {
    const at = this.node(level, i);
    this.u32.fill(0, at >> 2, (at >> 2) + MAX_ROWS);
    this.u32.set(rows, at >> 2);
    this.f64[(at + N_ACC) >> 3] = acc;
    this.k.prepareNode(this.ctx, at);
  }

  copyNode(fromLevel: number, i: number, toLevel: number, j: number): void {
    const from = this.node(fromLevel, i) >> 2;
    this.u32.copyWithin(this.node(toLevel, j) >> 2, from, from + NODE_WORDS);
  }

  /** Room for n children, keeping the first `keep`. */
  ensureChildren(n: number, keep: number): void {
    if (n <= this.childCap) return;
    const cap = Math.max(n, 2 * this.childCap, 1024);
    const base = this.k.alloc(cap * CHILD_BYTES);
    this.views();
    const cellsWord = base >> 2;
    const valuesIndex = (base + cap * CELL_WORDS * 4) >> 3;
    const accsIndex = valuesIndex + cap;
    if (keep > 0) {
      this.i32.copyWithin(cellsWord, this.cellsWord, this.cellsWord + keep * CELL_WORDS);
      this.f64.copyWithin(valuesIndex, this.valuesIndex, this.valuesIndex + keep);
      this.f64.copyWithin(accsIndex, this.accsIndex, this.accsIndex + keep);
    }
    this.cellsWord = cellsWord;
    this.valuesIndex = valuesIndex;
    this.accsIndex = accsIndex;
    this.childCap = cap;
    this.writeChildPointers();
  }

  private writeChildPointers(): void {
    if (this.childCap === 0) return;
    const w = this.ctx >> 2;
    this.i32[w + (O_CHILD_CELLS >> 2)] = this.cellsWord << 2;
    this.i32[w + (O_CHILD_VALUES >> 2)] = this.valuesIndex << 3;
    this.i32[w + (O_CHILD_ACCS >> 2)] = this.accsIndex << 3;
  }

  /** Child c's placement: these cells. */
  private setChildCells(c: number, cells: readonly Cell[]): void {
    const at = this.cellsWord + c * CELL_WORDS;
    for (let i = 0; i < PIECE_CELLS; i++) {
      this.i32[at + 2 * i] = cells[i][0];
      this.i32[at + 2 * i + 1] = cells[i][1];
    }
  }

  /**
   * Children first .. first + n - 1 of node i of a level := these n placements (their cells), valued; room for them
   * is made, keeping the children before `first`.
   */
  expandPlacements(
    level: number,
    i: number,
    first: number,
    placements: readonly { readonly cells: readonly Cell[] }[],
  ): void {
    const n = placements.length;
    this.ensureChildren(first + n, first);
    for (let j = 0; j < n; j++) this.setChildCells(first + j, placements[j].cells);
    if (n > 0) this.k.expand(this.ctx, this.node(level, i), first, n);
  }

  /**
   * Children from `first` on := every placement of piece `pid` on node i of a level under the rules (useRules),
   * valued, in the reachable kernel's order; returns how many. Where the piece's drop table holds on that board the
   * kernel drops it itself; elsewhere the reachable kernel's placements are handed to it in the same call.
   */
  expandPiece(level: number, i: number, first: number, pid: number): number {
    const n = this.placedLandings(level, i, pid);
    this.ensureChildren(first + n, first);
    this.expandLandings(level, i, first, n, pid);
    return n;
  }

  /**
   * The expected value, over the piece after a line (chances per piece I O T S Z L J), of that piece's best
   * placement on node i of a level; a piece with no placement is worth `topOut`. The chance ply's valuation of one
   * line: the node is measured once for all its pieces, and where a drop table holds the kernel finds the best
   * placement without valuing every one. Children are written over.
   */
  expectedBest(level: number, i: number, chances: ArrayLike<number>, topOut: number): number {
    let expected = 0;
    // the node is measured by its first piece's valuation, and each later piece's reads the same terms
    let measured = false;
    for (let p = 0; p < PIECE_COUNT; p++) {
      const w = chances[p];
      if (w === 0) continue;
      const dropped = this.bestDrop(level, i, p, measured);
      if (!Number.isNaN(dropped)) {
        measured = true;
        expected += w * (dropped === -Infinity ? topOut : dropped);
        continue;
      }
      // NaN: no drop table here, so dropLandings would find none either
      const n = this.searchedLandings(level, i, p);
      let best = topOut;
      if (n > 0) {
        this.ensureChildren(n, 0);
        this.expandLandings(level, i, 0, n, p, measured);
        measured = true;
        best = this.f64[this.valuesIndex];
        for (let c = 1; c < n; c++) best = Math.max(best, this.f64[this.valuesIndex + c]);
      }
      expected += w * best;
    }
    return expected;
  }

  /** Piece `pid`'s placements on node i of a level into the landings: the kernel's drops, else the reachable kernel's. */
  private placedLandings(level: number, i: number, pid: number): number {
    const n = this.dropLandings(level, i, pid);
    return n >= 0 ? n : this.searchedLandings(level, i, pid);
  }

  /** The reachable kernel's placements of piece `pid` on node i of a level, into the landings. */
  private searchedLandings(level: number, i: number, pid: number): number {
    const rows = this.nodeRows(level, i);
    const height = this.height;
    const board = { width: this.width, height, rows: rows.length <= REACH_MAX_ROWS ? rows : rows.subarray(0, height) };
    return reachLandings(board, pid, this.rules!, this.landingsView);
  }

  /**
   * Values the n placements of piece `pid` in the landings (as the reachable kernel lists them: state, x, y; three
   * numbers each): their cells become children first .. first + n - 1. `again`: the last expand call was on the
   * same node, unchanged since, so its terms are not measured again.
   */
  expandLandings(level: number, i: number, first: number, n: number, pid: number, again = false): void {
    if (n > 0) this.k.expandLandings(this.ctx, this.node(level, i), first, n, pid, again ? 1 : 0);
  }

  /**
   * Piece `pid`'s placements on node i of a level into the landings, as reachLandings lists them, where its drop
   * table holds for that board; returns their count, or -1 where only the reachable kernel knows them.
   */
  dropLandings(level: number, i: number, pid: number): number {
    return this.k.dropLandings(this.ctx, this.node(level, i), pid);
  }

  /**
   * The best value among piece `pid`'s placements on node i of a level, where its drop table holds there (as
   * dropLandings then expandLandings and the largest child value would give, without valuing the placements that
   * cannot be the best); -Infinity when it has no placement, NaN where only the reachable kernel knows them.
   * `again` as expandLandings'. Children are not written.
   */
  bestDrop(level: number, i: number, pid: number, again = false): number {
    return this.k.bestDrop(this.ctx, this.node(level, i), pid, again ? 1 : 0);
  }

  /** How many placements the last bestDrop call had, and how many of them it valued. */
  bestDropCounts(): { placements: number; valued: number } {
    const packed = this.k.bestDropCounts();
    return { placements: packed >>> 16, valued: packed & 0xffff };
  }

  /** Node j of level `toLevel` := child c of node i of level `fromLevel`. */
  materialize(fromLevel: number, i: number, c: number, toLevel: number, j: number): void {
    this.k.materialize(this.ctx, this.node(fromLevel, i), c, this.node(toLevel, j));
  }

  childValue(c: number): number {
    return this.f64[this.valuesIndex + c];
  }

  /** Child c (room made, keeping the children before it) := a node carried as it is, with its value. */
  carry(c: number, value: number): void {
    this.ensureChildren(c + 1, c);
    this.f64[this.valuesIndex + c] = value;
  }

  /** The best of children 0 .. count - 1 (the first of equals). */
  bestChild(count: number): number {
    const values = this.f64;
    const base = this.valuesIndex;
    let best = 0;
    let bestValue = values[base];
    for (let c = 1; c < count; c++) {
      const v = values[base + c];
      if (v > bestValue) {
        best = c;
        bestValue = v;
      }
    }
    return best;
  }

  /**
   * The best `keep` of children 0 .. count - 1 into order[0 .. kept - 1], best first, equal values in the order
   * made (what a stable sort's first `keep` would be); returns how many are kept. An insertion into the kept few:
   * the beam and the chance ply keep a handful of several hundred children, where a whole sort cost more than the
   * rest of the search.
   */
  bestChildren(count: number, keep: number, order: Int32Array): number {
    const base = this.valuesIndex;
    const values = this.f64;
    const kept = Math.min(keep, count);
    let size = 0;
    for (let c = 0; c < count; c++) {
      const v = values[base + c];
      // a later child passes a kept one only when strictly better, so equals keep the order they were made in
      if (size === kept && !(v > values[base + order[size - 1]])) continue;
      let j = size < kept ? size++ : size - 1;
      while (j > 0 && v > values[base + order[j - 1]]) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = c;
    }
    return kept;
  }

  /** The features of a board after a move (the context configured for its width, height and well). */
  boardFeatures(rows: ArrayLike<number>, move: MoveFacts): BoardFeatures {
    const at = (this.ctx + O_BOARD) >> 2;
    this.u32.fill(0, at, at + MAX_ROWS);
    this.u32.set(rows, at);
    this.k.boardFeatures(this.ctx, move.lines, move.erodedCells, move.landingRow, move.pieceHeight);
    const f = (this.ctx + O_FEATURES) >> 3;
    const out = {} as Record<keyof BoardFeatures, number>;
    for (const [name, i] of WEIGHT_INDEX) out[name] = this.f64[f + i];
    return out;
  }
}
