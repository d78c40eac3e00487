/**
 * TypeScript side of the versus-search kernel (assembly/versus.ts): one instance per thread, created synchronously on
 * first use. It writes what a search reads — the reachable kernel's piece tables and parameters for the rule set
 * (the kernel runs that search in its own memory), the evaluator's weights, the attack table, the root position —
 * calls the search and reads its answer. Its buffers (two levels of nodes, the candidates and their hash slots) grow
 * with the beam and are kept for the next search. src/tetris-ai/versus.ts plays the moves; only this module touches the
 * kernel's memory.
 */
import { StackRankError } from '../errors.js';
import { CLEAR_KINDS, type AttackTable } from '../rules/attack.js';
import type { GarbageEntry } from '../rules/garbage.js';
import { reachSetup } from './reachable.js';
import {
  CTX_BYTES as REACH_CTX_BYTES,
  OUT_LANDED,
  OUT_WORDS,
  O_OUT,
  PARAM_WORDS,
  STATE_ROTATION_SHIFT,
  STATE_X_MASK,
  STATE_Y_MASK,
  STATE_Y_SHIFT,
  TABLE_BYTES,
  WALL,
} from '../../assembly/reachable/layout.js';
import type { RuleSet } from '../rules/rule-sets.js';
import { loadKernelSync, type KernelInstance } from './wasm.js';
import {
  A_B2B,
  A_BASE,
  A_COMBO,
  A_COMBO_COUNT,
  A_PC_ADD,
  A_PC_LINES,
  CAND_BYTES,
  CTX_BYTES,
  C_ATTACK,
  C_BEAM,
  C_BEST_ATTACK,
  C_BEST_ROOT,
  C_BEST_VALUE,
  C_BOUND,
  C_BOUNDED,
  C_CAPACITY,
  C_CHILDREN,
  C_COUNT,
  C_DEPTH,
  C_FEATURES,
  C_FORCE_ROOT,
  C_HEAP,
  C_HOLD_ALLOWED,
  C_INCOMING,
  C_INCOMING_COUNT,
  C_LEVELS,
  C_NODES,
  C_PARAMS,
  C_QUICK,
  C_REACH,
  C_REACH_CACHE,
  C_ROOT,
  C_SCRATCH,
  C_SEQUENCE,
  C_SLOTS,
  C_SLOT_BITS,
  C_TABLES,
  C_TSLOT_CUTS,
  C_VISIBLE,
  C_WEIGHTS,
  C_WIDTH,
  MAX_COMBO_ENTRIES,
  MAX_INCOMING,
  MAX_PIECES,
  MAX_ROWS,
  MOVE_SPIN_SHIFT,
  NODE_BYTES,
  N_ACC,
  N_ATTACK,
  N_B2B,
  N_CAN_HOLD,
  N_COMBO,
  N_HOLD,
  N_NEXT,
  N_PLIES,
  N_QUEUE_AT,
  N_QUEUE_LEFT,
  N_RISEN,
  N_ROOT,
  N_TOP,
  N_VALUE,
  RC_BYTES,
  RC_PIECE,
  REACH_CACHE_BITS,
  WEIGHT_COUNT,
} from '../../assembly/versus/layout.js';
import { ROOT_HOLD } from '../../assembly/versus/layout.js';

/** The layout's numbers the versus policy speaks in: pieces a search takes, the root code of a move after hold, the
 * evaluator's terms. */
export { MAX_PIECES, ROOT_HOLD, WEIGHT_COUNT };

interface VersusKernelExports {
  alloc(bytes: number): number;
  search(ctx: number): void;
  measureRoot(ctx: number): number;
  lockRoot(ctx: number, move: number): number;
  quickRoot(ctx: number, pid: number): number;
  listRoot(ctx: number, pid: number, quick: number): number;
  listAddress(): number;
  CTX_BYTES: WebAssembly.Global;
}

/** What every search of a game shares: the board's shape, the rules, the beam, the evaluator's weights in kernel
 * order (WEIGHT_COUNT numbers) and the attack table. */
export interface VersusSearchSettings {
  width: number;
  /** Rows of the field: a board with a cell at or over this row has topped out. */
  visibleHeight: number;
  /** The board height the placements are reached on (the reachable search's field). */
  height: number;
  rules: RuleSet;
  holdAllowed: boolean;
  /** Pieces placed along a line at most. */
  depth: number;
  /** Lines kept per ply. */
  beam: number;
  /** Below the first ply, a piece that cannot spin takes the quick placement list (hard drops and one-column tucks:
   * assembly/versus/drops.ts) instead of every reachable placement. */
  quick: boolean;
  /** T-spins the evaluator imagines in a board's T-slots (0..3; docs/game.md, "The versus policy"): 0 values the best
   * slot as it stands. */
  tSlotCuts: number;
  weights: ArrayLike<number>;
  attack: AttackTable;
  /** false: every child valued in full, without the bound that leaves those that cannot enter a full level (the
   * same choices; for the tests). Default true. */
  bound?: boolean;
}

/** A position to search: the board and the line's state at its root. */
export interface VersusPosition {
  /** Bit rows, bottom first; rows from MAX_ROWS up must be empty. */
  rows: ArrayLike<number>;
  /** The known pieces (ids 0..6), the current one first: at most MAX_PIECES. */
  sequence: readonly number[];
  /** The held piece's id, or -1. */
  hold: number;
  canHold: boolean;
  combo: number;
  backToBack: number;
  incoming: readonly GarbageEntry[];
}

/** A search's answer: the best line's root move (ROOT_HOLD + placement index; -1: no move), value and attack. */
export interface VersusSearchResult {
  root: number;
  value: number;
  attack: number;
  /** Nodes expanded and placements valued. */
  nodes: number;
  placements: number;
  /** Placements left once the bound on their board terms said they could not enter their level. */
  bounded: number;
}

/** The largest combo and back-to-back count the kernel's counters take (larger ones are read as this). */
const MAX_COUNT = 0x3fffffff;

export class VersusKernel {
  private static instance: VersusKernel | undefined;
  /** This thread's kernel. */
  static get(): VersusKernel {
    VersusKernel.instance ??= new VersusKernel(loadKernelSync<VersusKernelExports>('versus'));
    return VersusKernel.instance;
  }

  private readonly k: VersusKernelExports;
  private readonly ctx: number;
  private i32!: Int32Array;
  private u32!: Uint32Array;
  private f64!: Float64Array;
  /** Nodes per level buffer allocated so far. */
  private capacity = 0;
  /** The rule set and board shape whose reachable tables and parameters are written. */
  private reachFor: { rules: RuleSet | null; width: number; height: number } = { rules: null, width: 0, height: 0 };

  private constructor(private readonly kernel: KernelInstance<VersusKernelExports>) {
    this.k = kernel.exports;
    if (this.k.CTX_BYTES.value !== CTX_BYTES)
      throw new StackRankError(
        'WASM_FAILED',
        'versus kernel layout does not match assembly/versus/layout.ts (rebuild the kernels)',
      );
    this.ctx = this.k.alloc(CTX_BYTES);
    const reach = this.k.alloc(REACH_CTX_BYTES);
    const tables = this.k.alloc(7 * TABLE_BYTES);
    const params = this.k.alloc(7 * PARAM_WORDS * 4);
    const cache = this.k.alloc(RC_BYTES << REACH_CACHE_BITS);
    this.views();
    const w = this.ctx >> 2;
    this.i32[w + (C_REACH >> 2)] = reach;
    this.i32[w + (C_TABLES >> 2)] = tables;
    this.i32[w + (C_PARAMS >> 2)] = params;
    this.i32[w + (C_REACH_CACHE >> 2)] = cache;
  }

  private views(): void {
    const buffer = this.kernel.memory.buffer;
    this.i32 = new Int32Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.f64 = new Float64Array(buffer);
  }

  private word(offset: number): number {
    return this.i32[(this.ctx + offset) >> 2];
  }

  private setWord(offset: number, v: number): void {
    this.i32[(this.ctx + offset) >> 2] = v;
  }

  /** Writes the settings a search reads (the reachable tables only when the rule set or board shape changed). */
  private configure(s: VersusSearchSettings): void {
    const f = this.reachFor;
    if (f.rules !== s.rules || f.width !== s.width || f.height !== s.height) {
      const { tables, params } = reachSetup(s.width, s.height, s.rules);
      const t = this.word(C_TABLES) >> 2;
      const p = this.word(C_PARAMS) >> 2;
      for (let pid = 0; pid < 7; pid++) {
        this.i32.set(tables[pid], t + (pid * TABLE_BYTES) / 4);
        this.i32.set(params[pid], p + pid * PARAM_WORDS);
      }
      // the kernel's reach cache holds lists of the old tables: empty it
      const cache = this.word(C_REACH_CACHE);
      for (let e = 0; e < 1 << REACH_CACHE_BITS; e++) this.i32[(cache + e * RC_BYTES + RC_PIECE) >> 2] = -1;
      this.reachFor = { rules: s.rules, width: s.width, height: s.height };
    }
    this.ensureCapacity(s.beam);
    this.setWord(C_WIDTH, s.width);
    this.setWord(C_VISIBLE, s.visibleHeight);
    this.setWord(C_DEPTH, s.depth);
    this.setWord(C_BEAM, s.beam);
    this.setWord(C_HOLD_ALLOWED, s.holdAllowed ? 1 : 0);
    this.setWord(C_QUICK, s.quick ? 1 : 0);
    this.setWord(C_TSLOT_CUTS, s.tSlotCuts);
    this.setWord(C_BOUND, s.bound === false ? 0 : 1);
    if (s.weights.length !== WEIGHT_COUNT)
      throw new Error(`${s.weights.length} weights; the kernel reads ${WEIGHT_COUNT}`);
    const w = (this.ctx + C_WEIGHTS) >> 3;
    for (let i = 0; i < WEIGHT_COUNT; i++) this.f64[w + i] = s.weights[i];
    this.writeAttack(s.attack);
  }

  private writeAttack(table: AttackTable): void {
    if (table.backToBack.kind !== 'flat' || table.combo.kind !== 'table')
      throw new StackRankError(
        'BAD_RULES',
        `the versus search counts attack by tables with a flat back-to-back bonus and a combo table; ${table.name}'s is not one`,
      );
    const a = (this.ctx + C_ATTACK) >> 2;
    CLEAR_KINDS.forEach((kind, i) => {
      this.i32[a + A_BASE + i] = table.base[kind];
    });
    this.i32[a + A_B2B] = table.backToBack.bonus;
    const combo = table.combo.table;
    const n = Math.min(combo.length, MAX_COMBO_ENTRIES);
    this.i32[a + A_COMBO_COUNT] = n;
    for (let i = 0; i < n; i++) this.i32[a + A_COMBO + i] = combo[i];
    // a longer table's entries past the kernel's room: its last entry serves them all
    if (combo.length > n) this.i32[a + A_COMBO + n - 1] = combo[combo.length - 1];
    this.i32[a + A_PC_LINES] = table.perfectClear.lines;
    this.i32[a + A_PC_ADD] = table.perfectClear.mode === 'add' ? 1 : 0;
  }

  /** Room for a beam of `beam` lines: two levels of nodes, the candidates and their hash slots (4 per candidate). */
  private ensureCapacity(beam: number): void {
    if (beam <= this.capacity) return;
    const cap = Math.max(beam, 16);
    let bits = 4;
    while (1 << bits < 4 * cap) bits++;
    const levels = this.k.alloc(2 * cap * NODE_BYTES);
    const heap = this.k.alloc(cap * CAND_BYTES);
    const slots = this.k.alloc((1 << bits) * 4);
    this.views();
    this.setWord(C_LEVELS, levels);
    this.setWord(C_HEAP, heap);
    this.setWord(C_SLOTS, slots);
    this.setWord(C_SLOT_BITS, bits);
    this.setWord(C_CAPACITY, cap);
    this.capacity = cap;
  }

  /** Writes the root node and the line's known pieces and garbage. */
  private writeRoot(p: VersusPosition): void {
    const n = p.sequence.length;
    if (n < 1 || n > MAX_PIECES) throw new Error(`a search reads 1 to ${MAX_PIECES} known pieces; got ${n}`);
    const seq = (this.ctx + C_SEQUENCE) >> 2;
    for (let i = 0; i < n; i++) this.i32[seq + i] = p.sequence[i];
    this.setWord(C_COUNT, n);
    // the incoming entries; a longer queue's tail is read as one entry with the delay of the first of it
    const entries = p.incoming;
    const count = Math.min(entries.length, MAX_INCOMING);
    const inc = (this.ctx + C_INCOMING) >> 2;
    for (let i = 0; i < count; i++) {
      this.i32[inc + 2 * i] = entries[i].lines;
      this.i32[inc + 2 * i + 1] = entries[i].delay;
    }
    for (let i = count; i < entries.length; i++) this.i32[inc + 2 * (count - 1)] += entries[i].lines;
    this.setWord(C_INCOMING_COUNT, count);
    const root = this.ctx + C_ROOT;
    const rows = root >> 2;
    let top = 0;
    for (let y = 0; y < MAX_ROWS; y++) {
      const v = y < p.rows.length ? p.rows[y] >>> 0 : 0;
      this.u32[rows + y] = v;
      if (v !== 0) top = y + 1;
    }
    for (let y = MAX_ROWS; y < p.rows.length; y++)
      if (p.rows[y] !== 0) throw new Error(`the versus search reads ${MAX_ROWS} rows; row ${y} is not empty`);
    const w = (offset: number, v: number) => {
      this.i32[(root + offset) >> 2] = v;
    };
    w(N_TOP, top);
    w(N_NEXT, 0);
    w(N_HOLD, p.hold);
    w(N_CAN_HOLD, p.canHold ? 1 : 0);
    w(N_COMBO, Math.min(p.combo, MAX_COUNT));
    w(N_B2B, Math.min(p.backToBack, MAX_COUNT));
    w(N_QUEUE_AT, 0);
    w(N_QUEUE_LEFT, count > 0 ? this.i32[inc] : 0);
    w(N_RISEN, 0);
    w(N_PLIES, 0);
    w(N_ROOT, -1);
    w(N_ATTACK, 0);
    this.f64[(root + N_ACC) >> 3] = 0;
    this.f64[(root + N_VALUE) >> 3] = 0;
  }

  /** The best line from a position; `forceRoot` (a root move's code) searches only the lines that begin with it. */
  search(s: VersusSearchSettings, p: VersusPosition, forceRoot = -1): VersusSearchResult {
    this.configure(s);
    this.writeRoot(p);
    this.setWord(C_FORCE_ROOT, forceRoot);
    this.k.search(this.ctx);
    return {
      root: this.word(C_BEST_ROOT),
      value: this.f64[(this.ctx + C_BEST_VALUE) >> 3],
      attack: this.word(C_BEST_ATTACK),
      nodes: this.word(C_NODES),
      placements: this.word(C_CHILDREN),
      bounded: this.word(C_BOUNDED),
    };
  }

  /** The evaluator's board terms of a position's board (for the tests): each term's number, and their weighted sum. */
  measure(s: VersusSearchSettings, p: VersusPosition): { terms: number[]; value: number } {
    this.configure(s);
    this.writeRoot(p);
    const value = this.k.measureRoot(this.ctx);
    const f = (this.ctx + C_FEATURES) >> 3;
    return { terms: Array.from(this.f64.subarray(f, f + WEIGHT_COUNT)), value };
  }

  /** The value of the root's child for one placement (MOVE_* packing; for the tests), and the child's state. */
  child(
    s: VersusSearchSettings,
    p: VersusPosition,
    move: number,
  ): { value: number; rows: Uint32Array; combo: number; backToBack: number; attack: number } {
    this.configure(s);
    this.writeRoot(p);
    const value = this.k.lockRoot(this.ctx, move);
    const at = this.ctx + C_SCRATCH;
    const top = this.i32[(at + N_TOP) >> 2];
    return {
      value,
      rows: this.u32.slice(at >> 2, (at >> 2) + top),
      combo: this.i32[(at + N_COMBO) >> 2],
      backToBack: this.i32[(at + N_B2B) >> 2],
      attack: this.i32[(at + N_ATTACK) >> 2],
    };
  }

  /**
   * The quick placement list (assembly/versus/drops.ts) of piece `pid` on a position's board: each placement's state
   * index and reference point, in the list's order; null when the board is too high for it (for the tests).
   */
  quickPlacements(
    s: VersusSearchSettings,
    p: VersusPosition,
    pid: number,
  ): { state: number; x: number; y: number }[] | null {
    this.configure(s);
    this.writeRoot(p);
    const n = this.k.quickRoot(this.ctx, pid);
    if (n < 0) return null;
    const out = (this.word(C_REACH) + O_OUT) >> 2;
    const list: { state: number; x: number; y: number }[] = [];
    for (let i = 0; i < n; i++) {
      const code = this.i32[out + i * OUT_WORDS + OUT_LANDED];
      list.push({
        state: code >> STATE_ROTATION_SHIFT,
        x: (code & STATE_X_MASK) - WALL,
        y: ((code >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL,
      });
    }
    return list;
  }

  /**
   * The placement list of piece `pid` on a position's board as the search reads it, through the kernel's table of
   * lists kept by board (assembly/versus/reach-cache.ts): the quick list with `quick`, else the full search's; each
   * placement's state index, reference point and spin level; null when the quick list does not apply (for the tests).
   */
  listedPlacements(
    s: VersusSearchSettings,
    p: VersusPosition,
    pid: number,
    quick: boolean,
  ): { state: number; x: number; y: number; spin: number }[] | null {
    this.configure(s);
    this.writeRoot(p);
    const n = this.k.listRoot(this.ctx, pid, quick ? 1 : 0);
    if (n < 0) return null;
    const at = this.k.listAddress() >> 2;
    const list: { state: number; x: number; y: number; spin: number }[] = [];
    for (let i = 0; i < n; i++) {
      const word = this.i32[at + i];
      const code = word & ((1 << MOVE_SPIN_SHIFT) - 1);
      list.push({
        state: code >> STATE_ROTATION_SHIFT,
        x: (code & STATE_X_MASK) - WALL,
        y: ((code >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL,
        spin: word >> MOVE_SPIN_SHIFT,
      });
    }
    return list;
  }
}
