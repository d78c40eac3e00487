/**
 * A page as a browser game makes its AI: createWorkerTetrisAI (the table built or loaded from IndexedDB in the
 * worker), then the first move. test/browser/worker-ai.test.ts and bench/browser-first-move.ts load it; it publishes
 * on window.pageResult the times (ms since navigation began), the setup's progress events, the longest stretch the
 * page's own thread was busy while it waited, and the first move. `?rules=` picks the rule set (default guideline),
 * `?table=small` the small table.
 */
import { type SetupProgress, createWorkerTetrisAI } from 'stackrank/worker';
import type { WorkerPageResult as PageResult } from '../worker-page.js';

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
  const events: SetupProgress[] = [];
  const ai = await createWorkerTetrisAI({
    rules: (params.get('rules') ?? 'guideline') as 'guideline',
    table: params.get('table') === 'small' ? 'small' : undefined,
    onProgress: (p) => events.push(p),
  });
  marks.ready = performance.now();
  const board = Array.from({ length: 20 }, () => '..........');
  const move = await ai.nextMove({ board, current: 'T', queue: 'SZO', hold: null, canHold: true });
  marks.firstMove = performance.now();
  const second = await ai.nextMove({ board, current: 'I', queue: 'OT', hold: null, canHold: true });
  marks.secondMove = performance.now();
  clearInterval(probe);
  ai.dispose();
  const brief = (m: typeof move) => m && { piece: m.piece, x: m.x, rotation: m.rotation };
  return {
    marks,
    events,
    longestPageStallMs: longest,
    isolated: globalThis.crossOriginIsolated,
    move: brief(move),
    secondMove: brief(second),
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
