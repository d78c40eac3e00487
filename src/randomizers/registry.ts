/**
 * Every randomizer the library knows, in the order tables and lists show them. Each one is a definition in its own
 * module (definition.ts says what it holds); this list is the only other place a randomizer is named: the names, the
 * `RandomizerName` type and createRandomizer's families all come from it (docs/architecture.md, "Adding a
 * randomizer").
 */
import { StackRankError, describe } from '../errors.js';
import { bag7, bag14, redBlue, twoBag } from './bags.js';
import { decay } from './decay.js';
import type { RandomizerDefinition } from './definition.js';
import { tgm1, tgm2 } from './history.js';
import { memoryless } from './memoryless.js';
import { nesSketch } from './nes-sketch.js';
import { nes } from './nes.js';
import { tgm3 } from './tgm3.js';
import type { RandomizerOf, RandomizerStateOf } from './types.js';

export const RANDOMIZERS = [memoryless, nes, nesSketch, tgm1, tgm2, tgm3, bag7, bag14, twoBag, redBlue, decay] as const;

export type RandomizerName = (typeof RANDOMIZERS)[number]['name'];

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every randomizer's parameters, each optional (decay's `denominator`, tgm3's `poolQuirk`). */
export type RandomizerParams = Partial<Intersection<(typeof RANDOMIZERS)[number]['defaults']>>;
export const RANDOMIZER_NAMES: readonly RandomizerName[] = Object.freeze(RANDOMIZERS.map((r) => r.name));

/** A piece generator (docs/randomizers.md, "The interface"). */
export type Randomizer = RandomizerOf<RandomizerName>;
/**
 * A JSON-serialisable snapshot: the family name, its parameters, the PRNG state and the family's own fields.
 * `restoreRandomizer(state)` continues the exact same stream.
 */
export type RandomizerState = RandomizerStateOf<RandomizerName>;

const BY_NAME: ReadonlyMap<string, RandomizerDefinition<RandomizerName>> = new Map(RANDOMIZERS.map((r) => [r.name, r]));

export function isRandomizerName(name: unknown): name is RandomizerName {
  return typeof name === 'string' && BY_NAME.has(name);
}

/**
 * A randomizer's name checked (BAD_ARGUMENT naming what is allowed; `also` lists a caller's extra names, such as a
 * session's 'unknown'): options take a randomizer by name, not a randomizer object.
 */
export function checkRandomizerName(name: unknown, also: readonly string[] = []): RandomizerName {
  if (isRandomizerName(name)) return name;
  const names = RANDOMIZER_NAMES.join(', ') + also.map((n) => ` or '${n}'`).join('');
  throw new StackRankError(
    'BAD_ARGUMENT',
    typeof name === 'string'
      ? `unknown randomizer ${describe(name)}; randomizers are ${names}`
      : `randomizer must be a randomizer's name (${names}); got ${describe(name)}`,
  );
}

/** The definition of randomizer `name` (a name already checked). */
export function randomizerDefinition(name: RandomizerName): RandomizerDefinition<RandomizerName> {
  return BY_NAME.get(name)!;
}
