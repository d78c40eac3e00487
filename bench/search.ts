/**
 * Search speed: moves per second at lookahead 0..4 on positions sampled from real games, one thread,
 * median over repeats, with the pure-TS exhaustive reference (test/reference) as baseline where it is affordable.
 *
 *   npx tsx bench/search.ts [--repeats 5] [--positions 3000] [--table FILE] [--strategy rank] [--leaf piece-max]
 *
 * 3,000 positions make one timing 20-60 ms at lookahead 3-4; with 300 (2-6 ms) start-up effects showed.
 *
 * With an expectimax strategy the positions still come from rank play (the same positions for every strategy),
 * the weights are uniform, and there is no reference column.
 */
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import { loadRankTable } from '../src/rank/table.js';
import { createRandomizer } from '../src/randomizers/index.js';
import { loadOrBuildCachedPreviewTable } from '../src/rank/variant-cache.js';
import { StackingEngine } from '../src/kernels/search.js';
import { checkStrategy } from '../src/stacking-ai/strategy.js';
import { resolveStacking } from '../src/stacking-ai/rules.js';
import { toQueue } from '../src/stacking-ai/input.js';
import { MOVE_NONE } from '../src/kernels/search-format.js';
import { applyMove } from '../src/stacking-ai/placements.js';
import { referenceSearch } from '../test/reference/search-reference.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  repeats: { type: 'string', default: '5' },
  positions: { type: 'string', default: '3000' },
  table: { type: 'string' },
  strategy: { type: 'string', default: 'rank' },
  'unknown-pieces': { type: 'string' },
  leaf: { type: 'string', default: 'piece-max' },
});
const { strategy, unknownPieces } = checkStrategy(
  args.strategy,
  args['unknown-pieces'] === undefined ? undefined : Number(args['unknown-pieces']),
);
// Output label and file name: search-expectimax2.json holds two unknown pieces (bench/notes/benchmarks.md).
const label = strategy === 'rank' ? 'rank' : `expectimax${unknownPieces === 2 ? '2' : ''}`;
const table = args.table ? await loadRankTable(args.table) : (await loadOrBuildCachedTable()).table;
const rules = resolveStacking('default');
const rankEngine = await StackingEngine.create(table, rules);

// Positions from real games: lookahead-1 play under tgm1, every 3rd position, with the next 5 pieces. The same
// engine plays them (a second engine in the process measurably slows the first: two 86 MB tables).
const positions: { heights: number[]; queue: number[] }[] = [];
for (let game = 0; positions.length < Number(args.positions); game++) {
  const rng = createRandomizer('tgm1', { seed: 1000 + game });
  const queue = toQueue([...rng.take(100_000)]);
  let heights: number[] = new Array(table.width).fill(0);
  for (let i = 0; i < queue.length - 6 && positions.length < Number(args.positions); i++) {
    if (i % 3 === 0) positions.push({ heights, queue: queue.slice(i, i + 5) });
    const { move } = rankEngine.search(heights, queue.slice(i, i + 2), 1);
    if (move === MOVE_NONE) break;
    heights = applyMove(rankEngine.placements, heights, move);
  }
}
const leafValues =
  args.leaf === 'preview' ? (await loadOrBuildCachedPreviewTable({ randomizer: 'tgm1' })).table : undefined;
const engine =
  strategy === 'rank' ? rankEngine : await StackingEngine.create(table, rules, { unknownPieces, leafValues });

// Repeats go round-robin over the lookaheads, so a burst of outside load spreads over all rows; the TS
// reference (which allocates) runs after every engine timing.
const repeats = Number(args.repeats);
const LOOKAHEADS = [0, 1, 2, 3, 4];
const rates: number[][] = LOOKAHEADS.map(() => []);
// CPU time too (process.cpuUsage): on a shared machine the wall-clock rate falls with the load, the CPU rate far less.
const cpuRates: number[][] = LOOKAHEADS.map(() => []);
const nodesPerMove: number[] = [];
for (let r = 0; r < repeats; r++) {
  for (const la of LOOKAHEADS) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let nodes = 0;
    for (const p of positions) nodes += engine.search(p.heights, p.queue, la).nodes;
    const cpu = process.cpuUsage(c0);
    rates[la].push(positions.length / ((performance.now() - t0) / 1000));
    cpuRates[la].push(positions.length / ((cpu.user + cpu.system) / 1e6));
    nodesPerMove[la] = nodes / positions.length;
  }
}
const values = table.searchValues().values;
const rows = LOOKAHEADS.map((la) => {
  let refRate = NaN;
  if (la <= 2 && strategy === 'rank') {
    const sample = positions.slice(0, la === 2 ? 20 : 100);
    const t0 = performance.now();
    for (const p of sample) referenceSearch(p.heights, p.queue, la, table.maxStep, rules, (i) => values[i]);
    refRate = sample.length / ((performance.now() - t0) / 1000);
  }
  const rate = median(rates[la]);
  return {
    lookahead: la,
    'moves/s (median)': Math.round(rate),
    'CPU moves/s (median)': Math.round(median(cpuRates[la])),
    'nodes per move': Math.round(nodesPerMove[la]),
    'TS reference moves/s': Number.isNaN(refRate) ? '-' : Math.round(refRate),
    'x vs reference': Number.isNaN(refRate) ? '-' : Math.round(rate / refRate),
  };
});
console.log(
  `\nsearch speed (${strategy}${strategy === 'rank' ? '' : `, ${unknownPieces} unknown piece(s), ${args.leaf} leaves`}), 1 thread, ${positions.length} positions from lookahead-1 tgm1 games, ${repeats} repeats, table ${table.width}x${table.maxStep}/${table.iterations}\n`,
);
printTable(rows);
console.log(
  `\nwrote ${writeResults(strategy === 'rank' ? 'search' : `search-${label}`, { strategy, unknownPieces, leaf: args.leaf, date: new Date().toISOString(), machine: machine(), positions: positions.length, repeats, rows })}`,
);
