import { expect } from 'vitest';
import type { BuildOptions, BuildProgress } from '../../src/rank/build.js';

/**
 * What every table build must do with its progress and its signal: a 3-iteration build of width 6 on 2 threads
 * reports iterations 0 to 3, each with its fraction and an estimate of the time left from the first iteration on
 * (none before it, 0 at the end), and its plan's progress ending at 1; a width-9 build aborted from its progress on
 * 1 and 2 threads rejects with ABORTED.
 */
export async function expectProgressAndCancel(build: (options: BuildOptions) => Promise<unknown>): Promise<void> {
  const seen: BuildProgress[] = [];
  const planned: number[] = [];
  await build({
    width: 6,
    iterations: 3,
    threads: 2,
    onProgress: (p) => (p.planned === undefined ? seen.push(p) : planned.push(p.planned)),
  });
  expect(seen.map((p) => [p.iteration, p.iterations, p.fraction])).toEqual([0, 1, 2, 3].map((i) => [i, 3, i / 3]));
  expect(seen[0]!.etaMs).toBeNull();
  for (const p of seen.slice(1)) expect(p.etaMs).toBeGreaterThanOrEqual(0);
  expect(seen[3]!.etaMs).toBe(0);
  // The plan's progress comes first (one event per slice of its making, none on a fast machine), ending at 1.
  expect(planned.at(-1)).toBe(1);
  for (const threads of [1, 2]) {
    const controller = new AbortController();
    const aborted = build({
      width: 9,
      iterations: 15,
      threads,
      signal: controller.signal,
      onProgress: (p) => p.iteration >= 0.1 && controller.abort(),
    });
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
  }
}
