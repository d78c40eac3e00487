/**
 * Browser cold start: time to the first AI move of a page, in headless Chromium (Debian's /usr/bin/chromium via
 * playwright-core, as the browser tests; STACKRANK_CHROMIUM points elsewhere).
 *
 *   npx tsx bench/cold-start.ts              # 3 rounds
 *   npx tsx bench/cold-start.ts --rounds 5 --threads 2
 *
 * The page (bench/browser/) loads the library as a browser game would: bundled from src/ by vite (as the demo is),
 * served on 127.0.0.1 with the cross-origin isolation headers that allow worker threads (the demo server). Each
 * round starts a fresh browser profile:
 *  - cold: a new page builds the 9x4 table on `threads` workers, makes a StackingAI and its first move (then stores
 *    the table in IndexedDB, after the timing);
 *  - cached: a second new page in the same profile loads the table from IndexedDB, makes a StackingAI and its
 *    first move.
 * Times count from the page's navigation start (performance.now() in the page), so they include fetching and
 * compiling the bundle and the kernels. Targets: cold <= 3 s with 2 threads, cached <= 1 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer } from '../src/cli/demo-server.js';
import { launch, skipWithoutChromium } from '../test/browser/chromium.js';
import { bundlePage } from '../test/browser/worker-page.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  rounds: { type: 'string', default: '3' },
  threads: { type: 'string', default: '2' },
});
const ROUNDS = Number(args.rounds);
const THREADS = Number(args.threads);
const HERE = dirname(fileURLToPath(import.meta.url));

interface PageResult {
  mode: string;
  threads: number;
  isolated: boolean;
  move: number | null;
  marks: Record<string, number>;
}

async function main() {
  if (skipWithoutChromium('bench/cold-start.ts')) return;
  const dir = mkdtempSync(join(os.tmpdir(), 'stackrank-cold-'));
  const site = join(dir, 'site');
  await bundlePage(join(HERE, 'browser'), site);
  // An empty cache directory: the demo server then has no table to offer (the page does not ask anyway).
  const server = await startDemoServer({ port: 0, dir: site, env: { XDG_CACHE_HOME: join(dir, 'cache') } });
  const results: { cold: PageResult; cached: PageResult }[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const browser = await launch();
      try {
        const run = async (query: string): Promise<PageResult> => {
          const page = await browser.context.newPage();
          try {
            await page.goto(`${server.url}?${query}`);
            await page.waitForFunction(
              () => {
                const w = window as unknown as { benchResult?: unknown; benchError?: string };
                return w.benchResult !== undefined || w.benchError !== undefined;
              },
              undefined,
              { timeout: 300_000, polling: 50 },
            );
            const out = await page.evaluate(() => {
              const w = window as unknown as { benchResult?: unknown; benchError?: string };
              return { result: w.benchResult as PageResult | undefined, error: w.benchError };
            });
            if (!out.result) throw new Error(`the bench page failed: ${out.error}`);
            return out.result;
          } finally {
            await page.close();
          }
        };
        const cold = await run(`table=build&threads=${THREADS}`);
        const cached = await run('table=cached');
        results.push({ cold, cached });
        console.error(
          `round ${round + 1}: cold ${(cold.marks.firstMove / 1000).toFixed(2)} s, cached ${(cached.marks.firstMove / 1000).toFixed(2)} s`,
        );
      } finally {
        await browser.close();
      }
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const med = (pick: (r: { cold: PageResult; cached: PageResult }) => number) =>
    Math.round(median(results.map(pick))) / 1000;
  const threads = results[0].cold.threads;
  console.log(
    `\nfirst AI move of a new page, headless Chromium, ${ROUNDS} rounds (medians), ${machine().cpu}, ${machine().cores} cores, load ${machine().loadAverage.join(' ')}\n`,
  );
  printTable([
    {
      page: `cold: build the 9x4 table (${threads} thread${threads > 1 ? 's' : ''}), then the first move`,
      'script s': med((r) => r.cold.marks.script),
      'table s': med((r) => r.cold.marks.table),
      'AI ready s': med((r) => r.cold.marks.ai),
      'first move s': med((r) => r.cold.marks.firstMove),
      target: '<= 3 s',
    },
    {
      page: 'cached: the table from IndexedDB, then the first move',
      'script s': med((r) => r.cached.marks.script),
      'table s': med((r) => r.cached.marks.table),
      'AI ready s': med((r) => r.cached.marks.ai),
      'first move s': med((r) => r.cached.marks.firstMove),
      target: '<= 1 s',
    },
  ]);
  if (!results[0].cold.isolated) console.log('\nwarning: the page was not cross-origin isolated (one thread only)');
  const path = writeResults('cold-start', { date: new Date().toISOString(), machine: machine(), rounds: results });
  console.log(`\nwrote ${path}`);
}

await main();
