/**
 * The common shape of every piece generator (docs/randomizers.md), over its name type: registry.ts lists the
 * generators and names the public `Randomizer` (this shape over `RandomizerName`); each generator lives in its own
 * module, which imports this one and not the registry.
 */
import type { Piece } from '../pieces.js';

/**
 * A JSON-serialisable snapshot: the family name, its parameters, the PRNG state and the family's own fields.
 * `restoreRandomizer(state)` continues the exact same stream.
 */
export interface RandomizerStateOf<N extends string = string> {
  name: N;
  params: Record<string, number>;
  rng: [number, number, number, number];
  [field: string]: unknown;
}

export interface RandomizerOf<N extends string = string> extends Iterable<Piece> {
  readonly name: N;
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
  clone(): RandomizerOf<N>;
  state(): RandomizerStateOf<N>;
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
  afterDealing(id: number): RandomizerOf<N>;
  /**
   * The joint distribution of the next two pieces: entry `p1 * 7 + p2` is P(next is p1) · P(the one after is
   * p2 | next is p1); rows of impossible pieces are zero, row p1 sums to distribution()[p1]. Writes into `into`
   * (a Float64Array of length 49, else BAD_ARGUMENT) when given, otherwise returns a new array. Every family has
   * a closed-form path that allocates nothing after its first call (only tgm3 before its first piece builds the
   * states after each piece).
   */
  nextPairDistribution(into?: Float64Array): Float64Array;
}
