/**
 * stackrank public API. Each area re-exports from its own module; keep one export line per module.
 */
export { StackRankError, type StackRankErrorCode } from './errors.js';
export * from './pieces.js';
export * from './surface.js';
export { Rng, type RngState, checkSeed } from './random.js';
// rank tables (issue 2/3)
// randomizers (issue 5)
// full board (issue 6)
// stacking search and simulator (issue 4)
