import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PIECE_COUNT } from '../../src/pieces.js';
import {
  RANDOMIZER_NAMES,
  createRandomizer,
  restoreRandomizer,
  type Randomizer,
  type RandomizerName,
} from '../../src/randomizers/index.js';
import { chiSquare, chiSquareCritical } from './stats.js';

/**
 * Deals `pieces` pieces and tallies, per (previous piece, next piece) cell, what was dealt against what
 * distribution() announced just before. Conditioning on the previous piece makes a distribution that is right
 * on average but wrong in its dependence on the state show up too.
 */
function pairTally(randomizer: Randomizer, pieces: number) {
  const observed = new Float64Array(PIECE_COUNT * PIECE_COUNT);
  const expected = new Float64Array(PIECE_COUNT * PIECE_COUNT);
  const next = new Float64Array(PIECE_COUNT);
  let previous = randomizer.nextId();
  for (let i = 0; i < pieces; i++) {
    randomizer.distribution(next);
    for (let p = 0; p < PIECE_COUNT; p++) expected[previous * PIECE_COUNT + p] += next[p];
    const id = randomizer.nextId();
    observed[previous * PIECE_COUNT + id]++;
    previous = id;
  }
  return { observed, expected };
}

describe('distribution()', () => {
  it('is a probability vector at every step, and never gives zero to a piece that is then dealt', () => {
    for (const name of RANDOMIZER_NAMES) {
      const r = createRandomizer(name, { seed: 11 });
      const next = new Float64Array(PIECE_COUNT);
      let worstSumError = 0;
      let smallest = Infinity;
      let smallestDealt = Infinity;
      for (let i = 0; i < 3000; i++) {
        r.distribution(next);
        let sum = 0;
        for (const p of next) {
          smallest = Math.min(smallest, p);
          sum += p;
        }
        worstSumError = Math.max(worstSumError, Math.abs(sum - 1));
        smallestDealt = Math.min(smallestDealt, next[r.nextId()]);
      }
      expect(worstSumError).toBeLessThan(1e-12);
      expect(smallest).toBeGreaterThanOrEqual(0);
      expect(smallestDealt).toBeGreaterThan(0);
    }
  });

  it('does not change the state, and returns a fresh array unless given one', () => {
    const r = createRandomizer('tgm3', { seed: 4 });
    r.take(10);
    const before = JSON.stringify(r.state());
    const a = r.distribution();
    const into = new Float64Array(PIECE_COUNT);
    expect(r.distribution(into)).toBe(into);
    expect(Array.from(into)).toEqual(Array.from(a));
    expect(JSON.stringify(r.state())).toBe(before);
  });

  it.each(RANDOMIZER_NAMES)(
    '%s: matches the pieces actually dealt (chi-square over previous x next, seed 2024)',
    (name) => {
      const { observed, expected } = pairTally(createRandomizer(name, { seed: 2024 }), 60_000);
      for (let cell = 0; cell < expected.length; cell++) if (expected[cell] === 0) expect(observed[cell]).toBe(0);
      const { statistic, cells } = chiSquare(observed, expected);
      expect(cells).toBeGreaterThan(10);
      expect(statistic).toBeLessThan(chiSquareCritical(cells));
    },
  );

  it('the chi-square check has teeth: a uniform guess for bag7 or tgm3 fails it', () => {
    for (const name of ['bag7', 'tgm3'] as RandomizerName[]) {
      const { observed, expected } = pairTally(createRandomizer(name, { seed: 2024 }), 60_000);
      const rowTotals = Array.from({ length: PIECE_COUNT }, (_, a) =>
        expected.slice(a * PIECE_COUNT, (a + 1) * PIECE_COUNT).reduce((s, v) => s + v, 0),
      );
      const uniform = expected.map((_, cell) => rowTotals[Math.floor(cell / PIECE_COUNT)] / PIECE_COUNT);
      const { statistic, cells } = chiSquare(observed, uniform);
      expect(statistic).toBeGreaterThan(10 * chiSquareCritical(cells));
    }
  });

  it('knows the closed forms: memoryless 1/7; the NES sketch 9/56 and a 2/56 repeat; bag7 1/(pieces left)', () => {
    const m = createRandomizer('memoryless', { seed: 1 });
    m.take(5);
    expect(Array.from(m.distribution())).toEqual(new Array(7).fill(1 / 7));

    const nes = createRandomizer('nesSketch', { seed: 1 });
    for (let i = 0; i < 50; i++) {
      const last = nes.nextId();
      const d = nes.distribution();
      for (let p = 0; p < 7; p++) expect(d[p]).toBeCloseTo(p === last ? 2 / 56 : 9 / 56, 15);
    }

    const bag = createRandomizer('bag7', { seed: 1 });
    const dealt = new Set<number>();
    for (let i = 0; i < 7; i++) {
      const d = bag.distribution();
      for (let p = 0; p < 7; p++) expect(d[p]).toBeCloseTo(dealt.has(p) ? 0 : 1 / (7 - i), 15);
      dealt.add(bag.nextId());
    }
    expect(Array.from(bag.distribution())).toEqual(new Array(7).fill(1 / 7));
  });

  it('tgm1/tgm2: a fresh piece comes with (1/7)·Σ(h/7)^k over the rolls, a remembered one with (1/7)(h/7)^(rolls-1)', () => {
    for (const [name, rolls] of [
      ['tgm1', 4],
      ['tgm2', 6],
    ] as const) {
      const r = createRandomizer(name, { seed: 8 });
      for (let i = 0; i < 200; i++) {
        r.nextId();
        const history = r.state().history as number[];
        const h = new Set(history).size;
        let fresh = 0;
        for (let k = 0; k < rolls; k++) fresh += (h / 7) ** k / 7;
        const d = r.distribution();
        for (let p = 0; p < 7; p++)
          expect(d[p]).toBeCloseTo(history.includes(p) ? (h / 7) ** (rolls - 1) / 7 : fresh, 14);
      }
    }
  });

  it('twoBag picks each bag with 1/2; redBlue picks a colour in proportion to what is left of it', () => {
    const two = restoreRandomizer({ ...createRandomizer('twoBag').state(), bags: [[0], [1, 2, 3, 4, 5, 6, 0]] });
    expect(Array.from(two.distribution())).toEqual([0.5 + 0.5 / 7, ...new Array(6).fill(0.5 / 7)]);
    const redBlue = restoreRandomizer({ ...createRandomizer('redBlue').state(), bags: [[0], [1, 2, 3, 4, 5, 6, 0]] });
    expect(Array.from(redBlue.distribution())).toEqual([2 / 8, ...new Array(6).fill(1 / 8)]);
  });

  it('tgm3 is exact: equals an enumeration of every roll sequence from the pool counts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 1, max: 400 }), (seed, dealt) => {
        const r = createRandomizer('tgm3', { seed });
        r.take(dealt);
        const state = r.state();
        const exact = enumerateTgm3(
          state.pool as number[],
          state.history as number[],
          (state.droughtOrder as number[])[0],
        );
        const d = r.distribution();
        for (let p = 0; p < 7; p++) expect(d[p]).toBeCloseTo(exact[p], 13);
      }),
      { numRuns: 60 },
    );
  });

  it('decay with denominator 1 is memoryless in distribution', () => {
    const decay = createRandomizer('decay', { seed: 6, denominator: 1 });
    const counts = new Float64Array(49);
    let previous = decay.nextId();
    for (let i = 0; i < 49_000; i++) {
      expect(Array.from(decay.distribution())).toEqual(new Array(7).fill(1 / 7));
      const id = decay.nextId();
      counts[previous * 7 + id]++;
      previous = id;
    }
    const { statistic, cells } = chiSquare(counts, new Float64Array(49).fill(1000));
    expect(cells).toBe(49);
    expect(statistic).toBeLessThan(chiSquareCritical(48));
  });
});

/**
 * Brute force over roll outcomes (grouped by piece): at each roll a piece comes with (its slots)/35; a
 * remembered piece before the last roll turns one of its slots into `front` and the rolls go on.
 */
function enumerateTgm3(pool: number[], history: number[], front: number): number[] {
  const result = new Array<number>(7).fill(0);
  const counts = new Array<number>(7).fill(0);
  for (const id of pool) counts[id]++;
  const visit = (slots: number[], roll: number, chance: number) => {
    for (let p = 0; p < 7; p++) {
      if (slots[p] === 0) continue;
      const hit = (chance * slots[p]) / 35;
      if (roll === 5 || !history.includes(p)) result[p] += hit;
      else {
        const after = [...slots];
        after[p]--;
        after[front]++;
        visit(after, roll + 1, hit);
      }
    }
  };
  visit(counts, 0, 1);
  return result;
}
