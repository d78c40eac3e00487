/**
 * Versus mode's game (docs/demo.md, "Versus"): two 10 x 20 boards under the guideline rule set, fed the same bag7
 * sequence, each lock scored and its garbage exchanged by the library's rules layer — `lockOutcome` for the clear
 * kind, the back-to-back chain, the combo and the attack; `GarbageQueue` for the incoming lines, cancelling and the
 * rows that enter; `insertGarbage` to push them in. Nothing of the rules is computed here.
 */
import {
  Board,
  GarbageQueue,
  RULE_SETS,
  createRandomizer,
  insertGarbage,
  lockOutcome,
  type Cell,
  type ClearKind,
  type Piece,
  type Randomizer,
  type Spin,
  type TetrisAI,
  type VersusState,
} from 'stackrank';
import type { Paint } from './draw.js';
import { lockOnField } from './lock.js';
import { PlaySession, type GradedMove } from './play.js';
import { count } from './words.js';

export const VERSUS_RULES = 'guideline';
const RULES = RULE_SETS[VERSUS_RULES];
const ATTACK = RULES.attack ?? 'guideline';
export const VERSUS_WIDTH = 10;
export const VERSUS_ROWS = 20;
/** Which side is which: 0 on the left, 1 on the right. */
export type SideIndex = 0 | 1;

/** One lock as the page shows and logs it. */
export interface LockReport {
  side: SideIndex;
  /** The side's piece count after this lock. */
  piece: number;
  lines: number;
  spin: Spin;
  perfectClear: boolean;
  /** The counters before the lock. */
  before: VersusState;
  kind: ClearKind;
  attack: number;
  backToBackBonus: boolean;
  /** Lines sent on to the opponent, and queued lines the attack cancelled. */
  sent: number;
  cancelled: number;
  /** Garbage rows that entered this board at this lock. */
  entered: number;
  /** Lines waiting on this board and on the opponent's after the lock (the two meters). */
  incoming: number;
  opponentIncoming: number;
  /** The AI's own figure for the move (GameMove.attack), when an AI played it. */
  aiAttack?: number;
  /** The readout, e.g. "T-spin double, B2B, 5 lines"; empty for a lock that clears nothing and spins not. */
  text: string;
  /** The garbage that entered at this lock pushed the stack over the top: this side lost. */
  toppedOut: boolean;
}

const KIND_WORDS: Record<ClearKind, string> = {
  none: '',
  single: 'Single',
  double: 'Double',
  triple: 'Triple',
  tetris: 'Tetris',
  tSpinMini: 'T-spin mini',
  tSpinMiniSingle: 'T-spin mini single',
  tSpinMiniDouble: 'T-spin mini double',
  tSpin: 'T-spin',
  tSpinSingle: 'T-spin single',
  tSpinDouble: 'T-spin double',
  tSpinTriple: 'T-spin triple',
};

/** The readout of a lock: its clear kind, perfect clear, back-to-back, combo and attack (and what it cancelled). */
export function describeLock(r: Omit<LockReport, 'text' | 'toppedOut'>): string {
  if (r.kind === 'none') return '';
  const parts = [KIND_WORDS[r.kind]];
  if (r.perfectClear) parts.push('perfect clear');
  if (r.backToBackBonus) parts.push('B2B');
  if (r.lines > 0 && r.before.combo > 0) parts.push(`combo ${r.before.combo}`);
  parts.push(count(r.attack, 'line'));
  const tail = r.cancelled > 0 ? ` (${r.cancelled} cancelled, ${r.sent} sent)` : '';
  return parts.join(', ') + tail;
}

/** One side's field: the board, its colours, the versus counters and the incoming garbage. */
export class VersusField {
  board = Board.empty(VERSUS_WIDTH, VERSUS_ROWS);
  paint: Paint[][] = Array.from({ length: VERSUS_ROWS }, () => new Array<Paint>(VERSUS_WIDTH).fill(null));
  state: VersusState = { combo: 0, backToBack: 0 };
  readonly garbage: GarbageQueue;
  pieces = 0;
  lines = 0;
  attack = 0;
  lastCells: Cell[] = [];
  last: LockReport | null = null;

  constructor(
    readonly side: SideIndex,
    seed: number,
  ) {
    this.garbage = new GarbageQueue({ seed: (seed * 2 + side) % 2 ** 31, width: VERSUS_WIDTH });
  }

  /**
   * Locks a piece's cells with its spin: the lock's outcome by the rules layer, then garbage cancelled or let in.
   * Answers the report (its `toppedOut` set when the garbage let in pushed the stack over the top; the lock still
   * counts, and what it sent stays sent), or null when the piece itself locked above the field.
   */
  lock(cells: readonly Cell[], piece: Piece, spin: Spin, opponent: VersusField): LockReport | null {
    const placed = lockOnField(this.board, this.paint, cells, piece);
    this.paint = placed.paint;
    if (placed.toppedOut) {
      this.lastCells = cells.slice();
      return null;
    }
    const before = this.state;
    const perfectClear = placed.lines > 0 && placed.board.rows.every((r) => r === 0);
    const out = lockOutcome({ lines: placed.lines, spin, perfectClear }, before, ATTACK);
    this.state = out.state;
    const g = this.garbage.lock(out.attack, placed.lines);
    if (g.sent > 0) opponent.garbage.receive(g.sent);
    let board = placed.board;
    let lost = false;
    if (g.holes.length > 0) {
      const pushed = insertGarbage(board, g.holes);
      board = pushed.board;
      lost = pushed.toppedOut;
      const rows = g.holes
        .map((hole) => Array.from({ length: VERSUS_WIDTH }, (_, x): Paint => (x === hole ? null : 'X')))
        .reverse();
      this.paint = [...rows, ...this.paint].slice(0, VERSUS_ROWS);
    }
    this.board = board;
    this.pieces++;
    this.lines += placed.lines;
    this.attack += g.sent;
    this.lastCells = placed.lines ? [] : cells.map(([x, y]): Cell => [x, y + g.holes.length]);
    const report: Omit<LockReport, 'text' | 'toppedOut'> = {
      side: this.side,
      piece: this.pieces,
      lines: placed.lines,
      spin,
      perfectClear,
      before,
      kind: out.kind,
      attack: out.attack,
      backToBackBonus: out.backToBackBonus,
      sent: g.sent,
      cancelled: g.cancelled,
      entered: g.holes.length,
      incoming: this.garbage.lines,
      opponentIncoming: opponent.garbage.lines,
    };
    const full = { ...report, text: describeLock(report), toppedOut: lost };
    if (full.text) this.last = full;
    return full;
  }
}

/** An AI side: the pieces of its randomizer, its hold box, `TetrisAI.nextMove` given the versus state. */
export class VersusAI {
  queue = '';
  hold: Piece | null = null;
  private readonly pieces: Randomizer;

  constructor(
    readonly field: VersusField,
    private readonly ai: TetrisAI,
    seed: number,
  ) {
    this.pieces = createRandomizer('bag7', { seed });
  }

  /** Plays one piece; the report (see VersusField.lock), or null when the AI found no move or locked out. */
  step(opponent: VersusField): LockReport | null {
    const need = RULES.previews + 2;
    if (this.queue.length < need) this.queue += this.pieces.take(need - this.queue.length);
    const f = this.field;
    const current = this.queue[0] as Piece;
    const move = this.ai.nextMove({
      board: f.board,
      current,
      queue: this.queue.slice(1, 1 + RULES.previews),
      hold: this.hold,
      canHold: true,
      combo: f.state.combo,
      backToBack: f.state.backToBack,
      incoming: f.garbage.entries,
    });
    if (!move) return null;
    let used = 1;
    if (move.hold) {
      if (this.hold === null) used = 2; // the current piece goes to the box, the next one is played
      this.hold = current;
    }
    this.queue = this.queue.slice(used);
    const report = f.lock(move.cells, move.piece, move.spin, opponent);
    if (report) report.aiAttack = move.attack;
    return report;
  }
}

/** A person's side: play mode's keys and piece model (PlaySession) without grading, locking on a VersusField. */
export class VersusPerson extends PlaySession {
  /** Called with each lock's report (null, or a report with `toppedOut`: this side topped out). */
  onLock: (report: LockReport | null) => void = () => {};
  opponent: VersusField | null = null;

  constructor(
    readonly field: VersusField,
    ai: TetrisAI,
    seed: number,
  ) {
    super(ai, VERSUS_RULES, 'bag7', seed);
  }

  protected override lock(): GradedMove | null {
    const cells = this.ghostCells();
    const report = this.field.lock(cells, this.piece, this.spin, this.opponent!);
    this.board = this.field.board;
    this.paint = this.field.paint;
    this.lastCells = this.field.lastCells;
    this.lines = this.field.lines;
    if (report === null || report.toppedOut) this.end('top-out');
    else this.spawn(this.nextPiece());
    this.onLock(report);
    return null;
  }
}
