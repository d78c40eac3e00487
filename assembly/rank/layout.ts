// Rank kernel: the plan layout and codes it shares with TypeScript, defined once.
//
// Written in the subset that both compilers accept (plain numeric constants: no types, no imports), so the kernel
// (assembly/rank.ts) and its TypeScript driver (src/kernels/rank*.ts) read the same definitions. The
// kernel also exports every constant here as a WebAssembly global, and test/kernel-layout.test.ts checks that each
// one the compiled kernel carries equals this file's (a stale build fails it).

// ---- plan header: i32 words, written by src/kernels/rank.ts (writePlan) from src/kernels/rank-plan.ts ----
export const PLAN_LO = 0; //           surfaces per block, B^K
export const PLAN_HI = 1; //           number of blocks
export const PLAN_PIECE_END = 2; //    ptr to i32[slots]: end (exclusive) of each slot's moves, moves sorted by slot
export const PLAN_DELTA = 3; //        ptr to i32[moves]: the move's index change
export const PLAN_RUN_FIRST = 4; //    ptr to i32[moves]: index of the move's first run
export const PLAN_RUN_COUNT = 5; //    ptr to i32[moves]
export const PLAN_HI_OK = 6; //        ptr to u8[moves * HI]: can the move be legal in block h (move-major)
export const PLAN_RUNS = 7; //         ptr to i32[2 * runs]: (start, length) pairs of low offsets
export const PLAN_ROLE = 8; //         ptr to i32[7]: how each piece's maxima are summed (ROLE_*)
// The mirror-folded u16 build's words (src/kernels/rank-mirror-plan.ts); 0 in the other plans.
export const PLAN_BLOCK_LIST = 9; //   ptr to i32[count]: canonical block indices, in the order threads take them
export const PLAN_MIRROR_BLOCK = 10; // ptr to i32[count]: the mirror block of each listed block (itself when symmetric)
export const PLAN_LIST_COUNT = 11; //  number of listed blocks
export const PLAN_EDGE = 12; //        E: a block's low offsets are an E x E square (U, V); mirroring transposes it
export const PLAN_MOVES = 13; //       number of moves
export const PLAN_LIST_OK = 14; //     ptr to u8[count * moves]: can move m be legal at listed block i (block-major;
//                                     a mirrored move is tested on the mirror block)
export const PLAN_WORDS = 15;

// ---- piece roles in the f32 iterations' sums: mirror pairs (S,Z), (L,J) are added together first ----
export const ROLE_SELF = 0; //         mirror of itself: acc += tmp
export const ROLE_PAIR_FIRST = 1; //   first of a mirror pair: pair = tmp
export const ROLE_PAIR_SECOND = 2; //  second of the pair: acc += pair + tmp

// ---- the mirror-folded u16 build's move slots ----
/** Slots per piece: slot 2p holds p's moves applied to the block itself, slot 2p + 1 the mirror images of the
 *  moves whose legality depends on the block's right edge steps, applied to the mirror block and transposed. */
export const SLOTS_PER_PIECE = 2;
/** Bytes of slack after every u16 buffer and scratch: a run's last 8-lane step may pass its end by 14 bytes. */
export const U16_SLACK_BYTES = 16;
/** u16 scratch arrays per thread in the u16 build: seven piece maxima and one mirrored part. */
export const U16_SCRATCH_ARRAYS = 8;
