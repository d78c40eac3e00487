/**
 * The TBP engine's bag (src/tbp/ai-engine.ts, BagChances) against a reference that follows the bag itself: a
 * distribution over the bag's possible contents, drawn from piece by piece (a piece leaves the bag with chance
 * 1 / its size; an empty bag is refilled), starting from the start message's bag or, when none is given, from a bag
 * whose earlier draws are unknown (each of the 7 phases as likely, the pieces already drawn any of the subsets).
 */
import { describe, expect, it } from 'vitest';
import { PIECES } from '../../src/pieces.js';
import { createRandomizer } from '../../src/randomizers/index.js';
import { Rng } from '../../src/random.js';
import { BagChances } from '../../src/tbp/ai-engine.js';

const FULL = [1, 1, 1, 1, 1, 1, 1];

/** Bag contents (counts per piece) -> probability. */
type Dist = Map<string, { bag: number[]; p: number }>;

function refStart(bag: number[] | null): Dist {
  const d: Dist = new Map();
  if (bag) d.set(bag.join(), { bag, p: 1 });
  else
    for (let mask = 1; mask < 128; mask++) {
      const bits = [...PIECES.keys()].map((i) => (mask >> i) & 1);
      const k = bits.reduce((a, b) => a + b, 0);
      const subsets = [1, 7, 21, 35, 35, 21, 7, 1][k];
      d.set(bits.join(), { bag: bits, p: 1 / 7 / subsets });
    }
  return d;
}

function refObserve(d: Dist, piece: number, filled: number[]): Dist {
  const out: Dist = new Map();
  let total = 0;
  for (const { bag, p } of d.values()) {
    if (bag[piece] === 0) continue;
    const size = bag.reduce((a, b) => a + b, 0);
    let next = bag.map((c, i) => (i === piece ? c - 1 : c));
    if (next.every((c) => c === 0)) next = [...filled];
    const key = next.join();
    const q = p / size;
    total += q;
    out.set(key, { bag: next, p: (out.get(key)?.p ?? 0) + q });
  }
  for (const v of out.values()) v.p /= total;
  return out;
}

function refChances(d: Dist): number[] {
  const out = new Array<number>(7).fill(0);
  for (const { bag, p } of d.values()) {
    const size = bag.reduce((a, b) => a + b, 0);
    bag.forEach((c, i) => {
      out[i] += (p * c) / size;
    });
  }
  return out;
}

/** Each chance to 12 decimals. */
const near = (chances: number[]) => chances.map((c) => expect.closeTo(c, 12));

const ids = (letters: string) => [...letters].map((l) => PIECES.indexOf(l as never));

describe('BagChances', () => {
  it('with no bag state, a seven-piece bag inferred from the pieces seen: equal to the reference at every step', () => {
    const rng = new Rng(7);
    for (let trial = 0; trial < 40; trial++) {
      const source = createRandomizer('bag7', { seed: trial });
      source.take(rng.nextInt(7)); // start anywhere in a bag
      const pieces = ids(source.take(4 + rng.nextInt(20)));
      const start = 1 + rng.nextInt(6);
      const bag = BagChances.start(
        { name: trial % 2 ? 'seven_bag' : 'unknown' },
        pieces.slice(0, start).map((i) => PIECES[i]),
      );
      let ref = refStart(null);
      for (const p of pieces.slice(0, start)) ref = refObserve(ref, p, FULL);
      for (const p of pieces.slice(start)) {
        const ours = Array.from(bag.chances());
        expect(ours).toEqual(near(refChances(ref)));
        bag.observe(p);
        ref = refObserve(ref, p, FULL);
      }
      expect(bag.knowledge).toBe('inferred');
    }
  });

  it('seven distinct pieces pin the bag down: the next is uniform only if they were a whole bag', () => {
    const bag = BagChances.start({ name: 'seven_bag' }, [...'TSZOILJ'] as never);
    const c = Array.from(bag.chances());
    // A whole bag (phase 0) is far likelier than a bag boundary inside the seven, but the others are not ruled out.
    expect(Math.max(...c)).toBeGreaterThan(1 / 7);
    const ref = [...'TSZOILJ'].reduce((d, l) => refObserve(d, PIECES.indexOf(l as never), FULL), refStart(null));
    expect(c).toEqual(near(refChances(ref)));
  });

  it("a start's seven_bag state is followed exactly, refilled when it empties", () => {
    const bag = BagChances.start(
      { name: 'seven_bag', bag: { current: [0, 0, 1, 0, 0, 1, 0], filled: FULL } },
      [] as never,
    );
    expect(Array.from(bag.chances())).toEqual([0, 0, 0.5, 0, 0, 0.5, 0]);
    bag.observe(PIECES.indexOf('T'));
    expect(Array.from(bag.chances())).toEqual([0, 0, 0, 0, 0, 1, 0]);
    bag.observe(PIECES.indexOf('L'));
    expect(Array.from(bag.chances())).toEqual(FULL.map(() => 1 / 7));
    expect(bag.knowledge).toBe('exact');
  });

  it('a general bag follows its counts and refills to its filled state', () => {
    const filled = [2, 1, 0, 0, 0, 0, 1];
    let ref = refStart([1, 1, 0, 0, 0, 0, 0]);
    const bag = BagChances.start({ name: 'general_bag', bag: { current: [1, 1, 0, 0, 0, 0, 0], filled } }, []);
    for (const p of ids('IOIJOI')) {
      expect(Array.from(bag.chances())).toEqual(near(refChances(ref)));
      bag.observe(p);
      ref = refObserve(ref, p, filled);
    }
  });

  it('pieces no bag deals make the chances uniform, and uniform stays uniform', () => {
    const inferred = BagChances.start({ name: 'unknown' }, [...'TT'] as never);
    expect(inferred.knowledge).toBe('inferred'); // two T are possible across a bag boundary
    inferred.observe(PIECES.indexOf('T'));
    expect(inferred.knowledge).toBe('uniform');
    expect(Array.from(inferred.chances())).toEqual(FULL.map(() => 1 / 7));
    const exact = BagChances.start({ name: 'seven_bag', bag: { current: [1, 0, 0, 0, 0, 0, 0], filled: FULL } }, []);
    exact.observe(PIECES.indexOf('T'));
    expect(exact.knowledge).toBe('uniform');
    const uniform = BagChances.start({ name: 'uniform' }, [...'IIII'] as never);
    expect(Array.from(uniform.chances())).toEqual(FULL.map(() => 1 / 7));
  });
});
