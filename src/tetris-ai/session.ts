/**
 * A game session (docs/game.md, "Sessions"): `ai.newGame()` follows one game turn by turn. It takes the same state as
 * `ai.nextMove` (without `next`), learns each piece as it appears (the current piece and the queue, and how hold
 * moved them) and follows the randomizer's state from them (src/randomizers/infer.ts), so the AI's randomizer-aware
 * search gets the chances of the piece after the queue without the game handing them over.
 *
 * Between two turns one piece was placed: the queue moved up by one, or by two when hold put the current piece into
 * an empty box. A turn that does not follow from the one before (the caller skipped turns, restarted the game, or
 * changed the pieces) makes the session start over as if it joined a game under way (`resyncs` counts those).
 */
import { StackRankError, describe, optionNames, optionsObject } from '../errors.js';
import { PIECE_COUNT, pieceId, type Piece } from '../pieces.js';
import { checkRandomizerName, type RandomizerName } from '../randomizers/index.js';
import { PieceInference, type RandomizerKnowledge, type RandomizerParams } from '../randomizers/infer.js';
import type { GameMove, GameState, MoveOptions, Turn } from './decision.js';

export interface GameSessionOptions {
  /** The game's randomizer: by default the AI's (TetrisAIOptions.randomizer), else 'unknown' (uniform chances). */
  randomizer?: RandomizerName | 'unknown';
  /** decay's denominator (createRandomizer's parameter). */
  denominator?: number;
  /** tgm3's pool quirk (createRandomizer's parameter). */
  poolQuirk?: 0 | 1;
  /** Whether the first turn is the game's first (nothing dealt before its current piece; default true). false: the
   * session joins a game under way. A first turn with a piece in the hold box is always read as one under way. */
  fromStart?: boolean;
}

const SESSION_OPTIONS = optionNames<GameSessionOptions>({
  randomizer: true,
  denominator: true,
  poolQuirk: true,
  fromStart: true,
});

/** A session's state: the game state of `ai.nextMove` without `next` (the session infers it). */
export type SessionState = Omit<GameState, 'next'>;

/** What a session knows (`game.status`). */
export interface SessionStatus {
  /** The randomizer it follows ('unknown': none, uniform chances). */
  randomizer: RandomizerName | 'unknown';
  /** What its chances rest on (src/randomizers/infer.ts): 'exact', 'mixture', 'approximate' or 'uniform'. */
  knowledge: RandomizerKnowledge;
  /** Turns played (nextMove calls). */
  turns: number;
  /** Pieces it has seen dealt, since the game's start or its last resync. */
  pieces: number;
  /** Times a turn did not follow from the one before, so the session started over as if joining a game under way. */
  resyncs: number;
  /** The first turn (0-based) that showed a piece the randomizer could not have dealt (the chances are uniform from
   * it on), or null. */
  contradictedAt: number | null;
  /** The chances of the piece after the last turn's queue that the AI searched with (I O T S Z L J). */
  chances: readonly number[];
}

/** What a session needs of its AI (TetrisAI.newGame gives it): reading a state, and deciding a turn. */
export interface SessionHost {
  readonly randomizer: RandomizerName | undefined;
  readTurn(state: SessionState, caller: string): Turn;
  /** nextMove's options checked: the budget, or undefined. */
  readMoveOptions(options: unknown): number | undefined;
  /** The turn's move; `salt` (the session's turn) seeds a weaker level's choices with the position. */
  play(turn: Turn, budgetMs: number | undefined, salt: number): GameMove | null;
}

export class GameSession {
  readonly randomizer: RandomizerName | 'unknown';
  private readonly params: RandomizerParams;
  private inference: PieceInference;
  /** The pieces dealt and not yet placed that the session knows, in deal order (the current piece first). */
  private known: Piece[] = [];
  /** The last turn's hold box and board (to tell a turn asked again from the next one). */
  private lastHold: Piece | null = null;
  private lastRows: Uint32Array | null = null;
  private turns = 0;
  private resyncs = 0;
  private contradictedTurn: number | null = null;
  private readonly chances = new Float64Array(PIECE_COUNT).fill(1 / PIECE_COUNT);
  private readonly fromStart: boolean;

  /** @internal Made by TetrisAI.newGame. */
  constructor(
    private readonly host: SessionHost,
    options: GameSessionOptions = {},
  ) {
    const opts = optionsObject('newGame', options, SESSION_OPTIONS);
    const name = opts.randomizer ?? host.randomizer ?? 'unknown';
    if (name !== 'unknown') checkRandomizerName(name, ['unknown']);
    if (opts.fromStart !== undefined && typeof opts.fromStart !== 'boolean')
      throw new StackRankError('BAD_ARGUMENT', `fromStart must be true or false; got ${describe(opts.fromStart)}`);
    this.randomizer = name;
    this.params = {};
    if (opts.denominator !== undefined) this.params.denominator = opts.denominator;
    if (opts.poolQuirk !== undefined) this.params.poolQuirk = opts.poolQuirk;
    if (name === 'unknown' && Object.keys(this.params).length > 0)
      throw new StackRankError('BAD_ARGUMENT', 'denominator and poolQuirk need a randomizer');
    this.fromStart = opts.fromStart ?? true;
    // Checks the parameters as createRandomizer does (a denominator for tgm1 is refused there).
    this.inference = PieceInference.start(name, this.params, this.fromStart);
  }

  /** The move for this turn of the game (TetrisAI.nextMove's), the randomizer's chances inferred from the game. */
  nextMove(state: SessionState, options?: MoveOptions): GameMove | null {
    const budgetMs = this.host.readMoveOptions(options);
    // The state is read once, through readTurn's copy: its `next` is refused there, not read before.
    const turn = this.host.readTurn(state, 'game.nextMove');
    if (turn.next !== undefined)
      throw new StackRankError(
        'BAD_ARGUMENT',
        "a session infers the next piece's chances from the game: give next to ai.nextMove, not to a session",
      );
    this.follow(turn);
    const move = this.host.play({ ...turn, next: this.chances }, budgetMs, this.turns);
    this.turns++;
    return move;
  }

  get status(): SessionStatus {
    return {
      randomizer: this.randomizer,
      knowledge: this.inference.knowledge,
      turns: this.turns,
      pieces: this.inference.pieces,
      resyncs: this.resyncs,
      contradictedAt: this.contradictedTurn,
      chances: Array.from(this.chances),
    };
  }

  /** Learns the pieces this turn shows and sets the chances of the piece after its queue. */
  private follow(turn: Turn): void {
    const stream = [turn.current, ...turn.queue];
    if (this.turns === 0) {
      // A piece in the hold box was dealt before the current one, at a point the session cannot know.
      if (this.fromStart && turn.hold !== null)
        this.inference = PieceInference.start(this.randomizer, this.params, false);
      this.learn(stream);
    } else {
      const used = this.piecesUsed(turn, stream);
      if (used === null) {
        this.resyncs++;
        this.known = [];
        // After a contradiction the randomizer is not this game's: the chances stay uniform.
        if (this.contradictedTurn === null) this.inference = PieceInference.start(this.randomizer, this.params, false);
        this.learn(stream);
      } else {
        this.known = this.known.slice(used);
        this.learn(stream.slice(this.known.length));
      }
    }
    this.lastHold = turn.hold;
    this.lastRows = turn.rows.slice();
    // The piece after the shown queue: known when an earlier turn showed more, else the inferred chances.
    if (this.known.length > stream.length) {
      this.chances.fill(0);
      this.chances[pieceId(this.known[stream.length])] = 1;
    } else this.inference.chances(this.chances);
  }

  /** Observes newly dealt pieces, in order. */
  private learn(pieces: readonly Piece[]): void {
    for (const p of pieces) {
      this.known.push(p);
      if (!this.inference.observe(pieceId(p)) && this.contradictedTurn === null) this.contradictedTurn = this.turns;
    }
  }

  /**
   * How many known pieces the previous turn used up, if this turn follows from it: 1 (the current piece placed, or
   * put into hold while the held piece was placed), 2 (the current piece put into an empty hold box and the first of
   * the queue placed), 0 (the same turn asked again: the same board, hold and pieces); null if it does not follow.
   */
  private piecesUsed(turn: Turn, stream: readonly Piece[]): number | null {
    const prev = this.known;
    const agrees = (used: number) => {
      for (let i = 0; i + used < prev.length && i < stream.length; i++) if (prev[i + used] !== stream[i]) return false;
      return true;
    };
    if (turn.hold === this.lastHold && this.lastRows !== null && sameRows(turn.rows, this.lastRows) && agrees(0))
      return 0;
    let used: number | null = null;
    if (turn.hold === this.lastHold) used = 1;
    else if (turn.hold === prev[0]) used = this.lastHold === null ? 2 : 1;
    return used !== null && used <= prev.length && agrees(used) ? used : null;
  }
}

function sameRows(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
