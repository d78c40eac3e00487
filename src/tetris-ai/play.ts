/**
 * playGame: the real-game simulator (docs/game.md). TetrisAI plays games of a rule set against a seeded
 * randomizer; the simulator keeps its own board (it locks the returned cells, clears rows and checks that every
 * cell was empty and inside the board), its own queue and hold box, and counts what the benchmark reports.
 *
 * A game ends at a top-out: nextMove answers null (nothing can be placed) or the piece ends with a cell above the
 * visible field (20 rows). Game g draws its pieces from the randomizer seeded with streamSeed(seed, g, 0) and
 * depends on nothing else, so the same seed gives the same games on any thread count, and a run of games
 * firstGame..firstGame + games - 1 plays exactly those games of a longer run (the contract `--shard` relies on).
 * With threads > 1 the games run on worker threads (src/tetris-ai/play-threads.ts), each with its own TetrisAI over
 * one shared search image. Results of parts of one run pool exactly with mergeGameResults (./game-results.ts;
 * docs/distributed.md).
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
  yieldToEventLoop,
} from '../errors.js';
import { YIELD_EVERY_MS } from '../slices.js';
import { inNode } from '../node-builtins.js';
import { PIECE_COUNT, type Piece } from '../pieces.js';
import { checkSeed } from '../random.js';
import {
  createRandomizer,
  isRandomizerName,
  RANDOMIZER_NAMES,
  type Randomizer,
  type RandomizerName,
} from '../randomizers/index.js';
import type { RankTable } from '../rank/table.js';
import type { NextPieceValues } from '../stacking-ai/strategy.js';
import { streamSeed } from '../stacking-ai/simulate.js';
import type { GarbageEntry } from '../rules/garbage.js';
import type { RuleSetName } from '../rules/types.js';
import { isTimed, type RuleSet } from '../rules/rule-sets.js';
import { NES_COMPETITION_MAX_LEVEL, NesGame, checkFormat } from '../rules/nes-game.js';
import { NesGameTally } from './nes-stats.js';
import { MAX_THREADS, cpuSeconds, defaultThreadCount } from '../threads.js';
import { defaultGameTable, TetrisAI } from './ai.js';
import { GAME_GOALS, type GameGoal, type TetrisAIOptions } from './ai-options.js';
import type { GameMove } from './decision.js';
import { type SetupProgress, setupReporter } from '../setup-progress.js';
import { checkHoldPlies, checkStackRoom, checkWell, type GamePolicy, type HoldPlies, type WellSide } from './policy.js';
import { checkStrength } from './strength.js';
import { checkPlayOuts } from './play-outs.js';
import { MIN_FIELD_HEIGHT, WORK_ROWS } from './board-input.js';
import { countHoles } from '../board-rows.js';
import { clearsBoard, emptyFrom, lockInPlace, rowsFilled } from './grid.js';
import { playOnThreads } from './play-threads.js';
import { summarize, type GameFormat, type PlayGameResult } from './game-results.js';
import type { GameAIOptions, GameSettings, GameTally, GameUnderWay } from './play-types.js';
import { defaultGameRandomizer, ruleFacts } from './rules-adapter.js';
import { GarbageFeed, VersusCount, checkGarbageSchedule, type GarbageSchedule } from './versus-play.js';

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
  const randomizer = opts.randomizer ?? defaultGameRandomizer(facts.ruleSet);
  if (!isRandomizerName(randomizer))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `unknown randomizer ${describe(randomizer)}; randomizers are ${RANDOMIZER_NAMES.join(', ')}`,
    );
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
  const { signal, onProgress, onGame, report, format, well, versus, aiOptions, settings } = plan;
  const threads = Math.min(games, opts.ai ? 1 : (opts.threads ?? (await threadsByDefault())));

  // The clock starts once the AI (or every worker's AI) is made: pieces per second measure play, not setup.
  let t0 = performance.now();
  let cpu0 = cpuSeconds();
  let tallies: GameTally[];
  if (threads > 1) {
    // The versus search has no stack mode: no table, no search image.
    const table = versus
      ? null
      : opts.table === undefined || opts.table === 'small'
        ? await defaultGameTable(facts.ruleSet, signal, report, opts.table)
        : opts.table;
    ({
      tallies,
      startedAt: t0,
      startedCpu: cpu0,
    } = await playOnThreads({
      aiOptions,
      settings,
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
    }));
  } else {
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
    if (
      ai.rules.name !== facts.name ||
      JSON.stringify(ai.rules.ruleSet) !== JSON.stringify(facts.ruleSet) ||
      ai.lookahead !== lookahead ||
      ai.policy !== policy ||
      ai.goal !== goal
    ) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `the given ai plays ${ai.rules.name} at lookahead ${ai.lookahead} (${ai.policy}, goal ${ai.goal}); these games ask for ${facts.name} at ${lookahead} (${policy}, goal ${goal})${isTimed(facts.ruleSet) ? ' with the same time' : ''}`,
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
    t0 = performance.now();
    cpu0 = cpuSeconds();
    const progress = onProgress && progressSum(onProgress, t0);
    // One clock over all the games: many short games give the event loop (an abort) a turn as one long game does.
    const due = sliceClock(YIELD_EVERY_MS);
    tallies = [];
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
  }
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
    t0,
    cpu0,
  );
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

/** One turn of a game as playOneGame's onTurn hook sees it (the diagnostic benches: bench/replay.ts). */
export interface PlayedTurn {
  /** Pieces placed in this game before this turn. */
  n: number;
  /** The board before the move and after it (copies of the bit rows, bottom first); after is before on a top-out. */
  before: Uint32Array;
  after: Uint32Array;
  current: Piece;
  queue: readonly Piece[];
  hold: Piece | null;
  /** The versus counters before the move (nextMove's combo and backToBack; its attack counts from them). */
  combo: number;
  backToBack: number;
  /** The AI's move; null when it has none (a top-out). */
  move: GameMove | null;
  /** Rows the move cleared. */
  lines: number;
  /** In an NES game (a timed rule set): the level the turn is played at and the game's LINES counter before the
   * move, as the AI was told them (nextMove's `level` and `lines`); undefined in other games. */
  nes?: { level: number; lines: number };
}

/**
 * The randomizer that deals game `game` of a seed's games (playOneGame's pieces): seeded with streamSeed(seed, game,
 * 0) and nothing else, so a script can deal another player the same games.
 */
export function gameRandomizer(randomizer: RandomizerName, seed: number, game: number): Randomizer {
  return createRandomizer(randomizer, { seed: streamSeed(seed, game, 0) });
}

/**
 * Plays game `game` of the seed's sequence with this AI: its pieces come from gameRandomizer and nothing else, so any thread playing it plays the same game. `onTurn` (diagnostics)
 * sees every turn; the boards are copied for it only when it is given. The game gives the event loop a turn (and
 * looks at `signal`) whenever `due` says so (a sliceClock of YIELD_EVERY_MS): a caller playing many games passes one
 * clock to all of them, since a game of a few pieces may end before its own clock is due.
 */
export async function playOneGame(
  ai: TetrisAI,
  game: number,
  settings: GameSettings,
  hooks: {
    signal?: AbortSignal;
    due?: () => boolean;
    onPieces?: (p: GameUnderWay) => void;
    onTurn?: (turn: PlayedTurn) => void;
  } = {},
): Promise<GameTally> {
  const { lookahead, hold, maxPieces } = settings;
  const width = ai.width;
  const visible = ai.rules.visibleHeight;
  const useNext = ai.randomizer !== undefined;
  const rng = gameRandomizer(settings.randomizer, settings.seed, game);
  const tally: GameTally = {
    game,
    pieces: 0,
    lines: 0,
    clears: [0, 0, 0, 0],
    topOut: false,
    stackPieces: 0,
    holesMade: 0,
  };
  // The versus counters the AI is told each turn, and the garbage fed to this game.
  const count = new VersusCount(ai.rules.ruleSet);
  const feed = settings.garbage ? new GarbageFeed(settings.garbage, settings.seed, game, width) : null;
  // stream = the pieces dealt and not yet placed: the current one and the queue, so the randomizer's
  // distribution() is exactly the chance of the piece after the queue.
  const stream: Piece[] = [];
  // The simulator's board, locked into in place. The AI reads it as a board of `height` rows (nextMove's reading of
  // the visible field): the rows above it are empty whenever the AI is asked, since a cell there ends the game.
  const rows = new Uint32Array(WORK_ROWS);
  const height = Math.max(visible, MIN_FIELD_HEIGHT);
  const chances = useNext ? new Float64Array(PIECE_COUNT) : undefined;
  const ruleSet = ai.rules.ruleSet;
  const revealChances =
    useNext && lookahead > 0 && !hold && isTimed(ruleSet) && ruleSet.reaction > 0
      ? new Float64Array(PIECE_COUNT)
      : undefined;
  let holdPiece: Piece | null = null;
  let holes = 0;
  // an NES game (a timed rule set): its level, lines and score
  const nesTally =
    settings.maxLevel === undefined
      ? null
      : new NesGameTally(new NesGame({ rules: ai.rules.ruleSet, maxLevel: settings.maxLevel }));
  const nes = nesTally?.game;
  const due = hooks.due ?? sliceClock(YIELD_EVERY_MS);
  while (tally.pieces < maxPieces) {
    // Every piece: a move of the recover mode's search can take milliseconds, so a check every 16 pieces was late.
    if (due()) {
      // Give the event loop a turn, so an abort (Ctrl-C) or a timer can arrive while the games run.
      await yieldToEventLoop();
      hooks.onPieces?.({ pieces: tally.pieces, lines: tally.lines });
    }
    if (hooks.signal?.aborted) throw new StackRankError('ABORTED', 'the games were aborted');
    while (stream.length < lookahead + 1) {
      // the chances of the piece about to join the queue, for the reaction (Turn.revealChances)
      if (revealChances && stream.length === lookahead) rng.distribution(revealChances);
      stream.push(rng.next() as Piece);
    }
    const current = stream[0];
    const queue = stream.slice(1);
    const next = chances && rng.distribution(chances);
    const held = hold ? holdPiece : null;
    const incoming = feed ? feed.before(tally.pieces) : NO_GARBAGE;
    const versus = { combo: count.combo, backToBack: count.backToBack, incoming };
    const move = ai.playTurn({
      rows,
      height,
      current,
      queue,
      hold: held,
      canHold: hold,
      next,
      level: nes?.level,
      // the game's LINES counter, as a game's own loop gives nextMove's state (GameState.lines)
      lines: nes?.lines,
      revealChances,
      versus,
    });
    const seen = hooks.onTurn && {
      n: tally.pieces,
      before: rows.slice(),
      current,
      queue,
      hold: held,
      combo: versus.combo,
      backToBack: versus.backToBack,
      move,
      ...(nes && { nes: { level: nes.level, lines: nes.lines } }),
    };
    if (!move) {
      if (seen) hooks.onTurn?.({ ...seen, after: seen.before, lines: 0 });
      tally.topOut = true;
      break;
    }
    const expected = !move.hold ? current : (holdPiece ?? queue[0]);
    if (move.piece !== expected || (move.hold && !hold)) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `the AI placed ${move.piece}${move.hold ? ' after hold' : ''}; the turn allows ${expected}`,
      );
    }
    if (move.hold) {
      if (holdPiece === null) stream.shift(); // the box was empty: the first queue piece comes out too
      holdPiece = current;
    }
    stream.shift();
    const filled = rowsFilled(rows, width, move.cells);
    const perfectClear = filled > 0 && clearsBoard(rows, width, move.cells);
    const lines = placeChecked(rows, width, move.cells);
    const attack = count.lock(lines, move.spin, perfectClear);
    // garbage pushed over the rows the board keeps ends the game; so does a cell over the field (below)
    const buried = feed?.after(attack, lines, rows, width, rows.length) === true;
    if (seen) hooks.onTurn?.({ ...seen, after: rows.slice(), lines });
    tally.pieces++;
    if (move.mode === 'stack') tally.stackPieces++;
    if (lines > 0) {
      tally.lines += lines;
      tally.clears[lines - 1]++;
      nesTally?.countLines(lines);
    }
    const nowHoles = countHoles(rows, width);
    if (nowHoles > holes) tally.holesMade += nowHoles - holes;
    holes = nowHoles;
    if (buried || !emptyFrom(rows, visible)) {
      tally.topOut = true;
      break;
    }
    if (nesTally?.clear(lines)) break;
  }
  if (nesTally) tally.nes = nesTally.finish(tally.topOut);
  tally.versus = count.tally;
  if (feed) {
    tally.versus.garbageReceived = feed.received;
    tally.versus.garbageCancelled = feed.cancelled;
    tally.versus.garbageEntered = feed.entered;
  }
  return tally;
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
const NO_GARBAGE: readonly GarbageEntry[] = Object.freeze([]);

/** Locks the cells in place (returns the lines cleared), refusing any that is filled or off the board: the
 * simulator never trusts a move. */
function placeChecked(rows: Uint32Array, width: number, cells: readonly (readonly [number, number])[]): number {
  if (cells.length !== 4) throw new StackRankError('BAD_ARGUMENT', `a move must have 4 cells; got ${cells.length}`);
  for (const [x, y] of cells) {
    if (!(x >= 0 && x < width && y >= 0 && y < rows.length) || (rows[y] >> x) & 1) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `the AI's move puts a cell on [${x}, ${y}], which is filled or off the board`,
      );
    }
  }
  for (let i = 0; i < cells.length; i++)
    for (let j = 0; j < i; j++)
      if (cells[i][0] === cells[j][0] && cells[i][1] === cells[j][1])
        throw new StackRankError('BAD_ARGUMENT', `the AI's move puts two cells on [${cells[i][0]}, ${cells[i][1]}]`);
  return lockInPlace(rows, width, cells);
}
