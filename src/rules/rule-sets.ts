/**
 * Rule sets: the one place that says, per game, which rotation system, gravity, drops, hold and preview count
 * apply and where a piece appears. docs/rules.md ("Real games") describes each preset and the game it follows.
 */
import { StackRankError, describe, fieldsOnce, firstUnknownKey, optionNames } from '../errors.js';
import { ROTATION_SYSTEM_NAMES, type RotationSystemName } from './rotation-systems.js';
import { ATTACK_TABLE_NAMES, type AttackTableName } from './attack.js';
import { SPIN_RULES, type SpinRule } from './spins.js';
import type { RuleSetName } from './types.js';
import { BOARD_MAX_HEIGHT, BOARD_MIN_HEIGHT } from './board.js';
import {
  MAX_LEVEL,
  MAX_REACTION,
  checkTimeline,
  checkTiming,
  nesTiming,
  type GameTiming,
  type Timeline,
} from './timing.js';

export type Gravity = 'normal' | '20G';

/**
 * Where the piece appears and how high it may go:
 * - `aboveBoard` (classic): its lowest cell in the row just above the board; it turns and shifts above the stack,
 *   whatever the stack looks like, and must lock inside the board;
 * - `topRow` (NES, TGM): its highest cell in the board's top row; moving and turning may lift it up to
 *   `hiddenRows` rows above the board, and it must lock inside the board;
 * - `guideline`: its lowest cell in row 21 of the 40-row matrix (y = 20), whatever the board's own height (at
 *   most 40); it moves and locks anywhere in the 40 rows.
 */
export type SpawnRule = 'aboveBoard' | 'topRow' | 'guideline';

export interface RuleSet {
  readonly name: string;
  readonly rotationSystem: RotationSystemName;
  /** `20G`: the piece rests on the stack from the moment it appears and after every move. */
  readonly gravity: Gravity;
  /** Whether `softDrop` (drop to rest without locking) is available, which makes tucks and spins reachable. */
  readonly softDrop: boolean;
  /** Whether a hold box exists (the AI's business; reachability is per piece). */
  readonly hold: boolean;
  /** Pieces shown in the preview. */
  readonly previews: number;
  /** TGM's initial rotation: a first `cw`/`ccw` turns the piece as it appears, before 20G pulls it down. */
  readonly initialRotation: boolean;
  readonly spawn: SpawnRule;
  /** Rows above the board the piece may pass through under `topRow` spawning. */
  readonly hiddenRows: number;
  /**
   * Time (docs/rules.md, "Time: NES Tetris as it is played"): the game's clock. A rule set with timing is searched
   * frame by frame at `level` with the player's `timeline`, and its placements' inputs are one token per frame; a
   * rule set without it (every preset but `nes`) is the timing-free model, where any number of keys fit before the
   * piece falls. `timing`, `level`, `timeline` and `reaction` come together or not at all.
   */
  readonly timing?: GameTiming;
  /** The level whose gravity the piece falls at (0..MAX_LEVEL). */
  readonly level?: number;
  /** How the player presses buttons: a tap timeline (`X.` … `X.....`) or a DAS mode (`das`, `dasCharged`). */
  readonly timeline?: Timeline;
  /** Frames after a piece appears before the player knows the next one (the policy's business; not searched). */
  readonly reaction?: number;
  /** Which placements are spins (docs/rules.md, "Versus"): `tSpins` the guideline's T-spins, `none` none. */
  readonly spins: SpinRule;
  /** The attack table of the game's versus mode (ATTACK_TABLES), or undefined for a game without versus. */
  readonly attack?: AttackTableName;
}

/** The timing fields of a RuleSet: present together on a timed rule set, absent from an untimed one. */
export const TIMING_FIELDS = ['timing', 'level', 'timeline', 'reaction'] as const;

/** A rule set that carries time: every timing field given. */
export type TimedRuleSet = RuleSet & Required<Pick<RuleSet, (typeof TIMING_FIELDS)[number]>>;

/** Whether a (checked) rule set carries time: its placements are searched frame by frame. Anything else is not. */
export function isTimed(rules: RuleSet): rules is TimedRuleSet {
  return typeof rules === 'object' && rules !== null && rules.timing !== undefined;
}

/** The competition format's defaults of the `nes` preset: level 18, tapping at 30 Hz, an 18-frame reaction. */
export const NES_LEVEL = 18;
export const NES_TIMELINE = 'X.';
export const NES_REACTION = 18;

/** The guideline's matrix: 40 rows, of which the bottom 20 are visible; pieces appear at y = 20. */
export const GUIDELINE_MATRIX_ROWS = 40;
export const GUIDELINE_SPAWN_ROW = 20;

/** NES Tetris without time (the `nesUntimed` preset): NRS, no kicks, no hold, one preview; shift and turn at the
 * top, then drop (any number of shifts before the piece falls). The `nes` preset is this game with the clock. */
const NES_UNTIMED: RuleSet = Object.freeze({
  name: 'nesUntimed',
  rotationSystem: 'NRS',
  gravity: 'normal',
  softDrop: false,
  hold: false,
  previews: 1,
  initialRotation: false,
  spawn: 'topRow',
  hiddenRows: 2,
  spins: 'none',
});

export const RULE_SETS: Readonly<Record<RuleSetName, RuleSet>> = Object.freeze({
  // The 2009 article's game: any orientation at any column, dropped from above. No kicks, no hold.
  classic: Object.freeze({
    name: 'classic',
    rotationSystem: 'classic',
    gravity: 'normal',
    softDrop: false,
    hold: false,
    previews: 1,
    initialRotation: false,
    spawn: 'aboveBoard',
    hiddenRows: 0,
    spins: 'none',
  }),
  // NES Tetris as the competition plays it: NES_UNTIMED's game searched frame by frame at level 18 with tapping at
  // 30 Hz and an 18-frame reaction (two rows per frame from level 39).
  nes: Object.freeze({
    ...NES_UNTIMED,
    name: 'nes',
    timing: nesTiming(),
    level: NES_LEVEL,
    timeline: NES_TIMELINE,
    reaction: NES_REACTION,
  }),
  nesUntimed: NES_UNTIMED,
  // The Tetris Guideline: SRS with its kick tables, hold, five previews, soft drop; T-spins and the guideline's
  // attack table.
  guideline: Object.freeze({
    name: 'guideline',
    rotationSystem: 'SRS',
    gravity: 'normal',
    softDrop: true,
    hold: true,
    previews: 5,
    initialRotation: false,
    spawn: 'guideline',
    hiddenRows: 0,
    spins: 'tSpins',
    attack: 'guideline',
  }),
  // TGM at low gravity: ARS, no hold, one preview; the piece can be let down to rest and moved (gravity or sonic drop).
  tgm: Object.freeze({
    name: 'tgm',
    rotationSystem: 'ARS',
    gravity: 'normal',
    softDrop: true,
    hold: false,
    previews: 1,
    initialRotation: true,
    spawn: 'topRow',
    hiddenRows: 2,
    spins: 'none',
  }),
  // TGM at 20G: the piece lies on the stack at once, slides over columns that are not higher, turns in place.
  tgm20g: Object.freeze({
    name: 'tgm20g',
    rotationSystem: 'ARS',
    gravity: '20G',
    softDrop: false,
    hold: false,
    previews: 1,
    initialRotation: true,
    spawn: 'topRow',
    hiddenRows: 2,
    spins: 'none',
  }),
});

export const RULE_SET_NAMES: readonly RuleSetName[] = Object.freeze(Object.keys(RULE_SETS) as RuleSetName[]);

export function isRuleSetName(name: unknown): name is RuleSetName {
  return typeof name === 'string' && Object.hasOwn(RULE_SETS, name);
}

/** A preset by name, or a custom rule set checked field by field. Throws BAD_RULES naming the problem. */
const RULE_SET_FIELDS = optionNames<RuleSet>({
  name: true,
  rotationSystem: true,
  gravity: true,
  softDrop: true,
  hold: true,
  previews: true,
  initialRotation: true,
  spawn: true,
  hiddenRows: true,
  timing: true,
  level: true,
  timeline: true,
  reaction: true,
  spins: true,
  attack: true,
});

export function resolveRules(rules: unknown): RuleSet {
  // A rule set this function made (frozen data, checked) or a preset is taken as it is: callers that pass the same
  // object on every call (a game's rule set per level) share the searches' preparation.
  if (CHECKED.has(rules as object)) return rules as RuleSet;
  if (typeof rules === 'string') {
    if (isRuleSetName(rules)) return RULE_SETS[rules];
    throw new StackRankError(
      'BAD_RULES',
      `unknown rule set ${JSON.stringify(rules)}; rule sets are ${RULE_SET_NAMES.join(', ')} (or a RuleSet object)`,
    );
  }
  if (rules === null || typeof rules !== 'object') {
    throw new StackRankError(
      'BAD_RULES',
      `rules must be a rule set name (${RULE_SET_NAMES.join(', ')}) or a RuleSet object; got ${describe(rules)}`,
    );
  }
  // Read once: what is checked below is what the rule set holds (a getter cannot answer 'SRS' to the check and
  // something else to the copy).
  const r = fieldsOnce('rules', rules, RULE_SET_FIELDS, 'BAD_RULES');
  // A misspelt field (softdrop) would otherwise be ignored while the copied preset's own value plays.
  const unknown = firstUnknownKey(r, RULE_SET_FIELDS);
  if (unknown !== undefined)
    throw new StackRankError(
      'BAD_RULES',
      `unknown rule set field ${describe(unknown)}; a RuleSet has ${RULE_SET_FIELDS.join(', ')}`,
    );
  const bad = (field: string, allowed: string) =>
    new StackRankError('BAD_RULES', `rules.${field} must be ${allowed}; got ${describe(r[field])}`);
  if (typeof r.name !== 'string') throw bad('name', 'a string');
  if (!ROTATION_SYSTEM_NAMES.includes(r.rotationSystem as RotationSystemName))
    throw bad('rotationSystem', `one of ${ROTATION_SYSTEM_NAMES.join(', ')}`);
  if (r.gravity !== 'normal' && r.gravity !== '20G') throw bad('gravity', "'normal' or '20G'");
  for (const f of ['softDrop', 'hold', 'initialRotation']) if (typeof r[f] !== 'boolean') throw bad(f, 'true or false');
  if (!Number.isInteger(r.previews) || (r.previews as number) < 0 || (r.previews as number) > 7)
    throw bad('previews', 'an integer from 0 to 7');
  if (r.spawn !== 'aboveBoard' && r.spawn !== 'topRow' && r.spawn !== 'guideline')
    throw bad('spawn', "'aboveBoard', 'topRow' or 'guideline'");
  if (!Number.isInteger(r.hiddenRows) || (r.hiddenRows as number) < 0 || (r.hiddenRows as number) > 4)
    throw bad('hiddenRows', 'an integer from 0 to 4');
  if (r.gravity === '20G' && r.spawn === 'aboveBoard')
    throw bad('spawn', "'topRow' or 'guideline' under 20G (a piece above the board cannot rest on the stack)");
  // A rule set written before versus existed has neither field: no spins, no versus.
  const spins = r.spins ?? 'none';
  if (!SPIN_RULES.includes(spins as SpinRule)) throw bad('spins', `one of ${SPIN_RULES.join(', ')} (default none)`);
  if (r.attack !== undefined && !ATTACK_TABLE_NAMES.includes(r.attack as AttackTableName))
    throw bad('attack', `one of ${ATTACK_TABLE_NAMES.join(', ')}, or left out for a game without versus`);
  const base: RuleSet = {
    name: r.name,
    rotationSystem: r.rotationSystem as RotationSystemName,
    gravity: r.gravity,
    softDrop: r.softDrop as boolean,
    hold: r.hold as boolean,
    previews: r.previews as number,
    initialRotation: r.initialRotation as boolean,
    spawn: r.spawn,
    hiddenRows: r.hiddenRows as number,
    spins: spins as SpinRule,
    ...(r.attack === undefined ? {} : { attack: r.attack as AttackTableName }),
  };
  const time = checkTime(r, base);
  const checked = Object.freeze(time ? { ...base, ...time } : base);
  CHECKED.add(checked);
  return checked;
}

/** Rule sets known checked: the presets and resolveRules's own results. */
const CHECKED = new WeakSet<object>(Object.values(RULE_SETS));

/**
 * The timing fields of a rule set being resolved (`r`, the object read once), checked: all four or none. Time is
 * searched for games without soft drop, at normal gravity, without initial rotation, with a rotation system that
 * does not kick (NRS, classic): the piece's row is then a function of the frame (docs/rules.md).
 */
function checkTime(
  r: Record<string, unknown>,
  base: Pick<RuleSet, 'rotationSystem' | 'gravity' | 'softDrop' | 'initialRotation'>,
): Pick<RuleSet, (typeof TIMING_FIELDS)[number]> | null {
  const given = TIMING_FIELDS.filter((f) => r[f] !== undefined);
  if (given.length === 0) return null;
  if (given.length < TIMING_FIELDS.length) {
    const missing = TIMING_FIELDS.filter((f) => r[f] === undefined);
    throw new StackRankError(
      'BAD_RULES',
      `a timed rule set has all of ${TIMING_FIELDS.join(', ')}; this one lacks ${missing.join(', ')} (copy them from RULE_SETS.nes)`,
    );
  }
  const timing = checkTiming(r.timing);
  if (!Number.isInteger(r.level) || (r.level as number) < 0 || (r.level as number) > MAX_LEVEL)
    throw new StackRankError(
      'BAD_RULES',
      `rules.level must be an integer from 0 to ${MAX_LEVEL}; got ${describe(r.level)}`,
    );
  const timeline = checkTimeline(r.timeline);
  if (!Number.isInteger(r.reaction) || (r.reaction as number) < 0 || (r.reaction as number) > MAX_REACTION)
    throw new StackRankError(
      'BAD_RULES',
      `rules.reaction must be an integer from 0 to ${MAX_REACTION} (frames); got ${describe(r.reaction)}`,
    );
  if (base.gravity !== 'normal' || base.softDrop || base.initialRotation)
    throw new StackRankError(
      'BAD_RULES',
      'a timed rule set needs gravity normal, softDrop false and initialRotation false (the frame-by-frame search models games without soft drop, like NES Tetris)',
    );
  if (base.rotationSystem !== 'NRS' && base.rotationSystem !== 'classic')
    throw new StackRankError(
      'BAD_RULES',
      `a timed rule set needs a rotation system without kicks (NRS or classic); got ${describe(base.rotationSystem)}`,
    );
  return { timing, level: r.level as number, timeline, reaction: r.reaction as number };
}

/** The rows a piece lives in on a board of `boardHeight` rows under these rules. */
export interface Field {
  /** The piece may occupy rows 0 .. ceiling - 1 while it moves. */
  readonly ceiling: number;
  /** A placement must lie in rows 0 .. lockTop - 1. */
  readonly lockTop: number;
}

/** The rows a piece lives in, for a caller's rules (a preset name or a RuleSet) and board height (4..40). */
export function fieldOf(rules: RuleSet | RuleSetName, boardHeight: number): Field {
  const checked = resolveRules(rules);
  if (!Number.isInteger(boardHeight) || boardHeight < BOARD_MIN_HEIGHT || boardHeight > BOARD_MAX_HEIGHT)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `boardHeight must be an integer from ${BOARD_MIN_HEIGHT} to ${BOARD_MAX_HEIGHT}; got ${describe(boardHeight)}`,
    );
  return fieldFor(checked, boardHeight);
}

/** fieldOf on checked arguments (the searches' own). */
export function fieldFor(rules: RuleSet, boardHeight: number): Field {
  switch (rules.spawn) {
    case 'aboveBoard':
      return { ceiling: boardHeight + 4, lockTop: boardHeight };
    case 'topRow':
      return { ceiling: boardHeight + rules.hiddenRows, lockTop: boardHeight };
    case 'guideline':
      return { ceiling: GUIDELINE_MATRIX_ROWS, lockTop: GUIDELINE_MATRIX_ROWS };
  }
}

/** Reference y of the spawn state whose cells span rows minDy..maxDy relative to it. */
export function spawnY(rules: RuleSet, boardHeight: number, minDy: number, maxDy: number): number {
  switch (rules.spawn) {
    case 'aboveBoard':
      return boardHeight - minDy;
    case 'topRow':
      return boardHeight - 1 - maxDy;
    case 'guideline':
      return GUIDELINE_SPAWN_ROW - minDy;
  }
}
