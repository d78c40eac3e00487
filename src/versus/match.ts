/**
 * One versus match (docs/versus.md): two seats, each a guideline game on its own board (the 40-row matrix, 20 rows
 * visible), its own bag7 piece stream, previews and hold, its own combo, back-to-back and incoming garbage (the rules
 * layer's GarbageQueue). The simulator owns both games: it asks each seat's player for a move with the position that
 * seat sees, checks the move, locks it, and passes the attack on.
 *
 * Turns are rounds: in each round both seats place one piece, each choosing from the position at the round's start,
 * and what each sends reaches the other's queue at the round's end. A round is a fixed span of game time, so the
 * result never depends on how fast either player computes; both moving at once keeps the seats symmetric.
 */
import { StackRankError, sliceClock, yieldToEventLoop } from '../errors.js';
import { YIELD_EVERY_MS } from '../slices.js';
import { WORK_ROWS } from '../tetris-ai/board-input.js';
import { lockInPlace } from '../tetris-ai/grid.js';
import { ORIENTATIONS, PIECES, orientationCells, type Piece } from '../pieces.js';
import { createRandomizer, type Randomizer } from '../randomizers/index.js';
import {
  ATTACK_TABLES,
  CLEAR_KINDS,
  clearKindOf,
  lockAttack,
  nextVersusState,
  type ClearKind,
} from '../rules/attack.js';
import { Board } from '../rules/board.js';
import { GarbageQueue, pushGarbageRows, type GarbageEntry, type Messiness } from '../rules/garbage.js';
import { PieceMover, reachablePlacements } from '../rules/reachable.js';
import { GUIDELINE_MATRIX_ROWS, GUIDELINE_SPAWN_ROW } from '../rules/rule-sets.js';
import type { Cell, Spin } from '../rules/types.js';
import { streamSeed } from '../stacking-ai/simulate.js';

/** The matrix each seat plays in, and the visible rows: a piece locked wholly over them is a lock out. */
export const MATRIX_ROWS = GUIDELINE_MATRIX_ROWS;
export const VISIBLE_ROWS = GUIDELINE_SPAWN_ROW;

/** What a match is played under (checked by playVersus). */
export interface MatchSettings {
  /** Board width (10 with a TBP player; the rank table's width + 1). */
  width: number;
  previews: number;
  /** Rounds at most: each seat places at most this many pieces; a match still on then is a draw. */
  maxPieces: number;
  /** Locks of the receiver before sent lines may enter its board (GarbageQueue's delay; 0: at its next lock). */
  garbageDelay: number;
  messiness: Messiness;
  /** 'same': both seats draw the same piece sequence; 'independent': one sequence each. */
  streams: 'same' | 'independent';
  seed: number;
}

/** What a seat's player sees when it is asked for a move. */
export interface SeatView {
  /** The board: bit rows, bottom first (WORK_ROWS of them, rows MATRIX_ROWS up empty). Not to be changed. */
  readonly rows: Uint32Array;
  readonly width: number;
  readonly current: Piece;
  /** The previews, next first. */
  readonly queue: readonly Piece[];
  readonly hold: Piece | null;
  /** Line clears in a row up to now (docs/rules.md, "Counters"). */
  readonly combo: number;
  /** Difficult clears in a row up to now. */
  readonly backToBack: number;
  /** Garbage waiting to enter this board, oldest first. */
  readonly incoming: readonly GarbageEntry[];
  /** Chances of the piece after the queue (I O T S Z L J): the bag's exact state. */
  readonly next: Float64Array;
}

/** A player's move: hold first or not, the piece placed and its four cells, and the spin it locks with. */
export interface PlayerMove {
  readonly hold: boolean;
  readonly piece: Piece;
  readonly cells: readonly Cell[];
  readonly spin: Spin;
}

/** What a seat's lock did, for a player that follows the game (a TBP bot keeps its own copy of the position). */
export interface LockReport {
  /** The move as played: its spin as the simulator judged it. */
  readonly move: PlayerMove;
  readonly lines: number;
  /** Garbage rows that entered the board after the lock. */
  readonly garbageRows: number;
  /** Pieces dealt after the lock, in order (the queue's new tail). */
  readonly dealt: readonly Piece[];
}

/**
 * A seat's player. Every move is checked: the piece the turn allows (with or without hold), four cells of its shape
 * on empty cells of the matrix, resting on the floor or the stack. `external` players' moves come from outside the
 * library (a TBP bot): an illegal one forfeits the match, and its spin is judged by the rules layer (the best spin
 * reachablePlacements gives those cells, at most the one claimed; none for cells the rules layer does not reach).
 * A library player's illegal move is a bug: it throws.
 */
export interface VersusPlayer {
  readonly name: string;
  readonly external: boolean;
  begin(view: SeatView): void | Promise<void>;
  /** The move for this view, or null when the player has none (it tops out). */
  move(view: SeatView): PlayerMove | null | Promise<PlayerMove | null>;
  locked(report: LockReport, view: SeatView): void | Promise<void>;
  end(): void | Promise<void>;
  /** A TBP player's counts over its life (TbpPlayer): the match's share goes into its side's tally. */
  readonly stats?: { readonly retries: number; readonly restarts: number };
}

/** How a seat lost: its piece could not appear, it had no move, it locked wholly over the visible rows, garbage
 * pushed a cell over the matrix, or (an external player) its move was illegal. */
export type OutReason = 'blockOut' | 'noMove' | 'lockOut' | 'garbageOut' | 'illegal';

/** What one side did in one match. Plain numbers, so a worker can post it. */
export interface SideTally {
  pieces: number;
  lines: number;
  /** Lines its locks sent before cancelling (the attack table's). */
  attack: number;
  /** Lines sent on to the opponent after cancelling its own incoming garbage. */
  sent: number;
  /** Incoming lines its attack cancelled. */
  cancelled: number;
  /** Garbage rows that entered its board. */
  received: number;
  /** Locks that cleared lines, by clear kind (CLEAR_KINDS order, 'none' included). */
  kinds: number[];
  maxCombo: number;
  /** Moves of an external player that the rules layer does not reach from the guideline spawn (played anyway). */
  unreachable: number;
  /** A TBP player: empty suggestions asked again, and times it was told the whole position again. */
  retries: number;
  restarts: number;
  out: OutReason | null;
}

export type MatchWinner = 'A' | 'B' | 'draw';

/** One match: side A sat in seat `seatA` (match m: seat m % 2). */
export interface MatchTally {
  match: number;
  seatA: number;
  winner: MatchWinner;
  /** Rounds played (pieces each seat had a turn for). */
  rounds: number;
  /** Side A's tally, then side B's. */
  sides: [SideTally, SideTally];
}

/** The random streams of match m (docs/versus.md, "Seeds"): matches 2k and 2k + 1 deal the same pieces and holes. */
export function matchSeeds(seed: number, match: number, streams: MatchSettings['streams']) {
  const deal = Math.floor(match / 2);
  return {
    pieces: [0, 1].map((s) => streamSeed(seed, deal, streams === 'same' ? 0 : 1 + s)),
    holes: [0, 1].map((s) => streamSeed(seed, deal, 3 + s)),
  };
}

/** One seat's game. */
class Seat {
  readonly rows = new Uint32Array(WORK_ROWS);
  readonly garbage: GarbageQueue;
  private readonly stream: Randomizer;
  /** The current piece and the previews. */
  private dealt: Piece[] = [];
  hold: Piece | null = null;
  combo = 0;
  backToBack = 0;
  readonly tally: SideTally = {
    pieces: 0,
    lines: 0,
    attack: 0,
    sent: 0,
    cancelled: 0,
    received: 0,
    kinds: CLEAR_KINDS.map(() => 0),
    maxCombo: 0,
    unreachable: 0,
    retries: 0,
    restarts: 0,
    out: null,
  };

  constructor(
    private readonly settings: MatchSettings,
    pieceSeed: number,
    holeSeed: number,
    private readonly spawns: readonly (readonly Cell[])[],
  ) {
    this.stream = createRandomizer('bag7', { seed: pieceSeed });
    this.garbage = new GarbageQueue({ seed: holeSeed, width: settings.width, messiness: settings.messiness });
    this.deal();
  }

  /** Deals pieces until the current one and every preview are there; returns the new ones. */
  deal(): Piece[] {
    const added: Piece[] = [];
    while (this.dealt.length < this.settings.previews + 1) {
      const p = this.stream.next();
      this.dealt.push(p);
      added.push(p);
    }
    return added;
  }

  view(): SeatView {
    return {
      rows: this.rows,
      width: this.settings.width,
      current: this.dealt[0],
      queue: this.dealt.slice(1),
      hold: this.hold,
      combo: this.combo,
      backToBack: this.backToBack,
      incoming: this.garbage.entries,
      next: this.stream.distribution(),
    };
  }

  /** Whether the current piece cannot appear: a cell of its spawn state is filled. */
  blockedOut(): boolean {
    for (const [x, y] of this.spawns[PIECES.indexOf(this.dealt[0])]) if ((this.rows[y] >> x) & 1) return true;
    return false;
  }

  /** What is wrong with a move in this position, or null. */
  problem(move: PlayerMove): string | null {
    const allowed = move.hold ? (this.hold ?? this.dealt[1]) : this.dealt[0];
    if (move.piece !== allowed)
      return `places ${move.piece}${move.hold ? ' after hold' : ''}; the turn allows ${allowed}`;
    const { cells } = move;
    if (!Array.isArray(cells) || cells.length !== 4) return 'does not have 4 cells';
    let rests = false;
    for (let i = 0; i < 4; i++) {
      const [x, y] = cells[i];
      if (
        !(Number.isInteger(x) && Number.isInteger(y) && x >= 0 && x < this.settings.width && y >= 0 && y < MATRIX_ROWS)
      )
        return `puts a cell on [${x}, ${y}], off the ${this.settings.width} × ${MATRIX_ROWS} matrix`;
      if ((this.rows[y] >> x) & 1) return `puts a cell on [${x}, ${y}], which is filled`;
      for (let j = 0; j < i; j++) if (cells[j][0] === x && cells[j][1] === y) return `puts two cells on [${x}, ${y}]`;
      if (y === 0 || (this.rows[y - 1] >> x) & 1) rests = true;
    }
    if (!SHAPES[PIECES.indexOf(move.piece)].has(shapeKey(cells))) return `does not have the shape of ${move.piece}`;
    return rests ? null : 'does not rest on the floor or the stack';
  }

  /**
   * Plays a checked move: hold, lock, clear, the attack and the garbage it lets in. Returns the lines sent on and
   * the lock's report (the seat is out after it when `tally.out` is set).
   */
  play(move: PlayerMove, spin: Spin): { sent: number; report: LockReport } {
    const t = this.tally;
    if (move.hold) {
      const current = this.dealt[0];
      if (this.hold === null) this.dealt.shift(); // the box was empty: the first preview comes out too
      this.hold = current;
    }
    this.dealt.shift();
    t.pieces++;
    const lockOut = move.cells.every(([, y]) => y >= VISIBLE_ROWS);
    const lines = lockInPlace(this.rows, this.settings.width, move.cells);
    const perfectClear = lines > 0 && this.rows.every((r) => r === 0);
    // A T fills at most three rows, and a mini leaves a front corner open: the judged spin names a kind.
    const kind = (clearKindOf(lines, spin) ?? clearKindOf(lines, 'none')) as ClearKind;
    const attack = lockAttack(ATTACK_TABLES.guideline, kind, perfectClear, this.combo, this.backToBack);
    ({ combo: this.combo, backToBack: this.backToBack } = nextVersusState(kind, this));
    const { sent, cancelled, holes } = this.garbage.lock(attack, lines);
    const garbageOut = pushGarbageRows(this.rows, this.settings.width, MATRIX_ROWS, holes);
    t.lines += lines;
    t.attack += attack;
    t.sent += sent;
    t.cancelled += cancelled;
    t.received += holes.length;
    if (lines > 0) t.kinds[CLEAR_KINDS.indexOf(kind)]++;
    t.maxCombo = Math.max(t.maxCombo, this.combo);
    if (lockOut) t.out = 'lockOut';
    else if (garbageOut) t.out = 'garbageOut';
    const dealt = this.deal();
    return { sent: t.out ? 0 : sent, report: { move: { ...move, spin }, lines, garbageRows: holes.length, dealt } };
  }
}

const SPIN_ORDER: readonly Spin[] = ['none', 'mini', 'full'];

/** Four cells moved to the origin (least column and row 0), as one string. */
function shapeKey(cells: readonly Cell[]): string {
  const x0 = Math.min(...cells.map(([x]) => x));
  const y0 = Math.min(...cells.map(([, y]) => y));
  return cellKey(cells.map(([x, y]) => [x - x0, y - y0]));
}

/** Each piece's shapes, every orientation (docs/rules.md, "Pieces"), as shapeKey strings. */
const SHAPES: readonly Set<string>[] = ORIENTATIONS.map(
  (list) => new Set(list.map((o) => shapeKey(orientationCells(o)))),
);

/**
 * The spin an external player's move locks with on this board (bit rows, bottom first): the best spin
 * reachablePlacements gives its cells, at most the one it claims; and whether the rules layer reaches those cells
 * from the guideline spawn at all (when it does not: no spin).
 */
export function judgeSpin(rows: Uint32Array, width: number, move: PlayerMove): { spin: Spin; reached: boolean } {
  const board = Board.fromBits(rows.subarray(0, MATRIX_ROWS), width, MATRIX_ROWS);
  const key = cellKey(move.cells);
  const found = reachablePlacements(board, move.piece, { rules: 'guideline' }).find((p) => cellKey(p.cells) === key);
  if (!found) return { spin: 'none', reached: false };
  return {
    spin: SPIN_ORDER.indexOf(found.spin) < SPIN_ORDER.indexOf(move.spin) ? found.spin : move.spin,
    reached: true,
  };
}

function cellKey(cells: readonly Cell[]): string {
  return cells
    .map(([x, y]) => y * 64 + x)
    .sort((a, b) => a - b)
    .join(' ');
}

/** Each piece's cells as it appears under guideline on a board `width` wide (rows 21–22 of the matrix). */
export function spawnCells(width: number): Cell[][] {
  return PIECES.map((p) => {
    const mover = new PieceMover(Board.empty(width, MATRIX_ROWS), p, 'guideline');
    return mover.cellsOf(mover.spawn);
  });
}

/**
 * Plays match `match`: `players[0]` is side A, sitting in seat `match % 2`. Resolves with the match's tally once
 * both players were told it ended (their `end`). A library player's illegal move rejects with BAD_ARGUMENT;
 * `signal` aborts between rounds (ABORTED).
 */
export async function playMatch(
  players: readonly [VersusPlayer, VersusPlayer],
  match: number,
  settings: MatchSettings,
  signal?: AbortSignal,
): Promise<MatchTally> {
  const seatA = match % 2;
  const bySeat = seatA === 0 ? players : ([players[1], players[0]] as const);
  const seeds = matchSeeds(settings.seed, match, settings.streams);
  const spawns = spawnCells(settings.width);
  const seats = [0, 1].map((s) => new Seat(settings, seeds.pieces[s], seeds.holes[s], spawns));
  let rounds = 0;
  let winner: MatchWinner = 'draw';
  const before = bySeat.map((p) => ({ retries: p.stats?.retries ?? 0, restarts: p.stats?.restarts ?? 0 }));
  try {
    for (let s = 0; s < 2; s++) await bySeat[s].begin(seats[s].view());
    const due = sliceClock(YIELD_EVERY_MS);
    while (rounds < settings.maxPieces) {
      if (signal?.aborted) throw new StackRankError('ABORTED', 'the matches were aborted');
      // Give the event loop a turn, so an abort (Ctrl-C) or a timer can arrive while two library players play.
      if (due()) await yieldToEventLoop();
      rounds++;
      for (const seat of seats) if (seat.blockedOut()) seat.tally.out = 'blockOut';
      const moves = await Promise.all(seats.map((seat, s) => (seat.tally.out ? null : bySeat[s].move(seat.view()))));
      const sent = [0, 0];
      const reports: (LockReport | null)[] = [null, null];
      for (let s = 0; s < 2; s++) {
        const seat = seats[s];
        const move = moves[s];
        if (seat.tally.out) continue;
        if (move === null) {
          seat.tally.out = 'noMove';
          continue;
        }
        const player = bySeat[s];
        const problem = seat.problem(move);
        if (problem !== null) {
          if (!player.external) throw new StackRankError('BAD_ARGUMENT', `${player.name}'s move ${problem}`);
          seat.tally.out = 'illegal';
          continue;
        }
        let spin = move.spin;
        if (player.external) {
          const judged = judgeSpin(seat.rows, settings.width, move);
          spin = judged.spin;
          if (!judged.reached) seat.tally.unreachable++;
        }
        ({ sent: sent[s], report: reports[s] } = seat.play(move, spin));
      }
      // What each seat sent reaches the other's queue at the round's end (cancelling happened at its own lock).
      for (let s = 0; s < 2; s++) if (sent[s] > 0) seats[1 - s].garbage.receive(sent[s], settings.garbageDelay);
      const out = seats.map((seat) => seat.tally.out !== null);
      if (out[0] || out[1]) {
        winner = out[0] && out[1] ? 'draw' : (out[0] ? 1 : 0) === seatA ? 'A' : 'B';
        break;
      }
      for (let s = 0; s < 2; s++) await bySeat[s].locked(reports[s]!, seats[s].view());
    }
  } finally {
    for (const p of bySeat) await p.end();
  }
  seats.forEach((seat, s) => {
    seat.tally.retries = (bySeat[s].stats?.retries ?? 0) - before[s].retries;
    seat.tally.restarts = (bySeat[s].stats?.restarts ?? 0) - before[s].restarts;
  });
  const sides = seats.map((s) => s.tally);
  return { match, seatA, winner, rounds, sides: seatA === 0 ? [sides[0], sides[1]] : [sides[1], sides[0]] };
}
