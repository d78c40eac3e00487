// Versus-search kernel: every memory layout and code the kernel shares with TypeScript, defined once.
//
// This file is written in the subset that both compilers accept (plain numeric constants: no types, no imports),
// so the kernel (assembly/versus/*.ts) and the TypeScript side (src/kernels/versus.ts imports it) read the same
// definitions. The kernel also exports every constant here as a
// WebAssembly global, and test/kernel-layout.test.ts checks that each one the compiled kernel carries equals this
// file's. Offsets are in bytes. The placements come from the reachable kernel's search, compiled into this module:
// its context and piece tables (assembly/reachable/layout.ts) live in this module's memory, written by TypeScript.

// ---- sizes ----
/** Bit rows of a board (the guideline's 40-row matrix). */
export const MAX_ROWS = 40;
/** Known pieces a search reads at most (the current piece and the queue). */
export const MAX_PIECES = 16;
/** Incoming garbage entries a search reads (a longer queue's tail is read as one entry). */
export const MAX_INCOMING = 32;
/** Clear kinds, in the order of src/rules/attack.ts CLEAR_KINDS: none, single, double, triple, tetris, tSpinMini,
 * tSpinMiniSingle, tSpinMiniDouble, tSpin, tSpinSingle, tSpinDouble, tSpinTriple. */
export const KIND_COUNT = 12;
export const KIND_MINI = 5; //  the first mini kind: KIND_MINI + lines
export const KIND_FULL = 8; //  the first full-spin kind: KIND_FULL + lines
/** Entries of the combo table at most (a longer table's last entry serves every longer combo). */
export const MAX_COMBO_ENTRIES = 16;
/** Pieces. */
export const PIECE_COUNT = 7;
export const T_PIECE = 2;

// ---- the evaluator's terms: board terms (of the board a line ends on), then move terms (of each lock, summed
// along the line); src/tetris-ai/versus.ts VersusWeights names them in this order ----
export const W_HEIGHT = 0; //          the highest column, plus the garbage risen and waiting
export const W_OVER_HALF = 1; //       rows of that height over 10
export const W_OVER_QUARTER = 2; //    rows of that height over 15
export const W_BUMPINESS = 3; //       Σ |height difference| of neighbouring columns, the well left out
export const W_BUMPINESS_SQ = 4; //    Σ of their squares
export const W_ROW_TRANSITIONS = 5; // filled/empty changes along the field's rows, walls filled
export const W_HOLES = 6; //           empty cells under their column's top with no open side
export const W_OVERHANGS = 7; //       empty cells under their column's top beside an open column
export const W_COVERED = 8; //         Σ per column of the cells over its highest empty cell (at most 6)
export const W_COVERED_SQ = 9; //      Σ of their squares
export const W_WELL_DEPTH = 10; //     rows over the lowest column that are full but for it (at most 4)
export const W_TSLOT_0 = 11; //        a T-slot whose T clears no row yet
export const W_TSLOT_1 = 12; //        … clears one row
export const W_TSLOT_2 = 13; //        … clears two rows (a T-spin double ready)
export const W_TSLOT_3 = 14; //        … clears three rows (a T-spin triple ready)
export const W_BACK_TO_BACK = 15; //   the line ends with a back-to-back chain alive
export const W_HOLD_T = 16; //         a T in the hold box
export const W_HOLD_T_SLOT = 17; //    a T in the hold box and a T-slot on the board (before any imagined T-spin)
export const W_ATTACK = 18; //         lines sent (before cancelling), by the rule set's attack table
export const W_B2B_CLEAR = 19; //      a clear that continues a back-to-back chain
export const W_COMBO = 20; //          the combo bonus lines of a clear
export const W_PERFECT_CLEAR = 21; //  a clear that empties the board
export const W_WASTED_T = 22; //       a T placed without a spin that clears lines
export const W_KIND = 23; //           KIND_COUNT - 1 terms, one per clear kind that clears or spins: kind k's is
//                                     W_KIND + k - 1 (single first, T-spin triple last)
export const BOARD_TERMS = 18; //      W_HEIGHT .. W_HOLD_T_SLOT
export const WEIGHT_COUNT = 34; //     W_KIND + KIND_COUNT - 1

// ---- context, written by TypeScript (src/kernels/versus.ts) ----
export const C_WIDTH = 0; //           i32 board width (4..10)
export const C_VISIBLE = 4; //         i32 a board with a cell in a row at or above this has topped out
export const C_DEPTH = 8; //           i32 plies (pieces placed) a line has at most
export const C_BEAM = 12; //           i32 lines kept per ply
export const C_COUNT = 16; //          i32 known pieces in C_SEQUENCE (the current one first)
export const C_HOLD_ALLOWED = 20; //   i32 1: hold may be pressed at every ply
export const C_FORCE_ROOT = 24; //     i32 the only root move searched (its code, ROOT_*), -1 for all
export const C_INCOMING_COUNT = 28; // i32 entries in C_INCOMING
export const C_REACH = 32; //          i32 ptr: the reachable kernel's context
export const C_TABLES = 36; //         i32 ptr: its piece tables, PIECE_COUNT of them, TABLE_BYTES apart
export const C_PARAMS = 40; //         i32 ptr: its parameter words (PARAM_WORDS) per piece
export const C_LEVELS = 44; //         i32 ptr: two level buffers of C_CAPACITY nodes each
export const C_HEAP = 48; //           i32 ptr: C_CAPACITY candidates (CAND_BYTES each)
export const C_SLOTS = 52; //          i32 ptr: the candidates' hash slots (i32 each, 1 << C_SLOT_BITS of them)
export const C_SLOT_BITS = 56; //      i32
export const C_CAPACITY = 60; //       i32 nodes a level buffer holds (at least C_BEAM)
export const C_BEST_ROOT = 64; //      i32 out: the root move of the best line, -1 when the root has no move
export const C_NODES = 68; //          i32 out: nodes expanded by the last search
export const C_BEST_VALUE = 72; //     f64 out: the best line's value
export const C_CHILDREN = 80; //       i32 out: placements valued by the last search
export const C_BEST_ATTACK = 84; //    i32 out: lines the best line sends
export const C_QUICK = 88; //          i32 1: below the first ply, a piece that cannot spin takes the quick placement
//                                     list (drops and one-column tucks: drops.ts) instead of the full search
export const C_TSLOT_CUTS = 92; //     i32 T-spins the evaluator imagines in the board's T-slots (boardTerms): 0 values the
//                                     best slot as it stands; n > 0 places a T into it and values the board after
//                                     that spin, up to n times (at most 4; a T in the hold box adds none)
export const C_SEQUENCE = 96; //       i32[MAX_PIECES] the known pieces, the current one first
export const C_INCOMING = 160; //      i32[2 * MAX_INCOMING] the garbage waiting, oldest first: lines, delay
export const C_ATTACK = 416; //        the attack table (A_* words)
export const C_WEIGHTS = 576; //       f64[WEIGHT_COUNT]
export const C_FEATURES = 856; //      f64[WEIGHT_COUNT] the terms of the last nodeTerms call (for the tests)
export const C_ROOT = 1136; //         the root node (NODE_BYTES)
export const C_SCRATCH = 1392; //      a node: the child being valued
export const C_REACH_CACHE = 1648; //  i32 ptr: the reach cache (1 << REACH_CACHE_BITS entries of RC_BYTES each)
export const C_BOUND = 1652; //        i32 1: a child that cannot enter a full level is left once a bound on its board
//                                     terms says so (board.ts boardTermsOver); 0: every child valued in full (the
//                                     same choices: for the tests)
export const C_BOUNDED = 1656; //      i32 out: children the bound left in the last search
export const CTX_BYTES = 1664;

// ---- the attack table (i32 words from C_ATTACK): src/rules/attack.ts AttackTable with a flat back-to-back bonus
// and a combo table ----
export const A_BASE = 0; //            [KIND_COUNT] lines each clear kind sends
export const A_B2B = 12; //            the bonus of a clear that continues a back-to-back chain
export const A_COMBO_COUNT = 13; //    entries in the combo table
export const A_COMBO = 14; //          [MAX_COMBO_ENTRIES] bonus by the clears before this one
export const A_PC_LINES = 30; //       a perfect clear's lines
export const A_PC_ADD = 31; //         1: added to the attack; 0: sent instead of it
export const ATTACK_WORDS = 32;

// ---- a node: a board a line reaches and the line's state ----
export const N_ROWS = 0; //            u32[MAX_ROWS] bit rows, bottom first (bit x = column x); from N_TOP up unread
export const N_TOP = 160; //           i32 rows up to the highest non-empty one
export const N_NEXT = 164; //          i32 index in C_SEQUENCE of the piece to place (C_COUNT: none left)
export const N_HOLD = 168; //          i32 the piece in the hold box, -1 for none
export const N_CAN_HOLD = 172; //      i32 1: hold may be pressed
export const N_COMBO = 176; //         i32 line clears in a row
export const N_B2B = 180; //           i32 difficult clears in a row
export const N_QUEUE_AT = 184; //      i32 the first incoming entry still waiting (C_INCOMING index)
export const N_QUEUE_LEFT = 188; //    i32 lines of it still waiting
export const N_RISEN = 192; //         i32 garbage lines entered along the line (read as rows under the board)
export const N_PLIES = 196; //         i32 pieces placed along the line
export const N_ROOT = 200; //          i32 the line's root move (ROOT_*), -1 at the root
export const N_ATTACK = 204; //        i32 lines sent along the line
export const N_ACC = 208; //           f64 Σ of the line's move terms
export const N_VALUE = 216; //         f64 the line's value: N_ACC + the board terms
export const N_HASH = 224; //          u64 the node's key (board, hold, next piece, counters, garbage)
// what the evaluator reads of the rows, kept up to date by each lock (board.ts lockChild) and measured at the root
// (measureRows), so that a child's bound needs no pass over its rows
export const N_CELLS = 232; //         i32 filled cells
export const N_ROW_TRANS = 236; //     i32 row transitions of the rows under C_VISIBLE (walls filled; an empty row 2)
export const N_HEIGHTS = 240; //       u8[16] each column's height (rows up to its highest filled cell)
export const NODE_BYTES = 256;

// ---- the reach cache (reach-cache.ts): the full search's placements of a piece on a board, kept for the boards met
// again; one entry per slot (the key's low bits), written by the kernel, emptied by TypeScript (RC_PIECE -1) whenever
// the reachable kernel's tables or parameters change ----
export const REACH_CACHE_BITS = 12;
/** Placements an entry holds at most (a longer list is searched every time). */
export const RC_MOVES = 200;
export const RC_KEY = 0; //            u64 hash of the piece and the rows
export const RC_PIECE = 8; //          i32 the piece (plus 8 for its quick list: drops.ts), -1: the entry is empty
export const RC_TOP = 12; //           i32 rows up to the highest non-empty one
export const RC_COUNT = 16; //         i32 placements
export const RC_ROWS = 24; //          u32[MAX_ROWS] the board's rows (up to RC_TOP)
export const RC_LIST = 184; //         i32[RC_MOVES] per placement: the landed state | its spin level << MOVE_SPIN_SHIFT
export const RC_BYTES = 984;

/** A root move's code: ROOT_HOLD when hold is pressed, plus the placement's index in the reachable list. */
export const ROOT_HOLD = 65536;

// ---- a candidate: a child valued and kept while its level is made ----
export const K_VALUE = 0; //           f64
export const K_HASH = 8; //            u64
export const K_PARENT = 16; //         i32 the node it comes from (in the level being expanded)
export const K_MOVE = 20; //           i32 the placement (MOVE_*), -1: the parent carried as it is
export const K_ROOT = 24; //           i32 its line's root move
export const K_GEN = 28; //            i32 the order it was made in (equal values: the earlier first)
export const K_SLOT = 32; //           i32 its hash slot
export const CAND_BYTES = 40;

/** A placement as a candidate keeps it: the reachable kernel's landed state, its spin level, the piece, hold. */
export const MOVE_SPIN_SHIFT = 16;
export const MOVE_PIECE_SHIFT = 18;
export const MOVE_HOLD = 1 << 21;

/** What a move that leaves a cell at or above the visible field costs: more than any board's terms. */
export const TOP_OUT = -1e9;
