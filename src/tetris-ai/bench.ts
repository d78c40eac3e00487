/**
 * benchGame: one row of the real-game benchmark (docs/game.md, "Benchmark"): the AI and, from the same seeds, the
 * two baselines — the stacking-only AI, whose game ends at its first null, and the full-board BCTS player with the
 * same preview and hold. The CLI's `bench game` and bench/game.ts both call it.
 */
import type { RandomizerName } from '../randomizers/index.js';
import type { RankTable } from '../rank/table.js';
import type { RuleSetName } from '../rules/types.js';
import type { NextPieceValues } from '../stacking-ai/strategy.js';
import { StackRankError, checkCallback, describe, firstHole, optionNames, optionsObject } from '../errors.js';
import { checkHoldPlies, checkStackRoom, GAME_POLICIES, type GamePolicy, type HoldPlies } from './policy.js';
import type { RecoverWeights } from '../kernels/recover.js';
import { GAME_RUN_OPTION_KEYS, playGame } from './play.js';
import type { PlayGameResult } from './game-results.js';
import type { GameTally } from './play-types.js';
import type { GameGoal, TetrisAIOptions } from './ai-options.js';
import type { GarbageSchedule } from './versus-play.js';

export interface BenchGameOptions {
  rules: RuleSetName;
  /** What the AI plays for (playGame's goal); the baselines play survival, so under 'versus' there are none. */
  goal?: GameGoal;
  /** The versus search's options (goal 'versus'). */
  versus?: TetrisAIOptions['versus'];
  /** Garbage fed to every game of every player (playGame's garbage). */
  garbage?: GarbageSchedule;
  /** Default: the rule set's own (playGame). */
  randomizer?: RandomizerName;
  lookahead: number;
  hold?: boolean;
  games?: number;
  /** Index of the first game (playGame's firstGame): games firstGame .. firstGame + games - 1 of the seed. */
  firstGame?: number;
  maxPieces?: number;
  seed?: number;
  table?: RankTable;
  /** A preview table for the randomizer-aware search of the AI and the stacking-only baseline (playGame's
   * previewTable; the full-board player has no stack search and plays without it). */
  previewTable?: NextPieceValues;
  /** Lines of the AI's recover chance ply (TetrisAIOptions.recover.chance); default the rule set's. The baselines
   * play without it: the full-board player stays the plain BCTS player. */
  recoverChance?: number;
  /** The AI's recover weights (TetrisAIOptions.recover.weights: some or all terms by name); default RECOVER_WEIGHTS.
   * The baselines play without them. */
  recoverWeights?: Partial<RecoverWeights>;
  /** Rows the stack keeps free under the top (TetrisAIOptions.stackRoom), for the AI and the stacking-only baseline
   * (the full-board player keeps no stack); default by rule set and randomizer. */
  stackRoom?: number;
  /** Where the stack search of the AI and the stacking-only baseline may press hold (TetrisAIOptions.holdPlies). */
  holdPlies?: HoldPlies;
  /** Worker threads (playGame's threads). */
  threads?: number;
  /** Which players to run; default all three. */
  players?: readonly GamePolicy[];
  onProgress?: (p: {
    player: GamePolicy;
    games: number;
    pieces: number;
    lines: number;
    topOuts: number;
    elapsedMs: number;
  }) => void;
  signal?: AbortSignal;
  /** Each finished game of each player (playGame's onGame: to write checkpoints). */
  onGame?: (player: GamePolicy, tally: GameTally) => void;
}

export type BenchGameResult = Partial<Record<GamePolicy, PlayGameResult>>;

const BENCH_GAME_OPTIONS = optionNames<BenchGameOptions>({
  ...GAME_RUN_OPTION_KEYS,
  recoverChance: true,
  recoverWeights: true,
  players: true,
});

export async function benchGame(options: BenchGameOptions): Promise<BenchGameResult> {
  const opts = optionsObject('benchGame', options, BENCH_GAME_OPTIONS);
  checkCallback('onProgress', opts.onProgress);
  checkCallback('onGame', opts.onGame);
  const players = checkPlayers(opts.players);
  // Checked here too: a run of the full-board player alone does not pass it on.
  const stackRoom = checkStackRoom(opts.stackRoom);
  const holdPlies = opts.holdPlies === undefined ? undefined : checkHoldPlies(opts.holdPlies);
  const out: BenchGameResult = {};
  for (const policy of players) {
    out[policy] = await playGame({
      rules: opts.rules,
      goal: opts.goal,
      versus: opts.versus,
      garbage: opts.garbage,
      randomizer: opts.randomizer,
      lookahead: opts.lookahead,
      hold: opts.hold,
      games: opts.games,
      firstGame: opts.firstGame,
      threads: opts.threads,
      maxPieces: opts.maxPieces,
      seed: opts.seed,
      table: opts.table,
      previewTable: opts.previewTable,
      policy,
      recover: policy === 'both' ? aiRecover(opts) : undefined,
      stackRoom: policy === 'fullBoardOnly' ? undefined : stackRoom,
      holdPlies: policy === 'fullBoardOnly' ? undefined : holdPlies,
      signal: opts.signal,
      onProgress: opts.onProgress && ((p) => opts.onProgress!({ player: policy, ...p })),
      onGame: opts.onGame && ((t) => opts.onGame!(policy, t)),
    });
  }
  return out;
}

/** The AI's recover options from benchGame's, or undefined when neither is given (playGame checks them). */
function aiRecover(
  opts: Partial<BenchGameOptions>,
): { chance?: number; weights?: Partial<RecoverWeights> } | undefined {
  if (opts.recoverChance === undefined && opts.recoverWeights === undefined) return undefined;
  return {
    ...(opts.recoverChance === undefined ? {} : { chance: opts.recoverChance }),
    ...(opts.recoverWeights === undefined ? {} : { weights: opts.recoverWeights }),
  };
}

/** The players to run (default all three); playGame checks the other options. */
function checkPlayers(players: unknown): readonly GamePolicy[] {
  if (players === undefined) return GAME_POLICIES;
  const known = (p: unknown): p is GamePolicy => GAME_POLICIES.includes(p as GamePolicy);
  if (
    !Array.isArray(players) ||
    players.length === 0 ||
    firstHole(players) >= 0 ||
    !players.every(known) ||
    new Set(players).size !== players.length
  )
    throw new StackRankError(
      'BAD_ARGUMENT',
      `players must be a non-empty list of distinct players from ${GAME_POLICIES.join(', ')}; got ${describe(players)}`,
    );
  return players;
}
