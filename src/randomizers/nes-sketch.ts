/**
 * nesSketch: the common simplified sketch of the NES generator (what `nes` was before it followed the game's
 * code; docs/randomizers.md compares the two). Roll one of 8 outcomes; the eighth outcome (7, "no piece") or a repeat of the
 * previous piece triggers exactly one reroll among the 7 pieces, whose result is dealt even if it repeats.
 * The first piece has no previous piece, so only outcome 7 rerolls it (which makes it uniform).
 */
import { PIECE_COUNT } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer, evenMixture, pairArray, priorRng, type Successor } from './base.js';
import { defineRandomizer } from './definition.js';
import { pieceIdField } from './snapshot.js';

const ROLL_OUTCOMES = 8;
export const NO_PIECE = -1;

export class NesSketchRandomizer extends BaseRandomizer {
  constructor(
    rng: Rng,
    private previous: number = NO_PIECE,
  ) {
    super('nesSketch', rng);
  }

  nextId(): number {
    let id = this.rng.nextInt(ROLL_OUTCOMES);
    if (id === PIECE_COUNT || id === this.previous) id = this.rng.nextInt(PIECE_COUNT);
    this.previous = id;
    return id;
  }

  protected probabilities(out: Float64Array): void {
    nesChances(this.previous, out, 0, 1);
  }

  /** The state after a deal is just "previous = the piece dealt". */
  successors(id: number, rng: Rng): Successor[] {
    return [{ weight: 1, randomizer: new NesSketchRandomizer(rng, id) }];
  }

  nextPairDistribution(into?: Float64Array): Float64Array {
    const out = pairArray(into);
    for (let p1 = 0; p1 < PIECE_COUNT; p1++) {
      nesChances(p1, out, p1 * PIECE_COUNT, nesChance(this.previous, p1));
    }
    return out;
  }

  protected fields() {
    return { previous: this.previous };
  }

  withRng(rng: Rng): NesSketchRandomizer {
    return new NesSketchRandomizer(rng, this.previous);
  }
}

/**
 * A first roll lands on a given piece with 1/8 unless that piece is the previous one; the reroll happens with
 * probability (1 + [there is a previous piece]) / 8 and is uniform.
 */
export function nesChance(previous: number, p: number): number {
  const rerollChance = (previous === NO_PIECE ? 1 : 2) / ROLL_OUTCOMES;
  return (p === previous ? 0 : 1 / ROLL_OUTCOMES) + rerollChance / PIECE_COUNT;
}

/** out[at + p] = scale · P(p next | previous), for every piece p. */
function nesChances(previous: number, out: Float64Array, at: number, scale: number): void {
  for (let p = 0; p < PIECE_COUNT; p++) out[at + p] = scale * nesChance(previous, p);
}

export const nesSketch = defineRandomizer({
  name: 'nesSketch',
  description: 'the common simplified sketch of the NES generator (one reroll on a repeat)',
  defaults: {},
  create: (rng) => new NesSketchRandomizer(rng),
  restore: (rng, state) => new NesSketchRandomizer(rng, pieceIdField(state, 'previous', true)),
  longIDroughts: true,
  follow: (fresh, atStart) => ({
    // Its chain is symmetric, so every previous piece is equally likely at an unknown point of a game.
    prior: atStart
      ? fresh
      : evenMixture(Array.from({ length: PIECE_COUNT }, (_, p) => new NesSketchRandomizer(priorRng(), p))),
    exact: true,
  }),
});
