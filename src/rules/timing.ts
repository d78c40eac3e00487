/**
 * Time in a rule set: how fast the piece falls at each level, how fast a player may press buttons (an input
 * timeline or DAS) and the data other games' timings need later (lock delay, entry delay). docs/rules.md ("Time:
 * NES Tetris as it is played") states the model and its sources; the frame-by-frame search is the reachable
 * kernel's (assembly/reachable/timed.ts).
 */
import { StackRankError, describe, firstHole } from '../errors.js';
import type { FrameInput } from './types.js';

/** How the piece falls at one level: `rows` rows on every `frames`-th frame (frames - 1, 2 frames - 1, …). */
export interface GravityStep {
  readonly frames: number;
  readonly rows: number;
}

/** A game's clock: everything about time that does not change with the player. */
export interface GameTiming {
  /** Frames per second (NES: 60.0988); for converting frames to seconds, not used by the search. */
  readonly framesPerSecond: number;
  /** gravity[level]: how the piece falls at that level; levels past the table's end fall as its last entry. */
  readonly gravity: readonly GravityStep[];
  /** DAS: frames a held direction waits after its first shift before it repeats, then frames between repeats. */
  readonly dasDelay: number;
  readonly dasRepeat: number;
  /** Frames a piece whose gravity step is blocked waits before it locks (NES: 0, it locks on that frame). Only 0 is
   * searched today. */
  readonly lockDelay: number;
  /** Frames between a lock and the next piece's first frame, least and most (NES: 10 to 18 by the height of the
   * lock). Not used by the search: the next piece's frames count from its own first frame. */
  readonly entryDelay: { readonly min: number; readonly max: number };
}

/**
 * How the player presses buttons:
 * - a timeline in StackRabbit's notation, repeating from the piece's first frame: `X` a frame where one shift and/or
 *   one turn may be pressed, `.` a frame without input (`X.` 30 Hz, `X..` 20 Hz, `X...` 15 Hz, `X....` 12 Hz,
 *   `X.....` 10 Hz at 60 frames per second);
 * - `das`: shifts only by holding one direction (at most one hold per piece), the first shift on the frame it is
 *   pressed, then after `dasDelay` frames and every `dasRepeat` frames; turns on any frame, but not the same button
 *   on two frames in a row;
 * - `dasCharged`: as `das`, and a hold that starts on the piece's first frame starts charged (held through the
 *   entry delay): its shifts come on frames 0, dasRepeat, 2 dasRepeat, ….
 */
export type Timeline = string;

/** NES Tetris's gravity table, frames per row by level (levels 29 and up: 1). */
const NES_FRAMES_PER_ROW = [
  48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1,
];

/** The NES level from which the competition format's gravity is two rows per frame (the double killscreen). */
export const NES_DOUBLE_KILLSCREEN = 39;

/**
 * NES Tetris's timing; `doubleKillscreen` (a level, or null for the 1989 game's one row per frame from 29 on) makes
 * gravity two rows per frame from that level, as the competition format does from 39.
 */
export function nesTiming(doubleKillscreen: number | null = NES_DOUBLE_KILLSCREEN): GameTiming {
  if (doubleKillscreen !== null && !intIn(doubleKillscreen, 1, MAX_LEVEL))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `doubleKillscreen must be null or an integer from 1 to ${MAX_LEVEL}; got ${describe(doubleKillscreen)}`,
    );
  const gravity: GravityStep[] = NES_FRAMES_PER_ROW.map((frames) => ({ frames, rows: 1 }));
  if (doubleKillscreen !== null) {
    while (gravity.length < doubleKillscreen) gravity.push({ frames: 1, rows: 1 });
    gravity.length = doubleKillscreen;
    gravity.push({ frames: 1, rows: 2 });
  }
  return Object.freeze({
    framesPerSecond: 60.0988,
    gravity: Object.freeze(gravity.map((g) => Object.freeze(g))),
    dasDelay: 16,
    dasRepeat: 6,
    lockDelay: 0,
    entryDelay: Object.freeze({ min: 10, max: 18 }),
  });
}

/** The gravity at a level: the table's entry, or its last for levels past its end. */
export function gravityAt(timing: GameTiming, level: number): GravityStep {
  if (!intIn(level, 0, MAX_LEVEL))
    throw new StackRankError('BAD_ARGUMENT', `level must be an integer from 0 to ${MAX_LEVEL}; got ${describe(level)}`);
  if (!Array.isArray(timing?.gravity) || timing.gravity.length === 0)
    throw new StackRankError('BAD_ARGUMENT', `timing must be a GameTiming (nesTiming()); got ${describe(timing)}`);
  return timing.gravity[Math.min(level, timing.gravity.length - 1)];
}

/**
 * The frames a player waits or commits to before the next piece is known, and the rows the piece falls meanwhile
 * (docs/game.md, "The reaction"): the reaction rounded up to a whole number of gravity steps and tap periods at the
 * level, so that gravity and the timeline are back at their phase of the piece's first frame (under DAS, of gravity
 * steps alone).
 */
export function reactionFall(
  timing: GameTiming,
  timeline: Timeline,
  reaction: number,
  level: number,
): { frames: number; rows: number } {
  const gravity = gravityAt(timing, level);
  const step = lcm(gravity.frames, isTapTimeline(timeline) ? timelineMask(timeline).period : 1);
  const frames = Math.ceil(reaction / step) * step;
  return { frames, rows: (frames / gravity.frames) * gravity.rows };
}

/**
 * Whether a piece can fall untouched through the reaction (`fallRows`: reactionFall's rows) on a board of
 * `boardRows` rows whose stack stands `top` rows high: the rows left under it then must hold a piece's 4 rows and
 * the stack.
 */
export function waitsOutReaction(boardRows: number, top: number, fallRows: number): boolean {
  const left = boardRows - fallRows;
  return left >= 4 && top <= left;
}

function lcm(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return (a / x) * b;
}

/** Highest level a rule set takes (the NES keeps its level in a byte). */
export const MAX_LEVEL = 255;
/** Longest timeline and most frames a gravity step may take, and most rows it may move. */
export const MAX_TIMELINE = 32;
export const MAX_GRAVITY_FRAMES = 255;
export const MAX_GRAVITY_ROWS = 4;
/** Most frames of reaction a rule set may give. */
export const MAX_REACTION = 600;

/** The timelines docs/rules.md names, and the DAS modes. */
export const TAP_TIMELINES = Object.freeze(['X.', 'X..', 'X...', 'X....', 'X.....'] as const);
export const DAS_MODES = Object.freeze(['das', 'dasCharged'] as const);
export type DasMode = (typeof DAS_MODES)[number];

export function isDasMode(timeline: string): timeline is DasMode {
  return (DAS_MODES as readonly string[]).includes(timeline);
}

/**
 * Whether a string is a tap timeline the search takes: `X` and `.` only, starting with `X`, at most MAX_TIMELINE
 * long, and never two `X` frames in a row (counting round the end): the same button is not pressed on two frames in
 * a row, and a frame of input is always followed by one without.
 */
export function isTapTimeline(timeline: string): boolean {
  if (timeline.length < 2 || timeline.length > MAX_TIMELINE || timeline[0] !== 'X') return false;
  for (let i = 0; i < timeline.length; i++) {
    const c = timeline[i];
    if (c !== 'X' && c !== '.') return false;
    if (c === 'X' && timeline[(i + 1) % timeline.length] === 'X') return false;
  }
  return true;
}

/** The input frames of a tap timeline as a bit mask (bit i: frame i of the period), and its period. */
export function timelineMask(timeline: string): { mask: number; period: number } {
  let mask = 0;
  for (let i = 0; i < timeline.length; i++) if (timeline[i] === 'X') mask |= 1 << i;
  return { mask: mask >>> 0, period: timeline.length };
}

const bad = (field: string, allowed: string, value: unknown) =>
  new StackRankError('BAD_RULES', `rules.${field} must be ${allowed}; got ${describe(value)}`);

const intIn = (v: unknown, lo: number, hi: number) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;

/** A GameTiming checked field by field (a copy, frozen); BAD_RULES naming what is allowed. */
export function checkTiming(value: unknown): GameTiming {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw bad('timing', 'an object { framesPerSecond, gravity, dasDelay, dasRepeat, lockDelay, entryDelay }', value);
  const t = { ...(value as Record<string, unknown>) };
  const known = ['framesPerSecond', 'gravity', 'dasDelay', 'dasRepeat', 'lockDelay', 'entryDelay'];
  const unknown = Object.keys(t).find((k) => !known.includes(k));
  if (unknown !== undefined)
    throw new StackRankError(
      'BAD_RULES',
      `unknown timing field ${describe(unknown)}; a timing has ${known.join(', ')}`,
    );
  if (typeof t.framesPerSecond !== 'number' || !(t.framesPerSecond > 0) || !Number.isFinite(t.framesPerSecond))
    throw bad('timing.framesPerSecond', 'a positive number', t.framesPerSecond);
  const table = Array.isArray(t.gravity) ? [...(t.gravity as unknown[])] : null;
  if (!table || table.length === 0 || table.length > MAX_LEVEL + 1)
    throw bad('timing.gravity', `a list of 1 to ${MAX_LEVEL + 1} steps { frames, rows }, by level`, t.gravity);
  const gravity = table.map((step, level) => {
    const s = step !== null && typeof step === 'object' ? { ...(step as Record<string, unknown>) } : null;
    if (
      !s ||
      Object.keys(s).some((k) => k !== 'frames' && k !== 'rows') ||
      !intIn(s.frames, 1, MAX_GRAVITY_FRAMES) ||
      !intIn(s.rows, 1, MAX_GRAVITY_ROWS) ||
      ((s.rows as number) > 1 && s.frames !== 1)
    )
      throw bad(
        `timing.gravity[${level}]`,
        `{ frames: 1..${MAX_GRAVITY_FRAMES}, rows: 1..${MAX_GRAVITY_ROWS} } (more than one row only every frame)`,
        step,
      );
    return Object.freeze({ frames: s.frames as number, rows: s.rows as number });
  });
  if (!intIn(t.dasDelay, 1, MAX_GRAVITY_FRAMES))
    throw bad('timing.dasDelay', `an integer from 1 to ${MAX_GRAVITY_FRAMES}`, t.dasDelay);
  if (!intIn(t.dasRepeat, 1, t.dasDelay as number))
    throw bad('timing.dasRepeat', `an integer from 1 to dasDelay (${t.dasDelay})`, t.dasRepeat);
  if (t.lockDelay !== 0)
    throw bad('timing.lockDelay', '0 (the search locks a piece on the frame its gravity step is blocked)', t.lockDelay);
  const e =
    t.entryDelay !== null && typeof t.entryDelay === 'object' ? { ...(t.entryDelay as Record<string, unknown>) } : null;
  if (
    !e ||
    Object.keys(e).some((k) => k !== 'min' && k !== 'max') ||
    !intIn(e.min, 0, 600) ||
    !intIn(e.max, e.min as number, 600)
  )
    throw bad('timing.entryDelay', '{ min, max }: frames, 0 <= min <= max <= 600', t.entryDelay);
  return Object.freeze({
    framesPerSecond: t.framesPerSecond,
    gravity: Object.freeze(gravity),
    dasDelay: t.dasDelay as number,
    dasRepeat: t.dasRepeat as number,
    lockDelay: 0,
    entryDelay: Object.freeze({ min: e.min as number, max: e.max as number }),
  });
}

/** What a timeline may be, as error messages (the library's and the CLI's) say it. */
export const TIMELINE_RULE = `a tap timeline of X and . starting with X, at most ${MAX_TIMELINE} frames, never two X in a row (${TAP_TIMELINES.join(' ')}), or ${DAS_MODES.join(' or ')}`;

/** A timeline checked: a tap timeline (isTapTimeline) or a DAS mode. */
export function checkTimeline(value: unknown): Timeline {
  if (typeof value === 'string' && (isTapTimeline(value) || isDasMode(value))) return value;
  throw bad('timeline', TIMELINE_RULE, value);
}

/** Every frame's token (FrameInput): nothing, a shift, a turn, or a shift with a turn. */
const FRAME_INPUTS: ReadonlySet<string> = new Set<FrameInput>(['.', 'L', 'R', 'A', 'B', 'LA', 'LB', 'RA', 'RB']);

/**
 * A timed placement's frame inputs (one token per frame, from the piece's first to the one it locks on) as a person
 * reads them: each press with its frame, then the lock frame (`0:RA 2:R 4:R 6:R (locks on frame 56)`); "no input"
 * when the piece only falls. Throws BAD_ARGUMENT for anything but a non-empty list of FrameInput tokens.
 */
export function formatFrameInputs(inputs: readonly FrameInput[]): string {
  // every() skips a sparse array's holes: a hole is a missing frame.
  if (
    !Array.isArray(inputs) ||
    inputs.length === 0 ||
    firstHole(inputs) >= 0 ||
    !inputs.every((t) => FRAME_INPUTS.has(t))
  )
    throw new StackRankError(
      'BAD_ARGUMENT',
      `frame inputs must be a non-empty list of ${[...FRAME_INPUTS].join(' ')} (one a frame, as a timed placement's inputs); got ${describe(inputs)}`,
    );
  const presses = inputs.flatMap((t, f) => (t === '.' ? [] : [`${f}:${t}`]));
  return `${presses.length ? presses.join(' ') : 'no input'} (locks on frame ${inputs.length - 1})`;
}
