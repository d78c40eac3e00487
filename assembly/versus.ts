// Versus-search kernel (docs/game.md, "The versus policy"; map: docs/architecture.md): the guideline AI's search for
// attack, in one call per move. A beam search over the known pieces and hold whose placements (and T-spins) come
// from the reachable kernel's search, compiled into this module, and whose lines are valued by the versus
// evaluator: board terms (height, holes, overhangs, bumpiness, the well, T-slots, a back-to-back chain alive) and
// move terms (attack by the rule set's table, clear kinds, combos, perfect clears, a T placed without a spin). No
// allocation, no strings, no GC: TypeScript (src/kernels/versus.ts) lays out every buffer once.
//   versus/layout.ts  every memory layout and code shared with TypeScript
//   versus/board.ts   a lock (board, attack, counters, garbage) and the evaluator's terms
//   versus/drops.ts   the quick placement list below the first ply
//   versus/reach-cache.ts  the placement lists kept by board
//   versus/beam.ts    the beam search and its candidates
export { alloc } from './memory';
export * from './versus/layout';
export { search } from './versus/beam';
import { boardTerms, finishChild, lockChild, measureRows, prepareGarbage } from './versus/board';
import { listDrops } from './versus/drops';
import { cachedPlacements, listAt } from './versus/reach-cache';
import { C_ROOT, C_SCRATCH, N_VALUE } from './versus/layout';

/** The board terms of the root node, their sum returned and the terms recorded in C_FEATURES (for the tests). */
export function measureRoot(ctx: usize): f64 {
  prepareGarbage(ctx);
  return boardTerms(ctx, ctx + C_ROOT, true);
}

/** The root node's child for placement `move` (MOVE_* packing) into C_SCRATCH, valued; returns its value. */
export function lockRoot(ctx: usize, move: i32): f64 {
  prepareGarbage(ctx);
  measureRows(ctx, ctx + C_ROOT);
  lockChild(ctx, ctx + C_ROOT, move, ctx + C_SCRATCH);
  finishChild(ctx, ctx + C_SCRATCH);
  return load<f64>(ctx + C_SCRATCH + N_VALUE);
}

/** The quick placement list of piece `pid` on the root node's board (drops.ts) in the reachable kernel's output; its
 * count, -1 when the board is too high for it (for the tests). */
export function quickRoot(ctx: usize, pid: i32): i32 {
  return listDrops(ctx, ctx + C_ROOT, pid);
}

/** The placement list of piece `pid` on the root node's board as the search reads it (reach-cache.ts: the quick list
 * with `quick`, else the full search's); its count, its words at listRoot's address (for the tests). */
export function listRoot(ctx: usize, pid: i32, quick: bool): i32 {
  return cachedPlacements(ctx, ctx + C_ROOT, pid, quick);
}

/** Where the last listRoot left its list. */
export function listAddress(): usize {
  return listAt;
}
