// Spins in the reachable kernel (docs/rules.md, "Versus"): the three-corner test of a turn that leaves the piece at
// rest, and the best spin per placement, as src/rules/reachable.ts's search finds them (tested equal). The piece
// table holds each state's corners (S_SPIN_*) and each turn's upgrade kicks (T_UPGRADE), written by
// src/rules/kernel.ts from src/rules/spins.ts. No allocation.
import {
  O_OUT,
  O_OUT_SPIN,
  O_ROWS,
  O_SPIN,
  O_SPIN_MARK,
  OUT_FROM,
  OUT_LANDED,
  OUT_WORDS,
  SPIN_FROM_SHIFT,
  SPIN_FULL,
  SPIN_LANDED_SHIFT,
  SPIN_LEVEL_MASK,
  SPIN_MINI,
  SPIN_NONE,
  SPIN_TURN_SHIFT,
  STATE_COUNT,
  STATE_ROTATION_SHIFT,
  STATE_WORDS,
  STATE_X_MASK,
  STATE_Y_MASK,
  STATE_Y_SHIFT,
  S_CDX,
  S_CDY,
  S_H,
  S_MASK,
  S_MINDX,
  S_MINDY,
  S_SHAPE,
  S_SPIN_CX,
  S_SPIN_CY,
  S_SPIN_FRONT,
  S_TURN,
  TABLE_HEADER_WORDS,
  TURN_WORDS,
  T_UPGRADE,
  WALL,
} from './layout';

@inline function tableWord(tbl: usize, s: i32, w: i32): i32 {
  return load<i32>(tbl + ((<usize>(TABLE_HEADER_WORDS + s * STATE_WORDS + w)) << 2));
}

/** Whether the table's piece has spin corners (every state has them, or none). */
export function spins(tbl: usize): bool {
  return tableWord(tbl, 0, S_SPIN_FRONT) != 0;
}

/**
 * The filled corners of state s at (x, y) as bits 0..3 (S_SPIN_CX's numbering). Two row reads: the corners lie in the
 * rows under and over the centre, two columns apart; the floor, the walls and the rows from the ceiling up are all
 * filled in the rows with walls.
 */
@inline function corners(ctx: usize, tbl: usize, s: i32, x: i32, y: i32): u32 {
  const cx = x + tableWord(tbl, s, S_SPIN_CX) + WALL - 1;
  const cy = y + tableWord(tbl, s, S_SPIN_CY) + WALL;
  const under = (<u32>load<i32>(ctx + O_ROWS + ((<usize>(cy - 1)) << 2)) >>> (<u32>cx)) & 5;
  const over = (<u32>load<i32>(ctx + O_ROWS + ((<usize>(cy + 1)) << 2)) >>> (<u32>cx)) & 5;
  return (under & 1) | ((under >> 1) & 2) | ((over & 1) << 2) | ((over << 1) & 8);
}

/** Whether state s at (x, y) has three corners filled: the cheap test reach() makes before noteSpin. */
@inline export function threeCorners(ctx: usize, tbl: usize, s: i32, x: i32, y: i32): bool {
  return popcnt(corners(ctx, tbl, s, x, y)) >= 3;
}

/**
 * The spin of state s at (x, y), where the turn from state `from` (direction dir, kick test `kick`) left it: three
 * filled corners make a spin, full when both front corners are filled or the kick upgrades.
 */
@inline function spinLevel(ctx: usize, tbl: usize, from: i32, dir: i32, kick: i32, s: i32, x: i32, y: i32): i32 {
  const c = corners(ctx, tbl, s, x, y);
  if (popcnt(c) < 3) return SPIN_NONE;
  if (popcnt(c & <u32>tableWord(tbl, s, S_SPIN_FRONT)) == 2) return SPIN_FULL;
  return ((tableWord(tbl, from, S_TURN + dir * TURN_WORDS + T_UPGRADE) >> kick) & 1) != 0 ? SPIN_FULL : SPIN_MINI;
}

/** Whether state s at (x, y) rests: a cell of it stands on a filled cell (or the floor). */
function rests(ctx: usize, tbl: usize, s: i32, x: i32, y: i32): bool {
  const base = x + tableWord(tbl, s, S_MINDX) + WALL;
  const below = y + tableWord(tbl, s, S_MINDY) + WALL - 1;
  const h = tableWord(tbl, s, S_H);
  for (let r = 0; r < h; r++) {
    const row = <u32>load<i32>(ctx + O_ROWS + ((<usize>(below + r)) << 2));
    if (((row >>> (<u32>base)) & <u32>tableWord(tbl, s, S_MASK + r)) != 0) return true;
  }
  return false;
}

/** The placement key (as reach() keys placements) of state s resting at (x, y). */
@inline function placementKey(tbl: usize, s: i32, x: i32, y: i32): i32 {
  return (
    (tableWord(tbl, s, S_SHAPE) << STATE_ROTATION_SHIFT) |
    ((y + tableWord(tbl, s, S_CDY) + WALL) << STATE_Y_SHIFT) |
    (x + tableWord(tbl, s, S_CDX) + WALL)
  );
}

/**
 * A turn from state `from` (state index `fromIdx`, direction dir, kick test `kick`) left the piece in state s at
 * (x, y): if it rests there and makes a spin, keeps the spin for that placement when it is the first found at a
 * better level than any before. The corners come first: most turns have fewer than three filled. Returns whether
 * the turn made a spin.
 */
export function noteSpin(
  ctx: usize,
  tbl: usize,
  mark: u16,
  from: i32,
  fromIdx: i32,
  dir: i32,
  kick: i32,
  s: i32,
  x: i32,
  y: i32,
): bool {
  const level = spinLevel(ctx, tbl, from, dir, kick, s, x, y);
  if (level == SPIN_NONE || !rests(ctx, tbl, s, x, y)) return false;
  const key = placementKey(tbl, s, x, y);
  const markAt = ctx + O_SPIN_MARK + ((<usize>key) << 1);
  const at = ctx + O_SPIN + ((<usize>key) << 2);
  if (load<u16>(markAt) == mark && (load<i32>(at) & SPIN_LEVEL_MASK) >= level) return true;
  store<u16>(markAt, mark);
  const rest = (s << STATE_ROTATION_SHIFT) | ((y + WALL) << STATE_Y_SHIFT) | (x + WALL);
  store<i32>(
    at,
    level | (dir << SPIN_TURN_SHIFT) | (rest << SPIN_LANDED_SHIFT) | (fromIdx << SPIN_FROM_SHIFT),
  );
  return true;
}

/**
 * After the search: each of the `count` placements a spin reaches rests where the spin leaves it and is reached by
 * the turn that makes it (O_OUT's records); O_OUT_SPIN holds its spin level and turn.
 */
export function applySpins(ctx: usize, tbl: usize, mark: u16, count: i32): void {
  for (let i = 0; i < count; i++) {
    const out = ctx + O_OUT + ((<usize>(i * OUT_WORDS)) << 2);
    const landed = load<i32>(out + (OUT_LANDED << 2));
    const s = landed >> STATE_ROTATION_SHIFT;
    const y = ((landed >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL;
    const x = (landed & STATE_X_MASK) - WALL;
    const key = placementKey(tbl, s, x, y);
    if (load<u16>(ctx + O_SPIN_MARK + ((<usize>key) << 1)) != mark) continue;
    const v = load<i32>(ctx + O_SPIN + ((<usize>key) << 2));
    store<i32>(out + (OUT_LANDED << 2), (v >> SPIN_LANDED_SHIFT) & (STATE_COUNT - 1));
    store<i32>(out + (OUT_FROM << 2), v >>> SPIN_FROM_SHIFT);
    store<i32>(ctx + O_OUT_SPIN + ((<usize>i) << 2), v & ((1 << SPIN_LANDED_SHIFT) - 1));
  }
}
