/**
 * The reachable-placements kernel (assembly/reachable.ts): reach(board, piece, rules) -> placements. This module
 * writes the piece tables the kernel reads from src/rules/rotation-systems.ts (the kernel knows no shape), fills
 * the context, and turns the kernel's output into placements. One instance per thread, loaded synchronously on
 * first use (the rules layer's calls are synchronous); its search is the TypeScript search of
 * src/rules/reachable.ts move for move (tested), which stays the readable definition.
 */
import { StackRankError } from '../errors.js';
import { PIECES } from '../pieces.js';
import { loadKernelSync, type KernelInstance } from './wasm.js';
import { fieldFor, isTimed, spawnY, type RuleSet } from '../rules/rule-sets.js';
import { gravityAt, isTapTimeline, timelineMask } from '../rules/timing.js';
import { pieceGeometry, SEARCH_MOVES, type PieceGeometry } from '../rules/geometry.js';
import { ROTATION_SYSTEM_NAMES, ROTATION_SYSTEMS } from '../rules/rotation-systems.js';
import { SPINS, spinGeometry } from '../rules/spins.js';
import type { Cell, FrameInput, GamePlacement, Input } from '../rules/types.js';
import {
  CTX_BYTES,
  FLAG_20G,
  FLAG_INITIAL_ROTATION,
  FLAG_SOFT_DROP,
  FLAG_SPINS,
  MAX_BOARD_ROWS,
  MAX_KICKS,
  MAX_PLACEMENTS,
  NODE_FRAME,
  NODE_INFO,
  NODE_PARENT,
  NODE_TOKEN_SHIFT,
  NODE_WORDS,
  O_DAS_DELAY,
  O_DAS_REPEAT,
  O_GRAVITY_FRAMES,
  O_GRAVITY_ROWS,
  O_TIMED_AT,
  O_TIMED_NODES,
  O_TIMELINE_MASK,
  O_TIMELINE_PERIOD,
  TAP_FRAME_SHIFT,
  TAP_TOKENS,
  TIMED_KEYS,
  TIMED_NODE,
  TIMING_WORDS,
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
} from '../../assembly/reachable/layout.js';

interface ReachableKernelExports {
  alloc(bytes: number): number;
  reach(ctx: number, table: number): number;
  reachFromTop(ctx: number, table: number, list: number, n: number, boardHeight: number): number;
  reachTimed(ctx: number, table: number, paths: boolean): number;
  tapPath(ctx: number, table: number, from: number): number;
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
  // whether its search records spins (the only spin rule with corners is tSpins: src/rules/spins.ts).
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
  /** Searches run so far: a result's parent links are in the context while this is its search's. */
  generation: number;
  params: Int32Array;
  rows: Int32Array;
  out: Int32Array;
  parent: Int16Array;
  via: Uint8Array;
  /** O_OUT_SPIN: per placement of a full search, its spin level and turn (0: none). */
  spin: Int32Array;
  /** The timed search's parameter words, from O_GRAVITY_FRAMES. */
  timing: Int32Array;
  /** Whether the timed search of this generation kept what its placements' inputs are found from. */
  timedPaths: boolean;
}

/** The kernel of this thread, created synchronously on first use: the rules layer's calls are synchronous. */
let loaded: Loaded | undefined;

function load(): Loaded {
  if (loaded) return loaded;
  const kernel = loadKernelSync<ReachableKernelExports>('reachable');
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
  loaded = { kernel, ctx, tables, generation: 0 } as Loaded;
  views(loaded);
  return loaded;
}

/** The views over the context, made again whenever an allocation may have grown (and so detached) the memory. */
function views(l: Loaded): void {
  const buffer = l.kernel.memory.buffer;
  l.params = new Int32Array(buffer, l.ctx + O_WIDTH, PARAM_WORDS);
  l.rows = new Int32Array(buffer, l.ctx + O_BOARD, MAX_BOARD_ROWS);
  l.out = new Int32Array(buffer, l.ctx + O_OUT, MAX_PLACEMENTS * OUT_WORDS);
  l.parent = new Int16Array(buffer, l.ctx + O_PARENT, STATE_COUNT);
  l.via = new Uint8Array(buffer, l.ctx + O_VIA, STATE_COUNT);
  l.spin = new Int32Array(buffer, l.ctx + O_OUT_SPIN, MAX_PLACEMENTS);
  l.timing = new Int32Array(buffer, l.ctx + O_GRAVITY_FRAMES, TIMING_WORDS);
}

let chunk = 0;
let chunkLeft = 0;
/** Kernel memory for the fast path's state lists, in 64 KiB chunks (allocating may grow the memory). */
function allocList(bytes: number): number {
  const l = load();
  const need = (bytes + 15) & ~15;
  if (need > chunkLeft) {
    chunkLeft = Math.max(65536, need);
    chunk = l.kernel.exports.alloc(chunkLeft);
    views(l);
  }
  const at = chunk;
  chunk += need;
  chunkLeft -= need;
  return at;
}

/** What a search needs for one rule set, piece and board size, worked out once. */
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
  /** A timed rule set's parameter words from O_GRAVITY_FRAMES (the scratch block's two are written per call). */
  timing?: Int32Array;
  /** A timed search under a tap timeline (inputs from tapPath), else under DAS (inputs from its nodes). */
  tap?: boolean;
}
const prepared = new WeakMap<RuleSet, Map<number, Prepared>>();
/**
 * The same, by what the search depends on: a caller passing a fresh RuleSet object each time (resolveRules copies
 * custom ones) shares the work, and kernel memory for the fast path's lists is spent once per distinct game.
 */
const preparedByGame = new Map<string, Map<number, Prepared>>();

function prepare(width: number, height: number, pid: number, rules: RuleSet): Prepared {
  let byKey = prepared.get(rules);
  if (!byKey) {
    const game = [
      rules.rotationSystem,
      rules.gravity,
      rules.softDrop,
      rules.initialRotation,
      rules.spawn,
      rules.hiddenRows,
      // a timed search depends on the gravity at its level and the player's timeline
      isTimed(rules) ? JSON.stringify([gravityAt(rules.timing, rules.level), rules.timeline, rules.timing]) : '',
      rules.spins,
    ].join('|');
    byKey = preparedByGame.get(game);
    if (!byKey) preparedByGame.set(game, (byKey = new Map()));
    prepared.set(rules, byKey);
  }
  const key = (pid * 16 + width) * 64 + height;
  let p = byKey.get(key);
  if (p) return p;
  const l = load();
  const g = pieceGeometry(ROTATION_SYSTEMS[rules.rotationSystem], pid);
  const params = reachParams(width, height, pid, rules);
  const sy = params[(O_SPAWN_Y - O_WIDTH) >> 2];
  p = { table: l.tables[ROTATION_SYSTEM_NAMES.indexOf(rules.rotationSystem) * 7 + pid], params, geometry: g };
  if (isTimed(rules)) {
    p.timing = timingWords(rules);
    p.tap = isTapTimeline(rules.timeline);
  }
  const searchesAtTop =
    !p.timing &&
    !rules.softDrop &&
    rules.gravity === 'normal' &&
    (rules.rotationSystem === 'classic' || rules.rotationSystem === 'NRS');
  if (searchesAtTop) {
    const n = fullSearch(p, { width, height, rows: EMPTY_ROWS });
    const list = allocList(n * 4);
    const states = new Int32Array(l.kernel.memory.buffer, list, n);
    const paths: Input[][] = [];
    for (let i = 0; i < n; i++) {
      const from = l.out[OUT_WORDS * i + OUT_FROM];
      states[i] = from;
      // complete and frozen: every search in this game shares these arrays
      paths.push(Object.freeze([...pathTo(l, from), 'hardDrop']) as Input[]);
    }
    const lowestDy = Math.min(...g.cells.flat().map((c) => c[1]));
    p.top = { clearFrom: Math.min(Math.max(0, sy + lowestDy), height), list, n, paths };
  }
  byKey.set(key, p);
  return p;
}

const EMPTY_ROWS = new Int32Array(MAX_BOARD_ROWS);

/**
 * The kernel context's parameter words (PARAM_WORDS from O_WIDTH; O_STAMP is the kernel's own) of a search for piece
 * `pid` on a board of this shape under a rule set: the field, where the piece appears, the rule set's flags.
 */
function reachParams(width: number, height: number, pid: number, rules: RuleSet): Int32Array {
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
 * (reachParams). Under rule sets whose searches start over the stack (classic, NES) reach() lists placements from a
 * list made once (reachFromTop), which this does not give: there the full breadth-first search finds the same
 * placements, in another order.
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

/** Writes the board and the prepared parameters into the context (the rows above the board cleared). */
function writeBoard(l: Loaded, p: Prepared, board: ReachBoard): void {
  l.params.set(p.params);
  const rows = l.rows;
  const height = board.height;
  const given = board.rows;
  if (ArrayBuffer.isView(given) && given.length <= MAX_BOARD_ROWS) rows.set(given);
  else for (let y = 0; y < height; y++) rows[y] = given[y];
  rows.fill(0, height);
}

/** The kernel's full breadth-first search; its placements and parent links stay in the context until the next. */
function fullSearch(p: Prepared, board: ReachBoard): number {
  const l = load();
  writeBoard(l, p, board);
  l.generation++;
  return l.kernel.exports.reach(l.ctx, p.table);
}

/**
 * Runs the search for a checked board, piece and rule set; returns the number of placements, now in the context,
 * and whether they came from the prepared search at the top (their paths then in `p.top`).
 */
function run(board: ReachBoard, p: Prepared): { n: number; fromTop: boolean } {
  if (p.timing) {
    const l = load();
    writeBoard(l, p, board);
    l.generation++;
    // a tap search is several times faster without its press counts: they are found again when inputs are asked
    return { n: runTimed(l, p, !p.tap), fromTop: false };
  }
  const top = p.top;
  if (top) {
    let clear = true;
    for (let y = top.clearFrom; y < board.height; y++) if (board.rows[y] !== 0) clear = false;
    if (clear) {
      const l = load();
      writeBoard(l, p, board);
      l.generation++;
      return { n: l.kernel.exports.reachFromTop(l.ctx, p.table, top.list, top.n, board.height), fromTop: true };
    }
  }
  return { n: fullSearch(p, board), fromTop: false };
}

/** The parameter words of a timed rule set's search (O_GRAVITY_FRAMES on; the scratch words left 0). */
function timingWords(rules: RuleSet & Required<Pick<RuleSet, 'timing' | 'level' | 'timeline'>>): Int32Array {
  const t = new Int32Array(TIMING_WORDS);
  const at = (offset: number) => (offset - O_GRAVITY_FRAMES) >> 2;
  const gravity = gravityAt(rules.timing, rules.level);
  t[at(O_GRAVITY_FRAMES)] = gravity.frames;
  t[at(O_GRAVITY_ROWS)] = gravity.rows;
  if (isTapTimeline(rules.timeline)) {
    const { mask, period } = timelineMask(rules.timeline);
    t[at(O_TIMELINE_MASK)] = mask | 0;
    t[at(O_TIMELINE_PERIOD)] = period;
  } else {
    t[at(O_TIMELINE_MASK)] = rules.timeline === 'dasCharged' ? 1 : 0;
    t[at(O_TIMELINE_PERIOD)] = 0;
  }
  t[at(O_DAS_DELAY)] = rules.timing.dasDelay;
  t[at(O_DAS_REPEAT)] = rules.timing.dasRepeat;
  return t;
}

/** The frame-by-frame search's scratch block (nodes kept per call); made larger when a search runs out of room. */
let scratch = { at: 0, nodes: 0 };
const FIRST_NODES = 1 << 14;
/** Room the scratch block never grows past (64 MiB of nodes): far more than any board and level takes. */
const MAX_NODES = 1 << 22;

/**
 * The frame-by-frame search of a prepared timed rule set on the board the context holds; `paths` keeps what the
 * placements' inputs are found from (DAS searches always do).
 */
function runTimed(l: Loaded, p: Prepared, paths: boolean): number {
  for (;;) {
    if (scratch.nodes === 0) growScratch(l, FIRST_NODES);
    l.timing.set(p.timing!);
    l.timing[(O_TIMED_AT - O_GRAVITY_FRAMES) >> 2] = scratch.at;
    l.timing[(O_TIMED_NODES - O_GRAVITY_FRAMES) >> 2] = scratch.nodes;
    const n = l.kernel.exports.reachTimed(l.ctx, p.table, paths);
    if (n >= 0) {
      l.timedPaths = paths;
      return n;
    }
    if (scratch.nodes >= MAX_NODES)
      throw new StackRankError('WASM_FAILED', `the frame-by-frame search needs more than ${MAX_NODES} nodes`);
    growScratch(l, scratch.nodes * 2);
  }
}

/** A scratch block with room for `nodes` nodes (a smaller one stays allocated: the kernel's allocator never frees).
 * Growing the memory keeps what it holds (the board and parameters just written), so only the views are made again. */
function growScratch(l: Loaded, nodes: number): void {
  scratch = { at: l.kernel.exports.alloc(TIMED_NODE + nodes * NODE_WORDS * 4), nodes };
  views(l);
}

/** FrameInput of a node's token (shift * 3 + turn; docs/rules.md, "Time"). */
const FRAME_TOKENS: readonly FrameInput[] = ['.', 'A', 'B', 'L', 'LA', 'LB', 'R', 'RA', 'RB'];

/** The frame inputs of the tap search in the context (kept with paths) to its placement whose OUT_FROM is `from`. */
function tapPath(l: Loaded, p: Prepared, from: number): FrameInput[] {
  const n = l.kernel.exports.tapPath(l.ctx, p.table, from);
  const tokens = new Uint8Array(l.kernel.memory.buffer, scratch.at + TAP_TOKENS, TIMED_KEYS);
  const path = new Array<FrameInput>(n);
  for (let f = 0; f < n; f++) path[f] = FRAME_TOKENS[tokens[f]];
  return path;
}

/** The frame inputs of the DAS search in the context to its lock node `node`: one per frame, to the lock. */
function framePath(l: Loaded, node: number): FrameInput[] {
  const words = new Int32Array(l.kernel.memory.buffer, scratch.at + TIMED_NODE, scratch.nodes * NODE_WORDS);
  const frames = words[node * NODE_WORDS + NODE_FRAME] + 1;
  const path = new Array<FrameInput>(frames).fill('.');
  for (let n = node; n >= 0; n = words[n * NODE_WORDS + NODE_PARENT]) {
    const frame = words[n * NODE_WORDS + NODE_FRAME];
    if (frame >= 0) path[frame] = FRAME_TOKENS[words[n * NODE_WORDS + NODE_INFO] >>> NODE_TOKEN_SHIFT];
  }
  return path;
}

function pathTo(l: Loaded, state: number): Input[] {
  const { parent, via } = l;
  const path: Input[] = [];
  for (let n = state; parent[n] !== -1; n = parent[n]) path.push(SEARCH_MOVES[via[n]]);
  return path.reverse();
}

/**
 * A board as the kernel reads it: checked bit rows (bottom first, each within the width), `height` of them at
 * least, at most MAX_BOARD_ROWS (a Board's rows, or the game AI's own rows without a Board made per search).
 */
export interface ReachBoard {
  readonly width: number;
  readonly height: number;
  readonly rows: ArrayLike<number>;
}

/** Board rows the kernel takes at most. */
export const REACH_MAX_ROWS = MAX_BOARD_ROWS;
/** Numbers a landings array needs room for: 3 per placement (reachLandings). */
export const LANDINGS_WORDS = 3 * MAX_PLACEMENTS;

/**
 * The reachable placements of one piece on one board under one rule set: a value that stays right whatever runs
 * after it. Where each placement rests is copied out at once; key sequences are read when asked, from the kernel's
 * parent links, and the search runs again for them if another has written over its links since (the same search:
 * its rows are copied with it).
 */
export class Reached {
  /** Per placement: the state (its index in the rotation system's states of the piece), x and y. */
  readonly landings: Int32Array;
  /** Per placement: its spin level (an index into SPINS) and the turn that makes it, packed as O_OUT_SPIN (0: none). */
  private readonly spins: Int32Array;
  /** Per placement: OUT_FROM, what its inputs are found from (a tap search's changes when it keeps its paths). */
  private readonly from: Int32Array;
  private readonly rows: Int32Array;
  private generation: number;

  /** @internal reach() makes these. */
  constructor(
    readonly count: number,
    private readonly board: { width: number; height: number },
    private readonly pid: number,
    private readonly p: Prepared,
    fromTop: boolean,
    rows: ArrayLike<number>,
  ) {
    const l = load();
    const landings = new Int32Array(3 * count);
    const from = new Int32Array(count);
    // the search at the top records no spins (its rule sets have none)
    const spins = fromTop || p.timing ? new Int32Array(count) : l.spin.slice(0, count);
    const out = l.out;
    for (let i = 0; i < count; i++) {
      const code = out[OUT_WORDS * i + OUT_LANDED];
      landings[3 * i] = code >> STATE_ROTATION_SHIFT;
      landings[3 * i + 1] = (code & STATE_X_MASK) - WALL;
      landings[3 * i + 2] = ((code >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL;
      from[i] = out[OUT_WORDS * i + OUT_FROM];
    }
    this.landings = landings;
    this.from = from;
    this.spins = spins;
    // Paths from the prepared search at the top need neither the board nor the kernel again.
    this.rows = fromTop ? EMPTY_ROWS : Int32Array.from({ length: board.height }, (_, y) => rows[y]);
    this.generation = fromTop ? -1 : l.generation;
  }

  /** Keys placement i takes (its inputs' length, hardDrop included). */
  inputCount(i: number): number {
    if (this.generation < 0) return this.p.top!.paths[this.from[i]].length;
    // a tap path's length is its lock frame + 1, packed in OUT_FROM
    if (this.p.tap) return (this.from[i] >>> TAP_FRAME_SHIFT) + 1;
    if (this.p.timing) return framePath(this.links(), this.from[i]).length;
    const { parent } = this.links();
    // a spin's keys: the way to the state it turns from, the turn, hardDrop
    let n = this.spins[i] & SPIN_LEVEL_MASK ? 2 : 1;
    for (let s = this.from[i]; parent[s] !== -1; s = parent[s]) n++;
    return n;
  }

  /** Placement i, with its cells and a shortest key sequence. */
  placement(i: number): GamePlacement {
    const g = this.p.geometry;
    const s = this.landings[3 * i];
    const x = this.landings[3 * i + 1];
    const y = this.landings[3 * i + 2];
    let inputs: readonly Input[] | readonly FrameInput[];
    if (this.generation < 0) inputs = this.p.top!.paths[this.from[i]];
    else if (this.p.tap) inputs = tapPath(this.links(), this.p, this.from[i]);
    else if (this.p.timing) inputs = framePath(this.links(), this.from[i]);
    else {
      const path = pathTo(this.links(), this.from[i]);
      // a spin: its from state is the one the piece turns from, and the turn comes before hardDrop
      if (this.spins[i] & SPIN_LEVEL_MASK) path.push(this.spins[i] >> SPIN_TURN_SHIFT ? 'ccw' : 'cw');
      path.push('hardDrop');
      inputs = path;
    }
    // a state's cells are sorted by row, then column, and moving them keeps that order
    const cells = g.cells[s].map(([dx, dy]) => [x + dx, y + dy] as Cell);
    const spin = SPINS[this.spins[i] & SPIN_LEVEL_MASK];
    return { piece: PIECES[this.pid], rotation: g.names[s], x, y, cells, inputs, spin };
  }

  /** Every placement, in the kernel's order. */
  placements(): GamePlacement[] {
    const out: GamePlacement[] = new Array(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.placement(i);
    return out;
  }

  /** The kernel's parent links of this search: searched again when another search wrote over them. */
  private links(): Loaded {
    const l = load();
    const board = { width: this.board.width, height: this.board.height, rows: this.rows };
    if (this.p.timing) {
      // the same timed search again, keeping its paths (the same placements in the same order)
      if (l.generation !== this.generation || !l.timedPaths) {
        writeBoard(l, this.p, board);
        runTimed(l, this.p, true);
        this.generation = ++l.generation;
        // the same placements in the same order; a tap search's OUT_FROM now carries its press layers
        for (let i = 0; i < this.count; i++) this.from[i] = l.out[OUT_WORDS * i + OUT_FROM];
      }
      return l;
    }
    if (l.generation !== this.generation) {
      fullSearch(this.p, board);
      this.generation = l.generation;
    }
    return l;
  }
}

/** The reachable placements of piece `pid` on a checked board under a checked rule set. */
export function reach(board: ReachBoard, pid: number, rules: RuleSet): Reached {
  const p = prepare(board.width, board.height, pid, rules);
  const { n, fromTop } = run(board, p);
  return new Reached(n, board, pid, p, fromTop, board.rows);
}

/**
 * reach() under a timed tap timeline from a state the piece is in partway through its fall (rotation state index,
 * x, y, as the rules layer's Mover counts them) instead of where it appears: what the piece can still reach when the
 * search starts on a frame where gravity and the timeline are at their phase of frame 0 (a whole number of gravity
 * steps and tap periods after the piece appeared). Inputs count from that frame.
 */
export function reachFrom(
  board: ReachBoard,
  pid: number,
  rules: RuleSet,
  start: { rotation: number; x: number; y: number },
): Reached {
  const p = prepare(board.width, board.height, pid, rules);
  if (!p.tap) throw new StackRankError('BAD_ARGUMENT', 'reachFrom searches under a tap timeline only');
  const params = p.params.slice();
  params[(O_SPAWN_S - O_WIDTH) >> 2] = start.rotation;
  params[(O_SPAWN_X - O_WIDTH) >> 2] = start.x;
  params[(O_SPAWN_Y - O_WIDTH) >> 2] = start.y;
  const from: Prepared = { ...p, params };
  const { n } = run(board, from);
  return new Reached(n, board, pid, from, false, board.rows);
}

/** How many placements reach() would list, without listing them. */
export function reachCount(board: ReachBoard, pid: number, rules: RuleSet): number {
  return run(board, prepare(board.width, board.height, pid, rules)).n;
}

/**
 * The placements reach() would list, in its order, as numbers only: per placement its state, x and y into `out`
 * (LANDINGS_WORDS long at most). Returns the count. For searches over many boards that ask only where pieces rest.
 */
export function reachLandings(board: ReachBoard, pid: number, rules: RuleSet, out: Int32Array): number {
  const n = run(board, prepare(board.width, board.height, pid, rules)).n;
  const landed = load().out;
  for (let i = 0; i < n; i++) {
    const code = landed[OUT_WORDS * i + OUT_LANDED];
    out[3 * i] = code >> STATE_ROTATION_SHIFT;
    out[3 * i + 1] = (code & STATE_X_MASK) - WALL;
    out[3 * i + 2] = ((code >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL;
  }
  return n;
}

/** Where a piece falls on boards with nothing high up (topDrops). */
export interface TopDrops {
  /** The drops hold on a board whose highest cell is under this row (its top at most this). */
  clearBelow: number;
  /** A placement with a cell in this row or above does not lock. */
  lockTop: number;
  /** Per drop, in the order reach() lists the placements: the state (index in the rotation system's states of
   * the piece) and x, where the piece turns and shifts before it falls straight down. */
  states: Int32Array;
  xs: Int32Array;
}

/**
 * Under rule sets whose pieces turn and shift where they appear and then fall (no soft drop, normal gravity:
 * classic, NES), on a board of this shape with nothing from `clearBelow` up: each state and column the piece
 * reaches before it falls. reach()'s placements on such a board are each one's straight drop onto the column
 * tops, in this order (the kernel's reachFromTop). Null under other rule sets. For a search that places pieces on
 * many boards in its own kernel (the recover kernel's drop tables) without a search here for each.
 */
export function topDrops(width: number, height: number, pid: number, rules: RuleSet): TopDrops | null {
  const p = prepare(width, height, pid, rules);
  if (!p.top) return null;
  const list = new Int32Array(load().kernel.memory.buffer, p.top.list, p.top.n);
  return {
    clearBelow: p.top.clearFrom,
    lockTop: p.params[(O_LOCK - O_WIDTH) >> 2],
    states: list.map((code) => code >> STATE_ROTATION_SHIFT),
    xs: list.map((code) => (code & STATE_X_MASK) - WALL),
  };
}

/** Bytes of the kernel's memory (for tests that check it does not grow). */
export function reachableMemoryBytes(): number {
  return load().kernel.memory.buffer.byteLength;
}
