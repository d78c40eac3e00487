// Versus-search kernel, the beam search (docs/game.md, "The versus policy"): from the root board, each ply places one
// piece in every reachable way, with and without hold, and keeps the `beam` best distinct lines; after the known
// pieces (or C_DEPTH plies) the first move of the best line is the answer. The placements and their spins come from
// the reachable kernel's search (assembly/reachable.ts, compiled into this module; its lists kept by board in
// reach-cache.ts), or below the first ply for a piece that cannot spin from the quick list of drops and tucks
// (drops.ts, with C_QUICK); each one is locked and valued
// in a scratch node (board.ts) and offered to the level's candidates: a min-heap of the best `beam` so far, keyed by
// the child's node key, so two lines that reach the same state keep only the better one. Lines of equal value keep
// the order they were made in. Only the kept candidates become nodes of the next ply; the last ply keeps one, the
// best, so that the bound on a child's terms cuts against the best line so far. No allocation: every buffer is
// TypeScript's (src/kernels/versus.ts), its pointers in the context.
import { FLAG_SPINS, O_FLAGS, PARAM_WORDS, TABLE_BYTES } from '../reachable/layout';
import { spins } from '../reachable/spin';
import { boardTermsOver, lockChild, measureRows, nodeKey, prepareBound, prepareGarbage } from './board';
import { cachedPlacements, listAt } from './reach-cache';
import {
  CAND_BYTES, C_BEAM, C_BEST_ATTACK, C_BOUNDED, C_BEST_ROOT, C_BEST_VALUE, C_CAPACITY, C_CHILDREN, C_COUNT, C_DEPTH, C_FORCE_ROOT,
  C_HEAP, C_HOLD_ALLOWED, C_LEVELS, C_NODES, C_PARAMS, C_QUICK, C_ROOT, C_SCRATCH, C_SEQUENCE, C_SLOTS, C_SLOT_BITS,
  C_TABLES, K_GEN, K_HASH, K_MOVE, K_PARENT, K_ROOT, K_SLOT, K_VALUE, MAX_ROWS, MOVE_HOLD, MOVE_PIECE_SHIFT,
  NODE_BYTES, N_ACC, N_ATTACK, N_CAN_HOLD, N_HASH, N_HOLD, N_NEXT, N_ROOT, N_ROWS, N_TOP, N_VALUE, ROOT_HOLD,
} from './layout';

let ctx: usize = 0;
let capacity: i32 = 0;
let levels: usize = 0;
let heap: usize = 0;
let slots: usize = 0;
let slotMask: i32 = 0;
let heapSize: i32 = 0;
let keep: i32 = 0;
let gen: i32 = 0;
let nodes: i32 = 0;
let children: i32 = 0;
let bounded: i32 = 0;

@inline function nodeAt(level: i32, i: i32): usize {
  return levels + (<usize>(level * capacity + i)) * NODE_BYTES;
}
@inline function cand(i: i32): usize {
  return heap + (<usize>i) * CAND_BYTES;
}
@inline function slotAt(s: i32): usize {
  return slots + ((<usize>s) << 2);
}

// ---- the level's candidates: a min-heap (its root the worst kept) with a hash table from node key to heap place
// (open addressing, linear probing, deletion by shifting back: no tombstones) ----

/** Whether candidate a is better than b: a higher value, or an equal one made earlier. */
@inline function better(a: usize, b: usize): bool {
  const va = load<f64>(a + K_VALUE);
  const vb = load<f64>(b + K_VALUE);
  return va > vb || (va == vb && load<i32>(a + K_GEN) < load<i32>(b + K_GEN));
}

@inline function homeSlot(hash: u64): i32 {
  return (<i32>(<u32>(hash >> 32) ^ <u32>hash)) & slotMask;
}

/** Swaps the candidate records at a and b. */
@inline function swapRecords(a: usize, b: usize): void {
  for (let w: usize = 0; w < <usize>CAND_BYTES; w += 8) {
    const t = load<u64>(a + w);
    store<u64>(a + w, load<u64>(b + w));
    store<u64>(b + w, t);
  }
}

/** Swaps heap places i and j, and their slots' pointers. */
function swap(i: i32, j: i32): void {
  const a = cand(i);
  const b = cand(j);
  swapRecords(a, b);
  store<i32>(slotAt(load<i32>(a + K_SLOT)), i);
  store<i32>(slotAt(load<i32>(b + K_SLOT)), j);
}

function siftUp(i: i32): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!better(cand(p), cand(i))) break;
    swap(i, p);
    i = p;
  }
}

function siftDown(i: i32, size: i32): void {
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    let w = l;
    if (l + 1 < size && better(cand(w), cand(l + 1))) w = l + 1;
    if (!better(cand(i), cand(w))) break;
    swap(i, w);
    i = w;
  }
}

/** Frees slot s, shifting later entries of its probe run back (their candidates' K_SLOT follow). */
function freeSlot(s: i32): void {
  let i = s;
  let j = s;
  for (;;) {
    j = (j + 1) & slotMask;
    const k = load<i32>(slotAt(j));
    if (k < 0) break;
    const home = homeSlot(load<u64>(cand(k) + K_HASH));
    // the entry at j stays when its home lies cyclically in (i, j]
    if (i <= j ? home > i && home <= j : home > i || home <= j) continue;
    store<i32>(slotAt(i), k);
    store<i32>(cand(k) + K_SLOT, i);
    i = j;
  }
  store<i32>(slotAt(i), -1);
}

/** The slot holding key `hash`, or the empty slot where it would go (the result's sign bit set). */
function findSlot(hash: u64): i32 {
  let s = homeSlot(hash);
  let k = load<i32>(slotAt(s));
  while (k >= 0) {
    if (load<u64>(cand(k) + K_HASH) == hash) return s;
    s = (s + 1) & slotMask;
    k = load<i32>(slotAt(s));
  }
  return s | 0x80000000;
}

@inline function setCandidate(at: usize, value: f64, hash: u64, parent: i32, move: i32, root: i32): void {
  store<f64>(at + K_VALUE, value);
  store<u64>(at + K_HASH, hash);
  store<i32>(at + K_PARENT, parent);
  store<i32>(at + K_MOVE, move);
  store<i32>(at + K_ROOT, root);
  store<i32>(at + K_GEN, gen);
}

/**
 * Offers a child to the level: a key already kept takes a strictly higher value (and that line); a new key enters
 * while there is room, else replaces the worst kept when better than it.
 */
function offer(value: f64, hash: u64, parent: i32, move: i32, root: i32): void {
  const found = findSlot(hash);
  if (found >= 0) {
    const i = load<i32>(slotAt(found));
    const at = cand(i);
    if (value > load<f64>(at + K_VALUE)) {
      setCandidate(at, value, hash, parent, move, root);
      siftDown(i, heapSize);
    }
    gen++;
    return;
  }
  const free = found & 0x7fffffff;
  if (heapSize < keep) {
    const i = heapSize++;
    setCandidate(cand(i), value, hash, parent, move, root);
    store<i32>(cand(i) + K_SLOT, free);
    store<i32>(slotAt(free), i);
    siftUp(i);
  } else {
    const worst = cand(0);
    const v0 = load<f64>(worst + K_VALUE);
    // equal values: the kept one was made earlier, so it stays
    if (value > v0) {
      freeSlot(load<i32>(worst + K_SLOT));
      // the slot found above may have moved back by the shift: look again
      const s = findSlot(hash) & 0x7fffffff;
      setCandidate(worst, value, hash, parent, move, root);
      store<i32>(worst + K_SLOT, s);
      store<i32>(slotAt(s), 0);
      siftDown(0, heapSize);
    }
  }
  gen++;
}

/** Puts the kept candidates in order, best first (a heap sort over the min-heap: the worst goes last). */
function sortCandidates(): void {
  for (let n = heapSize - 1; n > 0; n--) {
    swapRecords(cand(0), cand(n));
    siftDownPlain(0, n);
  }
}

/** siftDown without the slots (once the level's candidates are final). */
function siftDownPlain(i: i32, size: i32): void {
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    let w = l;
    if (l + 1 < size && better(cand(w), cand(l + 1))) w = l + 1;
    if (!better(cand(i), cand(w))) break;
    swapRecords(cand(i), cand(w));
    i = w;
  }
}

// ---- expanding a node ----

/** Whether piece `pid` spins under the rule set (its search records spins and its table has spin corners). */
function spinning(pid: i32): bool {
  const params = <usize>load<i32>(ctx + C_PARAMS) + ((<usize>(pid * PARAM_WORDS)) << 2);
  return (load<i32>(params + O_FLAGS) & FLAG_SPINS) != 0 && spins(<usize>load<i32>(ctx + C_TABLES) + <usize>pid * TABLE_BYTES);
}

/** Every placement of piece `pid` on node i (hold pressed or not), valued and offered. */
function expandPiece(node: usize, i: i32, pid: i32, hold: i32, atRoot: bool): void {
  let n: i32 = -1;
  if (!atRoot && load<i32>(ctx + C_QUICK) != 0 && !spinning(pid)) n = cachedPlacements(ctx, node, pid, true);
  if (n < 0) n = cachedPlacements(ctx, node, pid, false);
  const list = listAt;
  const scratch = ctx + C_SCRATCH;
  const force = load<i32>(ctx + C_FORCE_ROOT);
  const root = load<i32>(node + N_ROOT);
  for (let k = 0; k < n; k++) {
    const moveRoot = atRoot ? (hold != 0 ? ROOT_HOLD : 0) + k : root;
    if (atRoot && force >= 0 && moveRoot != force) continue;
    // the landed state and its spin level, as the move packs them
    const move = load<i32>(list + ((<usize>k) << 2)) | (pid << MOVE_PIECE_SHIFT) | hold;
    lockChild(ctx, node, move, scratch);
    children++;
    // a full level keeps no child worth no more than its worst (offer would change nothing): its key is not needed,
    // nor its terms once a bound on them says so (boardTermsOver: then -Infinity)
    const acc = load<f64>(scratch + N_ACC);
    const full = heapSize >= keep;
    const value = acc + boardTermsOver(ctx, scratch, full ? load<f64>(cand(0) + K_VALUE) - acc : -Infinity);
    if (full && value <= load<f64>(cand(0) + K_VALUE)) {
      if (value == -Infinity) bounded++;
      gen++;
      continue;
    }
    offer(value, nodeKey(scratch), i, move, moveRoot);
  }
}

/** Every child of node i: its current piece, then (where hold may be pressed) the held piece or the queue's first. */
function expand(node: usize, i: i32, atRoot: bool): void {
  nodes++;
  const next = load<i32>(node + N_NEXT);
  const count = load<i32>(ctx + C_COUNT);
  const current = load<i32>(ctx + C_SEQUENCE + ((<usize>next) << 2));
  const held = load<i32>(node + N_HOLD);
  expandPiece(node, i, current, 0, atRoot);
  if (load<i32>(ctx + C_HOLD_ALLOWED) == 0 || load<i32>(node + N_CAN_HOLD) == 0) return;
  if (held >= 0) {
    if (held != current) expandPiece(node, i, held, MOVE_HOLD, atRoot);
  } else if (next + 1 < count) expandPiece(node, i, load<i32>(ctx + C_SEQUENCE + ((<usize>(next + 1)) << 2)), MOVE_HOLD, atRoot);
}

/**
 * The search from the root node (C_ROOT, written by TypeScript with its key): the best line's root move, value and
 * attack into C_BEST_*, and the counts of nodes and placements into C_NODES, C_CHILDREN. A node with no piece left
 * goes on as it is.
 */
export function search(context: usize): void {
  ctx = context;
  capacity = load<i32>(ctx + C_CAPACITY);
  levels = <usize>load<i32>(ctx + C_LEVELS);
  heap = <usize>load<i32>(ctx + C_HEAP);
  slots = <usize>load<i32>(ctx + C_SLOTS);
  slotMask = (1 << load<i32>(ctx + C_SLOT_BITS)) - 1;
  const beam = min<i32>(load<i32>(ctx + C_BEAM), capacity);
  nodes = 0;
  children = 0;
  bounded = 0;
  prepareGarbage(ctx);
  prepareBound(ctx);
  const count = load<i32>(ctx + C_COUNT);
  const depth = load<i32>(ctx + C_DEPTH);
  memory.copy(nodeAt(0, 0), ctx + C_ROOT, NODE_BYTES);
  measureRows(ctx, nodeAt(0, 0));
  let level: i32 = 0;
  let size: i32 = 1;
  let plies: i32 = 0;
  for (let d = 0; d < depth; d++) {
    // the last ply's lines are only compared for the best: keeping one makes the bound cut against the best so far
    // (the same line as keeping `beam`: the best, the earliest made of equal values)
    keep = d == depth - 1 ? 1 : beam;
    heapSize = 0;
    gen = 0;
    memory.fill(slots, 0xff, (<usize>(slotMask + 1)) << 2);
    let open = false;
    for (let i = 0; i < size; i++) {
      const node = nodeAt(level, i);
      if (load<i32>(node + N_NEXT) >= count) {
        offer(load<f64>(node + N_VALUE), load<u64>(node + N_HASH), i, -1, load<i32>(node + N_ROOT));
      } else {
        open = true;
        expand(node, i, d == 0);
      }
    }
    if (!open || heapSize == 0) break;
    sortCandidates();
    const to = 1 - level;
    for (let j = 0; j < heapSize; j++) {
      const c = cand(j);
      const parent = nodeAt(level, load<i32>(c + K_PARENT));
      const dst = nodeAt(to, j);
      const move = load<i32>(c + K_MOVE);
      if (move < 0) memory.copy(dst, parent, NODE_BYTES);
      else lockChild(ctx, parent, move, dst);
      store<f64>(dst + N_VALUE, load<f64>(c + K_VALUE));
      store<u64>(dst + N_HASH, load<u64>(c + K_HASH));
      store<i32>(dst + N_ROOT, load<i32>(c + K_ROOT));
    }
    size = heapSize;
    level = to;
    plies++;
  }
  store<i32>(ctx + C_NODES, nodes);
  store<i32>(ctx + C_CHILDREN, children);
  store<i32>(ctx + C_BOUNDED, bounded);
  if (plies == 0) {
    store<i32>(ctx + C_BEST_ROOT, -1);
    store<f64>(ctx + C_BEST_VALUE, 0);
    store<i32>(ctx + C_BEST_ATTACK, 0);
    return;
  }
  const best = nodeAt(level, 0);
  store<i32>(ctx + C_BEST_ROOT, load<i32>(best + N_ROOT));
  store<f64>(ctx + C_BEST_VALUE, load<f64>(best + N_VALUE));
  store<i32>(ctx + C_BEST_ATTACK, load<i32>(best + N_ATTACK));
}
