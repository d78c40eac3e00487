/**
 * The demo's second mode: the full-board player (docs/fullboard.md) on a 10 x 20 board, one move at a time with
 * `bestMove(board, piece, { weights, next })`. Like the stacking game it keeps a coloured cell grid for the picture,
 * checked against the library's board after every move.
 */
import { Board, bestMove, type Piece, type PresetName } from 'stackrank';
import { BaseGame, type Cell, type GameOptions } from './game.js';

export const FULL_WIDTH = 10;
export const FULL_ROWS = 20;

export class FullGame extends BaseGame {
  readonly columns = FULL_WIDTH;
  readonly well = false;
  board = Board.empty(FULL_WIDTH, FULL_ROWS);

  constructor(
    options: GameOptions,
    readonly preset: PresetName,
  ) {
    super(options, FULL_ROWS, FULL_WIDTH);
  }

  /** Plays the current piece (2-ply over the next piece when lookahead >= 1). False when the game is over. */
  async step(lookahead: number): Promise<boolean> {
    if (this.over) return false;
    this.fillQueue(2);
    const piece = this.queue[0] as Piece;
    const move = await bestMove(this.board, piece, {
      weights: this.preset,
      next: lookahead >= 1 ? this.queue[1] : undefined,
    });
    if (!move) {
      this.over = true;
      return false;
    }
    // The move's cells are where the piece landed, before full rows are removed.
    const placed: [number, number][] = move.cells.map(([x, y]) => [x, y]);
    for (const [c, r] of placed) this.cells[r][c] = piece;
    // Remove the full rows, as the library did.
    const kept = this.cells.filter((row) => row.some((cell) => cell === null));
    const cleared = this.cells.length - kept.length;
    while (kept.length < FULL_ROWS) kept.push(new Array<Cell>(FULL_WIDTH).fill(null));
    this.cells = kept;
    if (cleared !== move.linesCleared)
      throw new Error(
        `demo board out of step with the player: cleared ${cleared} rows, the player says ${move.linesCleared}`,
      );
    this.board = move.board;
    for (let r = 0; r < FULL_ROWS; r++) {
      let mask = 0;
      for (let c = 0; c < FULL_WIDTH; c++) if (this.cells[r][c]) mask |= 1 << c;
      if (mask !== this.board.rows[r]) throw new Error(`demo board out of step with the player in row ${r}`);
    }
    this.lastCells = cleared ? [] : placed;
    this.lines += cleared;
    if (cleared === 4) {
      this.tetrises++;
      this.lastTetrisAt = this.pieces + 1;
    }
    this.played(piece);
    return true;
  }
}
