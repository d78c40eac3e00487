// The reachable kernel's board and piece primitives, shared by its searches (assembly/reachable.ts, the key
// search; assembly/reachable/timed.ts, the frame-by-frame search): the call's context and piece table, the board
// rows with walls and its columns, collision by cached fit masks, drops. Layout: assembly/reachable/layout.ts.
import {
  COLUMN_SLOTS,
  FIT_COUNT,
  O_BOARD,
  O_CEIL,
  O_COLS,
  O_FIT,
  O_FITMARK,
  O_ROWS,
  O_SEEN,
  O_SPIN_MARK,
  O_STAMP,
  O_VISIT,
  O_WIDTH,
  ROW_SLOTS,
  STATE_COUNT,
  STATE_ROTATION_SHIFT,
  STATE_WORDS,
  STATE_Y_SHIFT,
  S_BOT,
  S_H,
  S_MASK,
  S_MINDX,
  S_MINDY,
  S_W,
  TABLE_HEADER_WORDS,
  WALL,
} from './layout';

// module state for one call (set by setUp or useContext)
export let ctx: usize = 0;
export let tbl: usize = 0;

/** Points the primitives below at a context and a piece table (without starting a search: setUp does that). */
export function useContext(context: usize, table: usize): void {
  ctx = context;
  tbl = table;
}

@inline export function word(s: i32, w: i32): i32 {
  return load<i32>(tbl + ((<usize>(TABLE_HEADER_WORDS + s * STATE_WORDS + w)) << 2));
}
@inline export function rowAt(yy: i32): i32 {
  return load<i32>(ctx + O_ROWS + ((<usize>yy) << 2));
}
@inline export function stateIndex(s: i32, x: i32, y: i32): i32 {
  return (s << STATE_ROTATION_SHIFT) | ((y + WALL) << STATE_Y_SHIFT) | (x + WALL);
}

export let mark: u16 = 0;

/**
 * Where state s fits in reference row y, as a bit mask over the column of its cell rectangle's left edge (bit
 * x + minDx + WALL). A piece row with cells at bits b collides at base i when the board row has bit i + b, so the
 * blocked bases are the OR of the board rows shifted right by each cell's bit. Cached per call.
 */
export function fit(s: i32, y: i32): u32 {
  const key = <usize>((s * ROW_SLOTS) | (y + WALL));
  const markAt = ctx + O_FITMARK + (key << 1);
  const at = ctx + O_FIT + (key << 2);
  if (load<u16>(markAt) == mark) return load<u32>(at);
  const yy = y + word(s, S_MINDY) + WALL;
  const h = word(s, S_H);
  let blocked: u32 = 0;
  for (let r = 0; r < h; r++) {
    const row = <u32>rowAt(yy + r);
    let m = <u32>word(s, S_MASK + r);
    while (m != 0) {
      blocked |= row >>> ctz(m);
      m &= m - 1;
    }
  }
  const f = ~blocked;
  store<u16>(markAt, mark);
  store<u32>(at, f);
  return f;
}

/** Whether state s at (x, y) overlaps a wall, the floor, the ceiling or a filled cell. */
@inline export function collides(s: i32, x: i32, y: i32): bool {
  return ((fit(s, y) >>> (<u32>(x + word(s, S_MINDX) + WALL))) & 1) == 0;
}

@inline export function blockedCell(x: i32, y: i32): bool {
  return ((rowAt(y + WALL) >> (x + WALL)) & 1) != 0;
}

/** Row the state comes to rest in when dropped from y: per column of the piece, the highest filled cell below it. */
export function dropY(s: i32, x: i32, y: i32): i32 {
  const c0 = x + word(s, S_MINDX);
  const y0 = y + word(s, S_MINDY);
  const w = word(s, S_W);
  let fall = 1 << 20;
  for (let j = 0; j < w; j++) {
    const b = y0 + word(s, S_BOT + j);
    const col = load<u64>(ctx + O_COLS + (<usize>(c0 + j) << 3));
    // highest filled row below b; -1 (the floor) when there is none
    const below = 63 - <i32>clz(col & ((<u64>1 << <u64>b) - 1));
    const d = b - below - 1;
    if (d < fall) fall = d;
  }
  return y - fall;
}

/**
 * Starts a search of the piece whose table is at `table` on the board the context holds (O_BOARD, written by
 * TypeScript): the rows with walls, the columns, and a new generation of the visit, seen and fit marks.
 */
export function setUp(context: usize, table: usize): void {
  ctx = context;
  tbl = table;
  const width = load<i32>(ctx + O_WIDTH);
  const ceiling = load<i32>(ctx + O_CEIL);

  // rows with walls; floor and ceiling rows all ones
  const walls = ~(((1 << width) - 1) << WALL);
  for (let i = 0; i < WALL; i++) store<i32>(ctx + O_ROWS + ((<usize>i) << 2), -1);
  for (let y = 0; y < ceiling; y++) {
    store<i32>(
      ctx + O_ROWS + ((<usize>(y + WALL)) << 2),
      (load<i32>(ctx + O_BOARD + ((<usize>y) << 2)) << WALL) | walls,
    );
  }
  for (let y = ceiling + WALL; y < ROW_SLOTS; y++) store<i32>(ctx + O_ROWS + ((<usize>y) << 2), -1);
  // the board by columns, for drops
  // a loop: a small bulk-memory call costs more
  for (let c = 0; c < COLUMN_SLOTS; c++) store<u64>(ctx + O_COLS + (<usize>c << 3), 0);
  for (let y = 0; y < ceiling; y++) {
    let r = load<i32>(ctx + O_BOARD + ((<usize>y) << 2));
    while (r != 0) {
      const at = ctx + O_COLS + ((<usize>ctz(r)) << 3);
      store<u64>(at, load<u64>(at) | (<u64>1 << <u64>y));
      r &= r - 1;
    }
  }
  // generation marks instead of clearing the visit, seen and fit arrays
  let stamp = load<i32>(ctx + O_STAMP) + 1;
  if (stamp > 0xffff) {
    memory.fill(ctx + O_VISIT, 0, STATE_COUNT << 1);
    memory.fill(ctx + O_SEEN, 0, STATE_COUNT << 1);
    memory.fill(ctx + O_FITMARK, 0, FIT_COUNT << 1);
    memory.fill(ctx + O_SPIN_MARK, 0, STATE_COUNT << 1);
    stamp = 1;
  }
  store<i32>(ctx + O_STAMP, stamp);
  mark = <u16>stamp;
}

