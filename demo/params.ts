/**
 * The demo's URL query: every parameter checked, the good ones kept, and for each bad one a sentence saying what
 * was wrong and what is allowed (the page shows them; a shared link with a typo must not fail silently).
 * docs/demo.md lists the parameters.
 */
import {
  PIECES,
  PRESET_NAMES,
  RANDOMIZER_NAMES,
  RULE_SETS,
  RULE_SET_NAMES,
  boardFromFumen,
  isRandomizerName,
  type Piece,
  type PresetName,
  type RandomizerName,
  type RuleSet,
  type RuleSetName,
  type SteepRule,
  type FumenPosition,
} from 'stackrank';

export const MODES = ['watch', 'play', 'analyze', 'versus'] as const;
export type Mode = (typeof MODES)[number];
/** Who plays in watch mode: the game AI on a real board, the article's surface game, or the full-board player. */
export const PLAYERS = ['tetris', 'surface', 'full'] as const;
export type Player = (typeof PLAYERS)[number];
/** Who plays versus mode's left board against the AI on the right: a person (the keys) or the AI too. */
export const VERSUS_PLAYERS = ['person', 'ai'] as const;
export type Versus = (typeof VERSUS_PLAYERS)[number];
/** The input timelines of a timed rule set (docs/rules.md, "Time"): tapping at 30, 20, 15, 12, 10 Hz, or DAS. */
export const TIMELINES = ['X.', 'X..', 'X...', 'X....', 'X.....', 'das', 'dasCharged'] as const;
/** Highest level the demo takes: the NES keeps its level in a byte. */
export const MAX_DEMO_LEVEL = 255;

export interface Settings {
  mode: Mode;
  player: Player;
  rules: RuleSetName;
  /** null: the rule set's own randomizer (defaultGameRandomizer). */
  randomizer: RandomizerName | null;
  iterations: number;
  lookahead: number;
  speed: number;
  /** Versus mode: who plays the left board, and the AI's pieces per second (a side's; Infinity: as fast as it goes). */
  versus: Versus;
  versusSpeed: number;
  steep: SteepRule;
  preset: PresetName;
  seed: number;
  /** Watch mode, real game: a garbage row (one hole) every this many pieces; 0 = none. */
  garbage: number;
  /** Play mode: delayed auto shift and auto repeat rate (ms), soft-drop repeat (ms, 0 = straight to rest). */
  das: number;
  arr: number;
  sdr: number;
  /** A timed rule set's (nes) level and input timeline: the frames analyze mode's placements and play mode's
   * gravity follow (RULE_SETS.nes's level 18 and `X.` unless the link gives them). */
  level: number;
  timeline: string;
  /** Analyze mode: the position of `fumen=`, and the pieces of `queue=` (current first) and `hold=`. */
  fumen: string | null;
  position: FumenPosition | null;
  queue: Piece[] | null;
  hold: Piece | null;
}

/** What is wrong with one parameter of the link (`param`), in a sentence for the page. */
export interface LinkProblem {
  param: string;
  text: string;
}

export function parseSettings(query: string, randomSeed: number): { settings: Settings; problems: LinkProblem[] } {
  const params = new URLSearchParams(query);
  const problems: LinkProblem[] = [];
  const report = (param: string, text: string) => problems.push({ param, text });
  const known = new Set([
    'mode',
    'player',
    'rules',
    'randomizer',
    'iterations',
    'lookahead',
    'speed',
    'versus',
    'steep',
    'preset',
    'seed',
    'garbage',
    'das',
    'arr',
    'sdr',
    'level',
    'timeline',
    'fumen',
    'queue',
    'hold',
  ]);
  for (const k of params.keys()) if (!known.has(k)) report(k, `unknown parameter "${k}" (ignored)`);

  const choice = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const v = params.get(name);
    if (v === null) return fallback;
    if ((allowed as readonly string[]).includes(v)) return v as T;
    report(name, `${name}=${JSON.stringify(v)} is not one of ${allowed.join(', ')}; using ${fallback}`);
    return fallback;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const v = params.get(name);
    if (v === null) return fallback;
    const n = Number(v);
    if (v.trim() !== '' && Number.isInteger(n) && n >= min && n <= max) return n;
    report(name, `${name}=${JSON.stringify(v)} must be an integer from ${min} to ${max}; using ${fallback}`);
    return fallback;
  };

  // mode=stack and mode=full are the links of the watch-only demo: its two players.
  let mode: Mode = 'watch';
  let player: Player = 'tetris';
  const m = params.get('mode');
  if (m === 'stack' || m === 'full') player = m === 'stack' ? 'surface' : 'full';
  else mode = choice('mode', MODES, 'watch');
  player = params.has('player') ? choice('player', PLAYERS, player) : player;

  const rules = choice('rules', RULE_SET_NAMES, 'guideline' as RuleSetName);
  let randomizer: RandomizerName | null = null;
  const r = params.get('randomizer');
  if (r !== null) {
    if (isRandomizerName(r)) randomizer = r;
    else
      report(
        'randomizer',
        `randomizer=${JSON.stringify(r)} is not one of ${RANDOMIZER_NAMES.join(', ')}; using the rule set's own`,
      );
  }
  const speedText = params.get('speed');
  let speed = 60;
  if (speedText === 'max') speed = Infinity;
  else if (speedText !== null) speed = int('speed', 60, 1, 100000);
  const versus = choice('versus', VERSUS_PLAYERS, 'person');
  // A person plays a piece a second or two: the AI opposite starts at that pace unless the link gives a speed.
  const versusSpeed = speedText === null ? (versus === 'person' ? 1 : 5) : speed;

  const pieces = (name: string, v: string): Piece[] | null => {
    const letters = v.toUpperCase();
    if (letters.length > 0 && [...letters].every((c) => (PIECES as readonly string[]).includes(c)))
      return [...letters] as Piece[];
    report(name, `${name}=${JSON.stringify(v)} must be piece letters (${PIECES.join(' ')}), e.g. TSZO; ignored`);
    return null;
  };
  const queueText = params.get('queue');
  const queue = queueText === null ? null : pieces('queue', queueText);
  const holdText = params.get('hold');
  let hold: Piece | null = null;
  if (holdText !== null) {
    const h = holdText.toUpperCase();
    if ((PIECES as readonly string[]).includes(h)) hold = h as Piece;
    else
      report(
        'hold',
        `hold=${JSON.stringify(holdText)} must be one piece letter (${PIECES.join(' ')}), e.g. T; ignored`,
      );
  }
  const fumen = params.get('fumen');
  let position: FumenPosition | null = null;
  if (fumen !== null) {
    try {
      position = boardFromFumen(fumen);
    } catch (e) {
      report('fumen', `fumen: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  const settings: Settings = {
    mode,
    player,
    rules,
    randomizer,
    iterations: int('iterations', 15, 1, 100),
    lookahead: int('lookahead', 1, 0, 4),
    speed,
    versus,
    versusSpeed,
    steep: choice('steep', ['excessFirst', 'truncate'] as SteepRule[], 'excessFirst'),
    preset: choice('preset', PRESET_NAMES, 'bcts' as PresetName),
    seed: int('seed', randomSeed, 0, Number.MAX_SAFE_INTEGER),
    garbage: int('garbage', 0, 0, 100),
    das: int('das', 133, 0, 1000),
    arr: int('arr', 33, 0, 500),
    sdr: int('sdr', 30, 0, 1000),
    level: int('level', RULE_SETS.nes.level!, 0, MAX_DEMO_LEVEL),
    timeline: choice('timeline', TIMELINES, RULE_SETS.nes.timeline as (typeof TIMELINES)[number]),
    fumen: position ? fumen : null,
    position,
    queue,
    hold,
  };
  return { settings, problems };
}

/** Whether a preset is timed (nes): its placements and play follow the chosen level and timeline. */
export function isTimedRules(rules: RuleSetName): boolean {
  return RULE_SETS[rules].timing !== undefined;
}

/** The rule set the AI and play mode use: the preset, or a timed one at the chosen level and timeline. */
export function rulesOf(s: Pick<Settings, 'rules' | 'level' | 'timeline'>): RuleSetName | RuleSet {
  return isTimedRules(s.rules) ? { ...RULE_SETS[s.rules], level: s.level, timeline: s.timeline } : s.rules;
}

/** The rule set as query parameters: `rules=`, and under a timed preset `level=` and `timeline=`. */
export function rulesQuery(s: Pick<Settings, 'rules' | 'level' | 'timeline'>): string {
  const q = new URLSearchParams({ rules: s.rules });
  if (isTimedRules(s.rules)) {
    q.set('level', String(s.level));
    q.set('timeline', s.timeline);
  }
  return q.toString();
}
