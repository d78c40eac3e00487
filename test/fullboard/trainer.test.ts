import { describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import {
  TRAIN_DEFAULTS,
  checkCheckpoint,
  resolveTrainOptions,
  resumeConflict,
  trainWeights,
  type GenerationInfo,
  type TrainCheckpoint,
} from '../../src/fullboard/trainer.js';
import { playFullGame } from '../../src/fullboard/player.js';
import { FEATURE_SETS } from '../../src/fullboard/presets.js';
import { Rng } from '../../src/random.js';

const SMALL = { population: 24, gamesPerEval: 3, boardWidth: 8, boardHeight: 8, maxPieces: 5000, seed: 2026 } as const;

describe('GA trainer', () => {
  it('improves fitness on a small board within a few generations (fixed seed)', async () => {
    const gens: GenerationInfo[] = [];
    const r = await trainWeights({ ...SMALL, generations: 6, onGeneration: (g) => gens.push(g) });
    expect(gens.map((g) => g.generation)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(gens[0].evaluated).toBe(24);
    expect(gens[1].evaluated).toBe(24 - Math.round(0.2 * 24)); // the elite is not re-simulated
    const first = gens[0];
    const last = gens[gens.length - 1];
    expect(last.mean).toBeGreaterThan(2 * first.mean);
    expect(last.median).toBeGreaterThan(first.median);
    // the winner also plays better than the first generation on fresh games of the same board
    let fresh = 0;
    for (let seed = 100; seed < 120; seed++) {
      fresh += (
        await playFullGame({
          weights: { features: r.features, weights: r.weights },
          seed,
          width: 8,
          height: 8,
          maxPieces: 5000,
        })
      ).lines;
    }
    expect(fresh / 20).toBeGreaterThan(2 * first.mean);
  });

  it('gives the same weights for the same seed, with 1 or 2 threads', async () => {
    const a = await trainWeights({ ...SMALL, generations: 3 });
    const b = await trainWeights({ ...SMALL, generations: 3, threads: 2 });
    const c = await trainWeights({ ...SMALL, generations: 3, seed: 7 });
    expect(b.weights).toEqual(a.weights);
    expect(b.history.map((h) => h.mean)).toEqual(a.history.map((h) => h.mean));
    expect(c.weights).not.toEqual(a.weights);
  });

  it('resumes from a JSON checkpoint and ends exactly where an uninterrupted run ends', async () => {
    const full = await trainWeights({ ...SMALL, generations: 5 });
    let saved: string | undefined;
    await trainWeights({ ...SMALL, generations: 2, onGeneration: (g) => (saved = JSON.stringify(g.checkpoint)) });
    const resumed = await trainWeights({ generations: 5, resume: JSON.parse(saved!) as TrainCheckpoint });
    expect(resumed.weights).toEqual(full.weights);
    expect(resumed.fitness).toBe(full.fitness);
    expect(resumed.history.map((h) => [h.generation, h.best, h.mean])).toEqual(
      full.history.map((h) => [h.generation, h.best, h.mean]),
    );
    // A generation count its history does not hold is a damaged checkpoint, not generations numbered -1 or 2.5.
    for (const generation of [-1, 1.5, 5, '2'])
      expect(() => checkCheckpoint({ ...JSON.parse(saved!), generation })).toThrow(
        expect.objectContaining({ code: 'BAD_HEADER', message: expect.stringContaining('holds (2); got') }),
      );
  });

  it('refuses a resume whose given options differ from the checkpoint; options left out keep its values', async () => {
    let saved: TrainCheckpoint | undefined;
    const options = { ...SMALL, population: 6, gamesPerEval: 1, maxPieces: 500 };
    await trainWeights({ ...options, generations: 1, onGeneration: (g) => (saved = g.checkpoint) });
    const resume = JSON.parse(JSON.stringify(saved)) as TrainCheckpoint;
    // It used to keep the checkpoint's values and drop these silently.
    await expect(trainWeights({ generations: 2, population: 12, seed: 99, resume })).rejects.toMatchObject({
      code: 'RUN_MISMATCH',
      message:
        "trainWeights: resume: population is 12 here and 6 in the checkpoint; leave population out to continue with the checkpoint's",
    });
    await expect(trainWeights({ generations: 2, seed: 99, resume })).rejects.toMatchObject({
      code: 'RUN_MISMATCH',
      message: expect.stringContaining('seed is 99 here and 2026 in the checkpoint'),
    });
    await expect(trainWeights({ generations: 2, features: ['holes', 'maxHeight'], resume })).rejects.toMatchObject({
      code: 'RUN_MISMATCH',
      message: expect.stringMatching(
        /^trainWeights: resume: features is \["holes", "maxHeight"\] here and \["landingHeight"/,
      ),
    });
    expect(resumeConflict({ boardHeight: 10 }, resume)).toEqual({ option: 'boardHeight', given: 10, saved: 8 });
    // a feature set's name stands for its list, as the CLI's --features takes it
    expect(resumeConflict({ features: 'bcts' }, resume)).toBeNull();
    expect(resumeConflict({ features: 'dellacherie' }, resume)).toMatchObject({
      option: 'features',
      given: 'dellacherie',
    });
    // a checkpoint that is not JSON data, or whose history or fitness no run makes, is no checkpoint
    /** A checkpoint as JSON.parse gives it back, to damage one field. */
    type Loose = {
      options: Record<string, unknown>;
      history: Record<string, unknown>[];
      population: Record<string, unknown>[];
      [k: string]: unknown;
    };
    const damaged: [string, (c: Loose) => void, RegExp][] = [
      [
        'a cycle',
        (c) => (c.options.self = c),
        /^not a stackrank GA checkpoint: the checkpoint\.options\.self.* refers to itself$/,
      ],
      ['deep nesting', (c) => (c.extra = JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`)), /more than 32 deep/],
      ['a NaN best', (c) => (c.history[0].best = Number.NaN), /history entry 0 must be generation 1's stats/],
      ['another generation', (c) => (c.history[0].generation = 1e308), /history entry 0 must be generation 1's/],
      ['a negative fitness', (c) => (c.population[0].fitness = -5), /fitness: lines \(a number not below 0\)/],
    ];
    for (const [what, damage, message] of damaged) {
      const c = JSON.parse(JSON.stringify(saved)) as Loose;
      damage(c);
      expect(() => checkCheckpoint(c), what).toThrow(
        expect.objectContaining({ code: 'BAD_HEADER', message: expect.stringMatching(message) }),
      );
    }
    expect(resumeConflict({ ...options, generations: 7, threads: 2 }, resume)).toBeNull();
    // The same values given again, and none given: both continue the run; generations defaults to the checkpoint's.
    const again = await trainWeights({ ...options, generations: 2, resume });
    expect(again.history.map((h) => h.generation)).toEqual([1, 2]);
    const bare = await trainWeights({ resume });
    expect(bare.history.map((h) => h.generation)).toEqual([1]);
    expect(bare.options).toEqual({ ...resolveTrainOptions({ ...options, generations: 1 }) });
  });

  it("a resume ends no earlier than its checkpoint; an event is the callback's own copy", async () => {
    let saved: TrainCheckpoint | undefined;
    const run = await trainWeights({
      ...SMALL,
      population: 4,
      gamesPerEval: 1,
      maxPieces: 200,
      generations: 2,
      onGeneration: (g) => {
        saved = g.checkpoint;
        g.bestWeights.fill(0);
      },
    });
    expect(run.history.every((h) => h.bestWeights.some((w) => w !== 0))).toBe(true);
    await expect(trainWeights({ generations: 1, resume: saved })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: 'generations is 1, fewer than the 2 the checkpoint completed; give 2 or more',
    });
    expect((await trainWeights({ generations: 2, resume: saved })).history).toHaveLength(2);
  });

  it('takes a feature set by name, as the CLI option --features does', () => {
    expect(resolveTrainOptions({ generations: 1, features: 'dellacherie' }).features).toEqual([
      ...FEATURE_SETS.dellacherie,
    ]);
    expect(resolveTrainOptions({ generations: 1, features: 'bcts' }).features).toEqual([...FEATURE_SETS.bcts]);
  });

  it('caps the default tournament at the population; an explicit one above it is refused', () => {
    expect(resolveTrainOptions({ generations: 1 }).tournament).toBe(TRAIN_DEFAULTS.tournament);
    for (const population of [4, 5, 7])
      expect(resolveTrainOptions({ generations: 1, population }).tournament).toBe(population);
    expect(resolveTrainOptions({ generations: 1, population: 9 }).tournament).toBe(TRAIN_DEFAULTS.tournament);
    expect(() => resolveTrainOptions({ generations: 1, population: 5, tournament: 6 })).toThrow(
      /tournament must be an integer from 2 to 5; got 6/,
    );
  });

  it('rejects bad options and bad checkpoints with typed errors', async () => {
    await expect(trainWeights({ generations: 0 })).rejects.toBeInstanceOf(StackRankError);
    await expect(trainWeights({ generations: 1, population: 10, tournament: 11 })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
    });
    await expect(trainWeights({ generations: 1, boardHeight: 40 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(trainWeights({ generations: 1, mutationRate: NaN })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    // Found by the fuzz suite: a features object that is not an array failed with a TypeError.
    for (const features of [{}, 'holes', 3]) {
      await expect(trainWeights({ generations: 1, features: features as never })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringContaining('features must be an array of feature names or a feature set (cs3243, '),
      });
    }
    expect(() => checkCheckpoint({ format: 'nope' })).toThrow(StackRankError);
  });

  /** Documented initial ranges (docs/fullboard.md, "Trainer"): [0, 20] for the features to maximise, else [−8, 2]. */
  const range = (f: string): [number, number] => (f === 'rowsCleared' || f === 'erodedPieceCells' ? [0, 20] : [-8, 2]);

  /**
   * One generation bred from a hand-made population whose fitness is already known (so no game is played): the
   * population the checkpoint after it holds.
   */
  async function bredFrom(weights: number[][], options: Parameters<typeof resolveTrainOptions>[0]) {
    const resolved = resolveTrainOptions({ ...options, population: weights.length, generations: 1 });
    const resume: TrainCheckpoint = {
      format: 'stackrank-ga',
      version: 1,
      options: resolved,
      generation: 0,
      population: weights.map((w, i) => ({ weights: w, fitness: i })),
      rng: new Rng(options.seed ?? 1).state(),
      history: [],
    };
    let bred: TrainCheckpoint | undefined;
    await trainWeights({ resume, generations: 1, onGeneration: (g) => (bred = g.checkpoint) });
    return bred!.population;
  }

  it('draws the initial weights uniformly from the documented ranges (mutationRate 0 keeps only initial values)', async () => {
    let saved: TrainCheckpoint | undefined;
    await trainWeights({
      ...SMALL,
      population: 100,
      elite: 0.9,
      mutationRate: 0,
      gamesPerEval: 1,
      maxPieces: 50,
      generations: 1,
      onGeneration: (g) => (saved = g.checkpoint),
    });
    const features = saved!.options.features;
    expect(features).toEqual([...FEATURE_SETS.bcts]);
    features.forEach((f, k) => {
      const [lo, hi] = range(f);
      const values = saved!.population.map((ind) => ind.weights[k]);
      for (const v of values) {
        expect(v, f).toBeGreaterThanOrEqual(lo);
        expect(v, f).toBeLessThan(hi);
      }
      // 90 elites of 100 uniform draws reach within 15 % of both ends (a miss has chance 0.85^90 ≈ 4e-7).
      expect(Math.min(...values), f).toBeLessThan(lo + 0.15 * (hi - lo));
      expect(Math.max(...values), f).toBeGreaterThan(hi - 0.15 * (hi - lo));
    });
  });

  it('mutates by a uniform amount up to ±25 % of the initial range (mutationRate 1)', async () => {
    // Parents 100 apart: each child weight comes from a parent's weight k plus its mutation, which is then known.
    const features = FEATURE_SETS.bcts;
    const parents = Array.from({ length: 24 }, (_, i) => features.map((_, k) => i * 100 + k));
    const children = await bredFrom(parents, { mutationRate: 1, elite: 0, crossover: 'uniform', seed: 3 });
    expect(children).toHaveLength(24);
    const largest = features.map(() => 0);
    for (const child of children) {
      child.weights.forEach((w, k) => {
        const from = Math.round((w - k) / 100) * 100 + k;
        const [lo, hi] = range(features[k]);
        const step = (w - from) / (hi - lo);
        expect(step).not.toBe(0);
        expect(Math.abs(step), features[k]).toBeLessThanOrEqual(0.25);
        largest[k] = Math.max(largest[k], Math.abs(step));
      });
    }
    // Each feature's largest step reaches 20 % of its own range (24 uniform steps miss it with chance 0.8^24 ≈ 0.5 %).
    for (const [k, m] of largest.entries()) expect(m, features[k]).toBeGreaterThan(0.2);
  });

  it('one-point crossover: each child is a prefix of one parent and the suffix of another', async () => {
    const features = FEATURE_SETS.bcts;
    const parents = Array.from({ length: 24 }, (_, i) => features.map((_, k) => i * 100 + k));
    const children = await bredFrom(parents, { mutationRate: 0, elite: 0, crossover: 'onePoint', seed: 4 });
    let mixed = 0;
    for (const child of children) {
      const from = child.weights.map((w, k) => (w - k) / 100);
      for (const i of from) expect(Number.isInteger(i) && i >= 0 && i < 24).toBe(true);
      const switches = from.filter((i, k) => k > 0 && i !== from[k - 1]).length;
      expect(switches, `child from parents ${from}`).toBeLessThanOrEqual(1);
      if (switches === 1) mixed++;
    }
    expect(mixed).toBeGreaterThan(5);
  });

  it('all candidates of a generation play the same games: equal weights get equal fitness', async () => {
    // Five distinct weight vectors: bcts with its i-th weight moved.
    const bcts = [-12.629, 6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087];
    const vectors = Array.from({ length: 5 }, (_, i) => bcts.map((w, k) => (k === i ? w + 5 : w)));
    const resolved = resolveTrainOptions({
      population: 10,
      elite: 0.9,
      gamesPerEval: 2,
      boardWidth: 6,
      boardHeight: 6,
      maxPieces: 3000,
      generations: 1,
    });
    const resume: TrainCheckpoint = {
      format: 'stackrank-ga',
      version: 1,
      options: resolved,
      generation: 0,
      // each vector twice, unevaluated
      population: [...vectors, ...vectors].map((w) => ({ weights: [...w], fitness: null })),
      rng: new Rng(6).state(),
      history: [],
    };
    let bred: TrainCheckpoint | undefined;
    await trainWeights({ resume, generations: 1, onGeneration: (g) => (bred = g.checkpoint) });
    const elites = bred!.population.filter((i) => i.fitness !== null);
    expect(elites).toHaveLength(9);
    const byWeights = new Map<string, number[]>();
    for (const e of elites)
      byWeights.set(JSON.stringify(e.weights), [...(byWeights.get(JSON.stringify(e.weights)) ?? []), e.fitness!]);
    let pairs = 0;
    for (const fitness of byWeights.values()) {
      if (fitness.length === 2) {
        expect(fitness[0]).toBe(fitness[1]);
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThanOrEqual(4);
    // The same weights on other games score differently, so equal fitness above means equal games.
    const games = await Promise.all(
      [11, 12, 13, 14].map(
        async (seed) =>
          (
            await playFullGame({
              weights: { features: resolved.features, weights: vectors[0] },
              seed,
              width: 6,
              height: 6,
              maxPieces: 3000,
            })
          ).lines,
      ),
    );
    expect(new Set(games).size).toBeGreaterThan(1);
  });
});
