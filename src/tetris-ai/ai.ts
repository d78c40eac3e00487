/**
 * TetrisAI: the move for any position of a real game (docs/game.md). Two modes with clean hand-offs:
 * `stack` plays the rank table's perfect stack while the board is a clean stack with the well open (src/tetris-ai/stack.ts);
 * `recover` plays a full-board search aimed back at a clean stack otherwise, or when the stack has no move
 * (src/tetris-ai/recover.ts). It answers null only when no piece the turn allows has any reachable placement.
 *
 *   const ai = await TetrisAI.create({ rules: 'guideline', lookahead: 2 });
 *   const move = ai.nextMove({ board, current: 'T', queue: 'SZOIL', hold: null, canHold: true });
 */
import {
  StackRankError,
  checkCallback,
  checkSignal,
  optionNames,
  linkedSignal,
  optionsObject,
  refuseUnknownOptions,
  requireInt,
  untilAborted,
} from '../errors.js';
import { CERTAIN_PIECE, MIRROR_PIECE, PIECES, pieceId, type Piece } from '../pieces.js';
import { inNode } from '../node-builtins.js';
import { indexedDbAvailable } from '../rank/idb-cache.js';
import { type SetupReport, setupReporter } from '../setup-progress.js';
import type { RandomizerName } from '../randomizers/index.js';
import { PASS_A_TABLE_IN_A_BROWSER, type RankTable } from '../rank/table.js';
import { isTimed, type RuleSet } from '../rules/rule-sets.js';
import { StackingEngine } from '../kernels/search.js';
import { fillDistributionWeights, WEIGHT_WORDS_EXPECT } from '../kernels/search-format.js';
import type { GamePlacement, Input } from '../rules/types.js';
import { ATTACK_TABLES, clearKindOf, lockAttack, type ClearKind } from '../rules/attack.js';
import { RECOVER_WEIGHTS, type RecoverWeightSet } from './evaluate.js';
import { cellsKey, clearsBoard, columnCells, rowsFilled } from './grid.js';
import {
  versusMove,
  versusPerfectClear,
  type VersusContext,
  type VersusPlacements,
  type VersusState,
} from './versus.js';
import { recoverMove, type RecoverContext, type RecoverState } from './recover.js';
import { PieceReach, factsAtLevel, ruleFacts, type GameRuleFacts } from './rules-adapter.js';
import { maxHeight } from '../board-rows.js';
import {
  I_SHARE,
  holdsEveryPly,
  recoversWide,
  burnsRows,
  coversWell,
  maxFloorFor,
  stackIsTall,
  stackSearchSetup,
  timedPlay,
  handoverDue,
  type LevelPlay,
  wellSides,
  type GamePolicy,
  type HoldPlies,
  type StackLimits,
  type WellSide,
} from './policy.js';
import { rankDecision, type PlacementRanking } from './rank-placements.js';
import { GameSession, type GameSessionOptions, type SessionHost } from './session.js';
import { deepening } from './budget.js';
import { MAX_STRENGTH, slipMove, strengthProfile, turnRandom, weakerRoom } from './strength.js';
import {
  insteadPlaysOutBetter,
  playOutChances,
  playOutChoiceAt,
  playsNesPieces,
  playsOutBetter,
  PLAY_OUTS,
  type PlayedInstead,
  type PlayOutPlayer,
} from './play-outs.js';
import type { Rng } from '../random.js';
import type {
  Decision,
  GameMode,
  GameMove,
  GameState,
  MoveOptions,
  SearchSettings,
  Turn,
  TurnVersus,
} from './decision.js';
import {
  TETRIS_AI_OPTIONS,
  checkGoal,
  readSurvivalOptions,
  readVersusOptions,
  type GameGoal,
  type TetrisAIOptions,
  type VersusOptions,
} from './ai-options.js';
import { reactedMove } from './reaction.js';
import { readMoveOptions, readTurn } from './game-state.js';
import {
  isTetrisReady,
  stackMove,
  stackSurfaces,
  type StackContext,
  type StackSurface,
  type TurnOption,
} from './stack.js';
import type { StackingSettings } from '../stacking-ai/rules.js';

export { GAME_POLICIES, HOLD_PLIES, type GamePolicy, type HoldPlies, type WellSide } from './policy.js';

const ABORTED_SETUP = "the AI's setup was aborted";

/** The constructor's first argument from TetrisAI.create; a caller's `new TetrisAI(...)` is refused. */
const INTERNAL: unique symbol = Symbol('TetrisAI');

/** TetrisAI.rankPlacements' options. */
const RANK_PLACEMENTS_OPTIONS = optionNames<{ limit?: number }>({ limit: true });

export class TetrisAI {
  private constructor(
    token: typeof INTERNAL,
    readonly rules: GameRuleFacts,
    readonly lookahead: number,
    readonly well: WellSide,
    readonly width: number,
    readonly policy: GamePolicy,
    readonly randomizer: RandomizerName | undefined,
    /** Stack mode's search engine and table (null under goal 'versus', which has no stack mode). */
    private readonly engine: StackingEngine | null,
    private readonly table: StackTable | null,
    private readonly limits: StackLimits,
    /** How deep a turn searches: the lookahead and recover search this AI plays (a weaker level's, if lower). */
    private readonly settings: SearchSettings,
    /** Recover mode's weights in each place it plays (defaultRecoverWeightSet with the caller's in place of any;
     * `usual` is PLAIN_BCTS_WEIGHTS under 'fullBoardOnly', which plays it everywhere). */
    private readonly recoverWeights: RecoverWeightSet,
    /** The highest floor this rule set's stack stands on (MAX_FLOOR). */
    private readonly maxFloor: number,
    /** 1..10 (MAX_STRENGTH: its own play), and the seed of a weaker level's choices. */
    readonly strength: number,
    private readonly seed: number,
    /** Where stack mode's search may press hold (TetrisAIOptions.holdPlies). */
    readonly holdPlies: HoldPlies,
    /** Whether play-outs may weigh a burn or the well kept (TetrisAIOptions.playOuts). */
    readonly playOuts: boolean,
    /** The versus search's beam and weights (kernel order) under goal 'versus', else null. */
    private readonly versusSearch: {
      beam: number;
      placements: VersusPlacements;
      weights: Float64Array;
      perfectClearRows: number;
    } | null = null,
  ) {
    if (token !== INTERNAL)
      throw new StackRankError(
        'BAD_ARGUMENT',
        'TetrisAI has no public constructor: use await TetrisAI.create(options)',
      );
  }

  /**
   * The search of a play-out's moves (docs/game.md, "Play-outs"): this AI's, with a recover move's chance ply over
   * at most PLAY_OUTS.recoverChance lines of its beam.
   */
  private get playOutSettings(): SearchSettings {
    const nearTop = this.settings.nearTop;
    if (!nearTop || nearTop.chance <= PLAY_OUTS.recoverChance) return this.settings;
    this.playOutSearch ??= { ...this.settings, nearTop: { ...nearTop, chance: PLAY_OUTS.recoverChance } };
    return this.playOutSearch;
  }
  private playOutSearch: SearchSettings | undefined;

  /** The next-piece weights of stack mode's search (a well on the right; mirrored), filled again every turn. */
  private readonly weightsRight = new Int32Array(WEIGHT_WORDS_EXPECT);
  private readonly weightsLeft = new Int32Array(WEIGHT_WORDS_EXPECT);

  /**
   * An AI for `options` (docs/game.md).
   *
   * @param attached Internal, not part of the API: leave it out. playGame's worker threads pass the search engine
   *   and the table's facts made on the thread that owns the table, instead of loading the table and making an
   *   engine here.
   */
  static async create(options: TetrisAIOptions = {}, attached?: AttachedSearch): Promise<TetrisAI> {
    const opts = optionsObject('TetrisAI.create', options);
    refuseUnknownOptions('TetrisAI.create', opts, TETRIS_AI_OPTIONS);
    const rules = ruleFacts(opts.rules ?? 'guideline');
    const signal = checkSignal(opts.signal);
    const goal = checkGoal(opts.goal);
    const report = setupReporter(checkCallback('onProgress', opts.onProgress));
    if (goal === 'versus') return TetrisAI.createVersus(readVersusOptions(opts, rules), rules, signal, report);
    const survival = readSurvivalOptions(opts, rules);
    const { lookahead, well, policy, randomizer, stackRoom, holdPlies, strength, seed, playOuts, profile } = survival;
    // At most one listener on the caller's signal for the whole setup, however many waits it makes (linkedSignal).
    const link = linkedSignal(signal);
    try {
      const table: StackTable =
        attached?.table ??
        (opts.table === undefined || opts.table === 'small'
          ? await defaultGameTable(rules.ruleSet, link.signal, report, opts.table)
          : opts.table);
      const { stacking, limits, unknownPieces, blockedWell } = stackSearchSetup(
        rules,
        randomizer,
        policy,
        stackRoom,
        (room) => weakerRoom(room, profile),
      );
      if (opts.previewTable && unknownPieces === 0)
        throw new StackRankError(
          'BAD_ARGUMENT',
          'previewTable needs a randomizer (it scores the randomizer-aware search)',
        );
      if (link.signal?.aborted) throw new StackRankError('ABORTED', ABORTED_SETUP);
      const engine =
        attached?.engine ??
        (await untilAborted(
          StackingEngine.create(table as RankTable, stacking, {
            unknownPieces,
            leafValues: opts.previewTable,
            blockedWell,
            signal: link.signal,
            onProgress: report,
          }),
          link.signal,
          ABORTED_SETUP,
        ));
      const ai = new TetrisAI(
        INTERNAL,
        rules,
        lookahead,
        well,
        table.width + 1,
        policy,
        randomizer,
        engine,
        table,
        limits,
        survival.settings,
        survival.recoverWeights,
        maxFloorFor(rules.ruleSet),
        strength,
        seed,
        holdPlies,
        playOuts,
      );
      // This AI alone uses its engine (an attached one is its thread's owner's business): when the AI is dropped, the
      // engine's blocks go back to the table's shared search image, for the next AI.
      if (!attached) engine.releaseWith(ai);
      report?.({ stage: 'ready', fraction: 1 });
      return ai;
    } finally {
      link.done();
    }
  }

  /** TetrisAI.create under goal 'versus', its options checked (readVersusOptions). */
  private static createVersus(
    versus: VersusOptions,
    rules: GameRuleFacts,
    signal: AbortSignal | undefined,
    report: ReturnType<typeof setupReporter>,
  ): TetrisAI {
    if (signal?.aborted) throw new StackRankError('ABORTED', ABORTED_SETUP);
    const { lookahead, beam, placements, weights, perfectClearRows } = versus;
    const { limits } = stackSearchSetup(rules, undefined, 'both');
    // The versus search reads the settings' lookahead (a time budget deepens it); it has no recover search.
    const settings: SearchSettings = { lookahead, recoverDepth: 1, search: { beam: 1, chance: 0 }, nearTop: null };
    const ai = new TetrisAI(
      INTERNAL,
      rules,
      lookahead,
      'right',
      VERSUS_WIDTH,
      'both',
      undefined,
      null,
      null,
      limits,
      settings,
      { usual: RECOVER_WEIGHTS, floor: RECOVER_WEIGHTS, blind: RECOVER_WEIGHTS },
      maxFloorFor(rules.ruleSet),
      // the survival options' defaults, as a run records them (the versus search reads none of them)
      MAX_STRENGTH,
      0,
      'auto',
      true,
      { beam, placements, weights, perfectClearRows },
    );
    report?.({ stage: 'ready', fraction: 1 });
    return ai;
  }

  /** What this AI plays for. */
  get goal(): GameGoal {
    return this.versusSearch ? 'versus' : 'survival';
  }

  /** The move for this position, or null when nothing can be placed at all (the game is lost). */
  nextMove(state: GameState, options?: MoveOptions): GameMove | null {
    const budgetMs = readMoveOptions(options);
    return this.playWithOuts(readTurn(state, 'nextMove', this.width, this.rules), budgetMs, 0);
  }

  /**
   * nextMove's and a session's move: play's, or its burn or the well kept where play-outs choose it (at full
   * strength, no budget).
   */
  private playWithOuts(turn: Turn, budgetMs: number | undefined, salt: number): GameMove | null {
    const move = this.play(turn, budgetMs, salt, false);
    const weighed = budgetMs === undefined ? this.playOutChoice(turn) : null;
    if (!weighed) return move;
    const other = this.play(turn, undefined, salt, false, weighed);
    return playsOutBetter(this.player, turn, move, other, weighed) ? other : move;
  }

  /**
   * What a turn weighs by play-outs against the policy's move (playOutChoiceAt), if anything. Only with play-outs on
   * (TetrisAIOptions.playOuts), at full strength (a weaker level's play takes no decision from outside: `play`),
   * under a timed rule set without hold, the survival policy with both modes and a known next piece.
   */
  private playOutChoice(turn: Turn): PlayedInstead | null {
    if (
      !this.playOuts ||
      strengthProfile(this.strength) ||
      !isTimed(this.rules.ruleSet) ||
      this.rules.hold ||
      this.policy !== 'both' ||
      this.versusSearch !== null ||
      turn.queue.length === 0
    )
      return null;
    return playOutChoiceAt(
      turn.level ?? this.rules.ruleSet.level,
      maxHeight(turn.rows),
      (level) => this.playAt(factsAtLevel(this.rules, level)).atFloor,
    );
  }

  /** How play-outs place their pieces: this AI's move with the reaction, in a play-out's search (playOutSettings). */
  private get player(): PlayOutPlayer {
    this.playOutPlayer ??= {
      width: this.width,
      visibleHeight: this.rules.visibleHeight,
      level: this.rules.ruleSet.level ?? 0,
      seed: this.seed,
      nesPieces: playsNesPieces(this.randomizer),
      move: (turn, instead) => this.reactTurn(turn, instead, this.playOutSettings),
    };
    return this.playOutPlayer;
  }
  private playOutPlayer: PlayOutPlayer | undefined;

  /**
   * A session that follows one game (docs/game.md, "Sessions"): its nextMove takes the same state as this one's,
   * without `next`, and infers the randomizer's chances from the pieces the game has shown.
   */
  newGame(options: GameSessionOptions = {}): GameSession {
    return new GameSession(this.sessionHost(), options);
  }

  /** @internal What a game session asks of this AI (newGame; the worker's table swap, src/tetris-ai/table-swap.ts). */
  sessionHost(): SessionHost {
    return {
      randomizer: this.randomizer,
      readTurn: (state, caller) => readTurn(state, caller, this.width, this.rules),
      readMoveOptions,
      play: (turn, budgetMs, salt) => this.playWithOuts(turn, budgetMs, salt),
    };
  }

  /**
   * @internal nextMove for a turn the caller made itself and vouches for (playGame's simulator, whose board and
   * pieces are its own; not for a caller's turns, which nextMove checks and copies): the same move, without checking
   * and copying the input every piece. The simulator reads moves, not values, so a recover move's chance ply is
   * skipped where it cannot change the move (RecoverChance moveOnly): such a move's value is its best line's without
   * the ply; and a versus move of the perfect-clear finder is not searched for its value (0).
   */
  playTurn(turn: Turn): GameMove | null {
    const move = this.reactTurn(turn);
    const weighed = move && this.playOutChoice(turn);
    if (!weighed) return move;
    const r = this.rules.ruleSet;
    if (weighed === 'keepWell') {
      // From the double killscreen every piece locks before the next is known: the play-outs draw that piece.
      const kept = this.reactTurn(turn, 'keepWell');
      const hidden = r.reaction === 0 ? undefined : turn.revealChances;
      return playsOutBetter(this.player, turn, move, kept, 'keepWell', hidden) ? kept : move;
    }
    if (turn.revealChances === undefined || r.reaction === 0) {
      const burnt = this.reactTurn(turn, 'burn');
      return playsOutBetter(this.player, turn, move, burnt, 'burn') ? burnt : move;
    }
    // The reaction: the burn is chosen before the queue's last piece is known, so the play-outs draw that piece
    // and weigh the policy's choice and the burn over it; the move is then the one the choice plays with the piece
    // that came.
    const blindTurn = { ...turn, queue: turn.queue.slice(0, -1), next: turn.revealChances };
    const blind = this.play(blindTurn, undefined, 0, true);
    const burnt = this.play(blindTurn, undefined, 0, true, 'burn');
    if (burnt === null || (blind !== null && cellsKey(burnt.cells) === cellsKey(blind.cells))) return move;
    const known = turn.queue.slice(0, -1);
    // (not burning: the policy's own decision, which may burn too)
    const burns = insteadPlaysOutBetter(
      this.player,
      turn,
      turn.revealChances,
      (burn, next) =>
        this.reactTurn(
          { ...turn, queue: [...known, next], next: playOutChances(next, this.player.nesPieces) },
          burn ? 'burn' : undefined,
          this.playOutSettings,
        ),
      'burn',
    );
    return burns ? this.reactTurn(turn, 'burn') : move;
  }

  /** playTurn's move without play-outs, the reaction's (reactedMove); `instead`: the policy's other move (decide);
   * `settings`: the search's (a play-out's moves: playOutSettings). */
  private reactTurn(turn: Turn, instead?: PlayedInstead, settings = this.settings): GameMove | null {
    return reactedMove(turn, this.rules, this.width, (t) => this.play(t, undefined, 0, true, instead, settings));
  }

  /**
   * A turn's move: the full search (this AI's settings), or within a time budget (a deepening search), and at a
   * level under 10 with its mistakes, drawn from the seed, the position and `salt` (a session's turn).
   */
  private play(
    turn: Turn,
    budgetMs: number | undefined,
    salt: number,
    moveOnly: boolean,
    instead?: PlayedInstead,
    settings = this.settings,
  ): GameMove | null {
    const profile = strengthProfile(this.strength);
    if (!profile && budgetMs === undefined) return this.decide(turn, moveOnly, settings, instead).move;
    let weaker = turn;
    let rng: Rng | undefined;
    if (profile) {
      rng = turnRandom(this.seed, turn.rows, turn.height, [turn.current, ...turn.queue, turn.hold], salt);
      const forgetsHold = turn.canHold && rng.nextFloat() < profile.holdMissed;
      weaker = { ...turn, next: profile.chances ? turn.next : undefined, canHold: turn.canHold && !forgetsHold };
    }
    const started = performance.now();
    const d =
      budgetMs === undefined
        ? this.decide(weaker, moveOnly)
        : deepening(this.settings, budgetMs, (settings) => this.decide(weaker, moveOnly, settings));
    if (!profile || !rng || !d.move || !(rng.nextFloat() < profile.slip)) return d.move;
    // A slip: one of the nearly-best moves; not when a budget is already half spent (valuing them all takes time).
    if (budgetMs !== undefined && performance.now() - started > budgetMs / 2) return d.move;
    const slipped = slipMove(d, this.table?.iterations ?? 0, this.field(), profile.temperature, rng);
    return slipped
      ? this.describeMove(d.rows, slipped.hold, slipped.placement, d.move.mode, slipped.value, d.versus)
      : d.move;
  }

  private field() {
    return { width: this.width, visibleHeight: this.rules.visibleHeight };
  }

  /**
   * nextMove's search, with what rankPlacements needs to value every other move the same way; `moveOnly` when the
   * caller reads the move and not its value (playTurn). Versus games play the versus search; the others stack mode's
   * move where it has one, else recover mode's.
   */
  private decide(
    turn: Turn,
    moveOnly = false,
    settings: SearchSettings = this.settings,
    instead?: PlayedInstead,
  ): Decision {
    // a timed rule set's placements at this turn's level
    const rules = turn.level === undefined ? this.rules : factsAtLevel(this.rules, turn.level);
    const { rows, height, current, queue, hold, canHold } = turn;
    const { options, reachRoot } = turnOptions(turn, this.width, rules);
    const versus = turn.versus ?? NO_VERSUS;
    // (An object literal, not a spread: decide runs for every move of every play-out.)
    const decided = (move: GameMove | null, stack: Decision['stack'], recover: Decision['recover']): Decision => ({
      rows,
      height,
      current,
      queue,
      hold,
      canHold,
      versus,
      options,
      reachRoot,
      move,
      stack,
      recover,
    });
    // No piece the turn allows can be placed: the game is lost. (Asked after stack mode, whose search finds every
    // option's placements itself, so the kernel lists each piece's placements once.)
    const lost = () => options.every((o) => o.reach.count === 0);

    if (this.versusSearch) {
      if (lost()) return decided(null, null, null);
      const choice = this.versusChoice(turn, versus, reachRoot, settings.lookahead, moveOnly);
      if (!choice) return decided(null, null, null);
      const move = this.describeMove(rows, choice.hold, choice.placement, 'versus', choice.value, versus);
      return { ...decided(move, null, null), versusSearch: choice.search };
    }
    const plan = this.stackPlan(turn, rules, settings.lookahead, instead);
    if (this.policy !== 'fullBoardOnly') {
      const ctx = this.stackContext(turn, rules, settings.lookahead, plan);
      const choice = stackMove(ctx, rows, options, plan.surfaces);
      if (choice)
        return decided(
          this.describeMove(rows, choice.option.hold, choice.placement, 'stack', choice.value, versus),
          { ctx, choice },
          null,
        );
      if (this.policy === 'stackOnly') return decided(null, null, null);
    }
    if (lost()) return decided(null, null, null);
    const recover = this.recoverSearch(turn, rules, settings, plan, instead, moveOnly);
    const choice = recoverMove(recover.ctx, recover.state, reachRoot);
    if (!choice) return decided(null, null, null);
    return decided(
      this.describeMove(rows, choice.hold, choice.placement, 'recover', choice.value, versus),
      null,
      recover,
    );
  }

  /** Goal 'versus': the versus search's choice, with the context and state it searched (null when it has none). */
  private versusChoice(
    turn: Turn,
    versus: TurnVersus,
    reachRoot: (p: Piece) => readonly GamePlacement[],
    lookahead: number,
    moveOnly: boolean,
  ) {
    const { rows, height, current, queue, hold, canHold } = turn;
    const search = this.versusSearch!;
    const ctx: VersusContext = {
      width: this.width,
      height,
      visibleHeight: this.rules.visibleHeight,
      rules: this.rules,
      beam: search.beam,
      placements: search.placements,
      weights: search.weights,
      perfectClearRows: search.perfectClearRows,
    };
    const state: VersusState = {
      rows,
      current,
      queue: queue.slice(0, lookahead),
      hold,
      canHold,
      combo: versus.combo,
      backToBack: versus.backToBack,
      incoming: versus.incoming,
    };
    // A perfect clear the known pieces make is played before the beam search's choice (docs/game.md, "The versus
    // policy": the search, with its evaluator, finds too few of them).
    const choice = versusPerfectClear(ctx, state, reachRoot, moveOnly) ?? versusMove(ctx, state, reachRoot);
    return choice && { ...choice, search: { ctx, state } };
  }

  /**
   * This turn's stacking rules: the level's wells and limits, and whether a tall stack burns rows instead of growing
   * (the article's smaller clears where they save the game): a clear that leaves the stack clean if there is one
   * (stack mode, clearsOnly), else recover mode. The stack-only baseline never burns.
   */
  private stackPlan(
    turn: Turn,
    rules: GameRuleFacts,
    lookahead: number,
    instead: PlayedInstead | undefined,
  ): StackPlan {
    const { rows, current, queue, hold, next } = turn;
    const known = [current, ...queue.slice(0, lookahead), hold];
    // A Tetris-ready stack only waits for its I and may stand higher (STACK_ROOM). (The full-board baseline keeps
    // no stack: it needs neither.)
    const play = this.playAt(rules);
    const { sides, droughtReach } = play;
    // The last lines before the double killscreen: the stack meets it low (LevelPlay.handover), where the game gave
    // its lines count (docs/game.md, "The lines count"; the simulator gives it as a game's loop does).
    const limits =
      play.handover && turn.lines !== undefined && handoverDue(rules.ruleSet.level!, turn.lines)
        ? play.handover
        : play.limits;
    const surfaces = this.policy === 'fullBoardOnly' ? [] : stackSurfaces(rows, this.width, sides);
    const stacking = surfaces.some(isTetrisReady) ? limits.tetrisReady : limits.building;
    const limit = stacking.boardHeight;
    // Where the piece locks before the next one is known, a tall stack burns only when an I drought is likely.
    const drought = droughtReach
      ? { surfaces, reach: droughtReach, nextI: next ? next[pieceId('I')] : I_SHARE }
      : undefined;
    const burn = instead === 'burn' || (this.policy === 'both' && burnsRows(rows, limit, known, drought));
    return { play, surfaces, stacking, burn };
  }

  /** Stack mode's search for this turn: the plan's limits and burn, the engine and table, the next piece's chances. */
  private stackContext(turn: Turn, rules: GameRuleFacts, lookahead: number, plan: StackPlan): StackContext {
    const { engine, table } = this;
    if (!engine || !table) throw new Error('stack mode without its engine');
    return {
      engine,
      table,
      stacking: plan.stacking,
      width: this.width,
      lookahead,
      weights: new NextWeights(turn.next, this.weightsRight, this.weightsLeft),
      dangerMargin: 4,
      maxFloor: this.maxFloor,
      clearsOnly: plan.burn,
      // A timed game's blind move (the window the current piece alone): its smaller clears are valued over the
      // unknown piece as its search's leaves are (StackContext.unknownAfter; bench/notes/nes.md, "Policy round 8").
      unknownAfter: engine.unknownPieces > 0 && isTimed(rules.ruleSet) && Math.min(lookahead, turn.queue.length) === 0,
      // Hold at every ply of the search where this turn may hold and holdPlies asks for it (docs/game.md, "Hold").
      holdPlies: turn.canHold && holdsEveryPly(this.holdPlies, lookahead),
    };
  }

  /** Recover mode's search for this turn: its terms, weights and width by the board, the level and `instead`. */
  private recoverSearch(
    turn: Turn,
    rules: GameRuleFacts,
    settings: SearchSettings,
    plan: StackPlan,
    instead: PlayedInstead | undefined,
    moveOnly: boolean,
  ): { ctx: RecoverContext; state: RecoverState } {
    const { rows, height, current, queue, hold, canHold, next } = turn;
    const { lookahead } = settings;
    const { sides, atFloor, droughtReach } = plan.play;
    const limit = plan.stacking.boardHeight;
    const plain = this.policy === 'fullBoardOnly';
    // At the floor, the move keeping the well that play-outs weigh (playOutChoice): the well terms' weights.
    const keepWell = instead === 'keepWell' && atFloor && !plain;
    const boardTop = maxHeight(rows);
    const tall = stackIsTall(boardTop, limit);
    // Near the top of the field a move can lose the game: there the search is wider (RECOVER_SEARCH's nearTop); so it
    // is for every recover move of a timed game.
    const { nearTop } = settings;
    const search = recoversWide(nearTop, isTimed(rules.ruleSet), boardTop, this.rules.visibleHeight)
      ? nearTop
      : settings.search;
    const ctx: RecoverContext = {
      width: this.width,
      height,
      visibleHeight: this.rules.visibleHeight,
      // Tall boards forget the well: the plain full-board terms fill it and clear rows. (Keeping it while burning
      // raised the Tetris rate but lost games: bench/notes/results.md.)
      wellColumn: keepWell || !(plain || tall) ? this.recoverWell(rows, sides) : -1,
      // Near the field's top a piece may cover the well: its cover is a row or two to clear, where BCTS counts each
      // cell under it as a hole and builds on the stack instead until it tops out in an I drought.
      coverWell:
        !plain && !keepWell && tall && coversWell(boardTop, limit, this.rules.visibleHeight)
          ? this.recoverWell(rows, sides)
          : -1,
      maxFloor: this.maxFloor,
      weights: plain
        ? this.recoverWeights.usual
        : keepWell
          ? this.recoverWeights.blind
          : atFloor
            ? this.recoverWeights.floor
            : droughtReach
              ? this.recoverWeights.blind
              : this.recoverWeights.usual,
      depth: settings.recoverDepth,
      beam: search.beam,
      holdAllowed: this.rules.hold,
      rules,
      chance:
        search.chance > 0
          ? { lines: search.chance, pieces: chancesBeyondSight(queue, lookahead, next), moveOnly }
          : undefined,
    };
    return { ctx, state: { rows, current, queue: queue.slice(0, lookahead), hold, canHold } };
  }

  /** The well sides and stack limits by level under a timed rule set (timedPlay), made once per level. */
  private readonly levelPlay = new Map<number, LevelPlay>();

  private playAt(rules: GameRuleFacts): LevelPlay {
    const r = rules.ruleSet;
    if (!isTimed(r))
      return {
        sides: wellSides(this.well),
        limits: this.limits,
        droughtReach: null,
        atFloor: false,
        handover: null,
      };
    let play = this.levelPlay.get(r.level);
    if (!play) this.levelPlay.set(r.level, (play = timedPlay(this.limits, rules, this.width, this.well)));
    return play;
  }

  /** The well the recover terms aim for: the one side played, or with both the edge column holding fewer cells. */
  private recoverWell(rows: Uint32Array, sides: readonly ('right' | 'left')[]): number {
    if (sides.length === 1) return sides[0] === 'right' ? this.width - 1 : 0;
    return columnCells(rows, 0) < columnCells(rows, this.width - 1) ? 0 : this.width - 1;
  }

  /** Every reachable placement of this turn valued for a person, nextMove's move first (docs/game.md, "Ranking placements"). */
  rankPlacements(state: GameState, options: { limit?: number } = {}): PlacementRanking {
    const opts = optionsObject('rankPlacements', options, RANK_PLACEMENTS_OPTIONS);
    const limit = opts.limit === undefined ? Infinity : requireInt('limit', opts.limit, 1, 10000);
    const turn = readTurn(state, 'rankPlacements', this.width, this.rules);
    let d = this.decide(turn);
    // nextMove's move first: where play-outs choose the burn or the well, the ranking is that search's (docs/game.md,
    // "Play-outs")
    const weighed = this.playOutChoice(turn);
    if (weighed) {
      const other = this.decide(turn, false, this.settings, weighed);
      if (playsOutBetter(this.player, turn, d.move, other.move, weighed)) d = other;
    }
    return rankDecision(d, this.table?.iterations ?? 0, limit, this.field(), (hold, p, mode, value) =>
      this.describeMove(d.rows, hold, p, mode, value, d.versus),
    );
  }

  private describeMove(
    rows: Uint32Array,
    hold: boolean,
    p: GamePlacement,
    mode: GameMode,
    value: number,
    versus: TurnVersus,
  ): GameMove {
    const { cells } = p;
    const linesCleared = rowsFilled(rows, this.width, cells);
    const perfectClear = linesCleared > 0 && clearsBoard(rows, this.width, cells);
    // A T fills at most three rows, and a mini spin's fourth corner leaves its third row open (docs/rules.md,
    // "Versus"): every placement's lines and spin name a clear kind.
    const clearKind = clearKindOf(linesCleared, p.spin) as ClearKind;
    const table = this.rules.ruleSet.attack;
    return {
      hold,
      piece: p.piece,
      rotation: p.rotation,
      x: p.x,
      y: p.y,
      cells: p.cells,
      inputs: hold ? ['hold', ...(p.inputs as readonly Input[])] : p.inputs,
      linesCleared,
      spin: p.spin,
      clearKind,
      perfectClear,
      attack: table ? lockAttack(ATTACK_TABLES[table], clearKind, perfectClear, versus.combo, versus.backToBack) : 0,
      mode,
      value,
    };
  }
}

/** The next-piece weights of stack mode's search for a well on the right, and mirrored for one on the left (made
 * only when a left well is searched: most games play one side), written into the AI's own arrays. */
class NextWeights {
  readonly right: Int32Array;
  private leftMade = false;

  constructor(
    private readonly next: ArrayLike<number> | undefined,
    right: Int32Array,
    private readonly leftInto: Int32Array,
  ) {
    this.right = fillDistributionWeights(next, right, 0);
  }

  get left(): Int32Array {
    if (!this.leftMade) {
      const next = this.next;
      fillDistributionWeights(next && MIRROR_PIECE.map((m) => next[m]), this.leftInto, 0);
      this.leftMade = true;
    }
    return this.leftInto;
  }
}

/** decide's stacking rules for one turn (TetrisAI.stackPlan). */
interface StackPlan {
  play: LevelPlay;
  /** The board's stack surface seen from each kept well side ([] without stack mode). */
  surfaces: StackSurface[];
  /** The limits this turn stacks by: the Tetris-ready ones or the building ones. */
  stacking: StackingSettings;
  /** Whether stack mode places only clears (a burn). */
  burn: boolean;
}

/**
 * A turn's ways to place a piece: the current piece, and where the turn may hold, the held piece (or the queue's
 * first when the box is empty). Each piece's placements are found when first asked: stack mode mostly only checks
 * its search's move.
 */
function turnOptions(
  turn: Turn,
  width: number,
  rules: GameRuleFacts,
): { options: TurnOption[]; reachRoot: (p: Piece) => readonly GamePlacement[] } {
  const { rows, height, current, queue, hold, canHold } = turn;
  const reaches: PieceReach[] = [];
  const reachOf = (p: Piece) => {
    for (const r of reaches) if (r.piece === p) return r;
    const r = new PieceReach(rows, width, height, p, rules);
    reaches.push(r);
    return r;
  };
  const options: TurnOption[] = [{ hold: false, pieces: [current, ...queue], reach: reachOf(current), boxAfter: hold }];
  if (canHold) {
    if (hold !== null && hold !== current)
      options.push({ hold: true, pieces: [hold, ...queue], reach: reachOf(hold), boxAfter: current });
    else if (hold === null && queue.length > 0)
      options.push({ hold: true, pieces: queue, reach: reachOf(queue[0]), boxAfter: current });
  }
  return { options, reachRoot: (p) => reachOf(p).list };
}

const NO_VERSUS: TurnVersus = Object.freeze({ combo: 0, backToBack: 0, incoming: Object.freeze([]) });

/** What stack mode needs of the rank table: its shape, its iterations and the ranks the search reads. */
export type StackTable = Pick<RankTable, 'width' | 'maxStep' | 'iterations' | 'searchValue' | 'searchScale'>;

/**
 * The table a game plays when none is given (the cached one, from the cache folder in Node and from IndexedDB in a
 * browser, loaded once per process or page and shared by every AI and game without a table). At 20G the stack is ranked by the 20G table: its moves are the ones a piece reaches
 * at 20G (docs/rules.md); else by the article's.
 */
export async function defaultGameTable(
  ruleSet: RuleSet,
  signal: AbortSignal | undefined,
  report?: SetupReport,
  size?: 'small',
): Promise<RankTable> {
  if (!inNode && !indexedDbAvailable()) throw new StackRankError('BAD_ARGUMENT', PASS_A_TABLE_IN_A_BROWSER);
  if (size === 'small' && ruleSet.gravity === '20G')
    throw new StackRankError(
      'BAD_ARGUMENT',
      `table 'small' is not for ${ruleSet.name}: the 20G table needs steps within ±4 (leave table out for it)`,
    );
  const { sharedDefaultTable } = await import('../rank/cache.js');
  return (await sharedDefaultTable(ruleSet.gravity === '20G' ? '20G' : 'drop', signal, report, size)).table;
}

/** A search engine and table facts made on another thread (TetrisAI.create's `attached`). */
export interface AttachedSearch {
  engine: StackingEngine;
  table: StackTable;
}

/** The board width the versus search plays (the guideline's field). */
const VERSUS_WIDTH = 10;

const UNIFORM_CHANCES: readonly number[] = PIECES.map(() => 1 / PIECES.length);

/**
 * Chances of the piece after the pieces the recover search knows (current and `lookahead` queue pieces): the
 * queue's next piece when the caller showed more, else `next` (uniform when not given).
 */
function chancesBeyondSight(queue: readonly Piece[], lookahead: number, next: ArrayLike<number> | undefined) {
  if (queue.length > lookahead) return CERTAIN_PIECE[pieceId(queue[lookahead])];
  return next ?? UNIFORM_CHANCES;
}
