// Versus-search kernel, one lock (docs/game.md, "The versus policy"): a node's child for one placement — the piece
// locked onto the node's bit rows, full rows cleared, what the lock sends by the attack table, the counters and the
// garbage after it — and the evaluator's terms of the board the child stands on. The definitions are those of
// src/tetris-ai/versus.ts, row by row; test/reference/versus-search-reference.ts computes them independently, and the
// values agree to the last bit (the sums are added in the same order, in f64).
import {
  STATE_ROTATION_SHIFT, STATE_WORDS, STATE_X_MASK, STATE_Y_MASK, STATE_Y_SHIFT, S_H, S_MASK, S_MINDX, S_MINDY,
  TABLE_BYTES, TABLE_HEADER_WORDS, WALL,
} from '../reachable/layout';
import {
  A_B2B, A_BASE, A_COMBO, A_COMBO_COUNT, A_PC_ADD, A_PC_LINES, C_ATTACK, C_BOUND, C_COUNT, C_FEATURES, C_INCOMING,
  C_INCOMING_COUNT, C_SEQUENCE, C_TABLES, C_TSLOT_CUTS, C_VISIBLE, C_WEIGHTS, C_WIDTH, KIND_FULL, KIND_MINI, MAX_INCOMING, MAX_ROWS,
  MOVE_HOLD, MOVE_PIECE_SHIFT, MOVE_SPIN_SHIFT, NODE_BYTES, N_ACC, N_ATTACK, N_B2B, N_CAN_HOLD, N_CELLS, N_COMBO, N_HASH, N_HEIGHTS, N_HOLD, N_NEXT,
  N_PLIES, N_QUEUE_AT, N_QUEUE_LEFT, N_RISEN, N_ROOT, N_ROW_TRANS, N_ROWS, N_TOP, N_VALUE, TOP_OUT, T_PIECE, W_ATTACK, W_B2B_CLEAR,
  W_BACK_TO_BACK, W_BUMPINESS, W_HOLD_T, W_HOLD_T_SLOT, W_BUMPINESS_SQ, W_COMBO, W_COVERED, W_COVERED_SQ, W_HEIGHT, W_HOLES, W_KIND,
  W_OVERHANGS, W_OVER_HALF, W_OVER_QUARTER, W_PERFECT_CLEAR, W_ROW_TRANSITIONS, W_TSLOT_0, W_WASTED_T, W_WELL_DEPTH,
  WEIGHT_COUNT,
} from './layout';

@inline function rowAt(node: usize, y: i32): u32 {
  return load<u32>(node + N_ROWS + ((<usize>y) << 2));
}
@inline function setRow(node: usize, y: i32, v: u32): void {
  store<u32>(node + N_ROWS + ((<usize>y) << 2), v);
}
@inline function weight(ctx: usize, w: i32): f64 {
  return load<f64>(ctx + C_WEIGHTS + ((<usize>w) << 3));
}
@inline function attackWord(ctx: usize, w: i32): i32 {
  return load<i32>(ctx + C_ATTACK + ((<usize>w) << 2));
}
@inline function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + ((<usize>i) << 2));
}

/** Lines waiting in the incoming entries from `at` on (index MAX_INCOMING: 0), set by prepareGarbage. */
const waitingFrom = memory.data((MAX_INCOMING + 1) << 2, 4);

/** Fills waitingFrom from the context's incoming entries (once per search). */
export function prepareGarbage(ctx: usize): void {
  const n = load<i32>(ctx + C_INCOMING_COUNT);
  let sum: i32 = 0;
  store<i32>(waitingFrom + ((<usize>n) << 2), 0);
  for (let i = n - 1; i >= 0; i--) {
    sum += i32At(ctx + C_INCOMING, 2 * i);
    store<i32>(waitingFrom + ((<usize>i) << 2), sum);
  }
}

/** Lines of garbage waiting at a node: what is left of its first entry and every later one. */
@inline function waiting(ctx: usize, node: usize): i32 {
  const at = load<i32>(node + N_QUEUE_AT);
  if (at >= load<i32>(ctx + C_INCOMING_COUNT)) return 0;
  return load<i32>(node + N_QUEUE_LEFT) + i32At(waitingFrom, at + 1);
}

/** Garbage rows under the node's board for its height: the lines risen along its line and those still waiting. */
@inline function garbageRows(ctx: usize, node: usize): i32 {
  return load<i32>(node + N_RISEN) + waiting(ctx, node);
}

/** The difficult clear kinds (a Tetris, a spin that clears lines): they start or continue a back-to-back chain. */
@inline function isDifficult(kind: i32): bool {
  return kind == 4 || (kind > KIND_MINI && kind < KIND_FULL) || kind > KIND_FULL;
}

// What the last lock did (lockChild), for the move terms and for the tests' readers.
export let lockLines: i32 = 0;
export let lockKind: i32 = 0;
export let lockAttack: i32 = 0;

/**
 * Writes into `dst` the child of the node at `src` for placement `move` (MOVE_* packing of the reachable kernel's
 * landed state, spin level, piece and hold): the board after the lock and its cleared rows, the line's state after
 * it (next piece, hold, counters, garbage, plies, attack) and its acc (the parent's plus the lock's move terms, and
 * TOP_OUT when the board ends over the field: then no piece is left to it). `dst` may not be `src`. Its value and key are left for finishChild.
 */
export function lockChild(ctx: usize, src: usize, move: i32, dst: usize): void {
  const width = load<i32>(ctx + C_WIDTH);
  const full: u32 = (<u32>1 << <u32>width) - 1;
  const code = move & 0xffff;
  const spin = (move >> MOVE_SPIN_SHIFT) & 3;
  const piece = (move >> MOVE_PIECE_SHIFT) & 7;
  const s = code >> STATE_ROTATION_SHIFT;
  const y = ((code >> STATE_Y_SHIFT) & STATE_Y_MASK) - WALL;
  const x = (code & STATE_X_MASK) - WALL;
  const table = <usize>load<i32>(ctx + C_TABLES) + <usize>piece * TABLE_BYTES;
  const stateAt = table + ((<usize>(TABLE_HEADER_WORDS + s * STATE_WORDS)) << 2);
  const left = x + i32At(stateAt, S_MINDX);
  const low = y + i32At(stateAt, S_MINDY);
  const h = i32At(stateAt, S_H);
  const srcTop = load<i32>(src + N_TOP);
  // the board: the parent's rows (a node's rows from its top up are not read: they may hold anything), the piece's
  // cells, in rows that are zero first where they are over the parent's top
  // a loop: a small bulk-memory call costs more
  for (let r = 0; r < srcTop; r++) setRow(dst, r, rowAt(src, r));
  let top = max<i32>(srcTop, low + h);
  for (let r = srcTop; r < top; r++) setRow(dst, r, 0);
  // the rows the evaluator reads (measureRows), from the parent's: the piece's cells, the row transitions of its rows,
  // the heights of its columns
  const visible = load<i32>(ctx + C_VISIBLE);
  let cells = load<i32>(src + N_CELLS);
  let rowT = load<i32>(src + N_ROW_TRANS);
  store<u64>(dst + N_HEIGHTS, load<u64>(src + N_HEIGHTS));
  store<u64>(dst + N_HEIGHTS + 8, load<u64>(src + N_HEIGHTS + 8));
  for (let r = 0; r < h; r++) {
    const y = low + r;
    const was = rowAt(dst, y);
    let bits = <u32>i32At(stateAt, S_MASK + r) << <u32>left;
    const now = was | bits;
    setRow(dst, y, now);
    cells += <i32>popcnt<u32>(bits);
    if (y < visible) rowT += rowTransitionsOf(now, width) - rowTransitionsOf(was, width);
    while (bits != 0) {
      const at = dst + N_HEIGHTS + <usize>ctz<u32>(bits);
      if (<i32>load<u8>(at) <= y) store<u8>(at, <u8>(y + 1));
      bits &= bits - 1;
    }
  }
  store<i32>(dst + N_CELLS, cells);
  store<i32>(dst + N_ROW_TRANS, rowT);
  // full rows can only be among the piece's
  let lines: i32 = 0;
  for (let r = low; r < low + h; r++) if (rowAt(dst, r) == full) lines++;
  if (lines > 0) {
    let write = low;
    for (let r = low; r < top; r++) {
      const v = rowAt(dst, r);
      if (r >= low + h || v != full) setRow(dst, write++, v);
    }
    for (let r = write; r < top; r++) setRow(dst, r, 0);
    top = write;
    while (top > 0 && rowAt(dst, top - 1) == 0) top--;
    store<i32>(dst + N_TOP, top);
    measureRows(ctx, dst);
  }
  store<i32>(dst + N_TOP, top);

  // what the lock sends (src/rules/attack.ts lockAttack), and the counters after it
  const kind = spin == 0 ? lines : spin == 1 ? KIND_MINI + lines : KIND_FULL + lines;
  const combo = load<i32>(src + N_COMBO);
  const b2b = load<i32>(src + N_B2B);
  const perfect = lines > 0 && top == 0;
  let attack = attackWord(ctx, A_BASE + kind);
  let chain = false;
  let comboLines: i32 = 0;
  if (lines > 0) {
    chain = isDifficult(kind) && b2b > 0;
    if (chain) attack += attackWord(ctx, A_B2B);
    comboLines = attackWord(ctx, A_COMBO + min<i32>(combo, attackWord(ctx, A_COMBO_COUNT) - 1));
    attack += comboLines;
    if (perfect) attack = attackWord(ctx, A_PC_ADD) != 0 ? attack + attackWord(ctx, A_PC_LINES) : attackWord(ctx, A_PC_LINES);
    store<i32>(dst + N_COMBO, min<i32>(combo, 0x3fffffff) + 1);
    store<i32>(dst + N_B2B, isDifficult(kind) ? min<i32>(b2b, 0x3fffffff) + 1 : 0);
  } else {
    store<i32>(dst + N_COMBO, 0);
    store<i32>(dst + N_B2B, b2b);
  }
  lockLines = lines;
  lockKind = kind;
  lockAttack = attack;

  // the garbage: a clear cancels waiting lines with its attack, oldest first; a lock that clears nothing lets in the
  // entries due by now (docs/rules.md, "Garbage"), read as rows risen under the board
  const plies = load<i32>(src + N_PLIES);
  const entries = load<i32>(ctx + C_INCOMING_COUNT);
  let at = load<i32>(src + N_QUEUE_AT);
  let waitingLines = load<i32>(src + N_QUEUE_LEFT);
  let risen = load<i32>(src + N_RISEN);
  if (lines > 0) {
    let a = attack;
    while (a > 0 && at < entries) {
      const take = min<i32>(a, waitingLines);
      a -= take;
      waitingLines -= take;
      if (waitingLines == 0) {
        at++;
        waitingLines = at < entries ? i32At(ctx + C_INCOMING, 2 * at) : 0;
      }
    }
  } else {
    while (at < entries && i32At(ctx + C_INCOMING, 2 * at + 1) <= plies) {
      risen += waitingLines;
      at++;
      waitingLines = at < entries ? i32At(ctx + C_INCOMING, 2 * at) : 0;
    }
  }
  store<i32>(dst + N_QUEUE_AT, at);
  store<i32>(dst + N_QUEUE_LEFT, waitingLines);
  store<i32>(dst + N_RISEN, risen);
  store<i32>(dst + N_PLIES, plies + 1);
  store<i32>(dst + N_ATTACK, load<i32>(src + N_ATTACK) + attack);

  // the next piece and the hold box
  const next = load<i32>(src + N_NEXT);
  const hold = load<i32>(src + N_HOLD);
  const current = i32At(ctx + C_SEQUENCE, next);
  if ((move & MOVE_HOLD) == 0) {
    store<i32>(dst + N_NEXT, next + 1);
    store<i32>(dst + N_HOLD, hold);
  } else {
    // hold with a piece in the box plays that piece; with none, the queue's first
    store<i32>(dst + N_NEXT, hold >= 0 ? next + 1 : next + 2);
    store<i32>(dst + N_HOLD, current);
  }
  store<i32>(dst + N_CAN_HOLD, 1);
  store<i32>(dst + N_ROOT, load<i32>(src + N_ROOT));

  // the move terms, summed in the order of the weights, then added to the line's
  const wasted = piece == T_PIECE && !(spin != 0 && lines > 0);
  let terms =
    weight(ctx, W_ATTACK) * <f64>attack +
    weight(ctx, W_B2B_CLEAR) * (chain ? 1.0 : 0.0) +
    weight(ctx, W_COMBO) * <f64>comboLines +
    weight(ctx, W_PERFECT_CLEAR) * (perfect ? 1.0 : 0.0) +
    weight(ctx, W_WASTED_T) * (wasted ? 1.0 : 0.0);
  if (kind > 0) terms += weight(ctx, W_KIND + kind - 1);
  let acc = load<f64>(src + N_ACC) + terms;
  if (top + risen > load<i32>(ctx + C_VISIBLE)) {
    // the game is over: the line places no more pieces (its board may stand over the field the placements are
    // searched on)
    acc += TOP_OUT;
    store<i32>(dst + N_NEXT, load<i32>(ctx + C_COUNT));
  }
  store<f64>(dst + N_ACC, acc);
}

/** The child's value (its acc and its board terms) and its key, after lockChild. */
export function finishChild(ctx: usize, node: usize): void {
  store<f64>(node + N_VALUE, load<f64>(node + N_ACC) + boardTerms(ctx, node, false));
  store<u64>(node + N_HASH, nodeKey(node));
}

/**
 * The node's key: two lines that reach equal keys have the same future (the board, the next piece, the hold box,
 * the combo, whether a back-to-back chain is alive, the garbage state), so the search keeps the better of them.
 * FNV-1a over 64 bits.
 */
export function nodeKey(node: usize): u64 {
  let h: u64 = 0xcbf29ce484222325;
  const top = load<i32>(node + N_TOP);
  for (let y = 0; y < top; y++) h = (h ^ <u64>rowAt(node, y)) * 0x100000001b3;
  h = (h ^ <u64>top) * 0x100000001b3;
  h = (h ^ <u64>(load<i32>(node + N_HOLD) + 1)) * 0x100000001b3;
  h = (h ^ <u64>load<i32>(node + N_NEXT)) * 0x100000001b3;
  h = (h ^ <u64>min<i32>(load<i32>(node + N_COMBO), 63)) * 0x100000001b3;
  h = (h ^ <u64>(load<i32>(node + N_B2B) > 0 ? 1 : 0)) * 0x100000001b3;
  h = (h ^ <u64>load<i32>(node + N_QUEUE_AT)) * 0x100000001b3;
  h = (h ^ <u64>load<i32>(node + N_QUEUE_LEFT)) * 0x100000001b3;
  h = (h ^ <u64>load<i32>(node + N_RISEN)) * 0x100000001b3;
  return h;
}

/** Where the column heights of the node being measured (termsOf) are: its N_HEIGHTS. */
let heightsOf: usize = 0;
@inline function heightAt(c: i32): i32 {
  return <i32>load<u8>(heightsOf + <usize>c);
}

/** Row transitions of one row (bit x = column x): the walls are filled. */
@inline function rowTransitionsOf(bits: u32, width: i32): i32 {
  const ext = 1 | (bits << 1) | (<u32>1 << <u32>(width + 1));
  return <i32>popcnt<u32>((ext ^ (ext >> 1)) & ((<u32>1 << <u32>(width + 1)) - 1));
}

/** Writes the node's N_CELLS, N_ROW_TRANS and N_HEIGHTS from its rows. */
export function measureRows(ctx: usize, node: usize): void {
  const width = load<i32>(ctx + C_WIDTH);
  const visible = load<i32>(ctx + C_VISIBLE);
  const top = load<i32>(node + N_TOP);
  store<u64>(node + N_HEIGHTS, 0);
  store<u64>(node + N_HEIGHTS + 8, 0);
  let above: u32 = 0;
  let cells: i32 = 0;
  let rowT: i32 = 2 * max<i32>(0, visible - top);
  for (let y = top - 1; y >= 0; y--) {
    const r = rowAt(node, y);
    cells += <i32>popcnt<u32>(r);
    if (y < visible) rowT += rowTransitionsOf(r, width);
    let fresh = r & ~above;
    above |= fresh;
    while (fresh != 0) {
      store<u8>(node + N_HEIGHTS + <usize>ctz<u32>(fresh), <u8>(y + 1));
      fresh &= fresh - 1;
    }
  }
  store<i32>(node + N_CELLS, cells);
  store<i32>(node + N_ROW_TRANS, rowT);
}

/** The cells of the T in the best T-slot bestTSlot found (x, y of each of the four), i32 each. */
const slotCells = memory.data(8 << 2, 4);
@inline function setSlotCells(x0: i32, y0: i32, x1: i32, y1: i32, x2: i32, y2: i32, x3: i32, y3: i32): void {
  store<i32>(slotCells, x0);
  store<i32>(slotCells + 4, y0);
  store<i32>(slotCells + 8, x1);
  store<i32>(slotCells + 12, y1);
  store<i32>(slotCells + 16, x2);
  store<i32>(slotCells + 20, y2);
  store<i32>(slotCells + 24, x3);
  store<i32>(slotCells + 28, y3);
}

// The columns where the heights alone allow a T-slot (bit x = column x), from termsOf's column pass for bestTSlot:
// every slot needs a pattern of steps between the heights of neighbouring columns, so most boards have none and the
// rest only a few to read the rows of.
/** T-spin double stems (stemOfDouble). */
let slotDoubles: u32 = 0;
/** T-spin triple notches with the shaft on their right (side -1: shaft n + 1, notch n >= 2): the shaft's column at
 * least two over the notch's (the cell over the shaft), the column past the notch no higher than it. */
let slotTriplesRight: u32 = 0;
/** The same with the shaft on their left (side 1: shaft n - 1, notch n <= width - 3). */
let slotTriplesLeft: u32 = 0;

/**
 * Whether the heights allow a T-spin double with its stem in column x (1 <= x <= width - 2): the column under both
 * neighbours (empty from the wing's row down to the stem), one neighbour the open side (its top the stem's row) and
 * the other at least two higher (the overhang over its wing). One of the two steps around x is then 2 or more.
 */
@inline function stemOfDouble(x: i32): bool {
  const a = heightAt(x - 1);
  const b = heightAt(x + 1);
  return heightAt(x) < min<i32>(a, b) && abs<i32>(a - b) >= 2;
}

/**
 * Sets slotDoubles, slotTriplesRight and slotTriplesLeft from the heights (termsOf's) and `steep`, the columns c
 * whose step d(c) = h(c + 1) - h(c) is at least 2 either way (every slot needs one: most boards have few); whether any
 * is set.
 */
function slotColumns(width: i32, steep: u32): bool {
  let doubles: u32 = 0;
  let right: u32 = 0;
  let left: u32 = 0;
  while (steep != 0) {
    const c = <i32>ctz<u32>(steep);
    steep &= steep - 1;
    const hc = heightAt(c);
    const d = heightAt(c + 1) - hc;
    if (d > 0) {
      // up at c: a triple's shaft over notch c (the column before it no higher), a double's stem c
      if (c >= 2 && heightAt(c - 1) <= hc) right |= <u32>1 << <u32>c;
      if (c >= 1 && stemOfDouble(c)) doubles |= <u32>1 << <u32>c;
    } else {
      // down at c: a triple's shaft over notch c + 1 (the column after it no higher), a double's stem c + 1
      const n = c + 1;
      const hn = hc + d;
      if (n <= width - 3 && heightAt(n + 1) <= hn) left |= <u32>1 << <u32>n;
      if (n <= width - 2 && stemOfDouble(n)) doubles |= <u32>1 << <u32>n;
    }
  }
  slotDoubles = doubles;
  slotTriplesRight = right;
  slotTriplesLeft = left;
  return (doubles | right | left) != 0;
}

/** The most T-spins boardTerms imagines in a row (C_TSLOT_CUTS). */
const MAX_CUTS = 4;
/** The boards after the imagined T-spins, one node per spin. */
const cutNodes = memory.data(NODE_BYTES * MAX_CUTS, 8);

/**
 * Writes into `dst` the node's board after a T locks into the best T-slot's cells (slotCells) and the rows it fills
 * clear; the rest of the node (its garbage, counters, hold) copied as it is.
 */
function cutTSlot(ctx: usize, node: usize, dst: usize): void {
  const full: u32 = (<u32>1 << <u32>load<i32>(ctx + C_WIDTH)) - 1;
  memory.copy(dst, node, NODE_BYTES);
  for (let i = 0; i < 4; i++) {
    const x = load<i32>(slotCells + ((<usize>(2 * i)) << 2));
    const y = load<i32>(slotCells + ((<usize>(2 * i + 1)) << 2));
    setRow(dst, y, rowAt(dst, y) | (<u32>1 << <u32>x));
  }
  // every slot cell is under the node's top (each slot has a filled cell over its T)
  let top = load<i32>(node + N_TOP);
  let write: i32 = 0;
  for (let r = 0; r < top; r++) {
    const v = rowAt(dst, r);
    if (v != full) setRow(dst, write++, v);
  }
  top = write;
  while (top > 0 && rowAt(dst, top - 1) == 0) top--;
  store<i32>(dst + N_TOP, top);
  measureRows(ctx, dst);
}

/**
 * Rows a T-spin would clear in the best T-slot of the board (-1: none): a slot the T can reach from above, whose
 * three corners are filled with both front ones, so that a T turned into it makes a full spin.
 * - T-spin double slot (the T pointing down, centre (x, y + 1), its stem at (x, y) with column x empty from y up:
 *   on column x's top, or hanging over a hole under it): both cells under its wings filled, its wings and centre
 *   empty, one cell over a wing filled (the overhang that makes the third corner) and the column on the other side
 *   open from the wing's row up, where the T comes down and turns in.
 * - T-spin triple slot (the T upright in column c, pointing to the side, rows y - 1 .. y + 1): column c empty from
 *   y - 1 to y + 2 under a filled cell at y + 3, the notch beside row y empty between two filled cells; the T rests
 *   flat over the notch's column, slid under that cell from the other side (its columns open from row y + 2 up), and
 *   turns into the shaft by SRS's fifth kick (the first four are blocked by the cell over the shaft and the notch's
 *   upper cell).
 */
function bestTSlot(node: usize, width: i32): i32 {
  // the columns worth reading the rows of: slotDoubles, slotTriplesRight, slotTriplesLeft (termsOf's column pass)
  // the best slot's T (slotCells): its cells, x then y
  const full: u32 = (<u32>1 << <u32>width) - 1;
  const top = load<i32>(node + N_TOP);
  let best: i32 = -1;
  // T-spin double, stem in column x
  let doubles = slotDoubles;
  while (doubles != 0) {
    const x = <i32>ctz<u32>(doubles);
    doubles &= doubles - 1;
    // stem in row y, wings in row y + 1, the overhang in row y + 2; y is the open side's top (that column's height
    // is y + 1, the overhang's higher); column x is empty from y up (deeper: the T hangs on the cells under its
    // wings, over a hole)
    const y = min<i32>(heightAt(x - 1), heightAt(x + 1)) - 1;
    if (heightAt(x) > y) continue;
    if (y + 2 >= top) continue; // the overhang is a filled cell, so under the top
    const sides: u32 = <u32>5 << <u32>(x - 1);
    if ((rowAt(node, y) & sides) != sides || (rowAt(node, y + 1) & sides) != 0) continue;
    const roof = rowAt(node, y + 2) & sides;
    if (roof == 0 || roof == sides) continue;
    // the T comes down on the side without the overhang: that column open from the wing's row up
    if (heightAt(roof == (<u32>1 << <u32>(x - 1)) ? x + 1 : x - 1) != y + 1) continue;
    let lines: i32 = 0;
    if ((rowAt(node, y) | (<u32>1 << <u32>x)) == full) lines++;
    if ((rowAt(node, y + 1) | (<u32>7 << <u32>(x - 1))) == full) lines++;
    if (lines > best) {
      best = lines;
      setSlotCells(x, y, x - 1, y + 1, x, y + 1, x + 1, y + 1);
    }
  }
  // T-spin triple, notch in column n, shaft in column n - side
  const fromRight = slotTriplesRight;
  const fromLeft = slotTriplesLeft;
  let triples = fromRight | fromLeft;
  while (triples != 0) {
    const n = <i32>ctz<u32>(triples);
    triples &= triples - 1;
    // row y + 1 is the notch column's top
    const y = heightAt(n) - 2;
    if (y < 1 || y + 4 > top) continue;
    const notch: u32 = <u32>1 << <u32>n;
    for (let side = -1; side <= 1; side += 2) {
      if (((side < 0 ? fromRight : fromLeft) & notch) == 0) continue;
      // the shaft in column c = n - side, the T entering from beyond the notch (columns n + side, n + 2 side)
      const c = n - side;
      const far = n + side;
      const beyond = n + 2 * side;
      if (c < 0 || c >= width || beyond < 0 || beyond >= width) continue;
      if (heightAt(far) > y + 2 || heightAt(beyond) > y + 2) continue;
      if ((rowAt(node, y) & notch) != 0 || (rowAt(node, y - 1) & notch) == 0) continue;
      const bar: u32 = <u32>1 << <u32>c;
      if ((rowAt(node, y + 3) & bar) == 0) continue;
      if (((rowAt(node, y - 1) | rowAt(node, y) | rowAt(node, y + 1) | rowAt(node, y + 2)) & bar) != 0) continue;
      // the third corner: a cell behind the shaft in row y - 1 or y + 1 (the wall counts)
      const back = c - side;
      if (back >= 0 && back < width && ((rowAt(node, y - 1) | rowAt(node, y + 1)) & (<u32>1 << <u32>back)) == 0) continue;
      let lines: i32 = 0;
      if ((rowAt(node, y - 1) | bar) == full) lines++;
      if ((rowAt(node, y) | bar | notch) == full) lines++;
      if ((rowAt(node, y + 1) | bar) == full) lines++;
      if (lines > best) {
        best = lines;
        setSlotCells(c, y - 1, c, y, c, y + 1, n, y);
      }
    }
  }
  return best;
}

/**
 * The board terms of the node (W_HEIGHT .. W_BACK_TO_BACK), weighted and summed in that order; with `record`, the
 * terms themselves also go to C_FEATURES. A pass over the rows from the top down finds each column's height; a pass
 * over the columns the well, the bumpiness and where a T-slot may be; a second pass over the rows the empty cells
 * under the tops (with or without an open column beside them), the covered cells and the row transitions; then the
 * T-slots.
 */
export function boardTerms(ctx: usize, node: usize, record: bool): f64 {
  measureRows(ctx, node);
  return termsOf(ctx, node, record, tSlotCuts(ctx), -Infinity, true);
}

/**
 * The node's board terms when they may be over `floor`; else -Infinity (then they are not: a bound on them, see
 * prepareBound, says so). For the search's children: one whose value cannot enter a full level needs no more.
 */
export function boardTermsOver(ctx: usize, node: usize, floor: f64): f64 {
  return termsOf(ctx, node, false, tSlotCuts(ctx), boundOn ? floor : -Infinity, true);
}

/** The T-spins termsOf imagines on a board (-1: the best T-slot valued as it stands). A T in the hold box adds none:
 * its own terms value it (termsOf, the board's own call). */
@inline function tSlotCuts(ctx: usize): i32 {
  const cuts = load<i32>(ctx + C_TSLOT_CUTS);
  return cuts == 0 ? -1 : cuts;
}

// The bound on the board terms (boardTermsOver), taken once the heights and the row transitions are known and the
// T-slot found: the terms known by then exactly (the height and its excess, the bumpiness and its squares, the row
// transitions, the slot's weight, the back-to-back chain), and the most the others can add — the empty cells under
// the tops (known in number) all of the dearer kind, each column with one at least one covered cell, the well at its
// deepest (4 rows). A weight that leaves a term unbounded (the covered cells' over 0) turns the bound off.
/** Whether the bound holds for this search (prepareBound). */
let boundOn = false;
/** The most the well can add (prepareBound). */
let boundWell: f64 = 0;

/** Sets the bound up for a search. */
export function prepareBound(ctx: usize): void {
  boundOn = load<i32>(ctx + C_BOUND) != 0 && weight(ctx, W_COVERED) <= 0 && weight(ctx, W_COVERED_SQ) <= 0;
  boundWell = max<f64>(0, weight(ctx, W_WELL_DEPTH) * 4);
}

/**
 * The board terms of the node with `cuts` T-spins to imagine (-1: the best T-slot valued as it stands): while one is
 * left and the board has a T-slot, the slot's weight plus the terms of the board after its T-spin (cutTSlot). A
 * board without a T-slot whose bound is at most `floor` returns -Infinity at once.
 */
function termsOf(ctx: usize, node: usize, record: bool, cuts: i32, floor: f64, holdBox: bool): f64 {
  const width = load<i32>(ctx + C_WIDTH);
  const visible = load<i32>(ctx + C_VISIBLE);
  const full: u32 = (<u32>1 << <u32>width) - 1;
  const top = load<i32>(node + N_TOP);
  // each column's height, the filled cells, the row transitions: kept in the node (measureRows)
  heightsOf = node + N_HEIGHTS;
  const cells = load<i32>(node + N_CELLS);
  const rowT = load<i32>(node + N_ROW_TRANS);
  let above: u32 = 0; //   columns with a filled cell over the row
  // the columns: the well (the lowest column, the rightmost of equals), the highest, the bumpiness
  let well: i32 = 0;
  let highest: i32 = 0;
  let under: i32 = 0; //   cells under the columns' tops
  let steep: u32 = 0; //   columns c whose step h(c + 1) - h(c) is at least 2 either way
  for (let c = 0; c < width; c++) {
    const hc = heightAt(c);
    if (hc <= heightAt(well)) well = c;
    if (hc > highest) highest = hc;
    under += hc;
    // column `width` reads as 0: the last step is left out
    steep |= <u32>(<u32>(heightAt(c + 1) - hc + 1) > 2) << <u32>c;
  }
  steep &= (<u32>1 << <u32>(width - 1)) - 1;
  let bump: i32 = 0;
  let bumpSq: i32 = 0;
  let prev: i32 = -1;
  for (let c = 0; c < width; c++) {
    if (c == well) continue;
    if (prev >= 0) {
      const d = abs<i32>(heightAt(c) - heightAt(prev));
      bump += d;
      bumpSq += d * d;
    }
    prev = c;
  }
  const height = highest + garbageRows(ctx, node);
  const overHalf = max<i32>(0, height - 10);
  const overQuarter = max<i32>(0, height - 15);
  const b2b = load<i32>(node + N_B2B) > 0 ? 1 : 0;
  // the empty cells under the tops: each a hole or an overhang
  const empties = under - cells;
  // every T-slot has a filled cell over an empty one (its roof, the cell over its shaft): none without one
  let slot: i32 = -1;
  if (cuts != 0 && empties > 0 && slotColumns(width, steep)) slot = bestTSlot(node, width);
  // the hold box's terms (the board's own call, not an imagined T-spin's): a T held, more over this board's slot;
  // known exactly here, so the bound below takes them as they are
  const heldT = holdBox && load<i32>(node + N_HOLD) == T_PIECE;
  const hold: f64 = heldT ? weight(ctx, W_HOLD_T) + (slot >= 0 ? weight(ctx, W_HOLD_T_SLOT) : 0.0) : 0.0;
  floor -= hold;
  if (slot >= 0 && cuts > 0) {
    // the T-spin imagined: the slot's weight, then the board after it (its own slots while spins are left; its floor
    // less the slot's weight)
    const cut = cutNodes + <usize>(MAX_CUTS - cuts) * NODE_BYTES;
    cutTSlot(ctx, node, cut);
    const w = weight(ctx, W_TSLOT_0 + slot);
    const rest = termsOf(ctx, cut, record, cuts - 1, floor - w, false);
    if (record && holdBox) recordHold(ctx, heldT, slot);
    if (record) {
      const at = ctx + C_FEATURES + ((<usize>(W_TSLOT_0 + slot)) << 3);
      store<f64>(at, load<f64>(at) + 1);
    }
    return w + rest + hold;
  }
  // the terms the heights and row transitions give, summed once for the bound and the value (left to right, so the
  // value is the same sum bit for bit)
  const known =
    weight(ctx, W_HEIGHT) * <f64>height +
    weight(ctx, W_OVER_HALF) * <f64>overHalf +
    weight(ctx, W_OVER_QUARTER) * <f64>overQuarter +
    weight(ctx, W_BUMPINESS) * <f64>bump +
    weight(ctx, W_BUMPINESS_SQ) * <f64>bumpSq +
    weight(ctx, W_ROW_TRANSITIONS) * <f64>rowT;
  if (floor > -Infinity) {
    // the terms known by now (the slot's weight too, valued as it stands), and the most the others can add: the
    // empty cells all of the dearer kind's weight, each column with one at least one covered cell, the well its
    // deepest (the slack covers the rounding of weights that are not whole numbers)
    let bound = known + max<f64>(weight(ctx, W_HOLES), weight(ctx, W_OVERHANGS)) * <f64>empties + boundWell;
    if (empties > 0) bound += weight(ctx, W_COVERED) + weight(ctx, W_COVERED_SQ);
    if (slot >= 0) bound += weight(ctx, W_TSLOT_0 + slot);
    bound += weight(ctx, W_BACK_TO_BACK) * <f64>b2b;
    if (bound <= floor - 1e-9 * (1 + abs<f64>(floor) + abs<f64>(bound))) return -Infinity;
  }
  let holes: i32 = 0;
  let overhangs: i32 = 0;
  let covered: i32 = 0;
  let coveredSq: i32 = 0;
  if (empties > 0) {
    // the rows again from the top down: which empty cells have an open column beside them, the covered cells
    above = 0;
    let holed: u32 = 0; // columns whose highest empty cell under the top is found
    for (let y = top - 1; y >= 0; y--) {
      const r = rowAt(node, y);
      const empty = above & ~r & full;
      if (empty != 0) {
        const open = full & ~(above | r); // columns with nothing at or over this row
        const side = ((open << 1) | (open >> 1)) & full;
        overhangs += <i32>popcnt<u32>(empty & side);
        holes += <i32>popcnt<u32>(empty & ~side);
        let first = empty & ~holed;
        holed |= first;
        while (first != 0) {
          const c = <i32>ctz<u32>(first);
          const k = min<i32>(6, heightAt(c) - 1 - y);
          covered += k;
          coveredSq += k * k;
          first &= first - 1;
        }
      }
      above |= r;
    }
  }
  const wellMask = full & ~(<u32>1 << <u32>well);
  let depth: i32 = 0;
  for (let y = heightAt(well); y < top && depth < 4; y++) {
    if (rowAt(node, y) != wellMask) break;
    depth++;
  }
  if (record) {
    const f = ctx + C_FEATURES;
    for (let i = 0; i < WEIGHT_COUNT; i++) store<f64>(f + ((<usize>i) << 3), 0);
    store<f64>(f + (W_HEIGHT << 3), <f64>height);
    store<f64>(f + (W_OVER_HALF << 3), <f64>overHalf);
    store<f64>(f + (W_OVER_QUARTER << 3), <f64>overQuarter);
    store<f64>(f + (W_BUMPINESS << 3), <f64>bump);
    store<f64>(f + (W_BUMPINESS_SQ << 3), <f64>bumpSq);
    store<f64>(f + (W_ROW_TRANSITIONS << 3), <f64>rowT);
    store<f64>(f + (W_HOLES << 3), <f64>holes);
    store<f64>(f + (W_OVERHANGS << 3), <f64>overhangs);
    store<f64>(f + (W_COVERED << 3), <f64>covered);
    store<f64>(f + (W_COVERED_SQ << 3), <f64>coveredSq);
    store<f64>(f + (W_WELL_DEPTH << 3), <f64>depth);
    if (slot >= 0) store<f64>(f + ((<usize>(W_TSLOT_0 + slot)) << 3), 1);
    store<f64>(f + (W_BACK_TO_BACK << 3), <f64>b2b);
  }
  let v =
    known +
    weight(ctx, W_HOLES) * <f64>holes +
    weight(ctx, W_OVERHANGS) * <f64>overhangs +
    weight(ctx, W_COVERED) * <f64>covered +
    weight(ctx, W_COVERED_SQ) * <f64>coveredSq +
    weight(ctx, W_WELL_DEPTH) * <f64>depth;
  if (slot >= 0) v += weight(ctx, W_TSLOT_0 + slot);
  v += weight(ctx, W_BACK_TO_BACK) * <f64>b2b;
  if (record && holdBox) recordHold(ctx, heldT, slot);
  return v + hold;
}

/** The hold box's terms in C_FEATURES (after the deepest termsOf call has cleared them): a T held, over a slot. */
function recordHold(ctx: usize, heldT: bool, slot: i32): void {
  const f = ctx + C_FEATURES;
  store<f64>(f + (W_HOLD_T << 3), heldT ? 1.0 : 0.0);
  store<f64>(f + (W_HOLD_T_SLOT << 3), heldT && slot >= 0 ? 1.0 : 0.0);
}
