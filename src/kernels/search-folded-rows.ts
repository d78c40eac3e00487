/**
 * Expectimax leaf rows folded by mirror symmetry, as the search kernel reads them (assembly/search/layout.ts
 * FOLD_*): a mirror pair of surfaces shares the representative's row (src/rank/fold.ts layout, half the memory),
 * and the other surface reads it with pieces mirrored.
 *
 * Finding a surface's folded row from its index would cost a division and a digit-flip look-up per read (a third
 * of the two-unknown-pieces search's time). Instead an engine over folded rows indexes surfaces by their
 * mirror-pair index: the same sum of one share per step as the surface index (src/surface.ts), with shares that
 * put the fold's three parts in bit fields: b = the trailing half's digits reversed and complemented (the fold's
 * f(Z), which is a sum of per-digit terms too) in the lowest FOLD_LOW_BITS bits, the middle digit c above it, the
 * leading half's digits a above that. The kernel's step lookup and placement records carry these shares, so a
 * child's index comes out of the parent's step sums as before, and its row from a few integer operations.
 */
import { MIRROR_SLOT } from './search-format.js';
import {
  FOLD_LOW_BITS,
  FOLD_MIDDLE,
  FOLD_MIDDLE_BITS,
  FOLD_MIRROR_SLOT,
  FOLD_WORDS,
} from '../../assembly/search/layout.js';

export interface MirrorPairIndex {
  /** What a step digit (0..2S) at step position i contributes to a surface's mirror-pair index. */
  share(i: number, digit: number): number;
  /** The fold block's words (FOLD_WORDS i32). */
  block: Int32Array;
}

const bitsFor = (n: number) => (n <= 1 ? 0 : Math.ceil(Math.log2(n)));

/**
 * The mirror-pair index of `shape`'s surfaces, or null when its fields do not fit 31 bits (never at a width whose
 * rows fit in memory: 9x4 takes 26).
 */
export function mirrorPairIndex(shape: {
  base: number;
  half: number;
  middle: number;
  halfSize: number;
}): MirrorPairIndex | null {
  const { base, half, middle, halfSize } = shape;
  const lowBits = Math.max(1, bitsFor(halfSize));
  const middleBits = bitsFor(middle);
  if (2 * lowBits + middleBits > 31) return null;
  const block = new Int32Array(FOLD_WORDS);
  block[FOLD_MIDDLE] = middle;
  block[FOLD_LOW_BITS] = lowBits;
  block[FOLD_MIDDLE_BITS] = middleBits;
  block.set(MIRROR_SLOT, FOLD_MIRROR_SLOT);
  const hasMiddle = middle > 1;
  const share = (i: number, digit: number): number => {
    // Step 0 is the most significant digit of a surface index (src/surface.ts).
    if (i < half) return digit * base ** (half - 1 - i) * 2 ** (lowBits + middleBits);
    if (hasMiddle && i === half) return digit * 2 ** lowBits;
    // Trailing digit j (j = 0 the most significant of Z) is digit j from the end of f(Z): weight B^j, complemented.
    const j = i - half - (hasMiddle ? 1 : 0);
    return (base - 1 - digit) * base ** j;
  };
  return { share, block };
}
