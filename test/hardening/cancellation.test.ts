/**
 * Cancellation: every long call stops within about 100 ms of abort (measured here with a generous margin for a
 * loaded machine), whether or not it reports progress, and leaves no worker behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  StackingAI,
  TetrisAI,
  analyzeRandomizerAsync,
  benchGame,
  buildPreviewTable,
  buildRankTable,
  playFullGame,
  playFullGames,
  playGame,
  simulateStacking,
  trainWeights,
  type RankTable,
} from '../helpers/api.js';
import { MAX_ITERATIONS } from '../../src/rank/build.js';
import { liveWorkerCount } from '../../src/workers.js';

/**
 * How long after abort() was due (`after` ms from the start, or from the first `arm()` when `start` arms the clock
 * itself) the call settled, and with what. Measured from when the abort was due, not from when its timer ran: a
 * call that keeps the event loop busy delays the timer (and Ctrl-C's handler) just as it delays its own look at the
 * signal, and that wait is part of the latency.
 */
async function abortAfter(
  after: number,
  start: (signal: AbortSignal, arm: () => void) => Promise<unknown>,
  armAtStart = true,
): Promise<{ late: number; error: unknown }> {
  const controller = new AbortController();
  let due = Number.POSITIVE_INFINITY;
  const arm = () => {
    if (due !== Number.POSITIVE_INFINITY) return;
    due = performance.now() + after;
    setTimeout(() => controller.abort(), after);
  };
  if (armAtStart) arm();
  const error = await start(controller.signal, arm).then(
    () => 'finished',
    (e) => e,
  );
  return { late: performance.now() - due, error };
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

/** Training that would take hours: 50 generations of games of up to 10 million pieces. */
const LONG_TRAINING = { generations: 50, population: 8, tournament: 4, gamesPerEval: 2, maxPieces: 1e7 };

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
      trainWeights({ ...LONG_TRAINING, boardHeight: 20, threads: 1, signal }),
    );
    expect(error).toEqual(aborted);
    expect(late).toBeLessThan(LATE);
  });

  it('threaded trainWeights, mid-generation', async () => {
    const { late, error } = await abortAfter(300, (signal) =>
      trainWeights({ ...LONG_TRAINING, boardHeight: 20, threads: 2, signal }),
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

/**
 * The latency of every long call after abort(), on one thread and on two (issue 50): each call is started with work
 * that would take far longer than the test (minutes to hours), aborted after ABORT_AFTER ms, and timed until it
 * rejects. The table is printed (docs/errors.md quotes it); the bound asserted is LATE, loose for a shared machine.
 */
describe('abort latency of each long call, one thread and two (issue 50)', () => {
  const ABORT_AFTER = 300;
  const measured: [string, number][] = [];
  let table9: RankTable;
  let table6: RankTable;
  beforeAll(async () => {
    table9 = await buildRankTable({ width: 9, maxStep: 3, iterations: 2, threads: 1 });
    table6 = await buildRankTable({ width: 6, maxStep: 2, iterations: 4, threads: 1 });
    // Made once here, so the games below are measured playing rather than setting up their search.
    await TetrisAI.create({ rules: 'classic', table: table9 });
  }, 120_000);
  afterAll(() => {
    console.log(`abort latency (abort after ${ABORT_AFTER} ms; ms from when abort() was due to the rejection):`);
    for (const [name, late] of measured) console.log(`  ${late.toFixed(0).padStart(5)} ms  ${name}`);
  });

  // The games' cases start the clock at their first finished game (onGame), once the AI is set up: a setup is
  // sliced and stops at once; what is measured is the games themselves.
  const cases: [string, (signal: AbortSignal, threads: number, arm: () => void) => Promise<unknown>][] = [
    [
      'buildRankTable 9x4, 1000 iterations',
      (signal, threads) => buildRankTable({ width: 9, maxStep: 4, iterations: 1000, threads, signal }),
    ],
    [
      'buildPreviewTable estimating 2e8 pieces',
      (signal, threads) =>
        buildPreviewTable({ width: 4, maxStep: 1, iterations: 2, threads, randomizer: 'tgm3', samples: 2e8, signal }),
    ],
    [
      'simulateStacking, a budget of 1e9 pieces',
      (signal, threads) => simulateStacking({ table: table6, lookahead: 1, games: 4, maxPieces: 1e9, threads, signal }),
    ],
    ['trainWeights, 50 generations', (signal, threads) => trainWeights({ ...LONG_TRAINING, threads, signal })],
    [
      'playGame, 2 games of 1e7 pieces',
      (signal, threads) => playGame({ rules: 'classic', games: 2, maxPieces: 1e7, threads, table: table9, signal }),
    ],
    [
      'playGame, 100,000 games of 5 pieces',
      (signal, threads, arm) =>
        playGame({ rules: 'classic', games: 100_000, maxPieces: 5, threads, table: table9, signal, onGame: arm }),
    ],
    [
      'benchGame, 100,000 games of 5 pieces',
      (signal, threads, arm) =>
        benchGame({
          ...{ rules: 'classic', lookahead: 1, games: 100_000, maxPieces: 5, threads, table: table9, signal },
          onGame: arm,
        }),
    ],
  ];
  for (const [name, start] of cases)
    for (const threads of [1, 2])
      it(`${name}, ${threads} thread${threads > 1 ? 's' : ''}`, async () => {
        const playsGames = name.includes('games of 5 pieces');
        const { late, error } = await abortAfter(
          ABORT_AFTER,
          (signal, arm) => start(signal, threads, arm),
          !playsGames,
        );
        measured.push([`${name}, ${threads} thread${threads > 1 ? 's' : ''}`, late]);
        expect(error).toEqual(aborted);
        expect(late).toBeLessThan(LATE);
        expect(await workersGone()).toBe(0);
      }, 120_000);

  // Calls without a thread count.
  const single: [string, (signal: AbortSignal) => Promise<unknown>][] = [
    ['playFullGame, 2e7 pieces', (signal) => playFullGame({ weights: 'bcts', maxPieces: 2e7, seed: 1, signal })],
    ['playFullGames, 1,000 games of 1e7 pieces', (signal) => playFullGames({ games: 1000, maxPieces: 1e7, signal })],
    ['analyzeRandomizerAsync, 1e9 pieces', (signal) => analyzeRandomizerAsync('tgm3', { pieces: 1e9, signal })],
  ];
  for (const [name, start] of single)
    it(name, async () => {
      const { late, error } = await abortAfter(ABORT_AFTER, start);
      measured.push([name, late]);
      expect(error).toEqual(aborted);
      expect(late).toBeLessThan(LATE);
    });
});
