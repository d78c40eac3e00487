// Full-board kernel: every memory layout and code the kernel shares with TypeScript, defined once.
//
// This file is written in the subset that both compilers accept (plain numeric constants: no types, no imports),
// so the kernel (assembly/fullboard/*.ts) and its TypeScript driver (src/kernels/fullboard.ts) read the same
// definitions. The kernel also exports every constant here as a WebAssembly global, and
// test/kernel-layout.test.ts checks that each one the compiled kernel carries equals this file's.
// Offsets are in bytes.

// ---- context: one block per game, allocated by TypeScript (src/kernels/fullboard.ts createContext) ----
export const O_W = 0; //             i32 board width (4..10)
export const O_H = 4; //             i32 board height (4..24); a cell in row >= H loses
export const O_FULL = 8; //          i32 mask of a full row
export const O_USED = 12; //         i32 bit f set when weight f != 0 (features with weight 0 are not computed)
export const O_RNG = 16; //          u32[4] xoshiro128** state
export const O_MODE = 32; //         i32 piece source: PIECES_FROM_RNG or PIECES_FROM_BUFFER
export const O_BUF = 36; //          i32 ptr to u8 piece ids (PIECES_FROM_BUFFER)
export const O_BUFLEN = 40; //       i32 ids in the buffer
export const O_BUFPOS = 44; //       i32 ids consumed
export const O_CUR = 48; //          i32 current piece, NO_PIECE = not drawn yet
export const O_NEXT = 52; //         i32 preview piece (lookahead 1), NO_PIECE = not drawn yet
export const O_LOOK = 56; //         i32 lookahead: 0 = 1-ply, 1 = 2-ply over the known next piece
export const O_LOST = 60; //         i32 1 once the game is lost
export const O_LINES = 64; //        f64 lines cleared in this game
export const O_PIECES = 72; //       f64 pieces placed in this game
export const O_BEST_SCORE = 80; //   f64 value of the last chosen move
export const O_BOARD_A = 88; //      i32 ptr: the current board (swapped with B after each move)
export const O_BOARD_B = 92; //      i32 ptr: scratch board for first-ply candidates
export const O_BOARD_C = 96; //      i32 ptr: scratch board for second-ply candidates
export const O_LAST_LINES = 100; //  i32 lines cleared by the last place()
export const O_LAST_ERODED = 104; // i32 piece cells inside those lines
export const O_SCAN_X = 108; //      i32 column found by bestColumn
export const O_NORIENT = 128; //     i32[PIECE_COUNT] orientations per piece
export const O_ORIENT = 160; //      orientation records (OE_* below): piece p, orientation o at (p * ORIENT_SLOTS + o) * OE_BYTES
export const O_WEIGHTS = 1984; //    f64[FEATURE_SLOTS] weight per feature id
export const O_FEAT = 2112; //       f64[FEATURE_SLOTS] scratch feature vector
export const O_BOARDS = 2304; //     3 boards of BOARD_BYTES
export const O_SRC = 3328; //        statistics of the board a piece is placed on, for the incremental evaluator
export const O_EVAL = 3840; //       the same statistics of a board being evaluated in full
export const O_TRI = 4352; //        u8[256]: Σ T(k + 1) over the set bits k of the index (wellsTriangle of one column)
export const O_RUN = 4608; //        u8[256]: Σ (k + 1) over the set bits k of the index (cumulativeWells above a column)
export const CTX_BYTES = 4864;

export const PIECE_COUNT = 7;
/** O_MODE: pieces drawn memoryless from the context's PRNG. */
export const PIECES_FROM_RNG = 0;
/** O_MODE: pieces read from the piece buffer. */
export const PIECES_FROM_BUFFER = 1;
/** O_CUR / O_NEXT before a piece is drawn, and drawPiece's answer when the buffer ran dry. */
export const NO_PIECE = -1;

// ---- orientation record (written by TypeScript from src/pieces.ts: the kernel knows no shape) ----
export const ORIENT_SLOTS = 4; //  record slots per piece
export const OE_BYTES = 64;
export const OE_WIDTH = 0; //      i32
export const OE_HEIGHT = 4; //     i32
export const OE_BOT = 16; //       i32[4] lowest cell per column
export const OE_MASK = 32; //      i32[4] row masks (bit j = column j of the piece), rows counted up from its lowest
export const OE_TOP = 48; //       i32[4] row above the highest cell per column

// ---- board: the same cells as rows and as columns. Columns c = -2 .. w+1 are stored at index c + 2; the two
// outside each side are walls (rows 0 .. H-1 filled, height H), so evaluating a move needs no bounds test.
export const BOARD_ROWS = 32;
export const B_ROWS = 0; //        u32[BOARD_ROWS] row masks (bit c = column c); rows at or above `top` are always 0
export const B_HEIGHTS = 128; //   i32[16] column heights (row above the highest filled cell, 0 if empty), at c + 2
export const B_TOP = 192; //       i32 max column height = number of rows up to the highest non-empty one
export const B_COLS = 256; //      u32[16] column masks (bit r = row r), at c + 2
export const BOARD_BYTES = 320;

// ---- features: ids index the weights (O_WEIGHTS) and feature vectors (O_FEAT). The order is
// src/fullboard/features.ts FEATURES' order; definitions there and in assembly/fullboard/features.ts.
export const F_ROWS_CLEARED = 0;
export const F_ROW_TRANSITIONS = 1;
export const F_ROW_TRANSITIONS_CONTINUOUS = 2;
export const F_COLUMN_TRANSITIONS = 3;
export const F_COLUMN_TRANSITIONS_BELOW_TOP = 4;
export const F_HOLES = 5;
export const F_HOLES_TIMES_TEN = 6;
export const F_CUMULATIVE_WELLS = 7;
export const F_WELLS_TRIANGLE = 8;
export const F_MAX_HEIGHT = 9;
export const F_LANDING_HEIGHT = 10;
export const F_ERODED_PIECE_CELLS = 11;
export const F_HOLE_DEPTH = 12;
export const F_ROWS_WITH_HOLES = 13;
export const FEATURE_COUNT = 14;
/** Room for weights and feature vectors (FEATURE_COUNT of them used). */
export const FEATURE_SLOTS = 16;

// ---- results ----
/** bestMove: o << MOVE_ORIENT_SHIFT | x, or MOVE_LOSES when every placement loses. */
export const MOVE_ORIENT_SHIFT = 8;
export const MOVE_LOSES = -1;
/** playChunk's answers. */
export const CHUNK_BUDGET_USED = 0;
export const CHUNK_LOST = 1;
export const CHUNK_NEEDS_PIECES = 2;
export const CHUNK_LINE_CAP = 3;
/** runGame's result: three f64 at `out`. */
export const RESULT_LINES = 0;
export const RESULT_PIECES = 8;
export const RESULT_LOST = 16; //  1 when the game was lost, else 0
export const RESULT_BYTES = 24;
