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
    expect(resumeConflict({ ...options, generations: 7, threads: 2 }, resume)).toBeNull();
    // The same values given again, and none given: both continue the run; generations defaults to the checkpoint's.
    const again = await trainWeights({ ...options, generations: 2, resume });
    expect(again.history.map((h) => h.generation)).toEqual([1, 2]);
    const bare = await trainWeights({ resume });
    expect(bare.history.map((h) => h.generation)).toEqual([1]);
    expect(bare.options).toEqual({ ...resolveTrainOptions({ ...options, generations: 1 }) });
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
});
