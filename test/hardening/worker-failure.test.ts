/**
 * A worker that dies while starting (here: a stand-in for node:worker_threads whose workers fail the way a
 * CommonJS worker does under --input-type=module) makes the call reject with WORKER_FAILED and the reason,
 * instead of leaving its promise pending until the process exits with code 13.
 */
import { describe, expect, it, vi } from 'vitest';

// The library takes Node's modules through src/node-builtins.ts; its worker_threads is replaced here.
vi.mock('../../src/node-builtins.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/node-builtins.js')>();
  const { EventEmitter } = await vi.importActual<typeof import('node:events')>('node:events');
  class FailingWorker extends EventEmitter {
    constructor() {
      super();
      // After the pool has been made and sent its init messages: the case that used to hang.
      setTimeout(() => {
        this.emit('error', new ReferenceError('require is not defined in ES module scope'));
        this.emit('exit', 1);
      }, 30);
    }
    postMessage(): void {}
    terminate(): Promise<number> {
      return Promise.resolve(1);
    }
  }
  const nodeBuiltin: typeof actual.nodeBuiltin = (name, needs) =>
    (name === 'worker_threads' ? { Worker: FailingWorker } : actual.nodeBuiltin(name, needs)) as ReturnType<
      typeof actual.nodeBuiltin<typeof name>
    >;
  return { ...actual, nodeBuiltin };
});

describe('a worker that cannot start (defect 2)', () => {
  it('rejects buildRankTable with WORKER_FAILED and the reason', async () => {
    const { buildRankTable } = await import('../helpers/api.js');
    const error = await buildRankTable({ width: 4, maxStep: 1, iterations: 2, threads: 2 }).catch((e) => e);
    expect(error).toMatchObject({ name: 'StackRankError', code: 'WORKER_FAILED' });
    expect(error.message).toMatch(/require is not defined/);
  });

  it('rejects simulateStacking and trainWeights the same way', async () => {
    const { buildRankTable, simulateStacking, trainWeights } = await import('../helpers/api.js');
    const table = await buildRankTable({ width: 4, maxStep: 1, iterations: 2, threads: 1 });
    await expect(simulateStacking({ table, lookahead: 0, games: 2, threads: 2 })).rejects.toMatchObject({
      code: 'WORKER_FAILED',
    });
    await expect(trainWeights({ generations: 1, population: 8, threads: 2, maxPieces: 10 })).rejects.toMatchObject({
      code: 'WORKER_FAILED',
    });
  });
});
