/**
 * A page as a browser game makes its AI: createWorkerTetrisAI (the table built or loaded from IndexedDB in the
 * worker), then the first move. test/browser/worker-ai.test.ts and bench/browser-first-move.ts load it; it publishes
 * on window.pageResult the times (ms since navigation began), the setup's progress events, the longest stretch the
 * page's own thread was busy while it waited, and the first moves. `?rules=` picks the rule set (default guideline),
 * `?table=small` or `?table=smallFirst` the table; `?damage=<entry>` first flips a byte of that IndexedDB entry's
 * table data (a damaged cache). Every page also asks for the move of PROBE_STATE (the small and the default table
 * play it differently); under smallFirst once before and once after the default table is swapped in, through the AI
 * and through a game session begun before the swap.
 */
import type { GameMove } from 'stackrank';
import { createWorkerTetrisAI } from 'stackrank/worker';
import type { WorkerPageResult as PageResult } from '../worker-page.js';
import { PROBE_STATE } from './probe.js';

/** Flips one byte of the table data (after the 64-byte header) of the IndexedDB entry `name`. */
async function damage(name: string): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open('stackrank');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const done = (req: IDBRequest) =>
    new Promise<unknown>((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  const read = db.transaction('files').objectStore('files');
  const bytes = new Uint8Array((await done(read.get(name))) as ArrayBuffer);
  bytes[1000] ^= 0x40;
  await done(db.transaction('files', 'readwrite').objectStore('files').put(bytes.buffer, name));
  db.close();
}

const brief = (m: GameMove | null) => m && { piece: m.piece, x: m.x, rotation: m.rotation };

async function main(): Promise<PageResult> {
  const marks: Record<string, number> = { script: performance.now() };
  const params = new URLSearchParams(location.search);
  // The page's own thread: a 5 ms timer whose longest gap is the longest stretch something kept it busy.
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  // Each event with the page's time it arrived (ms since navigation), to see where a setup spends its time.
  const events: PageResult['events'] = [];
  const damaged = params.get('damage');
  if (damaged) await damage(damaged);
  const table = params.get('table');
  const ai = await createWorkerTetrisAI({
    rules: (params.get('rules') ?? 'guideline') as 'guideline',
    table: table === 'small' || table === 'smallFirst' ? table : undefined,
    onProgress: (p) => events.push({ ...p, at: performance.now() }),
  });
  marks.ready = performance.now();
  const tables: PageResult['tables'] = { atReady: ai.table };
  const board = Array.from({ length: 20 }, () => '..........');
  const move = await ai.nextMove({ board, current: 'T', queue: 'SZO', hold: null, canHold: true });
  marks.firstMove = performance.now();
  const second = await ai.nextMove({ board, current: 'I', queue: 'OT', hold: null, canHold: true });
  marks.secondMove = performance.now();
  clearInterval(probe);
  const game = await ai.newGame();
  const probes: PageResult['probes'] = { before: brief(await ai.nextMove(PROBE_STATE)) };
  tables.final = await ai.finalTable;
  marks.final = performance.now();
  tables.afterFinal = ai.table;
  probes.after = brief(await ai.nextMove(PROBE_STATE));
  probes.session = brief(await game.nextMove(PROBE_STATE));
  ai.dispose();
  return {
    marks,
    events,
    longestPageStallMs: longest,
    isolated: globalThis.crossOriginIsolated,
    move: brief(move),
    secondMove: brief(second),
    tables,
    probes,
  };
}

const w = window as unknown as { pageResult?: PageResult; pageError?: string };
main().then(
  (r) => {
    w.pageResult = r;
    document.getElementById('status')!.textContent = 'done';
  },
  (e) => {
    w.pageError = `${e?.code ?? ''} ${String(e?.stack || e)}`;
  },
);
