/**
 * TetrisAI: the move for any position of a real game (docs/game.md). Two modes with clean hand-offs:
 * `stack` plays the rank table's perfect stack while the board is a clean stack with the well open (src/game/stack.ts);
 * `recover` plays a full-board search aimed back at a clean stack otherwise, or when the stack has no move
 * (src/game/recover.ts). It answers null only when no piece the turn allows has any reachable placement.
 *
 *   const ai = await TetrisAI.create({ rules: 'guideline', lookahead: 2 });
 *   const move = ai.nextMove({ board, current: 'T', queue: 'SZOIL', hold: null, canHold: true });
 */
import {
  StackRankError,
  checkSignal,
  describe,
  firstUnknownKey,
  optionNames,
  optionsObject,
  refuseUnknownOptions,
  requireInt,
  untilAborted,
} from '../errors.js';
import { MIRROR_PIECE, PIECES, pieceId, toPieceId, type Piece, type PieceId } from '../pieces.js';
import { inNode } from '../node-builtins.js';
import { isRandomizerName, RANDOMIZER_NAMES, type RandomizerName } from '../randomizers/index.js';
import { PASS_A_TABLE_IN_A_BROWSER, type RankTable } from '../rank/table.js';
import type { RuleSet } from '../rules/rule-sets.js';
import { checkDistribution } from '../stacking/ai.js';
import {
  StackingEngine,
  fillDistributionWeights,
  type NextPieceValues,
  type UnknownPieces,
} from '../stacking/engine.js';
import { WEIGHT_WORDS_EXPECT } from '../stacking/layout.js';
import { MAX_LOOKAHEAD } from '../stacking/input.js';
import { DEFAULT_RULES, TETRIS_ROWS, type StackingRules } from '../stacking/rules.js';
import type { Cell, GamePlacement, Input, RuleSetName } from '../rules/types.js';
import { PLAIN_BCTS_WEIGHTS, RECOVER_WEIGHTS, type RecoverWeights, withRecoverWeights } from './evaluate.js';
import { columnCells } from './grid.js';
import { normalizeBoard, type BoardInput } from './board-input.js';
import { recoverMove, type RecoverContext, type RecoverState } from './recover.js';
import { PieceReach, defaultGameRandomizer, ruleFacts, type GameRuleFacts } from './rules-adapter.js';
import { rankDecision, type PlacementRanking } from './rank-placements.js';
import {
  isTetrisReady,
  stackMove,
  stackSurfaces,
  type StackChoice,
  type StackContext,
  type TurnOption,
} from './stack.js';

export type WellSide = 'right' | 'left' | 'auto';
export type GameMode = 'stack' | 'recover';
/** Which modes play: both (the AI), or one alone (the benchmark baselines, docs/game.md). */
export const GAME_POLICIES = ['both', 'stackOnly', 'fullBoardOnly'] as const;
export type GamePolicy = (typeof GAME_POLICIES)[number];

const ABORTED_SETUP = "the AI's setup was aborted";

/** The constructor's first argument from TetrisAI.create; a caller's `new TetrisAI(...)` is refused. */
const INTERNAL: unique symbol = Symbol('TetrisAI');

export interface TetrisAIOptions {
  /** Rule-set preset (docs/rules.md): 'classic', 'nes', 'guideline' (default), 'tgm', 'tgm20g'. */
  rules?: RuleSetName;
  /** Queue pieces the search uses after the current one (0..6, default 1); fewer when the queue is shorter. */
  lookahead?: number;
  /** The randomizer the game draws from: stack mode then averages over the unknown piece after the queue
   * (expectimax; nextMove's `next` gives its chances, default uniform). About 700 MB more memory (Node). */
  randomizer?: RandomizerName;
  /** Which side the well is on; 'auto' plays whichever side is open (both: the better). Default: by rule set
   * (DEFAULT_WELL; docs/game.md, "Options"). */
  well?: WellSide;
  /** A rank table whose width is the board width − 1; default (Node) the cached 9-column table (10-wide boards). */
  table?: RankTable;
  /** Recover search: pieces searched (default min(lookahead + 1, 2)), lines kept per level (default 4 under nes,
   * tgm and tgm20g, else 12), lines the chance ply values over the next piece (0: none; default 12 under classic, 3
   * under nes, tgm and tgm20g, 0 under guideline), and weights of the
   * evaluator's terms by name in place of the defaults (RECOVER_WEIGHTS; PLAIN_BCTS_WEIGHTS under 'fullBoardOnly';
   * docs/game.md, "Recover mode"). */
  recover?: { depth?: number; beam?: number; chance?: number; weights?: Partial<RecoverWeights> };
  /** The randomizer's preview table (loadOrBuildCachedPreviewTable, docs/api.md) to score the randomizer-aware
   * search's leaves instead of the rank table's best rank per piece; needs `randomizer`. */
  previewTable?: NextPieceValues;
  /** For benchmarks: 'stackOnly' answers null where the stack has no move; 'fullBoardOnly' always plays the
   * full-board search with the plain BCTS weights. Default 'both'. */
  policy?: GamePolicy;
  /** Rows stack mode keeps free under the top of the 20-row field, MIN_STACK_ROOM..MAX_STACK_ROOM: fewer make more
   * Tetrises and more top-outs. Default by rule set and randomizer (defaultStackRoom; docs/game.md, "Options"). */
  stackRoom?: number;
  /** Cancels the setup (loading or building the cached table, laying out the search's tables: about a second the
   * first time in a process): create then rejects with ABORTED. */
  signal?: AbortSignal;
}

export interface GameState {
  board: BoardInput;
  /** A piece letter, or its id 0..6 (I O T S Z L J), as for queue and hold. */
  current: Piece | string | PieceId;
  /** The known pieces after the current one (a string like "SZO" or an array of letters or ids). */
  queue?: string | readonly (string | PieceId)[];
  /** The piece in the hold box, or null. */
  hold?: Piece | string | PieceId | null;
  /** Whether hold may be pressed this turn (default: whenever the rule set has hold). */
  canHold?: boolean;
  /** Chances of the first piece after the queue (I O T S Z L J), for an AI created with a randomizer. */
  next?: ArrayLike<number>;
}

const TETRIS_AI_OPTIONS = optionNames<TetrisAIOptions>({
  rules: true,
  lookahead: true,
  randomizer: true,
  well: true,
  table: true,
  recover: true,
  policy: true,
  previewTable: true,
  stackRoom: true,
  signal: true,
});
const GAME_STATE_KEYS = optionNames<GameState>({
  board: true,
  current: true,
  queue: true,
  hold: true,
  canHold: true,
  next: true,
});
/** TetrisAI.rankPlacements' options. */
const RANK_PLACEMENTS_OPTIONS = optionNames<{ limit?: number }>({ limit: true });

export interface GameMove {
  /** Press hold first, then place `piece` (the held piece, or the first of the queue when the box was empty). */
  hold: boolean;
  piece: Piece;
  rotation: string;
  x: number;
  y: number;
  cells: readonly Cell[];
  /** Keys from spawn, 'hold' first when `hold`, 'hardDrop' last. */
  inputs: readonly Input[];
  linesCleared: number;
  mode: GameMode;
  /** stack: the rank (expected rank under expectimax) of the search's best final surface, 0..1; recover: the
   * evaluator's value of the best line (higher is better). Not comparable between modes. */
  value: number;
}

export class TetrisAI {
  private constructor(
    token: typeof INTERNAL,
    readonly rules: GameRuleFacts,
    readonly lookahead: number,
    readonly well: WellSide,
    readonly width: number,
    readonly policy: GamePolicy,
    readonly randomizer: RandomizerName | undefined,
    private readonly engine: StackingEngine,
    private readonly table: StackTable,
    private readonly limits: StackLimits,
    private readonly recoverDepth: number,
    /** The recover search's beam and chance-ply lines, and the wider one near the top of the field (or null). */
    private readonly search: { beam: number; chance: number },
    private readonly nearTop: NearTopSearch | null,
    private readonly recoverWeights: RecoverWeights,
    /** The highest floor this rule set's stack stands on (MAX_FLOOR). */
    private readonly maxFloor: number,
  ) {
    if (token !== INTERNAL)
      throw new StackRankError(
        'BAD_ARGUMENT',
        'TetrisAI has no public constructor: use await TetrisAI.create(options)',
      );
  }

  /** The next-piece weights of stack mode's search (a well on the right; mirrored), filled again every turn. */
  private readonly weightsRight = new Int32Array(WEIGHT_WORDS_EXPECT);
  private readonly weightsLeft = new Int32Array(WEIGHT_WORDS_EXPECT);

  /**
   * `attached` (internal: playGame's worker threads) gives the search engine and the table's facts made on the
   * thread that owns the table, instead of loading the table and making an engine here.
   */
  static async create(options: TetrisAIOptions = {}, attached?: AttachedSearch): Promise<TetrisAI> {
    const opts = optionsObject('TetrisAI.create', options);
    if ('leafRows' in opts)
      throw new StackRankError('BAD_ARGUMENT', 'the leafRows option is now previewTable (a preview table)');
    refuseUnknownOptions('TetrisAI.create', opts, TETRIS_AI_OPTIONS);
    const rules = ruleFacts(opts.rules ?? 'guideline');
    const signal = checkSignal(opts.signal);
    const lookahead = requireInt('lookahead', opts.lookahead ?? 1, 0, MAX_LOOKAHEAD);
    const well = opts.well ?? defaultWell(rules.ruleSet);
    if (well !== 'right' && well !== 'left' && well !== 'auto')
      throw new StackRankError('BAD_ARGUMENT', `well must be "right", "left" or "auto"; got ${describe(well)}`);
    const policy = opts.policy ?? 'both';
    if (!GAME_POLICIES.includes(policy)) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `policy must be one of ${GAME_POLICIES.join(', ')}; got ${describe(policy)}`,
      );
    }
    if (opts.randomizer !== undefined && !isRandomizerName(opts.randomizer)) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `unknown randomizer ${describe(opts.randomizer)}; randomizers are ${RANDOMIZER_NAMES.join(', ')}`,
      );
    }
    const stackRoom = checkStackRoom(opts.stackRoom);
    const recover = optionsObject('recover', opts.recover);
    const unknownRecover = firstUnknownKey(recover, RECOVER_OPTIONS);
    if (unknownRecover !== undefined)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `unknown recover option ${describe(unknownRecover)}; recover options are ${RECOVER_OPTIONS.join(', ')}`,
      );
    const recoverDepth = requireInt('recover.depth', recover.depth ?? Math.min(lookahead + 1, 2), 1, 4);
    // The full-board baseline is the plain BCTS player: beam 12, no chance ply, whatever the rule set.
    const search = policy === 'fullBoardOnly' ? PLAIN_RECOVER_SEARCH : RECOVER_SEARCH[ruleSetKind(rules.ruleSet)];
    const beam = requireInt('recover.beam', recover.beam ?? search.beam, 1, 1000);
    const chanceLines = requireInt('recover.chance', recover.chance ?? search.chance, 0, 1000);
    // A beam or chance ply the caller gives is the search of every recover move.
    const nearTop = recover.beam === undefined && recover.chance === undefined ? (search.nearTop ?? null) : null;
    const recoverWeights = withRecoverWeights(
      policy === 'fullBoardOnly' ? PLAIN_BCTS_WEIGHTS : RECOVER_WEIGHTS,
      recover.weights,
      'recover.weights',
    );
    const table: StackTable = attached?.table ?? opts.table ?? (await defaultGameTable(rules.ruleSet, signal));
    const { stackRules, limits, unknownPieces } = stackSearchSetup(rules, opts.randomizer, policy, stackRoom);
    if (opts.previewTable && unknownPieces === 0)
      throw new StackRankError(
        'BAD_ARGUMENT',
        'previewTable needs a randomizer (it scores the randomizer-aware search)',
      );
    if (signal?.aborted) throw new StackRankError('ABORTED', ABORTED_SETUP);
    const engine =
      attached?.engine ??
      (await untilAborted(
        StackingEngine.create(table as RankTable, stackRules, {
          unknownPieces,
          leafValues: opts.previewTable,
          signal,
        }),
        signal,
        ABORTED_SETUP,
      ));
    return new TetrisAI(
      INTERNAL,
      rules,
      lookahead,
      well,
      table.width + 1,
      policy,
      opts.randomizer,
      engine,
      table,
      limits,
      recoverDepth,
      { beam, chance: chanceLines },
      nearTop,
      recoverWeights,
      maxFloorFor(rules.ruleSet),
    );
  }

  /** The move for this position, or null when nothing can be placed at all (the game is lost). */
  nextMove(state: GameState): GameMove | null {
    return this.decide(this.readTurn(state, 'nextMove')).move;
  }

  /**
   * nextMove for a turn the caller made itself and vouches for (internal: playGame's simulator, whose board and
   * pieces are its own): the same move, without checking and copying the input every piece.
   */
  playTurn(turn: Turn): GameMove | null {
    return this.decide(turn).move;
  }

  /** A game state checked and turned into the turn the search plays (nextMove's and rankPlacements's input). */
  private readTurn(state: GameState, caller: string): Turn {
    if (state === null || typeof state !== 'object')
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${caller} takes { ${GAME_STATE_KEYS.join(', ')} }; got ${describe(state)}`,
      );
    // An empty hold box is null; a queue of null is no queue, as nextMove has always read it.
    refuseUnknownOptions(caller, state, GAME_STATE_KEYS, ['hold', 'queue']);
    const board = normalizeBoard(state.board, this.width);
    const current = toPiece(state.current, 'current');
    const queue = toQueueLetters(state.queue);
    const hold = state.hold === undefined || state.hold === null ? null : toPiece(state.hold, 'hold');
    if (hold !== null && !this.rules.hold)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `the ${this.rules.name} rule set has no hold, so the hold box must be empty; got ${describe(state.hold)}`,
      );
    if (state.canHold !== undefined && typeof state.canHold !== 'boolean')
      throw new StackRankError('BAD_ARGUMENT', `canHold must be true or false; got ${describe(state.canHold)}`);
    if (state.canHold === true && !this.rules.hold)
      throw new StackRankError('BAD_ARGUMENT', `canHold is true but the ${this.rules.name} rule set has no hold`);
    const canHold = state.canHold ?? this.rules.hold;
    const next = state.next === undefined ? undefined : checkDistribution(state.next);
    return { rows: board.rows, height: board.height, current, queue, hold, canHold, next };
  }

  /** nextMove's search, with what rankPlacements needs to value every other move the same way. */
  private decide(turn: Turn): Decision {
    const { rows, height, current, queue, hold, canHold, next } = turn;
    // Each piece's placements are found when first asked: stack mode mostly only checks its search's move.
    const reaches: PieceReach[] = [];
    const reachOf = (p: Piece) => {
      for (const r of reaches) if (r.piece === p) return r;
      const r = new PieceReach(rows, this.width, height, p, this.rules);
      reaches.push(r);
      return r;
    };
    const reachRoot = (p: Piece) => reachOf(p).list;
    const options: TurnOption[] = [{ hold: false, pieces: [current, ...queue], reach: reachOf(current) }];
    if (canHold) {
      if (hold !== null && hold !== current)
        options.push({ hold: true, pieces: [hold, ...queue], reach: reachOf(hold) });
      else if (hold === null && queue.length > 0) options.push({ hold: true, pieces: queue, reach: reachOf(queue[0]) });
    }
    const decided = (move: GameMove | null, stack: Decision['stack'], recover: Decision['recover']): Decision => ({
      rows,
      height,
      current,
      queue,
      hold,
      canHold,
      options,
      reachRoot,
      move,
      stack,
      recover,
    });
    // No piece the turn allows can be placed: the game is lost. (Asked after stack mode, whose search finds every
    // option's placements itself, so the kernel lists each piece's placements once.)
    const lost = () => options.every((o) => o.reach.count === 0);

    // A tall stack with no I in sight burns rows instead of growing (the article's smaller clears where they save
    // the game): a clear that leaves the stack clean if there is one (stack mode, clearsOnly), else recover mode.
    // The stack-only baseline never burns.
    const known = [current, ...queue.slice(0, this.lookahead), hold];
    // This turn's stacking rules: a Tetris-ready stack only waits for its I and may stand higher (STACK_ROOM).
    // (The full-board baseline keeps no stack: it needs neither.)
    const surfaces = this.policy === 'fullBoardOnly' ? [] : stackSurfaces(rows, this.width, wellSides(this.well));
    const stackRules = surfaces.some(isTetrisReady) ? this.limits.tetrisReady : this.limits.building;
    const limit = stackRules.boardHeight;
    const burn = this.policy === 'both' && burnsRows(rows, limit, known);
    if (this.policy !== 'fullBoardOnly') {
      const ctx: StackContext = {
        engine: this.engine,
        table: this.table,
        rules: stackRules,
        width: this.width,
        lookahead: this.lookahead,
        weights: new NextWeights(next, this.weightsRight, this.weightsLeft),
        dangerMargin: 4,
        maxFloor: this.maxFloor,
        clearsOnly: burn,
      };
      const choice = stackMove(ctx, rows, options, surfaces);
      if (choice)
        return decided(
          this.describeMove(rows, choice.option.hold, choice.placement, 'stack', choice.value),
          { ctx, choice },
          null,
        );
      if (this.policy === 'stackOnly') return decided(null, null, null);
    }
    if (lost()) return decided(null, null, null);

    const plain = this.policy === 'fullBoardOnly';
    const boardTop = maxHeight(rows);
    const tall = stackIsTall(boardTop, limit);
    // Near the top of the field a move can lose the game: there the search is wider (RECOVER_SEARCH's nearTop).
    const search =
      this.nearTop !== null && boardTop > this.rules.visibleHeight - this.nearTop.rows ? this.nearTop : this.search;
    const ctx: RecoverContext = {
      width: this.width,
      height,
      visibleHeight: this.rules.visibleHeight,
      // Tall boards forget the well: the plain full-board terms fill it and clear rows. (Keeping it while burning
      // raised the Tetris rate but lost games: docs/results.md.)
      wellColumn: plain || tall ? -1 : this.recoverWell(rows),
      // Near the field's top a piece may cover the well: its cover is a row or two to clear, where BCTS counts each
      // cell under it as a hole and builds on the stack instead until it tops out in an I drought.
      coverWell: !plain && tall && coversWell(boardTop, limit, this.rules.visibleHeight) ? this.recoverWell(rows) : -1,
      maxFloor: this.maxFloor,
      weights: this.recoverWeights,
      depth: this.recoverDepth,
      beam: search.beam,
      holdAllowed: this.rules.hold,
      rules: this.rules,
      chance:
        search.chance > 0 ? { lines: search.chance, pieces: chancesAfter(queue, this.lookahead, next) } : undefined,
    };
    const recoverState: RecoverState = { rows, current, queue: queue.slice(0, this.lookahead), hold, canHold };
    const choice = recoverMove(ctx, recoverState, reachRoot);
    if (!choice) return decided(null, null, null);
    return decided(this.describeMove(rows, choice.hold, choice.placement, 'recover', choice.value), null, {
      ctx,
      state: recoverState,
    });
  }

  /** The well the recover terms aim for: the chosen side, or under 'auto' the edge column holding fewer cells. */
  private recoverWell(rows: Uint32Array): number {
    if (this.well === 'right') return this.width - 1;
    if (this.well === 'left') return 0;
    return columnCells(rows, 0) < columnCells(rows, this.width - 1) ? 0 : this.width - 1;
  }

  /** Every reachable placement of this turn valued for a person, nextMove's move first (docs/game.md, "Ranking placements"). */
  rankPlacements(state: GameState, options: { limit?: number } = {}): PlacementRanking {
    const opts = optionsObject('rankPlacements', options, RANK_PLACEMENTS_OPTIONS);
    const limit = opts.limit === undefined ? Infinity : requireInt('limit', opts.limit, 1, 10000);
    const d = this.decide(this.readTurn(state, 'rankPlacements'));
    return rankDecision(d, this.table.iterations, limit, (hold, p, mode, value) =>
      this.describeMove(d.rows, hold, p, mode, value),
    );
  }

  private describeMove(rows: Uint32Array, hold: boolean, p: GamePlacement, mode: GameMode, value: number): GameMove {
    const full = (1 << this.width) - 1;
    const { cells } = p;
    let linesCleared = 0;
    for (let i = 0; i < cells.length; i++) {
      const y = cells[i][1];
      let counted = false;
      for (let j = 0; j < i; j++) counted ||= cells[j][1] === y;
      if (counted) continue; // each row once
      let m = rows[y];
      for (let j = i; j < cells.length; j++) if (cells[j][1] === y) m |= 1 << cells[j][0];
      if (m === full) linesCleared++;
    }
    return {
      hold,
      piece: p.piece,
      rotation: p.rotation,
      x: p.x,
      y: p.y,
      cells: p.cells,
      inputs: hold ? ['hold', ...p.inputs] : p.inputs,
      linesCleared,
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

/** One turn as the search reads it: checked bit rows and pieces (readTurn, or playGame's own). */
export interface Turn {
  /** Bit rows, bottom first, WORK_ROWS of them, none full, empty from `height` up; not changed during the call. */
  rows: Uint32Array;
  /** The board's height (at least MIN_FIELD_HEIGHT). */
  height: number;
  current: Piece;
  queue: readonly Piece[];
  hold: Piece | null;
  canHold: boolean;
  /** Chances of the first piece after the queue (7 non-negative numbers summing to 1), or undefined. */
  next: ArrayLike<number> | undefined;
}

/** What nextMove decided, and the search contexts it decided with (rankPlacements values every move with them). */
export interface Decision extends Omit<Turn, 'next'> {
  options: TurnOption[];
  reachRoot: (p: Piece) => readonly GamePlacement[];
  move: GameMove | null;
  stack: { ctx: StackContext; choice: StackChoice } | null;
  recover: { ctx: RecoverContext; state: RecoverState } | null;
}

/** What stack mode needs of the rank table: its shape, its iterations and the ranks the search reads. */
export type StackTable = Pick<RankTable, 'width' | 'maxStep' | 'iterations' | 'searchValue' | 'searchScale'>;

/**
 * The table a game plays when none is given (Node: the cached one). At 20G the stack is ranked by the 20G table: its
 * moves are the ones a piece reaches at 20G (docs/rules.md); else by the article's.
 */
export async function defaultGameTable(ruleSet: RuleSet, signal: AbortSignal | undefined): Promise<RankTable> {
  if (!inNode) throw new StackRankError('BAD_ARGUMENT', PASS_A_TABLE_IN_A_BROWSER);
  const { loadOrBuildCachedTable } = await import('../rank/cache.js');
  return (await loadOrBuildCachedTable({ gravity: ruleSet.gravity === '20G' ? '20G' : 'drop', signal })).table;
}

/** A search engine and table facts made on another thread (TetrisAI.create's `attached`). */
export interface AttachedSearch {
  engine: StackingEngine;
  table: StackTable;
}

/**
 * The stacking rules of a turn, by whether the stack is Tetris-ready: they differ only in `boardHeight`, the highest
 * row the stack may fill (its limit; docs/game.md, "The policy").
 */
export interface StackLimits {
  tetrisReady: StackingRules;
  building: StackingRules;
}

/**
 * The stacking rules and search strategy stack mode plays with, for a rule set, randomizer and policy. The stack
 * stays defaultStackRoom's rows under the top of the field (rule sets that spawn in the top rows need that room to
 * turn the I upright over the stack; a Tetris-ready stack may have less; long I droughts need more), and the I goes
 * down the well as soon as the stack is Tetris-ready (lowest column at least TETRIS_ROWS): a real game keeps its
 * stack low (docs/game.md). `stackRules` (the search engine's) has the higher of the two limits; each turn searches
 * under its own. A `stackRoom` given (checked: checkStackRoom) is both limits' room.
 */
export function stackSearchSetup(
  rules: GameRuleFacts,
  randomizer: RandomizerName | undefined,
  policy: GamePolicy,
  stackRoom?: number,
): { stackRules: StackingRules; limits: StackLimits; unknownPieces: UnknownPieces } {
  const room =
    stackRoom === undefined
      ? defaultStackRoom(ruleSetKind(rules.ruleSet), randomizer ?? defaultGameRandomizer(rules.name))
      : { building: stackRoom, tetrisReady: stackRoom };
  const withLimit = (free: number): StackingRules => ({
    ...DEFAULT_RULES,
    boardHeight: rules.visibleHeight - free,
    tetrisThreshold: TETRIS_ROWS,
  });
  const limits: StackLimits = { tetrisReady: withLimit(room.tetrisReady), building: withLimit(room.building) };
  const stackRules = room.tetrisReady <= room.building ? limits.tetrisReady : limits.building;
  // With a randomizer, stack mode averages over the one unknown piece after the queue (expectimax).
  return { stackRules, limits, unknownPieces: randomizer && policy !== 'fullBoardOnly' ? 1 : 0 };
}

/**
 * The kinds of rule set the policy plays differently (docs/game.md, "The policy"): at 20G; pieces appearing in the
 * field's top rows (nes, tgm); hold or more than one preview (guideline); one piece shown and no hold (classic).
 */
type RuleSetKind = '20G' | 'topSpawn' | 'previews' | 'onePiece';

function ruleSetKind(ruleSet: GameRuleFacts['ruleSet']): RuleSetKind {
  if (ruleSet.gravity === '20G') return '20G';
  if (ruleSet.spawn === 'topRow') return 'topSpawn';
  if (ruleSet.hold || ruleSet.previews > 1) return 'previews';
  return 'onePiece';
}

/** Rows stack mode keeps free above the stack: while it is still building, and once it is Tetris-ready. */
interface StackRoom {
  building: number;
  tetrisReady: number;
}

/**
 * The stack's room under each kind of rule set: while it is still building, and once it is Tetris-ready (an I down
 * the well clears four rows now). A ready stack only waits for its I, which lowers it by four rows, so its room is
 * spent only on a drought and every row of it is a burn put off. `longDroughts`, where given, is the room under a
 * randomizer with long I droughts (LONG_I_DROUGHTS).
 */
const STACK_ROOM: Readonly<Record<RuleSetKind, StackRoom & { longDroughts?: StackRoom }>> = {
  /** Guideline (hold and 5 previews): room to stand the I upright over the stack. */
  previews: { building: 4, tetrisReady: 4 },
  /** Classic: an I drought is seen one piece ahead, and the stacks that top out are the ones that grow tall before
   * they are Tetris-ready (an uneven stack, a column far behind), so a stack still building stays 6 rows under the
   * top and a ready one 4: 95.0–95.2 % Tetris rate and one top-out in 60 M pieces, where one limit of 5 rows gave
   * 94.7 % and none (classic/tgm1; docs/results.md, "Classic: two limits"). */
  onePiece: { building: 6, tetrisReady: 4 },
  /** nes, tgm: a deep well beside a tall stack takes only an I, so the stack stays lower (nes/nes over 2 x 3,000
   * pieces: 2 top-outs with 4 rows, none with 6); letting a ready stack stand higher gained Tetrises only with more
   * top-outs (docs/results.md, "Classic: two limits"). Under long droughts the top-outs are ready stacks beside a
   * deep well that wait through a drought until the I can no longer reach the well: under nes/nes, 8 rows top out
   * once per 19.7 M pieces (3 in 59.1 M) at a 71.0–71.2 % Tetris rate, where 6 rows top out once per 829,000 at
   * 75.2–75.3 % and 7 rows once per 3.4 M at 73.5–73.6 % (docs/results.md, "nes: room for the droughts"). */
  topSpawn: { building: 6, tetrisReady: 6, longDroughts: { building: 8, tetrisReady: 8 } },
  /** At 20G the piece slides over the stack from where it appears: a stack this close to the top blocks it. */
  '20G': { building: 8, tetrisReady: 8 },
};

/**
 * Randomizers whose I droughts are long: one gap between I pieces in a thousand is 38–44 pieces long, where under
 * the others (the TGM randomizers, the bags, red/blue) it is at most 24 (docs/results.md, "nes: room for the
 * droughts").
 */
const LONG_I_DROUGHTS: ReadonlySet<RandomizerName> = new Set(['memoryless', 'nes', 'nesSketch', 'decay']);

/** The rows stack mode keeps free under a kind of rule set and the game's randomizer. */
function defaultStackRoom(kind: RuleSetKind, randomizer: RandomizerName): StackRoom {
  const room = STACK_ROOM[kind];
  return (LONG_I_DROUGHTS.has(randomizer) && room.longDroughts) || room;
}

/**
 * The range of TetrisAIOptions.stackRoom: at least the 2 top rows, where nes and tgm pieces appear and turn, and at
 * most 12, which leaves the stack 8 rows: a Tetris-ready stack and a row or two on it.
 */
export const MIN_STACK_ROOM = 2;
export const MAX_STACK_ROOM = 12;

/** TetrisAIOptions.stackRoom checked (undefined: the default room). */
export function checkStackRoom(stackRoom: unknown): number | undefined {
  return stackRoom === undefined ? undefined : requireInt('stackRoom', stackRoom, MIN_STACK_ROOM, MAX_STACK_ROOM);
}

/**
 * Highest floor (rows buried under a clean stack: garbage, covered holes, a filled well; grid.ts stackFloor) the AI
 * stacks over, by kind of rule set: stack mode plays the surface above it with its limit lowered by the floor, and
 * recover mode counts a clean stack over it as clean; a higher floor is dug out. Stacking over floors of up to 4
 * rows raised classic/tgm1's Tetris rate from 92.1 % to 94.2 % (20 games of 5,000 pieces, seed 1). But a floor's rows
 * are room the stack no longer has, and few floors go away by themselves: digging floors of 3 and 4 rows out gains
 * 1.1 points under nes/nes and 3.9 under tgm20g; under classic/tgm1, whose stack has more room than its I droughts
 * need, the rate stays the same, and floors of 4 rows have no top-out in 60 M pieces where 2 rows had one in 59.8 M
 * (docs/results.md, "Floors of at most 2 rows"). Guideline played the same games with either.
 */
const MAX_FLOOR: Readonly<Record<RuleSetKind, number>> = { previews: 2, onePiece: 4, topSpawn: 2, '20G': 2 };

/** The highest floor TetrisAI stacks over under a rule set (MAX_FLOOR). */
export function maxFloorFor(ruleSet: GameRuleFacts['ruleSet']): number {
  return MAX_FLOOR[ruleSetKind(ruleSet)];
}

/**
 * The well side TetrisAI plays when none is given, by kind of rule set. 'auto' (either edge column, whichever is a
 * clean well; both: the better) ends recoveries sooner and gains Tetris rate under classic, nes and tgm; under tgm20g
 * it loses rate and under guideline it changes nothing (the figures: docs/results.md, "The well on either edge under
 * nes and tgm").
 */
const DEFAULT_WELL: Readonly<Record<RuleSetKind, WellSide>> = {
  previews: 'right',
  onePiece: 'auto',
  topSpawn: 'auto',
  '20G': 'right',
};

function defaultWell(ruleSet: GameRuleFacts['ruleSet']): WellSide {
  return DEFAULT_WELL[ruleSetKind(ruleSet)];
}

/** The sides whose edge column stack mode plays as the well: both under 'auto'. */
export function wellSides(well: WellSide): ('right' | 'left')[] {
  return well === 'auto' ? ['right', 'left'] : [well];
}

/** A recover search: its beam width, the lines its chance ply values (0: none), and a wider one near the top. */
interface RecoverSearch {
  beam: number;
  chance: number;
  /**
   * The search of a recover move on a board with a cell in the field's top `rows` rows, where a move can lose the
   * game. Such boards are few, so a wide search there costs little speed: under nes/nes one top-out per 925,000
   * pieces against one per 442,000 at the same Tetris rate (six seeds of 20 games of 500,000 pieces); from the top
   * 5 rows, or with a beam and chance ply of 24, no better; under tgm20g no change (docs/results.md, "A wider
   * search near the top").
   */
  nearTop?: NearTopSearch;
}

interface NearTopSearch {
  rows: number;
  beam: number;
  chance: number;
}

/**
 * Recover mode's beam width and the lines its chance ply values over the next piece, by default (docs/game.md,
 * "Recover mode"), by kind of rule set. Classic: a chance ply of 12 lines over the beam of 12 gains +0.7 to +0.8 point
 * of Tetris rate (classic/tgm1, 20 games of 100,000 pieces, seeds 1–3) at about 40 % of the speed, which stays over
 * the 50 k pieces/s target. nes, tgm and 20G spend far more of their pieces in recover mode, where that took the
 * speed to a third or less; there a beam of 6 played as strong as 12 without a chance ply, and a beam of 4 pays for a
 * chance ply of 3 lines: under nes/nes 74.1 % Tetris rate against 72.4 % and one top-out per 570,000 pieces against
 * one per 167,000 (20 games of 500,000 pieces, seed 1); under tgm20g 45.3 % against 37.3 % (docs/results.md, "A
 * narrow recover beam with a chance ply"). With the wider search near the top and the recover kernel valuing
 * placements by difference, nes plays 60,700–62,500 pieces/s on 2 threads. Guideline hardly ever recovers.
 */
const RECOVER_SEARCH: Readonly<Record<RuleSetKind, RecoverSearch>> = {
  previews: { beam: 12, chance: 0 },
  onePiece: { beam: 12, chance: 12 },
  topSpawn: { beam: 4, chance: 3, nearTop: { rows: 4, beam: 12, chance: 12 } },
  '20G': { beam: 4, chance: 3 },
};

/** The full-board baseline's search (policy 'fullBoardOnly'): the plain BCTS player under every rule set. */
const PLAIN_RECOVER_SEARCH: RecoverSearch = { beam: 12, chance: 0 };

/** The keys of TetrisAIOptions.recover. */
const RECOVER_OPTIONS = ['depth', 'beam', 'chance', 'weights'];

const UNIFORM_CHANCES: readonly number[] = PIECES.map(() => 1 / PIECES.length);
const CERTAIN_PIECE: readonly (readonly number[])[] = PIECES.map((_, i) => PIECES.map((__, j) => (i === j ? 1 : 0)));

/**
 * Chances of the piece after the pieces the recover search knows (current and `lookahead` queue pieces): the
 * queue's next piece when the caller showed more, else `next` (uniform when not given).
 */
function chancesAfter(queue: readonly Piece[], lookahead: number, next: ArrayLike<number> | undefined) {
  if (queue.length > lookahead) return CERTAIN_PIECE[pieceId(queue[lookahead])];
  return next ?? UNIFORM_CHANCES;
}

/**
 * Where a tall board's recover search may cover the well (docs/game.md, "Recover mode"): at least COVER_OVER_LIMIT
 * rows above the stack's limit and at most COVER_UNDER_TOP rows under the field's top, both signs that the stack
 * is in danger. Under nes this cut the top-outs by three quarters at about the same Tetris rate; at 20G, from 2
 * rows over its low limit, it lost rate; under classic, from 4 rows under the top alone, it kept the stack alive at
 * a lower rate (docs/results.md, "Covering the well near the top").
 */
const COVER_OVER_LIMIT = 2;
const COVER_UNDER_TOP = 4;

/** Whether a board whose highest cell is in row `boardTop` - 1 may cover its well. */
function coversWell(boardTop: number, stackLimit: number, visibleHeight: number): boolean {
  return boardTop >= Math.max(stackLimit + COVER_OVER_LIMIT, visibleHeight - COVER_UNDER_TOP);
}

/** Stack height (below the stack's limit) from which rows are burnt while no I is known. */
const BURN_ROOM = 2;

/**
 * Whether a turn burns rows (docs/game.md, "Smaller clears"): the stack is tall and no I is among the known pieces
 * (current, the queue the search sees, hold).
 */
export function burnsRows(rows: Uint32Array, stackLimit: number, known: readonly (Piece | null)[]): boolean {
  return stackIsTall(maxHeight(rows), stackLimit) && !known.includes('I');
}

/**
 * Whether a board whose highest cell is in row `boardTop` - 1 is tall enough to burn rows while no I is known:
 * within BURN_ROOM rows of the stack's limit.
 */
function stackIsTall(boardTop: number, stackLimit: number): boolean {
  return boardTop > stackLimit - BURN_ROOM;
}

function maxHeight(rows: Uint32Array): number {
  for (let r = rows.length - 1; r >= 0; r--) if (rows[r] !== 0) return r + 1;
  return 0;
}

function toPiece(value: unknown, what: string): Piece {
  return PIECES[toPieceId(value, what)];
}

function toQueueLetters(queue: unknown): Piece[] {
  if (queue === undefined || queue === null) return [];
  const letters = typeof queue === 'string' ? [...queue] : Array.isArray(queue) ? queue : null;
  if (!letters)
    throw new StackRankError(
      'BAD_PIECE',
      `queue must be a string like "SZO" or an array of pieces (letters or ids 0..6); got ${describe(queue)}`,
    );
  // An index loop, not map: a sparse array's holes are queue entries too (and bad ones).
  const pieces: Piece[] = [];
  for (let i = 0; i < letters.length; i++) pieces.push(toPiece(letters[i], `queue entry ${i}`));
  return pieces;
}
