/**
 * TypeScript side of the reachable-placements kernel (assembly/reachable.ts): the piece tables it reads, written
 * from src/rules/rotation-systems.ts (the kernel knows no shape), the context layout, and the results turned into
 * GamePlacement objects. One instance per thread, created synchronously on first use; its search is the
 * TypeScript search of reachable.ts move for move (tested), which stays the readable definition.
 */
import { PIECES } from '../pieces.js';
import { instantiateKernelSync, type KernelInstance } from '../wasm.js';
import { Board } from './board.js';
import { fieldOf, spawnY, type RuleSet } from './rule-sets.js';
import { pieceGeometry, SEARCH_MOVES, type PieceGeometry } from './geometry.js';
import { ROTATION_SYSTEM_NAMES, ROTATION_SYSTEMS } from './rotation-systems.js';
import type { Cell, GamePlacement, Input } from './types.js';

interface ReachableKernelExports {
  alloc(bytes: number): number;
  ctxBytes(): number;
  reach(ctx: number, table: number): number;
  reachFromTop(ctx: number, table: number, list: number, n: number, boardHeight: number): number;
}

// context offsets (bytes); keep in step with assembly/reachable.ts
const O_BOARD = 64;
const O_PARENT = 34304;
const O_VIA = 50688;
const O_OUT = 75264;
const STATE_COUNT = 8192;
const TABLE_WORDS = 16 + 4 * 64;
const TABLE_BYTES = TABLE_WORDS * 4;
const MAX_BOARD_ROWS = 48;

const sameCells = (a: readonly Cell[], b: readonly Cell[]) =>
  a.length === b.length && a.every((c, i) => c[0] === b[i][0] && c[1] === b[i][1]);

/** The words of one piece's table (see the layout in assembly/reachable.ts). */
export function pieceTable(g: PieceGeometry): Int32Array {
  const t = new Int32Array(TABLE_WORDS);
  const n = g.cells.length;
  t[0] = n;
  const shapes: string[] = [];
  for (let s = 0; s < n; s++) {
    const w = 16 + s * 64;
    const cells = g.cells[s];
    const minDx = Math.min(...cells.map((c) => c[0]));
    const minDy = Math.min(...cells.map((c) => c[1]));
    const width = Math.max(...cells.map((c) => c[0])) - minDx + 1;
    const height = Math.max(...cells.map((c) => c[1])) - minDy + 1;
    t[w] = minDx;
    t[w + 1] = minDy;
    t[w + 2] = width;
    t[w + 3] = height;
    for (let j = 0; j < 4; j++) t[w + 8 + j] = 99;
    for (const [dx, dy] of cells) {
      t[w + 4 + (dy - minDy)] |= 1 << (dx - minDx);
      t[w + 8 + (dx - minDx)] = Math.min(t[w + 8 + (dx - minDx)], dy - minDy);
    }
    // states with the same cells (SRS S, Z, I, O) share a shape id; their cells' lower-left corner is the same point
    const shape = cells
      .map(([dx, dy]) => `${dx - minDx},${dy - minDy}`)
      .sort()
      .join(' ');
    let id = shapes.indexOf(shape);
    if (id < 0) id = shapes.push(shape) - 1;
    t[w + 12] = id;
    t[w + 13] = minDx;
    t[w + 14] = minDy;
    // A piece whose every state has the same cells (the SRS O) turns without effect: the kernel skips those turns,
    // which changes no placement or shortest sequence (a turned O reaches nothing the unturned one does not,
    // one press later).
    const inert = g.cells.every((c) => sameCells(c, g.cells[0]));
    t[w + 15] = inert ? s : g.cw[s];
    t[w + 16] = inert ? s : g.ccw[s];
    for (let dir = 0; dir < 2; dir++) {
      const k = w + 20 + dir * 22;
      const kicks = g.kicks[s][dir];
      t[k] = kicks.length;
      kicks.forEach(([kx, ky], i) => {
        t[k + 1 + i] = kx;
        t[k + 6 + i] = ky;
      });
      t[k + 11] = g.centre[s][dir] ? 1 : 0;
      const target = dir === 0 ? g.cw[s] : g.ccw[s];
      const reading = [...g.cells[target]].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      reading.forEach(([dx, dy], i) => {
        t[k + 12 + i] = dx;
        t[k + 16 + i] = dy;
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
  const ctx = k.alloc(k.ctxBytes());
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
    params: new Int32Array(kernel.memory.buffer, ctx, 8),
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
    l.params = new Int32Array(l.kernel.memory.buffer, l.ctx, 8);
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
   * is empty from row `topFrom` up, the search is the empty board's, kept here (its states in kernel memory and
   * their key sequences).
   */
  top?: { topFrom: number; list: number; n: number; paths: Input[][] };
}
const prepared = new WeakMap<RuleSet, Map<number, Prepared>>();
/**
 * The same, by what the search depends on: a caller passing a fresh RuleSet object each time (resolveRules copies
 * custom ones) shares the work, and kernel memory for the fast path's lists is spent once per distinct game.
 */
const preparedByGame = new Map<string, Map<number, Prepared>>();

function prepare(board: Board, pid: number, rules: RuleSet): Prepared {
  let byKey = prepared.get(rules);
  if (!byKey) {
    const game = [
      rules.rotationSystem,
      rules.gravity,
      rules.softDrop,
      rules.initialRotation,
      rules.spawn,
      rules.hiddenRows,
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
  const field = fieldOf(rules, board.height);
  const dys = g.cells[0].map((c) => c[1]);
  const sy = spawnY(rules, board.height, Math.min(...dys), Math.max(...dys));
  const params = Int32Array.of(
    board.width,
    field.ceiling,
    field.lockTop,
    0,
    g.system.spawnX(pid, board.width),
    sy,
    (rules.gravity === '20G' ? 1 : 0) | (rules.softDrop ? 2 : 0) | (rules.initialRotation ? 4 : 0),
  );
  p = { table: tables[ROTATION_SYSTEM_NAMES.indexOf(rules.rotationSystem) * 7 + pid], params, geometry: g };
  const searchesAtTop =
    !rules.softDrop &&
    rules.gravity === 'normal' &&
    (rules.rotationSystem === 'classic' || rules.rotationSystem === 'NRS');
  if (searchesAtTop) {
    const n = runReach(p, Board.empty(board.width, board.height));
    const list = allocList(n * 4);
    const out = new Int32Array(kernel.memory.buffer, ctx + O_OUT, n * 2);
    const states = new Int32Array(kernel.memory.buffer, list, n);
    const paths: Input[][] = [];
    for (let i = 0; i < n; i++) {
      states[i] = out[2 * i + 1];
      // complete and frozen: every call on this game shares these arrays
      paths.push(Object.freeze([...pathTo(out[2 * i + 1]), 'hardDrop']) as Input[]);
    }
    const lowestDy = Math.min(...g.cells.flat().map((c) => c[1]));
    p.top = { topFrom: sy + lowestDy, list, n, paths };
  }
  byKey.set(key, p);
  return p;
}

function runReach(p: Prepared, board: Board): number {
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
 * Runs the kernel's search for a checked board, piece and rule set; returns the number of placements found
 * (0 for a top-out). The placements stay in kernel memory until the next call (read them with
 * `kernelPlacements`).
 */
export function kernelReach(board: Board, pid: number, rules: RuleSet): number {
  const p = prepare(board, pid, rules);
  const top = p.top;
  if (top) {
    let clear = true;
    for (let y = Math.max(0, top.topFrom); y < board.height; y++) if (board.rows[y] !== 0) clear = false;
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

/**
 * Where the last kernelReach call's placements rest, without their key sequences (for callers that search many
 * boards and only ask which placements are reached): per placement, its state index in the rotation system's
 * list, then its reference x and y, into `out` (3 numbers each). Returns `out`.
 */
export function kernelLandings(count: number, out: Int32Array): Int32Array {
  const { kernel, ctx } = load();
  const landed = new Int32Array(kernel.memory.buffer, ctx + O_OUT, count * 2);
  for (let i = 0; i < count; i++) {
    const code = landed[2 * i];
    out[3 * i] = code >> 11;
    out[3 * i + 1] = (code & 31) - 4;
    out[3 * i + 2] = ((code >> 5) & 63) - 4;
  }
  return out;
}

/** The placements of the last kernelReach call, with their key sequences, as GamePlacement objects. */
export function kernelPlacements(count: number, pid: number, rules: RuleSet): GamePlacement[] {
  const { kernel, ctx } = load();
  const g = pieceGeometry(ROTATION_SYSTEMS[rules.rotationSystem], pid);
  const buffer = kernel.memory.buffer;
  const out = new Int32Array(buffer, ctx + O_OUT, count * 2);
  const parent = lastTop ? null : new Int16Array(buffer, ctx + O_PARENT, STATE_COUNT);
  const via = lastTop ? null : new Uint8Array(buffer, ctx + O_VIA, STATE_COUNT);
  const piece = PIECES[pid];
  const placements: GamePlacement[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const landed = out[2 * i];
    const s = landed >> 11;
    const y = ((landed >> 5) & 63) - 4;
    const x = (landed & 31) - 4;
    let inputs: readonly Input[];
    if (lastTop) inputs = lastTop.paths[out[2 * i + 1]];
    else {
      const path: Input[] = [];
      for (let n = out[2 * i + 1]; parent![n] !== -1; n = parent![n]) path.push(SEARCH_MOVES[via![n]]);
      path.reverse();
      path.push('hardDrop');
      inputs = path;
    }
    // a state's cells are sorted by row, then column, and moving them keeps that order
    const cells = g.cells[s].map(([dx, dy]) => [x + dx, y + dy] as Cell);
    placements[i] = { piece, rotation: g.names[s], x, y, cells, inputs };
  }
  return placements;
}

/** Bytes of the kernel's memory (for tests that check it does not grow). */
export function kernelMemoryBytes(): number {
  return load().kernel.memory.buffer.byteLength;
}
