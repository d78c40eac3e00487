// Full-board player kernel (docs/fullboard.md, "Engine"; map: docs/architecture.md): a bitboard engine,
// the board features of Dellacherie, BCTS and the CS3243 GA report's player, 1-ply and 2-ply move choice, and the
// whole game loop including the project's PRNG, so a game never leaves WebAssembly. Everything lives in one
// context block allocated by TypeScript (src/kernels/fullboard.ts), which also writes the piece tables into it from
// src/pieces.ts: the kernel knows no piece shape. No allocation, no strings, no GC.
//
// This entry file only names what the module exports; the code lives in assembly/fullboard/, one file per part,
// each depending only on those above it:
//   layout.ts       every memory layout and code shared with TypeScript (read by src/kernels/fullboard.ts)
//   board.ts        the bitboard: rows and columns of a board, dropping a piece, clearing rows
//   rng.ts          where pieces come from: xoshiro128** (as src/random.ts) or a buffer of piece ids
//   features.ts     the board measures and the feature registry (one line per feature)
//   incremental.ts  the value of a move that clears no row, from the statistics of the board under it
//   choice.ts       move choice: 1-ply (best1) and 2-ply over the known next piece (best2)
//   game.ts         a context's set-up, moves and features for TypeScript, and the game loop
export { alloc } from './memory';
export * from './fullboard/layout';
export { syncBoard } from './fullboard/board';
export { rngNextInt, rngNextU32, seedRng, setPieceBuffer } from './fullboard/rng';
export { bestMove } from './fullboard/choice';
export {
  applyMove, boardFeatures, boardPtr, ctxBytes, featPtr, init, moveFeatures, moveFeaturesIncremental, playChunk,
  resetGame, runGame, setLookahead, setWeights, weightsPtr,
} from './fullboard/game';
