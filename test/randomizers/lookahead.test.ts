/**
 * Looking two pieces ahead: afterDealing(id) and nextPairDistribution(). The reference is exact enumeration:
 * the library's own nextId() driven by a scripted PRNG that walks every outcome of every roll (so the states
 * reached are the real ones, whatever the rolls decide besides the piece), or, for tgm3, whose six rolls over 35
 * slots are too many to walk, the pool rules of docs/randomizers.md transcribed here on slot counts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PIECE_COUNT } from '../../src/pieces.js';
import { Rng } from '../../src/random.js';
import { BaseRandomizer, MixtureRandomizer } from '../../src/randomizers/base.js';
import {
  RANDOMIZER_NAMES,
  createRandomizer,
  restoreRandomizer,
  type Randomizer,
  type RandomizerName,
  type RandomizerState,
} from '../../src/randomizers/index.js';
import { chiSquare, chiSquareCritical } from './stats.js';

const N = PIECE_COUNT;
const FC = { seed: 20240611, numRuns: 25 };
const badArgument = expect.objectContaining({ name: 'StackRankError', code: 'BAD_ARGUMENT' });

/** A generator `dealt` pieces into the stream of `seed`. */
function advanced(name: RandomizerName, seed: number, dealt: number): Randomizer {
  const r = createRandomizer(name, { seed });
  r.take(dealt);
  return r;
}

/** A PRNG state for a snapshot: four words drawn from `seeds` (never all zero). */
function freshRng(seeds: Rng): RandomizerState['rng'] {
  return [(seeds.nextU32() | 1) >>> 0, seeds.nextU32(), seeds.nextU32(), seeds.nextU32()];
}

function fields(state: RandomizerState): Record<string, unknown> {
  const { rng: _rng, ...rest } = state;
  return rest;
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance = 1e-12): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
  expect(worst, `${Array.from(actual)} vs ${Array.from(expected)}`).toBeLessThanOrEqual(tolerance);
}

// ---------------------------------------------------------------------------------------------------------------
// Exact enumeration with a scripted PRNG.

/**
 * Answers every nextInt(n) with the next choice of `path` (extending it with 0 past its end, remembering n),
 * and nextFloat() with one point inside each piece's interval of decay's weights (its chance: the interval's
 * length), so a walk over all paths covers every outcome exactly once.
 */
class ScriptedRng extends Rng {
  chance = 1;
  private call = 0;

  constructor(
    private readonly path: number[],
    private readonly sizes: number[],
    private readonly floatPoints: () => { u: number; chance: number }[],
  ) {
    super(1);
  }

  private choose(size: number): number {
    const i = this.call++;
    if (i === this.path.length) {
      this.path.push(0);
      this.sizes.push(size);
    }
    return this.path[i];
  }

  nextInt(n: number): number {
    if (n <= 1) return 0;
    const v = this.choose(n);
    this.chance /= n;
    return v;
  }

  nextFloat(): number {
    const points = this.floatPoints();
    const point = points[this.choose(points.length)];
    this.chance *= point.chance;
    return point.u;
  }
}

/** One point in the middle of each piece's share of [0, 1) under decay's weights. */
function decayPoints(weights: number[]): { u: number; chance: number }[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const points: { u: number; chance: number }[] = [];
  let below = 0;
  for (const w of weights) {
    if (w > 0) points.push({ u: (below + w / 2) / total, chance: w / total });
    below += w;
  }
  return points;
}

interface Outcome {
  chance: number;
  pieces: number[];
  after: BaseRandomizer;
}

/** Every way the next `deals` pieces can come from `start`, with its chance and the (real) state it leaves. */
function enumerateDeals(start: RandomizerState, deals: number): Outcome[] {
  const outcomes: Outcome[] = [];
  const path: number[] = [];
  const sizes: number[] = [];
  for (;;) {
    let r: BaseRandomizer | undefined;
    const rng = new ScriptedRng(path, sizes, () => decayPoints(r!.state().weights as number[]));
    r = (restoreRandomizer(start) as BaseRandomizer).withRng(rng);
    const pieces = Array.from({ length: deals }, () => r!.nextId());
    outcomes.push({ chance: rng.chance, pieces, after: r });
    // Next path: bump the last choice that has an alternative left, forget the ones after it.
    while (path.length > 0 && path[path.length - 1] === sizes[sizes.length - 1] - 1) {
      path.pop();
      sizes.pop();
    }
    if (path.length === 0) return outcomes;
    path[path.length - 1]++;
  }
}

/** pair[p1 * 7 + p2] = Σ over outcomes of one deal of chance · [piece p1] · P(p2 | the state it leaves). */
function enumeratedPair(start: RandomizerState): Float64Array {
  const pair = new Float64Array(N * N);
  for (const { chance, pieces, after } of enumerateDeals(start, 1)) {
    const next = after.distribution();
    for (let p2 = 0; p2 < N; p2++) pair[pieces[0] * N + p2] += chance * next[p2];
  }
  return pair;
}

// ---------------------------------------------------------------------------------------------------------------
// tgm3 on slot counts, written from docs/randomizers.md.

interface Tgm3Counts {
  counts: number[];
  order: number[];
  history: number[];
  /** Pieces dealt since the first piece (the pool quirk needs all seven), and whether the quirk is on. */
  seen: number[];
  quirk: boolean;
}

/** Every (piece, state after) of one tgm3 deal (after the first), with its chance; equal states merged. */
function tgm3Deals(s: Tgm3Counts): { chance: number; piece: number; after: Tgm3Counts }[] {
  const results = new Map<string, { chance: number; piece: number; after: Tgm3Counts }>();
  let level = new Map<string, { counts: number[]; chance: number }>([
    [String(s.counts), { counts: s.counts, chance: 1 }],
  ]);
  for (let roll = 0; roll < 6; roll++) {
    const next = new Map<string, { counts: number[]; chance: number }>();
    for (const { counts, chance } of level.values()) {
      for (let p = 0; p < 7; p++) {
        if (counts[p] === 0) continue;
        const hit = (chance * counts[p]) / 35;
        const after = [...counts];
        after[p]--;
        if (roll === 5 || !s.history.includes(p)) {
          const order = [...s.order.filter((q) => q !== p), p];
          const seen = [...new Set([...s.seen, p])].sort();
          // The quirk: after a rerolled roll, dealing the most droughted piece once all seven were seen keeps the slot.
          const keep = s.quirk && roll > 0 && p === s.order[0] && seen.length === 7;
          after[keep ? p : order[0]]++;
          const key = `${p}:${after}`;
          const known = results.get(key);
          if (known) known.chance += hit;
          else
            results.set(key, {
              chance: hit,
              piece: p,
              after: { counts: after, order, history: [p, ...s.history.slice(0, 3)], seen, quirk: s.quirk },
            });
        } else {
          after[s.order[0]]++;
          const known = next.get(String(after));
          if (known) known.chance += hit;
          else next.set(String(after), { counts: after, chance: hit });
        }
      }
    }
    level = next;
  }
  return [...results.values()];
}

function tgm3Counts(state: RandomizerState): Tgm3Counts {
  const counts = new Array<number>(7).fill(0);
  for (const id of state.pool as number[]) counts[id]++;
  const seen = [0, 1, 2, 3, 4, 5, 6].filter((p) => ((state.seen as number) >> p) & 1);
  return {
    counts,
    order: state.droughtOrder as number[],
    history: state.history as number[],
    seen,
    quirk: state.params.poolQuirk !== 0,
  };
}

function tgm3State(base: RandomizerState, s: Tgm3Counts): RandomizerState {
  const pool = s.counts.flatMap((n, p) => new Array<number>(n).fill(p));
  return {
    ...base,
    started: true,
    pool,
    droughtOrder: s.order,
    history: s.history,
    seen: s.seen.reduce((m, p) => m | (1 << p), 0),
  };
}

/** P(next piece) of one tgm3 deal: tgm3Deals summed over the states it leaves. */
function tgm3Next(s: Tgm3Counts): number[] {
  const result = new Array<number>(7).fill(0);
  for (const deal of tgm3Deals(s)) result[deal.piece] += deal.chance;
  return result;
}

/** The exact joint law of the next two tgm3 pieces, both deals enumerated on slot counts. */
function tgm3EnumeratedPair(state: RandomizerState): Float64Array {
  const pair = new Float64Array(49);
  for (const first of tgm3Deals(tgm3Counts(state))) {
    const second = tgm3Next(first.after);
    for (let p2 = 0; p2 < 7; p2++) pair[first.piece * 7 + p2] += first.chance * second[p2];
  }
  return pair;
}

// ---------------------------------------------------------------------------------------------------------------

describe('nextPairDistribution', () => {
  // tgm3 (below) and nes (test/randomizers/faithful.test.ts: its LFSR draw has 32,767 outcomes) are checked apart.
  it.each(RANDOMIZER_NAMES.filter((n) => n !== 'tgm3' && n !== 'nes'))(
    '%s: equals exact enumeration of the next deal, in many states',
    (name) => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.nat(120), (seed, dealt) => {
          const r = advanced(name, seed, dealt);
          const pair = r.nextPairDistribution();
          expectClose(pair, enumeratedPair(r.state()));
          // Rows sum to the first piece's distribution; the column sums are the second piece's distribution.
          const first = r.distribution();
          for (let p1 = 0; p1 < N; p1++)
            expect(pair.slice(p1 * N, p1 * N + N).reduce((a, b) => a + b, 0)).toBeCloseTo(first[p1], 14);
        }),
        FC,
      );
    },
  );

  it.each(['memoryless', 'nesSketch', 'bag7', 'bag14', 'twoBag', 'redBlue', 'decay'] as const)(
    '%s: its marginal equals the second piece enumerated over both deals',
    (name) => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.nat(60), (seed, dealt) => {
          const r = advanced(name, seed, dealt);
          const pair = r.nextPairDistribution();
          const joint = new Float64Array(N * N);
          for (const { chance, pieces } of enumerateDeals(r.state(), 2)) joint[pieces[0] * N + pieces[1]] += chance;
          expectClose(pair, joint);
          const marginal = new Float64Array(N);
          for (let p1 = 0; p1 < N; p1++) for (let p2 = 0; p2 < N; p2++) marginal[p2] += pair[p1 * N + p2];
          const second = new Float64Array(N);
          for (let cell = 0; cell < N * N; cell++) second[cell % N] += joint[cell];
          expectClose(marginal, second);
        }),
        { ...FC, numRuns: 15 },
      );
    },
  );

  it('tgm3: equals an enumeration of both deals on slot counts, in many states, with and without the pool quirk', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(0 as const, 1 as const),
        (seed, dealt, poolQuirk) => {
          const r = createRandomizer('tgm3', { seed, poolQuirk });
          r.take(dealt);
          const pair = r.nextPairDistribution();
          expectClose(pair, tgm3EnumeratedPair(r.state()));
          const first = r.distribution();
          for (let p1 = 0; p1 < N; p1++)
            expect(pair.slice(p1 * N, p1 * N + N).reduce((a, b) => a + b, 0)).toBeCloseTo(first[p1], 14);
        },
      ),
      { ...FC, numRuns: 30 },
    );
    // Before the first piece (which is not drawn from the pool) the scripted walk is small.
    const fresh = createRandomizer('tgm3', { seed: 3 });
    expectClose(fresh.nextPairDistribution(), enumeratedPair(fresh.state()));
  });

  it('every family and mixture: the fast path agrees with the generic one (afterDealing + distribution)', () => {
    const generic = (r: Randomizer) =>
      BaseRandomizer.prototype.nextPairDistribution.call(r as BaseRandomizer, new Float64Array(49));
    for (const name of RANDOMIZER_NAMES) {
      for (const dealt of [0, 1, 5, 6, 13, 50, 333]) {
        const r = advanced(name, 77 + dealt, dealt);
        expectClose(r.nextPairDistribution(), generic(r), 1e-14);
      }
    }
    for (const name of ['twoBag', 'redBlue', 'tgm3'] as const) {
      for (const dealt of [1, 20]) {
        const r = advanced(name, dealt, dealt);
        const d = r.distribution();
        for (let p = 0; p < N; p++)
          if (d[p] > 0) expectClose(r.afterDealing(p).nextPairDistribution(), generic(r.afterDealing(p)), 1e-14);
      }
    }
  });

  it('matches the pieces actually dealt: many copies of one state with different rolls, two pieces each', () => {
    // Chi-square over the 49 pairs at a fixed seed (deterministic); also covers the mixture states of
    // afterDealing (dealing from one first picks a component, then deals from it).
    const seeds = new Rng(99);
    const samples = 10_000;
    const cases: [string, Randomizer][] = RANDOMIZER_NAMES.map((name) => [name, advanced(name, 5, 17)]);
    cases.push([
      'twoBag mixture',
      restoreRandomizer({
        ...createRandomizer('twoBag').state(),
        bags: [
          [0, 3],
          [1, 2, 3, 4, 5, 6, 0],
        ],
      }).afterDealing(3),
    ]);
    cases.push([
      'redBlue mixture',
      restoreRandomizer({
        ...createRandomizer('redBlue').state(),
        bags: [
          [0, 3, 5],
          [1, 2, 3, 4, 6],
        ],
      }).afterDealing(3),
    ]);
    cases.push([
      'tgm3 mixture',
      advanced('tgm3', 5, 17).afterDealing((advanced('tgm3', 5, 18).state().history as number[])[0]),
    ]);
    for (const [label, r] of cases) {
      const state = r.state();
      const observed = new Float64Array(49);
      const snapshot = restoreRandomizer(state) as BaseRandomizer;
      for (let i = 0; i < samples; i++) {
        // Equivalent to restoreRandomizer({ ...state, rng: <new words> }), without re-reading the snapshot.
        const copy = snapshot.withRng(new Rng(freshRng(seeds)));
        const a = copy.nextId();
        observed[a * N + copy.nextId()]++;
      }
      const expected = r.nextPairDistribution().map((p) => p * samples);
      for (let cell = 0; cell < 49; cell++)
        if (expected[cell] === 0) expect(observed[cell], `${label} cell ${cell}`).toBe(0);
      const { statistic, cells } = chiSquare(observed, expected);
      expect(cells, label).toBeGreaterThan(3);
      expect(statistic, label).toBeLessThan(chiSquareCritical(cells - 1));
    }
  });

  it('bag7: exact pairs at the start of a bag and with two or one piece left', () => {
    const bag = createRandomizer('bag7', { seed: 12 });
    const fresh = bag.nextPairDistribution();
    for (let p1 = 0; p1 < N; p1++)
      for (let p2 = 0; p2 < N; p2++) expect(fresh[p1 * N + p2]).toBeCloseTo(p1 === p2 ? 0 : 1 / 42, 15);

    const dealt = new Set<number>();
    for (let i = 0; i < 5; i++) dealt.add(bag.nextId());
    const [a, b] = [0, 1, 2, 3, 4, 5, 6].filter((p) => !dealt.has(p));
    // Two left: one of them, then the other for certain.
    const two = bag.nextPairDistribution();
    for (let cell = 0; cell < 49; cell++)
      expect(two[cell]).toBeCloseTo(cell === a * N + b || cell === b * N + a ? 1 / 2 : 0, 15);

    dealt.add(bag.nextId());
    const [last] = [0, 1, 2, 3, 4, 5, 6].filter((p) => !dealt.has(p));
    // One left: it comes for certain, then the refilled bag deals any piece with 1/7.
    const one = bag.nextPairDistribution();
    for (let p1 = 0; p1 < N; p1++)
      for (let p2 = 0; p2 < N; p2++) expect(one[p1 * N + p2]).toBeCloseTo(p1 === last ? 1 / 7 : 0, 15);
    expect(bag.nextId()).toBe(last);
  });

  it('writes into `into` without allocating, and zeroes the rows of impossible pieces', () => {
    const into = new Float64Array(49).fill(Number.NaN);
    const tgm1 = createRandomizer('tgm1', { seed: 1 });
    expect(tgm1.nextPairDistribution(into)).toBe(into);
    // The first TGM piece is never O, S or Z.
    for (const p1 of [1, 3, 4]) expect(Array.from(into.slice(p1 * N, p1 * N + N))).toEqual(new Array(7).fill(0));
    for (const name of RANDOMIZER_NAMES) {
      const r = advanced(name, 2, 9);
      into.fill(Number.NaN);
      expect(r.nextPairDistribution(into)).toBe(into);
      expect(into.every((p) => p >= 0 && p <= 1)).toBe(true);
      expect(into.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 14);
    }
  });

  it('rejects a wrong `into` with BAD_ARGUMENT', () => {
    for (const name of RANDOMIZER_NAMES) {
      const r = advanced(name, 3, 4);
      for (const into of [
        new Float64Array(48),
        new Float64Array(7),
        new Float32Array(49),
        new Array(49).fill(0),
        'x',
      ]) {
        expect(() => r.nextPairDistribution(into as never)).toThrow(badArgument);
      }
    }
  });
});

describe('afterDealing', () => {
  it('leaves the original untouched: same state, same distribution, same pieces to come', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RANDOMIZER_NAMES),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.nat(80),
        (name, seed, dealt) => {
          const r = advanced(name, seed, dealt);
          const twin = r.clone();
          const before = JSON.stringify(r.state());
          const distribution = Array.from(r.distribution());
          const results: Randomizer[] = [];
          for (let p = 0; p < N; p++) if (distribution[p] > 0) results.push(r.afterDealing(p));
          r.nextPairDistribution();
          // Using the results does not reach back either.
          for (const after of results) {
            after.nextPairDistribution();
            after.take(5);
          }
          expect(JSON.stringify(r.state())).toBe(before);
          expect(Array.from(r.distribution())).toEqual(distribution);
          expect(r.take(40)).toBe(twin.take(40));
        },
      ),
      { ...FC, numRuns: 60 },
    );
  });

  it.each(['memoryless', 'nes', 'nesSketch', 'tgm1', 'tgm2', 'bag7', 'bag14', 'decay'] as const)(
    '%s (state after a deal is a function of the piece): equals a copy that really dealt the piece',
    (name) => {
      const seeds = new Rng(7);
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.nat(100), (seed, dealt) => {
          const r = advanced(name, seed, dealt);
          const state = r.state();
          const chances = r.distribution();
          for (let p1 = 0; p1 < N; p1++) {
            if (chances[p1] === 0) {
              expect(() => r.afterDealing(p1)).toThrow(/cannot deal/);
              continue;
            }
            // Re-roll copies of the state until one deals p1 (rare pieces take a few hundred tries).
            let real: Randomizer | undefined;
            for (let tries = 0; tries < 50_000 && !real; tries++) {
              const copy = restoreRandomizer({ ...state, rng: freshRng(seeds) });
              if (copy.nextId() === p1) real = copy;
            }
            expect(real, `no copy dealt ${p1}`).toBeDefined();
            const after = r.afterDealing(p1);
            expectClose(after.distribution(), real!.distribution(), 1e-15);
            expectClose(after.nextPairDistribution(), real!.nextPairDistribution(), 1e-15);
            if (name === 'bag14') {
              const sorted = (s: RandomizerState) => (s.bags as number[][]).map((b) => [...b].sort());
              expect(sorted(after.state())).toEqual(sorted(real!.state()));
            } else {
              expect(fields(after.state())).toEqual(fields(real!.state()));
            }
            // The PRNG is copied unchanged.
            expect(after.state().rng).toEqual(state.rng);
          }
        }),
        { ...FC, numRuns: 10 },
      );
    },
  );

  it('twoBag, redBlue, tgm3: the state after the piece is random; the result is the exact mixture of every state a real deal can leave', () => {
    const seeds = new Rng(8);
    for (const name of ['twoBag', 'redBlue', 'tgm3'] as const) {
      let mixtures = 0;
      for (let seed = 0; seed < 12; seed++) {
        const r = advanced(name, seed, 3 + 11 * seed);
        const state = r.state();
        const chances = r.distribution();
        for (let p1 = 0; p1 < N; p1++) {
          if (chances[p1] === 0) continue;
          const after = r.afterDealing(p1);
          const parts = after instanceof MixtureRandomizer ? after.parts : undefined;
          const keys = new Set(
            parts ? parts.map((c) => c.randomizer.stateKey()) : [(after as BaseRandomizer).stateKey()],
          );
          if (parts && parts.length > 1) {
            mixtures++;
            expect(parts.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 14);
            expect(after.state().mixture).toHaveLength(parts.length);
          }
          // Its distribution is row p1 of the pair distribution, divided by the chance of p1.
          const row = r
            .nextPairDistribution()
            .slice(p1 * N, p1 * N + N)
            .map((x) => x / chances[p1]);
          expectClose(after.distribution(), row, 1e-12);
          // Every real deal of p1 leaves one of the mixture's states. Rare pieces (a tgm3 history piece comes with
          // a chance down to 2e-4 here) get enough tries to be dealt about 8 times, so no case asserts nothing.
          let found = 0;
          const limit = Math.max(2000, Math.ceil(8 / chances[p1]));
          for (let tries = 0; tries < limit && found < 20; tries++) {
            const copy = restoreRandomizer({ ...state, rng: freshRng(seeds) }) as BaseRandomizer;
            if (copy.nextId() !== p1) continue;
            found++;
            expect(keys.has(copy.stateKey()), `${name}: a real deal of ${p1} left a state outside the mixture`).toBe(
              true,
            );
          }
          expect(found, `${name} seed ${seed}: no deal of ${p1} (chance ${chances[p1]})`).toBeGreaterThan(0);
        }
      }
      expect(mixtures, name).toBeGreaterThan(5);
    }
  });

  it('twoBag: the worked example of docs/randomizers.md', () => {
    // Bag A holds only I, bag B a full bag. I comes with 1/2 (bag A) + 1/2 · 1/7 (bag B) = 4/7. From A (chance
    // 7/8 given I), A is refilled and every piece has 1/7; from B (1/8), I has 1/2 and the rest 1/12 each.
    const r = restoreRandomizer({ ...createRandomizer('twoBag').state(), bags: [[0], [1, 2, 3, 4, 5, 6, 0]] });
    const after = r.afterDealing(0);
    expectClose(after.distribution(), [3 / 16, 13 / 96, 13 / 96, 13 / 96, 13 / 96, 13 / 96, 13 / 96], 1e-15);
    const pair = r.nextPairDistribution();
    expectClose(pair.slice(0, 7), [3 / 28, 13 / 168, 13 / 168, 13 / 168, 13 / 168, 13 / 168, 13 / 168], 1e-15);
    expect(after.state().mixture).toEqual([
      {
        weight: 7 / 8,
        bags: [
          [0, 1, 2, 3, 4, 5, 6],
          [1, 2, 3, 4, 5, 6, 0],
        ],
      },
      { weight: 1 / 8, bags: [[0], [1, 2, 3, 4, 5, 6]] },
    ]);
  });

  it('looking further ahead stays exact: afterDealing of a mixture conditions it on the next piece', () => {
    // Three deals enumerated for twoBag and redBlue: P(third | first, second) against the chained mixtures.
    for (const name of ['twoBag', 'redBlue'] as const) {
      for (const dealt of [2, 9, 20]) {
        const r = advanced(name, 40 + dealt, dealt);
        const third = new Map<string, Float64Array>();
        for (const { chance, pieces } of enumerateDeals(r.state(), 3)) {
          const key = `${pieces[0]},${pieces[1]}`;
          if (!third.has(key)) third.set(key, new Float64Array(N));
          third.get(key)![pieces[2]] += chance;
        }
        for (const [key, joint] of third) {
          const [a, b] = key.split(',').map(Number);
          const total = joint.reduce((s, x) => s + x, 0);
          expectClose(
            r.afterDealing(a).afterDealing(b).distribution(),
            joint.map((x) => x / total),
            1e-12,
          );
        }
      }
    }
    // tgm3: P(third | first, second) from the chained mixtures, against the first two deals enumerated on slot
    // counts (every state they can leave, with its chance) and the distribution of each of those states.
    for (const dealt of [1, 250]) {
      const r = advanced('tgm3', dealt, dealt);
      const firstDeals = tgm3Deals(tgm3Counts(r.state()));
      const pieces = [...new Set(firstDeals.map((f) => f.piece))].slice(0, 3);
      for (const a of pieces) {
        const third = new Map<number, Float64Array>();
        for (const first of firstDeals) {
          if (first.piece !== a) continue;
          for (const second of tgm3Deals(first.after)) {
            if (!third.has(second.piece)) third.set(second.piece, new Float64Array(N));
            const next = restoreRandomizer(tgm3State(r.state(), second.after)).distribution();
            for (let p = 0; p < N; p++) third.get(second.piece)![p] += first.chance * second.chance * next[p];
          }
        }
        const afterA = r.afterDealing(a);
        for (const [b, joint] of third) {
          const total = joint.reduce((x, y) => x + y, 0);
          expectClose(
            afterA.afterDealing(b).distribution(),
            joint.map((x) => x / total),
            1e-12,
          );
        }
      }
    }
  });

  it('a mixture survives state()/JSON/restoreRandomizer and clone(), and is an ordinary state once it has dealt', () => {
    const r = restoreRandomizer({
      ...createRandomizer('redBlue', { seed: 4 }).state(),
      bags: [
        [0, 3, 5],
        [1, 2, 3, 4, 6],
      ],
    });
    const mixture = r.afterDealing(3);
    const snapshot = JSON.parse(JSON.stringify(mixture.state())) as RandomizerState;
    expect(snapshot.mixture).toHaveLength(2);
    const restored = restoreRandomizer(snapshot);
    const copy = mixture.clone();
    expect(Array.from(restored.distribution())).toEqual(Array.from(mixture.distribution()));
    expect(Array.from(restored.nextPairDistribution())).toEqual(Array.from(mixture.nextPairDistribution()));
    const ahead = mixture.take(30);
    expect(restored.take(30)).toBe(ahead);
    expect(copy.take(30)).toBe(ahead);
    expect(mixture.state().mixture).toBeUndefined();
    expect(restoreRandomizer(mixture.state()).take(20)).toBe(mixture.clone().take(20));

    const broken: [unknown, RegExp][] = [
      [[], /mixture must be a non-empty list/],
      ['x', /mixture must be a non-empty list/],
      [
        [
          { weight: -1, bags: [[0], [1]] },
          { weight: 2, bags: [[0], [1]] },
        ],
        /weight must be a finite number > 0/,
      ],
      [[{ weight: 0.5, bags: [[0], [1]] }], /weights must sum to 1/],
      [[null], /mixture entry 0 must be an object/],
      [[{ weight: 1, bags: [[0, 0], [1]] }], /at most 1 of each/],
    ];
    for (const [mixtureField, message] of broken) {
      expect(() => restoreRandomizer({ ...snapshot, mixture: mixtureField })).toThrow(message);
      expect(() => restoreRandomizer({ ...snapshot, mixture: mixtureField })).toThrow(badArgument);
    }
  });

  it('rejects bad ids and pieces that cannot come next with BAD_ARGUMENT', () => {
    for (const name of RANDOMIZER_NAMES) {
      const r = advanced(name, 6, 3);
      for (const id of [-1, 7, 0.5, Number.NaN, '1', undefined, null])
        expect(() => r.afterDealing(id as never)).toThrow(badArgument);
    }
    // The first TGM piece is never O, S or Z.
    for (const name of ['tgm1', 'tgm2', 'tgm3'] as const) {
      for (const id of [1, 3, 4])
        expect(() => createRandomizer(name).afterDealing(id)).toThrow(
          /tgm\d cannot deal [OSZ] next .*probability is 0/,
        );
    }
    // A bag cannot deal what it has already dealt.
    const bag = createRandomizer('bag7', { seed: 2 });
    const gone = bag.nextId();
    expect(() => bag.afterDealing(gone)).toThrow(badArgument);
    // decay: a piece whose weight is zero.
    const decay = restoreRandomizer({ ...createRandomizer('decay').state(), weights: [0, 1, 1, 1, 1, 1, 2] });
    expect(() => decay.afterDealing(0)).toThrow(/decay cannot deal I next/);
    // tgm3: O's only history slot is surely overwritten before the last roll (5 history slots, front L not in the
    // history), so O has chance exactly 0, not a rounding residue, and afterDealing refuses it.
    const tgm3 = restoreRandomizer({
      ...createRandomizer('tgm3').state(),
      started: true,
      history: [6, 4, 1, 2],
      pool: [0, 5, 5, 0, 3, 2, 0, 5, 5, 3, 2, 0, 3, 5, 5, 3, 5, 3, 5, 5, 5, 3, 6, 5, 3, 0, 5, 4, 3, 1, 5, 3, 0, 5, 5],
      droughtOrder: [5, 0, 3, 2, 1, 4, 6],
    });
    const d = tgm3.distribution();
    for (const p of [1, 2, 4, 6]) {
      expect(d[p]).toBe(0);
      expect(() => tgm3.afterDealing(p)).toThrow(/tgm3 cannot deal/);
    }
    expect(d[0] + d[3] + d[5]).toBeCloseTo(1, 15);
    const pair = tgm3.nextPairDistribution();
    for (const p of [1, 2, 4, 6]) expect(Array.from(pair.slice(p * N, p * N + N))).toEqual(new Array(7).fill(0));
  });
});
