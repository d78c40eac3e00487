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
import { PIECE_COUNT } from '../pieces.js';
import { Rng, checkSeed } from '../random.js';
import { BAG_SPECS, BagRandomizer, fullBag } from './bags.js';
import { MixtureRandomizer, type BaseRandomizer } from './base.js';
import { DEFAULT_DENOMINATOR, DecayRandomizer, checkDenominator } from './decay.js';
import { HISTORY_LENGTH, HistoryRollRandomizer, TGM1, TGM2, type HistoryRollSpec } from './history.js';
import { MemorylessRandomizer } from './memoryless.js';
import { NesSketchRandomizer } from './nes-sketch.js';
import { NO_PIECE, NesRandomizer, SPAWN_COUNT_VALUES } from './nes.js';
import {
  booleanField,
  checkPieceIds,
  invalidState,
  numberList,
  pieceIdField,
  pieceIdList,
  rngFromState,
} from './snapshot.js';
import { DEFAULT_POOL_QUIRK, POOL_SIZE, Tgm3Randomizer, initialDroughtOrder, initialPool } from './tgm3.js';
import { RANDOMIZER_NAMES, type Randomizer, type RandomizerName, type RandomizerState } from './types.js';

export { RANDOMIZER_NAMES, type Randomizer, type RandomizerName, type RandomizerState } from './types.js';

export interface RandomizerOptions {
  /** Any safe integer (reduced mod 2^32); default 0. */
  seed?: number;
  /** decay only: weight divisor, a finite number >= 1, default 1.1. */
  denominator?: number;
  /** tgm3 only: 1 (default) deals with the game's pool quirk, 0 with the idealised pool (docs/randomizers.md). */
  poolQuirk?: 0 | 1;
  /** Receives advisory messages (none are issued today; kept so existing callers keep working); default console.warn. */
  onWarning?: (message: string) => void;
}

/** Every option any family reads; a key outside them is refused even when its value is undefined. */
const RANDOMIZER_OPTIONS = optionNames<RandomizerOptions>({
  seed: true,
  denominator: true,
  poolQuirk: true,
  onWarning: true,
});

interface Family {
  /** Parameter names with their defaults; anything else passed in is rejected. */
  readonly defaults: Readonly<Record<string, number>>;
  create(rng: Rng, params: Record<string, number>, warn: (message: string) => void): BaseRandomizer;
  restore(rng: Rng, state: RandomizerState, warn: (message: string) => void): BaseRandomizer;
}

function historyFamily(spec: HistoryRollSpec): Family {
  return {
    defaults: {},
    create: (rng) => new HistoryRollRandomizer(spec, rng),
    restore: (rng, state) => {
      const started = booleanField(state, 'started');
      return new HistoryRollRandomizer(
        spec,
        rng,
        [...pieceIdList(state, 'history', started ? HISTORY_LENGTH : 0)],
        started,
      );
    },
  };
}

function bagFamily(name: keyof typeof BAG_SPECS): Family {
  const spec = BAG_SPECS[name];
  return {
    defaults: {},
    create: (rng) => new BagRandomizer(spec, rng),
    restore: (rng, state) => {
      const bags = state.bags;
      // map below skips a sparse array's holes: a hole is a missing bag.
      if (!Array.isArray(bags) || bags.length !== spec.bagCount || firstHole(bags) >= 0)
        invalidState(state, `bags must be a list of ${spec.bagCount} bag(s); got ${describe(bags)}`);
      const checked = bags.map((_, i) => {
        const bag = [...checkPieceIds(state, `bag ${i}`, bags[i])];
        const perPiece = new Array<number>(PIECE_COUNT).fill(0);
        for (const id of bag) perPiece[id]++;
        if (bag.length === 0 || perPiece.some((n) => n > spec.copies)) {
          invalidState(
            state,
            `bag ${i} must hold 1 to ${fullBag(spec).length} pieces, at most ${spec.copies} of each; got ${describe(bag)}`,
          );
        }
        return bag;
      });
      return new BagRandomizer(spec, rng, checked);
    },
  };
}

const FAMILIES: Record<RandomizerName, Family> = {
  memoryless: {
    defaults: {},
    create: (rng) => new MemorylessRandomizer(rng),
    restore: (rng) => new MemorylessRandomizer(rng),
  },
  nes: {
    defaults: {},
    // A game starts with whatever spawn count the previous games left (the game never resets it).
    create: (rng) => new NesRandomizer(rng, rng.nextInt(SPAWN_COUNT_VALUES)),
    restore: (rng, state) => {
      const spawnCount = state.spawnCount;
      if (!Number.isInteger(spawnCount) || (spawnCount as number) < 0 || (spawnCount as number) >= SPAWN_COUNT_VALUES) {
        invalidState(state, `spawnCount must be an integer 0..${SPAWN_COUNT_VALUES - 1}; got ${describe(spawnCount)}`);
      }
      const previous = pieceIdField(state, 'previous', true);
      const secondPiece = booleanField(state, 'secondPiece');
      if (secondPiece && previous === NO_PIECE) invalidState(state, 'secondPiece needs the first piece in previous');
      return new NesRandomizer(rng, spawnCount as number, previous, secondPiece);
    },
  },
  nesSketch: {
    defaults: {},
    create: (rng) => new NesSketchRandomizer(rng),
    restore: (rng, state) => new NesSketchRandomizer(rng, pieceIdField(state, 'previous', true)),
  },
  tgm1: historyFamily(TGM1),
  tgm2: historyFamily(TGM2),
  tgm3: {
    defaults: { poolQuirk: DEFAULT_POOL_QUIRK },
    create: (rng, params) =>
      new Tgm3Randomizer(rng, initialPool(), initialDroughtOrder(), [], false, 0, checkPoolQuirk(params.poolQuirk)),
    restore: (rng, state) => {
      const started = booleanField(state, 'started');
      const order = pieceIdList(state, 'droughtOrder', PIECE_COUNT);
      if (new Set(order).size !== PIECE_COUNT)
        invalidState(state, `droughtOrder must list each piece once; got ${describe(order)}`);
      const history = pieceIdList(state, 'history', started ? HISTORY_LENGTH : 0);
      const seen = state.seen;
      if (!Number.isInteger(seen) || (seen as number) < 0 || (seen as number) >= 1 << PIECE_COUNT) {
        invalidState(state, `seen must be a bit mask 0..${(1 << PIECE_COUNT) - 1}; got ${describe(seen)}`);
      }
      const poolQuirk = checkPoolQuirk(state.params.poolQuirk);
      return new Tgm3Randomizer(
        rng,
        [...pieceIdList(state, 'pool', POOL_SIZE)],
        [...order],
        [...history],
        started,
        seen as number,
        poolQuirk,
      );
    },
  },
  bag7: bagFamily('bag7'),
  bag14: bagFamily('bag14'),
  twoBag: bagFamily('twoBag'),
  redBlue: bagFamily('redBlue'),
  decay: {
    defaults: { denominator: DEFAULT_DENOMINATOR },
    create: (rng, params, warn) => new DecayRandomizer(rng, checkDenominator(params.denominator, warn)),
    restore: (rng, state, warn) => {
      const weights = numberList(state, 'weights', PIECE_COUNT);
      const total = weights.reduce((a, b) => a + b, 0);
      // Dealing keeps the total at 7 (up to rounding); anything far from it was not made by this generator.
      if (!(Math.abs(total - PIECE_COUNT) < 1e-6))
        invalidState(state, `weights must sum to ${PIECE_COUNT}; got ${total}`);
      return new DecayRandomizer(rng, checkDenominator(state.params?.denominator, warn), weights);
    },
  },
};

function checkPoolQuirk(value: unknown): number {
  if (value !== 0 && value !== 1)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `tgm3's poolQuirk must be 1 (the game's pool quirk) or 0 (the idealised pool); got ${describe(value)}`,
    );
  return value;
}

export function isRandomizerName(name: unknown): name is RandomizerName {
  return typeof name === 'string' && (RANDOMIZER_NAMES as readonly string[]).includes(name);
}

function familyOf(name: unknown): Family {
  if (!isRandomizerName(name)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `unknown randomizer ${describe(name)}; randomizers are ${RANDOMIZER_NAMES.join(', ')}`,
    );
  }
  return FAMILIES[name];
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
  return family.create(new Rng(checkSeed(seed)), params, onWarning);
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
  if (state.mixture === undefined) return family.restore(rng, state, warn);
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
  );
}
