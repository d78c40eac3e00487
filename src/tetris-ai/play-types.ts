/**
 * The plain data of playGame's games (src/tetris-ai/play.ts) that its worker threads (./play-threads.ts) are posted and
 * post back: a game's settings, the AI's options, a game's tally and its progress; and the AI's options made into
 * TetrisAI.create's.
 */
import type { RandomizerName } from '../randomizers/index.js';
import type { NesTally } from './nes-stats.js';
import type { RuleSet } from '../rules/rule-sets.js';
import type { RuleSetName } from '../rules/types.js';
import type { GameGoal, TetrisAIOptions } from './ai-options.js';
import type { GarbageSchedule, VersusTally } from './versus-play.js';
import type { GamePolicy, HoldPlies, WellSide } from './policy.js';

/** What one game did: everything PlayGameResult sums. Plain numbers, so a worker can post it. */
export interface GameTally {
  game: number;
  pieces: number;
  lines: number;
  /** Singles, doubles, triples, Tetrises. */
  clears: [number, number, number, number];
  topOut: boolean;
  stackPieces: number;
  holesMade: number;
  /** NES games (a timed rule set): score, end level, lines by level band. */
  nes?: NesTally;
  /** Attack, clear kinds, combos and garbage (left out by results recorded before they were counted). */
  versus?: VersusTally;
}

/** A run's games played: their tallies, and the clock and CPU time when play began, once the AI (or every worker's
 * AI) was made, so pieces per second measure play, not setup. */
export interface PlayedGames {
  tallies: GameTally[];
  startedAt: number;
  startedCpu: number | null;
}

/** The options a game needs besides the AI (plain data: posted to workers as is). */
export interface GameSettings {
  randomizer: RandomizerName;
  lookahead: number;
  hold: boolean;
  maxPieces: number;
  seed: number;
  /** NES games: the level cap (null: none); undefined for a rule set without time. */
  maxLevel?: number | null;
  /** Garbage fed to each game (playGame's `garbage`); none when left out. */
  garbage?: GarbageSchedule | null;
}

/** TetrisAI.create's options for a playGame run (also what each worker thread creates its AI with). */
export interface GameAIOptions {
  rules: RuleSetName | RuleSet;
  goal: GameGoal;
  versus: TetrisAIOptions['versus'];
  lookahead: number;
  randomizer: RandomizerName | undefined;
  well: WellSide | undefined;
  policy: GamePolicy;
  recover: TetrisAIOptions['recover'];
  stackRoom: number | undefined;
  holdPlies: HoldPlies;
  strength: number;
  /** Seeds a weaker level's choices: the run's seed. */
  seed: number;
  /** TetrisAIOptions.playOuts. */
  playOuts: boolean;
}

/** Pieces and lines of a game under way (progress reports). */
export interface GameUnderWay {
  pieces: number;
  lines: number;
}

/**
 * TetrisAI.create's options for a run's AI: under goal 'versus' only the versus search's (the survival policy's are
 * refused there), else the survival policy's with the run's table and preview table.
 */
export function aiCreateOptions(
  o: GameAIOptions,
  {
    table,
    previewTable,
    signal,
    onProgress,
  }: Pick<TetrisAIOptions, 'table' | 'previewTable' | 'signal' | 'onProgress'> = {},
): TetrisAIOptions {
  if (o.goal === 'versus')
    return { rules: o.rules, goal: 'versus', versus: o.versus, lookahead: o.lookahead, signal, onProgress };
  return {
    rules: o.rules,
    lookahead: o.lookahead,
    randomizer: o.randomizer,
    well: o.well,
    policy: o.policy,
    recover: o.recover,
    stackRoom: o.stackRoom,
    holdPlies: o.holdPlies,
    table,
    previewTable: o.policy === 'fullBoardOnly' ? undefined : previewTable,
    strength: o.strength,
    seed: o.seed,
    playOuts: o.playOuts,
    signal,
    onProgress,
  };
}
