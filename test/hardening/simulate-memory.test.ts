/**
 * Kernel memory for many simulator threads: with two unknown pieces each thread's slot used to hold a 16 MB chance
 * buffer, and 82 threads (the default on an 82-core machine) ran the kernel's allocator out of memory with a
 * WebAssembly trap ("RuntimeError: unreachable"). The slots must fit, or the call must say how many threads do.
 * Starting hundreds of real workers is not needed to check that: the pool is replaced by one that records its size.
 */
import { describe, expect, it, vi } from 'vitest';

const poolSizes: number[] = [];
vi.mock('../../src/kernels/pool.js', async () => {
  const actual = await vi.importActual<typeof import('../../src/kernels/pool.js')>('../../src/kernels/pool.js');
  const { StackRankError } = await vi.importActual<typeof import('../../src/errors.js')>('../../src/errors.js');
  return {
    ...actual,
    KernelPool: {
      create: async (_module: unknown, _memory: unknown, threads: number) => {
        poolSizes.push(threads);
        throw new StackRankError('WORKER_FAILED', 'stand-in pool: slots were allocated');
      },
    },
  };
});

describe('simulator slots for many threads (defect 6)', () => {
  it('expectimax over 2 unknown pieces with 256 threads allocates its slots (no trap) and reaches the pool', async () => {
    const { buildRankTable, simulateStacking } = await import('../helpers/api.js');
    const table = await buildRankTable({ width: 4, maxStep: 1, iterations: 2, threads: 1 });
    for (const threads of [82, 256]) {
      const error = await simulateStacking({
        table,
        lookahead: 0,
        strategy: 'expectimax',
        unknownPieces: 2,
        threads,
        games: threads,
      }).catch((e) => e);
      expect(error).toMatchObject({
        name: 'StackRankError',
        code: 'WORKER_FAILED',
        message: 'stand-in pool: slots were allocated',
      });
    }
    expect(poolSizes).toEqual([82, 256]);
  });
});
