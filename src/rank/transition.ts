/**
 * Piece models for the randomizer-aware table variants: a randomizer's piece-transition matrix P(p | n) (preview
 * variant) and its piece frequencies (weighted variant), both made mirror-symmetric.
 *
 * Estimation: deal a long deterministic run of the randomizer and, at every step, add its exact next-piece
 * distribution (`distribution()`, given the state) to the row of the piece just dealt, instead of counting the
 * piece that comes. Both estimate the same pair frequencies; the expected counts have far less noise (for tgm1,
 * 2e6 pieces give the repeat probability within 1e-5 against 2e-4 for plain pair counts). The first
 * BURN_IN pieces are dealt and ignored, so a start-up rule (TGM's first piece) does not tilt the rows. The
 * memoryless randomizer's matrix is exact (every entry 1/7).
 *
 * Mirror symmetry: a table whose surfaces and mirror images share values needs P(mirror p | mirror n) = P(p | n)
 * (S<->Z, L<->J). The estimate is averaged with its mirror conjugate, entry by entry in f64; rows still sum to 1.
 */
import {
  StackRankError,
  describe,
  optionNames,
  optionsObject,
  requireInt,
  sliceClock,
  yieldToEventLoop,
} from '../errors.js';
import { MIRROR_PIECE, PIECE_COUNT } from '../pieces.js';
import { MAX_SEED } from '../random.js';
import {
  createRandomizer,
  checkRandomizerName,
  randomizerDefaults,
  type RandomizerName,
} from '../randomizers/index.js';
import { modelProblem, type VariantParams } from './file.js';

export const DEFAULT_SAMPLES = 10_000_000;
export const DEFAULT_MODEL_SEED = 1;
export const MAX_SAMPLES = 0xffffffff;
/** The randomizer whose piece model a preview or weighted table uses when none is named. */
export const DEFAULT_MODEL_RANDOMIZER: RandomizerName = 'tgm1';
const BURN_IN = 1000;
/** The name recorded for a model given directly as a matrix or weights. */
export const CUSTOM_RANDOMIZER = 'custom';

export interface PieceModelOptions {
  /** A randomizer name (default 'tgm1'). Ignored when `transition` / `weights` give the model directly. */
  randomizer?: RandomizerName;
  /** The randomizer's parameters, e.g. `{ denominator: 1.5 }` for decay. */
  randomizerParams?: Record<string, number>;
  /** Pieces dealt to estimate the model (default 10,000,000; ignored for memoryless, which is exact). */
  samples?: number;
  /** Seed of that run (default 1). */
  seed?: number;
}

/** PieceModelOptions' keys, which the preview and weighted builds' option lists spread. */
export const PIECE_MODEL_OPTION_KEYS: { readonly [K in keyof Required<PieceModelOptions>]: true } = {
  randomizer: true,
  randomizerParams: true,
  samples: true,
  seed: true,
};

const PIECE_MODEL_OPTIONS = optionNames<PieceModelOptions>({ ...PIECE_MODEL_OPTION_KEYS });

/** The piece-model options of a larger options object (a table build's), for transitionModel and weightsModel. */
export function pieceModelOptions(opts: PieceModelOptions): PieceModelOptions {
  const { randomizer, randomizerParams, samples, seed } = opts;
  return { randomizer, randomizerParams, samples, seed };
}

/** The variant parameters (file form) of a model estimated from a randomizer or given directly. */
export type PieceModel = VariantParams;

/** The randomizer's one parameter (decay: denominator) with defaults filled in, 0 for families without one. */
export function randomizerParameter(name: RandomizerName, params: Record<string, number> | undefined): number {
  const merged = { ...randomizerDefaults(name), ...(params ?? {}) };
  const keys = Object.keys(merged);
  if (keys.length === 0) return 0;
  return merged[keys[0]];
}

/** Validates the randomizer, samples and seed options (typed BAD_ARGUMENT errors) and fills in defaults. */
export function checkModelOptions(opts: PieceModelOptions) {
  if (
    opts.randomizerParams !== undefined &&
    (opts.randomizerParams === null ||
      typeof opts.randomizerParams !== 'object' ||
      Array.isArray(opts.randomizerParams))
  ) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `randomizerParams must be an object such as { denominator: 1.5 }; got ${describe(opts.randomizerParams)}`,
    );
  }
  const randomizer = checkRandomizerName(opts.randomizer ?? DEFAULT_MODEL_RANDOMIZER);
  const samples = requireInt('samples', opts.samples ?? DEFAULT_SAMPLES, 1, MAX_SAMPLES);
  const seed = requireInt('seed', opts.seed ?? DEFAULT_MODEL_SEED, 0, MAX_SEED);
  return { randomizer, samples, seed };
}

/** Averages a 7x7 matrix (or 7 weights) with its mirror conjugate: the result is exactly mirror-symmetric. */
export function symmetrizeModel(model: ArrayLike<number>): Float64Array {
  const out = new Float64Array(model.length);
  if (model.length === PIECE_COUNT) {
    for (let p = 0; p < PIECE_COUNT; p++) out[p] = (model[p] + model[MIRROR_PIECE[p]]) / 2;
    return out;
  }
  for (let n = 0; n < PIECE_COUNT; n++) {
    for (let p = 0; p < PIECE_COUNT; p++) {
      out[n * PIECE_COUNT + p] =
        (model[n * PIECE_COUNT + p] + model[MIRROR_PIECE[n] * PIECE_COUNT + MIRROR_PIECE[p]]) / 2;
    }
  }
  return out;
}

/**
 * Expected pair and piece counts over `samples` steps of the randomizer: pairs[7 n + p] and singles[p]. Each step
 * adds the exact distribution of the next piece (given the state) to the row of the piece just dealt.
 */
function* expectedCounts(
  name: RandomizerName,
  params: Record<string, number> | undefined,
  samples: number,
  seed: number,
): Generator<void, { pairs: Float64Array; singles: Float64Array }> {
  const r = createRandomizer(name, { seed, ...(params ?? {}), onWarning: () => {} });
  for (let i = 0; i < BURN_IN; i++) r.nextId();
  const pairs = new Float64Array(PIECE_COUNT * PIECE_COUNT);
  const singles = new Float64Array(PIECE_COUNT);
  const dist = new Float64Array(PIECE_COUNT);
  let prev = r.nextId();
  const due = sliceClock();
  for (let i = 0; i < samples; i++) {
    r.distribution(dist);
    const row = prev * PIECE_COUNT;
    for (let p = 0; p < PIECE_COUNT; p++) {
      pairs[row + p] += dist[p];
      singles[p] += dist[p];
    }
    prev = r.nextId();
    if ((i & 255) === 255 && due()) yield;
  }
  return { pairs, singles };
}

/** Runs a sliced computation to its end on this thread. */
function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs a sliced computation with the event loop run between slices; rejects with ABORTED once `signal` fires. */
export async function runSliced<T>(steps: Generator<void, T>, signal?: AbortSignal): Promise<T> {
  for (;;) {
    if (signal?.aborted) throw new StackRankError('ABORTED', 'the rank-table build was cancelled');
    const step = steps.next();
    if (step.done) return step.value;
    await yieldToEventLoop();
  }
}

/** The mirror-symmetrised transition matrix P(p | n) of a randomizer, estimated (or exact for memoryless). */
export function transitionModel(opts: PieceModelOptions = {}): PieceModel {
  return runToEnd(transitionSteps(opts));
}

/** transitionModel in slices (for builds that honour a signal). */
export function* transitionSteps(options: PieceModelOptions): Generator<void, PieceModel> {
  const opts = optionsObject('transitionModel', options, PIECE_MODEL_OPTIONS);
  const { randomizer, samples, seed } = checkModelOptions(opts);
  const parameter = randomizerParameter(randomizer, opts.randomizerParams);
  if (randomizer === 'memoryless') {
    return {
      randomizer,
      samples: 0,
      seed: 0,
      parameter,
      model: new Float64Array(PIECE_COUNT * PIECE_COUNT).fill(1 / PIECE_COUNT),
    };
  }
  const { pairs } = yield* expectedCounts(randomizer, opts.randomizerParams, samples, seed);
  const raw = new Float64Array(PIECE_COUNT * PIECE_COUNT);
  for (let n = 0; n < PIECE_COUNT; n++) {
    let total = 0;
    for (let p = 0; p < PIECE_COUNT; p++) total += pairs[n * PIECE_COUNT + p];
    if (total === 0) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `piece ${n} never came in ${samples} pieces of ${randomizer}; deal more samples`,
      );
    }
    for (let p = 0; p < PIECE_COUNT; p++) raw[n * PIECE_COUNT + p] = pairs[n * PIECE_COUNT + p] / total;
  }
  return { randomizer, samples, seed, parameter, model: normalizeRows(symmetrizeModel(raw)) };
}

/** The mirror-symmetrised piece frequencies of a randomizer (weighted variant), estimated or exact for memoryless. */
export function weightsModel(opts: PieceModelOptions = {}): PieceModel {
  return runToEnd(weightsSteps(opts));
}

/** weightsModel in slices (for builds that honour a signal). */
export function* weightsSteps(options: PieceModelOptions): Generator<void, PieceModel> {
  const opts = optionsObject('weightsModel', options, PIECE_MODEL_OPTIONS);
  const { randomizer, samples, seed } = checkModelOptions(opts);
  const parameter = randomizerParameter(randomizer, opts.randomizerParams);
  if (randomizer === 'memoryless') {
    return { randomizer, samples: 0, seed: 0, parameter, model: new Float64Array(PIECE_COUNT).fill(1 / PIECE_COUNT) };
  }
  const { singles } = yield* expectedCounts(randomizer, opts.randomizerParams, samples, seed);
  const total = singles.reduce((a, b) => a + b, 0);
  return {
    randomizer,
    samples,
    seed,
    parameter,
    model: normalizeRows(symmetrizeModel(Array.from(singles, (v) => v / total))),
  };
}

/**
 * Rescales each row to sum to 1 (to f64 rounding) without breaking mirror symmetry: a row and its mirror row hold
 * the same values in mirrored places, and the row sum is taken in the mirror-invariant order I, O, T, S+Z, L+J.
 */
function normalizeRows(model: Float64Array): Float64Array {
  const rows = model.length / PIECE_COUNT;
  for (let n = 0; n < rows; n++) {
    const o = n * PIECE_COUNT;
    const sum = model[o] + model[o + 1] + model[o + 2] + (model[o + 3] + model[o + 4]) + (model[o + 5] + model[o + 6]);
    for (let p = 0; p < PIECE_COUNT; p++) model[o + p] /= sum;
  }
  return model;
}

/**
 * A model given directly: a 7x7 matrix (rows n = piece in hand, columns p = next piece, rows summing to 1) or 7
 * weights summing to 1. It is mirror-symmetrised (and renormalised) like an estimate and recorded as "custom".
 */
export function customModel(
  values: ArrayLike<number> | ArrayLike<ArrayLike<number>>,
  kind: 'transition' | 'weights',
): PieceModel {
  const flat: number[] = [];
  const rows = kind === 'transition' ? PIECE_COUNT : 1;
  const given = values as ArrayLike<unknown>;
  if (given === null || typeof given !== 'object' || typeof given.length !== 'number') {
    throw new StackRankError('BAD_ARGUMENT', `${kind} must be an array of numbers; got ${describe(values)}`);
  }
  if (given.length !== PIECE_COUNT && given.length !== rows * PIECE_COUNT) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${kind} must hold ${rows * PIECE_COUNT} numbers (${kind === 'transition' ? '7 rows of 7' : 'one per piece'}); got ${describe(given.length)} entries`,
    );
  }
  if (kind === 'transition' && given.length === PIECE_COUNT && typeof given[0] === 'object') {
    for (let n = 0; n < PIECE_COUNT; n++) {
      const row = given[n] as ArrayLike<number>;
      if (!row || row.length !== PIECE_COUNT)
        throw new StackRankError('BAD_ARGUMENT', `transition row ${n} must hold 7 numbers`);
      for (let p = 0; p < PIECE_COUNT; p++) flat.push(row[p]);
    }
  } else {
    for (let i = 0; i < given.length; i++) flat.push(given[i] as number);
  }
  if (flat.length !== rows * PIECE_COUNT) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${kind} must hold ${rows * PIECE_COUNT} numbers (${kind === 'transition' ? '7 rows of 7' : 'one per piece'}); got ${flat.length}`,
    );
  }
  for (const v of flat) {
    if (typeof v !== 'number' || !(v >= 0 && v <= 1))
      throw new StackRankError('BAD_ARGUMENT', `${kind} values must be numbers in [0, 1]; got ${describe(v)}`);
  }
  for (let n = 0; n < rows; n++) {
    const sum = flat.slice(n * PIECE_COUNT, n * PIECE_COUNT + PIECE_COUNT).reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > 1e-6) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${kind === 'transition' ? `transition row ${n}` : 'weights'} must sum to 1; got ${sum}`,
      );
    }
  }
  const model = normalizeRows(symmetrizeModel(flat));
  const problem = modelProblem(model);
  if (problem) throw new StackRankError('BAD_ARGUMENT', `unusable ${kind}: ${problem}`);
  return { randomizer: CUSTOM_RANDOMIZER, samples: 0, seed: 0, parameter: 0, model };
}
