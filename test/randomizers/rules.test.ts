import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pieceId } from '../../src/pieces.js';
import { createRandomizer } from '../../src/randomizers/index.js';

const ids = (letters: string) => [...letters].map(pieceId);

describe('first-piece rules', () => {
  it('tgm1, tgm2 and tgm3 never start with S, Z or O, and can start with each of I, T, L, J', () => {
    for (const name of ['tgm1', 'tgm2', 'tgm3'] as const) {
      const firsts = new Set<string>();
      for (let seed = 0; seed < 400; seed++) firsts.add(createRandomizer(name, { seed }).next());
      expect([...firsts].sort()).toEqual(['I', 'J', 'L', 'T']);
      expect(Array.from(createRandomizer(name).distribution())).toEqual([0.25, 0, 0.25, 0, 0, 0.25, 0.25]);
    }
  });

  it('history after the first piece, newest first: tgm1 first Z Z Z, tgm2 first Z S S, tgm3 first Z S Z', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        for (const [name, tail] of [
          ['tgm1', 'ZZZ'],
          ['tgm2', 'ZSS'],
          ['tgm3', 'ZSZ'],
        ] as const) {
          const r = createRandomizer(name, { seed });
          const first = r.nextId();
          expect(r.state().history).toEqual([first, ...ids(tail)]);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('the TGM history keeps the last four pieces dealt', () => {
    const r = createRandomizer('tgm2', { seed: 9 });
    const dealt = r.take(30);
    expect(r.state().history).toEqual(ids([...dealt.slice(-4)].reverse().join('')));
  });

  it('tgm3 moves each dealt piece to the back of the drought order', () => {
    const r = createRandomizer('tgm3', { seed: 12 });
    expect(r.state().droughtOrder).toEqual(ids('JIZLOTS'));
    const dealt = r.take(40);
    const order = r.state().droughtOrder as number[];
    const lastSeen = (id: number) => dealt.lastIndexOf('IOTSZLJ'[id]);
    // Ordered from longest ago to most recent.
    for (let i = 1; i < order.length; i++) expect(lastSeen(order[i - 1])).toBeLessThan(lastSeen(order[i]));
  });

  it('NES sketch: the first piece is uniform (only outcome 7 rerolls it); later a repeat needs the reroll', () => {
    expect(Array.from(createRandomizer('nesSketch').distribution())).toEqual(new Array(7).fill(1 / 7));
    const firsts = new Array<number>(7).fill(0);
    for (let seed = 0; seed < 7000; seed++) firsts[createRandomizer('nesSketch', { seed }).nextId()]++;
    for (const n of firsts) expect(Math.abs(n - 1000)).toBeLessThan(4 * Math.sqrt(1000));
    const nes = createRandomizer('nesSketch', { seed: 3 });
    const queue = nes.take(56_000);
    let repeats = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i] === queue[i - 1]) repeats++;
    // 1/28 exactly in theory (2 of 8 first outcomes reroll, then 1/7); memoryless would give 1/7.
    expect(repeats / (queue.length - 1)).toBeCloseTo(1 / 28, 2);
  });
});

describe('bags', () => {
  it('bag7 deals every aligned block of 7 as a permutation of the seven pieces', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        const queue = createRandomizer('bag7', { seed }).take(7 * 60);
        for (let i = 0; i < queue.length; i += 7) expect([...queue.slice(i, i + 7)].sort().join('')).toBe('IJLOSTZ');
      }),
      { numRuns: 100 },
    );
  });

  it('bag14 deals every aligned block of 14 as two of each piece', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        const queue = createRandomizer('bag14', { seed }).take(14 * 30);
        for (let i = 0; i < queue.length; i += 14)
          expect([...queue.slice(i, i + 14)].sort().join('')).toBe('IIJJLLOOSSTTZZ');
      }),
      { numRuns: 100 },
    );
  });

  it('twoBag and redBlue never hold more than two of a piece, and each bag holds a piece at most once', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('twoBag' as const, 'redBlue' as const),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.nat(300),
        (name, seed, dealt) => {
          const r = createRandomizer(name, { seed });
          r.take(dealt);
          const bags = r.state().bags as number[][];
          expect(bags).toHaveLength(2);
          for (const bag of bags) {
            expect(bag.length).toBeGreaterThan(0);
            expect(new Set(bag).size).toBe(bag.length);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('twoBag and redBlue: over any stretch, a piece is dealt at most 2 more times than 2 per 14 pieces', () => {
    // Two copies of every piece per 14 deals on average, and at most one copy per bag can be "ahead".
    for (const name of ['twoBag', 'redBlue'] as const) {
      const queue = createRandomizer(name, { seed: 31 }).take(14_000);
      const counts = new Array<number>(7).fill(0);
      let worst = 0;
      for (let i = 0; i < queue.length; i++) {
        counts[pieceId(queue[i])]++;
        const expected = (2 * (i + 1)) / 14;
        for (const c of counts) worst = Math.max(worst, Math.abs(c - expected));
      }
      expect(worst).toBeLessThanOrEqual(2);
      expect(worst).toBeGreaterThan(1);
    }
  });
});
