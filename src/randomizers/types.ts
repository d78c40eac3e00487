/**
 * The common shape of every piece generator (docs/randomizers.md). Families live in their own modules; index.ts builds
 * them by name.
 */
import type { Piece } from '../pieces.js';

export const RANDOMIZER_NAMES = [
  'memoryless',
  'nes',
  'nesSketch',
  'tgm1',
  'tgm2',
  'tgm3',
  'bag7',
  'bag14',
  'twoBag',
  'redBlue',
  'decay',
] as const;
export type RandomizerName = (typeof RANDOMIZER_NAMES)[number];

/**
 * A JSON-serialisable snapshot: the family name, its parameters, the PRNG state and the family's own fields.
 * `restoreRandomizer(state)` continues the exact same stream.
 */
export interface RandomizerState {
  name: RandomizerName;
  params: Record<string, number>;
  rng: [number, number, number, number];
  [field: string]: unknown;
}

export interface Randomizer extends Iterable<Piece> {
  readonly name: RandomizerName;
  /** The family parameters in effect (defaults filled in), e.g. `{ denominator: 1.1 }` for decay. */
  readonly params: Readonly<Record<string, number>>;
  /** Deals the next piece as a letter. */
  next(): Piece;
  /** Deals the next piece as its canonical id 0..6 (I O T S Z L J). */
  nextId(): number;
  /** Deals `n` pieces and returns them as a string of letters. */
  take(n: number): string;
  /** Deals `count` (default `out.length`) piece ids into `out[0..count)`: the allocation-free path for kernels. */
  fillIds(out: Uint8Array, count?: number): void;
  /** An independent copy in the same state: both deal the same pieces from here on. */
  clone(): Randomizer;
  state(): RandomizerState;
  /**
   * Exact probability of each piece (canonical order) being dealt next, given the current state. Writes into
   * `into` when given (no allocation), otherwise returns a new array.
   */
  distribution(into?: Float64Array): Float64Array;
  /**
   * A new, independent randomizer in the state this one would be in right after dealing piece `id` (0..6), as
   * far as future distributions are concerned; this one is left untouched. The PRNG state is copied unchanged
   * (distribution() is exact over the PRNG, so only the family state matters). Exact for every family: where the
   * rolls decide more than the piece (twoBag and redBlue: which bag it came from; tgm3: which pool slots a
   * rejected roll overwrote) the result is the exact mixture of the possible states, weighted by their chance
   * given `id`; see docs/randomizers.md. Throws BAD_ARGUMENT for an id outside 0..6 or one that cannot be dealt
   * next (probability 0).
   */
  afterDealing(id: number): Randomizer;
  /**
   * The joint distribution of the next two pieces: entry `p1 * 7 + p2` is P(next is p1) · P(the one after is
   * p2 | next is p1); rows of impossible pieces are zero, row p1 sums to distribution()[p1]. Writes into `into`
   * (a Float64Array of length 49, else BAD_ARGUMENT) when given, otherwise returns a new array. Every family has
   * a closed-form path that allocates nothing after its first call (only tgm3 before its first piece builds the
   * states after each piece).
   */
  nextPairDistribution(into?: Float64Array): Float64Array;
}
