/**
 * Following a randomizer from the pieces it deals (src/randomizers/infer.ts; docs/randomizers.md, "Following a
 * game"). From a game's start, where the pieces identify the state, the chances are the generator's own
 * distribution() after every piece, to the bit; where they cannot (NES's spawn count, which of twoBag's or redBlue's
 * bags a piece came from) they are the exact posterior, checked against references that share none of the
 * inference's code: one single-state chain per possible hidden state, weighted by its likelihood, or the library's
 * afterDealing mixtures. A game joined under way is checked against the same brute force from the prior written out
 * here. tgm3's average pool is an approximation: it is held to beat the tgm2 approximation and uniform chances.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PIECE_COUNT } from '../../src/pieces.js';
import { PieceInference } from '../../src/randomizers/infer.js';
import {
  createRandomizer,
  restoreRandomizer,
  type Randomizer,
  type RandomizerName,
  type RandomizerState,
} from '../../src/randomizers/index.js';

const N = PIECE_COUNT;
const FC = { seed: 53, numRuns: 8 };

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number, what: string): void {
  let worst = 0;
  for (let p = 0; p < N; p++) worst = Math.max(worst, Math.abs(actual[p] - expected[p]));
  expect(worst, `${what}: ${Array.from(actual)} vs ${Array.from(expected)}`).toBeLessThanOrEqual(tolerance);
}

/**
 * The posterior from candidate start states with prior weights: each a single-state chain conditioned with
 * afterDealing, weighted by the chance it gave every piece seen. Returns P(next) after each prefix of `pieces`.
 */
function bruteForce(starts: { weight: number; state: RandomizerState }[], pieces: readonly number[]): Float64Array[] {
  let chains = starts.map((s) => ({ weight: s.weight, r: restoreRandomizer(s.state) as Randomizer }));
  const out: Float64Array[] = [];
  for (const id of pieces) {
    const next: typeof chains = [];
    for (const c of chains) {
      const chance = c.r.distribution()[id];
      if (chance > 0) next.push({ weight: c.weight * chance, r: c.r.afterDealing(id) });
    }
    const total = next.reduce((s, c) => s + c.weight, 0);
    chains = next.map((c) => ({ weight: c.weight / total, r: c.r }));
    const mix = new Float64Array(N);
    for (const c of chains) {
      const d = c.r.distribution();
      for (let p = 0; p < N; p++) mix[p] += c.weight * d[p];
    }
    out.push(mix);
  }
  return out;
}

function base(name: RandomizerName): RandomizerState {
  return createRandomizer(name).state();
}

describe('from the start of a game', () => {
  const identified: RandomizerName[] = ['memoryless', 'nesSketch', 'tgm1', 'tgm2', 'bag7', 'bag14', 'decay'];
  it(`${identified.join(', ')}: the generator's own distribution() after every piece, to the bit`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...identified), fc.integer({ min: 0, max: 2 ** 31 }), (name, seed) => {
        const r = createRandomizer(name, { seed });
        const inference = PieceInference.start(name, {}, true);
        const chances = new Float64Array(N);
        expect(inference.chances(chances)).toEqual(r.distribution());
        for (let i = 0; i < 300; i++) {
          expect(inference.observe(r.nextId())).toBe(true);
          expect(inference.chances(chances)).toEqual(r.distribution());
        }
        expect(inference.knowledge).toBe('exact');
        expect(inference.pieces).toBe(300);
      }),
      FC,
    );
  });

  it("decay with another denominator, and tgm3's first piece: the generator's own chances", () => {
    const r = createRandomizer('decay', { seed: 4, denominator: 3 });
    const inference = PieceInference.start('decay', { denominator: 3 }, true);
    for (let i = 0; i < 200; i++) inference.observe(r.nextId());
    expect(inference.chances(new Float64Array(N))).toEqual(r.distribution());
    const t = createRandomizer('tgm3', { seed: 4 });
    const tgm3 = PieceInference.start('tgm3', {}, true);
    expect(tgm3.chances(new Float64Array(N))).toEqual(t.distribution());
    tgm3.observe(t.nextId());
    expect(tgm3.chances(new Float64Array(N))).toEqual(t.distribution());
  });

  it("nes: the exact posterior over the spawn count it started from (8 chains), and the generator's own once identified", () => {
    for (const seed of [1, 2, 3]) {
      const r = createRandomizer('nes', { seed });
      const pieces = Array.from({ length: 200 }, () => r.nextId());
      const starts = Array.from({ length: 8 }, (_, spawnCount) => ({
        weight: 1 / 8,
        state: { ...base('nes'), spawnCount, previous: -1, secondPiece: false },
      }));
      const reference = bruteForce(starts, pieces);
      const inference = PieceInference.start('nes', {}, true);
      const again = createRandomizer('nes', { seed });
      const chances = new Float64Array(N);
      let mixtures = 0;
      pieces.forEach((id, i) => {
        again.nextId();
        inference.observe(id);
        expectClose(inference.chances(chances), reference[i], 1e-12, `nes seed ${seed}, piece ${i}`);
        if (inference.knowledge === 'exact') expect(chances).toEqual(again.distribution());
        else mixtures++;
      });
      expect(mixtures).toBeGreaterThan(0);
    }
  });

  it('twoBag, redBlue: the exact mixture, as the chained afterDealing mixtures give it', () => {
    for (const name of ['twoBag', 'redBlue'] as const) {
      for (const seed of [1, 2]) {
        const r = createRandomizer(name, { seed });
        let chained = createRandomizer(name);
        const inference = PieceInference.start(name, {}, true);
        const chances = new Float64Array(N);
        for (let i = 0; i < 60; i++) {
          const id = r.nextId();
          chained = chained.afterDealing(id);
          inference.observe(id);
          expectClose(inference.chances(chances), chained.distribution(), 1e-12, `${name} seed ${seed}, piece ${i}`);
        }
        expect(inference.knowledge).toBe('mixture');
      }
    }
  });

  it('tgm3: an approximation that never gives up, closer to the game than tgm2 and uniform chances', () => {
    for (const seed of [1, 2]) {
      const r = createRandomizer('tgm3', { seed });
      const average = PieceInference.start('tgm3', {}, true);
      const tgm2 = PieceInference.start('tgm3', {}, false);
      const a = new Float64Array(N);
      const b = new Float64Array(N);
      let lossAverage = 0;
      let lossTgm2 = 0;
      for (let i = 0; i < 800; i++) {
        average.chances(a);
        tgm2.chances(b);
        expect(a.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
        const id = r.nextId();
        // Log-loss, a chance of 0 counted as 1e-6 (the rounded pool may have lost the piece's last slot).
        lossAverage -= Math.log(Math.max(a[id], 1e-6));
        lossTgm2 -= Math.log(b[id]);
        expect(average.observe(id)).toBe(true);
        tgm2.observe(id);
      }
      expect(average.knowledge).toBe('approximate');
      expect(average.contradictedAt).toBeNull();
      expect(lossAverage).toBeLessThan(lossTgm2);
      expect(lossTgm2 / 800).toBeLessThan(Math.log(7) - 0.5);
    }
  });
});

describe('a game joined under way', () => {
  /** Bag contents at an unknown point: each size alike, given the size each content as likely as the deals leaving it. */
  function bagStarts(name: 'bag7' | 'bag14'): { weight: number; state: RandomizerState }[] {
    const copies = name === 'bag7' ? 1 : 2;
    const starts: { weight: number; state: RandomizerState }[] = [];
    const total = N * copies;
    for (let code = 1; code < (copies + 1) ** N; code++) {
      const bag: number[] = [];
      let ways = 1;
      for (let p = 0, c = code; p < N; p++, c = Math.floor(c / (copies + 1))) {
        const left = c % (copies + 1);
        for (let k = 0; k < left; k++) bag.push(p);
        ways *= left === 1 && copies === 2 ? 2 : 1;
      }
      starts.push({ weight: ways, state: { ...base(name), bags: [bag] } });
    }
    // Normalise within each size, then sizes alike.
    const bySize = new Map<number, number>();
    for (const s of starts) {
      const size = (s.state.bags as number[][])[0].length;
      bySize.set(size, (bySize.get(size) ?? 0) + s.weight);
    }
    return starts.map((s) => ({
      weight: s.weight / bySize.get((s.state.bags as number[][])[0].length)! / total,
      state: s.state,
    }));
  }

  function historyStarts(name: 'tgm1' | 'tgm2'): { weight: number; state: RandomizerState }[] {
    const starts: { weight: number; state: RandomizerState }[] = [];
    for (let code = 0; code < N ** 4; code++) {
      const history = [0, 1, 2, 3].map((i) => Math.floor(code / N ** i) % N);
      starts.push({ weight: 1 / N ** 4, state: { ...base(name), started: true, history } });
    }
    return starts;
  }

  const cases: [RandomizerName, () => { weight: number; state: RandomizerState }[]][] = [
    ['bag7', () => bagStarts('bag7')],
    ['bag14', () => bagStarts('bag14')],
    ['tgm1', () => historyStarts('tgm1')],
    ['tgm2', () => historyStarts('tgm2')],
    [
      'nes',
      () =>
        Array.from({ length: 56 }, (_, k) => ({
          weight: 1 / 56,
          state: { ...base('nes'), spawnCount: k % 8, previous: Math.floor(k / 8), secondPiece: false },
        })),
    ],
    [
      'nesSketch',
      () => Array.from({ length: 7 }, (_, p) => ({ weight: 1 / 7, state: { ...base('nesSketch'), previous: p } })),
    ],
  ];
  for (const [name, starts] of cases) {
    it(`${name}: the exact posterior from the prior over every state (brute force)`, () => {
      const r = createRandomizer(name, { seed: 9 });
      r.take(1000 + 3);
      const pieces = Array.from({ length: name === 'bag14' ? 40 : 30 }, () => r.nextId());
      const reference = bruteForce(starts(), pieces);
      const inference = PieceInference.start(name, {}, false);
      const chances = new Float64Array(N);
      pieces.forEach((id, i) => {
        inference.observe(id);
        expectClose(inference.chances(chances), reference[i], 1e-12, `${name} piece ${i}`);
      });
      // A bag's position is found once the pieces show it (Cold Clear's bag speculation); a TGM history in 4 pieces.
      if (name !== 'nes') expect(inference.knowledge).toBe('exact');
      if (name === 'bag7' || name === 'tgm1' || name === 'tgm2')
        expect(inference.chances(chances)).toEqual(r.distribution());
    });
  }

  it("tgm3: tgm2's posterior over every history (its pool unknown), labelled approximate", () => {
    const r = createRandomizer('tgm3', { seed: 9 });
    r.take(1003);
    const pieces = Array.from({ length: 30 }, () => r.nextId());
    const reference = bruteForce(historyStarts('tgm2'), pieces);
    const inference = PieceInference.start('tgm3', {}, false);
    const chances = new Float64Array(N);
    pieces.forEach((id, i) => {
      inference.observe(id);
      expectClose(inference.chances(chances), reference[i], 1e-12, `tgm3 piece ${i}`);
    });
    expect(inference.knowledge).toBe('approximate');
  });

  it('decay: even weights moved by each piece seen (the update of docs/randomizers.md, written out here)', () => {
    for (const denominator of [1.1, 3]) {
      const r = createRandomizer('decay', { seed: 5, denominator });
      r.take(777);
      const inference = PieceInference.start('decay', { denominator }, false);
      const w = new Array(N).fill(1);
      const chances = new Float64Array(N);
      for (let i = 0; i < 60; i++) {
        const id = r.nextId();
        const given = ((denominator - 1) * w[id]) / denominator;
        w[id] -= given;
        for (let p = 0; p < N; p++) if (p !== id) w[p] += given / 6;
        inference.observe(id);
        const total = w.reduce((a, b) => a + b, 0);
        expectClose(
          inference.chances(chances),
          w.map((x) => x / total),
          1e-12,
          `decay ${denominator} piece ${i}`,
        );
      }
      expect(inference.knowledge).toBe('approximate');
    }
  });

  /**
   * twoBag and redBlue joined under way, written out from the rules (docs/randomizers.md) without the library's
   * randomizers: a weight for every pair of bag contents (bit masks 1..127), the prior given by the sizes' law and,
   * given the sizes, every content alike (one copy per piece, so each content is left by equally many deals).
   */
  function twoBagPosterior(
    name: 'twoBag' | 'redBlue',
    sizeLaw: (a: number, b: number) => number,
    pieces: readonly number[],
  ): Float64Array[] {
    const FULL = 127;
    const size = (m: number) => {
      let c = 0;
      for (let x = m; x; x &= x - 1) c++;
      return c;
    };
    const binom = [1, 7, 21, 35, 35, 21, 7, 1];
    let w = new Float64Array(128 * 128);
    for (let a = 1; a <= FULL; a++)
      for (let b = 1; b <= FULL; b++) w[a * 128 + b] = sizeLaw(size(a), size(b)) / binom[size(a)] / binom[size(b)];
    /** Chance that bag A (else B) deals, and then a given piece of it. */
    const pickA = (sa: number, sb: number) => (name === 'twoBag' ? 0.5 : sa / (sa + sb));
    /** Each pair of bag contents with weight, with the chance of one piece dealt from A and one from B. */
    const eachPair = (visit: (a: number, b: number, weight: number, fromA: number, fromB: number) => void) => {
      for (let a = 1; a <= FULL; a++)
        for (let b = 1; b <= FULL; b++) {
          const weight = w[a * 128 + b];
          if (weight === 0) continue;
          const fromA = pickA(size(a), size(b));
          visit(a, b, weight, fromA / size(a), (1 - fromA) / size(b));
        }
    };
    const out: Float64Array[] = [];
    for (const id of pieces) {
      const next = new Float64Array(w.length);
      const bit = 1 << id;
      eachPair((a, b, weight, fromA, fromB) => {
        if (a & bit) next[(a === bit ? FULL : a & ~bit) * 128 + b] += weight * fromA;
        if (b & bit) next[a * 128 + (b === bit ? FULL : b & ~bit)] += weight * fromB;
      });
      const total = next.reduce((s, x) => s + x, 0);
      w = next.map((x) => x / total);
      const chances = new Float64Array(N);
      eachPair((a, b, weight, fromA, fromB) => {
        for (let p = 0; p < N; p++) {
          if (a & (1 << p)) chances[p] += weight * fromA;
          if (b & (1 << p)) chances[p] += weight * fromB;
        }
      });
      out.push(chances);
    }
    return out;
  }

  it("redBlue's sizes law: π(a, b) = (10/363)(1/a + 1/b), stationary for the chain (so P(1, 1) = 20/363)", () => {
    // Derived by hand (an exact rational solve of the 49 balance equations agrees): a deal takes from red with
    // a / (a + b), and a colour that runs out holds 7 again. Checked here: it sums to 1 and every balance equation holds.
    const pi = (a: number, b: number) => (10 / 363) * (1 / a + 1 / b);
    expect(pi(1, 1)).toBe(20 / 363);
    let sum = 0;
    for (let a = 1; a <= 7; a++) {
      for (let b = 1; b <= 7; b++) {
        sum += pi(a, b);
        // Inflow into (a, b): from (a + 1, b) by a red deal, from (a, b + 1) by a blue one (from 1 when 7, refilled).
        const ra = a === 7 ? 1 : a + 1;
        const rb = b === 7 ? 1 : b + 1;
        const inflow = pi(ra, b) * (ra / (ra + b)) + pi(a, rb) * (rb / (a + rb));
        expect(Math.abs(inflow - pi(a, b))).toBeLessThan(1e-15);
      }
    }
    expect(sum).toBeCloseTo(1, 14);
  });

  it('twoBag (49 size pairs alike), redBlue (the law above): the exact posterior, written out from the rules', () => {
    const laws = {
      twoBag: () => 1 / 49,
      redBlue: (a: number, b: number) => (10 / 363) * (1 / a + 1 / b),
    };
    for (const name of ['twoBag', 'redBlue'] as const) {
      const r = createRandomizer(name, { seed: 2 });
      r.take(501);
      const pieces = Array.from({ length: 30 }, () => r.nextId());
      const reference = twoBagPosterior(name, laws[name], pieces);
      const inference = PieceInference.start(name, {}, false);
      const chances = new Float64Array(N);
      expectClose(inference.chances(chances), new Array(N).fill(1 / N), 1e-12, `${name} prior`);
      pieces.forEach((id, i) => {
        expect(inference.observe(id)).toBe(true);
        expectClose(inference.chances(chances), reference[i], 1e-12, `${name} piece ${i}`);
      });
    }
  });

  it('twoBag, redBlue: chances that learn (a log-loss well under uniform chances), no contradiction over a real game', () => {
    for (const name of ['twoBag', 'redBlue'] as const) {
      const r = createRandomizer(name, { seed: 2 });
      r.take(501);
      const inference = PieceInference.start(name, {}, false);
      const chances = new Float64Array(N);
      expectClose(inference.chances(chances), new Array(N).fill(1 / N), 1e-12, `${name} prior`);
      let loss = 0;
      for (let i = 0; i < 500; i++) {
        const id = r.nextId();
        loss -= Math.log(inference.chances(chances)[id]);
        expect(inference.observe(id)).toBe(true);
      }
      expect(loss / 500).toBeLessThan(Math.log(N) - 0.2);
    }
  });
});

describe('contradictions', () => {
  it('a 7-bag dealing a piece twice in one bag: observe says so, the chances are uniform from then on', () => {
    const inference = PieceInference.start('bag7', {}, true);
    expect(inference.observe(0)).toBe(true);
    expect(inference.observe(1)).toBe(true);
    expect(inference.observe(0)).toBe(false);
    expect(inference).toMatchObject({ knowledge: 'uniform', contradictedAt: 2, pieces: 3 });
    expect(inference.observe(0)).toBe(true);
    expect(inference.chances(new Float64Array(N))).toEqual(new Float64Array(N).fill(1 / N));
  });

  it("tgm1 from the start: S, Z or O first cannot be (the game's first piece is I, T, L or J)", () => {
    const inference = PieceInference.start('tgm1', {}, true);
    expect(inference.observe(3)).toBe(false);
    expect(inference.contradictedAt).toBe(0);
  });

  it("'unknown': uniform chances, nothing to contradict", () => {
    const inference = PieceInference.start('unknown', {}, true);
    for (const id of [0, 0, 0, 0]) expect(inference.observe(id)).toBe(true);
    expect(inference).toMatchObject({ knowledge: 'uniform', contradictedAt: null, pieces: 4 });
  });
});
