/**
 * Cancellation: every long call stops within about 100 ms of abort (measured here with a generous margin for a
 * loaded machine), whether or not it reports progress, and leaves no worker behind.
 */
import { describe, expect, it } from 'vitest';
import {
  StackingAI,
  TetrisAI,
  buildPreviewTable,
  buildRankTable,
  playFullGame,
  playGame,
  simulateStacking,
  trainWeights,
} from '../helpers/api.js';
import { MAX_ITERATIONS } from '../../src/rank/build.js';
import { liveWorkerCount } from '../../src/kernels/pool.js';

/** How long after abort() (fired at `after` ms) the call settled, and with what. */
async function abortAfter(
  after: number,
  start: (signal: AbortSignal) => Promise<unknown>,
): Promise<{ late: number; error: unknown }> {
  const controller = new AbortController();
  let abortedAt = 0;
  setTimeout(() => {
    abortedAt = performance.now();
    controller.abort();
  }, after);
  const error = await start(controller.signal).then(
    () => 'finished',
    (e) => e,
  );
  return { late: performance.now() - abortedAt, error };
}

const aborted = expect.objectContaining({ name: 'StackRankError', code: 'ABORTED' });
/**
 * About 100 ms is promised (docs/errors.md). The bound is looser so a loaded CI machine does not fail it, yet
 * far below what each job would take if the abort were ignored (seconds to hours).
 */
const LATE = 1000;

async function workersGone(): Promise<number> {
  for (let i = 0; i < 100 && liveWorkerCount() > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return liveWorkerCount();
}

describe('abort is honoured promptly (defect 8)', () => {
  it('playFullGame without onProgress', async () => {
    const { late, error } = await abortAfter(150, (signal) =>
      playFullGame({ weights: 'bcts', maxPieces: 2e7, seed: 1, signal }),
    );
    expect(error).toEqual(aborted);
    expect(late).toBeLessThan(LATE);
  });

  it('single-threaded trainWeights', async () => {
    const { late, error } = await abortAfter(150, (signal) =>
      trainWeights({
        generations: 50,
        population: 8,
        tournament: 4,
        gamesPerEval: 2,
        maxPieces: 1e7,
        boardHeight: 20,
        threads: 1,
        signal,
      }),
    );
    expect(error).toEqual(aborted);
    expect(late).toBeLessThan(LATE);
  });

  it('threaded trainWeights, mid-generation', async () => {
    const { late, error } = await abortAfter(300, (signal) =>
      trainWeights({
        generations: 50,
        population: 8,
        tournament: 4,
        gamesPerEval: 2,
        maxPieces: 1e7,
        boardHeight: 20,
        threads: 2,
        signal,
      }),
    );
    expect(error).toEqual(aborted);
    expect(late).toBeLessThan(LATE);
    expect(await workersGone()).toBe(0);
  });

  it('buildPreviewTable while it estimates its piece model', async () => {
    const { late, error } = await abortAfter(100, (signal) =>
      buildPreviewTable({ width: 4, maxStep: 1, iterations: 2, threads: 1, randomizer: 'tgm3', samples: 2e8, signal }),
    );
    expect(error).toEqual(aborted);
    expect(late).toBeLessThan(LATE);
  });

  it("TetrisAI.create and playGame on 2 threads, while they lay out the search's tables", async () => {
    // A table of the full 9-column size (few iterations: quick to build) that no AI has used yet, so the setup
    // computes the search's best rank per piece over all its surfaces (about a second; 1 to 2 s if not watched).
    const fresh = () => buildRankTable({ width: 9, maxStep: 4, iterations: 2, threads: 2 });
    const first = await fresh();
    const created = await abortAfter(50, (signal) =>
      TetrisAI.create({ rules: 'classic', randomizer: 'tgm1', table: first, signal }),
    );
    expect(created.error).toEqual(aborted);
    expect(created.late).toBeLessThan(LATE);
    const surfaceAI = await abortAfter(50, (signal) =>
      StackingAI.create({ strategy: 'expectimax', table: first, signal }),
    );
    expect(surfaceAI.error).toEqual(aborted);
    expect(surfaceAI.late).toBeLessThan(LATE);
    const table = await fresh();
    const played = await abortAfter(50, (signal) =>
      playGame({ rules: 'classic', randomizer: 'tgm1', games: 2, maxPieces: 1e7, threads: 2, table, signal }),
    );
    expect(played.error).toEqual(aborted);
    expect(played.late).toBeLessThan(LATE);
    expect(await workersGone()).toBe(0);
  }, 60_000);

  it('buildRankTable and simulateStacking on one thread', async () => {
    // The most iterations allowed (about a minute), so the build cannot finish before the abort (15 take about 1 s).
    const slow = await abortAfter(100, (signal) =>
      buildRankTable({ width: 9, maxStep: 4, iterations: MAX_ITERATIONS, threads: 1, signal }),
    );
    expect(slow.error).toEqual(aborted);
    expect(slow.late).toBeLessThan(LATE);
    const table = await buildRankTable({ width: 6, maxStep: 2, iterations: 4, threads: 1 });
    const sim = await abortAfter(150, (signal) =>
      simulateStacking({ table, lookahead: 1, games: 4, maxPieces: 1e9, threads: 1, signal }),
    );
    expect(sim.error).toEqual(aborted);
    expect(sim.late).toBeLessThan(LATE);
  });
});
