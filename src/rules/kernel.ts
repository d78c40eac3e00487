/**
 * TypeScript side of the reachable-placements kernel (assembly/reachable.ts): the piece tables it reads, written
 * from src/rules/rotation-systems.ts (the kernel knows no shape), the context layout, and the results turned into
 * GamePlacement objects. One instance per thread, created synchronously on first use; its search is the
 * TypeScript search of reachable.ts move for move (tested), which stays the readable definition.
 */
import { StackRankError } from '../errors.js';
import { PIECES, type Piece } from '../pieces.js';
import { instantiateKernelSync, type KernelInstance } from '../wasm.js';
import { Board } from './board.js';
import { fieldFor, spawnY, type RuleSet } from './rule-sets.js';
import { pieceGeometry, SEARCH_MOVES, type PieceGeometry } from './geometry.js';
import { ROTATION_SYSTEM_NAMES, ROTATION_SYSTEMS } from './rotation-systems.js';
import { SPINS, spinGeometry } from './spins.js';
import type { Cell, GamePlacement, Input } from './types.js';
import {
  CTX_BYTES,
  FLAG_20G,
  FLAG_INITIAL_ROTATION,
  FLAG_SOFT_DROP,
  FLAG_SPINS,
  MAX_BOARD_ROWS,
  MAX_KICKS,
  OUT_FROM,
  OUT_LANDED,
  OUT_WORDS,
  O_BOARD,
  O_CEIL,
  O_FLAGS,
  O_LOCK,
  O_OUT,
  O_OUT_SPIN,
  O_PARENT,
  O_SPAWN_S,
  O_SPAWN_X,
  O_SPAWN_Y,
  O_VIA,
  O_WIDTH,
  PARAM_WORDS,
  STATE_COUNT,
  STATE_ROTATION_SHIFT,
  STATE_WORDS,
  STATE_X_MASK,
  STATE_Y_MASK,
  STATE_Y_SHIFT,
  S_BOT,
  S_CDX,
  S_CDY,
  S_H,
  S_MASK,
  S_MINDX,
  S_MINDY,
  S_NEXT,
  S_SHAPE,
  S_SPIN_CX,
  S_SPIN_CY,
  S_SPIN_FRONT,
  S_TURN,
  SPIN_LEVEL_MASK,
  SPIN_TURN_SHIFT,
  S_W,
  TABLE_BYTES,
  TABLE_HEADER_WORDS,
  TABLE_WORDS,
  TURN_WORDS,
  T_CENTRE,
  T_KICKS,
  T_KICK_DX,
  T_KICK_DY,
  T_READ_DX,
  T_READ_DY,
  T_UPGRADE,
  WALL,
} from './layout.js';

interface ReachableKernelExports {
  alloc(bytes: number): number;
  reach(ctx: number, table: number): number;
  reachFromTop(ctx: number, table: number, list: number, n: number, boardHeight: number): number;
  CTX_BYTES: WebAssembly.Global;
  TABLE_BYTES: WebAssembly.Global;
}

const sameCells = (a: readonly Cell[], b: readonly Cell[]) =>
  a.length === b.length && a.every((c, i) => c[0] === b[i][0] && c[1] === b[i][1]);

/** The words of one piece's table (see the layout in assembly/reachable/layout.ts). */
export function pieceTable(g: PieceGeometry): Int32Array {
  const t = new Int32Array(TABLE_WORDS);
  const n = g.cells.length;
  t[0] = n;
  // The three-corner corners of the pieces that spin under the guideline's T-spin rule; a rule set's FLAG_SPINS says
  // whether its search records spins (the only spin rule with corners is tSpins: spins.ts).
  const spin = spinGeometry('tSpins', g.system, g.pieceId);
  const shapes: string[] = [];
  for (let s = 0; s < n; s++) {
    const w = TABLE_HEADER_WORDS + s * STATE_WORDS;
    const cells = g.cells[s];
    const minDx = Math.min(...cells.map((c) => c[0]));
    const minDy = Math.min(...cells.map((c) => c[1]));
    const width = Math.max(...cells.map((c) => c[0])) - minDx + 1;
    const height = Math.max(...cells.map((c) => c[1])) - minDy + 1;
    t[w + S_MINDX] = minDx;
    t[w + S_MINDY] = minDy;
    t[w + S_W] = width;
    t[w + S_H] = height;
    for (let j = 0; j < 4; j++) t[w + S_BOT + j] = 0x7fffffff; // lowered to the lowest cell below
    for (const [dx, dy] of cells) {
      t[w + S_MASK + (dy - minDy)] |= 1 << (dx - minDx);
      t[w + S_BOT + (dx - minDx)] = Math.min(t[w + S_BOT + (dx - minDx)], dy - minDy);
    }
    // states with the same cells (SRS S, Z, I, O) share a shape id; their cells' lower-left corner is the same point
    const shape = cells
      .map(([dx, dy]) => `${dx - minDx},${dy - minDy}`)
      .sort()
      .join(' ');
    let id = shapes.indexOf(shape);
    if (id < 0) id = shapes.push(shape) - 1;
    t[w + S_SHAPE] = id;
    t[w + S_CDX] = minDx;
    t[w + S_CDY] = minDy;
    // A piece whose every state has the same cells (the SRS O) turns without effect: the kernel skips those turns,
    // which changes no placement or shortest sequence (a turned O reaches nothing the unturned one does not,
    // one press later).
    const inert = g.cells.every((c) => sameCells(c, g.cells[0]));
    t[w + S_NEXT] = inert ? s : g.cw[s];
    t[w + S_NEXT + 1] = inert ? s : g.ccw[s];
    if (spin) {
      // spins.ts lists each state's corners around its centre in the kernel's order: (-1,-1) (+1,-1) (-1,+1) (+1,+1)
      t[w + S_SPIN_CX] = spin.corners[s][0][0] + 1;
      t[w + S_SPIN_CY] = spin.corners[s][0][1] + 1;
      t[w + S_SPIN_FRONT] = spin.front[s];
    }
    for (let dir = 0; dir < 2; dir++) {
      const k = w + S_TURN + dir * TURN_WORDS;
      const kicks = g.kicks[s][dir];
      if (kicks.length > MAX_KICKS) throw new Error(`${kicks.length} kicks do not fit the kernel's ${MAX_KICKS}`);
      t[k + T_KICKS] = kicks.length;
      kicks.forEach(([kx, ky], i) => {
        t[k + T_KICK_DX + i] = kx;
        t[k + T_KICK_DY + i] = ky;
      });
      t[k + T_CENTRE] = g.centre[s][dir] ? 1 : 0;
      if (spin && spin.upgradeKick >= 0 && spin.upgradeKick < kicks.length) t[k + T_UPGRADE] = 1 << spin.upgradeKick;
      const target = dir === 0 ? g.cw[s] : g.ccw[s];
      const reading = [...g.cells[target]].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      reading.forEach(([dx, dy], i) => {
        t[k + T_READ_DX + i] = dx;
        t[k + T_READ_DY + i] = dy;
      });
    }
  }
  return t;
}

interface Loaded {
  kernel: KernelInstance<ReachableKernelExports>;
  ctx: number;
  /** tables[system index * 7 + piece] = byte address */
  tables: number[];
  params: Int32Array;
  rows: Int32Array;
}
let loaded: Loaded | undefined;

function load(): Loaded {
  if (loaded) return loaded;
  const kernel = instantiateKernelSync<ReachableKernelExports>('reachable');
  const k = kernel.exports;
  if (k.CTX_BYTES.value !== CTX_BYTES || k.TABLE_BYTES.value !== TABLE_BYTES) {
    throw new StackRankError(
      'WASM_FAILED',
      'reachable kernel layout does not match assembly/reachable/layout.ts (rebuild the kernels)',
    );
  }
  const ctx = k.alloc(CTX_BYTES);
  const tableBase = k.alloc(TABLE_BYTES * ROTATION_SYSTEM_NAMES.length * 7);
  const tables: number[] = [];
  const words = new Int32Array(kernel.memory.buffer);
  ROTATION_SYSTEM_NAMES.forEach((name, si) => {
    for (let p = 0; p < 7; p++) {
      const at = tableBase + (si * 7 + p) * TABLE_BYTES;
      words.set(pieceTable(pieceGeometry(ROTATION_SYSTEMS[name], p)), at / 4);
      tables.push(at);
    }
  });
  // valid until the memory grows (only allocList allocates after this, and it makes them again)
  loaded = {
    kernel,
    ctx,
    tables,
    params: new Int32Array(kernel.memory.buffer, ctx + O_WIDTH, PARAM_WORDS),
    rows: new Int32Array(kernel.memory.buffer, ctx + O_BOARD, MAX_BOARD_ROWS),
  };
  return loaded;
}

let chunk = 0;
let chunkLeft = 0;
/**
 * Kernel memory for the fast path's state lists, in 64 KiB chunks: allocating may grow the memory, which detaches
 * every view over it, so the cached views are made again.
 */
function allocList(bytes: number): number {
  const l = load();
  const need = (bytes + 15) & ~15;
  if (need > chunkLeft) {
    chunkLeft = Math.max(65536, need);
    chunk = l.kernel.exports.alloc(chunkLeft);
    l.params = new Int32Array(l.kernel.memory.buffer, l.ctx + O_WIDTH, PARAM_WORDS);
    l.rows = new Int32Array(l.kernel.memory.buffer, l.ctx + O_BOARD, MAX_BOARD_ROWS);
  }
  const at = chunk;
  chunk += need;
  chunkLeft -= need;
  return at;
}

/** What a call needs for one rule set, piece and board size, worked out once. */
interface Prepared {
  table: number;
  params: Int32Array;
  geometry: PieceGeometry;
  /**
   * Games without soft drop, gravity or kicks (classic, NES) search only where the piece appears: when the board
   * is empty from row `clearFrom` up (the lowest row the piece's search at the top can reach, within the board),
   * the search is the empty board's, kept here (its states in kernel memory and their key sequences).
   */
  top?: { clearFrom: number; list: number; n: number; paths: Input[][] };
}
const prepared = new WeakMap<RuleSet, Map<number, Prepared>>();
/**
 * The same, by what the search depends on: a caller passing a fresh RuleSet object each time (resolveRules copies
 * custom ones) shares the work, and kernel memory for the fast path's lists is spent once per distinct game.
 */
const preparedByGame = new Map<string, Map<number, Prepared>>();

function prepare(board: KernelBoard, pid: number, rules: RuleSet): Prepared {
  let byKey = prepared.get(rules);
  if (!byKey) {
    const game = [
      rules.rotationSystem,
      rules.gravity,
      rules.softDrop,
      rules.initialRotation,
      rules.spawn,
      rules.hiddenRows,
      rules.spins,
    ].join('|');
    byKey = preparedByGame.get(game);
    if (!byKey) preparedByGame.set(game, (byKey = new Map()));
    prepared.set(rules, byKey);
  }
  const key = (pid * 16 + board.width) * 64 + board.height;
  let p = byKey.get(key);
  if (p) return p;
  const { kernel, ctx, tables } = load();
  const g = pieceGeometry(ROTATION_SYSTEMS[rules.rotationSystem], pid);
  const params = reachParams(board.width, board.height, pid, rules);
  const sy = params[(O_SPAWN_Y - O_WIDTH) >> 2];
  p = { table: tables[ROTATION_SYSTEM_NAMES.indexOf(rules.rotationSystem) * 7 + pid], params, geometry: g };
  const searchesAtTop =
    !rules.softDrop &&
    rules.gravity === 'normal' &&
    (rules.rotationSystem === 'classic' || rules.rotationSystem === 'NRS');
  if (searchesAtTop) {
    // This search writes over the last call's placements: a reader of those must search again (kernelReachCalls).
    reachCalls++;
    const n = runReach(p, Board.empty(board.width, board.height));
    const list = allocList(n * 4);
    const out = new Int32Array(kernel.memory.buffer, ctx + O_OUT, n * OUT_WORDS);
    const states = new Int32Array(kernel.memory.buffer, list, n);
    const paths: Input[][] = [];
    for (let i = 0; i < n; i++) {
      states[i] = out[OUT_WORDS * i + OUT_FROM];
      // complete and frozen: every call on this game shares these arrays
      paths.push(Object.freeze([...pathTo(out[OUT_WORDS * i + OUT_FROM]), 'hardDrop']) as Input[]);
    }
    const lowestDy = Math.min(...g.cells.flat().map((c) => c[1]));
    p.top = { clearFrom: Math.min(Math.max(0, sy + lowestDy), board.height), list, n, paths };
  }
  byKey.set(key, p);
  return p;
}

/**
 * The kernel context's parameter words (PARAM_WORDS from O_WIDTH; O_STAMP is the kernel's own) of a search for piece
 * `pid` on a board of this shape under a rule set: the field, where the piece appears, the rule set's flags.
 */
export function reachParams(width: number, height: number, pid: number, rules: RuleSet): Int32Array {
  const g = pieceGeometry(ROTATION_SYSTEMS[rules.rotationSystem], pid);
  const field = fieldFor(rules, height);
  const dys = g.cells[0].map((c) => c[1]);
  const params = new Int32Array(PARAM_WORDS);
  const at = (offset: number) => (offset - O_WIDTH) >> 2;
  params[at(O_WIDTH)] = width;
  params[at(O_CEIL)] = field.ceiling;
  params[at(O_LOCK)] = field.lockTop;
  params[at(O_SPAWN_S)] = 0;
  params[at(O_SPAWN_X)] = g.system.spawnX(pid, width);
  params[at(O_SPAWN_Y)] = spawnY(rules, height, Math.min(...dys), Math.max(...dys));
  params[at(O_FLAGS)] =
    (rules.gravity === '20G' ? FLAG_20G : 0) |
    (rules.softDrop ? FLAG_SOFT_DROP : 0) |
    (rules.initialRotation ? FLAG_INITIAL_ROTATION : 0) |
    (rules.spins !== 'none' ? FLAG_SPINS : 0);
  return params;
}

/**
 * What another kernel needs to run this kernel's search in its own memory (the versus kernel compiles it in): for
 * each piece of a rule set, its piece table (pieceTable) and its parameter words on a board of this shape
 * (reachParams). Under rule sets whose searches start over the stack (classic, NES) kernelReach lists placements
 * from a list made once (reachFromTop), which this does not give: there the search's full breadth-first search
 * finds the same placements, in another order.
 */
export function reachSetup(
  width: number,
  height: number,
  rules: RuleSet,
): { tables: Int32Array[]; params: Int32Array[] } {
  const system = ROTATION_SYSTEMS[rules.rotationSystem];
  const tables: Int32Array[] = [];
  const params: Int32Array[] = [];
  for (let pid = 0; pid < PIECES.length; pid++) {
    tables.push(pieceTable(pieceGeometry(system, pid)));
    params.push(reachParams(width, height, pid, rules));
  }
  return { tables, params };
}

function runReach(p: Prepared, board: KernelBoard): number {
  const { kernel, ctx, params, rows } = load();
  params.set(p.params);
  rows.set(board.rows);
  rows.fill(0, board.height);
  return kernel.exports.reach(ctx, p.table);
}

function pathTo(state: number): Input[] {
  const { kernel, ctx } = load();
  const parent = new Int16Array(kernel.memory.buffer, ctx + O_PARENT, STATE_COUNT);
  const via = new Uint8Array(kernel.memory.buffer, ctx + O_VIA, STATE_COUNT);
  const path: Input[] = [];
  for (let n = state; parent[n] !== -1; n = parent[n]) path.push(SEARCH_MOVES[via[n]]);
  return path.reverse();
}

/** How the last kernelReach found its placements: `null` = the full search (paths from its parent links). */
let lastTop: Prepared['top'] | null = null;
/**
 * Searches that wrote the kernel's placements so far on this thread (kernelReach's, and preparing a board shape's):
 * a caller reading placements later checks the kernel still holds its.
 */
let reachCalls = 0;

/**
 * How many searches have written the kernel's placements on this thread (kernelPlacement reads the last one's
 * only): kernelReach's, and the empty-board search that prepares a new board shape.
 */
export function kernelReachCalls(): number {
  return reachCalls;
}

/**
 * A board as the kernel reads it: a Board, or checked bit rows (bottom first, each within the width) of that shape,
 * `height` of them at least (the game AI's own rows, without a Board made per search).
 */
export interface KernelBoard {
  readonly width: number;
  readonly height: number;
  readonly rows: ArrayLike<number>;
}

/**
 * Runs the kernel's search for a checked board, piece and rule set; returns the number of placements found
 * (0 for a top-out). The placements stay in kernel memory until the next call (read them with
 * `kernelPlacements`).
 */
export function kernelReach(board: KernelBoard, pid: number, rules: RuleSet): number {
  reachCalls++;
  const p = prepare(board, pid, rules);
  const top = p.top;
  if (top) {
    let clear = true;
    for (let y = top.clearFrom; y < board.height; y++) if (board.rows[y] !== 0) clear = false;
    if (clear) {
      const { kernel, ctx, params, rows } = load();
      params.set(p.params);
      rows.set(board.rows);
      rows.fill(0, board.height);
      lastTop = top;
      return kernel.exports.reachFromTop(ctx, p.table, top.list, top.n, board.height);
    }
  }
  lastTop = null;
  return runReach(p, board);
}

/** Where a piece falls on boards with nothing high up (kernelTopDrops). */
export interface TopDrops {
  /** The drops hold on a board whose highest cell is under this row (its top at most this). */
  clearBelow: number;
  /** A placement with a cell in this row or above does not lock. */
  lockTop: number;
  /** Per drop, in the order kernelReach lists the placements: the state (index in the rotation system's states of
   * the piece) and x, where the piece turns and shifts before it falls straight down. */
  states: Int32Array;
  xs: Int32Array;
}

/**
 * Under rule sets whose pieces turn and shift where they appear and then fall (no soft drop, normal gravity:
 * classic, NES), on a board of this shape with nothing from `clearBelow` up: each state and column the piece
 * reaches before it falls. kernelReach's placements on such a board are each one's straight drop onto the column
 * tops, in this order (the kernel's reachFromTop). Null under other rule sets. For a search that places pieces on
 * many boards in its own kernel (the recover kernel's dropLandings) without a call here for each.
 */
export function kernelTopDrops(width: number, height: number, pid: number, rules: RuleSet): TopDrops | null {
  const p = prepare({ width, height, rows: [] }, pid, rules);
  if (!p.top) return null;
  const { kernel } = load();
  const list = new Int32Array(kernel.memory.buffer, p.top.list, p.top.n);
  return {
    clearBelow: p.top.clearFrom,
    lockTop: p.params[(O_LOCK - O_WIDTH) >> 2],
    states: list.map((code) => code >> STATE_ROTATION_SHIFT),
    xs: list.map((code) => (code & STATE_X_MASK) - WALL),
  };
}

/**
 * Where the last kernelReach call's placements rest, without their key sequences (for callers that search many
 * boards and only ask which placements are reached): per placement, its state index in the rotation system's
 * list, then its reference x and y, into `out` (3 numbers each). Returns `out`.
 */
export function kernelLandings(count: number, out: Int32Array): Int32Array {
  const { kernel, ctx } = load();
  const landed = new Int32Array(kernel.memory.buffer, ctx + O_OUT, count * OUT_WORDS);
  for (let i = 0; i < count; i++) {
    const code = landed[OUT_WORDS * i + OUT_LANDED];
    out[3 * i] = code >> STATE_ROTATION_SHIFT;
    out[3 * i + 1] = (code & STATE_X_MASK) - WALL;
    out[3 * i + 2] = ((code >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL;
  }
  return out;
}

/** The placements of the last kernelReach call, with their key sequences, as GamePlacement objects. */
export function kernelPlacements(count: number, pid: number, rules: RuleSet): GamePlacement[] {
  const views = outViews(count);
  const g = pieceGeometry(ROTATION_SYSTEMS[rules.rotationSystem], pid);
  const placements: GamePlacement[] = new Array(count);
  for (let i = 0; i < count; i++) placements[i] = placementAt(views, i, g, PIECES[pid]);
  return placements;
}

/** Placement `index` of the last kernelReach call (of `count`), as kernelPlacements lists it. */
export function kernelPlacement(index: number, count: number, pid: number, rules: RuleSet): GamePlacement {
  return placementAt(outViews(count), index, pieceGeometry(ROTATION_SYSTEMS[rules.rotationSystem], pid), PIECES[pid]);
}

/** Keys placement `index` of the last kernelReach call takes (its inputs' length, hardDrop included). */
export function kernelInputCount(index: number, count: number): number {
  const { out, parent, spin } = outViews(count);
  const from = out[OUT_WORDS * index + OUT_FROM];
  if (lastTop) return lastTop.paths[from].length;
  // a spin's keys: the way to the state it turns from, the turn, hardDrop
  let n = spin![index] & SPIN_LEVEL_MASK ? 2 : 1;
  for (let s = from; parent![s] !== -1; s = parent![s]) n++;
  return n;
}

interface OutViews {
  out: Int32Array;
  parent: Int16Array | null;
  via: Uint8Array | null;
  /** O_OUT_SPIN: per placement of a full search, its spin level and turn (0: none). */
  spin: Int32Array | null;
}

function outViews(count: number): OutViews {
  const { kernel, ctx } = load();
  const buffer = kernel.memory.buffer;
  return {
    out: new Int32Array(buffer, ctx + O_OUT, count * OUT_WORDS),
    parent: lastTop ? null : new Int16Array(buffer, ctx + O_PARENT, STATE_COUNT),
    via: lastTop ? null : new Uint8Array(buffer, ctx + O_VIA, STATE_COUNT),
    spin: lastTop ? null : new Int32Array(buffer, ctx + O_OUT_SPIN, count),
  };
}

function placementAt({ out, parent, via, spin }: OutViews, i: number, g: PieceGeometry, piece: Piece): GamePlacement {
  const landed = out[OUT_WORDS * i + OUT_LANDED];
  const s = landed >> STATE_ROTATION_SHIFT;
  const y = ((landed >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL;
  const x = (landed & STATE_X_MASK) - WALL;
  let inputs: readonly Input[];
  let level = 0;
  if (lastTop) inputs = lastTop.paths[out[OUT_WORDS * i + OUT_FROM]];
  else {
    const path: Input[] = [];
    for (let n = out[OUT_WORDS * i + OUT_FROM]; parent![n] !== -1; n = parent![n]) path.push(SEARCH_MOVES[via![n]]);
    path.reverse();
    // a spin: OUT_FROM is the state the piece turns from, and the turn comes before hardDrop
    level = spin![i] & SPIN_LEVEL_MASK;
    if (level) path.push(spin![i] >> SPIN_TURN_SHIFT ? 'ccw' : 'cw');
    path.push('hardDrop');
    inputs = path;
  }
  // a state's cells are sorted by row, then column, and moving them keeps that order
  const cells = g.cells[s].map(([dx, dy]) => [x + dx, y + dy] as Cell);
  return { piece, rotation: g.names[s], x, y, cells, inputs, spin: SPINS[level] };
}

/** Bytes of the kernel's memory (for tests that check it does not grow). */
export function kernelMemoryBytes(): number {
  return load().kernel.memory.buffer.byteLength;
}
