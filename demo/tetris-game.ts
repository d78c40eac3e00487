/**
 * The demo's real game for watch mode: `TetrisAI.nextMove` on a 10 x 20 board under a rule set (docs/game.md), with
 * the rule set's previews and hold box. The AI answers with cells; the page locks them with `Board.place` and keeps
 * a coloured copy for the picture, checked against the library's board after every move. Optional garbage (a row
 * with one hole pushed in from below every few pieces) makes the AI leave its perfect stack and recover.
 */
import { Board, RULE_SETS, type Piece, type RuleSetName, type TetrisAI } from 'stackrank';
import { BaseGame, type Cell, type GameOptions } from './game.js';

export const GAME_WIDTH = 10;
export const GAME_ROWS = 20;

/** A small seeded generator for the garbage holes (mulberry32). */
function holeGenerator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class TetrisGame extends BaseGame {
  readonly columns = GAME_WIDTH;
  readonly well = false;
  board = Board.empty(GAME_WIDTH, GAME_ROWS);
  canHold: boolean;
  private readonly previews: number;
  private readonly nextHole: () => number;

  constructor(
    private readonly ai: TetrisAI,
    readonly rules: RuleSetName,
    options: GameOptions,
    /** A garbage row every this many pieces (0: never). */
    readonly garbageEvery: number,
  ) {
    super(options, GAME_ROWS, GAME_WIDTH);
    const set = RULE_SETS[rules];
    this.previews = set.previews;
    this.hold = set.hold ? null : undefined;
    this.canHold = set.hold;
    this.nextHole = holeGenerator(options.seed ^ 0x5eed);
  }

  step(): boolean {
    if (this.over) return false;
    this.fillQueue(this.previews + 3);
    const current = this.queue[0] as Piece;
    const queue = this.queue.slice(1, 1 + this.previews);
    const hold = this.hold ?? null;
    const move = this.ai.nextMove({
      board: this.board,
      current,
      queue,
      hold: this.hold === undefined ? null : hold,
      canHold: this.canHold,
    });
    if (!move || move.cells.some(([, y]) => y >= GAME_ROWS)) {
      this.over = true;
      return false;
    }
    let used = 1; // pieces taken from the queue
    if (move.hold) {
      if (hold === null) used = 2; // the current piece goes to the box, the next one is played
      this.hold = current;
    }
    const placed = this.board.place(move.cells);
    for (const [x, y] of move.cells) this.cells[y][x] = move.piece;
    const kept = this.cells.filter((row) => row.some((c) => c === null));
    const cleared = this.cells.length - kept.length;
    while (kept.length < GAME_ROWS) kept.push(new Array<Cell>(GAME_WIDTH).fill(null));
    this.cells = kept;
    if (cleared !== placed.lines)
      throw new Error(`demo board out of step: cleared ${cleared}, the board ${placed.lines}`);
    this.board = placed.board;
    this.lastCells = cleared ? [] : move.cells.map(([x, y]) => [x, y]);
    this.lines += cleared;
    if (cleared === 4) {
      this.tetrises++;
      this.lastTetrisAt = this.pieces + 1;
    }
    this.aiMode = move.mode;
    this.rank = move.mode === 'stack' ? move.value : NaN;
    if (move.mode === 'recover') this.recoverMoves++;
    // The held piece may be played later: count the piece placed, and keep the queue's order.
    for (let i = 0; i < used; i++) this.queue = this.queue.slice(1);
    this.fillQueue(this.previews + 3);
    this.pieces++;
    if (move.piece === 'I') {
      this.droughts[Math.min(this.sinceI, this.droughts.length - 1)]++;
      this.sinceI = 0;
    } else {
      this.sinceI++;
    }
    if (this.garbageEvery > 0 && this.pieces % this.garbageEvery === 0) this.addGarbage();
    this.holes = this.board.holes();
    this.check();
    // The piece is placed, but garbage may have pushed the stack off the top: the page ends a game on false.
    return !this.over;
  }

  /** Pushes a garbage row with one hole in from below; the game is over when the stack is pushed off the top. */
  private addGarbage(): void {
    const hole = Math.floor(this.nextHole() * GAME_WIDTH);
    if (this.board.rows[GAME_ROWS - 1] !== 0) {
      this.over = true;
      return;
    }
    const full = (1 << GAME_WIDTH) - 1;
    this.board = Board.fromBits(
      [full & ~(1 << hole), ...this.board.rows.slice(0, GAME_ROWS - 1)],
      GAME_WIDTH,
      GAME_ROWS,
    );
    const row = new Array<Cell>(GAME_WIDTH).fill('X');
    row[hole] = null;
    this.cells = [row, ...this.cells.slice(0, GAME_ROWS - 1)];
    this.lastCells = this.lastCells.map(([x, y]) => [x, y + 1]);
  }

  /** The drawn cells must be the library's board. */
  private check(): void {
    for (let r = 0; r < GAME_ROWS; r++) {
      let mask = 0;
      for (let c = 0; c < GAME_WIDTH; c++) if (this.cells[r][c]) mask |= 1 << c;
      if (mask !== this.board.rows[r]) throw new Error(`demo board out of step with the game in row ${r}`);
    }
  }
}
