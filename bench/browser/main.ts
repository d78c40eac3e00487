/**
 * The page bench/cold-start.ts drives: what a browser game does before its first AI move. `?table=build` builds the
 * 9x4 table in the page (on `threads` workers when the page is cross-origin isolated) and stores its bytes in
 * IndexedDB; `?table=cached` loads them from there. Then one StackingAI and its first move. Times are
 * milliseconds since the navigation started (performance.now()), published on window.benchResult.
 */
import { StackingAI, buildRankTable, loadRankTable, type RankTable } from 'stackrank';

const DB = 'stackrank-bench';
const STORE = 'tables';
const KEY = 'rank-w9-s4-i15';

function request<T>(run: (store: IDBObjectStore) => IDBRequest, mode: IDBTransactionMode): Promise<T> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(STORE, mode);
      const req = run(tx.objectStore(STORE));
      tx.oncomplete = () => (db.close(), resolve(req.result as T));
      tx.onerror = () => (db.close(), reject(tx.error));
    };
  });
}

async function main() {
  const params = new URLSearchParams(location.search);
  const mode = params.get('table') ?? 'build';
  const threads = globalThis.crossOriginIsolated ? Number(params.get('threads') ?? 2) : 1;
  const marks: Record<string, number> = { script: performance.now() };
  let table: RankTable;
  if (mode === 'cached') {
    const bytes = await request<ArrayBuffer | undefined>((s) => s.get(KEY), 'readonly');
    if (!bytes) throw new Error('no table in IndexedDB: run the build page first');
    marks.read = performance.now();
    table = await loadRankTable(bytes);
  } else {
    table = await buildRankTable({ width: 9, maxStep: 4, iterations: 15, threads });
  }
  marks.table = performance.now();
  const ai = await StackingAI.create({ table });
  marks.ai = performance.now();
  const move = ai.bestPlacement([0, 1, 2, 2, 1, 0, 0, 1, 1], 'TSZ', 1);
  marks.firstMove = performance.now();
  if (mode !== 'cached') {
    const bytes = table.toBytes();
    await request(
      (s) => s.put(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), KEY),
      'readwrite',
    );
    marks.stored = performance.now();
  }
  return { mode, threads, isolated: globalThis.crossOriginIsolated, move: move?.column ?? null, marks };
}

const w = window as unknown as { benchResult?: unknown; benchError?: string };
main().then(
  (r) => {
    w.benchResult = r;
    document.getElementById('status')!.textContent = 'done';
  },
  (e) => {
    w.benchError = String(e?.stack || e);
  },
);
