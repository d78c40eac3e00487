/**
 * Everything the library knows about one randomizer, in the randomizer's own module: its name, parameters, how to
 * start and restore it, and the facts other parts read (the game AI's stack room, the published predictability,
 * how to follow a game joined under way). registry.ts lists the definitions; the names, the `RandomizerName` type
 * and createRandomizer's families all come from that list (docs/architecture.md, "Adding a randomizer").
 */
import type { Rng } from '../random.js';
import type { BaseRandomizer } from './base.js';
import type { RandomizerStateOf } from './types.js';

/** Where a game's pieces start being seen: the prior over the generator's states, and whether it is exact. */
export interface FollowPrior {
  readonly prior: BaseRandomizer;
  readonly exact: boolean;
}

/** A randomizer's parameters by name, e.g. `{ denominator: number }` for decay. */
export type ParamValues = Readonly<Record<string, number>>;

export interface RandomizerDefinition<N extends string = string, P extends ParamValues = ParamValues> {
  /** The name createRandomizer, snapshots, run files and the command line know it by. */
  readonly name: N;
  /** One line: what it is and where it comes from. */
  readonly description: string;
  /**
   * Parameter names with their defaults; createRandomizer refuses any other. Their types (with the comment on each)
   * are the randomizer's fields of `RandomizerOptions`.
   */
  readonly defaults: P;
  /** A generator from a seeded PRNG and its parameters (defaults filled in, not yet checked). */
  create(rng: Rng, params: P, warn: (message: string) => void): BaseRandomizer;
  /**
   * The generator a `state()` snapshot describes, its family fields checked (snapshot.ts reads them); `params` holds
   * exactly the names of `defaults`.
   */
  restore(rng: Rng, state: RandomizerStateOf, warn: (message: string) => void): BaseRandomizer;
  /**
   * Whether one gap between I pieces in a thousand is longer than 30 pieces: the game AI then keeps more rows free
   * under NES rules (docs/game.md, "The policy").
   */
  readonly longIDroughts: boolean;
  /** The predictability a published article reports for it (docs/randomizers.md, "Comparison"). */
  readonly publishedPredictability?: number;
  /**
   * Following a game (docs/randomizers.md, "Following a game"): the states the generator may be in when the pieces
   * start being seen, from the game's first piece (`atStart`) or at an unknown point of a game under way; `fresh` is
   * the generator as createRandomizer starts it. Without it: `fresh` from the start (exact), and uniform chances
   * under way (approximate), narrowed by nothing.
   */
  follow?(fresh: BaseRandomizer, atStart: boolean): FollowPrior;
}

/** Keeps the literal name and parameter types of a definition (the registry derives `RandomizerName` from them). */
export function defineRandomizer<const N extends string, P extends ParamValues>(
  definition: RandomizerDefinition<N, P>,
): RandomizerDefinition<N, P> {
  return definition;
}
