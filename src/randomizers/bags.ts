/**
 * One bag mechanism for bag7, bag14, twoBag and redBlue. A generator owns one or more bags of pieces; a deal
 * picks a bag, takes a uniformly chosen piece out of it, and refills that bag with its original contents the
 * moment it is empty (so no bag is ever empty at a deal). Taking a uniform piece from what is left is the same
 * as dealing from a shuffled bag, and costs one nextInt per piece.
 *
 * How the bag is picked is what tells the families apart:
 * - 'bySize': one nextInt(total pieces left in all bags) picks a piece of the union (bag7, bag14 with one bag;
 *   redBlue, whose two bags are the red and blue halves of a coloured 14-bag).
 * - 'uniform': nextInt(number of bags) picks a bag, then nextInt(its size) a piece in it (twoBag).
 */
import { PIECE_COUNT } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer } from './base.js';

export interface BagSpec {
  readonly name: 'bag7' | 'bag14' | 'twoBag' | 'redBlue';
  readonly bagCount: number;
  /** Copies of each piece in a full bag. */
  readonly copies: number;
  readonly pick: 'bySize' | 'uniform';
}

export const BAG_SPECS: Record<BagSpec['name'], BagSpec> = {
  bag7: { name: 'bag7', bagCount: 1, copies: 1, pick: 'bySize' },
  bag14: { name: 'bag14', bagCount: 1, copies: 2, pick: 'bySize' },
  twoBag: { name: 'twoBag', bagCount: 2, copies: 1, pick: 'uniform' },
  redBlue: { name: 'redBlue', bagCount: 2, copies: 1, pick: 'bySize' },
};

/** A full bag in canonical order: I O T S Z L J, repeated `copies` times. */
export function fullBag(spec: BagSpec): number[] {
  return refill([], spec);
}

function refill(emptyBag: number[], spec: BagSpec): number[] {
  for (let i = 0; i < PIECE_COUNT * spec.copies; i++) emptyBag.push(i % PIECE_COUNT);
  return emptyBag;
}

export class BagRandomizer extends BaseRandomizer {
  private readonly bags: number[][];

  constructor(
    private readonly spec: BagSpec,
    rng: Rng,
    bags?: number[][],
  ) {
    super(spec.name, rng);
    this.bags = bags ?? Array.from({ length: spec.bagCount }, () => fullBag(spec));
  }

  nextId(): number {
    const bags = this.bags;
    let bag: number[];
    let index: number;
    if (this.spec.pick === 'uniform') {
      bag = bags[this.rng.nextInt(bags.length)];
      index = this.rng.nextInt(bag.length);
    } else {
      let total = 0;
      for (let b = 0; b < bags.length; b++) total += bags[b].length;
      index = this.rng.nextInt(total);
      let b = 0;
      while (index >= bags[b].length) index -= bags[b++].length;
      bag = bags[b];
    }
    const id = bag[index];
    // Swap-remove keeps the bag dense; the order of what is left is part of the state, so it is deterministic.
    bag[index] = bag[bag.length - 1];
    bag.pop();
    if (bag.length === 0) refill(bag, this.spec);
    return id;
  }

  protected probabilities(out: Float64Array): void {
    out.fill(0);
    const bags = this.bags;
    let total = 0;
    for (const b of bags) total += b.length;
    for (const b of bags) {
      // Chance that this bag is the one dealt from, spread evenly over the pieces it holds.
      const bagChance = this.spec.pick === 'uniform' ? 1 / bags.length : b.length / total;
      for (const id of b) out[id] += bagChance / b.length;
    }
  }

  protected fields() {
    return { bags: this.bags.map((b) => [...b]) };
  }

  clone(): BagRandomizer {
    return new BagRandomizer(this.spec, this.rng.clone(), this.bags.map((b) => [...b]));
  }
}
