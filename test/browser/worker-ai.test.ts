/**
 * createWorkerTetrisAI in Chromium: a page bundled by Vite from the library's source (test/browser/worker-page/)
 * makes its AI in a Web Worker with the small table, which the worker builds and stores in IndexedDB; a new page in
 * the same browser profile then loads it from IndexedDB. Each prints its first move's time (ms since the page's
 * navigation began); bench/browser-first-move.ts measures them over several rounds. A damaged entry is built again;
 * table 'smallFirst' plays the small table until the default one is built, stored and swapped in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../src/cli/demo-server.js';
import { type Browser, launch, skipWithoutChromium } from './chromium.js';
import { bundleWorkerPage, runWorkerPage } from './worker-page.js';

const skip = skipWithoutChromium('browser worker AI test');
const SMALL_ENTRY = 'rank-article-w9-s3-i15.srk';
const DEFAULT_ENTRY = 'rank-article-w9-s4-i15.srk';

describe.skipIf(skip)('createWorkerTetrisAI in Chromium (a Web Worker, tables in IndexedDB)', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startDemoServer>>;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stackrank-worker-page-'));
    await bundleWorkerPage(join(dir, 'site'));
    // The demo server, for its cross-origin isolation headers (the worker builds on threads); an empty cache.
    server = await startDemoServer({ port: 0, dir: join(dir, 'site'), env: { XDG_CACHE_HOME: join(dir, 'cache') } });
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a cold page builds the table in the worker and stores it; the next page loads it from IndexedDB', async () => {
    const cold = await runWorkerPage(browser.context, `${server.url}?table=small`);
    const cached = await runWorkerPage(browser.context, `${server.url}?table=small`);
    for (const [what, r] of [
      ['cold page', cold],
      ['cached page', cached],
    ] as const)
      console.log(
        `${what}: first move ${r.marks.firstMove.toFixed(0)} ms after navigation (AI ready ${r.marks.ready.toFixed(0)} ms, page script ${r.marks.script.toFixed(0)} ms); the page's thread was busy at most ${r.longestPageStallMs.toFixed(0)} ms at a time`,
      );
    expect(cold.isolated).toBe(true);
    for (const r of [cold, cached]) {
      expect(r.move).toMatchObject({ piece: 'T' });
      expect(r.secondMove).toMatchObject({ piece: expect.stringMatching(/^[IOT]$/) });
      expect(r.events.at(-1)).toMatchObject({ stage: 'ready', fraction: 1 });
      // The page's thread only waits (a generous bound: headless Chromium on a loaded machine).
      expect(r.longestPageStallMs).toBeLessThan(1000);
    }
    // Cold: built in the worker, then written to IndexedDB, the write said with its place and size.
    const stages = (r: typeof cold) => new Set(r.events.map((e) => e.stage));
    expect(stages(cold)).toEqual(new Set(['build', 'plan', 'write', 'search', 'ready']));
    const written = cold.events.find((e) => e.stage === 'write' && e.fraction === 1);
    expect(written).toMatchObject({ path: `indexeddb:stackrank/files/${SMALL_ENTRY}` });
    expect(written?.bytes).toBeGreaterThan(5_000_000);
    // Cached: read back from IndexedDB, nothing built or written.
    expect(stages(cached)).toEqual(new Set(['load', 'search', 'ready']));
    // The entry's place and size as it is found, and again once it is read and checked.
    expect(cached.events.filter((e) => e.stage === 'load')).toEqual([
      expect.objectContaining({ fraction: 0, path: written?.path, bytes: written?.bytes }),
      expect.objectContaining({ fraction: 1, path: written?.path, bytes: written?.bytes }),
    ]);
    // The same table plays the same moves.
    expect(cached.move).toEqual(cold.move);
    expect(cached.secondMove).toEqual(cold.secondMove);
    // Its table is the small one from first to last.
    for (const r of [cold, cached])
      expect(r.tables).toEqual({ atReady: 'small', final: { table: 'small' }, afterFinal: 'small' });

    // A damaged entry is not trusted: read, refused (its checksum), built again and replaced.
    const damaged = await runWorkerPage(browser.context, `${server.url}?table=small&damage=${SMALL_ENTRY}`);
    expect(damaged.events.filter((e) => e.stage === 'load')).toEqual([
      expect.objectContaining({ stage: 'load', fraction: 0, path: written?.path, bytes: written?.bytes }),
    ]);
    expect(stages(damaged)).toEqual(new Set(['load', 'plan', 'build', 'write', 'search', 'ready']));
    expect(damaged.move).toEqual(cold.move);
    const repaired = await runWorkerPage(browser.context, `${server.url}?table=small`);
    expect(stages(repaired)).toEqual(new Set(['load', 'search', 'ready']));
    expect(repaired.move).toEqual(cold.move);
  }, 180_000);

  it("table 'smallFirst': the first moves come from the small table, then the page sees the default one swapped in", async () => {
    // A profile of its own: neither table is stored yet.
    const fresh = await launch();
    try {
      const first = await runWorkerPage(fresh.context, `${server.url}?table=smallFirst`);
      console.log(
        `smallFirst, cold: first move ${first.marks.firstMove.toFixed(0)} ms after navigation; the default table swapped in at ${first.marks.final.toFixed(0)} ms`,
      );
      expect(first.tables).toEqual({ atReady: 'small', final: { table: 'default' }, afterFinal: 'default' });
      // The small table's setup, to its 'ready'; then the default table's, built and stored, to a second 'ready'.
      const readies = first.events.flatMap((e, i) => (e.stage === 'ready' ? [i] : []));
      expect(readies).toHaveLength(2);
      const writes = first.events.filter((e) => e.stage === 'write' && e.fraction === 1).map((e) => e.path);
      expect(writes).toEqual([
        `indexeddb:stackrank/files/${SMALL_ENTRY}`,
        `indexeddb:stackrank/files/${DEFAULT_ENTRY}`,
      ]);
      expect(first.marks.final).toBeGreaterThan(first.marks.firstMove);
      // PROBE_STATE says which table answered: the small one's move first, the default one's after the swap, also
      // through a game session begun before it.
      const smallTable = await runWorkerPage(fresh.context, `${server.url}?table=small`);
      expect(first.probes.before).toEqual(smallTable.probes.before);
      const fullTable = await runWorkerPage(fresh.context, server.url);
      expect(new Set(fullTable.events.map((e) => e.stage))).toEqual(new Set(['load', 'search', 'ready']));
      expect(fullTable.tables).toEqual({ atReady: 'default', final: { table: 'default' }, afterFinal: 'default' });
      expect(fullTable.probes.before).not.toEqual(smallTable.probes.before);
      expect(first.probes.after).toEqual(fullTable.probes.before);
      expect(first.probes.session).toEqual(fullTable.probes.before);
      // A later page loads both tables from IndexedDB, the small one first.
      const later = await runWorkerPage(fresh.context, `${server.url}?table=smallFirst`);
      expect(later.tables).toEqual({ atReady: 'small', final: { table: 'default' }, afterFinal: 'default' });
      expect(later.events.filter((e) => e.stage === 'load' && e.fraction === 1).map((e) => e.path)).toEqual([
        `indexeddb:stackrank/files/${SMALL_ENTRY}`,
        `indexeddb:stackrank/files/${DEFAULT_ENTRY}`,
      ]);
      expect(later.events.some((e) => e.stage === 'build' || e.stage === 'write')).toBe(false);
      expect(later.probes).toEqual(first.probes);
    } finally {
      await fresh.close();
    }
  }, 240_000);
});
