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
import { describe, firstHole } from '../errors.js';
import { PIECE_COUNT } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer, pairArray, type Successor } from './base.js';
import { defineRandomizer } from './definition.js';
import { checkPieceIds, invalidState } from './snapshot.js';

export interface BagSpec {
  readonly name: 'bag7' | 'bag14' | 'twoBag' | 'redBlue';
  readonly bagCount: number;
  /** Copies of each piece in a full bag. */
  readonly copies: number;
  readonly pick: 'bySize' | 'uniform';
}

export const BAG_SPECS: { readonly [N in BagSpec['name']]: BagSpec & { readonly name: N } } = {
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

  /** Scratch for nextPairDistribution (allocated on first use). */
  private countScratch: Int32Array | undefined;
  private sizeScratch: Int32Array | undefined;

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
    const total = this.totalSize();
    for (const b of this.bags) {
      // Chance that this bag is the one dealt from, spread evenly over the pieces it holds.
      const perPiece = this.bagChance(b.length, total) / b.length;
      for (const id of b) out[id] += perPiece;
    }
  }

  /**
   * One state per bag that holds `id`, weighted by the chance that the piece came from that bag: the bag loses
   * one copy of it (refilled if that empties it). For bag7 and bag14 that is a single state; for twoBag and
   * redBlue, when both bags hold the piece, which one it came from is up to the rolls, so there are two.
   */
  successors(id: number, rng: Rng): Successor[] {
    const bags = this.bags;
    const total = this.totalSize();
    const result: Successor[] = [];
    let sum = 0;
    for (let b = 0; b < bags.length; b++) {
      const index = bags[b].indexOf(id);
      if (index < 0) continue;
      let copies = 0;
      for (const p of bags[b]) if (p === id) copies++;
      const weight = this.bagChance(bags[b].length, total) * (copies / bags[b].length);
      const after = bags.map((bag) => [...bag]);
      const bag = after[b];
      bag[index] = bag[bag.length - 1];
      bag.pop();
      if (bag.length === 0) refill(bag, this.spec);
      result.push({ weight, randomizer: new BagRandomizer(this.spec, rng, after) });
      sum += weight;
    }
    return result.map((s) => ({ weight: s.weight / sum, randomizer: s.randomizer }));
  }

  /**
   * Fast path, no allocation: from the piece counts of each bag. P(p1, p2) sums, over the bags b that can deal
   * p1, the chance of dealing p1 from b times the distribution once b has lost a copy of p1 (or been refilled).
   */
  nextPairDistribution(into?: Float64Array): Float64Array {
    const out = pairArray(into).fill(0);
    const bagCount = this.bags.length;
    const counts = (this.countScratch ??= new Int32Array(bagCount * PIECE_COUNT));
    const sizes = (this.sizeScratch ??= new Int32Array(bagCount));
    counts.fill(0);
    for (let b = 0; b < bagCount; b++) {
      sizes[b] = this.bags[b].length;
      for (const id of this.bags[b]) counts[b * PIECE_COUNT + id]++;
    }
    const fullSize = PIECE_COUNT * this.spec.copies;
    let total = 0;
    for (let b = 0; b < bagCount; b++) total += sizes[b];
    for (let b = 0; b < bagCount; b++) {
      const size = sizes[b];
      const perPiece = this.bagChance(size, total) / size;
      for (let p1 = 0; p1 < PIECE_COUNT; p1++) {
        const copies = counts[b * PIECE_COUNT + p1];
        if (copies === 0) continue;
        const chance = perPiece * copies;
        // Deal p1 from bag b, add chance · (distribution after) to row p1, then put it back.
        if (size === 1) {
          for (let p = 0; p < PIECE_COUNT; p++) counts[b * PIECE_COUNT + p] = this.spec.copies;
          sizes[b] = fullSize;
        } else {
          counts[b * PIECE_COUNT + p1]--;
          sizes[b]--;
        }
        this.addChances(counts, sizes, total - size + sizes[b], out, p1 * PIECE_COUNT, chance);
        if (size === 1) {
          for (let p = 0; p < PIECE_COUNT; p++) counts[b * PIECE_COUNT + p] = 0;
          counts[b * PIECE_COUNT + p1] = 1;
        } else {
          counts[b * PIECE_COUNT + p1]++;
        }
        sizes[b] = size;
      }
    }
    return out;
  }

  /** Adds scale · P(p next) to out[at + p], for bags with these piece counts and sizes (total pieces `total`). */
  private addChances(
    counts: Int32Array,
    sizes: Int32Array,
    total: number,
    out: Float64Array,
    at: number,
    scale: number,
  ): void {
    for (let b = 0; b < sizes.length; b++) {
      const perPiece = (scale * this.bagChance(sizes[b], total)) / sizes[b];
      for (let p = 0; p < PIECE_COUNT; p++) out[at + p] += perPiece * counts[b * PIECE_COUNT + p];
    }
  }

  /** The chance that a deal comes from a bag of `size` pieces, with `total` pieces in all bags. */
  private bagChance(size: number, total: number): number {
    return this.spec.pick === 'uniform' ? 1 / this.bags.length : size / total;
  }

  private totalSize(): number {
    let total = 0;
    for (const b of this.bags) total += b.length;
    return total;
  }

  protected fields() {
    return { bags: this.bags.map((b) => [...b]) };
  }

  /** The contents of each bag, not their order: the order within a bag does not change any chance. */
  stateKey(): string {
    return JSON.stringify(this.bags.map((b) => [...b].sort()));
  }

  withRng(rng: Rng): BagRandomizer {
    return new BagRandomizer(
      this.spec,
      rng,
      this.bags.map((b) => [...b]),
    );
  }
}

function bagRandomizer<const N extends BagSpec['name']>(
  spec: BagSpec & { name: N },
  more: { description: string; publishedPredictability?: number },
) {
  return defineRandomizer({
    name: spec.name,
    ...more,
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
    longIDroughts: false,
  });
}

export const bag7 = bagRandomizer(BAG_SPECS.bag7, {
  description: 'the 7-bag: each piece once per bag of seven',
  publishedPredictability: 0.3704,
});
export const bag14 = bagRandomizer(BAG_SPECS.bag14, {
  description: 'the 14-bag: each piece twice per bag of fourteen',
});
export const twoBag = bagRandomizer(BAG_SPECS.twoBag, {
  description: 'two 7-bags, each deal from either one at even odds',
});
export const redBlue = bagRandomizer(BAG_SPECS.redBlue, {
  description: 'the red and blue halves of a coloured 14-bag, each deal from either by their sizes',
});
