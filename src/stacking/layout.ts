/**
 * Memory layouts shared with assembly/search.ts (config, placement records, search contexts, game records).
 * The kernel exports CTX_WORDS and GAME_WORDS; test/stacking-layout.test.ts checks they match these.
 */
export const CFG = {
  width: 0,
  maxStep: 1,
  boardHeight: 2,
  tetrisThreshold: 3,
  excessFirst: 4,
  table: 5,
  placements: 6,
  pieceStart: 7,
  tetrisMode: 8,
  strategy: 9,
  pieceMax: 10,
  fit: 11,
  steps: 12,
  collapse: 13,
} as const;
export const CFG_WORDS = 14;
export const TETRIS_MODE = { never: 0, forced: 1, choice: 2 } as const;
export const STRATEGY_RANK = 0;
export const STRATEGY_EXPECT = 1;
export const STRATEGY_EXPECT2 = 2;
/** Words of chances per buffered piece in a game's weights buffer: expectimax 8, two unknown pieces 8 + 7 x 8. */
export const WEIGHT_WORDS = { expectimax: 8, expectimax2: 64 } as const;

export const PLACEMENT_WORDS = 17;
/** Bits per step in the kernel's fit code (steps clamped to ±3). */
export const FIT_STEP_BITS = 3;
export const MAX_DEPTH = 8;
export const CTX = {
  heights: 0,
  path: (MAX_DEPTH + 1) * 16,
  bestPath: (MAX_DEPTH + 1) * 16 + MAX_DEPTH,
  bestLen: (MAX_DEPTH + 1) * 16 + 2 * MAX_DEPTH,
  bestValue: (MAX_DEPTH + 1) * 16 + 2 * MAX_DEPTH + 2,
  nodes: (MAX_DEPTH + 1) * 16 + 2 * MAX_DEPTH + 4,
} as const;
/** Words after `nodes`: generation (2); 8 weights of the first unknown piece, then 7 x 8 of the second given the
 * first; leaf count and scratch (2); six 16-word step-sum arrays; the 512-leaf buffer (an i64 path and four i32
 * per leaf); the two-unknown-pieces scratch (16 + 16 + 8 + 2 x 256); the 2048-slot memo of 2 words each. */
export const CTX_WEIGHTS = CTX.nodes + 2 + 2;
export const CTX_WEIGHTS2 = CTX_WEIGHTS + 8;
export const CTX_WORDS = CTX_WEIGHTS2 + 56 + 2 + 6 * 16 + 512 * 6 + (16 + 16 + 8 + 2 * 256) + 2048 * 2;

export const GAME = {
  heights: 0,
  pieces: 16,
  available: 17,
  position: 18,
  played: 19,
  cap: 20,
  status: 21,
  deathPiece: 22,
  tetrises: 23,
  lookahead: 24,
  ctx: 25,
  weights: 26,
} as const;
export const GAME_WORDS = 27;

export const MOVE_TETRIS = -1;
export const MOVE_NONE = -2;
export const GAME_NEEDS_PIECES = 0;
export const GAME_DEAD = 1;
export const GAME_CAPPED = 2;

/** Value layout (i64): depth << 56 | (excessFirst ? (0xffff - excess) << 32 : 0) | 32-bit score. */
export const DEPTH_SHIFT = 56n;
export const RANK_SHIFT = 16n;
