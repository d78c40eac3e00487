// Reachable-placements kernel: every memory layout and code the kernel shares with TypeScript, defined once.
//
// This file is written in the subset that both compilers accept (plain numeric constants: no types, no imports),
// so the kernel (assembly/reachable.ts) and its TypeScript driver (src/kernels/reachable.ts) read the same
// definitions. The kernel also exports every constant here as a WebAssembly
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

// ---- context (byte offsets), written by TypeScript (src/kernels/reachable.ts) before each call ----
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
// the frame-by-frame search's parameters (reachTimed), written by TypeScript for its calls:
export const O_GRAVITY_FRAMES = 32; // i32 gravity acts on every frame f with f % this == this - 1
export const O_GRAVITY_ROWS = 36; //   i32 rows it moves the piece then (1, or 2 at the double killscreen)
export const O_TIMELINE_MASK = 40; //  u32 tap timeline: bit i set when frame i of its period takes input; DAS: 1 when
//                                     a hold on the first frame starts charged
export const O_TIMELINE_PERIOD = 44; // i32 the tap timeline's length; 0: DAS
export const O_DAS_DELAY = 48; //      i32 frames from a held direction's first shift to its second
export const O_DAS_REPEAT = 52; //     i32 frames between later shifts
export const O_TIMED_AT = 56; //       u32 address of the search's scratch block (TIMED_* below)
export const O_TIMED_NODES = 60; //    i32 nodes the scratch block has room for
/** The words from O_GRAVITY_FRAMES to O_TIMED_NODES: TypeScript writes them for every reachTimed call. */
export const TIMING_WORDS = 8;
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

// ---- the frame-by-frame search's scratch block (reachTimed), allocated by TypeScript: byte offsets ----
/** States of one frame the search tells apart (a key: see assembly/reachable/timed.ts); lock keys from TIMED_LOCKS. */
export const TIMED_KEYS = 32768;
export const TIMED_LOCKS = TIMED_KEYS - 512;
export const TIMED_GEN = 0; //                          u32 generation of the key marks
export const TIMED_KEY_MARK = 16; //                    u32[TIMED_KEYS] generation per key
export const TIMED_KEY_NODE = TIMED_KEY_MARK + 4 * TIMED_KEYS; // i32[TIMED_KEYS] the node of a key this frame
export const TIMED_FRONT = TIMED_KEY_NODE + 4 * TIMED_KEYS; //   i32[2 * TIMED_KEYS] two frontier lists
export const TIMED_NODE = TIMED_FRONT + 8 * TIMED_KEYS; //       node records from here
/** A node: the node it was reached from (-1: the spawn), its key | token << 16, its frame, its cost. */
export const NODE_PARENT = 0;
export const NODE_INFO = 1;
export const NODE_FRAME = 2;
export const NODE_COST = 3;
export const NODE_WORDS = 4;
export const NODE_TOKEN_SHIFT = 16;
export const NODE_KEY_MASK = 0xffff;
/** Frame tokens (shift * 3 + turn): shift 0 none, 1 left, 2 right; turn 0 none, 1 A (cw), 2 B (ccw). */
export const TOKEN_TURNS = 3;
/** Cost of a sequence: presses * TIMED_PRESS + the sum of the frames of its presses. */
export const TIMED_PRESS = 65536;
/** DAS states: not pressed, released, then holding left with counter 0..dasDelay, then right. */
export const DAS_NOT_PRESSED = 0;
export const DAS_RELEASED = 1;
export const DAS_HOLDING = 2;
/** Most frames of DAS delay the keys have room for. */
export const MAX_DAS_DELAY = 30;
/**
 * Under a tap timeline the search keeps sets instead of nodes: per frame, per press count 0..TAP_LAYERS - 1 (the last
 * counts that many or more) and rotation state, the columns (bit x + WALL) the piece may be in at the frame's start
 * with that fewest presses. A frame's record is TAP_FRAME_WORDS words, from TIMED_NODE on.
 */
export const TAP_LAYERS = 32;
export const TAP_FRAME_WORDS = TAP_LAYERS * MAX_STATES;
/** Where in the scratch block the search keeps one frame's sets after its inputs, where tapPath writes tokens (u8
 * per frame), and the number of layers each frame's record holds (i32 per frame; layers past it are empty). */
export const TAP_AFTER = TIMED_FRONT;
export const TAP_TOKENS = TIMED_FRONT + 4 * TAP_FRAME_WORDS;
export const TAP_USED = TIMED_KEY_NODE;
/** A tap placement's OUT_FROM: its lock frame << TAP_FRAME_SHIFT | press layer << TAP_LAYER_SHIFT | gravity steps
 * before the block << TAP_STEP_SHIFT | rotation << 5 | (x + WALL). */
export const TAP_FRAME_SHIFT = 14;
export const TAP_LAYER_SHIFT = 9;
export const TAP_STEP_SHIFT = 7;

// ---- piece table (i32 words), written by src/kernels/reachable.ts pieceTable ----
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
