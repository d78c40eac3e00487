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
  SPIN_BIAS,
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
  S_SHAPE,
  S_SPIN_CORNERS,
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
 * The spin of state s at (x, y), resting where the turn from state `from` (direction dir, kick test `kick`) left
 * it: three filled corners make a spin, full when both front corners are filled or the kick upgrades.
 */
function spinLevel(ctx: usize, tbl: usize, from: i32, dir: i32, kick: i32, s: i32, x: i32, y: i32): i32 {
  const packed = tableWord(tbl, s, S_SPIN_CORNERS);
  const front = tableWord(tbl, s, S_SPIN_FRONT);
  let corners = 0;
  let fronts = 0;
  for (let i = 0; i < 4; i++) {
    const c = packed >> (i << 3);
    const cx = x + (c & 15) - SPIN_BIAS;
    const cy = y + ((c >> 4) & 15) - SPIN_BIAS;
    // rows with walls: the floor, the walls and the rows from the ceiling up are all filled
    if (((load<i32>(ctx + O_ROWS + ((<usize>(cy + WALL)) << 2)) >> (cx + WALL)) & 1) != 0) {
      corners++;
      fronts += (front >> i) & 1;
    }
  }
  if (corners < 3) return SPIN_NONE;
  if (fronts == 2) return SPIN_FULL;
  return ((tableWord(tbl, from, S_TURN + dir * TURN_WORDS + T_UPGRADE) >> kick) & 1) != 0 ? SPIN_FULL : SPIN_MINI;
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
 * A turn from state `from` (state index `fromIdx`, direction dir, kick test `kick`) left the piece at rest in state s
 * at (x, y): keeps its spin for that placement if it is the first found at a better level than any before.
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
): void {
  const level = spinLevel(ctx, tbl, from, dir, kick, s, x, y);
  if (level == SPIN_NONE) return;
  const key = placementKey(tbl, s, x, y);
  const markAt = ctx + O_SPIN_MARK + ((<usize>key) << 1);
  const at = ctx + O_SPIN + ((<usize>key) << 2);
  if (load<u16>(markAt) == mark && (load<i32>(at) & SPIN_LEVEL_MASK) >= level) return;
  store<u16>(markAt, mark);
  const rest = (s << STATE_ROTATION_SHIFT) | ((y + WALL) << STATE_Y_SHIFT) | (x + WALL);
  store<i32>(
    at,
    level | (dir << SPIN_TURN_SHIFT) | (rest << SPIN_LANDED_SHIFT) | (fromIdx << SPIN_FROM_SHIFT),
  );
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
