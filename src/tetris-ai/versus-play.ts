/**
 * What the real-game simulator counts of versus play (docs/game.md, "The simulator and the benchmark"): each lock's
 * clear kind and attack by the rule set's table (src/rules/attack.ts), the combo and back-to-back counters a game
 * carries, and the garbage a benchmark feeds a game (`garbage`: a few lines every few pieces, deterministic by seed,
 * through GarbageQueue: cancelled by the attack, entering as rows when a lock clears nothing).
 */
import { StackRankError, describe } from '../errors.js';
import { Rng } from '../random.js';
import {
  ATTACK_TABLES,
  CLEAR_KINDS,
  clearKindOf,
  isDifficult,
  lockAttack,
  nextVersusState,
  type ClearKind,
} from '../rules/attack.js';
import { GarbageQueue, pushGarbageRows, type GarbageEntry } from '../rules/garbage.js';
import type { RuleSet } from '../rules/rule-sets.js';
import type { Spin } from '../rules/types.js';
import { streamSeed } from '../stacking-ai/simulate.js';
import { recordInt, recordObject } from '../runs.js';
import { ratioInterval } from './intervals.js';

/**
 * Garbage fed to each game of a run: an attack of `lines[0]`..`lines[1]` lines (drawn uniformly) every `every[0]` ..
 * `every[1]` pieces (drawn uniformly, from the game's start), each entering at the next lock that clears nothing
 * unless the game's attack cancels it first; the holes as GarbageQueue draws them (a new column for each attack).
 */
export interface GarbageSchedule {
  lines: readonly [number, number];
  every: readonly [number, number];
}

/** The most lines per attack and pieces between attacks a schedule may ask for. */
export const MAX_SCHEDULE_LINES = 20;
export const MAX_SCHEDULE_EVERY = 1000;

/** A garbage schedule checked (playGame's `garbage`), or null when none is given. */
export function checkGarbageSchedule(value: unknown): GarbageSchedule | null {
  if (value === undefined || value === null) return null;
  const bad = () =>
    new StackRankError(
      'BAD_ARGUMENT',
      `garbage must be { lines: [min, max], every: [min, max] } with 1 <= min <= max lines (at most ${MAX_SCHEDULE_LINES}) and pieces (at most ${MAX_SCHEDULE_EVERY}); got ${describe(value)}`,
    );
  if (typeof value !== 'object' || Array.isArray(value)) throw bad();
  const { lines, every, ...rest } = value as { lines?: unknown; every?: unknown };
  if (Object.keys(rest).length > 0) throw bad();
  const range = (r: unknown, max: number): [number, number] => {
    if (!Array.isArray(r) || r.length !== 2) throw bad();
    const [a, b] = r;
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1 || b < a || b > max) throw bad();
    return [a, b];
  };
  return Object.freeze({ lines: range(lines, MAX_SCHEDULE_LINES), every: range(every, MAX_SCHEDULE_EVERY) });
}

/**
 * The garbage one game receives: attacks on the schedule, drawn from streamSeed(seed, game, 1), and the queue they
 * wait in (its holes from streamSeed(seed, game, 2)). Game g's garbage depends on nothing else, so any thread
 * playing it sees the same.
 */
export class GarbageFeed {
  private readonly rng: Rng;
  private readonly queue: GarbageQueue;
  private nextAt: number;
  received = 0;
  cancelled = 0;
  entered = 0;

  constructor(
    private readonly schedule: GarbageSchedule,
    seed: number,
    game: number,
    width: number,
  ) {
    this.rng = new Rng(streamSeed(seed, game, 1));
    this.queue = new GarbageQueue({ seed: streamSeed(seed, game, 2), width });
    this.nextAt = this.draw(schedule.every);
  }

  private draw([lo, hi]: readonly [number, number]): number {
    return lo + this.rng.nextInt(hi - lo + 1);
  }

  /** Before piece `n` (pieces placed so far): the attacks due arrive. Returns the queue (nextMove's `incoming`). */
  before(n: number): readonly GarbageEntry[] {
    while (n >= this.nextAt) {
      const lines = this.draw(this.schedule.lines);
      this.queue.receive(lines);
      this.received += lines;
      this.nextAt += this.draw(this.schedule.every);
    }
    return this.queue.entries;
  }

  /**
   * After a lock: its attack cancels waiting lines, or the garbage due enters the board's bit rows (`height` of them
   * kept). Returns whether a filled cell was pushed over those rows.
   */
  after(attack: number, lines: number, rows: Uint32Array, width: number, height: number): boolean {
    const step = this.queue.lock(attack, lines);
    this.cancelled += step.cancelled;
    this.entered += step.holes.length;
    return pushGarbageRows(rows, width, height, step.holes);
  }
}

/** What a game's locks did in versus terms: plain numbers, so a worker can post them. */
export interface VersusTally {
  /** Lines sent by the attack table, cancelled garbage included. */
  attack: number;
  /** Locks by clear kind, in CLEAR_KINDS order ('none' first). */
  kinds: number[];
  perfectClears: number;
  /** The longest combo (line clears in a row). */
  maxCombo: number;
  /** Clears that continued a back-to-back chain. */
  backToBackClears: number;
  /** Garbage lines received, cancelled by the attack, and entered as rows. */
  garbageReceived: number;
  garbageCancelled: number;
  garbageEntered: number;
}

/** The counters a game carries from lock to lock, and its tally. */
export class VersusCount {
  combo = 0;
  backToBack = 0;
  readonly tally: VersusTally = {
    attack: 0,
    kinds: CLEAR_KINDS.map(() => 0),
    perfectClears: 0,
    maxCombo: 0,
    backToBackClears: 0,
    garbageReceived: 0,
    garbageCancelled: 0,
    garbageEntered: 0,
  };

  constructor(private readonly ruleSet: RuleSet) {}

  /** Counts a lock (its lines, spin and whether it emptied the board); returns its attack. */
  lock(lines: number, spin: Spin, perfectClear: boolean): number {
    const kind = clearKindOf(lines, spin) as ClearKind;
    const table = this.ruleSet.attack;
    const attack = table ? lockAttack(ATTACK_TABLES[table], kind, perfectClear, this.combo, this.backToBack) : 0;
    const t = this.tally;
    t.attack += attack;
    t.kinds[CLEAR_KINDS.indexOf(kind)]++;
    if (perfectClear) t.perfectClears++;
    if (isDifficult(kind) && this.backToBack > 0) t.backToBackClears++;
    ({ combo: this.combo, backToBack: this.backToBack } = nextVersusState(kind, this));
    t.maxCombo = Math.max(t.maxCombo, this.combo);
    return attack;
  }
}

/** The versus figures of a run (playGame's `versus`). */
export interface VersusSummary {
  attack: number;
  attackPerPiece: number;
  /** 95 % interval of attackPerPiece with games as the sampling unit (the ratio estimator); null with fewer than 2
   * games. */
  attackPerPieceCi95: [number, number] | null;
  /** Locks by clear kind. */
  kinds: Record<ClearKind, number>;
  perfectClears: number;
  maxCombo: number;
  backToBackClears: number;
  garbageReceived: number;
  garbageCancelled: number;
  garbageEntered: number;
}

/** The run's versus figures from its games (each with its pieces and versus tally), or null when a game has none. */
export function summarizeVersus(games: readonly { pieces: number; versus?: VersusTally }[]): VersusSummary | null {
  if (games.some((g) => !g.versus)) return null;
  const kinds = Object.fromEntries(CLEAR_KINDS.map((k) => [k, 0])) as Record<ClearKind, number>;
  const s: VersusSummary = {
    attack: 0,
    attackPerPiece: 0,
    attackPerPieceCi95: null,
    kinds,
    perfectClears: 0,
    maxCombo: 0,
    backToBackClears: 0,
    garbageReceived: 0,
    garbageCancelled: 0,
    garbageEntered: 0,
  };
  let pieces = 0;
  for (const g of games) {
    const v = g.versus!;
    pieces += g.pieces;
    s.attack += v.attack;
    CLEAR_KINDS.forEach((k, i) => {
      kinds[k] += v.kinds[i];
    });
    s.perfectClears += v.perfectClears;
    s.maxCombo = Math.max(s.maxCombo, v.maxCombo);
    s.backToBackClears += v.backToBackClears;
    s.garbageReceived += v.garbageReceived;
    s.garbageCancelled += v.garbageCancelled;
    s.garbageEntered += v.garbageEntered;
  }
  s.attackPerPiece = pieces > 0 ? s.attack / pieces : 0;
  s.attackPerPieceCi95 = ratioInterval(games.map((g) => ({ numerator: g.versus!.attack, denominator: g.pieces })));
  return s;
}

/** Checks a game tally's versus record (from a checkpoint or a shard file). */
export function checkVersusTally(value: unknown, where: string, pieces: number): VersusTally {
  const r = recordObject(`${where}: versus`, value);
  if (!Array.isArray(r.kinds) || r.kinds.length !== CLEAR_KINDS.length)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${where}: versus.kinds must be ${CLEAR_KINDS.length} counts; got ${describe(r.kinds)}`,
    );
  const given = r.kinds as unknown[];
  const kinds = Array.from({ length: CLEAR_KINDS.length }, (_, i) => recordInt(where, `versus.kinds[${i}]`, given[i]));
  if (kinds.reduce((a, b) => a + b, 0) !== pieces)
    throw new StackRankError('BAD_ARGUMENT', `${where}: versus.kinds do not add up to the game's ${pieces} pieces`);
  return {
    attack: recordInt(where, 'versus.attack', r.attack),
    kinds,
    perfectClears: recordInt(where, 'versus.perfectClears', r.perfectClears, 0, pieces),
    maxCombo: recordInt(where, 'versus.maxCombo', r.maxCombo, 0, pieces),
    backToBackClears: recordInt(where, 'versus.backToBackClears', r.backToBackClears, 0, pieces),
    garbageReceived: recordInt(where, 'versus.garbageReceived', r.garbageReceived),
    garbageCancelled: recordInt(where, 'versus.garbageCancelled', r.garbageCancelled),
    garbageEntered: recordInt(where, 'versus.garbageEntered', r.garbageEntered),
  };
}
