// Reachable-placements kernel: every memory layout and code the kernel shares with TypeScript, defined once.
//
// This file is written in the subset that both compilers accept (plain numeric constants: no types, no imports),
// so the kernel (assembly/reachable.ts) and the TypeScript side (src/rules/layout.ts re-exports it for
// src/rules/kernel.ts) read the same definitions. The kernel also exports every constant here as a WebAssembly
// global, and test/kernel-layout.test.ts checks that each one the compiled kernel carries equals this file's.

// ---- board and piece states ----
/** Wall cells kept below and left of the board: row y is stored at y + WALL, column x at bit x + WALL. */
export const WALL = 4;
/** A piece state (rotation, x, y) as one number: rotation << STATE_ROTATION_SHIFT | (y + WALL) << STATE_Y_SHIFT |
 * (x + WALL). x + WALL takes STATE_Y_SHIFT bits, y + WALL takes STATE_ROTATION_SHIFT - STATE_Y_SHIFT. */
export const STATE_Y_SHIFT = 5;
export const STATE_ROTATION_SHIFT = 11;
export const STATE_X_MASK = (1 << STATE_Y_SHIFT) - 1;
export const STATE_Y_MASK = (1 << (STATE_ROTATION_SHIFT - STATE_Y_SHIFT)) - 1;
/** Rotation states a piece has at most. */
export const MAX_STATES = 4;
/** Distinct state indices (and placement keys: shape << STATE_ROTATION_SHIFT | cell position). */
export const STATE_COUNT = MAX_STATES << STATE_ROTATION_SHIFT;
/** Rows of the board TypeScript writes (O_BOARD); a board is at most this high. */
export const MAX_BOARD_ROWS = 48;
/** Rows kept with walls (O_ROWS): WALL floor rows, the board, ceiling rows up to here. */
export const ROW_SLOTS = 64;
/** Columns the column masks and heights have room for (O_COLS, O_HEIGHTS). */
export const COLUMN_SLOTS = 16;
/** Placements a search lists at most (O_OUT). */
export const MAX_PLACEMENTS = 2048;

// ---- context (byte offsets), written by TypeScript (src/rules/kernel.ts) before each call ----
export const O_WIDTH = 0; //       i32 board width (4..10)
export const O_CEIL = 4; //        i32 rows the piece may occupy while moving (0 .. ceiling-1)
export const O_LOCK = 8; //        i32 a placement must lie below this row
export const O_SPAWN_S = 12; //    i32 spawn state
export const O_SPAWN_X = 16; //    i32
export const O_SPAWN_Y = 20; //    i32
export const O_FLAGS = 24; //      i32 FLAG_* bits
/** The words from O_WIDTH to O_FLAGS: TypeScript writes them for every call. */
export const PARAM_WORDS = 7;
export const O_STAMP = 28; //      i32 generation of the visit / seen / fit marks (the kernel's own: never written)
export const O_BOARD = 64; //      i32[MAX_BOARD_ROWS] board rows bottom first as given (bit x = column x)
export const O_ROWS = 256; //      i32[ROW_SLOTS] rows with walls at y + WALL
export const O_COLS = 512; //      u64[COLUMN_SLOTS]: bit y set when column c is filled in row y (drops read these)
export const O_QUEUE = 1536; //    i16[STATE_COUNT] states in breadth-first order
export const O_VISIT = 17920; //   u16[STATE_COUNT] generation mark per state
export const O_PARENT = 34304; //  i16[STATE_COUNT] the state a state was first reached from (-1: the start)
export const O_VIA = 50688; //     u8[STATE_COUNT] the move (M_*) that reached it
export const O_SEEN = 58880; //    u16[STATE_COUNT] generation mark per placement key
export const O_OUT = 75264; //     i32[OUT_WORDS * MAX_PLACEMENTS]: per placement, OUT_LANDED and OUT_FROM
export const O_FIT = 91648; //     u32[FIT_COUNT] at state << 6 | (y + WALL): bit b set when the state fits with its
//                                 cell rectangle's left column at b - WALL (computed on first use in a call)
export const O_FITMARK = 92672; // u16[FIT_COUNT] generation mark per fit mask
export const O_HEIGHTS = 93184; // i32[COLUMN_SLOTS] column heights (reachFromTop)
export const O_OUT_SPIN = 93248; // i32[MAX_PLACEMENTS] per placement of a full search: its spin level | the turn that
//                                  makes it << SPIN_TURN_SHIFT (0: no spin; OUT_FROM is then the state turned from)
export const O_SPIN_MARK = 101440; // u16[STATE_COUNT] generation mark per placement key a spin reaches
export const O_SPIN = 117824; //   i32[STATE_COUNT] per placement key, the best spin found: level | turn << SPIN_TURN_SHIFT
//                                 | the state it rests in << SPIN_LANDED_SHIFT | the state turned from << SPIN_FROM_SHIFT
export const CTX_BYTES = 150592;
/** Fit masks cached per call: one per (state, row). */
export const FIT_COUNT = MAX_STATES << 6;

/** O_OUT record: the landed state, and the state it was dropped from (reachFromTop: the index in its list). */
export const OUT_LANDED = 0;
export const OUT_FROM = 1;
export const OUT_WORDS = 2;

/** O_FLAGS bits. */
export const FLAG_20G = 1; //              the piece falls onto the stack after every move
export const FLAG_SOFT_DROP = 2; //        soft drop is a move (ignored under 20G)
export const FLAG_INITIAL_ROTATION = 4; // a first turn happens as the piece appears
export const FLAG_SPINS = 8; //           placements record their best spin (pieces whose table has spin corners)

/** Spin levels (src/rules/spins.ts SPINS), and how O_SPIN and O_OUT_SPIN pack a spin. */
export const SPIN_NONE = 0;
export const SPIN_MINI = 1;
export const SPIN_FULL = 2;
export const SPIN_LEVEL_MASK = 3;
export const SPIN_TURN_SHIFT = 2; //   0: cw, 1: ccw
export const SPIN_LANDED_SHIFT = 3;
export const SPIN_FROM_SHIFT = 16;

// ---- piece table (i32 words), written by src/rules/kernel.ts pieceTable ----
// word 0: number of states; state s at word TABLE_HEADER_WORDS + s * STATE_WORDS:
export const TABLE_HEADER_WORDS = 16;
export const STATE_WORDS = 64;
export const TABLE_WORDS = TABLE_HEADER_WORDS + MAX_STATES * STATE_WORDS;
export const TABLE_BYTES = TABLE_WORDS * 4;
export const S_MINDX = 0; //  offset of the state's cell rectangle from the reference point
export const S_MINDY = 1;
export const S_W = 2;
export const S_H = 3;
export const S_MASK = 4; //   [4] row masks of the rectangle, bottom first
export const S_BOT = 8; //    [4] lowest cell row per rectangle column
export const S_SHAPE = 12; // states with the same cells share a shape id;
export const S_CDX = 13; //   reference + (cdx, cdy) is the same point for all of them
export const S_CDY = 14;
export const S_NEXT = 15; //  [2] state after cw, ccw
// Spins (src/rules/spins.ts): the state's centre cell relative to the reference; its corners are the centre's four
// diagonal cells, numbered 0 (dx -1, dy -1), 1 (+1, -1), 2 (-1, +1), 3 (+1, +1).
export const S_SPIN_CX = 17;
export const S_SPIN_CY = 18;
export const S_SPIN_FRONT = 19; // bit i: corner i lies on the side the piece points to; 0: the piece does not spin
export const S_TURN = 20; //  [2] turn blocks (TURN_WORDS each), cw then ccw
// a turn block:
export const TURN_WORDS = 22;
export const T_KICKS = 0; //   number of offsets tried (the first is [0, 0])
export const T_KICK_DX = 1; // [MAX_KICKS]
export const T_KICK_DY = 6; // [MAX_KICKS]
export const MAX_KICKS = 5;
export const T_CENTRE = 11; // 1: ARS's centre-column rule applies
export const T_READ_DX = 12; // [4] the new state's cells in reading order (top row first, left to right)
export const T_READ_DY = 16; // [4]
export const T_UPGRADE = 20; // bit k: a spin made with kick test k is full (SRS: the fifth test)

// ---- moves, in the search's tie-break order (src/rules/geometry.ts SEARCH_MOVES) ----
export const M_CW = 0;
export const M_CCW = 1;
export const M_LEFT = 2;
export const M_RIGHT = 3;
export const M_DAS_LEFT = 4;
export const M_DAS_RIGHT = 5;
export const M_SOFT = 6;
