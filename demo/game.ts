/**
 * The demo's games. StackGame is the stacking game of docs/rules.md driven by `ai.bestPlacement` in plain JavaScript.
 * The AI only needs the column heights; the cell grid (which piece filled which cell) exists for the picture and is
 * checked against the heights the AI returns after every move. BaseGame holds what both modes share: the piece
 * queue from a randomizer, the counters and the I-drought histogram.
 */
import {
  ORIENTATIONS,
  PIECES,
  createRandomizer,
  type BestPlacement,
  type GameMode,
  type Piece,
  type Randomizer,
  type RandomizerName,
  type StackingAI,
} from 'stackrank';

export const WIDTH = 9; // stacking columns; column 9 is the well
export const ROWS = 20;
/** Longest drought (pieces between two I's) with its own bar; longer ones share the last bar. */
export const DROUGHT_BINS = 25;

/** A drawn cell: a piece's colour, 'X' for garbage, null for empty. */
export type Cell = Piece | 'X' | null;

export interface GameOptions {
  randomizer: RandomizerName;
  seed: number;
}

export abstract class BaseGame {
  /** Columns drawn, the well included. */
  abstract readonly columns: number;
  /** Whether the last column is the well. */
  abstract readonly well: boolean;
  /** cells[row][col], row 0 at the bottom. */
  cells: Cell[][];
  pieces = 0;
  tetrises = 0;
  lines = 0;
  /** Rank of the current surface (stacking game; the game AI's stack moves), NaN where there is none. */
  rank = NaN;
  /** The game AI's mode for the last move, null for the other players. */
  aiMode: GameMode | null = null;
  /** The hold box (the game AI under a rule set with hold), undefined where the game has none. */
  hold: Piece | null | undefined = undefined;
  /** Holes in the board now (the game AI's real board). */
  holes = 0;
  /** Moves the game AI made in recover mode. */
  recoverMoves = 0;
  over = false;
  /** Pieces since the last I (the drought in progress). */
  sinceI = 0;
  droughts = new Array<number>(DROUGHT_BINS + 1).fill(0);
  /** Cells of the last move, for a highlight. */
  lastCells: [number, number][] = [];
  lastTetrisAt = -1;
  /** queue[0] is the current piece. */
  queue = '';
  private readonly randomizer: Randomizer;

  constructor(
    readonly options: GameOptions,
    readonly rows: number,
    drawnColumns: number,
  ) {
    this.randomizer = createRandomizer(options.randomizer, { seed: options.seed });
    this.cells = Array.from({ length: rows }, () => new Array<Cell>(drawnColumns).fill(null));
    this.fillQueue(8);
  }

  /** Makes sure at least `n` pieces are known (the current one plus previews). */
  fillQueue(n: number): void {
    if (this.queue.length < n) this.queue += this.randomizer.take(n - this.queue.length);
  }

  /** Plays the current piece; false when the game is over (also after a piece that ended it). */
  abstract step(lookahead: number): boolean | Promise<boolean>;

  /** Book-keeping after the current piece was played. */
  protected played(piece: Piece): void {
    this.queue = this.queue.slice(1);
    this.fillQueue(8);
    this.pieces++;
    if (piece === 'I') {
      this.droughts[Math.min(this.sinceI, DROUGHT_BINS)]++;
      this.sinceI = 0;
    } else {
      this.sinceI++;
    }
  }
}

export class StackGame extends BaseGame {
  readonly columns = WIDTH + 1;
  readonly well = true;
  heights: number[] = new Array(WIDTH).fill(0);

  constructor(
    private readonly ai: StackingAI,
    options: GameOptions,
  ) {
    super(options, ROWS, WIDTH + 1);
  }

  step(lookahead: number): boolean {
    if (this.over) return false;
    this.fillQueue(Math.max(8, lookahead + 1));
    const move = this.ai.bestPlacement(this.heights, this.queue.slice(0, lookahead + 1), lookahead);
    if (!move) {
      this.over = true;
      return false;
    }
    const piece = this.queue[0] as Piece;
    this.apply(piece, move);
    this.rank = move.rank;
    this.played(piece);
    return true;
  }

  private apply(piece: Piece, move: BestPlacement): void {
    if (move.tetris) {
      // The I fills the well's bottom four rows, completing rows 0..3 (every column is >= 4 high): they vanish.
      this.cells.splice(0, 4);
      for (let i = 0; i < 4; i++) this.cells.push(new Array<Cell>(WIDTH + 1).fill(null));
      this.tetrises++;
      this.lines += 4;
      this.lastTetrisAt = this.pieces + 1;
      this.lastCells = [];
    } else {
      const o = ORIENTATIONS[PIECES.indexOf(piece)][move.orientation];
      const x = move.column;
      const base = this.heights[x] - o.bot[0];
      const cells: [number, number][] = [];
      for (let j = 0; j < o.width; j++) {
        for (let r = base + o.bot[j]; r < base + o.top[j]; r++) {
          this.cells[r][x + j] = piece;
          cells.push([x + j, r]);
        }
      }
      this.lastCells = cells;
    }
    this.heights = move.heights.slice();
    // The drawn cells must agree with the heights the AI computed: the top filled cell of each column.
    for (let c = 0; c < WIDTH; c++) {
      let top = 0;
      for (let r = ROWS - 1; r >= 0 && !top; r--) if (this.cells[r][c]) top = r + 1;
      if (top !== this.heights[c])
        throw new Error(`demo board out of step with the AI in column ${c}: drew ${top}, AI says ${this.heights[c]}`);
    }
  }
}
