/**
 * Where the demo's rank table comes from, first hit wins:
 *   1. the local demo server (`stackrank demo` serves the user's cached table at api/table),
 *   2. this browser's IndexedDB (a table built here before),
 *   3. a build in this page, on worker threads when the page is cross-origin isolated, then saved to IndexedDB.
 */
import { buildRankTable, loadRankTable, type BuildProgress, type RankTable } from 'stackrank';
import { count } from './words.js';

export type TableSource = 'server' | 'indexeddb' | 'built';

export interface TableRequest {
  width: number;
  maxStep: number;
  iterations: number;
  onStatus(text: string): void;
  onProgress(fraction: number, p?: BuildProgress): void;
}

const DB_NAME = 'stackrank-demo';
const STORE = 'tables';

function key(r: TableRequest): string {
  return `rank-w${r.width}-s${r.maxStep}-i${r.iterations}`;
}

function fits(table: RankTable, r: TableRequest): boolean {
  return table.width === r.width && table.maxStep === r.maxStep && table.iterations === r.iterations;
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function idb<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = run(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result as T);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
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

async function fromIndexedDb(r: TableRequest): Promise<RankTable | null> {
  if (typeof indexedDB === 'undefined') return null;
  try {
    const bytes = await idb<ArrayBuffer | undefined>('readonly', (s) => s.get(key(r)));
    if (!bytes) return null;
    const table = await loadRankTable(bytes);
    if (fits(table, r)) return table;
  } catch (e) {
    console.warn('stackrank demo: ignoring the table stored in IndexedDB:', e);
  }
  await idb('readwrite', (s) => s.delete(key(r))).catch(() => {});
  return null;
}

async function saveToIndexedDb(r: TableRequest, table: RankTable): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  try {
    const bytes = table.toBytes();
    const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await idb('readwrite', (s) => s.put(copy, key(r)));
    return true;
  } catch (e) {
    console.warn('stackrank demo: could not store the table in IndexedDB:', e);
    return false;
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

  r.onStatus('Looking for a rank table stored in this browser…');
  const stored = await fromIndexedDb(r);
  if (stored) return { table: stored, source: 'indexeddb', detail: `loaded from IndexedDB in ${secs()} s` };

  const threads = buildThreads();
  r.onStatus(
    `Building the ${r.width}x${r.maxStep} rank table (${r.iterations} iterations, ${count(threads, 'thread')})…`,
  );
  const table = await buildRankTable({
    width: r.width,
    maxStep: r.maxStep,
    iterations: r.iterations,
    threads,
    onProgress: (p) => {
      r.onProgress(p.fraction, p);
      const eta = p.etaMs === null ? '' : `, about ${Math.ceil(p.etaMs / 1000)} s left`;
      r.onStatus(
        `Building the rank table: iteration ${Math.floor(p.iteration)}/${p.iterations}${eta} (${count(threads, 'thread')})`,
      );
    },
  });
  const built = secs();
  const saved = await saveToIndexedDb(r, table);
  return {
    table,
    source: 'built',
    detail: `built in this page in ${built} s on ${count(threads, 'thread')}${saved ? ', saved to IndexedDB' : ''}`,
  };
}
