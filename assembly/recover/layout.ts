// Recover-search kernel: every memory layout and code the kernel shares with TypeScript, defined once.
//
// This file is written in the subset that both compilers accept (plain numeric constants: no types, no imports),
// so the kernel (assembly/recover/*.ts) and its TypeScript driver (src/kernels/recover.ts) read the same
// definitions. The kernel also exports every constant here as a
// WebAssembly global, and test/kernel-layout.test.ts checks that each one the compiled kernel carries equals this
// file's. Offsets are in bytes.

// ---- sizes ----
/** Bit rows a board may have (the game's boards carry 44: src/tetris-ai/board-input.ts WORK_ROWS). */
export const MAX_ROWS = 48;
/** Cells of a piece. */
export const PIECE_CELLS = 4;
/** i32 words of one placement's cells: x, y per cell. */
export const CELL_WORDS = 8;
/** Weights and features, in the order of src/tetris-ai/evaluate.ts RecoverWeights. */
export const W_LANDING_HEIGHT = 0;
export const W_ERODED_PIECE_CELLS = 1;
export const W_ROW_TRANSITIONS = 2;
export const W_COLUMN_TRANSITIONS = 3;
export const W_HOLES = 4;
export const W_CUMULATIVE_WELLS = 5;
export const W_HOLE_DEPTH = 6;
export const W_ROWS_WITH_HOLES = 7;
export const W_WELL_CELLS = 8;
export const W_CLEAN = 9;
export const W_FLOOR_ROWS = 10;
export const W_WELL_COVER = 11;
export const WEIGHT_COUNT = 12;

// ---- context, written by TypeScript (src/kernels/recover.ts) ----
export const O_WIDTH = 0; //        i32 board width (4..10)
export const O_HEIGHT = 4; //       i32 rows the row-transition feature counts (empty ones count 2 each)
export const O_VISIBLE = 8; //      i32 a board with a cell in a row at or above this has topped out
export const O_WELL = 12; //        i32 well column of the recover terms, -1 for none
export const O_ROW_COUNT = 16; //   i32 bit rows every board of this search has (<= MAX_ROWS)
export const O_MAX_FLOOR = 20; //   i32 highest floor a clean stack may stand on
export const O_CHILD_CELLS = 24; // i32 ptr: i32[CELL_WORDS] per child, the cells of its placement (written by TS)
export const O_CHILD_VALUES = 28; // i32 ptr: f64 per child, its line's value (written by the kernel)
export const O_CHILD_ACCS = 32; //  i32 ptr: f64 per child, Σ of its line's move terms (written by the kernel)
export const O_LANDINGS = 36; //    i32 ptr: LANDING_WORDS per placement (state, x, y), as the reachable kernel lists them
export const O_COVER_WELL = 40; // i32 column of a well a piece may cover (its empty cells under the cover are no holes), -1 for none
export const O_DROPS = 44; //       i32 ptr: the drop tables (DROP_TABLE_WORDS per piece), 0 for none (dropLandings)
export const O_WEIGHTS = 64; //     f64[WEIGHT_COUNT] weight per term
export const O_FEATURES = 160; //   f64[WEIGHT_COUNT] the features of the last boardFeatures call
export const O_BOARD = 256; //      a node record (NODE_BYTES): the board boardFeatures measures
export const O_GEOMETRY = 640; //   i32[PIECE_COUNT][MAX_STATES][CELL_WORDS]: per piece and state, the cells' (dx, dy)
//                                  from the placement's reference point, for the rule set's rotation system
export const CTX_BYTES = 1536;

/** Pieces, and rotation states a piece has at most. */
export const PIECE_COUNT = 7;
export const MAX_STATES = 4;
/** A placement as the reachable kernel lists it (src/kernels/reachable.ts kernelLandings): state, x, y. */
export const LANDING_WORDS = 3;

/** Columns a board may have (the column masks' room). */
export const MAX_COLUMNS = 16;

// ---- drop tables (written by TypeScript: src/kernels/recover.ts useDrops). Under rule sets whose pieces turn
// and shift where they appear and then fall straight down (src/kernels/reachable.ts kernelTopDrops), where each piece
// lands on a board with nothing high up: one table per piece, i32 words ----
/** Drops a piece has at most: each state at each column. */
export const MAX_DROPS = 64;
export const D_COUNT = 0; //        drops in the list; -1: only the reachable kernel's search knows this piece's placements
export const D_CLEAR_BELOW = 1; //  the list holds on a board whose top (N_TOP) is at most this
export const D_LOCK_TOP = 2; //     a placement with a cell in this row or above does not lock
export const D_LIST = 3; //         per drop, in the order the reachable kernel lists the placements: state, x
export const DROP_TABLE_WORDS = 131; // D_LIST + 2 * MAX_DROPS

// ---- a search node (a board of a line the beam keeps): its rows, Σ of its line's move terms, its top, and the
// same cells as columns (the kernel's own: derived from the rows by prepareNode and materialize) ----
export const N_ACC = 192; //        f64, after u32[MAX_ROWS] rows (bit x = column x)
export const N_TOP = 200; //        i32 rows up to the highest non-empty one (rows from it up are 0)
export const N_COLS = 208; //       u64[MAX_COLUMNS] column masks (bit y = row y)
export const NODE_BYTES = 336;

/** What a move that leaves a cell at or above the visible field costs: more than any board's terms. */
export const TOP_OUT = -1e9;
