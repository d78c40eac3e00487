/**
 * Independent reference of the real-game rules (docs/rules.md, "Real games"), written apart from src/rules/ so
 * the two can check each other:
 * - a piece in play is an explicit set of four absolute cells plus what its rotation system needs to turn it
 *   (SRS: a true-rotation pivot and the offset tables; ARS: box pictures written top row first; NES: the
 *   orientation table of the NES disassembly in its own y-down coordinates);
 * - the search is a plain breadth-first search keyed by strings, with no bit rows and no index arithmetic.
 * Only the board conventions (where a piece appears, how high it may go, where it may lock) are restated here.
 */
import { ORIENTATIONS } from '../../src/pieces.js';

export type RefInput = 'left' | 'right' | 'dasLeft' | 'dasRight' | 'cw' | 'ccw' | 'softDrop' | 'hardDrop';
/** The reference's rule sets: the timing-free presets (test/reference/timed-reference.ts has the timed NES game). */
export type RefRules = 'classic' | 'nesUntimed' | 'guideline' | 'tgm' | 'tgm20g';
type XY = [number, number];

/** A board as a set of filled "x,y" strings (y up) with its size. */
export interface RefBoard {
  width: number;
  height: number;
  filled: Set<string>;
}

export function refBoardFromRows(rowsTopFirst: string[]): RefBoard {
  const height = rowsTopFirst.length;
  const filled = new Set<string>();
  rowsTopFirst.forEach((row, i) => {
    for (let x = 0; x < row.length; x++) if (row[x] !== '.') filled.add(`${x},${height - 1 - i}`);
  });
  return { width: rowsTopFirst[0].length, height, filled };
}

export interface RefPiece {
  /** Absolute cells (y up). */
  cells: XY[];
  /** Rotation-system state: orientation number and the anchor the system turns about. */
  rot: number;
  ax: number;
  ay: number;
}

interface System {
  spawn(piece: string, board: RefBoard): RefPiece;
  /** Candidate pieces for a turn, in the order they are tried; `null` entries stop the search (ARS's rule). */
  turns(p: RefPiece, piece: string, clockwise: boolean, blocked: (x: number, y: number) => boolean): RefPiece[];
}

const shift = (p: RefPiece, dx: number, dy: number): RefPiece => ({
  cells: p.cells.map(([x, y]) => [x + dx, y + dy] as XY),
  rot: p.rot,
  ax: p.ax + dx,
  ay: p.ay + dy,
});

// ----- SRS, by true rotation about a pivot and the offset tables of the SRS description on TetrisWiki -----
const SRS_BASE: Record<string, XY[]> = {
  T: [
    [-1, 0],
    [0, 0],
    [1, 0],
    [0, 1],
  ],
  S: [
    [-1, 0],
    [0, 0],
    [0, 1],
    [1, 1],
  ],
  Z: [
    [-1, 1],
    [0, 1],
    [0, 0],
    [1, 0],
  ],
  L: [
    [-1, 0],
    [0, 0],
    [1, 0],
    [1, 1],
  ],
  J: [
    [-1, 0],
    [0, 0],
    [1, 0],
    [-1, 1],
  ],
  I: [
    [-1, 0],
    [0, 0],
    [1, 0],
    [2, 0],
  ],
  O: [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ],
};
const SRS_OFFSETS: Record<string, XY[][]> = {
  JLSTZ: [
    [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ],
    [
      [0, 0],
      [1, 0],
      [1, -1],
      [0, 2],
      [1, 2],
    ],
    [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ],
    [
      [0, 0],
      [-1, 0],
      [-1, -1],
      [0, 2],
      [-1, 2],
    ],
  ],
  I: [
    [
      [0, 0],
      [-1, 0],
      [2, 0],
      [-1, 0],
      [2, 0],
    ],
    [
      [-1, 0],
      [0, 0],
      [0, 0],
      [0, 1],
      [0, -2],
    ],
    [
      [-1, 1],
      [1, 1],
      [-2, 1],
      [1, 0],
      [-2, 0],
    ],
    [
      [0, 1],
      [0, 1],
      [0, 1],
      [0, -1],
      [0, 2],
    ],
  ],
  O: [[[0, 0]], [[0, -1]], [[-1, -1]], [[-1, 0]]],
};
const srsCells = (piece: string, rot: number, ax: number, ay: number): XY[] =>
  SRS_BASE[piece].map(([x, y]) => {
    let [u, v] = [x, y];
    for (let k = 0; k < rot; k++) [u, v] = [v, -u]; // clockwise quarter turn about the pivot
    return [ax + u, ay + v] as XY;
  });

const SRS: System = {
  spawn(piece, board) {
    const base = srsCells(piece, 0, 0, 0);
    const boxWidth = piece === 'I' ? 4 : piece === 'O' ? 2 : 3;
    const left = Math.floor((board.width - boxWidth) / 2);
    const dx = left - Math.min(...base.map((c) => c[0]));
    const dy = 20 - Math.min(...base.map((c) => c[1]));
    return { cells: srsCells(piece, 0, dx, dy), rot: 0, ax: dx, ay: dy };
  },
  turns(p, piece, clockwise) {
    const to = (p.rot + (clockwise ? 1 : 3)) % 4;
    const table = SRS_OFFSETS[piece === 'I' || piece === 'O' ? piece : 'JLSTZ'];
    return table[p.rot].map((from, i) => {
      const ax = p.ax + from[0] - table[to][i][0];
      const ay = p.ay + from[1] - table[to][i][1];
      return { cells: srsCells(piece, to, ax, ay), rot: to, ax, ay };
    });
  },
};

// ----- ARS: every state drawn in its box, top row first; anchor = the box's top-left cell -----
const ARS_DRAWN: Record<string, string[][]> = {
  I: [
    ['....', 'IIII', '....', '....'],
    ['..I.', '..I.', '..I.', '..I.'],
  ],
  O: [['OO', 'OO']],
  T: [
    ['...', 'TTT', '.T.'],
    ['.T.', 'TT.', '.T.'],
    ['...', '.T.', 'TTT'],
    ['.T.', '.TT', '.T.'],
  ],
  S: [
    ['...', '.SS', 'SS.'],
    ['S..', 'SS.', '.S.'],
  ],
  Z: [
    ['...', 'ZZ.', '.ZZ'],
    ['..Z', '.ZZ', '.Z.'],
  ],
  L: [
    ['...', 'LLL', 'L..'],
    ['LL.', '.L.', '.L.'],
    ['...', '..L', 'LLL'],
    ['.L.', '.L.', '.LL'],
  ],
  J: [
    ['...', 'JJJ', '..J'],
    ['.J.', '.J.', 'JJ.'],
    ['...', 'J..', 'JJJ'],
    ['.JJ', '.J.', '.J.'],
  ],
};
/** Cells of a drawn state whose box's top-left cell is at (ax, ay), y up. */
const arsCells = (piece: string, rot: number, ax: number, ay: number): XY[] => {
  const out: XY[] = [];
  ARS_DRAWN[piece][rot].forEach((line, r) => {
    for (let c = 0; c < line.length; c++) if (line[c] !== '.') out.push([ax + c, ay - r]);
  });
  return out;
};

const ARS: System = {
  spawn(piece, board) {
    const drawn = ARS_DRAWN[piece][0];
    const left = Math.floor((board.width - drawn[0].length) / 2);
    const topRow = drawn.findIndex((line) => /[^.]/.test(line));
    const ay = board.height - 1 + topRow; // the piece's highest cell in the board's top row
    return { cells: arsCells(piece, 0, left, ay), rot: 0, ax: left, ay };
  },
  turns(p, piece, clockwise, blocked) {
    const n = ARS_DRAWN[piece].length;
    if (n === 1) return [];
    const to = (p.rot + (clockwise ? 1 : n - 1)) % n;
    const at = (dx: number) => ({ cells: arsCells(piece, to, p.ax + dx, p.ay), rot: to, ax: p.ax + dx, ay: p.ay });
    const basic = at(0);
    if (piece === 'I') return [basic];
    if ('LJT'.includes(piece) && (p.rot === 0 || p.rot === 2) && basic.cells.some(([x, y]) => blocked(x, y))) {
      // Scan the 3 × 3 box in reading order; the first cell of the new state that is blocked decides.
      const drawn = ARS_DRAWN[piece][to];
      scan: for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) {
          if (drawn[r][c] === '.') continue;
          if (blocked(p.ax + c, p.ay - r)) {
            if (c === 1) return [basic];
            break scan;
          }
        }
      }
    }
    return [basic, at(1), at(-1)];
  },
};

// ----- NES: the orientation table of the NES disassembly, (x, y) with y DOWN, about the rotation centre -----
const NES_TABLE: XY[][] = [
  [
    [-1, 0],
    [0, 0],
    [1, 0],
    [0, -1],
  ], // 00 T up
  [
    [0, -1],
    [0, 0],
    [1, 0],
    [0, 1],
  ], // 01 T right
  [
    [-1, 0],
    [0, 0],
    [1, 0],
    [0, 1],
  ], // 02 T down (spawn)
  [
    [0, -1],
    [-1, 0],
    [0, 0],
    [0, 1],
  ], // 03 T left
  [
    [0, -1],
    [0, 0],
    [-1, 1],
    [0, 1],
  ], // 04 J left
  [
    [-1, -1],
    [-1, 0],
    [0, 0],
    [1, 0],
  ], // 05 J up
  [
    [0, -1],
    [1, -1],
    [0, 0],
    [0, 1],
  ], // 06 J right
  [
    [-1, 0],
    [0, 0],
    [1, 0],
    [1, 1],
  ], // 07 J down (spawn)
  [
    [-1, 0],
    [0, 0],
    [0, 1],
    [1, 1],
  ], // 08 Z horizontal (spawn)
  [
    [1, -1],
    [0, 0],
    [1, 0],
    [0, 1],
  ], // 09 Z vertical
  [
    [-1, 0],
    [0, 0],
    [-1, 1],
    [0, 1],
  ], // 0A O (spawn)
  [
    [0, 0],
    [1, 0],
    [-1, 1],
    [0, 1],
  ], // 0B S horizontal (spawn)
  [
    [0, -1],
    [0, 0],
    [1, 0],
    [1, 1],
  ], // 0C S vertical
  [
    [0, -1],
    [0, 0],
    [0, 1],
    [1, 1],
  ], // 0D L right
  [
    [-1, 0],
    [0, 0],
    [1, 0],
    [-1, 1],
  ], // 0E L down (spawn)
  [
    [-1, -1],
    [0, -1],
    [0, 0],
    [0, 1],
  ], // 0F L left
  [
    [1, -1],
    [-1, 0],
    [0, 0],
    [1, 0],
  ], // 10 L up
  [
    [0, -2],
    [0, -1],
    [0, 0],
    [0, 1],
  ], // 11 I vertical
  [
    [-2, 0],
    [-1, 0],
    [0, 0],
    [1, 0],
  ], // 12 I horizontal (spawn)
];
/** The disassembly's rotation table: [counter-clockwise (B), clockwise (A)] successor of each orientation. */
const NES_ROTATE: [number, number][] = [
  [3, 1],
  [0, 2],
  [1, 3],
  [2, 0],
  [7, 5],
  [4, 6],
  [5, 7],
  [6, 4],
  [9, 9],
  [8, 8],
  [10, 10],
  [12, 12],
  [11, 11],
  [16, 14],
  [13, 15],
  [14, 16],
  [15, 13],
  [18, 18],
  [17, 17],
];
const NES_SPAWN: Record<string, number> = { T: 2, J: 7, Z: 8, O: 10, S: 11, L: 14, I: 18 };

/**
 * NES anchors are the rotation centre: ax its column, ay MINUS its NES row (rows count down from the top), so a
 * shift down by one (dy = -1) is the next NES row. Cells come out y up.
 */
const nesCells = (orientation: number, cx: number, row: number, height: number): XY[] =>
  NES_TABLE[orientation].map(([dx, dy]) => [cx + dx, height - 1 - (row + dy)] as XY);

function nesSystem(height: () => number): System {
  return {
    spawn(piece, board) {
      const o = NES_SPAWN[piece];
      const cx = Math.floor(board.width / 2);
      return { cells: nesCells(o, cx, 0, board.height), rot: o, ax: cx, ay: 0 };
    },
    turns(p, _piece, clockwise) {
      const o = NES_ROTATE[p.rot][clockwise ? 1 : 0];
      if (o === p.rot) return [];
      return [{ cells: nesCells(o, p.ax, -p.ay, height()), rot: o, ax: p.ax, ay: p.ay }];
    },
  };
}

// ----- classic: the library's orientations; a turn keeps the leftmost column and lowest row -----
function classicCells(pieceIndex: number, k: number, left: number, bottom: number): XY[] {
  const o = ORIENTATIONS[pieceIndex][k];
  const out: XY[] = [];
  for (let c = 0; c < o.width; c++) for (let r = o.bot[c]; r < o.top[c]; r++) out.push([left + c, bottom + r]);
  return out;
}
const shape = (cells: XY[]) => {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells
    .map(([x, y]) => `${x - mx},${y - my}`)
    .sort()
    .join(' ');
};

const CLASSIC: System = {
  spawn(piece, board) {
    const id = 'IOTSZLJ'.indexOf(piece);
    const left = Math.floor((board.width - ORIENTATIONS[id][0].width) / 2);
    return { cells: classicCells(id, 0, left, board.height), rot: 0, ax: left, ay: board.height };
  },
  turns(p, piece, clockwise) {
    const id = 'IOTSZLJ'.indexOf(piece);
    const n = ORIENTATIONS[id].length;
    if (n === 1) return [];
    // The orientation whose shape is this one turned a quarter (clockwise: (x, y) -> (y, -x)).
    const turned = shape(p.cells.map(([x, y]) => (clockwise ? [y, -x] : [-y, x]) as XY));
    for (let k = 0; k < n; k++) {
      const cells = classicCells(id, k, p.ax, p.ay);
      if (shape(cells) === turned) return [{ cells, rot: k, ax: p.ax, ay: p.ay }];
    }
    throw new Error('classic turn found no orientation');
  },
};

// ----- the games -----
interface Game {
  system: System;
  /** The piece may occupy rows below this while moving. */
  top: number;
  /** Every cell of a placement must be below this. */
  lockTop: number;
  softDrop: boolean;
  twentyG: boolean;
}

function gameOf(rules: RefRules, board: RefBoard): Game {
  const h = board.height;
  switch (rules) {
    case 'classic':
      return { system: CLASSIC, top: h + 4, lockTop: h, softDrop: false, twentyG: false };
    case 'nesUntimed':
      return { system: nesSystem(() => h), top: h + 2, lockTop: h, softDrop: false, twentyG: false };
    case 'guideline':
      return { system: SRS, top: 40, lockTop: 40, softDrop: true, twentyG: false };
    case 'tgm':
      return { system: ARS, top: h + 2, lockTop: h, softDrop: true, twentyG: false };
    case 'tgm20g':
      return { system: ARS, top: h + 2, lockTop: h, softDrop: false, twentyG: true };
  }
}

/** The piece simulator: what each key does to a piece in play. */
export class RefSimulator {
  readonly game: Game;
  /** filled[y][x], rows up to the top the piece may reach. */
  private readonly grid: boolean[][];
  constructor(
    readonly board: RefBoard,
    readonly piece: string,
    readonly rules: RefRules,
  ) {
    this.game = gameOf(rules, board);
    this.grid = Array.from({ length: this.game.top }, (_, y) =>
      Array.from({ length: board.width }, (_, x) => board.filled.has(`${x},${y}`)),
    );
  }

  blocked = (x: number, y: number): boolean =>
    x < 0 || x >= this.board.width || y < 0 || y >= this.game.top || this.grid[y][x];

  fits(p: RefPiece): boolean {
    return p.cells.every(([x, y]) => !this.blocked(x, y));
  }

  fall(p: RefPiece): RefPiece {
    let q = p;
    for (;;) {
      const down = shift(q, 0, -1);
      if (!this.fits(down)) return q;
      q = down;
    }
  }

  /** The piece as it appears (under 20G already fallen), or null for a top-out. */
  start(): RefPiece | null {
    const p = this.game.system.spawn(this.piece, this.board);
    if (!this.fits(p)) return null;
    return this.game.twentyG ? this.fall(p) : p;
  }

  rawSpawn(): RefPiece {
    return this.game.system.spawn(this.piece, this.board);
  }

  /** One key; null when it changes nothing. `first` marks the first key under 20G (initial rotation). */
  press(p: RefPiece, key: RefInput, first = false): RefPiece | null {
    const g = this.game;
    const after = (q: RefPiece) => (g.twentyG ? this.fall(q) : q);
    if (key === 'cw' || key === 'ccw') {
      const from = g.twentyG && first ? this.rawSpawn() : p;
      for (const cand of g.system.turns(from, this.piece, key === 'cw', this.blocked))
        if (this.fits(cand)) return after(cand);
      return null;
    }
    if (key === 'left' || key === 'right') {
      const q = shift(p, key === 'left' ? -1 : 1, 0);
      return this.fits(q) ? after(q) : null;
    }
    if (key === 'dasLeft' || key === 'dasRight') {
      let q = p;
      let moved = false;
      for (;;) {
        const n = shift(q, key === 'dasLeft' ? -1 : 1, 0);
        if (!this.fits(n)) break;
        q = after(n);
        moved = true;
      }
      return moved ? q : null;
    }
    if (key === 'softDrop') {
      if (!g.softDrop) return null;
      const q = this.fall(p);
      return q.cells[0][1] === p.cells[0][1] ? null : q;
    }
    return null;
  }

  /** The cells a key sequence locks (it must end with hardDrop), or null when it is not a legal sequence. */
  replay(inputs: readonly string[]): XY[] | null {
    let p = this.start();
    if (!p || inputs.length === 0 || inputs[inputs.length - 1] !== 'hardDrop') return null;
    for (let i = 0; i < inputs.length - 1; i++) {
      const q = this.press(p, inputs[i] as RefInput, i === 0);
      if (!q) return null;
      p = q;
    }
    const landed = this.fall(p);
    if (landed.cells.some(([, y]) => y >= this.game.lockTop)) return null;
    return landed.cells;
  }
}

export const cellKey = (cells: readonly (readonly number[])[]): string =>
  [...cells]
    .map(([x, y]) => `${x},${y}`)
    .sort()
    .join(' ');

const ALL_KEYS: RefInput[] = ['left', 'right', 'dasLeft', 'dasRight', 'cw', 'ccw', 'softDrop'];

/** Every reachable placement (as a cell key) with the fewest presses that reach it, hardDrop included. */
export function refReachable(board: RefBoard, piece: string, rules: RefRules): Map<string, number> {
  const sim = new RefSimulator(board, piece, rules);
  const out = new Map<string, number>();
  const start = sim.start();
  if (!start) return out;
  const stateKey = (p: RefPiece) => `${p.rot}|${cellKey(p.cells)}`;
  const seen = new Set<string>([stateKey(start)]);
  let frontier: RefPiece[] = [start];
  for (let depth = 0; frontier.length > 0; depth++) {
    const next: RefPiece[] = [];
    for (const p of frontier) {
      const landed = sim.fall(p);
      if (landed.cells.every(([, y]) => y < sim.game.lockTop)) {
        const k = cellKey(landed.cells);
        if (!out.has(k)) out.set(k, depth + 1);
      }
      for (const key of ALL_KEYS) {
        const q = sim.press(p, key, depth === 0);
        if (!q) continue;
        const k = stateKey(q);
        if (seen.has(k)) continue;
        seen.add(k);
        next.push(q);
      }
    }
    frontier = next;
  }
  return out;
}
