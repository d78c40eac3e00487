/**
 * The NES game's own rules besides how pieces move (docs/rules.md, "Time: NES Tetris as it is played"): levels and
 * level-ups, the score, the level cap of a competition format, and the rule set each level is played under. Pure
 * data and arithmetic: the simulator (src/tetris-ai/play.ts) and anyone scoring a game read them.
 */
import {
  StackRankError,
  describe,
  fieldsOnce,
  optionNames,
  optionsObject,
  refuseUnknownOptions,
  requireInt,
} from '../errors.js';
import { RULE_SETS, isTimed, resolveRules, type RuleSet } from './rule-sets.js';
import { MAX_LEVEL, NES_DOUBLE_KILLSCREEN, nesTiming } from './timing.js';

/** Highest start level the level-up rule below covers (the game's level select offers 0–19). */
export const MAX_START_LEVEL = 31;

/** Points of a clear of 1, 2, 3, 4 lines at level 0; at level L they are multiplied by L + 1. */
export const NES_LINE_POINTS: readonly number[] = Object.freeze([0, 40, 100, 300, 1200]);

/**
 * Lines of the first level-up from start level S: min(10 S + 10, max(100, 10 S − 50)) for S ≤ 25; 200 for 26–31
 * (what the game's code gives there). Later level-ups come every 10 lines.
 */
export function firstLevelUpLines(startLevel: number): number {
  const s = requireInt('startLevel', startLevel, 0, MAX_START_LEVEL);
  return s <= 25 ? Math.min(10 * s + 10, Math.max(100, 10 * s - 50)) : 200;
}

/** The level after `lines` lines from start level S. */
export function nesLevel(startLevel: number, lines: number): number {
  const first = firstLevelUpLines(startLevel);
  const n = requireInt('lines', lines, 0, Number.MAX_SAFE_INTEGER);
  return n < first ? startLevel : startLevel + 1 + Math.floor((n - first) / 10);
}

/** Lines from start level S at which the level reaches `level` (S itself: 0). */
export function linesToLevel(startLevel: number, level: number): number {
  const first = firstLevelUpLines(startLevel);
  const l = requireInt('level', level, startLevel, MAX_LEVEL);
  return l === startLevel ? 0 : first + 10 * (l - startLevel - 1);
}

/**
 * The lines a game at `level` that has cleared `lines` lines (the game's LINES counter) still clears before its next
 * level-up, whatever level it started at; null when no game from a start level 0–MAX_START_LEVEL is at `level` after
 * `lines` lines. The pair needs no start level: the first level-up comes at a multiple of 10 and every later one 10
 * lines on, so a game that levelled up into `level` levels up again at the next multiple of 10, and a game still at
 * its start level has fewer lines than any game that levelled up into that level, except over the last 10 lines
 * before its first level-up, where it too levels up at the next multiple of 10 (docs/game.md, "The lines count").
 */
export function nesLinesToLevelUp(level: number, lines: number): number | null {
  const l = requireInt('level', level, 0, MAX_LEVEL);
  const n = requireInt('lines', lines, 0, Number.MAX_SAFE_INTEGER);
  // The start levels a game at level l may have begun at; all that put it at l after n lines agree (the proof above;
  // test/rules/nes-game.test.ts checks it for every start level and count).
  for (let s = Math.min(l, MAX_START_LEVEL); s >= 0; s--) {
    const next = firstLevelUpLines(s) + 10 * (l - s);
    const at = l === s ? 0 : next - 10;
    if (n >= at && n < next) return next - n;
  }
  return null;
}

/** The lines counts a game at `level` may show (nesLinesToLevelUp not null): from `min` to `max`. */
export function nesLinesRange(level: number): { min: number; max: number } {
  const l = requireInt('level', level, 0, MAX_LEVEL);
  let min = Infinity;
  let max = -Infinity;
  for (let s = Math.min(l, MAX_START_LEVEL); s >= 0; s--) {
    const next = firstLevelUpLines(s) + 10 * (l - s);
    min = Math.min(min, l === s ? 0 : next - 10);
    max = Math.max(max, next - 1);
  }
  return { min, max };
}

/** Points of a clear of `cleared` lines (0–4) scored at `level`: the level after that clear's level-up. */
export function nesClearPoints(cleared: number, level: number): number {
  return NES_LINE_POINTS[requireInt('cleared', cleared, 0, 4)] * (requireInt('level', level, 0, MAX_LEVEL) + 1);
}

/**
 * A competition format: the timed rule set the game starts in (its `level` is the start level, its timeline and
 * reaction the player's, its timing the game's: NES_TIMING's gravity, with two rows per frame from the double
 * killscreen), and the level at which the game ends (null: it goes on until a top-out).
 */
export interface NesFormat {
  readonly rules: RuleSet;
  readonly maxLevel: number | null;
}

/** The format BetaTetris is measured in: start 18, tapping at 30 Hz, reaction 18, double killscreen at 39, cap 49. */
export const NES_COMPETITION_MAX_LEVEL = 49;

export interface NesFormatOptions {
  startLevel?: number;
  timeline?: string;
  reaction?: number;
  /** The level from which gravity is two rows per frame; null: never (the 1989 game). Default 39. */
  doubleKillscreen?: number | null;
  /** The level that ends the game; null: none. Default 49. */
  maxLevel?: number | null;
}

/** A format from its options (defaults: the competition format), checked; BAD_RULES / BAD_ARGUMENT naming the problem. */
const NES_FORMAT_OPTIONS = optionNames<NesFormatOptions>({
  startLevel: true,
  timeline: true,
  reaction: true,
  doubleKillscreen: true,
  maxLevel: true,
});

export function nesFormat(given: NesFormatOptions = {}): NesFormat {
  const options = optionsObject('nesFormat', given);
  refuseUnknownOptions('nesFormat', options, NES_FORMAT_OPTIONS, ['doubleKillscreen', 'maxLevel']);
  const startLevel = requireInt('startLevel', options.startLevel ?? 18, 0, MAX_START_LEVEL);
  const dks = options.doubleKillscreen === undefined ? NES_DOUBLE_KILLSCREEN : options.doubleKillscreen;
  const rules = resolveRules({
    ...RULE_SETS.nes,
    level: startLevel,
    timeline: options.timeline ?? RULE_SETS.nes.timeline,
    reaction: options.reaction ?? RULE_SETS.nes.reaction,
    timing: nesTiming(dks),
  });
  const maxLevel = options.maxLevel === undefined ? NES_COMPETITION_MAX_LEVEL : options.maxLevel;
  return checkFormat({ rules, maxLevel });
}

/** A format checked: a timed rule set whose level is a start level, and a cap above it (or null). */
export function checkFormat(format: NesFormat): NesFormat {
  const rules = resolveRules(format.rules);
  if (!isTimed(rules))
    throw new StackRankError(
      'BAD_RULES',
      `the NES game needs a timed rule set (RULE_SETS.nes and copies); got ${rules.name}`,
    );
  if (rules.level > MAX_START_LEVEL)
    throw new StackRankError(
      'BAD_RULES',
      `the NES game starts at a level from 0 to ${MAX_START_LEVEL} (rules.level); got ${describe(rules.level)}`,
    );
  const maxLevel = format.maxLevel;
  if (maxLevel !== null && (!Number.isInteger(maxLevel) || maxLevel <= rules.level || maxLevel > MAX_LEVEL))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `maxLevel must be null or an integer above the start level (${rules.level}) and at most ${MAX_LEVEL}; got ${describe(maxLevel)}`,
    );
  return Object.freeze({ rules, maxLevel });
}

/** Rule sets by level of one format (the game's level changes its gravity), made once each. */
const byLevel = new WeakMap<RuleSet, Map<number, RuleSet>>();

/** The rule set a format's game is played under at `level` (the start rule set with that level). */
export function rulesAtLevel(start: RuleSet, level: number): RuleSet {
  const checked = resolveRules(start);
  if (!isTimed(checked))
    throw new StackRankError(
      'BAD_RULES',
      `rulesAtLevel takes a timed rule set (RULE_SETS.nes and copies); got ${checked.name}`,
    );
  requireInt('level', level, 0, MAX_LEVEL);
  start = checked;
  let levels = byLevel.get(start);
  if (!levels) byLevel.set(start, (levels = new Map()));
  let r = levels.get(level);
  if (!r) levels.set(level, (r = level === start.level ? start : resolveRules({ ...start, level })));
  return r;
}

/** Why a game ended: the next piece could not appear or be placed, or the level reached the format's cap. */
export type NesGameEnd = 'topOut' | 'maxLevel';

/**
 * One NES game's count: lines, level and score after each clear. `clear(n)` after every piece (n = 0 too), `topOut()`
 * when the next piece cannot be placed; `end` is then set.
 */
/** The fields of a NesFormat. */
const FORMAT_FIELDS = optionNames<NesFormat>({ rules: true, maxLevel: true });

export class NesGame {
  #lines = 0;
  #score = 0;
  #level: number;
  #end: NesGameEnd | null = null;

  readonly format: NesFormat;

  constructor(format: NesFormat) {
    if (format === null || typeof format !== 'object')
      throw new StackRankError('BAD_ARGUMENT', `NesGame takes a format (nesFormat()); got ${describe(format)}`);
    const copy = fieldsOnce('NesGame: the format', format, FORMAT_FIELDS);
    refuseUnknownOptions('NesGame: the format', copy, FORMAT_FIELDS, ['maxLevel']);
    this.format = checkFormat(copy as unknown as NesFormat);
    this.#level = this.format.rules.level!;
  }

  /** Lines cleared since the game began (the game's LINES counter). */
  get lines(): number {
    return this.#lines;
  }

  /** Points scored so far. */
  get score(): number {
    return this.#score;
  }

  /** The level the next piece falls at. */
  get level(): number {
    return this.#level;
  }

  /** Why the game ended, or null while it goes on. */
  get end(): NesGameEnd | null {
    return this.#end;
  }

  /** The rule set the next piece is played under. */
  get rules(): RuleSet {
    return rulesAtLevel(this.format.rules, this.#level);
  }

  /** Counts a placed piece that cleared `cleared` lines; returns the points it scored. */
  clear(cleared: number): number {
    requireInt('cleared', cleared, 0, 4);
    if (this.#end) throw new StackRankError('BAD_ARGUMENT', 'the game is over');
    if (cleared === 0) return 0;
    this.#lines += cleared;
    // the level byte's own limit: games past it are beyond any format here
    this.#level = Math.min(MAX_LEVEL, nesLevel(this.format.rules.level!, this.#lines));
    const points = nesClearPoints(cleared, this.#level);
    this.#score += points;
    if (this.format.maxLevel !== null && this.#level >= this.format.maxLevel) this.#end = 'maxLevel';
    return points;
  }

  topOut(): void {
    if (!this.#end) this.#end = 'topOut';
  }
}
