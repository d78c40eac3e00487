/**
 * Randomizers by name: `createRandomizer(name, { seed, ...params })` starts a generator, `restoreRandomizer`
 * continues one from its `state()`. Every family draws from the project's one PRNG (src/random.ts); the exact
 * sequence of PRNG calls per piece is documented in docs/randomizers.md.
 */
import {
  StackRankError,
  checkCallback,
  describe,
  fieldsOnce,
  firstHole,
  optionNames,
  optionsObject,
} from '../errors.js';
import { Rng, checkSeed } from '../random.js';
import { MixtureRandomizer } from './base.js';
import type { RandomizerDefinition } from './definition.js';
import {
  RANDOMIZERS,
  checkRandomizerName,
  randomizerDefinition,
  type Randomizer,
  type RandomizerName,
  type RandomizerParams,
  type RandomizerState,
} from './registry.js';
import { invalidState, rngFromState } from './snapshot.js';

// The names, the types and each randomizer's definition.
export * from './registry.js';

/** The seed, every randomizer's parameters (registry.ts, `RandomizerParams`) and a warning callback. */
export interface RandomizerOptions extends RandomizerParams {
  /** Any safe integer (reduced mod 2^32); default 0. */
  seed?: number;
  /** Receives advisory messages (none are issued today; kept so existing callers keep working); default console.warn. */
  onWarning?: (message: string) => void;
}

/** Every option any randomizer reads; a key outside them is refused even when its value is undefined. */
const RANDOMIZER_OPTIONS: readonly string[] = [
  ...optionNames<Pick<RandomizerOptions, 'seed' | 'onWarning'>>({ seed: true, onWarning: true }),
  ...new Set(RANDOMIZERS.flatMap((r) => Object.keys(r.defaults))),
];

function familyOf(name: unknown): RandomizerDefinition {
  return randomizerDefinition(checkRandomizerName(name));
}

/** The parameters `name` accepts, with their defaults (e.g. `{ denominator: 1.1 }` for decay). */
export function randomizerDefaults(name: RandomizerName): Record<string, number> {
  return { ...familyOf(name).defaults };
}

/**
 * Starts generator `name` from `seed`. Parameters other than the family's own are rejected, so a typo such as
 * `{ denominater: 2 }` fails instead of silently using the default.
 */
export function createRandomizer(name: RandomizerName, options: RandomizerOptions = {}): Randomizer {
  const family = familyOf(name);
  const {
    seed = 0,
    onWarning = (m: string) => console.warn(m),
    ...given
  } = optionsObject('createRandomizer', options ?? undefined); // null: no options, as before
  checkCallback('onWarning', onWarning);
  const params: Record<string, number> = { ...family.defaults };
  for (const [key, value] of Object.entries(given)) {
    // A parameter of another family left undefined is no parameter; a name no family reads is a misspelling.
    if (value === undefined && RANDOMIZER_OPTIONS.includes(key)) continue;
    if (!(key in family.defaults)) {
      const accepted = Object.keys(family.defaults);
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${name} has no parameter ${JSON.stringify(key)}; it accepts ${accepted.length ? accepted.join(', ') : 'only seed'}`,
      );
    }
    params[key] = value as number;
  }
  return family.create(new Rng(checkSeed(seed)), params, onWarning) as Randomizer;
}

const RESTORE_RANDOMIZER_OPTIONS = optionNames<Pick<RandomizerOptions, 'onWarning'>>({ onWarning: true });

/**
 * Continues a generator from a `state()` snapshot (which may have been through JSON). A snapshot of a mixture
 * (what `afterDealing` returns for twoBag, redBlue and tgm3 before it deals) lists its states under `mixture`,
 * each with its `weight` and its own family fields; they share the snapshot's `rng`.
 */
export function restoreRandomizer(
  snapshot: RandomizerState,
  options: Pick<RandomizerOptions, 'onWarning'> = {},
): Randomizer {
  if (snapshot === null || typeof snapshot !== 'object')
    throw new StackRankError('BAD_ARGUMENT', `randomizer state must be an object; got ${describe(snapshot)}`);
  // Read once: the fields checked here are the ones the family restores from.
  const state = fieldsOnce('restoreRandomizer', snapshot) as unknown as RandomizerState;
  const family = familyOf(state.name);
  const opts = optionsObject('restoreRandomizer', options, RESTORE_RANDOMIZER_OPTIONS);
  const warn = checkCallback<(m: string) => void>('onWarning', opts.onWarning) ?? ((m: string) => console.warn(m));
  const rng = rngFromState(state);
  // The family's parameters, all of them: a default filled in for a missing one would deal another stream.
  const names = Object.keys(family.defaults);
  const params: unknown = state.params;
  if (
    params === null ||
    typeof params !== 'object' ||
    Array.isArray(params) ||
    Object.keys(params).length !== names.length ||
    !names.every((k) => Object.hasOwn(params, k))
  )
    invalidState(
      state,
      `params must be ${names.length ? `{ ${names.join(', ')} }` : '{}'} as state() gives them; got ${describe(params)}`,
    );
  if (state.mixture === undefined) return family.restore(rng, state, warn) as Randomizer;
  const parts = state.mixture;
  // map below skips a sparse array's holes: a hole is a missing entry.
  if (!Array.isArray(parts) || parts.length === 0 || firstHole(parts) >= 0)
    invalidState(state, `mixture must be a non-empty list of { weight, ...fields }; got ${describe(parts)}`);
  let total = 0;
  const components = parts.map((part: unknown, i) => {
    if (part === null || typeof part !== 'object' || Array.isArray(part))
      invalidState(state, `mixture entry ${i} must be an object; got ${describe(part)}`);
    const { weight, ...fields } = part as Record<string, unknown>;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0) {
      invalidState(state, `mixture entry ${i}: weight must be a finite number > 0; got ${describe(weight)}`);
    }
    total += weight;
    return {
      weight,
      randomizer: family.restore(rng, { ...fields, name: state.name, params: state.params, rng: state.rng }, warn),
    };
  });
  if (Math.abs(total - 1) > 1e-9) invalidState(state, `mixture weights must sum to 1; got ${total}`);
  return new MixtureRandomizer(
    rng,
    components.map((c) => ({ weight: c.weight / total, randomizer: c.randomizer })),
  ) as Randomizer;
}
