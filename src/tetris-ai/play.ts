/**
 * playGame: TetrisAI plays games of a rule set on the real-game simulator (./game-simulator.ts; docs/game.md), and
 * the run reports what the benchmark reports. Game g draws its pieces from the randomizer seeded with
 * streamSeed(seed, g, 0) and depends on nothing else, so the same seed gives the same games on any thread count,
 * and a run of games firstGame..firstGame + games - 1 plays exactly those games of a longer run (the contract
 * `--shard` relies on). With threads > 1 the games run on worker threads (src/tetris-ai/play-threads.ts), each with
 * its own TetrisAI over one shared search image. Results of parts of one run pool exactly with mergeGameResults
 * (./game-results.ts; docs/distributed.md).
 */
import {
  StackRankError,
  checkCallback,
  checkSignal,
  describe,
  optionNames,
  optionsObject,
  refuseUnknownOptions,
  requireInt,
  sliceClock,
} from '../errors.js';
import { YIELD_EVERY_MS } from '../slices.js';
import { inNode } from '../node-builtins.js';
import { checkSeed } from '../random.js';
import { checkRandomizerName, type RandomizerName } from '../randomizers/index.js';
import type { RankTable } from '../rank/table.js';
import type { NextPieceValues } from '../stacking-ai/strategy.js';
import type { RuleSetName } from '../rules/types.js';
import { isTimed, type RuleSet } from '../rules/rule-sets.js';
import { NES_COMPETITION_MAX_LEVEL, checkFormat } from '../rules/nes-game.js';
import { MAX_THREADS, cpuSeconds, defaultThreadCount } from '../threads.js';
import { defaultGameTable, TetrisAI } from './ai.js';
import { GAME_GOALS, type GameGoal, type TetrisAIOptions } from './ai-options.js';
import { type SetupProgress, setupReporter } from '../setup-progress.js';
import { checkHoldPlies, checkStackRoom, checkWell, type GamePolicy, type HoldPlies, type WellSide } from './policy.js';
import { checkStrength } from './strength.js';
import { checkPlayOuts } from './play-outs.js';
import { playOneGame } from './game-simulator.js';
import { playOnThreads } from './play-threads.js';
import { summarize, type GameFormat, type PlayGameResult } from './game-results.js';
import {
  aiCreateOptions,
  type GameAIOptions,
  type GameSettings,
  type GameTally,
  type GameUnderWay,
  type PlayedGames,
} from './play-types.js';
import { defaultGameRandomizer, ruleFacts } from './rules-adapter.js';
import { checkGarbageSchedule, type GarbageSchedule } from './versus-play.js';

/** Least time between two onProgress calls. */
export const PROGRESS_EVERY_MS = 250;

export interface PlayGameOptions {
  /** A preset name, or a RuleSet based on one with its time changed (TetrisAIOptions.rules). Under a timed rule set
   * (nes) the games are NES games: they start at the rule set's level, level up, score, and end at `maxLevel`. */
  rules?: RuleSetName | RuleSet;
  /** NES games: the level that ends a game (null: none). Default 49 (the competition format). */
  maxLevel?: number | null;
  /** What the AI plays for (TetrisAIOptions.goal): 'survival' (default) or 'versus'. */
  goal?: GameGoal;
  /** The versus search's options (TetrisAIOptions.versus; goal 'versus'). */
  versus?: TetrisAIOptions['versus'];
  /** Garbage fed to every game (docs/game.md, "The simulator and the benchmark"): `lines` [min, max] every `every`
   * [min, max] pieces. Default none. */
  garbage?: GarbageSchedule;
  randomizer?: RandomizerName;
  /** Preview pieces shown to the AI (and searched). Default 1. */
  lookahead?: number;
  /** Whether the AI may use hold (only rule sets with hold). Default: the rule set's. */
  hold?: boolean;
  games?: number;
  /** Index of the first game played (default 0): games firstGame .. firstGame + games - 1 of the seed's sequence. */
  firstGame?: number;
  /** Pieces per game at most (a game still alive then is cut). Default 10,000. */
  maxPieces?: number;
  seed?: number;
  well?: WellSide;
  /** An AI made for these options, to reuse (its rules, lookahead and randomizer must match); only with threads 1. */
  ai?: TetrisAI;
  /** A rank table, or 'small' (TetrisAIOptions.table); default the cached table. */
  table?: RankTable | 'small';
  /** 'both' (the AI); 'stackOnly' and 'fullBoardOnly' are the benchmark baselines. */
  policy?: GamePolicy;
  /** A preview table for the randomizer-aware search (TetrisAIOptions.previewTable). */
  previewTable?: NextPieceValues;
  recover?: TetrisAIOptions['recover'];
  /** Rows stack mode keeps free under the top (TetrisAIOptions.stackRoom); default by rule set and randomizer. */
  stackRoom?: number;
  /** Where stack mode's search may press hold (TetrisAIOptions.holdPlies): 'auto' (default), 'all' or 'first'. */
  holdPlies?: HoldPlies;
  /** The AI's strength, 1..10 (TetrisAIOptions.strength; default 10); a weaker level's choices are seeded by `seed`. */
  strength?: number;
  /** Whether a timed NES game's tall stacks may weigh a burn by play-outs (TetrisAIOptions.playOuts; default true). */
  playOuts?: boolean;
  /** Worker threads playing games side by side (Node). Default: the core count, at most `games`; 1 with `ai`. */
  threads?: number;
  onProgress?: (p: GameProgress) => void;
  /**
   * The setup's progress before the first piece (loading or building the table, files written to the cache, the
   * search's memory: TetrisAIOptions.onProgress), then `ready` once play starts.
   */
  onSetupProgress?: (p: SetupProgress) => void;
  /** Called with each game's tally as soon as the game is over (to write checkpoints; any order with threads). */
  onGame?: (tally: GameTally) => void;
  signal?: AbortSignal;
}

/** The options playGame and benchGame both take (benchGame passes them on). */
type GameRunOption = keyof PlayGameOptions &
  (
    | 'rules'
    | 'goal'
    | 'versus'
    | 'garbage'
    | 'randomizer'
    | 'lookahead'
    | 'hold'
    | 'games'
    | 'firstGame'
    | 'maxPieces'
    | 'seed'
    | 'table'
    | 'previewTable'
    | 'stackRoom'
    | 'holdPlies'
    | 'threads'
    | 'onProgress'
    | 'onGame'
    | 'signal'
  );

/** GameRunOption as a list, for both lists of known options. */
export const GAME_RUN_OPTION_KEYS: { readonly [K in GameRunOption]-?: true } = {
  rules: true,
  goal: true,
  versus: true,
  garbage: true,
  randomizer: true,
  lookahead: true,
  hold: true,
  games: true,
  firstGame: true,
  maxPieces: true,
  seed: true,
  table: true,
  previewTable: true,
  stackRoom: true,
  holdPlies: true,
  threads: true,
  onProgress: true,
  onGame: true,
  signal: true,
};

const PLAY_GAME_OPTIONS = optionNames<PlayGameOptions>({
  ...GAME_RUN_OPTION_KEYS,
  maxLevel: true,
  well: true,
  ai: true,
  policy: true,
  recover: true,
  strength: true,
  playOuts: true,
  onSetupProgress: true,
});

/** onProgress: games finished, and pieces, lines and top-outs so far (games under way included). */
export interface GameProgress {
  games: number;
  pieces: number;
  lines: number;
  topOuts: number;
  elapsedMs: number;
}

/**
 * A run's games as playGame plays them, from its options: each option checked (StackRankError otherwise) and the
 * defaults filled in, the AI's options (`aiOptions`, for TetrisAI.create through aiCreateOptions) and each game's
 * settings (`settings`, for playOneGame). playGame plays from this plan; a script that replays its games one turn
 * at a time (bench/) builds the same plan, so the two cannot drift.
 */
export function prepareGames(options: PlayGameOptions = {}) {
  const opts = optionsObject('playGame', options);
  // maxLevel null: an NES game without a level cap
  refuseUnknownOptions('playGame', opts, PLAY_GAME_OPTIONS, ['maxLevel']);
  const rules = opts.rules ?? 'guideline';
  const facts = ruleFacts(rules);
  const goal = opts.goal ?? 'survival';
  if (!GAME_GOALS.includes(goal))
    throw new StackRankError('BAD_ARGUMENT', `goal must be one of ${GAME_GOALS.join(', ')}; got ${describe(goal)}`);
  const garbage = checkGarbageSchedule(opts.garbage);
  const randomizer = checkRandomizerName(opts.randomizer ?? defaultGameRandomizer(facts.ruleSet));
  const lookahead = requireInt('lookahead', opts.lookahead ?? (goal === 'versus' ? facts.previews : 1), 0, 6);
  const games = requireInt('games', opts.games ?? 1, 1, 1_000_000);
  const firstGame = requireInt('firstGame', opts.firstGame ?? 0, 0, Number.MAX_SAFE_INTEGER - games);
  const maxPieces = requireInt('maxPieces', opts.maxPieces ?? 10_000, 1, Number.MAX_SAFE_INTEGER);
  const seed = checkSeed(opts.seed ?? 0);
  const policy = opts.policy ?? 'both';
  const signal = checkSignal(opts.signal);
  const onProgress = checkCallback<(p: GameProgress) => void>('onProgress', opts.onProgress);
  const onGame = checkCallback<(t: GameTally) => void>('onGame', opts.onGame);
  const report = setupReporter(checkCallback('onSetupProgress', opts.onSetupProgress));
  if (opts.hold !== undefined && typeof opts.hold !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `hold must be true or false; got ${describe(opts.hold)}`);
  if (opts.hold && !facts.hold) throw new StackRankError('BAD_ARGUMENT', `the ${facts.name} rule set has no hold`);
  const format = gameFormat(facts.ruleSet, opts.maxLevel);
  if (opts.threads !== undefined) requireInt('threads', opts.threads, 1, MAX_THREADS);
  if (opts.ai !== undefined && !(opts.ai instanceof TetrisAI))
    throw new StackRankError('BAD_ARGUMENT', `ai must be a TetrisAI (from TetrisAI.create); got ${describe(opts.ai)}`);
  if (opts.ai !== undefined && opts.threads !== undefined && opts.threads > 1)
    throw new StackRankError(
      'BAD_ARGUMENT',
      'an ai runs on this thread only: with threads > 1 pass the table (each worker makes its own ai)',
    );
  const well = checkWell(opts.well, facts.ruleSet);
  if (signal?.aborted) throw new StackRankError('ABORTED', 'the games were aborted');
  const versus = goal === 'versus';
  // as TetrisAI.create refuses it (readSurvivalOptions): games without goal 'versus' would not play it
  if (opts.versus !== undefined && !versus)
    throw new StackRankError('BAD_ARGUMENT', "the versus option is the versus search's: give it with goal 'versus'");
  // The survival policy's options are left out under goal 'versus' (TetrisAI.create refuses them there).
  const aiOptions: GameAIOptions = {
    rules: facts.ruleSet,
    goal,
    versus: opts.versus,
    lookahead,
    randomizer: policy === 'fullBoardOnly' || versus ? undefined : randomizer,
    well,
    policy,
    recover: opts.recover,
    stackRoom: checkStackRoom(opts.stackRoom),
    holdPlies: checkHoldPlies(opts.holdPlies),
    strength: checkStrength(opts.strength),
    seed,
    playOuts: checkPlayOuts(opts.playOuts),
  };
  const settings: GameSettings = { randomizer, lookahead, hold: opts.hold ?? facts.hold, maxPieces, seed, garbage };
  if (format) settings.maxLevel = format.maxLevel;
  return {
    opts,
    facts,
    goal,
    garbage,
    randomizer,
    lookahead,
    games,
    firstGame,
    maxPieces,
    seed,
    policy,
    signal,
    onProgress,
    onGame,
    report,
    format,
    well,
    versus,
    aiOptions,
    settings,
  };
}

export async function playGame(options: PlayGameOptions = {}): Promise<PlayGameResult> {
  const plan = prepareGames(options);
  const { opts, facts, goal, garbage, randomizer, lookahead, games, firstGame, maxPieces, seed, policy } = plan;
  const { format, well, aiOptions, settings } = plan;
  const threads = Math.min(games, opts.ai ? 1 : (opts.threads ?? (await threadsByDefault())));
  const { tallies, startedAt, startedCpu } =
    threads > 1 ? await playOnWorkers(plan, threads) : await playOnThisThread(plan);
  return summarize(
    tallies,
    {
      rules: facts.name,
      format,
      goal,
      garbage,
      randomizer,
      lookahead,
      hold: settings.hold,
      policy,
      // A given ai plays its own well, hold plies, strength and play-outs (its stack room it does not tell: the one
      // given here).
      well: opts.ai?.well ?? well,
      stackRoom: aiOptions.stackRoom ?? null,
      holdPlies: opts.ai?.holdPlies ?? aiOptions.holdPlies,
      strength: opts.ai?.strength ?? aiOptions.strength,
      playOuts: opts.ai?.playOuts ?? aiOptions.playOuts,
      firstGame,
      seed,
      threads,
      maxPieces,
    },
    startedAt,
    startedCpu,
  );
}

/** A run's plan: its options checked, with their defaults (prepareGames). */
type GamePlan = ReturnType<typeof prepareGames>;

/** The run's games on `threads` worker threads (./play-threads.ts). */
async function playOnWorkers(plan: GamePlan, threads: number): Promise<PlayedGames> {
  const { opts, facts, games, firstGame, policy, signal, onProgress, onGame, report, versus } = plan;
  // The versus search has no stack mode: no table, no search image.
  const table = versus
    ? null
    : opts.table === undefined || opts.table === 'small'
      ? await defaultGameTable(facts.ruleSet, signal, report, opts.table)
      : opts.table;
  return playOnThreads({
    aiOptions: plan.aiOptions,
    settings: plan.settings,
    table,
    previewTable: policy === 'fullBoardOnly' ? undefined : opts.previewTable,
    firstGame,
    games,
    threads,
    signal,
    onSetupProgress: report,
    onProgress:
      (onProgress || onGame || report) &&
      ((startedAt) => {
        report?.({ stage: 'ready', fraction: 1 });
        const progress = onProgress && progressSum(onProgress, startedAt);
        return (slot, current, finished) => {
          if (finished) onGame?.(finished);
          progress?.(slot, current, finished);
        };
      }),
  });
}

/** The run's games one after the other on this thread, with the given ai or one made for them. */
async function playOnThisThread(plan: GamePlan): Promise<PlayedGames> {
  const { opts, games, firstGame, signal, onProgress, onGame, report, aiOptions, settings } = plan;
  const ai =
    opts.ai ??
    (await TetrisAI.create(
      aiCreateOptions(aiOptions, {
        table: opts.table,
        previewTable: opts.previewTable,
        signal,
        onProgress: opts.onSetupProgress,
      }),
    ));
  if (opts.ai) report?.({ stage: 'ready', fraction: 1 });
  checkSameGames(ai, plan);
  const startedAt = performance.now();
  const startedCpu = cpuSeconds();
  const progress = onProgress && progressSum(onProgress, startedAt);
  // One clock over all the games: many short games give the event loop (an abort) a turn as one long game does.
  const due = sliceClock(YIELD_EVERY_MS);
  const tallies: GameTally[] = [];
  for (let g = firstGame; g < firstGame + games; g++) {
    const tally = await playOneGame(ai, g, settings, {
      signal,
      due,
      onPieces: progress && ((p) => progress(0, p)),
    });
    progress?.(0, null, tally);
    onGame?.(tally);
    tallies.push(tally);
  }
  return { tallies, startedAt, startedCpu };
}

/** The fields where the ai's rule set differs from the games', as "level 19 where these games have 18", or ''. */
function ruleSetDifference(ours: RuleSet, theirs: RuleSet): string {
  const fields = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])] as (keyof RuleSet)[];
  const show = (v: unknown) => (v === undefined ? 'none' : JSON.stringify(v));
  return fields
    .filter((f) => JSON.stringify(ours[f]) !== JSON.stringify(theirs[f]))
    .map((f) => `${f} ${show(ours[f])} where these games have ${show(theirs[f])}`)
    .join(', ');
}

/** Refuses an ai that plays other games than the plan's: other rules or time, lookahead, policy or goal, or, where
 * the run names them, other hold plies, strength or play-outs. */
function checkSameGames(ai: TetrisAI, plan: GamePlan): void {
  const { opts, facts, lookahead, policy, goal, versus, aiOptions } = plan;
  const rulesDiffer = ruleSetDifference(ai.rules.ruleSet, facts.ruleSet);
  if (
    ai.rules.name !== facts.name ||
    rulesDiffer !== '' ||
    ai.lookahead !== lookahead ||
    ai.policy !== policy ||
    ai.goal !== goal
  ) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `the given ai plays ${ai.rules.name} at lookahead ${ai.lookahead} (${ai.policy}, goal ${ai.goal}); these games ask for ${facts.name} at ${lookahead} (${policy}, goal ${goal})${rulesDiffer && `; the ai's rule set has ${rulesDiffer}`}`,
    );
  }
  if (opts.holdPlies !== undefined && !versus && ai.holdPlies !== aiOptions.holdPlies)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `the given ai holds at holdPlies '${ai.holdPlies}'; these games ask for '${aiOptions.holdPlies}'`,
    );
  if (opts.strength !== undefined && ai.strength !== aiOptions.strength)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `the given ai plays at strength ${ai.strength}; these games ask for ${aiOptions.strength}`,
    );
  if (opts.playOuts !== undefined && ai.playOuts !== aiOptions.playOuts)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `the given ai plays ${ai.playOuts ? 'with' : 'without'} play-outs; these games ask for ${aiOptions.playOuts ? 'them' : 'none'}`,
    );
}

/** playGame's default: every core where shared memory exists (Node), else 1. */
async function threadsByDefault(): Promise<number> {
  return inNode ? defaultThreadCount() : 1;
}

/**
 * onProgress over several games under way at once (one per thread): `slot` is the thread, `current` its game's
 * counts so far (null when none), `finished` a game it just ended. Calls onProgress at most every 250 ms, and once
 * per finished game.
 */
export function progressSum(
  onProgress: (p: GameProgress) => void,
  t0: number,
): (slot: number, current: GameUnderWay | null, finished?: GameTally) => void {
  const done = { games: 0, pieces: 0, lines: 0, topOuts: 0 };
  const underWay = new Map<number, GameUnderWay>();
  let last = t0;
  return (slot, current, finished) => {
    if (current) underWay.set(slot, current);
    else underWay.delete(slot);
    if (finished) {
      done.games++;
      done.pieces += finished.pieces;
      done.lines += finished.lines;
      if (finished.topOut) done.topOuts++;
    }
    const now = performance.now();
    if (!finished && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    let pieces = done.pieces;
    let lines = done.lines;
    for (const w of underWay.values()) (pieces += w.pieces), (lines += w.lines);
    onProgress({ games: done.games, pieces, lines, topOuts: done.topOuts, elapsedMs: now - t0 });
  };
}

/**
 * A run's format: under a timed rule set, its time and the level cap (default NES_COMPETITION_MAX_LEVEL), checked
 * as an NES game's (start level at most 31, cap above it); null without time, where a cap is refused.
 */
function gameFormat(ruleSet: RuleSet, maxLevel: unknown): GameFormat | null {
  if (!isTimed(ruleSet)) {
    if (maxLevel !== undefined)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `maxLevel is an NES game's (a timed rule set: nes); the ${ruleSet.name} rule set has no levels`,
      );
    return null;
  }
  const cap = maxLevel === undefined ? NES_COMPETITION_MAX_LEVEL : maxLevel;
  checkFormat({ rules: ruleSet, maxLevel: cap as number | null });
  return {
    level: ruleSet.level,
    timeline: ruleSet.timeline,
    reaction: ruleSet.reaction,
    timing: ruleSet.timing,
    maxLevel: cap as number | null,
  };
}
