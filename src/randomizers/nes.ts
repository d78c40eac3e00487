/**
 * nes: the NES game's generator. Roll one of 8 outcomes; the eighth outcome (7, "no piece") or a repeat of the
 * previous piece triggers exactly one reroll among the 7 pieces, whose result is dealt even if it repeats.
 * The first piece has no previous piece, so only outcome 7 rerolls it (which makes it uniform).
 */
import { PIECE_COUNT } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer } from './base.js';

const ROLL_OUTCOMES = 8;
export const NO_PIECE = -1;

export class NesRandomizer extends BaseRandomizer {
  constructor(
    rng: Rng,
    private previous: number = NO_PIECE,
  ) {
    super('nes', rng);
  }

  nextId(): number {
    let id = this.rng.nextInt(ROLL_OUTCOMES);
    if (id === PIECE_COUNT || id === this.previous) id = this.rng.nextInt(PIECE_COUNT);
    this.previous = id;
    return id;
  }

  protected probabilities(out: Float64Array): void {
    // A first roll lands on a given piece with 1/8 unless that piece is the previous one; the reroll happens
    // with probability (1 + [there is a previous piece]) / 8 and is uniform.
    const rerollChance = (this.previous === NO_PIECE ? 1 : 2) / ROLL_OUTCOMES;
    for (let p = 0; p < PIECE_COUNT; p++) {
      out[p] = (p === this.previous ? 0 : 1 / ROLL_OUTCOMES) + rerollChance / PIECE_COUNT;
    }
  }

  protected fields() {
    return { previous: this.previous };
  }

  clone(): NesRandomizer {
    return new NesRandomizer(this.rng.clone(), this.previous);
  }
}
