/**
 * 20G rank-table build time against the article's table, in the same run: the move derivation alone (the rules
 * layer's search over every window combination, src/rank/moves-20g.ts; TypeScript, one thread), then each whole
 * build (`buildRankTable`), wall and CPU seconds, medians over repeats. The derived moves are memoised per process,
 * so the derivation is timed once and the 20G build figures are the kernel's part only.
 *
 *   npx tsx bench/table-20g.ts [--repeats 3] [--width 9] [--max-step 4] [--iterations 15] [--threads 2]
 *
 * Needs the kernels built (npm run build:wasm). Prints a table and writes bench/results/table-20g.json.
 */
import { rankMoves20G } from '../src/rank/moves-20g.js';
import { rankMoves } from '../src/rank/moves.js';
import { buildRankTable } from '../src/rank/table.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values } = benchArgs(import.meta.url, {
  repeats: { type: 'string', default: '3' },
  width: { type: 'string', default: '9' },
  'max-step': { type: 'string', default: '4' },
  iterations: { type: 'string', default: '15' },
  threads: { type: 'string', default: '2' },
});
const repeats = Number(values.repeats);
const width = Number(values.width);
const maxStep = Number(values['max-step']);
const iterations = Number(values.iterations);
const threads = Number(values.threads);

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function timed(fn: () => unknown): Promise<{ wall: number; cpu: number }> {
  const w0 = performance.now();
  const c0 = cpuSeconds();
  await fn();
  return { wall: (performance.now() - w0) / 1000, cpu: cpuSeconds() - c0 };
}

let moves = 0;
const derive = await timed(() => (moves = rankMoves20G(width, maxStep).length));
const article: { wall: number; cpu: number }[] = [];
const kernel20g: { wall: number; cpu: number }[] = [];
for (let r = 0; r < repeats; r++) {
  article.push(await timed(() => buildRankTable({ width, maxStep, iterations, threads })));
  kernel20g.push(await timed(() => buildRankTable({ width, maxStep, iterations, threads, gravity: '20G' })));
}
const row = (name: string, n: number, xs: { wall: number; cpu: number }[]) => ({
  step: name,
  moves: n,
  'wall s (median)': median(xs.map((x) => x.wall)).toFixed(2),
  'CPU s (median)': median(xs.map((x) => x.cpu)).toFixed(2),
});
const rows = [
  row('20G move derivation (once, TS)', moves, [derive]),
  row(`article build, ${threads} threads`, rankMoves(width, maxStep).length, article),
  row(`20G build after derivation, ${threads} threads`, moves, kernel20g),
];
printTable(rows);
console.log(
  `wrote ${writeResults('table-20g', { machine: machine(), width, maxStep, iterations, threads, repeats, rows })}`,
);
