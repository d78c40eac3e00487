/**
 * Setups do not block, report their progress and stop when aborted (docs/errors.md, "What cancellation promises"),
 * on small setups that run in seconds: the event-loop lag harness of bench/setup-lag.ts (bench/lag.ts) watches each
 * one and the figures are printed. The bounds are generous on purpose (a loaded 2-core machine stalls any process
 * now and then); bench/setup-lag.ts measures the full-size setups. Each setup here is one the process has not run
 * before (moves, reach records and search memory are kept once per process).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { measureAbort, measureLag } from '../bench/lag.js';
import { type SetupProgress, StackingAI, TetrisAI, buildRankTable } from '../src/index.js';
import { liveWorkerCount } from '../src/workers.js';

/** Generous: a stall this long is a setup's synchronous stretch, not the machine's load. */
const STALL_BOUND_MS = 1000;
/** An abort must be seen within this (the library aims at 100 ms; docs/errors.md). */
const ABORT_BOUND_MS = 1000;

let cache: string;
const saved = process.env.XDG_CACHE_HOME;
beforeAll(() => {
  cache = mkdtempSync(join(tmpdir(), 'stackrank-setup-lag-'));
  // StackingAI's reach records go to the cache folder of the process's environment.
  process.env.XDG_CACHE_HOME = cache;
});
afterAll(() => {
  process.env.XDG_CACHE_HOME = saved;
  rmSync(cache, { recursive: true, force: true });
});

const print = (what: string, m: { readyMs: number; longestStallMs: number; longestBusyStallMs: number }) =>
  console.log(
    `${what}: ready in ${m.readyMs.toFixed(0)} ms, longest event-loop stall ${m.longestStallMs.toFixed(0)} ms (${m.longestBusyStallMs.toFixed(0)} ms of it this thread's CPU)`,
  );

describe('setups do not block the event loop', () => {
  it('the 20G table build (its moves derived at 7 columns), in slices', async () => {
    const m = await measureLag(() =>
      buildRankTable({ width: 7, maxStep: 4, iterations: 3, gravity: '20G', threads: 2 }),
    );
    print('buildRankTable 7x4 20G', m);
    expect(m.longestBusyStallMs).toBeLessThan(STALL_BOUND_MS);
  }, 60_000);

  it('a tgm20g TetrisAI (the well window at 6 columns) and a tgm20g StackingAI (its reach records), with their progress', async () => {
    const table20 = await buildRankTable({ width: 6, maxStep: 4, iterations: 3, gravity: '20G', threads: 1 });
    const events: SetupProgress[] = [];
    const ai = await measureLag(() =>
      TetrisAI.create({ rules: 'tgm20g', table: table20, onProgress: (p) => events.push(p) }),
    );
    print('TetrisAI tgm20g, 6 columns', ai);
    expect(ai.longestBusyStallMs).toBeLessThan(STALL_BOUND_MS);
    expect(events.map((e) => e.stage)).toContain('reach');
    expect(events.at(-1)).toMatchObject({ stage: 'ready', fraction: 1 });
    expect(events.every((e, i) => i === 0 || e.elapsedMs >= events[i - 1].elapsedMs)).toBe(true);

    const article = await buildRankTable({ width: 6, maxStep: 4, iterations: 3, threads: 1 });
    const stackingEvents: SetupProgress[] = [];
    const stacking = await measureLag(() =>
      StackingAI.create({ rules: 'tgm20g', table: article, onProgress: (p) => stackingEvents.push(p) }),
    );
    print('StackingAI tgm20g, 6 columns (reach records derived and written)', stacking);
    expect(stacking.longestBusyStallMs).toBeLessThan(STALL_BOUND_MS);
    // The records are written to the cache folder, and the write is said: its file and size.
    const writes = stackingEvents.filter((e) => e.stage === 'write' && e.fraction === 1);
    expect(writes).toHaveLength(1);
    expect(writes[0].path).toMatch(new RegExp(`^${cache}/stackrank/reach-tgm20g-.*\\.srr$`));
    expect(writes[0].bytes).toBeGreaterThan(64);
    expect(stackingEvents.at(-1)?.stage).toBe('ready');
  }, 120_000);
});

describe('setups stop soon after an abort', () => {
  it('each setup rejects with ABORTED soon after the abort, and its work stops', async () => {
    const table20 = await buildRankTable({ width: 7, maxStep: 4, iterations: 2, gravity: '20G', threads: 1 });
    const article7 = await buildRankTable({ width: 7, maxStep: 4, iterations: 2, threads: 1 });
    const setups: [string, (signal: AbortSignal) => Promise<unknown>][] = [
      // A width whose 20G moves this process has not derived: the abort lands in the derivation.
      ['buildRankTable 8x4 20G', (signal) => buildRankTable({ width: 8, maxStep: 4, gravity: '20G', signal })],
      ['buildRankTable 9x4', (signal) => buildRankTable({ threads: 2, signal })],
      ['TetrisAI tgm20g, 7 columns', (signal) => TetrisAI.create({ rules: 'tgm20g', table: table20, signal })],
      ['StackingAI tgm20g, 7 columns', (signal) => StackingAI.create({ rules: 'tgm20g', table: article7, signal })],
    ];
    for (const [what, run] of setups) {
      const m = await measureAbort(run, 10);
      console.log(
        `${what}: aborted 10 ms in -> ${m.outcome} ${m.stopMs?.toFixed(0)} ms after the abort was due; then ${m.cpuAfterMs?.toFixed(0)} ms of CPU in ${m.afterMs} ms`,
      );
      expect(m.outcome).toBe('ABORTED');
      expect(m.stopMs).toBeLessThan(ABORT_BOUND_MS);
    }
    await vi.waitFor(() => expect(liveWorkerCount()).toBe(0));
  }, 120_000);
});
