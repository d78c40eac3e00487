/**
 * Independent reference of NES Tetris as it is played, frame by frame (docs/rules.md, "Time: NES Tetris as it is
 * played"), written apart from src/ and the kernel so the two can check each other:
 * - the pieces are the NES disassembly's orientation table, written out again in its own coordinates (x right,
 *   y DOWN, about the rotation centre), with its rotation table;
 * - a frame is the game's own order: the shift (tapped on an input frame of the timeline, or NES's DAS counter
 *   for a held direction), the turn, then the fall timer, which moves the piece down when it reaches the level's
 *   frames per row and locks it where that move is blocked;
 * - states are plain objects keyed by strings, every cell checked against a set of filled cells.
 * Only the board conventions (a piece appears with its centre in column ⌊width / 2⌋ of the top row; two rows above
 * the board are open to it; it must lock inside the board) and the NES gravity table are restated here.
 */

type XY = [number, number];

/** A board as a set of filled "x,y" strings, y counted UP from the bottom row (0), with its size. */
export interface TimedRefBoard {
  width: number;
  height: number;
  filled: Set<string>;
}

export function timedRefBoard(rowsTopFirst: readonly string[]): TimedRefBoard {
  const height = rowsTopFirst.length;
  const filled = new Set<string>();
  rowsTopFirst.forEach((row, i) => {
    for (let x = 0; x < row.length; x++) if (row[x] !== '.') filled.add(`${x},${height - 1 - i}`);
  });
  return { width: rowsTopFirst[0].length, height, filled };
}

// The disassembly's orientation table: per orientation, the four cells as "dx dy" (y down) about the centre.
const ORIENTATIONS = [
  '-1 0, 0 0, 1 0, 0 -1', // 00 T up
  '0 -1, 0 0, 1 0, 0 1', // 01 T right
  '-1 0, 0 0, 1 0, 0 1', // 02 T down (spawn)
  '0 -1, -1 0, 0 0, 0 1', // 03 T left
  '0 -1, 0 0, -1 1, 0 1', // 04 J left
  '-1 -1, -1 0, 0 0, 1 0', // 05 J up
  '0 -1, 1 -1, 0 0, 0 1', // 06 J right
  '-1 0, 0 0, 1 0, 1 1', // 07 J down (spawn)
  '-1 0, 0 0, 0 1, 1 1', // 08 Z horizontal (spawn)
  '1 -1, 0 0, 1 0, 0 1', // 09 Z vertical
  '-1 0, 0 0, -1 1, 0 1', // 0A O (spawn)
  '0 0, 1 0, -1 1, 0 1', // 0B S horizontal (spawn)
  '0 -1, 0 0, 1 0, 1 1', // 0C S vertical
  '0 -1, 0 0, 0 1, 1 1', // 0D L right
  '-1 0, 0 0, 1 0, -1 1', // 0E L down (spawn)
  '-1 -1, 0 -1, 0 0, 0 1', // 0F L left
  '1 -1, -1 0, 0 0, 1 0', // 10 L up
  '0 -2, 0 -1, 0 0, 0 1', // 11 I vertical
  '-2 0, -1 0, 0 0, 1 0', // 12 I horizontal (spawn)
].map((o) => o.split(', ').map((c) => c.split(' ').map(Number) as XY));
/** The rotation table: [after B (counter-clockwise), after A (clockwise)] of each orientation. */
const ROTATE: [number, number][] = [
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
const SPAWN: Record<string, number> = { T: 2, J: 7, Z: 8, O: 10, S: 11, L: 14, I: 18 };
const PIECE_LETTERS = 'IOTSZLJ';

/** NES frames per row by level (29 and up: 1). */
const FRAMES_PER_ROW = [48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];

export interface TimedRefRules {
  level: number;
  /** `X.` … (an X frame takes one shift and/or one turn), or `das` / `dasCharged`. */
  timeline: string;
  /** From this level gravity moves two rows per frame (null: never). Default 39. */
  doubleKillscreen?: number | null;
}

/** The gravity of a level: frames per row, and rows per gravity step. */
export function refGravity(rules: TimedRefRules): { frames: number; rows: number } {
  const dks = rules.doubleKillscreen === undefined ? 39 : rules.doubleKillscreen;
  if (dks !== null && rules.level >= dks) return { frames: 1, rows: 2 };
  return { frames: rules.level < FRAMES_PER_ROW.length ? FRAMES_PER_ROW[rules.level] : 1, rows: 1 };
}

/** The piece in play: orientation, centre column and NES row (down from the top row, 0). */
interface Piece {
  o: number;
  x: number;
  row: number;
}

/** Absolute cells of a piece, y up. */
function cellsOf(board: TimedRefBoard, p: Piece): XY[] {
  return ORIENTATIONS[p.o].map(([dx, dy]) => [p.x + dx, board.height - 1 - (p.row + dy)] as XY);
}

/** Whether the piece fits: inside the walls and the floor, at most two rows above the board, on empty cells. */
function fits(board: TimedRefBoard, p: Piece): boolean {
  return cellsOf(board, p).every(
    ([x, y]) => x >= 0 && x < board.width && y >= 0 && y < board.height + 2 && !board.filled.has(`${x},${y}`),
  );
}

/** The hidden part of a state: the fall timer, and under DAS the held direction, its counter, whether the one
 * press has been used, and the turn button pressed on the frame before. */
interface State extends Piece {
  fall: number;
  held: '' | 'L' | 'R';
  counter: number;
  used: boolean;
  lastTurn: '' | 'A' | 'B';
}

const keyOf = (s: State) => `${s.o},${s.x},${s.row},${s.fall},${s.held},${s.counter},${s.used},${s.lastTurn}`;

/** What the player does on one frame: the direction held (DAS) or tapped, and the turn button. */
interface Choice {
  dir: '' | 'L' | 'R';
  /** DAS: start holding with the counter already full (held through the entry delay; first frame only). */
  charged?: boolean;
  turn: '' | 'A' | 'B';
}

/** The player's choices on frame f from state s. */
function choices(rules: TimedRefRules, s: State, f: number): Choice[] {
  const out: Choice[] = [];
  const das = rules.timeline === 'das' || rules.timeline === 'dasCharged';
  const turns: ('' | 'A' | 'B')[] = das
    ? (['', 'A', 'B'] as const).filter((t) => t === '' || t !== s.lastTurn)
    : rules.timeline[f % rules.timeline.length] === 'X'
      ? ['', 'A', 'B']
      : [''];
  let dirs: Choice[];
  if (!das)
    dirs =
      rules.timeline[f % rules.timeline.length] === 'X'
        ? [
            { dir: '', turn: '' },
            { dir: 'L', turn: '' },
            { dir: 'R', turn: '' },
          ]
        : [{ dir: '', turn: '' }];
  else if (s.held !== '')
    dirs = [
      { dir: s.held, turn: '' },
      { dir: '', turn: '' },
    ];
  else if (s.used) dirs = [{ dir: '', turn: '' }];
  else {
    dirs = [
      { dir: '', turn: '' },
      { dir: 'L', turn: '' },
      { dir: 'R', turn: '' },
    ];
    if (rules.timeline === 'dasCharged' && f === 0)
      dirs.push({ dir: 'L', charged: true, turn: '' }, { dir: 'R', charged: true, turn: '' });
  }
  for (const d of dirs) for (const t of turns) out.push({ ...d, turn: t });
  return out;
}

interface Step {
  state: State;
  /** What the frame did: the shift made ('' none) and the turn made. */
  shifted: '' | 'L' | 'R';
  turned: '' | 'A' | 'B';
  /** Buttons pressed this frame (a direction pressed, a turn). */
  presses: number;
  /** The piece locked on this frame: where. */
  locked: Piece | null;
}

/** One frame of the game from state s with choice c (null when the player's input does nothing useful: a tapped
 * shift or a turn that is blocked, which equals not pressing it). */
function frame(board: TimedRefBoard, rules: TimedRefRules, s: State, c: Choice): Step | null {
  const das = rules.timeline === 'das' || rules.timeline === 'dasCharged';
  const gravity = refGravity(rules);
  const n: State = { ...s };
  let shifted: '' | 'L' | 'R' = '';
  let presses = 0;
  const tryShift = (dir: 'L' | 'R'): boolean => {
    const moved = { ...n, x: n.x + (dir === 'L' ? -1 : 1) };
    if (!fits(board, moved)) return false;
    n.x = moved.x;
    shifted = dir;
    return true;
  };
  if (!das) {
    if (c.dir !== '') {
      if (!tryShift(c.dir)) return null;
      presses++;
    }
  } else if (c.dir === '') {
    if (n.held !== '') n.used = true;
    n.held = '';
  } else if (n.held === '') {
    // newly pressed (or, charged, held through the entry delay with the counter full)
    n.held = c.dir;
    n.used = true;
    presses++;
    if (c.charged) {
      // held through the entry delay: the counter is full, so this frame counts past 16 and shifts
      n.counter = 16 + 1;
      if (n.counter >= 16) n.counter = 10;
      if (!tryShift(c.dir)) n.counter = 16;
    } else {
      n.counter = 0;
      if (!tryShift(c.dir)) n.counter = 16;
    }
  } else {
    n.counter++;
    if (n.counter >= 16) {
      n.counter = 10;
      if (!tryShift(c.dir)) n.counter = 16;
    }
  }
  let turned: '' | 'A' | 'B' = '';
  if (c.turn !== '') {
    const o = ROTATE[n.o][c.turn === 'A' ? 1 : 0];
    const t = { ...n, o };
    if (o === n.o || !fits(board, t)) return null;
    n.o = o;
    turned = c.turn;
    presses++;
  }
  n.lastTurn = c.turn;
  n.fall++;
  let locked: Piece | null = null;
  if (n.fall >= gravity.frames) {
    n.fall = 0;
    for (let r = 0; r < gravity.rows; r++) {
      const down = { ...n, row: n.row + 1 };
      if (!fits(board, down)) {
        locked = { o: n.o, x: n.x, row: n.row };
        break;
      }
      n.row++;
    }
  }
  return { state: n, shifted, turned, presses, locked };
}

export interface TimedRefPlacement {
  /** Cells y up, sorted by row, then column. */
  cells: XY[];
  /** Fewest presses of any way to it. */
  presses: number;
  /** The frame it locks on (every way to it locks on the same frame). */
  frame: number;
}

const sortCells = (cells: XY[]) => [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]);

function spawnState(board: TimedRefBoard, piece: string): State {
  return {
    o: SPAWN[piece],
    x: Math.floor(board.width / 2),
    row: 0,
    fall: 0,
    held: '',
    counter: 0,
    used: false,
    lastTurn: '',
  };
}

/** A token's shift and turn ('' for none). */
function tokenParts(token: string): { shift: '' | 'L' | 'R'; turn: '' | 'A' | 'B' } {
  const shift = token[0] === 'L' || token[0] === 'R' ? token[0] : '';
  const turn = token.endsWith('A') ? 'A' : token.endsWith('B') ? 'B' : '';
  return { shift, turn };
}

/**
 * Every placement the piece locks in (cells inside the board), keyed by its sorted cells, with its fewest presses.
 * `first`: frame tokens the player has already played (a committed move's first frames); only ways that play them
 * are followed, and a lock among them counts for nothing.
 */
export function timedRefPlacements(
  board: TimedRefBoard,
  piece: string | number,
  rules: TimedRefRules,
  first: readonly string[] = [],
): Map<string, TimedRefPlacement> {
  const letter = typeof piece === 'number' ? PIECE_LETTERS[piece] : piece;
  const out = new Map<string, TimedRefPlacement>();
  const start = spawnState(board, letter);
  if (!fits(board, start)) return out;
  let states = new Map<string, { state: State; presses: number }>([[keyOf(start), { state: start, presses: 0 }]]);
  for (let f = 0; states.size > 0; f++) {
    const next = new Map<string, { state: State; presses: number }>();
    const played = f < first.length ? tokenParts(first[f]) : null;
    for (const { state, presses } of states.values()) {
      for (const c of choices(rules, state, f)) {
        const step = frame(board, rules, state, c);
        if (!step) continue;
        if (played && (step.shifted !== played.shift || step.turned !== played.turn)) continue;
        const cost = presses + step.presses;
        if (step.locked) {
          if (played) continue;
          const cells = sortCells(cellsOf(board, step.locked));
          if (cells.some(([, y]) => y >= board.height)) continue;
          const key = JSON.stringify(cells);
          const had = out.get(key);
          if (!had || cost < had.presses) out.set(key, { cells, presses: cost, frame: f });
          continue;
        }
        const k = keyOf(step.state);
        const had = next.get(k);
        if (!had || cost < had.presses) next.set(k, { state: step.state, presses: cost });
      }
    }
    states = next;
  }
  return out;
}

/**
 * Plays frame inputs (one token per frame: `.` `L` `R` `A` `B` `LA` `LB` `RA` `RB`, the shift and turn the frame
 * makes) and returns the cells the piece locks in on the last token's frame, or a reason they cannot be played.
 * Under DAS the shifts must come from one held direction: every way the player could hold it is followed at once.
 */
export function timedRefReplay(
  board: TimedRefBoard,
  piece: string | number,
  rules: TimedRefRules,
  tokens: readonly string[],
): { cells: XY[]; presses: number } | { error: string } {
  const letter = typeof piece === 'number' ? PIECE_LETTERS[piece] : piece;
  const start = spawnState(board, letter);
  if (!fits(board, start)) return { error: 'the piece cannot appear' };
  let states = new Map<string, { state: State; presses: number }>([[keyOf(start), { state: start, presses: 0 }]]);
  for (let f = 0; f < tokens.length; f++) {
    const token = tokens[f];
    const { shift, turn } = tokenParts(token);
    if (token !== '.' && token !== `${shift}${turn}`) return { error: `frame ${f}: no token ${token}` };
    const next = new Map<string, { state: State; presses: number }>();
    let lockedCells: XY[] | null = null;
    let presses = Infinity;
    for (const { state, presses: before } of states.values()) {
      for (const c of choices(rules, state, f)) {
        if (c.turn !== turn) continue;
        const step = frame(board, rules, state, c);
        if (!step || step.shifted !== shift || step.turned !== turn) continue;
        if (step.locked) {
          if (f !== tokens.length - 1) continue;
          const cells = sortCells(cellsOf(board, step.locked));
          if (lockedCells && JSON.stringify(lockedCells) !== JSON.stringify(cells))
            return { error: 'two ways lock in different cells' };
          lockedCells = cells;
          presses = Math.min(presses, before + step.presses);
          continue;
        }
        if (f === tokens.length - 1) continue;
        const k = keyOf(step.state);
        const had = next.get(k);
        if (!had || before + step.presses < had.presses)
          next.set(k, { state: step.state, presses: before + step.presses });
      }
    }
    if (f === tokens.length - 1) {
      if (!lockedCells) return { error: `the piece does not lock on frame ${f}` };
      return { cells: lockedCells, presses };
    }
    if (next.size === 0) return { error: `frame ${f}: ${token} cannot be played` };
    states = next;
  }
  return { error: 'no inputs' };
}
