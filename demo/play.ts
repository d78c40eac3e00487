/**
 * Play mode's game: a person moves the piece with the keyboard under a rule set, and after every placement the AI
 * grades it against `rankPlacements` of the same turn (docs/demo.md, "Play"). The piece moves by the library's
 * own model of the rule set (`PieceMover` from stackrank: the rotation system's kicks, 20G, where pieces
 * appear), so a hint's key sequence typed in gives exactly the AI's placement, and every placement a person makes is
 * one `reachablePlacements` lists but a tuck or spin after a soft drop of part of the way (docs/rules.md, "What the
 * key model leaves out"). Untimed, pieces fall only when the player drops them (no gravity timer). Under a timed rule
 * set (nes) the piece lives frame by frame at the level's gravity and the timeline's pace (./frames.ts), and the AI
 * grades it under the same frames.
 */
import {
  Board,
  PIECES,
  PieceMover,
  RULE_SETS,
  createRandomizer,
  type Cell,
  type Piece,
  type PieceState,
  type PlacementRanking,
  type RandomizerName,
  type RankedPlacement,
  type RuleSet,
  type RuleSetName,
  type Spin,
  type TetrisAI,
} from 'stackrank';
import type { Paint } from './draw.js';
import { FramePiece, frameMs, type Press } from './frames.js';
import { gradePlacement, type Graded } from './grade.js';
import { lockOnField } from './lock.js';

export const PLAY_WIDTH = 10;
export const PLAY_ROWS = 20;

/** What the player's keys do (besides the hint and ending the game, which the page handles). */
export type Action = 'left' | 'right' | 'softDrop' | 'hardDrop' | 'cw' | 'ccw' | 'hold';

/** The position a turn starts from: what the AI is asked about. */
export interface Turn {
  index: number;
  board: Board;
  paint: Paint[][];
  current: Piece;
  queue: Piece[];
  hold: Piece | null;
  canHold: boolean;
}

export interface GradedMove extends Graded {
  turn: Turn;
  unit: PlacementRanking['unit'];
  played: { piece: Piece; hold: boolean; cells: Cell[] };
  best: RankedPlacement;
}

export class PlaySession {
  readonly rules: RuleSet;
  board = Board.empty(PLAY_WIDTH, PLAY_ROWS);
  paint: Paint[][] = Array.from({ length: PLAY_ROWS }, () => new Array<Paint>(PLAY_WIDTH).fill(null));
  hold: Piece | null = null;
  /** Whether hold was pressed this turn. */
  held = false;
  piece: Piece = 'I';
  mover!: PieceMover;
  state!: PieceState;
  turn!: Turn;
  over = false;
  /** Why the game ended: 'top-out' or 'ended' (the player's choice). */
  overReason = '';
  lines = 0;
  tetrises = 0;
  readonly graded: GradedMove[] = [];
  lastCells: Cell[] = [];
  /** The spin the piece would lock with now (docs/rules.md, "Versus"): set by a turn, ended by a shift or a fall. */
  spin: Spin = 'none';
  /** Under a timed rule set: the piece's frames (null untimed: the piece moves only by keys). */
  timed: FramePiece | null = null;
  private moved = false;
  private queue: Piece[] = [];
  private ranking: PlacementRanking | null = null;
  private readonly pieces;
  /** Timed: frames due and not yet played, the time they were counted to, frames left of the entry delay. */
  private due = 0;
  private clock: number | null = null;
  private entry = 0;

  constructor(
    readonly ai: TetrisAI,
    /** A preset name, or a timed rule set based on one (the AI's: `{ ...RULE_SETS.nes, level, timeline }`). */
    rules: RuleSetName | RuleSet,
    randomizer: RandomizerName,
    seed: number,
  ) {
    this.rules = typeof rules === 'string' ? RULE_SETS[rules] : rules;
    this.pieces = createRandomizer(randomizer, { seed });
    this.spawn(this.nextPiece());
  }

  protected nextPiece(): Piece {
    while (this.queue.length < this.rules.previews + 1) this.queue.push(this.pieces.next() as Piece);
    return this.queue.shift()!;
  }

  /** The preview as the rule set shows it. */
  get preview(): Piece[] {
    while (this.queue.length < this.rules.previews) this.queue.push(this.pieces.next() as Piece);
    return this.queue.slice(0, this.rules.previews);
  }

  protected spawn(piece: Piece, newTurn = true): void {
    this.piece = piece;
    this.spin = 'none';
    this.mover = new PieceMover(this.board, PIECES.indexOf(piece), this.rules);
    this.moved = false;
    const s = this.mover.spawn;
    if (newTurn) {
      this.held = false;
      this.turn = {
        index: this.graded.length,
        board: this.board,
        paint: this.paint.map((r) => r.slice()),
        current: piece,
        queue: this.preview,
        hold: this.hold,
        canHold: this.rules.hold,
      };
      this.ranking = null;
    }
    if (this.mover.collides(s.rotation, s.x, s.y)) {
      this.end('top-out');
      return;
    }
    this.state = this.mover.settle(s);
    if (this.rules.timing) this.timed = new FramePiece(this.mover, this.rules, this.timed?.holding ?? '');
  }

  /**
   * Timed rule sets: plays the frames due by `now` (milliseconds, the page's clock) at the game's frame rate, and
   * returns the graded move when the piece locked on one. The game waits the entry delay's fewest frames between a
   * lock and the next piece; a page that stalls loses the time (at most a few frames are made up at once).
   */
  tick(now: number): GradedMove | null {
    const t = this.timed;
    if (!t || this.over) return null;
    if (this.clock !== null) this.due = Math.min(this.due + (now - this.clock) / frameMs(this.rules), MAX_CATCH_UP);
    this.clock = now;
    while (this.due >= 1) {
      this.due--;
      if (this.entry > 0) {
        this.entry--;
        continue;
      }
      const locked = t.step();
      this.state = t.state;
      if (locked) return this.lock();
    }
    return null;
  }

  /** A direction key let go (timed rule sets; FramePiece.release): `repeated`, the page's auto-repeat had run. */
  release(action: Action, repeated = false): void {
    if (action === 'left' || action === 'right') this.timed?.release(action === 'left' ? 'L' : 'R', repeated);
  }

  /** The AI's ranking of this turn (every placement), computed once per turn. */
  rankingNow(): PlacementRanking {
    if (!this.ranking) {
      const t = this.turn;
      this.ranking = this.ai.rankPlacements({
        board: t.board,
        current: t.current,
        queue: t.queue,
        hold: this.rules.hold ? t.hold : null,
        canHold: t.canHold,
      });
    }
    return this.ranking;
  }

  /** The AI's placement from where the turn stands now (after a hold press, among the placements still open). */
  hint(): RankedPlacement | null {
    const list = this.rankingNow().placements;
    return (this.held ? list.find((p) => p.hold) : list[0]) ?? null;
  }

  cells(): Cell[] {
    return this.mover.cellsOf(this.state);
  }

  ghostCells(): Cell[] {
    const s = this.state;
    return this.mover.cellsOf({ ...s, y: this.mover.dropY(s.rotation, s.x, s.y) });
  }

  resting(): boolean {
    const s = this.state;
    return this.mover.collides(s.rotation, s.x, s.y - 1);
  }

  /** One key press; returns the graded move when the piece locked. */
  act(action: Action): GradedMove | null {
    if (this.over) return null;
    if (this.timed) return this.actTimed(action);
    const m = this.mover;
    switch (action) {
      case 'left':
      case 'right': {
        const q = m.apply(this.state, action);
        if (q) {
          this.state = q;
          this.spin = 'none';
        }
        break;
      }
      case 'cw':
      case 'ccw': {
        // TGM's initial rotation: under 20G a turn before any other input turns the piece as it appears.
        const from = this.rules.gravity === '20G' && this.rules.initialRotation && !this.moved ? m.spawn : this.state;
        const q = m.apply(from, action);
        if (q) {
          this.spin = m.spinAfterTurn(from, action === 'cw');
          this.state = q;
        }
        break;
      }
      case 'softDrop':
        if (this.rules.softDrop && this.rules.gravity !== '20G' && !this.resting()) {
          this.state = { ...this.state, y: this.state.y - 1 };
          this.spin = 'none';
        }
        break;
      case 'hold':
        if (!this.rules.hold || this.held) return null;
        this.held = true;
        {
          const out = this.piece;
          const next = this.hold ?? this.nextPiece();
          this.hold = out;
          this.spawn(next, false);
        }
        return null;
      case 'hardDrop':
        return this.lock();
    }
    this.moved = true;
    return null;
  }

  /** A key under a timed rule set: a press the frames take when they allow it; a hard drop plays the frames to the lock. */
  private actTimed(action: Action): GradedMove | null {
    const t = this.timed!;
    if (action === 'hardDrop') {
      if (this.entry > 0) return null;
      t.dropToLock();
      this.state = t.state;
      return this.lock();
    }
    const press = TIMED_PRESSES[action];
    if (press) t.press(press);
    return null;
  }

  /** Soft drop straight to rest (a soft-drop repeat rate of 0). */
  dropToRest(): void {
    if (this.over || !this.rules.softDrop || this.rules.gravity === '20G') return;
    const q = this.mover.apply(this.state, 'softDrop');
    if (q && q.y !== this.state.y) this.spin = 'none';
    if (q) this.state = q;
    this.moved = true;
  }

  /** Hard drop: the piece locks where its ghost is. */
  protected lock(): GradedMove | null {
    const cells = this.ghostCells();
    const ranking = this.rankingNow();
    const g = gradePlacement(ranking, this.held, cells);
    const move: GradedMove = {
      ...g,
      turn: this.turn,
      unit: ranking.unit,
      played: { piece: this.piece, hold: this.held, cells },
      best: ranking.placements[0],
    };
    this.graded.push(move);
    const placed = lockOnField(this.board, this.paint, cells, this.piece);
    this.paint = placed.paint;
    if (placed.toppedOut) {
      this.lastCells = cells;
      this.end('top-out');
      return move;
    }
    this.board = placed.board;
    this.lines += placed.lines;
    if (placed.lines === 4) this.tetrises++;
    this.lastCells = placed.lines ? [] : cells;
    if (this.rules.timing) this.entry = this.rules.timing.entryDelay.min;
    this.spawn(this.nextPiece());
    return move;
  }

  end(reason: string): void {
    if (this.over) return;
    this.over = true;
    this.overReason = reason;
  }
}

/** The presses of play mode's keys under a timed rule set (no soft drop, no hold: NES has neither). */
const TIMED_PRESSES: Partial<Record<Action, Press>> = { left: 'L', right: 'R', cw: 'A', ccw: 'B' };
/** Frames a timed game makes up at once after the page stalled. */
const MAX_CATCH_UP = 6;
