// Reachable placements kernel: the breadth-first search of src/rules/reachable.ts over piece states (rotation, x,
// y) on bit-row boards, move for move and in the same order, so its placements and their key sequences are the
// TypeScript search's exactly (tested). docs/rules.md ("Real games") states the model; src/kernels/reachable.ts writes
// the piece tables (generated from src/rules/rotation-systems.ts: this file knows no shape) and reads the results.
//
// Board rows are stored with walls: row y at index y + 4, bit x + 4 = column x, bits outside the board set, rows
// below the floor and from the ceiling up all ones; so a collision test is a few AND operations with no bounds
// test. State index: rotation << 11 | (y + 4) << 5 | (x + 4). Every offset, code and size shared with TypeScript is
// in assembly/reachable/layout.ts; spins (their corner test and the best spin per placement) are in
// assembly/reachable/spin.ts. No allocation, no strings, no GC.
export { alloc } from './memory';
export * from './reachable/layout';
export { reachTimed, tapPath } from './reachable/timed';
import { applySpins, noteSpin, spins, threeCorners } from './reachable/spin';
import {
  COLUMN_SLOTS,
  FIT_COUNT,
  FLAG_20G,
  FLAG_INITIAL_ROTATION,
  FLAG_SOFT_DROP,
  FLAG_SPINS,
  M_CW,
  M_DAS_LEFT,
  M_DAS_RIGHT,
  M_LEFT,
  M_RIGHT,
  M_SOFT,
  OUT_FROM,
  OUT_LANDED,
  OUT_WORDS,
  O_BOARD,
  O_CEIL,
  O_COLS,
  O_FIT,
  O_FITMARK,
  O_FLAGS,
  O_HEIGHTS,
  O_LOCK,
  O_OUT,
  O_OUT_SPIN,
  O_PARENT,
  O_QUEUE,
  O_ROWS,
  O_SEEN,
  O_SPAWN_S,
  O_SPAWN_X,
  O_SPAWN_Y,
  O_STAMP,
  O_VIA,
  O_VISIT,
  O_WIDTH,
  ROW_SLOTS,
  STATE_COUNT,
  STATE_ROTATION_SHIFT,
  STATE_WORDS,
  STATE_X_MASK,
  STATE_Y_MASK,
  STATE_Y_SHIFT,
  S_BOT,
  S_CDX,
  S_CDY,
  S_H,
  S_MASK,
  S_MINDX,
  S_MINDY,
  S_NEXT,
  S_SHAPE,
  S_TURN,
  S_W,
  TABLE_HEADER_WORDS,
  TURN_WORDS,
  T_CENTRE,
  T_KICKS,
  T_KICK_DX,
  T_KICK_DY,
  T_READ_DX,
  T_READ_DY,
  WALL,
} from './reachable/layout';
import { blockedCell, collides, ctx, dropY, fit, mark, setUp, stateIndex, tbl, useContext, word } from './reachable/board';


// result of a move, when it succeeds (a turn: rk the kick test it took, 0 for the plain turn)
let rs: i32 = 0;
let rx: i32 = 0;
let ry: i32 = 0;
let rk: i32 = 0;
let tail: i32 = 0;

/** Queues the state (rs, rx, ry), reached from state `from` by move m, unless this call has seen it. */
@inline function enqueue(m: i32, from: i32): void {
  const n = stateIndex(rs, rx, ry);
  const visitAt = ctx + O_VISIT + (<usize>n << 1);
  if (load<u16>(visitAt) != mark) {
    store<u16>(visitAt, mark);
    store<i16>(ctx + O_PARENT + (<usize>n << 1), <i16>from);
    store<u8>(ctx + O_VIA + <usize>n, <u8>m);
    store<i16>(ctx + O_QUEUE + (<usize>tail << 1), <i16>n);
    tail++;
  }
}

/** Turns state s at (x, y) clockwise (dir 0) or counter-clockwise (dir 1) with the system's kicks. */
function turn(s: i32, x: i32, y: i32, dir: i32): bool {
  const t = word(s, S_NEXT + dir);
  if (t == s) return false;
  const k = S_TURN + dir * TURN_WORDS;
  if (!collides(t, x, y)) {
    rs = t;
    rx = x;
    ry = y;
    rk = 0;
    return true;
  }
  if (word(s, k + T_CENTRE) != 0) {
    // ARS centre-column rule: the first blocked cell in reading order decides
    for (let i = 0; i < 4; i++) {
      const dx = word(s, k + T_READ_DX + i);
      if (blockedCell(x + dx, y + word(s, k + T_READ_DY + i))) {
        if (dx == 1) return false;
        break;
      }
    }
  }
  const n = word(s, k + T_KICKS);
  for (let i = 1; i < n; i++) {
    const kx = x + word(s, k + T_KICK_DX + i);
    const ky = y + word(s, k + T_KICK_DY + i);
    if (!collides(t, kx, ky)) {
      rs = t;
      rx = kx;
      ry = ky;
      rk = i;
      return true;
    }
  }
  return false;
}

/**
 * Lists every reachable placement of the piece whose table is at `table`; returns how many (0 for a top-out).
 * The context holds the parameters and the board (O_BOARD) written by TypeScript.
 */
export function reach(context: usize, table: usize): i32 {
  setUp(context, table);
  const lockTop = load<i32>(ctx + O_LOCK);
  const flags = load<i32>(ctx + O_FLAGS);
  const g20 = (flags & FLAG_20G) != 0;
  const soft = (flags & FLAG_SOFT_DROP) != 0 && !g20;
  const irs = (flags & FLAG_INITIAL_ROTATION) != 0;
  const spinning = (flags & FLAG_SPINS) != 0 && spins(tbl);
  let spun = false;

  const s0 = load<i32>(ctx + O_SPAWN_S);
  const x0 = load<i32>(ctx + O_SPAWN_X);
  const y0 = load<i32>(ctx + O_SPAWN_Y);
  if (collides(s0, x0, y0)) return 0;
  const startY = g20 ? dropY(s0, x0, y0) : y0;
  const start = stateIndex(s0, x0, startY);
  store<u16>(ctx + O_VISIT + (<usize>start << 1), mark);
  store<i16>(ctx + O_PARENT + (<usize>start << 1), -1);
  store<i16>(ctx + O_QUEUE, <i16>start);
  tail = 1;
  let count = 0;

  for (let head = 0; head < tail; head++) {
    const idx = <i32>load<i16>(ctx + O_QUEUE + (<usize>head << 1));
    const s = idx >> STATE_ROTATION_SHIFT;
    const y = ((idx >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL;
    const x = (idx & STATE_X_MASK) - WALL;

    // the placement this state drops to
    const ly = g20 ? y : dropY(s, x, y);
    if (ly + word(s, S_MINDY) + word(s, S_H) <= lockTop) {
      const key =
        (word(s, S_SHAPE) << STATE_ROTATION_SHIFT) |
        ((ly + word(s, S_CDY) + WALL) << STATE_Y_SHIFT) |
        (x + word(s, S_CDX) + WALL);
      const seenAt = ctx + O_SEEN + (<usize>key << 1);
      if (load<u16>(seenAt) != mark) {
        store<u16>(seenAt, mark);
        const out = ctx + O_OUT + ((<usize>(count * OUT_WORDS)) << 2);
        store<i32>(out + (OUT_LANDED << 2), stateIndex(s, x, ly));
        store<i32>(out + (OUT_FROM << 2), idx);
        store<i32>(ctx + O_OUT_SPIN + ((<usize>count) << 2), 0);
        count++;
      }
    }

    // the moves, in the search order (cw ccw left right dasLeft dasRight softDrop)
    for (let dir = 0; dir < 2; dir++) {
      const initial = g20 && irs && head == 0;
      const ok = initial ? turn(s0, x0, y0, dir) : turn(s, x, y, dir);
      if (ok) {
        // a turn that leaves the piece at rest may be a spin (spin.ts), whether or not the state is new
        if (spinning && threeCorners(ctx, tbl, rs, rx, ry)) {
          if (noteSpin(ctx, tbl, mark, initial ? s0 : s, idx, dir, rk, rs, rx, ry)) spun = true;
        }
        if (g20) ry = dropY(rs, rx, ry);
        enqueue(M_CW + dir, idx);
      }
    }
    const f = fit(s, y);
    const minDx = word(s, S_MINDX) + WALL;
    const base = x + minDx;
    rs = s;
    if (((f >>> <u32>(base - 1)) & 1) != 0) {
      rx = x - 1;
      ry = g20 ? dropY(s, x - 1, y) : y;
      enqueue(M_LEFT, idx);
    }
    if (((f >>> <u32>(base + 1)) & 1) != 0) {
      rx = x + 1;
      ry = g20 ? dropY(s, x + 1, y) : y;
      enqueue(M_RIGHT, idx);
    }
    if (g20) {
      for (let dx = -1; dx <= 1; dx += 2) {
        let cx = x;
        let cy = y;
        while (!collides(s, cx + dx, cy)) {
          cx += dx;
          cy = dropY(s, cx, cy);
        }
        if (cx != x) {
          rs = s;
          rx = cx;
          ry = cy;
          enqueue(dx < 0 ? M_DAS_LEFT : M_DAS_RIGHT, idx);
        }
      }
    } else {
      // the ends of the run of fitting positions around this one, one bit scan each
      const lx = 32 - <i32>clz(~f & ((<u32>1 << <u32>base) - 1)) - minDx;
      if (lx != x) {
        rx = lx;
        ry = y;
        enqueue(M_DAS_LEFT, idx);
      }
      const rxx = <i32>ctz(~f & ~((<u32>2 << <u32>base) - 1)) - 1 - minDx;
      if (rxx != x) {
        rs = s;
        rx = rxx;
        ry = y;
        enqueue(M_DAS_RIGHT, idx);
      }
      if (soft && ly != y) {
        // soft drop: the row this state lands in, found above
        rs = s;
        rx = x;
        ry = ly;
        enqueue(M_SOFT, idx);
      }
    }
  }
  if (spun) applySpins(ctx, tbl, mark, count);
  return count;
}

/**
 * The fast path for games whose piece only shifts and turns where it appears, then drops (classic, NES), when
 * the rows it moves through are empty: the search above the stack is then the same on every board, so
 * TypeScript runs it once on an empty board and passes its states (the list at `list`, one state index per word,
 * in search order); this only drops each onto the stack. Same output layout as reach(); returns the count.
 */
export function reachFromTop(context: usize, table: usize, list: usize, n: i32, boardHeight: i32): i32 {
  useContext(context, table);
  const width = load<i32>(ctx + O_WIDTH);
  const lockTop = load<i32>(ctx + O_LOCK);
  const heights = ctx + O_HEIGHTS;
  memory.fill(heights, 0, COLUMN_SLOTS << 2);
  for (let y = 0; y < boardHeight; y++) {
    let r = load<i32>(ctx + O_BOARD + ((<usize>y) << 2));
    while (r != 0) {
      store<i32>(heights + ((<usize>ctz(r)) << 2), y + 1);
      r &= r - 1;
    }
  }
  let count = 0;
  for (let i = 0; i < n; i++) {
    const idx = load<i32>(list + ((<usize>i) << 2));
    const s = idx >> STATE_ROTATION_SHIFT;
    const x = (idx & STATE_X_MASK) - WALL;
    const c0 = x + word(s, S_MINDX);
    const minDy = word(s, S_MINDY);
    const w = word(s, S_W);
    let y = -64;
    for (let j = 0; j < w; j++) {
      const need = load<i32>(heights + ((<usize>(c0 + j)) << 2)) - minDy - word(s, S_BOT + j);
      if (need > y) y = need;
    }
    if (y + minDy + word(s, S_H) > lockTop) continue;
    const out = ctx + O_OUT + ((<usize>(count * OUT_WORDS)) << 2);
    store<i32>(out + (OUT_LANDED << 2), stateIndex(s, x, y));
    store<i32>(out + (OUT_FROM << 2), i);
    count++;
  }
  return count;
}
