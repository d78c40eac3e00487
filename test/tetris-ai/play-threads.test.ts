import { beforeAll, describe, expect, it } from 'vitest';
import { playGame } from '../../src/tetris-ai/play.js';
import type { PlayGameResult } from '../../src/tetris-ai/game-results.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { liveWorkerCount } from '../../src/kernels/pool.js';
import { refused } from '../helpers/refused.js';

// A small table (7 columns: an 8-wide board) keeps the search image small; the tests check the plumbing.
let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 7, iterations: 3, threads: 1 });
}, 120_000);

/** The figures a run reports, without its timing and thread count. */
function played({ seconds, piecesPerSecond, cpuSeconds, piecesPerCpuSecond, threads, ...rest }: PlayGameResult) {
  return (void seconds, void piecesPerSecond, void cpuSeconds, void piecesPerCpuSecond, void threads, rest);
}

const RUN = { rules: 'classic', randomizer: 'tgm1', lookahead: 1, maxPieces: 250, seed: 3 } as const;

describe('playGame on worker threads', () => {
  it('plays the same games on 1 and 2 threads', async () => {
    const one = await playGame({ ...RUN, games: 4, table, threads: 1 });
    const two = await playGame({ ...RUN, games: 4, table, threads: 2 });
    expect(one.threads).toBe(1);
    expect(two.threads).toBe(2);
    expect(played(two)).toEqual(played(one));
    // Both modes played, so both searches ran on the workers.
    expect(one.stackShare).toBeGreaterThan(0);
    expect(one.stackShare).toBeLessThan(1);
    expect(liveWorkerCount()).toBe(0);
  }, 60_000);

  it('plays the same games under guideline rules with hold and 3 previews', async () => {
    const run = { rules: 'guideline', randomizer: 'bag7', lookahead: 3, hold: true, maxPieces: 120, seed: 8 } as const;
    const one = await playGame({ ...run, games: 3, table, threads: 1 });
    const two = await playGame({ ...run, games: 3, table, threads: 2 });
    expect(played(two)).toEqual(played(one));
  }, 60_000);

  it('plays the same games on 1 and 2 threads with a stackRoom given (the workers search under its limit)', async () => {
    const run = { rules: 'nes', randomizer: 'nes', lookahead: 1, maxPieces: 250, seed: 4, stackRoom: 11 } as const;
    const one = await playGame({ ...run, games: 3, table, threads: 1 });
    const two = await playGame({ ...run, games: 3, table, threads: 2 });
    expect(played(two)).toEqual(played(one));
    const byDefault = await playGame({ ...run, stackRoom: undefined, games: 3, table, threads: 2 });
    expect(played(byDefault)).not.toEqual(played(one));
  }, 60_000);

  it('plays the same games on 1 and 2 threads with no preview (the workers read ranks where no piece is known)', async () => {
    // With lookahead 0, smaller clears and moves after an unreachable first choice are scored by the surface's rank
    // on the TypeScript side: the workers read it from the shared image, which held no ranks under expectimax.
    const run = { rules: 'nes', randomizer: 'nes', lookahead: 0, maxPieces: 400, seed: 3 } as const;
    const one = await playGame({ ...run, games: 3, table, threads: 1 });
    const two = await playGame({ ...run, games: 3, table, threads: 2 });
    expect(played(two)).toEqual(played(one));
  }, 60_000);

  it('a range of game indices plays exactly those games of the whole run', async () => {
    const whole = await playGame({ ...RUN, games: 5, table, threads: 2 });
    const head = await playGame({ ...RUN, games: 2, firstGame: 0, table, threads: 1 });
    const tail = await playGame({ ...RUN, games: 3, firstGame: 2, table, threads: 2 });
    expect(tail.firstGame).toBe(2);
    expect([...head.gamePieces, ...tail.gamePieces]).toEqual(whole.gamePieces);
    expect([...head.gameStackPieces, ...tail.gameStackPieces]).toEqual(whole.gameStackPieces);
    expect([...head.gameHolesMade, ...tail.gameHolesMade]).toEqual(whole.gameHolesMade);
    expect(head.lines + tail.lines).toBe(whole.lines);
    expect(head.clears.tetris + tail.clears.tetris).toBe(whole.clears.tetris);
    expect(head.topOuts + tail.topOuts).toBe(whole.topOuts);
  }, 60_000);

  it('an abort stops the workers and leaves none running', async () => {
    const controller = new AbortController();
    let reports = 0;
    const run = playGame({
      ...RUN,
      maxPieces: 1_000_000,
      games: 2,
      table,
      threads: 2,
      signal: controller.signal,
      onProgress: (p) => {
        reports++;
        expect(p.pieces).toBeGreaterThanOrEqual(0);
        if (p.pieces > 0) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    expect(reports).toBeGreaterThan(0);
    expect(liveWorkerCount()).toBe(0);
  }, 60_000);

  it("a worker's error reaches the caller with its code, and no worker is left", async () => {
    // Each worker makes its own AI, so an option only TetrisAI.create checks fails inside the workers.
    await expect(playGame({ ...RUN, games: 2, table, threads: 2, recover: { depth: 99 } })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /^recover\.depth/,
    });
    expect(liveWorkerCount()).toBe(0);
  }, 60_000);

  it('an onProgress that throws fails the run with its error, and no worker is left', async () => {
    const run = playGame({
      ...RUN,
      games: 2,
      table,
      threads: 2,
      onProgress: () => {
        throw new Error('progress bar broke');
      },
    });
    await expect(run).rejects.toThrow('progress bar broke');
    expect(liveWorkerCount()).toBe(0);
  }, 60_000);

  it('refuses bad thread counts and an ai with threads > 1', async () => {
    const refusedArgument = (message: RegExp) => refused('BAD_ARGUMENT', message);
    await expect(playGame({ ...RUN, table, threads: 0 })).rejects.toMatchObject(
      refusedArgument(/^threads must be an integer from 1 to \d+; got 0$/),
    );
    await expect(playGame({ ...RUN, table, threads: 1.5 })).rejects.toMatchObject(
      refusedArgument(/^threads must be an integer from 1 to \d+; got 1\.5$/),
    );
    await expect(playGame({ ...RUN, table, firstGame: -1 })).rejects.toMatchObject(
      refusedArgument(/^firstGame must be an integer from 0 to \d+; got -1$/),
    );
    const { TetrisAI } = await import('../../src/tetris-ai/ai.js');
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table });
    await expect(playGame({ ...RUN, ai, threads: 2 })).rejects.toMatchObject(
      refusedArgument(/^an ai runs on this thread only: with threads > 1 pass the table/),
    );
    await expect(playGame({ ...RUN, table, threads: 2, onProgress: 5 as never })).rejects.toMatchObject(
      refusedArgument(/^onProgress must be a function; got 5$/),
    );
    expect(liveWorkerCount()).toBe(0);
  }, 60_000);
});
