/**
 * A move within a time budget (docs/game.md, "Time budget"): nextMove(state, { budgetMs }). The searches run in
 * WebAssembly and cannot be stopped half way, so the move deepens instead: it searches with the cheapest settings
 * first (no lookahead, a one-piece recover search), then one piece deeper at a time up to the AI's own settings,
 * and starts a step only while the time spent plus that step's expected time stays within the budget. A step is
 * expected to cost the last one's time times the last growth between steps (at least MIN_GROWTH; FIRST_GROWTH for
 * the first). The deepest finished step's move is played; the cheapest step always runs, so a budget of 0 still
 * answers with a legal move.
 */
import type { Decision, SearchSettings } from './decision.js';

/**
 * The expected cost of the second step over the first. Measured over positions of untidy games (bench/budget.ts
 * records them) under classic, nes and guideline: the second step cost 1-5 times the first in half of them and at
 * most 12 times in nine in ten (most of a cheap step is the placements' reach, which every step pays).
 */
const FIRST_GROWTH = 5;
/** Least growth expected between two steps. */
const MIN_GROWTH = 1.5;

/** The settings a budgeted move tries, cheapest first, ending with the AI's own (`full`). */
export function searchLadder(full: SearchSettings): SearchSettings[] {
  const ladder: SearchSettings[] = [];
  const plain = { beam: full.search.beam, chance: 0 };
  for (let k = 0; ; k++) {
    const lookahead = Math.min(k, full.lookahead);
    const recoverDepth = Math.min(k + 1, full.recoverDepth);
    ladder.push({ lookahead, recoverDepth, search: plain, nearTop: null });
    if (lookahead === full.lookahead && recoverDepth === full.recoverDepth) break;
  }
  const last = ladder[ladder.length - 1];
  // The full search adds the chance ply and the wider search near the top: a step of its own when it has them.
  if (full.search.chance > 0 || full.nearTop !== null) ladder.push(full);
  else ladder[ladder.length - 1] = { ...last, search: full.search };
  return ladder;
}

/** The deepest step of searchLadder(full) that fits the budget, as `decide` decides it. */
export function deepening(
  full: SearchSettings,
  budgetMs: number,
  decide: (settings: SearchSettings) => Decision,
): Decision {
  const start = performance.now();
  const ladder = searchLadder(full);
  let d = decide(ladder[0]);
  let last = performance.now() - start;
  let growth = FIRST_GROWTH;
  for (let k = 1; k < ladder.length; k++) {
    const spent = performance.now() - start;
    if (spent + last * growth > budgetMs) break;
    const t0 = performance.now();
    d = decide(ladder[k]);
    const took = performance.now() - t0;
    growth = Math.max(MIN_GROWTH, last > 0 ? took / last : FIRST_GROWTH);
    last = took;
  }
  return d;
}
