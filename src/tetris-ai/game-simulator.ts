/**
 * One game of the real-game simulator (docs/game.md): TetrisAI plays game `game` of a seed against the seeded
 * randomizer, and the simulator keeps its own board (it locks the returned cells, clears rows and checks that every
 * cell was empty and inside the board), its own queue and hold box, the versus counters and garbage, an NES game's
 * level and score, and counts what the benchmark reports. The game ends at a top-out: nextMove answers null
 * (nothing can be placed) or a piece ends with a cell above the visible field. playGame (./play.ts) runs many of
 * them, on this thread or on workers (./game-worker.ts); the diagnostic benches (bench/) play them one at a time
 * with an onTurn hook.
 */
import { StackRankError, sliceClock, yieldToEventLoop } from '../errors.js';
import { PIECE_COUNT, type Piece } from '../pieces.js';
import { createRandomizer, type Randomizer, type RandomizerName } from '../randomizers/index.js';
import { YIELD_EVERY_MS } from '../slices.js';
import { streamSeed } from '../stacking-ai/simulate.js';
import type { GarbageEntry } from '../rules/garbage.js';
import { isTimed } from '../rules/rule-sets.js';
import { NesGame } from '../rules/nes-game.js';
import { countHoles } from '../board-rows.js';
import type { TetrisAI } from './ai.js';
import type { GameMove, Turn } from './decision.js';
import { MIN_FIELD_HEIGHT, WORK_ROWS } from './board-input.js';
import { clearsBoard, emptyFrom, lockInPlace, rowsFilled } from './grid.js';
import { NesGameTally } from './nes-stats.js';
import type { GameSettings, GameTally, GameUnderWay } from './play-types.js';
import { GarbageFeed, VersusCount } from './versus-play.js';

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
 * Plays game `game` of the seed's sequence with this AI: its pieces come from gameRandomizer and nothing else, so
 * any thread playing it plays the same game. `onTurn` (diagnostics) sees every turn; the boards are copied for it
 * only when it is given. The game gives the event loop a turn (and looks at `signal`) whenever `due` says so (a
 * sliceClock of YIELD_EVERY_MS): a caller playing many games passes one clock to all of them, since a game of a few
 * pieces may end before its own clock is due.
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
  const sim = new SimulatedGame(ai, game, settings);
  const { tally } = sim;
  const due = hooks.due ?? sliceClock(YIELD_EVERY_MS);
  while (tally.pieces < settings.maxPieces) {
    // Asked every piece: one move of recover mode's search can take milliseconds.
    if (due()) {
      // Give the event loop a turn, so an abort (Ctrl-C) or a timer can arrive while the games run.
      await yieldToEventLoop();
      hooks.onPieces?.({ pieces: tally.pieces, lines: tally.lines });
    }
    if (hooks.signal?.aborted) throw new StackRankError('ABORTED', 'the games were aborted');
    const turn = sim.nextTurn();
    const move = ai.playTurn(turn);
    const seen = hooks.onTurn && turnSeen(tally.pieces, turn, move);
    if (!move) {
      if (seen) hooks.onTurn?.({ ...seen, after: seen.before, lines: 0 });
      tally.topOut = true;
      break;
    }
    const { lines, buried } = sim.lock(move, turn);
    if (seen) hooks.onTurn?.({ ...seen, after: sim.rows.slice(), lines });
    if (sim.counted(move, lines, buried)) break;
  }
  return sim.finish();
}

/** What onTurn is told of a turn before its move locks. */
function turnSeen(n: number, turn: Turn, move: GameMove | null): Omit<PlayedTurn, 'after' | 'lines'> {
  return {
    n,
    before: turn.rows.slice(),
    current: turn.current,
    queue: turn.queue,
    hold: turn.hold,
    combo: turn.versus!.combo,
    backToBack: turn.versus!.backToBack,
    move,
    ...(turn.level !== undefined && { nes: { level: turn.level, lines: turn.lines! } }),
  };
}

/** One game under way: its board, its pieces dealt and held, its counters, garbage and tally. */
class SimulatedGame {
  readonly tally: GameTally;
  /**
   * The simulator's board, locked into in place. The AI reads it as a board of `height` rows (nextMove's reading of
   * the visible field): the rows above it are empty whenever the AI is asked, since a cell there ends the game.
   */
  readonly rows = new Uint32Array(WORK_ROWS);
  private readonly height: number;
  private readonly width: number;
  private readonly visible: number;
  private readonly lookahead: number;
  private readonly hold: boolean;
  private readonly rng: Randomizer;
  /** The versus counters the AI is told each turn, and the garbage fed to this game. */
  private readonly count: VersusCount;
  private readonly feed: GarbageFeed | null;
  /** The pieces dealt and not yet placed: the current one and the queue, so the randomizer's distribution() is
   * exactly the chance of the piece after the queue. */
  private readonly stream: Piece[] = [];
  private readonly chances: Float64Array | undefined;
  /** The chances of the piece about to join the queue, for the reaction (Turn.revealChances). */
  private readonly revealChances: Float64Array | undefined;
  /** An NES game (a timed rule set): its level, lines and score. */
  private readonly nesTally: NesGameTally | null;
  private holdPiece: Piece | null = null;
  private holes = 0;

  constructor(ai: TetrisAI, game: number, settings: GameSettings) {
    const { lookahead, hold } = settings;
    this.lookahead = lookahead;
    this.hold = hold;
    this.width = ai.width;
    this.visible = ai.rules.visibleHeight;
    this.height = Math.max(this.visible, MIN_FIELD_HEIGHT);
    this.rng = gameRandomizer(settings.randomizer, settings.seed, game);
    this.tally = { game, pieces: 0, lines: 0, clears: [0, 0, 0, 0], topOut: false, stackPieces: 0, holesMade: 0 };
    this.count = new VersusCount(ai.rules.ruleSet);
    this.feed = settings.garbage ? new GarbageFeed(settings.garbage, settings.seed, game, this.width) : null;
    const useNext = ai.randomizer !== undefined;
    const ruleSet = ai.rules.ruleSet;
    this.chances = useNext ? new Float64Array(PIECE_COUNT) : undefined;
    this.revealChances =
      useNext && lookahead > 0 && !hold && isTimed(ruleSet) && ruleSet.reaction > 0
        ? new Float64Array(PIECE_COUNT)
        : undefined;
    this.nesTally =
      settings.maxLevel === undefined
        ? null
        : new NesGameTally(new NesGame({ rules: ruleSet, maxLevel: settings.maxLevel }));
  }

  /** Deals the pieces the turn shows and builds the turn the AI is asked. */
  nextTurn(): Turn {
    const { stream, rng, revealChances, lookahead, feed, count } = this;
    while (stream.length < lookahead + 1) {
      if (revealChances && stream.length === lookahead) rng.distribution(revealChances);
      stream.push(rng.next() as Piece);
    }
    const nes = this.nesTally?.game;
    return {
      rows: this.rows,
      height: this.height,
      current: stream[0],
      queue: stream.slice(1),
      hold: this.hold ? this.holdPiece : null,
      canHold: this.hold,
      next: this.chances && rng.distribution(this.chances),
      level: nes?.level,
      // the game's LINES counter, as a game's own loop gives nextMove's state (GameState.lines)
      lines: nes?.lines,
      revealChances,
      versus: {
        combo: count.combo,
        backToBack: count.backToBack,
        incoming: feed ? feed.before(this.tally.pieces) : NO_GARBAGE,
      },
    };
  }

  /** Checks the AI's move against the turn, takes the piece (through the hold box) and locks it; the attack goes
   * to the garbage feed. `buried`: garbage pushed over the rows the board keeps, which ends the game. */
  lock(move: GameMove, turn: Turn): { lines: number; buried: boolean } {
    const { rows, width } = this;
    const expected = !move.hold ? turn.current : (this.holdPiece ?? turn.queue[0]);
    if (move.piece !== expected || (move.hold && !this.hold)) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `the AI placed ${move.piece}${move.hold ? ' after hold' : ''}; the turn allows ${expected}`,
      );
    }
    if (move.hold) {
      if (this.holdPiece === null) this.stream.shift(); // the box was empty: the first queue piece comes out too
      this.holdPiece = turn.current;
    }
    this.stream.shift();
    const filled = rowsFilled(rows, width, move.cells);
    const perfectClear = filled > 0 && clearsBoard(rows, width, move.cells);
    const lines = placeChecked(rows, width, move.cells);
    const attack = this.count.lock(lines, move.spin, perfectClear);
    const buried = this.feed?.after(attack, lines, rows, width, rows.length) === true;
    return { lines, buried };
  }

  /** Counts a locked move; true when the game ends with it (a top-out, or an NES game at its cap). */
  counted(move: GameMove, lines: number, buried: boolean): boolean {
    const { tally, nesTally } = this;
    tally.pieces++;
    if (move.mode === 'stack') tally.stackPieces++;
    if (lines > 0) {
      tally.lines += lines;
      tally.clears[lines - 1]++;
      nesTally?.countLines(lines);
    }
    const nowHoles = countHoles(this.rows, this.width);
    if (nowHoles > this.holes) tally.holesMade += nowHoles - this.holes;
    this.holes = nowHoles;
    // buried under garbage, or a cell over the field
    if (buried || !emptyFrom(this.rows, this.visible)) {
      tally.topOut = true;
      return true;
    }
    return nesTally?.clear(lines) === true;
  }

  /** The game's tally, with its NES and versus figures. */
  finish(): GameTally {
    const { tally, nesTally, feed } = this;
    if (nesTally) tally.nes = nesTally.finish(tally.topOut);
    tally.versus = this.count.tally;
    if (feed) {
      tally.versus.garbageReceived = feed.received;
      tally.versus.garbageCancelled = feed.cancelled;
      tally.versus.garbageEntered = feed.entered;
    }
    return tally;
  }
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
