/**
 * Expectimax leaf rows folded by mirror symmetry (what every expectimax AI over a mirror-symmetric table now
 * searches) against the same rows unfolded (one row per surface, as before the fold): in one process, over one
 * table, on positions from real games, the two engines must return the same move, plan and leaf score at every
 * position, and the timing shows what the fold costs per leaf read. Timings (CPU time) alternate between the two
 * engines (median over repeats, ratio per repeat), so outside load falls on both alike.
 *
 *   npx tsx bench/folded-rows.ts [--table FILE] [--positions 2000] [--repeats 5]
 */
import { computePieceMax } from '../src/rank/piece-max.js';
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import { loadRankTable } from '../src/rank/table.js';
import { createRandomizer } from '../src/randomizers/index.js';
import { StackingEngine } from '../src/kernels/search.js';
import { toQueue } from '../src/stacking-ai/input.js';
import { MOVE_NONE } from '../src/kernels/search-format.js';
import { applyMove } from '../src/stacking-ai/placements.js';
import { resolveStacking } from '../src/stacking-ai/rules.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  table: { type: 'string' },
  positions: { type: 'string', default: '2000' },
  repeats: { type: 'string', default: '5' },
});
const table = args.table ? await loadRankTable(args.table) : (await loadOrBuildCachedTable()).table;
const rules = resolveStacking('default');

// Positions from lookahead-1 rank play under tgm1, every 3rd one, with the next 3 pieces.
const positions: { heights: number[]; queue: number[] }[] = [];
{
  const rank = await StackingEngine.create(table, rules);
  for (let game = 0; positions.length < Number(args.positions); game++) {
    const queue = toQueue([...createRandomizer('tgm1', { seed: 2000 + game }).take(100_000)]);
    let heights: number[] = new Array(table.width).fill(0);
    for (let i = 0; i < queue.length - 4 && positions.length < Number(args.positions); i++) {
      if (i % 3 === 0) positions.push({ heights, queue: queue.slice(i, i + 3) });
      const { move } = rank.search(heights, queue.slice(i, i + 2), 1);
      if (move === MOVE_NONE) break;
      heights = applyMove(rank.placements, heights, move);
    }
  }
}

const fullRows = { width: table.width, maxStep: table.maxStep, rows: await computePieceMax(table) };
const rows: Record<string, string | number>[] = [];
for (const [unknownPieces, lookahead] of [
  [1, 0],
  [1, 1],
  [2, 0],
  [2, 1],
] as const) {
  const folded = await StackingEngine.create(table, rules, { unknownPieces });
  const full = await StackingEngine.create(table, rules, { unknownPieces, leafValues: fullRows });
  let differences = 0;
  for (const p of positions) {
    const a = folded.search(p.heights, p.queue, lookahead);
    const b = full.search(p.heights, p.queue, lookahead);
    if (a.move !== b.move || a.leafScore !== b.leafScore || a.plan.join() !== b.plan.join()) differences++;
  }
  // Moves per second of this process's CPU time: under outside load, wall time also counts the time the process
  // waited for a core.
  const rate = (engine: StackingEngine) => {
    const t0 = process.cpuUsage();
    for (const p of positions) engine.search(p.heights, p.queue, lookahead);
    const { user, system } = process.cpuUsage(t0);
    return positions.length / ((user + system) / 1e6);
  };
  const foldedRates: number[] = [];
  const fullRates: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < Number(args.repeats); r++) {
    // The order swaps every repeat.
    let x: number;
    let y: number;
    if (r % 2 === 0) {
      x = rate(folded);
      y = rate(full);
    } else {
      y = rate(full);
      x = rate(folded);
    }
    foldedRates.push(x);
    fullRates.push(y);
    ratios.push(x / y);
  }
  rows.push({
    'unknown pieces': unknownPieces,
    lookahead,
    positions: positions.length,
    'different results': differences,
    'folded moves/CPU s': Math.round(median(foldedRates)),
    'unfolded moves/CPU s': Math.round(median(fullRates)),
    'folded / unfolded (median)': median(ratios).toFixed(3),
  });
}
console.log(
  `\nexpectimax leaf rows folded vs unfolded, table ${table.width}x${table.maxStep}/${table.iterations}, 1 thread, ${args.repeats} repeats, ${machine().cpu}, load ${machine().loadAverage.join(' ')}\n`,
);
printTable(rows);
console.log(`\nwrote ${writeResults('folded-rows', { date: new Date().toISOString(), machine: machine(), rows })}`);
