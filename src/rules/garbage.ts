/**
 * Garbage (docs/rules.md, "Versus"): the lines an opponent sends wait in a queue, outgoing attack cancels them oldest
 * first, and what is left enters the board from below as rows with one empty cell (the hole) when a lock clears
 * nothing. Where the holes go is the "messiness": the chance that the hole moves between two rows of one attack, and
 * between one attack and the next. Pure functions, and GarbageQueue, the small state a game or a simulator keeps,
 * deterministic by seed (the project's PRNG, src/random.ts).
 */
import {
  StackRankError,
  describe,
  fieldsOnce,
  firstHole,
  firstUnknownKey,
  isLiveArray,
  optionNames,
  optionsObject,
} from '../errors.js';
import { Rng, checkSeed } from '../random.js';
import { BOARD_MAX_WIDTH, BOARD_MIN_WIDTH, Board } from './board.js';
import type { BoardLike } from './types.js';

/** One attack waiting: `lines` rows that may enter once `delay` more locks have passed (0: at the next lock). */
export interface GarbageEntry {
  readonly lines: number;
  readonly delay: number;
}

/** Chances (0..1) that the hole column moves: between two rows of one attack, and from one attack to the next. */
export interface Messiness {
  readonly withinAttack: number;
  readonly betweenAttacks: number;
}

/** Clean attacks, a new hole for each: every row of an attack has the same hole, the next attack another column. */
export const DEFAULT_MESSINESS: Messiness = Object.freeze({ withinAttack: 0, betweenAttacks: 1 });

/** The most lines one entry may hold, and delay it may have (a game's figures never come near them). */
export const MAX_GARBAGE_LINES = 1000;
export const MAX_GARBAGE_DELAY = 1_000_000;

/** What one lock does to the queue (garbageAfterLock). */
export interface GarbageStep {
  /** Lines the lock sends on to the opponent: its attack less what it cancelled. */
  readonly sent: number;
  /** Queued lines the lock's attack cancelled. */
  readonly cancelled: number;
  /** Lines entering the board now, per attack, oldest first (none when the lock cleared lines). */
  readonly entering: readonly number[];
  /** The queue after the lock: cancelled and entering lines gone, every delay left one less. */
  readonly queue: readonly GarbageEntry[];
}

/**
 * What a lock does to the garbage queue (`queue` oldest first). A lock that clears lines (`clearedLines` > 0) cancels
 * queued lines with its `attack`, oldest first, whatever their delay, and sends the rest on; garbage never enters on
 * a clearing lock. A lock that clears nothing sends nothing and lets in the entries at the head of the queue whose
 * delay is 0 (up to the first one not yet due), whole. Then every delay left is one less.
 *
 *   garbageAfterLock([{ lines: 3, delay: 0 }, { lines: 2, delay: 1 }], 4, 2)
 *   // → { sent: 0, cancelled: 4, entering: [], queue: [{ lines: 1, delay: 0 }] }
 */
export function garbageAfterLock(queue: readonly GarbageEntry[], attack: number, clearedLines: number): GarbageStep {
  const entries = checkEntries(queue, 'queue');
  checkCount('attack', attack);
  if (!Number.isInteger(clearedLines) || clearedLines < 0 || clearedLines > 4)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `clearedLines must be an integer from 0 to 4; got ${describe(clearedLines)}`,
    );
  if (clearedLines === 0 && attack !== 0)
    throw new StackRankError('BAD_ARGUMENT', `a lock that clears no line sends nothing; got attack ${attack}`);
  return stepGarbage(entries, attack, clearedLines);
}

/** garbageAfterLock on checked arguments. */
export function stepGarbage(queue: readonly GarbageEntry[], attack: number, clearedLines: number): GarbageStep {
  const left: GarbageEntry[] = [];
  const entering: number[] = [];
  let cancelled = 0;
  let i = 0;
  if (clearedLines > 0) {
    for (let a = attack; i < queue.length && a > 0; i++) {
      const take = Math.min(a, queue[i].lines);
      a -= take;
      cancelled += take;
      if (take < queue[i].lines) {
        left.push({ lines: queue[i].lines - take, delay: queue[i].delay });
        i++;
        break;
      }
    }
  } else for (; i < queue.length && queue[i].delay === 0; i++) entering.push(queue[i].lines);
  for (; i < queue.length; i++) left.push(queue[i]);
  return {
    sent: attack - cancelled,
    cancelled,
    entering,
    queue: left.map((e) => (e.delay > 0 ? { lines: e.lines, delay: e.delay - 1 } : e)),
  };
}

/**
 * Hole columns for garbage rows entering a board `width` columns wide: one per row, the attacks' rows in order
 * (`entering`, lines per attack, oldest first). The first row ever (`last` undefined) takes a column drawn uniformly;
 * after that each row keeps the previous row's column unless a draw moves it, with chance `messiness.withinAttack`
 * inside an attack and `messiness.betweenAttacks` at an attack's first row, to a column drawn uniformly among the
 * others. Draws from `rng`: nextInt(width) for a first row ever; for any other row, nextFloat() only when its chance
 * is strictly between 0 and 1, then nextInt(width - 1) when the hole moves.
 */
export function garbageHoles(
  rng: Rng,
  entering: readonly number[],
  width: number,
  messiness: Partial<Messiness>,
  last: number | undefined,
): number[] {
  if (!(rng instanceof Rng))
    throw new StackRankError('BAD_ARGUMENT', `rng must be an Rng (stackrank/research); got ${describe(rng)}`);
  if (!Array.isArray(entering) || firstHole(entering) >= 0)
    throw new StackRankError('BAD_ARGUMENT', `entering must be an array of line counts; got ${describe(entering)}`);
  for (const n of entering) checkLines(n, 'an entering attack');
  const w = checkWidth(width);
  if (last !== undefined && !(Number.isInteger(last) && last >= 0 && last < w))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `last must be a column from 0 to ${w - 1} or undefined; got ${describe(last)}`,
    );
  return drawHoles(rng, entering, w, checkMessiness(messiness), last);
}

/** garbageHoles on checked arguments. */
export function drawHoles(
  rng: Rng,
  entering: readonly number[],
  width: number,
  messiness: Messiness,
  last: number | undefined,
): number[] {
  const holes: number[] = [];
  let hole = last;
  for (const lines of entering) {
    for (let r = 0; r < lines; r++) {
      if (hole === undefined) hole = rng.nextInt(width);
      else {
        const chance = r === 0 ? messiness.betweenAttacks : messiness.withinAttack;
        const moves = chance >= 1 || (chance > 0 && rng.nextFloat() < chance);
        if (moves) hole = (hole + 1 + rng.nextInt(width - 1)) % width;
      }
      holes.push(hole);
    }
  }
  return holes;
}

/**
 * Garbage rows pushed into bit rows (bottom row first, bit x = column x, `height` rows used) in place: one row per
 * hole column, in order, each entering at the bottom (so the last becomes the bottom row) with every column filled
 * but its hole. Returns whether a filled cell was pushed over the top (lost: the game is over).
 */
export function insertGarbageRows(
  rows: Uint16Array | Uint32Array,
  width: number,
  height: number,
  holes: readonly number[],
): boolean {
  if (!(rows instanceof Uint16Array || rows instanceof Uint32Array))
    throw new StackRankError('BAD_ARGUMENT', `rows must be a Uint16Array or Uint32Array; got ${describe(rows)}`);
  const w = checkWidth(width);
  if (!Number.isInteger(height) || height < 1 || height > rows.length)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `height must be an integer from 1 to the ${rows.length} rows given; got ${describe(height)}`,
    );
  const full = (1 << w) - 1;
  for (let y = 0; y < height; y++)
    if (rows[y] > full) throw new StackRankError('BAD_BOARD', `bit row ${y} has cells beyond width ${w}: ${rows[y]}`);
  checkHoles(holes, w);
  return pushGarbageRows(rows, w, height, holes);
}

/** insertGarbageRows on checked arguments. */
export function pushGarbageRows(
  rows: Uint16Array | Uint32Array,
  width: number,
  height: number,
  holes: readonly number[],
): boolean {
  const n = holes.length;
  if (n === 0) return false;
  const full = (1 << width) - 1;
  // A cell pushed over the top: one of the board's, or, past `height` rows of garbage, a garbage row's own.
  let lost = n > height;
  for (let y = Math.max(0, height - n); y < height; y++) if (rows[y] !== 0) lost = true;
  for (let y = height - 1; y >= n; y--) rows[y] = rows[y - n];
  for (let i = 0; i < Math.min(n, height); i++) rows[i] = full & ~(1 << holes[n - 1 - i]);
  return lost;
}

/**
 * A board with garbage rows pushed in from below, one per hole column in order (the last becomes the bottom row),
 * and whether a filled cell was pushed over the board's top. `board` is a Board or BoardLike; each hole a column.
 *
 *   insertGarbage(Board.fromRows(['..#.'], 4), [1])  // → a board of rows ....  ....  ..#.  #.##, toppedOut false
 */
export function insertGarbage(
  board: Board | BoardLike,
  holes: readonly number[],
): { board: Board; toppedOut: boolean } {
  const b = Board.from(board);
  checkHoles(holes, b.width);
  const rows = b.rows.slice();
  const toppedOut = pushGarbageRows(rows, b.width, b.height, holes);
  return { board: Board.fromBits(rows, b.width, b.height), toppedOut };
}

export interface GarbageQueueOptions {
  /** Seed of the hole columns (default 0). */
  seed?: number;
  /** Board width the rows fill (4..10, default 10). */
  width?: number;
  /** Chances that the hole moves (default DEFAULT_MESSINESS: a new column each attack, none inside one). */
  messiness?: Partial<Messiness>;
}

const GARBAGE_QUEUE_OPTIONS = optionNames<GarbageQueueOptions>({ seed: true, width: true, messiness: true });
const MESSINESS_FIELDS = optionNames<Messiness>({ withinAttack: true, betweenAttacks: true });

/**
 * The incoming garbage of one player: what a simulator or a game keeps between locks. `receive` queues an attack,
 * `lock` applies a lock (cancel, or let garbage in) and answers the hole columns of the rows entering, for
 * `insertGarbage` (or `insertGarbageRows`). The same seed and the same calls give the same holes.
 *
 *   const garbage = new GarbageQueue({ seed: 7 });
 *   garbage.receive(2);                      // the opponent sent 2 lines
 *   const { sent, holes } = garbage.lock(outcome.attack, placed.lines);
 *   board = insertGarbage(board, holes).board;
 */
export class GarbageQueue {
  readonly width: number;
  readonly messiness: Messiness;
  private rng: Rng;
  private queue: readonly GarbageEntry[] = [];
  private lastHole: number | undefined = undefined;

  constructor(options: GarbageQueueOptions = {}) {
    const opts = optionsObject('GarbageQueue', options, GARBAGE_QUEUE_OPTIONS);
    this.rng = new Rng(checkSeed(opts.seed ?? 0));
    this.width = checkWidth(opts.width ?? 10);
    this.messiness = checkMessiness(opts.messiness ?? {});
  }

  /** The attacks waiting, oldest first (nextMove's `incoming`): frozen, so only receive and lock change them. */
  get entries(): readonly GarbageEntry[] {
    return this.queue;
  }

  /** Lines waiting in all. */
  get lines(): number {
    let n = 0;
    for (const e of this.queue) n += e.lines;
    return n;
  }

  /** Queues an attack of `lines` (1..MAX_GARBAGE_LINES) that may enter after `delay` more locks (default 0). */
  receive(lines: number, delay = 0): void {
    this.queue = frozenEntries([...this.queue, checkEntry({ lines, delay }, 'the attack')]);
  }

  /**
   * A lock of this player: its `attack` (lockOutcome's) and the lines it cleared. Answers the lines sent on to the
   * opponent, the queued lines cancelled, and the hole columns of the rows entering the board now, in the order
   * insertGarbage takes them.
   */
  lock(attack: number, clearedLines: number): { sent: number; cancelled: number; holes: number[] } {
    const step = garbageAfterLock(this.queue, attack, clearedLines);
    this.queue = frozenEntries(step.queue);
    const holes = drawHoles(this.rng, step.entering, this.width, this.messiness, this.lastHole);
    if (holes.length > 0) this.lastHole = holes[holes.length - 1];
    return { sent: step.sent, cancelled: step.cancelled, holes };
  }

  /** An independent copy: the same queue, hole and generator state. */
  clone(): GarbageQueue {
    const copy = new GarbageQueue({ width: this.width, messiness: this.messiness });
    copy.rng = this.rng.clone();
    copy.queue = this.queue;
    copy.lastHole = this.lastHole;
    return copy;
  }
}

/** A queue no caller can change: the array and each entry frozen (entries already frozen are kept). */
function frozenEntries(entries: readonly GarbageEntry[]): readonly GarbageEntry[] {
  return Object.freeze(
    entries.map((e) => (Object.isFrozen(e) ? e : Object.freeze({ lines: e.lines, delay: e.delay }))),
  );
}

/** Incoming garbage as a caller gives it (nextMove's `incoming`, garbageAfterLock's queue), checked and copied. */
export function checkEntries(value: unknown, what: string): GarbageEntry[] {
  if (value === null || typeof value !== 'object' || !isLiveArray(value))
    throw new StackRankError('BAD_ARGUMENT', `${what} must be an array of { lines, delay }; got ${describe(value)}`);
  const hole = firstHole(value);
  if (hole >= 0) throw new StackRankError('BAD_ARGUMENT', `${what} has a hole at index ${hole}; give every entry`);
  return value.map((e, i) => checkEntry(e, `${what}[${i}]`));
}

function checkEntry(e: unknown, what: string): GarbageEntry {
  if (e === null || typeof e !== 'object')
    throw new StackRankError('BAD_ARGUMENT', `${what} must be { lines, delay }; got ${describe(e)}`);
  const copy = fieldsOnce(what, e, ['lines', 'delay']);
  const unknown = firstUnknownKey(copy, ['lines', 'delay']);
  if (unknown !== undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what} has an unknown field ${describe(unknown)}; an entry is { lines, delay } (delay default 0)`,
    );
  const { lines: given, delay = 0 } = copy;
  const lines = checkLines(given, `${what}.lines`);
  if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_GARBAGE_DELAY)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what}.delay must be an integer from 0 to ${MAX_GARBAGE_DELAY} (locks before it may enter); got ${describe(delay)}`,
    );
  return { lines, delay };
}

function checkLines(lines: unknown, what: string): number {
  if (typeof lines !== 'number' || !Number.isInteger(lines) || lines < 1 || lines > MAX_GARBAGE_LINES)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what} must be an integer from 1 to ${MAX_GARBAGE_LINES} lines; got ${describe(lines)}`,
    );
  return lines;
}

/** Messiness as a caller gives it (either chance may be left out for its default), checked and copied. */
function checkMessiness(value: unknown): Messiness {
  const m = optionsObject('messiness', value as Partial<Messiness>, MESSINESS_FIELDS);
  return Object.freeze({
    withinAttack: checkChance('messiness.withinAttack', m.withinAttack ?? DEFAULT_MESSINESS.withinAttack),
    betweenAttacks: checkChance('messiness.betweenAttacks', m.betweenAttacks ?? DEFAULT_MESSINESS.betweenAttacks),
  });
}

function checkCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0x7fffffff)
    throw new StackRankError('BAD_ARGUMENT', `${name} must be a non-negative integer; got ${describe(value)}`);
  return value;
}

function checkWidth(width: unknown): number {
  if (typeof width !== 'number' || !Number.isInteger(width) || width < BOARD_MIN_WIDTH || width > BOARD_MAX_WIDTH)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `width must be an integer from ${BOARD_MIN_WIDTH} to ${BOARD_MAX_WIDTH}; got ${describe(width)}`,
    );
  return width;
}

function checkChance(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new StackRankError('BAD_ARGUMENT', `${name} must be a chance from 0 to 1; got ${describe(value)}`);
  return value;
}

function checkHoles(holes: unknown, width: number): void {
  if (!Array.isArray(holes) || firstHole(holes) >= 0)
    throw new StackRankError('BAD_ARGUMENT', `holes must be an array of columns; got ${describe(holes)}`);
  for (const h of holes)
    if (typeof h !== 'number' || !Number.isInteger(h) || h < 0 || h >= width)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `a hole is a column from 0 to ${width - 1}; got ${describe(h)} in ${describe(holes)}`,
      );
}
