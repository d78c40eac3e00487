// Recover-search kernel (docs/game.md, "Recover"; map: docs/architecture.md): the inner loop of the game AI's
// recover mode, one node of the beam search at a time (lock, clear rows, measure, value), in buffers TypeScript
// allocated once (src/kernels/recover.ts). The reachable placements come from the reachable kernel
// (assembly/reachable.ts), whose placements TypeScript passes here, or, where a piece only falls straight down onto
// the board, from dropLandings; there the chance ply's best placement of a piece (bestDrop) values only the
// placements that a bound read from the node's terms says may be the best. No allocation, no strings, no GC.
//   recover/layout.ts  every memory layout and code shared with TypeScript
//   recover/search.ts  locking a piece, the board features and the line values
export { alloc } from './memory';
export * from './recover/layout';
export {
  bestDrop, bestDropCounts, boardFeatures, dropLandings, expand, expandLandings, materialize, prepareNode, profileGeometry,
} from './recover/search';
