/**
 * memoryless: every piece is an independent uniform draw, `PIECES[rng.nextInt(7)]`. The WebAssembly simulators
 * reproduce this stream bit for bit, so it must stay exactly one nextInt(7) per piece.
 */
import { PIECE_COUNT } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer } from './base.js';

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

  clone(): MemorylessRandomizer {
    return new MemorylessRandomizer(this.rng.clone());
  }
}
