/**
 * Where the demo's rank table comes from, first hit wins:
 *   1. the local demo server (`stackrank demo` serves the user's cached table at api/table),
 *   2. the library's table cache, which in a browser is IndexedDB (loadOrBuildCachedTable): a table built here
 *      before, or else built now in this page, on worker threads when the page is cross-origin isolated, and
 *      stored there for the next visit.
 */
import { buildRankTable, loadOrBuildCachedTable, loadRankTable, type BuildProgress, type RankTable } from 'stackrank';
import { count } from './words.js';

export type TableSource = 'server' | 'indexeddb' | 'built';

export interface TableRequest {
  width: number;
  maxStep: number;
  iterations: number;
  onStatus(text: string): void;
  onProgress(fraction: number, p?: BuildProgress): void;
}

/** The database earlier versions of the demo kept their tables in, before the library cached them itself. */
const OLD_DB_NAME = 'stackrank-demo';

function fits(table: RankTable, r: TableRequest): boolean {
  return table.width === r.width && table.maxStep === r.maxStep && table.iterations === r.iterations;
}

async function fromServer(r: TableRequest): Promise<RankTable | null> {
  try {
    const res = await fetch(`api/table?width=${r.width}&max-step=${r.maxStep}&iterations=${r.iterations}`);
    if (res.status !== 200) return null; // 204: the server has no cached table; 404: a static host without the API
    const table = await loadRankTable(await res.arrayBuffer());
    return fits(table, r) ? table : null;
  } catch {
    return null;
  }
}

/** Threads for the build: the cores (at most 8) when the page may share memory with workers, else 1. */
export function buildThreads(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2));
}

export async function obtainTable(r: TableRequest): Promise<{ table: RankTable; source: TableSource; detail: string }> {
  const t0 = performance.now();
  const secs = () => ((performance.now() - t0) / 1000).toFixed(1);
  r.onStatus('Asking the demo server for a cached rank table…');
  const served = await fromServer(r);
  if (served) return { table: served, source: 'server', detail: `loaded from the demo server's cache in ${secs()} s` };

  // The old demo database is not read any more: its space goes back to the browser.
  if (typeof indexedDB !== 'undefined') indexedDB.deleteDatabase(OLD_DB_NAME);
  const threads = buildThreads();
  const build = {
    width: r.width,
    maxStep: r.maxStep,
    iterations: r.iterations,
    threads,
    onProgress: (p: BuildProgress) => {
      // The plan's own reports (before the first iteration) move no bar: the iterations are the build's time.
      if (p.planned !== undefined) return;
      r.onProgress(p.fraction, p);
      const eta = p.etaMs === null ? '' : `, about ${Math.ceil(p.etaMs / 1000)} s left`;
      r.onStatus(
        `Building the rank table: iteration ${Math.floor(p.iteration)}/${p.iterations}${eta} (${count(threads, 'thread')})`,
      );
    },
  };
  r.onStatus('Looking for a rank table stored in this browser…');
  let built: Awaited<ReturnType<typeof loadOrBuildCachedTable>>;
  try {
    built = await loadOrBuildCachedTable(build);
  } catch (e) {
    // No IndexedDB here (some private windows): build without keeping the table.
    if ((e as { code?: string }).code !== 'IO') throw e;
    const table = await buildRankTable(build);
    return { table, source: 'built', detail: `built in this page in ${secs()} s on ${count(threads, 'thread')}` };
  }
  if (built.cached) return { table: built.table, source: 'indexeddb', detail: `loaded from IndexedDB in ${secs()} s` };
  return {
    table: built.table,
    source: 'built',
    detail: `built in this page in ${secs()} s on ${count(threads, 'thread')}${built.unsaved ? '' : ', saved to IndexedDB'}`,
  };
}
