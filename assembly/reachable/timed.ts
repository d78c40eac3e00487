// The reachable kernel's frame-by-frame search (docs/rules.md, "Time: NES Tetris as it is played"): every lock
// placement a piece reaches under a game's gravity and the player's input timeline or DAS, each with a cheapest
// frame-input sequence. src/rules/kernel.ts writes the parameters (O_GRAVITY_FRAMES …) and reads the nodes back
// into frame inputs; test/reference/timed-reference.ts is the independent model it is tested against.
//
// The model: the piece appears at the spawn state; on every frame the game applies the frame's shift, then its turn
// (no kicks: the rotation systems searched here have none), then gravity, which on a gravity frame moves the piece
// down (one row, or more at a double killscreen) and locks it where the move is blocked. Since nothing else moves
// the piece down, its row is a function of the frame, and a search state is what else is known at the start of a
// frame: rotation and column, and under DAS the held direction with its counter and the turn button pressed on the
// frame before (the same button is not pressed on two frames in a row). A key numbers those states of one frame:
// (das * 3 + lastTurn) << 7 | rotation << 5 | (x + WALL); a lock is a key from TIMED_LOCKS.
//
// Frames are searched in order; the nodes of a frame are kept (with the node each was reached from and the frame's
// token) so every lock has its inputs. A state reached by several sequences keeps the cheapest: fewest presses (a
// shift and a turn on one frame are two; a DAS hold is one press however many shifts it makes), then the smallest
// sum of the press frames (inputs as early as they can be), then the first found. Under a tap timeline nothing but
// gravity happens between input frames, so nodes are made on input frames and on locks only.
import {
  DAS_HOLDING,
  DAS_NOT_PRESSED,
  DAS_RELEASED,
  MAX_STATES,
  NODE_COST,
  NODE_FRAME,
  NODE_INFO,
  NODE_KEY_MASK,
  NODE_PARENT,
  NODE_TOKEN_SHIFT,
  NODE_WORDS,
  OUT_FROM,
  OUT_LANDED,
  OUT_WORDS,
  O_DAS_DELAY,
  O_DAS_REPEAT,
  O_GRAVITY_FRAMES,
  O_GRAVITY_ROWS,
  O_LOCK,
  O_OUT,
  O_SEEN,
  O_SPAWN_S,
  O_SPAWN_X,
  O_SPAWN_Y,
  O_TIMED_AT,
  O_TIMED_NODES,
  O_TIMELINE_MASK,
  O_TIMELINE_PERIOD,
  STATE_ROTATION_SHIFT,
  STATE_Y_SHIFT,
  S_CDX,
  S_CDY,
  S_H,
  S_MINDY,
  S_NEXT,
  S_MINDX,
  S_SHAPE,
  TAP_AFTER,
  TAP_FRAME_SHIFT,
  TAP_FRAME_WORDS,
  TAP_LAYERS,
  TAP_LAYER_SHIFT,
  TAP_STEP_SHIFT,
  TAP_TOKENS,
  TAP_USED,
  TIMED_FRONT,
  TIMED_GEN,
  TIMED_KEYS,
  TIMED_KEY_MARK,
  TIMED_KEY_NODE,
  TIMED_LOCKS,
  TIMED_NODE,
  TIMED_PRESS,
  TOKEN_TURNS,
  WALL,
} from './layout';
import { collides, ctx, fit, mark, setUp, stateIndex, tbl, useContext, word } from './board';

// the call's scratch block and counts (set by reachTimed)
let nodes: usize = 0;
let capacity: i32 = 0;
let used: i32 = 0;
let keyMark: usize = 0;
let keyNode: usize = 0;
let gen: u32 = 0;
let full = false;
let placed: i32 = 0;
let lockTop: i32 = 0;

@inline function nodeAt(i: i32): usize {
  return nodes + ((<usize>i * NODE_WORDS) << 2);
}

/** A new generation of keys: the next frame's table starts empty. */
function nextFrame(): void {
  gen++;
  if (gen == 0) {
    memory.fill(keyMark, 0, TIMED_KEYS << 2);
    gen = 1;
  }
}

/**
 * The node of `key` in this frame's table, reached from node `parent` by `token` on frame `f` at `cost`: made when
 * the key is new this frame, its way replaced when this one is cheaper. Sets `full` when there is no room.
 */
function offer(key: i32, parent: i32, token: i32, f: i32, cost: i32): void {
  const m = keyMark + (<usize>key << 2);
  if (load<u32>(m) == gen) {
    const n = nodeAt(load<i32>(keyNode + (<usize>key << 2)));
    if (cost < load<i32>(n + (NODE_COST << 2))) {
      store<i32>(n + (NODE_PARENT << 2), parent);
      store<i32>(n + (NODE_INFO << 2), key | (token << NODE_TOKEN_SHIFT));
      store<i32>(n + (NODE_COST << 2), cost);
    }
    return;
  }
  if (used >= capacity) {
    full = true;
    return;
  }
  store<u32>(m, gen);
  store<i32>(keyNode + (<usize>key << 2), used);
  const n = nodeAt(used);
  store<i32>(n + (NODE_PARENT << 2), parent);
  store<i32>(n + (NODE_INFO << 2), key | (token << NODE_TOKEN_SHIFT));
  store<i32>(n + (NODE_FRAME << 2), f);
  store<i32>(n + (NODE_COST << 2), cost);
  used++;
}

/** Rows state s at (x, y) falls on a gravity step of `rows` rows before it is blocked (-1: not blocked). */
@inline function blockedAfter(s: i32, x: i32, y: i32, rows: i32): i32 {
  for (let r = 0; r < rows; r++) if (collides(s, x, y - r - 1)) return r;
  return -1;
}

@inline function lockKey(s: i32, x: i32, r: i32): i32 {
  return TIMED_LOCKS + ((((s << 5) | (x + WALL))) << 2) + r;
}

/**
 * The state (s, x) at row y after this frame's inputs, reached from node `parent` by `token` at `cost`: with the
 * frame's gravity step when `gravity`, it locks (a lock key) or falls on (its key `next`).
 */
@inline function land(next: i32, s: i32, x: i32, y: i32, gravity: bool, rows: i32, parent: i32, token: i32, f: i32, cost: i32): void {
  if (gravity) {
    const r = blockedAfter(s, x, y, rows);
    if (r >= 0) {
      offer(lockKey(s, x, r), parent, token, f, cost);
      return;
    }
  }
  offer(next, parent, token, f, cost);
}

/** Lists lock node n (its key a lock key; the piece was at row y before the frame's gravity): emitLock of the
 * state, column and row its key holds, with n as its OUT_FROM. */
function emit(n: i32, y: i32): void {
  const key = (load<i32>(nodeAt(n) + (NODE_INFO << 2)) & NODE_KEY_MASK) - TIMED_LOCKS;
  const r = key & 3;
  emitLock(key >> 7, ((key >> 2) & 31) - WALL, y - r, n);
}

/**
 * Lists every lock placement of the piece whose table is at `table` under the timing the context holds; returns how
 * many (0: the piece cannot appear, a top-out), or -1 when the scratch block has no room for the search's nodes or
 * frames (TypeScript gives it a larger one and calls again). A placement's OUT_FROM is its lock node under DAS, and
 * under a tap timeline what tapPath needs (TAP_FRAME_SHIFT …).
 */
export function reachTimed(context: usize, table: usize, paths: bool): i32 {
  setUp(context, table);
  lockTop = load<i32>(ctx + O_LOCK);
  const s0 = load<i32>(ctx + O_SPAWN_S);
  const x0 = load<i32>(ctx + O_SPAWN_X);
  const y0 = load<i32>(ctx + O_SPAWN_Y);
  if (collides(s0, x0, y0)) return 0;
  const gravityFrames = load<i32>(ctx + O_GRAVITY_FRAMES);
  const rows = load<i32>(ctx + O_GRAVITY_ROWS);
  const period = load<i32>(ctx + O_TIMELINE_PERIOD);
  const timeline = load<u32>(ctx + O_TIMELINE_MASK);
  const scratch = <usize>load<u32>(ctx + O_TIMED_AT);
  capacity = load<i32>(ctx + O_TIMED_NODES);
  nodes = scratch + TIMED_NODE;
  keyMark = scratch + TIMED_KEY_MARK;
  keyNode = scratch + TIMED_KEY_NODE;
  gen = load<u32>(scratch + TIMED_GEN);
  full = false;
  placed = 0;
  used = 0;

  if (period != 0) return reachTap(scratch, s0, x0, y0, gravityFrames, rows, timeline, period, paths ? TAP_LAYERS : 1);
  let front = scratch + TIMED_FRONT;
  let back = front + (TIMED_KEYS << 2);
  const charged = timeline != 0;
  // the spawn: no token, before frame 0
  nextFrame();
  offer(rootKeyDas(s0, x0), -1, 0, -1, 0);
  store<i32>(front, 0);
  let inFront = 1;
  let y = y0;
  for (let f = 0; inFront > 0 && !full; f++) {
    const gravity = f % gravityFrames == gravityFrames - 1;
    nextFrame();
    const start = used;
    for (let i = 0; i < inFront; i++) expandDas(load<i32>(front + (<usize>i << 2)), f, y, gravity, rows, charged);
    let next = 0;
    for (let n = start; n < used; n++) {
      if ((load<i32>(nodeAt(n) + (NODE_INFO << 2)) & NODE_KEY_MASK) >= TIMED_LOCKS) emit(n, y);
      else store<i32>(back + (<usize>(next++) << 2), n);
    }
    const t = front;
    front = back;
    back = t;
    inFront = next;
    if (gravity) y -= rows;
  }
  store<u32>(scratch + TIMED_GEN, gen);
  return full ? -1 : placed;
}

@inline function rootKeyDas(s: i32, x: i32): i32 {
  return ((DAS_NOT_PRESSED * 3) << 7) | (s << 5) | (x + WALL);
}

// the node a DAS frame starts from, and its row, gravity and cost (set by expandDas for dasChoice)
let dasFrom: i32 = 0;
let dasFrame: i32 = 0;
let dasY: i32 = 0;
let dasGravity = false;
let dasRows: i32 = 0;
let dasCost: i32 = 0;
let dasLastTurn: i32 = 0;

/**
 * One shift choice of a DAS frame for the piece (s, x): the DAS state `next` after it, the column it moves by and
 * its presses; then no turn, or a turn by a button not pressed on the frame before.
 */
function dasChoice(next: i32, s: i32, x: i32, dx: i32, press: i32): void {
  const nx = x + dx;
  const shift = dx == 0 ? 0 : dx < 0 ? 1 : 2;
  for (let turn = 0; turn < 3; turn++) {
    let ns = s;
    if (turn != 0) {
      if (turn == dasLastTurn) continue;
      ns = word(s, S_NEXT + turn - 1);
      if (ns == s || collides(ns, nx, dasY)) continue;
    }
    const presses = press + (turn != 0 ? 1 : 0);
    const c = dasCost + presses * (TIMED_PRESS + dasFrame);
    const key = ((next * 3 + turn) << 7) | (ns << 5) | (nx + WALL);
    land(key, ns, nx, dasY, dasGravity, dasRows, dasFrom, shift * TOKEN_TURNS + turn, dasFrame, c);
  }
}

/**
 * DAS: from node n, each shift choice. A press shifts at once (or, blocked, charges: NES sets the counter to the
 * delay); a held direction counts up and tries to shift at the delay, then again every `repeat` frames (a blocked
 * try leaves it at the delay, to try on the next frame). A hold that starts charged on the first frame shifts at once
 * and counts the repeat. Releasing is free, so it is made only where holding would shift: that keeps every sequence
 * of shifts and leaves out states that differ only in when an idle button was let go.
 */
function expandDas(n: i32, f: i32, y: i32, gravity: bool, rows: i32, charged: bool): void {
  const at = nodeAt(n);
  const key = load<i32>(at + (NODE_INFO << 2)) & NODE_KEY_MASK;
  const s = (key >> 5) & 3;
  const x = (key & 31) - WALL;
  const h = (key >> 7) / 3;
  dasFrom = n;
  dasFrame = f;
  dasY = y;
  dasGravity = gravity;
  dasRows = rows;
  dasCost = load<i32>(at + (NODE_COST << 2));
  dasLastTurn = (key >> 7) % 3;
  const delay = load<i32>(ctx + O_DAS_DELAY);
  const repeat = load<i32>(ctx + O_DAS_REPEAT);
  if (h == DAS_RELEASED) {
    dasChoice(h, s, x, 0, 0);
    return;
  }
  if (h == DAS_NOT_PRESSED) {
    dasChoice(h, s, x, 0, 0);
    for (let dir = 0; dir < 2; dir++) {
      const dx = dir == 0 ? -1 : 1;
      const holding = DAS_HOLDING + dir * (delay + 1);
      const free = !collides(s, x + dx, y);
      dasChoice(holding + (free ? 0 : delay), s, x, free ? dx : 0, 1);
      // held through the entry delay: the counter starts full, and after this shift it counts the repeat
      if (charged && f == 0 && free) dasChoice(holding + delay - repeat, s, x, dx, 1);
    }
    return;
  }
  const dir = (h - DAS_HOLDING) / (delay + 1);
  const holding = DAS_HOLDING + dir * (delay + 1);
  const counter = h - holding + 1;
  if (counter < delay) {
    dasChoice(holding + counter, s, x, 0, 0);
    return;
  }
  const dx = dir == 0 ? -1 : 1;
  const free = !collides(s, x + dx, y);
  dasChoice(holding + (free ? delay - repeat : delay), s, x, free ? dx : 0, 0);
  dasChoice(DAS_RELEASED, s, x, 0, 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Tap timelines. Between input frames only gravity acts, and an input frame's choices are the same for every column,
// so the search keeps, per frame, press count and rotation state, the set of columns as a bit mask (bit x + WALL):
// a shift is a shifted mask, a turn keeps the columns (no kicks), collision is the fit mask of the state's row.
// Press counts are layers: a state is in the layer of the fewest presses that reach it (the last layer holds those
// needing that many or more). A placement's inputs are found afterwards by walking back from its lock (tapPath).

/** Where state s fits in row y, as a mask over reference columns (bit x + WALL). */
@inline function fits(s: i32, y: i32): u32 {
  const f = fit(s, y);
  const d = word(s, S_MINDX);
  return d >= 0 ? f >>> <u32>d : f << <u32>-d;
}

@inline function frameAt(f: i32): usize {
  return nodes + ((<usize>f * TAP_FRAME_WORDS) << 2);
}
@inline function maskAt(rec: usize, layer: i32, s: i32): usize {
  return rec + ((<usize>(layer * MAX_STATES + s)) << 2);
}

/** The search under a tap timeline (reachTimed's, with its parameters read). */
function reachTap(
  scratch: usize,
  s0: i32,
  x0: i32,
  y0: i32,
  gravityFrames: i32,
  rows: i32,
  timeline: u32,
  period: i32,
  maxLayers: i32,
): i32 {
  const frames = min((capacity * NODE_WORDS) / TAP_FRAME_WORDS, TIMED_KEYS);
  const states = load<i32>(tbl);
  const after = scratch + TAP_AFTER;
  const usedAt = scratch + TAP_USED;
  clearWords(frameAt(0), MAX_STATES);
  store<u32>(maskAt(frameAt(0), 0, s0), <u32>1 << <u32>(x0 + WALL));
  // the records hold layers 0 .. layers - 1
  let layers = 1;
  store<i32>(usedAt, layers);
  let y = y0;
  for (let f = 0; ; f++) {
    if (f + 1 >= frames) return -1;
    const cur = frameAt(f);
    const gravity = f % gravityFrames == gravityFrames - 1;
    let afterLayers = layers;
    if (((timeline >>> <u32>(f % period)) & 1) != 0) {
      afterLayers = min(layers + 2, maxLayers);
      clearWords(after, afterLayers * MAX_STATES);
      for (let layer = 0; layer < layers; layer++) {
        const one = min(layer + 1, maxLayers - 1);
        const two = min(layer + 2, maxLayers - 1);
        for (let s = 0; s < states; s++) {
          const m = load<u32>(maskAt(cur, layer, s));
          if (m == 0) continue;
          const here = fits(s, y);
          const shifted = ((m >>> 1) | (m << 1)) & here;
          orInto(maskAt(after, layer, s), m);
          orInto(maskAt(after, one, s), shifted);
          for (let dir = 0; dir < 2; dir++) {
            const t = word(s, S_NEXT + dir);
            if (t == s) continue;
            const there = fits(t, y);
            orInto(maskAt(after, one, t), m & there);
            orInto(maskAt(after, two, t), shifted & there);
          }
        }
      }
      // each state in the layer of its fewest presses only
      for (let s = 0; s < states; s++) {
        let seen: u32 = 0;
        for (let layer = 0; layer < afterLayers; layer++) {
          const at = maskAt(after, layer, s);
          const m = load<u32>(at) & ~seen;
          store<u32>(at, m);
          seen |= m;
        }
      }
    } else copyWords(after, cur, layers * MAX_STATES);
    const next = frameAt(f + 1);
    if (gravity) {
      let alive: u32 = 0;
      let nextLayers = 0;
      for (let s = 0; s < MAX_STATES; s++) {
        // the columns that lock after r rows, over every layer
        let lock0: u32 = 0;
        let lock1: u32 = 0;
        let lock2: u32 = 0;
        let lock3: u32 = 0;
        for (let layer = 0; layer < afterLayers; layer++) {
          let m = s < states ? load<u32>(maskAt(after, layer, s)) : 0;
          for (let r = 0; r < rows && m != 0; r++) {
            const falls = m & fits(s, y - r - 1);
            const locks = m & ~falls;
            if (r == 0) lock0 |= locks;
            else if (r == 1) lock1 |= locks;
            else if (r == 2) lock2 |= locks;
            else lock3 |= locks;
            m = falls;
          }
          store<u32>(maskAt(next, layer, s), m);
          if (m != 0) nextLayers = max(nextLayers, layer + 1);
          alive |= m;
        }
        // listed by state, rows fallen, column, whatever the layers
        emitLocks(after, afterLayers, s, y, f, 0, lock0);
        emitLocks(after, afterLayers, s, y, f, 1, lock1);
        emitLocks(after, afterLayers, s, y, f, 2, lock2);
        emitLocks(after, afterLayers, s, y, f, 3, lock3);
      }
      y -= rows;
      if (alive == 0) break;
      layers = nextLayers;
    } else {
      copyWords(next, after, afterLayers * MAX_STATES);
      layers = afterLayers;
    }
    store<i32>(usedAt + (<usize>(f + 1) << 2), layers);
  }
  return placed;
}

/** Lists the locks of state s, columns `locks` (bits x + WALL), after r rows of the gravity step on frame f from row
 * y, each with the layer its state was in after the frame's inputs. */
function emitLocks(after: usize, layers: i32, s: i32, y: i32, f: i32, r: i32, locks: u32): void {
  while (locks != 0) {
    const b = <i32>ctz(locks);
    locks &= locks - 1;
    let layer = 0;
    while (layer < layers - 1 && (load<u32>(maskAt(after, layer, s)) & (<u32>1 << <u32>b)) == 0) layer++;
    emitLock(s, b - WALL, y - r, (f << TAP_FRAME_SHIFT) | (layer << TAP_LAYER_SHIFT) | (r << TAP_STEP_SHIFT) | (s << 5) | b);
  }
}

// a few words at a time: small bulk-memory calls cost more than these loops
@inline function clearWords(at: usize, n: i32): void {
  for (let i = 0; i < n; i++) store<u32>(at + (<usize>i << 2), 0);
}
@inline function copyWords(to: usize, from: usize, n: i32): void {
  for (let i = 0; i < n; i++) store<u32>(to + (<usize>i << 2), load<u32>(from + (<usize>i << 2)));
}

@inline function orInto(at: usize, m: u32): void {
  store<u32>(at, load<u32>(at) | m);
}

/** Lists the lock of state s at (x, ly), with `from` as its OUT_FROM, unless its cells are listed already or lie
 * above the board. */
@inline function emitLock(s: i32, x: i32, ly: i32, from: i32): void {
  if (ly + word(s, S_MINDY) + word(s, S_H) > lockTop) return;
  const cells =
    (word(s, S_SHAPE) << STATE_ROTATION_SHIFT) | ((ly + word(s, S_CDY) + WALL) << STATE_Y_SHIFT) | (x + word(s, S_CDX) + WALL);
  const seenAt = ctx + O_SEEN + (<usize>cells << 1);
  if (load<u16>(seenAt) == mark) return;
  store<u16>(seenAt, mark);
  const out = ctx + O_OUT + ((<usize>(placed * OUT_WORDS)) << 2);
  store<i32>(out + (OUT_LANDED << 2), stateIndex(s, x, ly));
  store<i32>(out + (OUT_FROM << 2), from);
  placed++;
}

/**
 * The frame inputs of the last tap search's placement whose OUT_FROM is `from`, one token per frame (TAP_TOKENS,
 * u8 each: shift * 3 + turn); returns how many. Walks back from the lock: on each frame the token taken is the first
 * of `.` L R A B LA LB RA RB whose state before it has the fewest presses left; so among the sequences with the fewest
 * presses, the last press comes as early as it can, then the one before it, and so on (the piece commits to its
 * placement as early as it can). Where a state needs TAP_LAYERS - 1 presses or more, any state before it serves.
 * The kernel must still hold that search (TypeScript checks).
 */
export function tapPath(context: usize, table: usize, from: i32): i32 {
  useContext(context, table);
  const scratch = <usize>load<u32>(ctx + O_TIMED_AT);
  nodes = scratch + TIMED_NODE;
  const gravityFrames = load<i32>(ctx + O_GRAVITY_FRAMES);
  const rows = load<i32>(ctx + O_GRAVITY_ROWS);
  const period = load<i32>(ctx + O_TIMELINE_PERIOD);
  const timeline = load<u32>(ctx + O_TIMELINE_MASK);
  const y0 = load<i32>(ctx + O_SPAWN_Y);
  const tokens = scratch + TAP_TOKENS;
  const last = from >>> TAP_FRAME_SHIFT;
  let layer = (from >> TAP_LAYER_SHIFT) & (TAP_LAYERS - 1);
  let s = (from >> 5) & 3;
  let x = (from & 31) - WALL;
  for (let f = last; f >= 0; f--) {
    const y = y0 - rows * (f / gravityFrames);
    const before = frameAt(f);
    const usedHere = load<i32>(scratch + TAP_USED + (<usize>f << 2));
    let token = -1;
    if (((timeline >>> <u32>(f % period)) & 1) == 0) token = 0;
    else {
      for (let k = 0; k < 9 && token < 0; k++) {
        // tokens in the order . L R A B LA LB RA RB
        const shift = k == 0 ? 0 : k <= 2 ? k : k <= 4 ? 0 : k <= 6 ? 1 : 2;
        const turn = k <= 2 ? 0 : k <= 4 ? k - 2 : ((k - 5) & 1) + 1;
        const presses = (shift != 0 ? 1 : 0) + (turn != 0 ? 1 : 0);
        const dx = shift == 0 ? 0 : shift == 1 ? -1 : 1;
        // the state before the turn: the one the turn leads from (a turn back is the other button)
        let ps = s;
        if (turn != 0) {
          ps = word(s, S_NEXT + 2 - turn);
          if (ps == s || word(ps, S_NEXT + turn - 1) != s) continue;
        }
        const px = x - dx;
        if (dx != 0 && ((fits(ps, y) >>> <u32>(x + WALL)) & 1) == 0) continue;
        if (((fits(ps, y) >>> <u32>(px + WALL)) & 1) == 0) continue;
        const bit = <u32>1 << <u32>(px + WALL);
        if (layer == TAP_LAYERS - 1) {
          // needs that many presses or more: any layer before serves
          for (let l = 0; l < usedHere; l++) {
            if ((load<u32>(maskAt(before, l, ps)) & bit) != 0) {
              layer = l;
              token = shift * TOKEN_TURNS + turn;
              break;
            }
          }
          if (token >= 0) {
            s = ps;
            x = px;
          }
          continue;
        }
        if (presses > layer || layer - presses >= usedHere) continue;
        if ((load<u32>(maskAt(before, layer - presses, ps)) & bit) == 0) continue;
        layer -= presses;
        token = shift * TOKEN_TURNS + turn;
        s = ps;
        x = px;
      }
    }
    store<u8>(tokens + <usize>f, <u8>token);
  }
  return last + 1;
}
