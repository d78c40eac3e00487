// Search kernel: every memory layout and code the kernel shares with TypeScript, defined once.
//
// This file is written in the subset that both compilers accept (plain numeric constants: no types, no imports),
// so the kernel (assembly/search/*.ts) and its TypeScript driver (src/kernels/search*.ts) read the same
// definitions. The kernel also exports every constant here as a WebAssembly global, and
// test/kernel-layout.test.ts checks that each one the compiled kernel carries equals this file's (a stale build
// fails it). Offsets count i32 words from the start of their block unless noted.

// ---- the Tetris rule's fixed half ----
/** Rows an I clears down the well: it needs every column at least this high, and lowers every column by it. */
export const TETRIS_ROWS = 4;

// ---- config block (one per engine: the rules and pointers to the tables) ----
export const CFG_WIDTH = 0;
export const CFG_MAX_STEP = 1; //        S (the step lookup already carries it; kept for the layout)
export const CFG_BOARD_HEIGHT = 2;
export const CFG_TETRIS_THRESHOLD = 3; // highest column needed for a Tetris (the lowest needs TETRIS_ROWS)
export const CFG_EXCESS_FIRST = 4; //    1: less steepness beyond ±S wins before rank; 0: pure truncation
export const CFG_TABLE = 5; //           ptr to u16 ranks, one per surface (order-preserving quantised ranks)
export const CFG_PLACEMENTS = 6; //      ptr to placement records (PL_WORDS words each)
export const CFG_PIECE_START = 7; //     ptr to i32[8]: placements of piece p are [start[p], start[p+1])
export const CFG_TETRIS_MODE = 8; //     TETRIS_MODE_*: when an I may go down the well
export const CFG_STRATEGY = 9; //        STRATEGY_*: how leaves are scored
export const CFG_PIECE_MAX = 10; //      ptr to u16[8] per surface (expectimax leaves): value with piece p next, slot 7 after a Tetris
export const CFG_FIT = 11; //            ptr to the legal-move lookup (src/kernels/search-format.ts fitLookup)
export const CFG_STEPS = 12; //          ptr to the step lookup (src/stacking-ai/placements.ts stepLookup; STEP_*)
export const CFG_COLLAPSE = 13; //       1: steps steeper than ±S collapse to ±S after every move (steep 'collapse')
export const CFG_REACH = 14; //          ptr to the reach records (RC_* below) or 0: every placement that fits is reachable
export const CFG_REACH_BOXES = 15; //    ptr to their step boxes (REACH_BOX_WORDS each)
export const CFG_ROWS_FOLD = 16; //      ptr to the leaf rows' fold block (FOLD_* below; indices are mirror-pair indices), or 0
export const CFG_WELL_WINDOW = 17; //    ptr to one u8 per combination of the surface's last steps (the index modulo
//                                        CFG_WELL_COMBOS): 0 where a 20G I cannot reach the well; or 0: no such rule
export const CFG_WELL_COMBOS = 18; //    how many combinations that block holds
export const CFG_WELL_FACTOR = 19; //    a leaf surface whose byte is 0 scores its score x this / 65536
export const CFG_WORDS = 20;

/** CFG_STRATEGY: leaves scored by their rank. */
export const STRATEGY_RANK = 0;
/** CFG_STRATEGY: one unknown piece: leaves scored from their 8-slot piece-max rows. */
export const STRATEGY_EXPECT = 1;
/** CFG_STRATEGY: two unknown pieces: each leaf's children for every first one, scored as STRATEGY_EXPECT. */
export const STRATEGY_EXPECT2 = 2;

/** CFG_TETRIS_MODE: an I never goes down the well. */
export const TETRIS_MODE_NEVER = 0;
/** CFG_TETRIS_MODE: the article's rule: down the well exactly when the Tetris rule fires. */
export const TETRIS_MODE_FORCED = 1;
/** CFG_TETRIS_MODE: it must when the rule fires and may whenever the lowest column is at least TETRIS_ROWS. */
export const TETRIS_MODE_CHOICE = 2;

// ---- step lookup (i32): what a step d (-63..63: heights fit 6 bits) between two columns contributes ----
// Row i < STEP_INFO_ROW: its share of a surface index at step position i (the step truncated to ±S); row
// STEP_INFO_ROW: its fit-code digit (FIT_STEP_BITS bits) | its steepness beyond ±S << FIT_STEP_BITS.
export const STEP_ROW_BITS = 7;
export const STEP_ROW = 1 << STEP_ROW_BITS; // words per row
export const STEP_ZERO = 64; //               step d is at d + STEP_ZERO in its row
export const STEP_INFO_ROW = 16;

// ---- fit codes: the steps of a stack, FIT_STEP_BITS bits each (clamped to ±3, plus 3), step 0 lowest ----
export const FIT_STEP_BITS = 3;
export const FIT_WINDOW_BITS = 3 * FIT_STEP_BITS; // the legal-move lookup is indexed by the codes of three steps
export const FIT_WINDOW = 1 << FIT_WINDOW_BITS;

// ---- placement record (one per placement: a piece's orientation at a left column) ----
export const PL_X = 0; //             left column
export const PL_WIDTH = 1;
export const PL_BOT = 2; //           bot[0..3]: lowest cell per column
export const PL_TOP = 6; //           top[0..3]: row above the highest cell per column
export const PL_FIT_SHIFT = 10; //    the placement fits when (fit code >> shift) & mask == pattern
export const PL_FIT_MASK = 11;
export const PL_FIT_PATTERN = 12;
export const PL_MAX_TOP = 13; //      highest new top minus the height of the left column
export const PL_INNER_INDEX = 14; //  share in the surface index of the steps between the piece's columns after it lands
export const PL_INNER_EXCESS = 15; // their steepness beyond ±S
export const PL_MIN_TOP = 16; //      lowest new top minus the height of the left column
export const PL_WORDS = 17;

// ---- reach records (src/stacking-ai/reach.ts): which placements a real game's rule set lets the piece reach ----
// One record per placement (placement id order), then one for the Tetris (an upright I down the well). A placement
// is reachable on heights h when every column from RC_FIRST to RC_LAST is at most RC_HEIGHT_LIMIT high and, unless
// RC_BOX_COUNT is RC_ANY_STEPS, the surface's steps lie in one of its RC_BOX_COUNT boxes from RC_BOX_START.
export const RC_FIRST = 0;
export const RC_LAST = 1;
export const RC_HEIGHT_LIMIT = 2;
export const RC_BOX_START = 3;
export const RC_BOX_COUNT = 4;
export const RC_WORDS = 5;
export const RC_ANY_STEPS = -1;
// A box is two u64 over the surface's step digits (step d is d + S + 1 within ±S, 0 or 2S + 2 when steeper),
// REACH_DIGIT_BITS bits per digit, step 0 lowest: (REACH_GUARD - lo) per digit and (REACH_GUARD + hi) per digit.
// The steps lie in the box when ((digits + first) & (second - digits)) has the guard bit of every field set (the
// fields never carry or borrow: digits are at most 10).
export const REACH_DIGIT_BITS = 5;
export const REACH_GUARD = 16;
export const REACH_DIGITS = 12; //          fields in a u64 (steps of at most 13 columns)
export const REACH_BOX_WORDS = 4;

// ---- search context (one per search thread or game) ----
export const HEIGHTS_WORDS = 16; //                                      a heights array (width <= 16)
export const MAX_DEPTH = 8; //                                           current piece + up to 7 known pieces
export const CTX_HEIGHTS = 0; //                                         (MAX_DEPTH + 1) heights arrays: heights at each depth
export const CTX_PATH = CTX_HEIGHTS + (MAX_DEPTH + 1) * HEIGHTS_WORDS; // MAX_DEPTH i32: choice at each depth
export const CTX_BEST_PATH = CTX_PATH + MAX_DEPTH; //                    MAX_DEPTH i32: the best sequence found
export const CTX_BEST_LEN = CTX_BEST_PATH + MAX_DEPTH;
export const CTX_BEST_VALUE = CTX_BEST_LEN + 2; //                       i64 (8-byte aligned): VALUE_* below
export const CTX_NODES = CTX_BEST_VALUE + 2; //                          i64: nodes visited, for benchmarks
export const CTX_GENERATION = CTX_NODES + 2; //                          search counter: memo entries of older searches are stale
export const CTX_WEIGHTS = CTX_GENERATION + 2; //                        8 i32: chance of each piece being the next unknown one, x 65536
export const CTX_WEIGHTS2 = CTX_WEIGHTS + 8; //                          7 x 8 i32: chances of the second unknown piece given the first
// Folded leaf rows: CTX_WEIGHTS and CTX_WEIGHTS2 with each block's slots mirrored (FOLD_MIRROR_SLOT), for rows
// stored as their mirror image's.
export const CTX_WEIGHTS_MIRROR = CTX_WEIGHTS2 + 56; //                  64 i32
export const CTX_LEAF_COUNT = CTX_WEIGHTS_MIRROR + 64; //                leaves waiting in the buffer
export const CTX_SCRATCH = CTX_LEAF_COUNT + 1; //                        one word: where expect2Score keeps its touching loads
// Per-parent sums for the leaf level (HEIGHTS_WORDS i32 each): surface-index share and excess of steps 0..i-1,
// min and max of heights 0..i-1 and of heights i..W-1.
export const CTX_PRE_INDEX = CTX_SCRATCH + 1;
export const CTX_PRE_EXCESS = CTX_PRE_INDEX + HEIGHTS_WORDS;
export const CTX_PRE_MIN = CTX_PRE_EXCESS + HEIGHTS_WORDS;
export const CTX_PRE_MAX = CTX_PRE_MIN + HEIGHTS_WORDS;
export const CTX_SUF_MIN = CTX_PRE_MAX + HEIGHTS_WORDS;
export const CTX_SUF_MAX = CTX_SUF_MIN + HEIGHTS_WORDS;
// The leaf buffer: leaves of the last level wait here and are scored in batches, so their cache-missing table
// reads are independent of one another and overlap (the search's cost is one table read per leaf).
export const LEAF_CAP = 512;
export const CTX_LEAF_PATH = CTX_SUF_MAX + HEIGHTS_WORDS; //   LEAF_CAP i64: the leaf's moves, one byte per depth (move + 1)
export const CTX_LEAF_INDEX = CTX_LEAF_PATH + 2 * LEAF_CAP; // LEAF_CAP i32: surface index
export const CTX_LEAF_EXCESS = CTX_LEAF_INDEX + LEAF_CAP; //   LEAF_CAP i32: steepness beyond ±S
export const CTX_LEAF_TETRIS = CTX_LEAF_EXCESS + LEAF_CAP; //  LEAF_CAP i32: what the Tetris rule allows on the leaf
export const CTX_LEAF_RAW = CTX_LEAF_TETRIS + LEAF_CAP; //     LEAF_CAP i32: the gathered table value
// Two unknown pieces: a leaf's heights, one child's, where each first piece's children start, and per child its
// surface index (then its leafRow) and Tetris rule (7 pieces x at most 35 moves).
export const E2_CAP = 256;
export const CTX_E2_HEIGHTS = CTX_LEAF_RAW + LEAF_CAP;
export const CTX_E2_CHILD = CTX_E2_HEIGHTS + HEIGHTS_WORDS;
export const CTX_E2_START = CTX_E2_CHILD + HEIGHTS_WORDS;
export const CTX_E2_INDEX = CTX_E2_START + 8;
export const CTX_E2_TETRIS = CTX_E2_INDEX + E2_CAP;
// The memo of visited states (assembly/search/tree.ts): MEMO_SLOTS i64 slots, 16 KB, so it stays in the L1 cache.
export const MEMO_SLOT_BITS = 11;
export const MEMO_SLOTS = 1 << MEMO_SLOT_BITS;
export const MEMO_WORDS = 2;
export const CTX_MEMO = CTX_E2_TETRIS + E2_CAP;
// Hold at every ply (rule sets with hold; assembly/search/tree.ts searchHeld): the hold box after the first move
// (HOLD_*), the first depth at which hold may be pressed (the caller weighs the first move's hold itself: 1; a
// search that continues after a first move: 0), and how many pieces the queue buffer holds (at least lookahead + 1:
// putting a piece into an empty box brings the one after it).
export const CTX_HOLD = CTX_MEMO + MEMO_SLOTS * MEMO_WORDS;
export const CTX_HOLD_FROM = CTX_HOLD + 1;
export const CTX_QUEUE_LENGTH = CTX_HOLD_FROM + 1;
export const CTX_WORDS = CTX_QUEUE_LENGTH + 1;

/** CTX_HOLD: no hold in this search (rule sets without it); else the box's piece + 1, or HOLD_EMPTY. */
export const HOLD_NONE = 0;
export const HOLD_EMPTY = 8;

// ---- leaf rows (CFG_PIECE_MAX; src/rank/piece-max.ts, src/rank/preview.ts): LEAF_ROW_SLOTS u16 per surface ----
export const LEAF_ROW_SLOTS = 8; //         slot p (0..6): the surface's value with piece p to place next
export const LEAF_SLOT_AFTER_TETRIS = 7; // its value right after a Tetris
export const LEAF_ROW_SHIFT = 4; //         log2 of a row's bytes (LEAF_ROW_SLOTS u16)
// Leaf rows folded by mirror symmetry (src/kernels/search-folded-rows.ts; docs/file-formats.md, "Mirror folding"): a
// mirror pair of surfaces shares one row, the representative's; the other surface reads slot k of it as slot
// FOLD_MIRROR_SLOT[k] (S<->Z, L<->J). Such an engine's step lookup and placement records give each surface the
// mirror-pair index instead of its index: bit fields, from the lowest, b = the trailing half's digits reversed and
// complemented (FOLD_LOW_BITS bits), the middle digit c (FOLD_MIDDLE_BITS bits, none without one), and the leading
// half's digits a. Surface (a, c, b) is stored at row (b(b+1)/2 + a) * middle + c when a < b (or a = b and
// c <= middle-1-c), else, mirrored, at row (a(a+1)/2 + b) * middle + middle-1-c: a few integer operations per read.
export const FOLD_MIDDLE = 0; //      B with a middle digit, else 1
export const FOLD_LOW_BITS = 1; //    bits of the b field
export const FOLD_MIDDLE_BITS = 2; // bits of the c field (0 without a middle digit)
export const FOLD_MIRROR_SLOT = 3; // LEAF_ROW_SLOTS i32: slot k of a mirrored surface's row is stored slot [k]
export const FOLD_WORDS = FOLD_MIRROR_SLOT + LEAF_ROW_SLOTS;

// ---- a search's value (the i64 at CTX_BEST_VALUE) ----
// Values compare as i64: depth reached << VALUE_DEPTH_SHIFT (dead sequences rank below survivors, longer first),
// then (excessFirst) (0xffff - steepness beyond ±S) << VALUE_EXCESS_SHIFT, then a 32-bit score of the final
// surface (rank << VALUE_RANK_SHIFT, or the expected best rank x 65536).
export const VALUE_DEPTH_SHIFT = 56;
export const VALUE_EXCESS_SHIFT = 32;
export const VALUE_RANK_SHIFT = 16;

// ---- moves: a placement id (index into the placement records) or one of these ----
export const MOVE_TETRIS = -1;
export const MOVE_NONE = -2;

// ---- game record (one per simulated game; advanced by playGame) ----
export const G_HEIGHTS = 0; //       HEIGHTS_WORDS i32
export const G_PIECES = 16; //       ptr to u8 piece ids
export const G_AVAILABLE = 17; //    pieces in the buffer
export const G_POSITION = 18; //     index of the current piece in the buffer
export const G_PLAYED = 19; //       pieces placed so far (Tetrises included)
export const G_CAP = 20; //          stop after this many pieces (censored game)
export const G_STATUS = 21; //       GAME_* below
export const G_DEATH_PIECE = 22; //  piece id that found no placement
export const G_TETRISES = 23;
export const G_LOOKAHEAD = 24;
export const G_CTX = 25; //          ptr to this game's search context
export const G_WEIGHTS = 26; //      ptr to WEIGHT_WORDS_* i32 per buffered piece: its chances before it was dealt (x 65536);
//                                   two unknown pieces: 8, then for each piece p1 the next one's chances given p1
export const GAME_WORDS = 27;
/** Words of chances per buffered piece in a game's weights buffer: one unknown piece. */
export const WEIGHT_WORDS_EXPECT = 8;
/** The same for two unknown pieces: 8 + 7 x 8. */
export const WEIGHT_WORDS_EXPECT2 = 64;

/** G_STATUS and playGame's result: still running (it needs more pieces). */
export const GAME_NEEDS_PIECES = 0;
export const GAME_DEAD = 1;
/** It reached G_CAP pieces. */
export const GAME_CAPPED = 2;
