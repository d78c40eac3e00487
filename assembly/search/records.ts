// Search kernel: reading the blocks of assembly/search/layout.ts (config words, context words, heights arrays,
// placement records, the step lookup). One-line accessors, inlined everywhere.
import { CFG_PLACEMENTS, CTX_HEIGHTS, HEIGHTS_WORDS, PL_WORDS, STEP_INFO_ROW, STEP_ROW_BITS, STEP_ZERO } from './layout';

/** Config word `field` (CFG_*). */
@inline export function cfgWord(cfg: usize, field: i32): i32 {
  return load<i32>(cfg + ((<usize>field) << 2));
}

/** Address of i32 word `index` of the block at `ptr`. */
@inline export function word(ptr: usize, index: i32): usize {
  return ptr + ((<usize>index) << 2);
}

/** The heights array of the context for search depth `depth`. */
@inline export function heightsAt(ctx: usize, depth: i32): usize {
  return ctx + ((<usize>(CTX_HEIGHTS + depth * HEIGHTS_WORDS)) << 2);
}

/** Address of placement record `p`. */
@inline export function placementAt(cfg: usize, p: i32): usize {
  return <usize>cfgWord(cfg, CFG_PLACEMENTS) + ((<usize>(p * PL_WORDS)) << 2);
}

/** Step lookup: the share of a step `d` at step position `i` in a surface index (the step truncated to ±S). */
@inline export function stepShare(steps: usize, i: i32, d: i32): i32 {
  return load<i32>(steps + ((<usize>((i << STEP_ROW_BITS) + d + STEP_ZERO)) << 2));
}

/** Step lookup: the fit-code digit of a step `d` | its steepness beyond ±S << FIT_STEP_BITS. */
@inline export function stepInfo(steps: usize, d: i32): i32 {
  return load<i32>(steps + ((<usize>((STEP_INFO_ROW << STEP_ROW_BITS) + d + STEP_ZERO)) << 2));
}
