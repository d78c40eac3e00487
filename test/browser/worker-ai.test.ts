/**
 * createWorkerTetrisAI in Chromium: a page bundled by Vite from the library's source (test/browser/worker-page/)
 * makes its AI in a Web Worker with the small table, which the worker builds and stores in IndexedDB; a new page in
 * the same browser profile then loads it from IndexedDB. Each prints its first move's time (ms since the page's
 * navigation began); bench/browser-first-move.ts measures them over several rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../src/cli/demo-server.js';
import { type Browser, launch, skipWithoutChromium } from './chromium.js';
import { bundleWorkerPage, runWorkerPage } from './worker-page.js';

const skip = skipWithoutChromium('browser worker AI test');

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
    expect(written).toMatchObject({ path: 'indexeddb:stackrank/files/rank-article-w9-s3-i15.srk' });
    expect(written?.bytes).toBeGreaterThan(5_000_000);
    // Cached: read back from IndexedDB, nothing built or written.
    expect(stages(cached)).toEqual(new Set(['load', 'search', 'ready']));
    expect(cached.events.find((e) => e.stage === 'load' && e.fraction === 1)).toMatchObject({
      path: written?.path,
      bytes: written?.bytes,
    });
    // The same table plays the same moves.
    expect(cached.move).toEqual(cold.move);
    expect(cached.secondMove).toEqual(cold.secondMove);
  }, 180_000);
});
