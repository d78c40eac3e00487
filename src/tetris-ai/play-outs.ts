/**
 * Play-outs (docs/game.md, "Play-outs"): where a timed NES game's stack is tall at levels 18–38 and the policy
 * stacks on without burning, the move it makes when it burns is weighed against it by playing each on over a few
 * sampled piece sequences with the policy itself; the burn is played where its play-outs score better. The burn
 * rules are thresholds over the whole game; a play-out judges the one position, at the level's speed. From the
 * double killscreen, where every move is recover mode's, recover mode's move keeping the well is weighed the same
 * way, played on by the policy keeping it, and played where it scores PLAY_OUTS.wellMargin points more.
 */
import { countHoles, maxHeight } from '../board-rows.js';
import { describe, StackRankError } from '../errors.js';
import { CERTAIN_PIECE, PIECE_COUNT, PIECES, type Piece } from '../pieces.js';
import type { Rng } from '../random.js';
import { nesChance } from '../randomizers/nes-sketch.js';
import { nesClearPoints, nesLinesToLevelUp } from '../rules/nes-game.js';
import { MAX_LEVEL } from '../rules/timing.js';
import type { RandomizerName } from '../randomizers/index.js';
import type { GameMove, Turn } from './decision.js';
import { cellsKey, emptyFrom, lockInPlace } from './grid.js';
import { turnRandom } from './strength.js';
import { NES_END_VALUES } from './nes-end-values.js';

/**
 * The play-outs' settings: the levels and the lowest board (its highest filled cell's row + 1) where a turn weighs
 * the burn, and how many piece sequences of how many pieces after the move. 8 sequences of 10 pieces from 9 rows,
 * capped at level 29 (1,000 games each, seeds 7–9): +1,884, +9,674 and +9,611 a game (standard errors 4,372, 4,137
 * and 4,538), 85 games lost before 29 against 107 (bench/notes/nes.md, "Play-outs that only add a burn"); at 29–38
 * too, in the competition format (seeds 1 and 8): bench/notes/nes.md, "Play-outs at 29–38". The burn's play-outs
 * stay below the double killscreen, from which every move is recover mode's. More of them (from 8 rows, or 16
 * sequences at 29–38) gained nothing on seed 1 at 1.1–1.45 times the time (bench/notes/nes.md, "More play-outs, on
 * the faster play-outs"). From `wellFromLevel` the move keeping the well is weighed on the same sequences and played
 * where it scores `wellMargin` more: without a margin it lost 3,823–15,472 a game from start 29, with 4 sequences
 * it gained nothing; as here, +4,637 and +1,504 a game in the competition format on seeds 1 and 8 (standard errors
 * 2,026 and 2,007) at 1.5 times the time (bench/notes/nes.md, "The well at 39 in the competition format"). The
 * end value from 39 on is level 38's last. A play-out's recover moves value `recoverChance` lines of their beam over
 * the piece after the next (the turn's own moves: RECOVER_SEARCH's 12): in the competition format +4,536 and
 * +12,500 a game on seeds 1 and 8 (standard errors 10,187 and 9,274) at 0.71 times the CPU time
 * (bench/notes/nes.md, "A narrower chance ply inside the play-outs").
 */
export const PLAY_OUTS = Object.freeze({
  fromLevel: 18,
  toLevel: 38,
  fromHeight: 9,
  samples: 8,
  pieces: 10,
  wellFromLevel: 39,
  wellMargin: 10_000,
  recoverChance: 3,
});

/** TetrisAIOptions.playOuts checked (default true: play-outs on). */
export function checkPlayOuts(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `playOuts must be true or false; got ${describe(value)}`);
  return value;
}

/**
 * The policy's move for one piece of a play-out: `rows` the board (not to be changed), `next` the queue's piece,
 * `nextChances` the chances of the piece after it.
 */
export type PlayOutMove = (
  rows: Uint32Array,
  current: Piece,
  next: Piece,
  level: number,
  lines: number | undefined,
  nextChances: ArrayLike<number>,
) => GameMove | null;

/** Where the play-outs start: the board before the move, the queue's piece, the game's level and lines count. */
export interface PlayOutStart {
  rows: Uint32Array;
  width: number;
  visibleHeight: number;
  next: Piece;
  level: number;
  /** The game's LINES counter (level-ups follow it); undefined: the level stays. */
  lines: number | undefined;
  /** Whether pieces follow the NES generator (one reroll on a repeat), else each is one of 7 alike. */
  nesPieces: boolean;
}

/** The chances of each piece after `previous` (out[p]). */
function chancesAfter(previous: Piece, nesPieces: boolean, out: Float64Array): Float64Array {
  const prev = PIECES.indexOf(previous);
  for (let p = 0; p < PIECE_COUNT; p++) out[p] = nesPieces ? nesChance(prev, p) : 1 / PIECE_COUNT;
  return out;
}

function draw(chances: ArrayLike<number>, rng: Rng): Piece {
  let u = rng.nextFloat();
  for (let p = 0; p < PIECE_COUNT - 1; p++) {
    u -= chances[p];
    if (u < 0) return PIECES[p];
  }
  return PIECES[PIECE_COUNT - 1];
}

/** A level, lines count and lines to the next level-up that follow the NES level-ups. */
class Levels {
  /** Lines to the next level-up; null where the game's lines count is not known (the level stays). */
  toLevelUp: number | null;
  constructor(
    public level: number,
    public lines: number | undefined,
  ) {
    this.toLevelUp = lines === undefined ? null : nesLinesToLevelUp(level, lines);
  }

  /** Counts a clear; returns its points at the level after it. */
  clear(cleared: number): number {
    if (cleared === 0) return 0;
    if (this.lines !== undefined) this.lines += cleared;
    if (this.toLevelUp !== null) {
      this.toLevelUp -= cleared;
      while (this.toLevelUp <= 0) {
        this.level = Math.min(MAX_LEVEL, this.level + 1);
        this.toLevelUp += 10;
      }
    }
    return nesClearPoints(cleared, this.level);
  }
}

/** The lines a competition-format game (start 18: its first level-up at 130 lines) shows at a level with
 * `toLevelUp` lines to the next (null: the level's first). */
function competitionLines(level: number, toLevelUp: number | null): number {
  if (level <= 18) return toLevelUp === null ? 0 : Math.max(0, 130 - toLevelUp);
  return 130 + 10 * (level - 19) + (toLevelUp === null ? 0 : Math.max(0, 10 - toLevelUp));
}

/** The points a competition-format game expects from a board to its end (NES_END_VALUES). */
export function endValue(level: number, toLevelUp: number | null, height: number, holes: number): number {
  const t = NES_END_VALUES;
  const lines = Math.min(t.lines - 1, competitionLines(level, toLevelUp));
  const board = (Math.floor(lines / 10) * t.heights + Math.min(t.heights - 1, height)) * t.holes;
  return t.byLines[lines] + t.byBoard[board + Math.min(t.holes - 1, holes)];
}

/**
 * The piece sequences every alternative is played on (the same for each, so they differ by the move alone): each
 * starts with the queue's piece, `start.next`, or where it is not known yet (the reaction), one drawn from
 * `hidden`, its chances; then PLAY_OUTS.pieces more.
 */
export function playOutSequences(start: PlayOutStart, rng: Rng, hidden?: ArrayLike<number>): Piece[][] {
  const chances = new Float64Array(PIECE_COUNT);
  const out: Piece[][] = [];
  for (let k = 0; k < PLAY_OUTS.samples; k++) {
    let previous = hidden ? draw(hidden, rng) : start.next;
    const pieces: Piece[] = [previous];
    for (let i = 0; i < PLAY_OUTS.pieces; i++) {
      previous = draw(chancesAfter(previous, start.nesPieces, chances), rng);
      pieces.push(previous);
    }
    out.push(pieces);
  }
  return out;
}

/**
 * The average over `sequences` of the turn's move (`first`, given the sequence's queue piece) and then the policy
 * (`move`) for the rest, each piece placed knowing the sequence's next two: its points plus the end value
 * (endValue) of the board it leaves, or its points alone where the game ends on the way.
 */
export function playOutValue(
  start: PlayOutStart,
  sequences: readonly (readonly Piece[])[],
  first: (next: Piece) => GameMove | null,
  move: PlayOutMove,
): number {
  const { width, visibleHeight } = start;
  const nextChances = new Float64Array(PIECE_COUNT);
  let total = 0;
  for (const pieces of sequences) {
    const rows = start.rows.slice();
    const levels = new Levels(start.level, start.lines);
    const m0 = first(pieces[0]);
    let toppedOut = m0 === null;
    let points = 0;
    if (m0) {
      points = levels.clear(lockInPlace(rows, width, m0.cells));
      toppedOut = !emptyFrom(rows, visibleHeight);
    }
    for (let i = 1; i < pieces.length && !toppedOut; i++) {
      // The piece after the next is the sequence's own where it has one, so the policy's chance ply weighs one
      // piece, not seven: no weaker over two seeds, 1.5 times as fast (bench/notes/nes.md, "Play-outs that see
      // two pieces").
      const after =
        i + 1 < pieces.length
          ? CERTAIN_PIECE[PIECES.indexOf(pieces[i + 1])]
          : chancesAfter(pieces[i], start.nesPieces, nextChances);
      const m = move(rows, pieces[i - 1], pieces[i], levels.level, levels.lines, after);
      if (!m) {
        toppedOut = true;
        break;
      }
      points += levels.clear(lockInPlace(rows, width, m.cells));
      toppedOut = !emptyFrom(rows, visibleHeight);
    }
    total += toppedOut
      ? points
      : points + endValue(levels.level, levels.toLevelUp, maxHeight(rows), countHoles(rows, width));
  }
  return total / sequences.length;
}

/** The chances of each piece after `previous` under the play-outs' piece model (the queue piece's, for a turn). */
export function playOutChances(previous: Piece, nesPieces: boolean): Float64Array {
  return chancesAfter(previous, nesPieces, new Float64Array(PIECE_COUNT));
}

/**
 * The move the policy plays in place of its own where play-outs choose it (docs/game.md, "Play-outs"): `burn` its
 * move when it burns (stack mode's clears only, or recover mode), `keepWell` recover mode's move at the floor of the
 * stack limits (the double killscreen) with the well terms on, the well column kept open and never covered.
 */
export type PlayedInstead = 'burn' | 'keepWell';

/** turnRandom's salt for the play-outs' piece sequences (a weaker level's choices use the session's turn). */
const PLAY_OUT_SALT = 0x504c4159;

/**
 * What a turn at `level` weighs by play-outs against the policy's move, if anything: at levels 18–38 on a board at
 * least PLAY_OUTS.fromHeight rows high (`boardTop`: its highest filled cell's row + 1) its burn, from
 * PLAY_OUTS.wellFromLevel keeping the well where the stack's limit is at its floor (`atFloor`: LevelPlay.atFloor).
 */
export function playOutChoiceAt(
  level: number,
  boardTop: number,
  atFloor: (level: number) => boolean,
): PlayedInstead | null {
  // From 39 the well is weighed only where the policy keeps it, the limit at its floor: tapping X. without the double
  // killscreen, 39 falls as 38 does, its limit is above the floor, and there is no well to weigh.
  if (level >= PLAY_OUTS.wellFromLevel) return atFloor(level) ? 'keepWell' : null;
  return level >= PLAY_OUTS.fromLevel && level <= PLAY_OUTS.toLevel && boardTop >= PLAY_OUTS.fromHeight ? 'burn' : null;
}

/** Whether play-outs draw pieces as the NES generator deals them: under its randomizers, or none given. */
export function playsNesPieces(randomizer: RandomizerName | undefined): boolean {
  return randomizer === undefined || randomizer === 'nes' || randomizer === 'nesSketch';
}

/** What weighing a move by play-outs asks of the AI: its field, its seed, and how it places a play-out's pieces. */
export interface PlayOutPlayer {
  width: number;
  visibleHeight: number;
  /** The level of a turn that gives none: the rule set's (play-outs run under timed rule sets alone). */
  level: number;
  /** The seed of the play-outs' piece sequences (TetrisAIOptions.seed). */
  seed: number;
  nesPieces: boolean;
  /** The policy's move for a play-out's turn, or with `instead` its other move (keepWell). */
  move(turn: Turn, instead: PlayedInstead | undefined): GameMove | null;
}

/**
 * Where the queue is known from the piece's first frame (nextMove, rankPlacements, or no reaction): whether the
 * move the policy makes instead (`other`: its burn, or keeping the well) plays out better than its own `move`;
 * false where they are one.
 */
export function playsOutBetter(
  player: PlayOutPlayer,
  turn: Turn,
  move: GameMove | null,
  other: GameMove | null,
  instead: PlayedInstead,
  hidden?: ArrayLike<number>,
): boolean {
  if (!move || !other || cellsKey(other.cells) === cellsKey(move.cells)) return false;
  return insteadPlaysOutBetter(player, turn, hidden, (played) => (played ? other : move), instead);
}

/**
 * Whether the play-outs of the move the policy makes instead score better than its own move's, by
 * PLAY_OUTS.wellMargin points for the well: `first` gives the move with the queue's last piece, the other or the
 * policy's own (`hidden`: that piece's chances where it is not known yet, else the queue's own). A burn is played on
 * by the policy; the well kept, by the policy keeping it. The piece sequences are drawn from the position
 * (turnRandom), so a position's move does not depend on the game before it.
 */
export function insteadPlaysOutBetter(
  player: PlayOutPlayer,
  turn: Turn,
  hidden: ArrayLike<number> | undefined,
  first: (other: boolean, next: Piece) => GameMove | null,
  instead: PlayedInstead,
): boolean {
  const start: PlayOutStart = {
    rows: turn.rows,
    width: player.width,
    visibleHeight: player.visibleHeight,
    next: turn.queue[turn.queue.length - 1],
    level: turn.level ?? player.level,
    lines: turn.lines,
    nesPieces: player.nesPieces,
  };
  const seen = hidden ? [turn.current, ...turn.queue.slice(0, -1)] : [turn.current, ...turn.queue];
  const rng = turnRandom(player.seed, turn.rows, turn.height, seen, PLAY_OUT_SALT);
  const sequences = playOutSequences(start, rng, hidden);
  // The play-outs' own pieces are placed knowing the next one, which a player sees only after the reaction:
  // played with the reaction they kept as many games at more than twice the time (bench/notes/nes.md,
  // "Play-outs that end on a learned value"). playOutValue gives them the piece after it too.
  const step =
    (keepWell: boolean): PlayOutMove =>
    (rows, current, next, level, lines, nextChances) =>
      player.move(
        {
          rows,
          height: turn.height,
          current,
          queue: [next],
          hold: null,
          canHold: false,
          next: nextChances,
          level,
          lines,
        },
        keepWell ? 'keepWell' : undefined,
      );
  const keepWell = instead === 'keepWell';
  const gain = (part: readonly (readonly Piece[])[]) =>
    playOutValue(start, part, (next) => first(true, next), step(keepWell)) -
    playOutValue(start, part, (next) => first(false, next), step(false));
  if (!keepWell) return gain(sequences) > 0;
  // The well's play-outs stop after the first half of the sequences where the well has gained nothing there: it
  // seldom gains the margin over the rest (7 of 162 choices on 80 games from 29), at 0.73 times the time
  // (bench/notes/nes.md, "The well at 39 in the competition format").
  const half = sequences.length >> 1;
  const early = gain(sequences.slice(0, half));
  if (early <= 0) return false;
  const rest = gain(sequences.slice(half));
  return (early * half + rest * (sequences.length - half)) / sequences.length > PLAY_OUTS.wellMargin;
}
