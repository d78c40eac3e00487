/**
 * The first AI move of a browser page whose AI lives in a Web Worker (createWorkerTetrisAI), in headless Chromium
 * (Debian's /usr/bin/chromium via playwright-core, as the browser tests; STACKRANK_CHROMIUM points elsewhere).
 *
 *   npx tsx bench/browser-first-move.ts                 # 5 rounds: the default, the small and smallFirst tables
 *   npx tsx bench/browser-first-move.ts --rounds 9 --tables small
 *
 * The page (test/browser/worker-page/) is bundled by Vite from the library's source, as a game bundles the package,
 * and served on 127.0.0.1 with the cross-origin isolation headers that let the worker build on threads (the demo
 * server). Each round, for each table, starts a fresh browser profile (empty IndexedDB) and opens:
 *  - cold: a new page; the worker builds the table, stores it in IndexedDB, lays out its search, then the first move
 *    (smallFirst: the small table's; the default table is then built, stored and swapped in, and the page waits for
 *    it, so the next page finds both);
 *  - cached: a second new page in the same profile; the worker loads the table from IndexedDB.
 * Times count from the page's navigation start (performance.now() in the page): fetching and compiling the bundle,
 * starting the worker and the kernels are in them. Also printed: the longest stretch the page's own thread was busy
 * while it waited (the worker does the AI's work). Targets (issue 53): cold <= 1.5 s, cached <= 0.3 s on 2 cores.
 * Writes bench/results/browser-first-move.json. Run it on a quiet machine for figures to quote; the JSON records
 * the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startDemoServer } from '../src/cli/demo-server.js';
import { launch, skipWithoutChromium } from '../test/browser/chromium.js';
import { bundleWorkerPage, runWorkerPage, type WorkerPageResult } from '../test/browser/worker-page.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  rounds: { type: 'string', default: '5' },
  tables: { type: 'string', default: 'default,small,smallFirst' },
});
const ROUNDS = Number(args.rounds);
const TABLES = args.tables!.split(',');

const TABLE_QUERY: Record<string, string> = { default: '', small: 'table=small', smallFirst: 'table=smallFirst' };

/** The moments of a page's setup, in the page's clock (ms since navigation), from its marks and progress events. */
const PHASES = [
  'script',
  'setup began',
  'table read',
  'table built',
  'table ready',
  'stored',
  'search laid out',
  'AI ready',
  'first move',
  'default swapped in',
] as const;

function phases(r: WorkerPageResult): Partial<Record<(typeof PHASES)[number], number>> {
  // The setup the first move waited for: up to its 'ready' (under smallFirst the default table's setup follows).
  const setup = r.events.slice(0, r.events.findIndex((e) => e.stage === 'ready') + 1);
  const at = (stage: string, fraction?: number) =>
    setup.filter((e) => e.stage === stage && (fraction === undefined || e.fraction === fraction)).at(-1)?.at;
  const first = r.events[0];
  return {
    script: r.marks.script,
    // The worker's setup clock starts as TetrisAI.create begins there: the worker has started and loaded its code.
    'setup began': first && first.at - first.elapsedMs,
    // IndexedDB's read done (the entry's size is known), then the bytes verified and parsed into a table.
    'table read': at('load', 0),
    'table built': at('build', 1),
    'table ready': at('load', 1) ?? at('build', 1),
    stored: at('write', 1),
    'search laid out': at('search', 1),
    'AI ready': r.marks.ready,
    'first move': r.marks.firstMove,
    // smallFirst: the default table swapped in (its setup's events follow the small table's 'ready').
    'default swapped in': r.tables.atReady === r.tables.afterFinal ? undefined : r.marks.final,
  };
}

async function main() {
  if (skipWithoutChromium('bench/browser-first-move.ts')) return;
  for (const t of TABLES) if (!(t in TABLE_QUERY)) throw new Error(`unknown table ${t}; tables are default, small`);
  const dir = mkdtempSync(join(os.tmpdir(), 'stackrank-first-move-'));
  await bundleWorkerPage(join(dir, 'site'));
  const server = await startDemoServer({
    port: 0,
    dir: join(dir, 'site'),
    env: { XDG_CACHE_HOME: join(dir, 'cache') },
  });
  const runs: Record<string, { cold: WorkerPageResult; cached: WorkerPageResult }[]> = {};
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of TABLES) {
        // A fresh profile for each table: no page finds another table's entries in IndexedDB.
        const browser = await launch();
        try {
          const url = `${server.url}?${TABLE_QUERY[t]}`;
          const cold = await runWorkerPage(browser.context, url);
          const cached = await runWorkerPage(browser.context, url);
          (runs[t] ??= []).push({ cold, cached });
          console.error(
            `round ${round + 1}, ${t} table: cold ${(cold.marks.firstMove / 1000).toFixed(2)} s, cached ${(cached.marks.firstMove / 1000).toFixed(2)} s`,
          );
        } finally {
          await browser.close();
        }
      }
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const m = machine();
  console.log(
    `\nfirst AI move of a new page (AI in a Web Worker), headless Chromium, ${ROUNDS} rounds (medians), ${m.cpu}, ${m.cores} cores, load ${m.loadAverage.join(' ')}\n`,
  );
  const rows: Record<string, string | number>[] = [];
  for (const t of TABLES) {
    for (const kind of ['cold', 'cached'] as const) {
      const rs = runs[t].map((r) => r[kind]);
      const med = (pick: (r: WorkerPageResult) => number) => Math.round(median(rs.map(pick))) / 1000;
      rows.push({
        page: `${kind}, ${t} table`,
        'script s': med((r) => r.marks.script),
        'AI ready s': med((r) => r.marks.ready),
        'first move s': med((r) => r.marks.firstMove),
        'min s': Math.round(Math.min(...rs.map((r) => r.marks.firstMove))) / 1000,
        'max s': Math.round(Math.max(...rs.map((r) => r.marks.firstMove))) / 1000,
        'page busy ms (max)': Math.round(Math.max(...rs.map((r) => r.longestPageStallMs))),
        target: kind === 'cold' ? '<= 1.5 s' : '<= 0.3 s',
      });
    }
  }
  printTable(rows);
  console.log('\nwhere the time goes (medians, s since navigation; a stage a page did not run is blank)\n');
  const phaseRows: Record<string, string | number>[] = [];
  for (const t of TABLES) {
    for (const kind of ['cold', 'cached'] as const) {
      const ps = runs[t].map((r) => phases(r[kind]));
      const row: Record<string, string | number> = { page: `${kind}, ${t} table` };
      for (const k of PHASES) {
        const xs = ps.map((p) => p[k]).filter((x): x is number => x !== undefined);
        row[k] = xs.length ? Math.round(median(xs)) / 1000 : '';
      }
      phaseRows.push(row);
    }
  }
  printTable(phaseRows);
  const path = writeResults('browser-first-move', { date: new Date().toISOString(), machine: m, rows, runs });
  console.log(`\nwrote ${path}`);
}

await main();
