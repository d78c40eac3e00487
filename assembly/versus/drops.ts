// Versus-search kernel, the quick placement list below the first ply (docs/game.md, "The versus policy"): a piece that
// cannot spin is placed by a hard drop from over the stack in every rotation and column, and by a tuck one column
// aside from each drop's resting place (soft drop, one shift, soft drop). It is what the reachable kernel's full
// search finds on a board without overhangs, and a part of it on any board, at a fraction of the cost: the full
// search stays for the first ply (the moves played) and for the pieces that spin (their T-spins). The list is written
// where the full search writes its own (the reachable kernel's O_OUT and O_OUT_SPIN), so a caller reads either the
// same way. No allocation.
import {
  OUT_LANDED, OUT_WORDS, O_OUT, O_OUT_SPIN, O_SPAWN_Y, PARAM_WORDS, STATE_ROTATION_SHIFT, STATE_WORDS, STATE_Y_SHIFT,
  S_BOT, S_H, S_MASK, S_MINDX, S_MINDY, S_SHAPE, S_W, TABLE_BYTES, TABLE_HEADER_WORDS, WALL,
} from '../reachable/layout';
import { C_PARAMS, C_REACH, C_TABLES, C_WIDTH, N_ROWS, N_TOP } from './layout';

/** Column heights of the board being listed, i32 each; and a state's hard-drop row by column of its reference. */
const tops = memory.data(16 << 2, 4);
const rests = memory.data(16 << 2, 4);

let tbl: usize = 0;
let board: usize = 0;
let boardTop: i32 = 0;

@inline function word(s: i32, w: i32): i32 {
  return load<i32>(tbl + ((<usize>(TABLE_HEADER_WORDS + s * STATE_WORDS + w)) << 2));
}
@inline function topOf(c: i32): i32 {
  return load<i32>(tops + ((<usize>c) << 2));
}
/** The hard-drop row of the state being listed at reference x (stored from x = -minDx at index 0). */
@inline function restAt(i: i32): i32 {
  return load<i32>(rests + ((<usize>i) << 2));
}

/** Whether state s at (x, y) overlaps a filled cell or the floor (the columns are within the walls). */
function collides(s: i32, x: i32, y: i32): bool {
  const low = y + word(s, S_MINDY);
  if (low < 0) return true;
  const left = <u32>(x + word(s, S_MINDX));
  const h = min<i32>(word(s, S_H), boardTop - low);
  for (let r = 0; r < h; r++) {
    if ((load<u32>(board + N_ROWS + ((<usize>(low + r)) << 2)) & (<u32>word(s, S_MASK + r) << left)) != 0) return true;
  }
  return false;
}

/** Where state s comes to rest dropped from high over the stack at x: its lowest cell on a column's top. */
function dropRow(s: i32, x: i32): i32 {
  const c0 = x + word(s, S_MINDX);
  const minDy = word(s, S_MINDY);
  const w = word(s, S_W);
  let y: i32 = -64;
  for (let j = 0; j < w; j++) {
    const need = topOf(c0 + j) - minDy - word(s, S_BOT + j);
    if (need > y) y = need;
  }
  return y;
}

let count: i32 = 0;
let out: usize = 0;

@inline function emit(s: i32, x: i32, y: i32): void {
  const landed = (s << STATE_ROTATION_SHIFT) | ((y + WALL) << STATE_Y_SHIFT) | (x + WALL);
  store<i32>(out + O_OUT + ((<usize>(count * OUT_WORDS + OUT_LANDED)) << 2), landed);
  store<i32>(out + O_OUT_SPIN + ((<usize>count) << 2), 0);
  count++;
}

/**
 * The quick list of piece `pid` on the node's board, into the reachable kernel's output: for each rotation state
 * whose cells differ from every earlier state's, columns left to right, the hard drop, then its tucks — the piece at
 * the drop's resting row shifted one column left, then right, where that is under the hard drop of its new column
 * and free, let down to rest. Returns the count, or -1 when the board's top reaches a row some state occupies where
 * the piece appears (the piece may then not turn or shift freely over the stack: the caller runs the full search).
 */
export function listDrops(ctx: usize, node: usize, pid: i32): i32 {
  tbl = <usize>load<i32>(ctx + C_TABLES) + <usize>pid * TABLE_BYTES;
  board = node;
  boardTop = load<i32>(node + N_TOP);
  out = <usize>load<i32>(ctx + C_REACH);
  const width = load<i32>(ctx + C_WIDTH);
  const spawnY = load<i32>(<usize>load<i32>(ctx + C_PARAMS) + ((<usize>(pid * PARAM_WORDS)) << 2) + O_SPAWN_Y);
  const states = load<i32>(tbl);
  for (let s = 0; s < states; s++) if (boardTop > spawnY + word(s, S_MINDY)) return -1;
  // a loop: a small bulk-memory call costs more
  for (let c = 0; c < 16; c += 2) store<u64>(tops + ((<usize>c) << 2), 0);
  let above: u32 = 0;
  for (let y = boardTop - 1; y >= 0 && above != (<u32>1 << <u32>width) - 1; y--) {
    let fresh = load<u32>(node + N_ROWS + ((<usize>y) << 2)) & ~above;
    above |= fresh;
    while (fresh != 0) {
      store<i32>(tops + ((<usize>ctz<u32>(fresh)) << 2), y + 1);
      fresh &= fresh - 1;
    }
  }
  count = 0;
  for (let s = 0; s < states; s++) {
    let repeated = false;
    for (let e = 0; e < s; e++) if (word(e, S_SHAPE) == word(s, S_SHAPE)) repeated = true;
    if (repeated) continue;
    const minDx = word(s, S_MINDX);
    const last = width - minDx - word(s, S_W);
    for (let x = -minDx; x <= last; x++) store<i32>(rests + ((<usize>(x + minDx)) << 2), dropRow(s, x));
    for (let x = -minDx; x <= last; x++) {
      const y = restAt(x + minDx);
      emit(s, x, y);
      for (let dx = -1; dx <= 1; dx += 2) {
        const x2 = x + dx;
        if (x2 < -minDx || x2 > last || y >= restAt(x2 + minDx) || collides(s, x2, y)) continue;
        let y2 = y;
        while (!collides(s, x2, y2 - 1)) y2--;
        emit(s, x2, y2);
      }
    }
  }
  return count;
}
