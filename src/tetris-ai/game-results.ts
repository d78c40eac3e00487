/**
 * A run's result (docs/game.md, "The simulator and the benchmark"): what playGame reports, summarized from its games'
 * tallies; how a result read back from a file is checked; and how results of one run played in parts pool into the
 * result of all their games (docs/distributed.md), the same figures as one run over those games.
 */
import { StackRankError, describe, firstHole, requireInt } from '../errors.js';
import { joinRecords, readRunParts, recordInt, recordObject, requireRunParts } from '../runs.js';
import { MAX_SEED } from '../random.js';
import { isRandomizerName, RANDOMIZER_NAMES, type RandomizerName } from '../randomizers/index.js';
import type { RuleSetName } from '../rules/types.js';
import { RULE_SETS, RULE_SET_NAMES, isRuleSetName, isTimed, type RuleSet } from '../rules/rule-sets.js';
import { checkFormat } from '../rules/nes-game.js';
import { MAX_LOOKAHEAD } from '../stacking-ai/input.js';
import { cpuSeconds } from '../threads.js';
import { GAME_GOALS, type GameGoal } from './ai-options.js';
import { checkNesTally, nesRunStats, type NesRunStats, type NesTally } from './nes-stats.js';
import {
  GAME_POLICIES,
  HOLD_PLIES,
  MAX_STACK_ROOM,
  MIN_STACK_ROOM,
  WELL_SIDES,
  defaultWell,
  type GamePolicy,
  type HoldPlies,
  type WellSide,
} from './policy.js';
import { MAX_STRENGTH, MIN_STRENGTH } from './strength.js';
import { piecesPerTopOutInterval, tetrisRateInterval } from './intervals.js';
import type { GameTally } from './play-types.js';
import {
  checkGarbageSchedule,
  checkVersusTally,
  summarizeVersus,
  type GarbageSchedule,
  type VersusSummary,
} from './versus-play.js';

/** What a timed run plays besides its preset: the start rule set's time and the level cap (null: untimed). */
export interface GameFormat {
  level: number;
  timeline: string;
  reaction: number;
  timing: RuleSet['timing'];
  maxLevel: number | null;
}

export interface PlayGameResult {
  /** The preset the rule set is (or is based on). */
  rules: RuleSetName;
  /** A timed run's time and level cap; null for a rule set without time. */
  format: GameFormat | null;
  /** A timed run's NES figures (score, lines, Tetris rate by level band, end levels); null otherwise. */
  nes: NesRunStats | null;
  goal: GameGoal;
  /** The garbage fed to every game, or null. */
  garbage: GarbageSchedule | null;
  randomizer: RandomizerName;
  lookahead: number;
  hold: boolean;
  policy: GamePolicy;
  /** The well side the AI played (the rule set's default when none was given). */
  well: WellSide;
  /** The rows stack mode kept free as given (stackRoom), or null: the default by rule set and randomizer. */
  stackRoom: number | null;
  /** Where stack mode's search could press hold (holdPlies). */
  holdPlies: HoldPlies;
  /** The AI's strength, 1..10. */
  strength: number;
  /** Whether tall stacks' burns were weighed by play-outs (playOuts). */
  playOuts: boolean;
  /** Index of the first game played; gamePieces[i] is game firstGame + i. */
  firstGame: number;
  games: number;
  pieces: number;
  lines: number;
  /** Lines cleared by Tetrises / all lines (0 when no line was cleared). */
  tetrisRate: number;
  /** 95 % interval of tetrisRate with games as the sampling unit (ratio estimator); null with fewer than 2 games
   * that cleared lines. */
  tetrisRateCi95: [number, number] | null;
  /** Clears by size: singles, doubles, triples, Tetrises. */
  clears: { single: number; double: number; triple: number; tetris: number };
  topOuts: number;
  /** Pieces per top-out (pieces / topOuts; Infinity when none). */
  piecesPerTopOut: number;
  /** 95 % interval of piecesPerTopOut: pieces over the exact Poisson bounds of the top-out count (the upper end is
   * Infinity when no game topped out). */
  piecesPerTopOutCi95: [number, number];
  /** Share of pieces placed in stack mode. */
  stackShare: number;
  /** Holes made per 1,000 pieces (each move counts the holes it added, when it added any). */
  holesPer1000: number;
  /** Pieces of each game, in order. */
  gamePieces: number[];
  /** Stack-mode pieces of each game, and holes made in each: with gamePieces, what merging runs needs. */
  gameStackPieces: number[];
  gameHolesMade: number[];
  piecesPerSecond: number;
  seconds: number;
  /** CPU time the process spent while the games ran, every thread's (Node; null elsewhere), and pieces per CPU
   * second. */
  cpuSeconds: number | null;
  piecesPerCpuSecond: number | null;
  /** Attack, clear kinds, perfect clears, combos and garbage (null when a part of the run was recorded without). */
  versus: VersusSummary | null;
  /** Threads the games ran on. */
  threads: number;
  seed: number;
  /** Pieces per game at most. */
  maxPieces: number;
  /** Every game's tally, in game order: what mergeGameResults pools. */
  tallies: GameTally[];
}

/** The run's result from its games' tallies (in any order: they are sorted by game index). */
export function summarize(
  tallies: readonly GameTally[],
  run: Pick<
    PlayGameResult,
    | 'rules'
    | 'format'
    | 'goal'
    | 'garbage'
    | 'randomizer'
    | 'lookahead'
    | 'hold'
    | 'policy'
    | 'well'
    | 'stackRoom'
    | 'holdPlies'
    | 'strength'
    | 'playOuts'
    | 'firstGame'
    | 'seed'
    | 'threads'
    | 'maxPieces'
  >,
  t0: number,
  cpu0: number | null,
): PlayGameResult {
  const sorted = [...tallies].sort((a, b) => a.game - b.game);
  const nesGames = sorted.filter((t): t is GameTally & { nes: NesTally } => t.nes !== undefined);
  const result: PlayGameResult = {
    ...run,
    nes: run.format && nesGames.length === sorted.length && sorted.length > 0 ? nesRunStats(nesGames) : null,
    games: sorted.length,
    pieces: 0,
    lines: 0,
    tetrisRate: 0,
    tetrisRateCi95: null,
    clears: { single: 0, double: 0, triple: 0, tetris: 0 },
    topOuts: 0,
    piecesPerTopOut: Infinity,
    piecesPerTopOutCi95: [0, Infinity],
    stackShare: 0,
    holesPer1000: 0,
    gamePieces: sorted.map((t) => t.pieces),
    gameStackPieces: sorted.map((t) => t.stackPieces),
    gameHolesMade: sorted.map((t) => t.holesMade),
    piecesPerSecond: 0,
    seconds: 0,
    cpuSeconds: null,
    piecesPerCpuSecond: null,
    versus: summarizeVersus(sorted),
    tallies: sorted,
  };
  let stackPieces = 0;
  let holesMade = 0;
  for (const t of sorted) {
    result.pieces += t.pieces;
    result.lines += t.lines;
    result.clears.single += t.clears[0];
    result.clears.double += t.clears[1];
    result.clears.triple += t.clears[2];
    result.clears.tetris += t.clears[3];
    if (t.topOut) result.topOuts++;
    stackPieces += t.stackPieces;
    holesMade += t.holesMade;
  }
  result.seconds = (performance.now() - t0) / 1000;
  result.piecesPerSecond = result.seconds > 0 ? result.pieces / result.seconds : 0;
  const cpu = cpuSeconds();
  if (cpu0 !== null && cpu !== null) {
    result.cpuSeconds = cpu - cpu0;
    result.piecesPerCpuSecond = result.cpuSeconds > 0 ? result.pieces / result.cpuSeconds : 0;
  }
  result.tetrisRate = result.lines > 0 ? (4 * result.clears.tetris) / result.lines : 0;
  result.stackShare = result.pieces > 0 ? stackPieces / result.pieces : 0;
  result.holesPer1000 = result.pieces > 0 ? (1000 * holesMade) / result.pieces : 0;
  result.piecesPerTopOut = result.topOuts > 0 ? result.pieces / result.topOuts : Infinity;
  result.tetrisRateCi95 = tetrisRateInterval(sorted.map((t) => ({ lines: t.lines, tetrisLines: 4 * t.clears[3] })));
  result.piecesPerTopOutCi95 = piecesPerTopOutInterval(result.topOuts, result.pieces);
  return result;
}

/**
 * The fields that make a run: results merge only when all are equal. Those after `maxPieces` came later: a result
 * recorded before one of them played its default (laterRunDefaults).
 */
const RUN_FIELDS = [
  'rules',
  'format',
  'randomizer',
  'lookahead',
  'hold',
  'policy',
  'seed',
  'maxPieces',
  'goal',
  'garbage',
  'well',
  'stackRoom',
  'holdPlies',
  'strength',
  'playOuts',
] as const;
type RunFields = Pick<PlayGameResult, (typeof RUN_FIELDS)[number]>;

/** The value a result recorded before a run field existed played with. */
function laterRunDefaults(rules: unknown) {
  return {
    goal: 'survival',
    garbage: null,
    // The well's default is by rule set: an unknown one is refused by checkGameRun.
    well: isRuleSetName(rules) ? defaultWell(RULE_SETS[rules]) : undefined,
    stackRoom: null,
    holdPlies: 'auto',
    strength: MAX_STRENGTH,
    playOuts: true,
  } satisfies Partial<Record<(typeof RUN_FIELDS)[number], unknown>>;
}

/** Checks a game tally (from a checkpoint or a shard file): integer counts, a top-out flag, lines = its clears. */
export function checkGameTally(value: unknown, where: string, maxPieces: number): GameTally {
  const r = recordObject(where, value);
  if (typeof r.topOut !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `${where}: topOut must be true or false; got ${describe(r.topOut)}`);
  // map and reduce below skip a sparse array's holes: a hole is a missing count.
  if (!Array.isArray(r.clears) || r.clears.length !== 4 || firstHole(r.clears) >= 0)
    throw new StackRankError('BAD_ARGUMENT', `${where}: clears must be 4 counts; got ${describe(r.clears)}`);
  const pieces = recordInt(where, 'pieces', r.pieces, 0, maxPieces);
  const tally: GameTally = {
    game: recordInt(where, 'game', r.game),
    pieces,
    lines: recordInt(where, 'lines', r.lines),
    clears: r.clears.map((c, k) => recordInt(where, `clears[${k}]`, c)) as GameTally['clears'],
    topOut: r.topOut,
    stackPieces: recordInt(where, 'stackPieces', r.stackPieces, 0, pieces),
    holesMade: recordInt(where, 'holesMade', r.holesMade),
  };
  if (r.nes !== undefined) tally.nes = checkNesTally(where, r.nes, tally.lines);
  if (r.versus !== undefined) tally.versus = checkVersusTally(r.versus, where, pieces);
  if (tally.clears.reduce((a, c, k) => a + c * (k + 1), 0) !== tally.lines)
    throw new StackRankError('BAD_ARGUMENT', `${where}: lines (${tally.lines}) is not the sum of its clears`);
  return tally;
}

/**
 * Checks a result's description of its run (what a merge keeps, and a run file's `meta`): the values playGame
 * writes there, each BAD_ARGUMENT naming `where` and the field otherwise.
 */
export function checkGameRun(run: Record<string, unknown>, where: string): void {
  const bad = (field: string, allowed: string) =>
    new StackRankError('BAD_ARGUMENT', `${where}: ${field} must be ${allowed}; got ${describe(run[field])}`);
  if (!isRuleSetName(run.rules)) throw bad('rules', `one of ${RULE_SET_NAMES.join(', ')}`);
  // A result recorded before the format existed leaves it out.
  if (run.format !== undefined) checkRunFormat(run.rules, run.format, where);
  if (!isRandomizerName(run.randomizer)) throw bad('randomizer', `one of ${RANDOMIZER_NAMES.join(', ')}`);
  recordInt(where, 'lookahead', run.lookahead, 0, MAX_LOOKAHEAD);
  if (typeof run.hold !== 'boolean') throw bad('hold', 'true or false');
  if (!GAME_POLICIES.includes(run.policy as GamePolicy)) throw bad('policy', `one of ${GAME_POLICIES.join(', ')}`);
  recordInt(where, 'seed', run.seed, 0, MAX_SEED);
  recordInt(where, 'maxPieces', run.maxPieces, 1);
  // Fields recorded later: a run file written before them leaves them out.
  if (run.well !== undefined && !WELL_SIDES.includes(run.well as WellSide)) throw bad('well', WELL_SIDES.join(', '));
  if (run.stackRoom !== undefined && run.stackRoom !== null)
    recordInt(where, 'stackRoom', run.stackRoom, MIN_STACK_ROOM, MAX_STACK_ROOM);
  if (run.holdPlies !== undefined && !HOLD_PLIES.includes(run.holdPlies as HoldPlies))
    throw bad('holdPlies', `one of ${HOLD_PLIES.join(', ')}`);
  if (run.strength !== undefined) recordInt(where, 'strength', run.strength, MIN_STRENGTH, MAX_STRENGTH);
  if (run.playOuts !== undefined && typeof run.playOuts !== 'boolean') throw bad('playOuts', 'true or false');
  if (run.goal !== undefined && !GAME_GOALS.includes(run.goal as GameGoal))
    throw bad('goal', `one of ${GAME_GOALS.join(', ')}`);
  if (run.garbage !== undefined && run.garbage !== null) {
    try {
      checkGarbageSchedule(run.garbage);
    } catch (e) {
      throw new StackRankError('BAD_ARGUMENT', `${where}: ${(e as Error).message}`);
    }
  }
}

/**
 * Checks a result's `format` against its preset: null for a rule set without time, otherwise the time and level cap
 * an NES game of that preset can be played with (checkFormat). BAD_ARGUMENT naming `where` otherwise.
 */
function checkRunFormat(rules: RuleSetName, format: unknown, where: string): void {
  const preset = RULE_SETS[rules];
  if (format === null) {
    if (isTimed(preset))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${where}: format must be an object for the timed ${rules} rule set; got null`,
      );
    return;
  }
  if (!isTimed(preset))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${where}: format must be null for the ${rules} rule set, which has no time; got ${describe(format)}`,
    );
  const f = recordObject(`${where}: format`, format);
  try {
    checkFormat({
      rules: { ...preset, timing: f.timing, level: f.level, timeline: f.timeline, reaction: f.reaction } as RuleSet,
      maxLevel: f.maxLevel as number | null,
    });
  } catch (e) {
    if (e instanceof StackRankError) throw new StackRankError('BAD_ARGUMENT', `${where}: format: ${e.message}`);
    throw e;
  }
}

/**
 * Pools results of one run played in parts (each games firstGame .. firstGame + games - 1, on any machine and
 * thread count, or rebuilt from a checkpoint's tallies) into the result of the games they cover together: the same
 * figures, bit for bit, as one playGame call over those games (summarize, from the tallies in game order).
 * `seconds` is the parts' total, `threads` the most any part used. Parts of different runs (rules, format,
 * randomizer, lookahead, hold, policy, seed, maxPieces, goal, garbage, well, stackRoom, holdPlies, strength),
 * overlapping parts and gaps are refused with RUN_MISMATCH; a result recorded before one of the later fields existed
 * counts as its default. (The table, the recover and versus search options are not in a result: parts must have been
 * played with the same ones.)
 */
export function mergeGameResults(results: readonly PlayGameResult[]): PlayGameResult {
  // A result recorded before a run field existed played its default.
  const parts0 = readRunParts('mergeGameResults', results, [
    ...RUN_FIELDS,
    'firstGame',
    'games',
    'tallies',
    'seconds',
    'threads',
    'cpuSeconds',
  ]);
  const described = parts0.map((r) => {
    const filled: Record<string, unknown> = { ...r };
    for (const [field, value] of Object.entries(laterRunDefaults(r.rules))) filled[field] ??= value;
    return filled as unknown as PlayGameResult;
  });
  const first = requireRunParts('mergeGameResults', described, RUN_FIELDS);
  checkGameRun(first as unknown as Record<string, unknown>, 'result 1');
  const maxPieces = requireInt('maxPieces', first.maxPieces, 1, Number.MAX_SAFE_INTEGER);
  const parts = parts0.map((r, i) => {
    const start = requireInt(`result ${i + 1}: firstGame`, r.firstGame, 0, Number.MAX_SAFE_INTEGER);
    const games = requireInt(`result ${i + 1}: games`, r.games, 1, Number.MAX_SAFE_INTEGER - start);
    return { range: { start, end: start + games }, records: r.tallies };
  });
  const { range, records } = joinRecords<GameTally>(parts, (t, where) => checkGameTally(t, where, maxPieces).game);
  const seconds = parts0.reduce((a, r) => a + (Number.isFinite(r.seconds) && r.seconds > 0 ? r.seconds : 0), 0);
  const run = Object.fromEntries(RUN_FIELDS.map((f) => [f, first[f]])) as RunFields;
  const threads = Math.max(1, ...parts0.map((r) => (Number.isInteger(r.threads) ? r.threads : 1)));
  const pooled = summarize(records, { ...run, firstGame: range.start, threads }, performance.now(), null);
  pooled.seconds = seconds;
  pooled.piecesPerSecond = seconds > 0 ? pooled.pieces / seconds : 0;
  // CPU time pools when every part measured it.
  if (parts0.every((r) => typeof r.cpuSeconds === 'number' && r.cpuSeconds >= 0)) {
    pooled.cpuSeconds = parts0.reduce((a, r) => a + (r.cpuSeconds as number), 0);
    pooled.piecesPerCpuSecond = pooled.cpuSeconds > 0 ? pooled.pieces / pooled.cpuSeconds : 0;
  }
  return pooled;
}
