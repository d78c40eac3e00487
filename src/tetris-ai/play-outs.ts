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
import type { GameMove } from './decision.js';
import { emptyFrom, lockInPlace } from './grid.js';
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
