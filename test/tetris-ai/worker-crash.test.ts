/**
 * A crash of createWorkerTetrisAI's worker (docs/browser.md: "a crash of the worker is WORKER_FAILED for every call
 * under way and after"). The worker is a real one; Node's worker_threads is wrapped (as test/hardening/
 * worker-failure.test.ts replaces it) only to keep hold of it, so the test can make it fail as an uncaught error in
 * a worker thread does: an 'error' event, then its exit.
 */
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { liveWorkerCount } from '../../src/kernels/pool.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { createWorkerTetrisAI } from '../../src/worker.js';

const started = vi.hoisted(() => [] as Worker[]);

// The library takes Node's modules through src/node-builtins.ts; its worker_threads' Worker is wrapped here.
vi.mock('../../src/node-builtins.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/node-builtins.js')>();
  const threads = await vi.importActual<typeof import('node:worker_threads')>('node:worker_threads');
  class KeptWorker extends threads.Worker {
    constructor(...args: ConstructorParameters<typeof threads.Worker>) {
      super(...args);
      started.push(this);
    }
  }
  const nodeBuiltin: typeof actual.nodeBuiltin = (name, needs) =>
    (name === 'worker_threads' ? { ...threads, Worker: KeptWorker } : actual.nodeBuiltin(name, needs)) as ReturnType<
      typeof actual.nodeBuiltin<typeof name>
    >;
  return { ...actual, nodeBuiltin };
});

let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);
afterAll(async () => {
  await vi.waitFor(() => expect(liveWorkerCount()).toBe(0), { timeout: 10_000 });
});

const empty = { board: { width: 10, rows: [] as number[] }, current: 'T', queue: 'SZ' };
const failed = {
  name: 'StackRankError',
  code: 'WORKER_FAILED',
  message: expect.stringMatching(/^the AI's worker failed: out of cheese$/),
};

describe('a crash of the AI’s worker', () => {
  it('rejects the calls under way and every later call with WORKER_FAILED, and leaves no worker', async () => {
    const remote = await createWorkerTetrisAI({ rules: 'guideline', lookahead: 1, table });
    expect(started).toHaveLength(1);
    // The worker answers until it crashes.
    expect((await remote.nextMove(empty))?.cells).toHaveLength(4);
    const game = await remote.newGame();
    const pending = [remote.nextMove(empty), remote.rankPlacements(empty), game.nextMove(empty)];
    // Asked and not yet answered (answers come as messages, after this task): the worker fails.
    started[0].emit('error', new Error('out of cheese'));
    for (const call of pending) await expect(call).rejects.toMatchObject(failed);
    await expect(remote.nextMove(empty)).rejects.toMatchObject(failed);
    await expect(remote.newGame()).rejects.toMatchObject(failed);
    await expect(game.nextMove(empty)).rejects.toMatchObject(failed);
    // The failed worker was stopped.
    await vi.waitFor(() => expect(liveWorkerCount()).toBe(0), { timeout: 10_000 });
    // dispose after a crash changes nothing: still WORKER_FAILED.
    remote.dispose();
    await expect(remote.nextMove(empty)).rejects.toMatchObject(failed);
  }, 60_000);
});
