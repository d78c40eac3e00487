/**
 * decay (the decay-randomizer post): every piece has a weight, all 1 at the start. A piece is dealt with probability
 * weight / total, using one nextFloat(): the first piece (canonical order) whose running weight sum exceeds
 * nextFloat() * total. Then the dealt piece gives up (denominator - 1) / denominator of its weight, shared equally
 * by the other six; the total stays 7. So a denominator of 1 is memoryless, larger ones push a just-dealt piece
 * down. Denominators below 1 (where the post's sampler misbehaves: one piece crowds out the rest and weights go
 * below zero) are refused; with d >= 1 a weight never goes below zero and the total stays 7.
 */
import { StackRankError, describe } from '../errors.js';
import { PIECE_COUNT } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer, pairArray, priorRng, type Successor } from './base.js';
import { defineRandomizer } from './definition.js';
import { invalidState, numberList } from './snapshot.js';

export const DEFAULT_DENOMINATOR = 1.1;
/** The smallest denominator checkDenominator accepts (1: memoryless). */
export const MIN_DENOMINATOR = 1;
/**
 * The largest: (denominator - 1) × a weight must stay finite (above about 2.6e307 it overflows, the weights turn NaN
 * and dealing never ends). Past 2^53 a denominator already plays as infinity (the dealt piece gives up all its
 * weight), so the cap takes nothing away.
 */
export const MAX_DENOMINATOR = 1e300;

/**
 * Throws BAD_ARGUMENT for anything but a finite number >= 1. Below 1 the dealt piece gains weight, the others are
 * driven below zero and the weights stop summing to 7: after a few thousand pieces only one piece comes, the
 * distribution is not a distribution and a snapshot cannot be restored, so such denominators are refused
 * (docs/randomizers.md). `warn` is kept for callers that pass one; nothing is reported through it today.
 */
export function checkDenominator(value: unknown, _warn?: (message: string) => void): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < MIN_DENOMINATOR || value > MAX_DENOMINATOR) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `decay: denominator must be a number from ${MIN_DENOMINATOR} to ${MAX_DENOMINATOR} (1 is memoryless, ${DEFAULT_DENOMINATOR} the default); got ${describe(value)}`,
    );
  }
  return value;
}

export function uniformWeights(): number[] {
  return new Array<number>(PIECE_COUNT).fill(1);
}

export class DecayRandomizer extends BaseRandomizer {
  private readonly weights: Float64Array;

  constructor(
    rng: Rng,
    private readonly denominator: number,
    weights: ArrayLike<number> = uniformWeights(),
  ) {
    super('decay', rng, { denominator });
    this.weights = Float64Array.from(weights);
  }

  /** Scratch for nextPairDistribution (allocated on first use). */
  private firstScratch: Float64Array | undefined;
  private weightScratch: Float64Array | undefined;

  nextId(): number {
    const w = this.weights;
    let total = 0;
    for (let p = 0; p < PIECE_COUNT; p++) total += w[p];
    const target = this.rng.nextFloat() * total;
    let id = -1;
    let running = 0;
    for (let p = 0; p < PIECE_COUNT; p++) {
      running += w[p];
      if (running > target) {
        id = p;
        break;
      }
    }
    // Only reachable through rounding at the very top of the range: deal the last piece that has weight.
    if (id < 0) for (let p = PIECE_COUNT - 1; id < 0; p--) if (w[p] > 0) id = p;
    shiftWeightAwayFrom(this.weights, this.denominator, id, this.weights);
    return id;
  }

  protected probabilities(out: Float64Array): void {
    writeChances(this.weights, out, 0, 1);
  }

  /** The state after a deal is a function of the piece: its weight is shared out. */
  successors(id: number, rng: Rng): Successor[] {
    const after = new DecayRandomizer(rng, this.denominator, this.weights);
    shiftWeightAwayFrom(after.weights, this.denominator, id, after.weights);
    return [{ weight: 1, randomizer: after }];
  }

  /** Fast path, no allocation: the weights after each piece, normalised, scaled by that piece's chance. */
  nextPairDistribution(into?: Float64Array): Float64Array {
    const out = pairArray(into);
    const first = (this.firstScratch ??= new Float64Array(PIECE_COUNT));
    const after = (this.weightScratch ??= new Float64Array(PIECE_COUNT));
    writeChances(this.weights, first, 0, 1);
    for (let p1 = 0; p1 < PIECE_COUNT; p1++) {
      if (first[p1] > 0) {
        shiftWeightAwayFrom(this.weights, this.denominator, p1, after);
        writeChances(after, out, p1 * PIECE_COUNT, first[p1]);
      } else {
        out.fill(0, p1 * PIECE_COUNT, (p1 + 1) * PIECE_COUNT);
      }
    }
    return out;
  }

  protected fields() {
    return { weights: [...this.weights] };
  }

  withRng(rng: Rng): DecayRandomizer {
    return new DecayRandomizer(rng, this.denominator, this.weights);
  }
}

/**
 * Writes into `out` the weights after dealing `dealt` from weights `w` (`out` may be `w`): the dealt piece gives
 * up (denominator - 1) / denominator of its weight, shared equally by the other six, clamped at zero.
 */
function shiftWeightAwayFrom(w: Float64Array, denominator: number, dealt: number, out: Float64Array): void {
  const given = ((denominator - 1) * w[dealt]) / denominator;
  const share = given / (PIECE_COUNT - 1);
  for (let p = 0; p < PIECE_COUNT; p++) {
    out[p] = p === dealt ? w[p] - given : w[p] + share;
    if (out[p] < 0) out[p] = 0;
  }
}

/** out[at + p] = scale · w[p] / (sum of w). */
function writeChances(w: Float64Array, out: Float64Array, at: number, scale: number): void {
  let total = 0;
  for (let p = 0; p < PIECE_COUNT; p++) total += w[p];
  for (let p = 0; p < PIECE_COUNT; p++) out[at + p] = scale * (w[p] / total);
}

export const decay = defineRandomizer({
  name: 'decay',
  description: 'the decay-randomizer post: a dealt piece gives up part of its weight to the others',
  defaults: {
    /** decay only: weight divisor, a finite number >= 1, default 1.1. */
    denominator: DEFAULT_DENOMINATOR as number,
  },
  create: (rng, params, warn) => new DecayRandomizer(rng, checkDenominator(params.denominator, warn)),
  restore: (rng, state, warn) => {
    const weights = numberList(state, 'weights', PIECE_COUNT);
    const total = weights.reduce((a, b) => a + b, 0);
    // Dealing keeps the total at 7 (up to rounding); anything far from it was not made by this generator.
    if (!(Math.abs(total - PIECE_COUNT) < 1e-6))
      invalidState(state, `weights must sum to ${PIECE_COUNT}; got ${total}`);
    return new DecayRandomizer(rng, checkDenominator(state.params?.denominator, warn), weights);
  },
  longIDroughts: true,
  follow: (fresh, atStart) =>
    atStart
      ? { prior: fresh, exact: true }
      : // Even weights, moved by each piece seen: the weights before the first piece seen are unknown.
        { prior: new DecayRandomizer(priorRng(), fresh.params.denominator), exact: false },
});
