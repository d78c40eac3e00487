/**
 * Independent reference of a versus match (docs/versus.md), written apart from src/versus/ so the two check each
 * other: boards as rows of strings, the garbage queue as a plain array with its own cancelling and delays, holes
 * drawn by the documented rule, attack by the reference's own guideline arithmetic (versus-reference.ts), and the
 * guideline spawn written out cell by cell, clear kinds named by docs/rules.md's table, combo and back-to-back
 * counted as docs/rules.md's "Counters" says. Players are scripted functions of the position, the same ones the
 * simulator is given, so both play the same moves as long as both keep the same positions (a test can record the
 * views each side is shown and compare them turn by turn).
 */
import { Rng } from '../../src/random.js';
import { createRandomizer } from '../../src/randomizers/index.js';
import { streamSeed } from '../../src/stacking-ai/simulate.js';
import { type RefSpin, refGuidelineLock, refInsertGarbage } from './versus-reference.js';

const WIDTH = 10;
const ROWS = 40;
const VISIBLE = 20;
const PREVIEWS = 5;

/** What a scripted player sees: bit rows bottom first (ROWS of them), pieces, hold, counters, incoming garbage. */
export interface RefView {
  rows: number[];
  current: string;
  queue: string[];
  hold: string | null;
  /** Line clears in a row up to now. */
  combo: number;
  /** Difficult clears (a Tetris, a spin with lines) in a row since the last easy clear. */
  backToBack: number;
  /** Garbage waiting, oldest first. */
  incoming: { lines: number; delay: number }[];
}
export interface RefMove {
  hold: boolean;
  piece: string;
  cells: readonly (readonly [number, number])[];
  spin: RefSpin;
}
export type RefPlayer = (view: RefView) => RefMove | null;

export interface RefSettings {
  maxPieces: number;
  garbageDelay: number;
  withinAttack: number;
  betweenAttacks: number;
  sameStream: boolean;
  seed: number;
}

export interface RefSide {
  pieces: number;
  lines: number;
  attack: number;
  sent: number;
  cancelled: number;
  received: number;
  out: string | null;
  /** Locks that cleared lines, by clear kind name (docs/rules.md, "Clear kinds"). */
  kinds: Record<string, number>;
  /** The longest combo: line clears in a row. */
  maxCombo: number;
  /** Clears that continued a back-to-back chain (paid its +1); not a tally field, for tests to count. */
  backToBackBonuses: number;
}

/** Clear kinds by spin, then lines cleared (docs/rules.md's table). */
const KIND_NAMES: Record<RefSpin, string[]> = {
  none: ['none', 'single', 'double', 'triple', 'tetris'],
  mini: ['tSpinMini', 'tSpinMiniSingle', 'tSpinMiniDouble'],
  full: ['tSpin', 'tSpinSingle', 'tSpinDouble', 'tSpinTriple'],
};
export const REF_CLEAR_KINDS: readonly string[] = [...KIND_NAMES.none, ...KIND_NAMES.mini, ...KIND_NAMES.full];

/** The guideline spawn on a 10-wide board: each piece's cells in rows 21-22 (y = 20, 21). */
const SPAWN: Record<string, [number, number][]> = {
  I: [
    [3, 20],
    [4, 20],
    [5, 20],
    [6, 20],
  ],
  O: [
    [4, 20],
    [5, 20],
    [4, 21],
    [5, 21],
  ],
  T: [
    [3, 20],
    [4, 20],
    [5, 20],
    [4, 21],
  ],
  S: [
    [3, 20],
    [4, 20],
    [4, 21],
    [5, 21],
  ],
  Z: [
    [4, 20],
    [5, 20],
    [3, 21],
    [4, 21],
  ],
  J: [
    [3, 20],
    [4, 20],
    [5, 20],
    [3, 21],
  ],
  L: [
    [3, 20],
    [4, 20],
    [5, 20],
    [5, 21],
  ],
};

class RefSeat {
  /** Rows bottom first: '.' empty, '#' a piece's cell, 'G' garbage. */
  board: string[] = Array.from({ length: ROWS }, () => '.'.repeat(WIDTH));
  pieces: { next(): string };
  dealt: string[] = [];
  hold: string | null = null;
  combo = 0;
  b2b = false;
  /** The back-to-back chain's length (b2b is whether it is at least 1). */
  chain = 0;
  queue: { lines: number; delay: number }[] = [];
  rng: Rng;
  lastHole: number | null = null;
  side: RefSide = {
    pieces: 0,
    lines: 0,
    attack: 0,
    sent: 0,
    cancelled: 0,
    received: 0,
    out: null,
    kinds: Object.fromEntries(REF_CLEAR_KINDS.map((k) => [k, 0])),
    maxCombo: 0,
    backToBackBonuses: 0,
  };

  constructor(pieceSeed: number, holeSeed: number) {
    this.pieces = createRandomizer('bag7', { seed: pieceSeed });
    this.rng = new Rng(holeSeed);
    this.fill();
  }

  fill() {
    while (this.dealt.length < PREVIEWS + 1) this.dealt.push(this.pieces.next());
  }

  filled(x: number, y: number) {
    return this.board[y][x] !== '.';
  }

  view(): RefView {
    const rows = this.board.map((r) => [...r].reduce((m, c, x) => (c === '.' ? m : m | (1 << x)), 0));
    return {
      rows,
      current: this.dealt[0],
      queue: this.dealt.slice(1),
      hold: this.hold,
      combo: this.combo,
      backToBack: this.chain,
      incoming: this.queue.map((e) => ({ ...e })),
    };
  }

  /** Plays a move; returns the lines sent on. */
  play(move: RefMove): number {
    const side = this.side;
    let placed: string;
    if (!move.hold) placed = this.dealt.shift()!;
    else if (this.hold === null) {
      this.hold = this.dealt.shift()!;
      placed = this.dealt.shift()!;
    } else {
      placed = this.hold;
      this.hold = this.dealt.shift()!;
    }
    if (placed !== move.piece) throw new Error(`reference: the move places ${move.piece}, the turn ${placed}`);
    for (const [x, y] of move.cells) {
      if (this.filled(x, y)) throw new Error(`reference: [${x}, ${y}] is filled`);
      this.board[y] = this.board[y].slice(0, x) + '#' + this.board[y].slice(x + 1);
    }
    side.pieces++;
    const lockOut = move.cells.every(([, y]) => y >= VISIBLE);
    const kept = this.board.filter((r) => r.includes('.'));
    const lines = ROWS - kept.length;
    this.board = [...kept, ...Array.from({ length: lines }, () => '.'.repeat(WIDTH))];
    const perfect = lines > 0 && this.board.every((r) => !r.includes('#') && !r.includes('G'));
    // A spin names a kind only up to the lines a T can clear with it (a mini two, a full spin three): else no spin.
    const spin = KIND_NAMES[move.spin][lines] === undefined ? 'none' : move.spin;
    const lock = refGuidelineLock(lines, spin, perfect, { combo: this.combo, b2b: this.b2b });
    if (lines > 0) {
      side.kinds[KIND_NAMES[spin][lines]]++;
      const difficult = lines === 4 || spin !== 'none';
      if (difficult && this.chain > 0 && !perfect) side.backToBackBonuses++;
      this.chain = difficult ? this.chain + 1 : 0;
    }
    this.combo = lock.combo;
    this.b2b = lock.b2b;
    side.maxCombo = Math.max(side.maxCombo, this.combo);
    side.lines += lines;
    side.attack += lock.sent;
    let sent = 0;
    if (lines > 0) {
      let a = lock.sent;
      while (a > 0 && this.queue.length > 0) {
        const take = Math.min(a, this.queue[0].lines);
        a -= take;
        side.cancelled += take;
        this.queue[0].lines -= take;
        if (this.queue[0].lines === 0) this.queue.shift();
      }
      sent = a;
    } else {
      const holes: number[] = [];
      while (this.queue.length > 0 && this.queue[0].delay <= 0) {
        const { lines: n } = this.queue.shift()!;
        for (let r = 0; r < n; r++) holes.push(this.hole(r === 0));
      }
      // refInsertGarbage reads rows top first.
      const { rows, lost } = refInsertGarbage([...this.board].reverse(), holes);
      this.board = rows.reverse();
      side.received += holes.length;
      if (lost.some((r) => r.includes('#') || r.includes('G'))) side.out = 'garbageOut';
    }
    for (const e of this.queue) if (e.delay > 0) e.delay--;
    side.sent += sent;
    if (lockOut) side.out = 'lockOut';
    this.fill();
    return side.out ? 0 : sent;
  }

  /** The next garbage row's hole (refGarbageHole). */
  hole(firstOfAttack: boolean): number {
    const chance = firstOfAttack ? this.settingsChances[1] : this.settingsChances[0];
    this.lastHole = refGarbageHole(this.rng, this.lastHole, chance, WIDTH);
    return this.lastHole;
  }

  settingsChances: [number, number] = [0, 1];
}

/**
 * The next garbage row's hole by the documented draws (docs/rules.md, "Garbage"): the first row ever takes
 * nextInt(width); any other keeps `last` unless it moves, with `chance` (nextFloat() is drawn only for a chance
 * strictly between 0 and 1), and a move takes nextInt(width - 1) places past the old column, skipping it.
 */
export function refGarbageHole(rng: Rng, last: number | null, chance: number, width: number): number {
  if (last === null) return rng.nextInt(width);
  const moves = chance >= 1 || (chance > 0 && rng.nextFloat() < chance);
  return moves ? (last + 1 + rng.nextInt(width - 1)) % width : last;
}

/** A match as the reference plays it: players[0] is side A, in seat match % 2. */
export function refMatch(
  players: [RefPlayer, RefPlayer],
  match: number,
  settings: RefSettings,
): { winner: 'A' | 'B' | 'draw'; rounds: number; sides: [RefSide, RefSide] } {
  const seatA = match % 2;
  const inSeat = seatA === 0 ? players : [players[1], players[0]];
  const deal = Math.floor(match / 2);
  const seats = [0, 1].map((s) => {
    const seat = new RefSeat(
      streamSeed(settings.seed, deal, settings.sameStream ? 0 : 1 + s),
      streamSeed(settings.seed, deal, 3 + s),
    );
    seat.settingsChances = [settings.withinAttack, settings.betweenAttacks];
    return seat;
  });
  let rounds = 0;
  let winner: 'A' | 'B' | 'draw' = 'draw';
  while (rounds < settings.maxPieces) {
    rounds++;
    const moves = seats.map((seat, s) => {
      if (SPAWN[seat.dealt[0]].some(([x, y]) => seat.filled(x, y))) {
        seat.side.out = 'blockOut';
        return null;
      }
      const m = inSeat[s](seat.view());
      if (!m) seat.side.out = 'noMove';
      return m;
    });
    const sent = seats.map((seat, s) => (moves[s] ? seat.play(moves[s]!) : 0));
    sent.forEach((n, s) => {
      if (n > 0) seats[1 - s].queue.push({ lines: n, delay: settings.garbageDelay });
    });
    const lost = seats.map((seat) => seat.side.out !== null);
    if (lost[0] && lost[1]) break;
    if (lost[0] || lost[1]) {
      winner = (lost[0] ? 1 : 0) === seatA ? 'A' : 'B';
      break;
    }
  }
  const sides = seats.map((s) => s.side);
  return { winner, rounds, sides: seatA === 0 ? [sides[0], sides[1]] : [sides[1], sides[0]] };
}
