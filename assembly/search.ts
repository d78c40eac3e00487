// Stacking search and game kernel (docs/architecture.md, "The search kernel"): lookahead search over the known
// queue and whole games played without leaving WebAssembly. This entry file only names what the module exports;
// the code lives in assembly/search/, one file per part, each depending only on those above it:
//   layout.ts   every memory layout and code shared with TypeScript (read by src/kernels/search*.ts)
//   records.ts  reading the config, context, placement records and step lookup
//   rules.ts    the game's rules on a heights array: fit, place, the Tetris rule, the 'collapse' steep rule
//   sums.ts     children from their parent's step sums (index, steepness, Tetris rule in a few operations)
//   leaves.ts   the leaf buffer, leaf values (rank, expectimax over one or two unknown pieces), dead ends
//   tree.ts     the depth-first search with its transposition memo: search()
//   game.ts     whole games: playGame()
export { alloc } from './memory';
export * from './search/layout';
export { applyMove } from './search/rules';
export { search } from './search/tree';
export { playGame } from './search/game';
