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
  tetrisEnabled: 8,
} as const;
export const CFG_WORDS = 9;

export const PLACEMENT_WORDS = 10;
export const MAX_DEPTH = 8;
export const CTX = {
  heights: 0,
  path: (MAX_DEPTH + 1) * 16,
  bestPath: (MAX_DEPTH + 1) * 16 + MAX_DEPTH,
  bestLen: (MAX_DEPTH + 1) * 16 + 2 * MAX_DEPTH,
  bestValue: (MAX_DEPTH + 1) * 16 + 2 * MAX_DEPTH + 2,
  nodes: (MAX_DEPTH + 1) * 16 + 2 * MAX_DEPTH + 4,
} as const;
/** Words after `nodes`: generation (2), three 64-entry leaf arrays, and the 4096-slot memo of 8 words each. */
export const CTX_WORDS = CTX.nodes + 2 + 2 + 3 * 64 + 4096 * 8;

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
} as const;
export const GAME_WORDS = 26;

export const MOVE_TETRIS = -1;
export const MOVE_NONE = -2;
export const GAME_NEEDS_PIECES = 0;
export const GAME_DEAD = 1;
export const GAME_CAPPED = 2;

/** Value layout (i64): depth << 48 | (excessFirst ? (0xffff - excess) << 16 : 0) | u16 rank. */
export const DEPTH_SHIFT = 48n;
