/** Shared by the worker page (test/browser/worker-page/main.ts) and its test, with no imports (the page bundles it). */

/**
 * A state the small table (9x3) and the default table (9x4) play differently under the guideline rules, lookahead
 * 1 (the T goes to another column; found by trying boards in Node), so a page's move for it says which table
 * answered. (test/browser/worker-ai.test.ts checks that they differ.)
 */
export const PROBE_STATE = {
  board: Array.from({ length: 20 }, () => '..........'),
  current: 'T',
  queue: 'SZO',
  hold: null,
  canHold: true,
};
