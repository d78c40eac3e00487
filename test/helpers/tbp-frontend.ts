/**
 * A TBP front end for tests, written from the tbp-spec alone and apart from src/tbp/: piece locations turned into
 * cells by the spec's own definition (pictures below), a 10 × 40 board, hold and queue as the spec infers them, the
 * combo and back-to-back counters, and the reference rules' reachability (test/reference/rules-reference.ts).
 */
import { type RefBoard, cellKey, refReachable } from '../reference/rules-reference.js';

export type Orientation = 'north' | 'east' | 'south' | 'west';
export const ORIENTATION_NAMES: readonly Orientation[] = ['north', 'east', 'south', 'west'];
export interface Location {
  type: string;
  orientation: Orientation;
  x: number;
  y: number;
}

/**
 * Each piece in each orientation as the spec defines its centre ("SRS true rotation": J L S T Z turn about a fixed
 * cell; the O's centre is its bottom-left mino north, top-left east, top-right south, bottom-right west; the I's is
 * its middle-left mino north, middle-top east, middle-right south, middle-bottom west). Rows top first; `@` is the
 * centre (a mino in every case), `#` the other minos; the orientations are north, east, south, west, each turned a
 * quarter clockwise from the one before.
 */
const PICTURES: Record<string, string[][]> = {
  T: [
    ['.#.', '#@#'],
    ['#.', '@#', '#.'],
    ['#@#', '.#.'],
    ['.#', '#@', '.#'],
  ],
  L: [
    ['..#', '#@#'],
    ['#.', '@.', '##'],
    ['#@#', '#..'],
    ['##', '.@', '.#'],
  ],
  J: [
    ['#..', '#@#'],
    ['##', '@.', '#.'],
    ['#@#', '..#'],
    ['.#', '.@', '##'],
  ],
  S: [
    ['.##', '#@.'],
    ['#.', '@#', '.#'],
    ['.@#', '##.'],
    ['#.', '#@', '.#'],
  ],
  Z: [
    ['##.', '.@#'],
    ['.#', '@#', '#.'],
    ['#@.', '.##'],
    ['.#', '#@', '#.'],
  ],
  O: [
    ['##', '@#'],
    ['@#', '##'],
    ['#@', '##'],
    ['##', '#@'],
  ],
  I: [['#@##'], ['#', '@', '#', '#'], ['##@#'], ['#', '#', '@', '#']],
};

/** The four cells [x, y] of a location (y up), from the pictures. */
export function specCells(loc: Location): [number, number][] {
  const rows = PICTURES[loc.type][ORIENTATION_NAMES.indexOf(loc.orientation)];
  let cx = 0;
  let cy = 0;
  rows.forEach((row, r) => {
    const x = row.indexOf('@');
    if (x >= 0) [cx, cy] = [x, rows.length - 1 - r];
  });
  const cells: [number, number][] = [];
  rows.forEach((row, r) => {
    for (let x = 0; x < row.length; x++)
      if (row[x] !== '.') cells.push([loc.x + x - cx, loc.y + rows.length - 1 - r - cy]);
  });
  return cells;
}

export const WIDTH = 10;
export const HEIGHT = 40;
/** The visible field: a piece that stays above it once rows clear ends the game (the library's simulator's rule). */
export const FIELD = 20;

/** One player's game as the front end keeps it. */
export class FrontendGame {
  /** filled[y][x], y = 0 the bottom row. */
  readonly filled: boolean[][] = Array.from({ length: HEIGHT }, () => new Array<boolean>(WIDTH).fill(false));
  queue: string[] = [];
  hold: string | null = null;
  combo = 0;
  backToBack = false;
  pieces = 0;
  lines = 0;
  readonly clears = [0, 0, 0, 0, 0];
  readonly spins = { mini: 0, full: 0 };

  /** The start message of this position (the board bottom row first, as the spec writes it). */
  startMessage(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      type: 'start',
      board: this.filled.map((row) => row.map((f) => (f ? 'G' : null))),
      queue: [...this.queue],
      hold: this.hold,
      combo: this.combo,
      back_to_back: this.backToBack,
      ...extra,
    };
  }

  /** Why the move cannot be played here, or null: the piece, the cells, resting, reachable from spawn. */
  problem(move: { location: Location; spin: string }): string | null {
    const { location } = move;
    if (!ORIENTATION_NAMES.includes(location.orientation)) return `orientation ${location.orientation}`;
    const usable = [this.queue[0], this.hold ?? this.queue[1]];
    if (!usable.includes(location.type)) return `piece ${location.type}, not one of ${usable.join(' ')}`;
    const cells = specCells(location);
    for (const [x, y] of cells) {
      if (x < 0 || x >= WIDTH || y < 0 || y >= HEIGHT) return `cell (${x}, ${y}) off the board`;
      if (this.filled[y][x]) return `cell (${x}, ${y}) is filled`;
    }
    if (!cells.some(([x, y]) => y === 0 || this.filled[y - 1][x])) return 'it does not rest';
    if (!refReachable(this.refBoard(), location.type, 'guideline').has(cellKey(cells))) return 'not reachable';
    return null;
  }

  private refBoard(): RefBoard {
    const filled = new Set<string>();
    for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) if (this.filled[y][x]) filled.add(`${x},${y}`);
    return { width: WIDTH, height: HEIGHT, filled };
  }

  /** Plays a checked move: lock, clear, hold and queue as the spec infers them, counters; the lines cleared. */
  play(move: { location: Location; spin: string }): number {
    const { location, spin } = move;
    for (const [x, y] of specCells(location)) this.filled[y][x] = true;
    const kept = this.filled.filter((row) => !row.every(Boolean));
    const lines = HEIGHT - kept.length;
    while (kept.length < HEIGHT) kept.push(new Array<boolean>(WIDTH).fill(false));
    this.filled.splice(0, HEIGHT, ...kept);
    if (location.type === this.queue[0]) this.queue.shift();
    else if (this.hold !== null) this.hold = this.queue.shift()!;
    else {
      this.hold = this.queue[0];
      this.queue.splice(0, 2);
    }
    this.pieces++;
    this.lines += lines;
    this.clears[lines]++;
    if (spin === 'mini' || spin === 'full') this.spins[spin]++;
    if (lines > 0) {
      this.combo++;
      this.backToBack = lines === 4 || spin !== 'none';
    } else this.combo = 0;
    return lines;
  }

  /** Whether a cell stands above the visible field (the game is over). */
  toppedOut(): boolean {
    return this.filled.slice(FIELD).some((row) => row.some(Boolean));
  }
}
