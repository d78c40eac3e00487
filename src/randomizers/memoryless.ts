/**
 * memoryless: every piece is an independent uniform draw, `PIECES[rng.nextInt(7)]`. The WebAssembly simulators
 * reproduce this stream bit for bit, so it must stay exactly one nextInt(7) per piece.
 */
import { PIECE_COUNT } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer, pairArray, type Successor } from './base.js';
import { defineRandomizer } from './definition.js';

export class MemorylessRandomizer extends BaseRandomizer {
  constructor(rng: Rng) {
    super('memoryless', rng);
  }

  nextId(): number {
    return this.rng.nextInt(PIECE_COUNT);
  }

  protected probabilities(out: Float64Array): void {
    out.fill(1 / PIECE_COUNT);
  }

  protected fields() {
    return {};
  }

  /** Nothing to remember: the state after any piece is this one. */
  successors(_id: number, rng: Rng): Successor[] {
    return [{ weight: 1, randomizer: new MemorylessRandomizer(rng) }];
  }

  nextPairDistribution(into?: Float64Array): Float64Array {
    return pairArray(into).fill(1 / (PIECE_COUNT * PIECE_COUNT));
  }

  withRng(rng: Rng): MemorylessRandomizer {
    return new MemorylessRandomizer(rng);
  }
}

export const memoryless = defineRandomizer({
  name: 'memoryless',
  description: 'every piece an independent uniform draw',
  defaults: {},
  create: (rng) => new MemorylessRandomizer(rng),
  restore: (rng) => new MemorylessRandomizer(rng),
  longIDroughts: true,
  publishedPredictability: 0.1429,
  // Nothing to learn: a game under way is in the one state there is.
  follow: (fresh) => ({ prior: fresh, exact: true }),
});
