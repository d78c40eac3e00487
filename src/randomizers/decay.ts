/**
 * decay (seed 000): every piece has a weight, all 1 at the start. A piece is dealt with probability
 * weight / total, using one nextFloat(): the first piece (canonical order) whose running weight sum exceeds
 * nextFloat() * total. Then the dealt piece gives up (denominator - 1) / denominator of its weight, shared equally
 * by the other six; the total stays 7. So a denominator of 1 is memoryless, larger ones push a just-dealt piece
 * down, and below 1 the dealt piece gains weight until it crowds out the rest.
 *
 * Below 1 a weight can be driven under zero (seed 000's sampler then misbehaves); here it is clamped to zero, so
 * the starved pieces simply stop appearing.
 */
import { StackRankError } from '../errors.js';
import { PIECE_COUNT } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer } from './base.js';

export const DEFAULT_DENOMINATOR = 1.1;

/** Throws BAD_ARGUMENT for anything but a finite number > 0; reports (does not reject) one below 1. */
export function checkDenominator(value: unknown, warn: (message: string) => void): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new StackRankError('BAD_ARGUMENT', `decay: denominator must be a finite number > 0 (1.1 is a good choice); got ${String(value)}`);
  }
  if (value < 1) {
    warn(`decay: denominator ${value} < 1 makes a dealt piece more likely to come again; one piece soon takes over (seed 000)`);
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
    weights: readonly number[] = uniformWeights(),
  ) {
    super('decay', rng, { denominator });
    this.weights = Float64Array.from(weights);
  }

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
    this.shiftWeightAwayFrom(id);
    return id;
  }

  private shiftWeightAwayFrom(dealt: number): void {
    const w = this.weights;
    const given = ((this.denominator - 1) * w[dealt]) / this.denominator;
    const share = given / (PIECE_COUNT - 1);
    for (let p = 0; p < PIECE_COUNT; p++) {
      w[p] = p === dealt ? w[p] - given : w[p] + share;
      if (w[p] < 0) w[p] = 0;
    }
  }

  protected probabilities(out: Float64Array): void {
    let total = 0;
    for (let p = 0; p < PIECE_COUNT; p++) total += this.weights[p];
    for (let p = 0; p < PIECE_COUNT; p++) out[p] = this.weights[p] / total;
  }

  protected fields() {
    return { weights: [...this.weights] };
  }

  clone(): DecayRandomizer {
    return new DecayRandomizer(this.rng.clone(), this.denominator, [...this.weights]);
  }
}
