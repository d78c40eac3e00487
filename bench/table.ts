/**
 * Rank-table build benchmark. Each measurement runs in its own child process so that peak RSS
 * and memory state belong to that run alone.
 *
 *   npm run bench:table              # 3 runs per configuration (median reported)
 *   npm run bench:table -- --runs 5 --iterations 15
 *
 * Measures: per-iteration time (median over iterations 2..k; the first pays for fresh pages) and total for the
 * 9x4 build with threads = 1 and threads = cores; the `stackrank table build --out` command end to end; loading
 * the saved table; and the cost per surface-iteration of the pure-TS reference (test/reference) as baseline.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildRankValues } from '../src/rank/build.js';
import { buildRankTable, loadRankTable } from '../src/rank/table.js';
import { referenceRanks } from '../test/reference/rank-reference.js';
import { machine, median, printTable, writeResults } from './common.js';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, iterations: { type: 'string', default: '15' }, child: { type: 'string' } },
});
const ITER = Number(args.iterations);
const SURFACES = 43_046_721;

async function child(kind: string): Promise<void> {
  const [what, threadsText, file] = kind.split(':');
  const threads = Number(threadsText);
  let out: Record<string, unknown> = {};
  if (what === 'build') {
    const marks: number[] = [];
    const t0 = performance.now();
    await buildRankValues({ iterations: ITER, threads, onProgress: (p) => Number.isInteger(p.iteration) && marks.push(performance.now()) });
    const total = performance.now() - t0;
    const iterMs = marks.slice(1).map((t, i) => t - marks[i]);
    out = { setupMs: marks[0] - t0, firstIterationMs: iterMs[0], iterationMs: median(iterMs.slice(1)), totalMs: total };
  } else if (what === 'save') {
    const t0 = performance.now();
    const table = await buildRankTable({ iterations: ITER, threads });
    await table.save(file);
    out = { totalMs: performance.now() - t0 };
  } else if (what === 'load') {
    const t0 = performance.now();
    const table = await loadRankTable(file);
    out = { totalMs: performance.now() - t0, flat: table.get((SURFACES - 1) / 2) };
  }
  out.peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(JSON.stringify(out));
}

function runChild(kind: string): Record<string, number> {
  const text = execFileSync(process.execPath, [...process.execArgv, process.argv[1], '--iterations', String(ITER), '--child', kind], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(text);
}

function referenceCostNs(): number {
  const t0 = performance.now();
  referenceRanks(6, 4, 1); // 59,049 surfaces, one iteration (its successor lists included, as in its every use)
  return ((performance.now() - t0) * 1e6) / 59_049;
}

async function main() {
  const runs = Number(args.runs);
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const dir = mkdtempSync(join(os.tmpdir(), 'stackrank-bench-'));
  const file = join(dir, 'table.srk');
  const configs = [...new Set([1, cores])];
  const builds: Record<number, Record<string, number>[]> = {};
  for (const t of configs) builds[t] = Array.from({ length: runs }, () => runChild(`build:${t}`));
  const cli: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, [join(process.cwd(), 'dist', 'cli.js'), 'table', 'build', '--iterations', String(ITER), '--out', file], { stdio: 'ignore' });
    cli.push(performance.now() - t0);
  }
  const loads = Array.from({ length: runs }, () => runChild(`load:0:${file}`));
  rmSync(dir, { recursive: true, force: true });
  const refNs = referenceCostNs();

  const summarize = (t: number) => {
    const r = builds[t];
    const iterationMs = median(r.map((x) => x.iterationMs));
    return {
      threads: t,
      'iteration ms (median)': iterationMs,
      'first iteration ms': median(r.map((x) => x.firstIterationMs)),
      'setup ms': median(r.map((x) => x.setupMs)),
      'total s (median)': median(r.map((x) => x.totalMs)) / 1000,
      'peak RSS MiB': Math.max(...r.map((x) => x.peakRssMiB)),
      'ns per surface-iteration': (iterationMs * 1e6) / SURFACES,
      'speed-up vs 1 thread': 0,
      'x faster than TS reference': (refNs * SURFACES) / (iterationMs * 1e6),
    };
  };
  const rows = configs.map(summarize);
  for (const r of rows) r['speed-up vs 1 thread'] = rows[0]['iteration ms (median)'] / r['iteration ms (median)'];
  console.log(`\nrank table 9x4, ${ITER} iterations, ${runs} runs per row, ${machine().cpu}, ${cores} cores\n`);
  printTable(rows);
  console.log('');
  const e2e = [
    { step: `stackrank table build --out (start, build, save), threads ${cores}`, 'median s': median(cli) / 1000, runs },
    { step: 'loadRankTable(file)', 'median s': median(loads.map((x) => x.totalMs)) / 1000, runs },
    { step: 'TS reference, ns per surface-iteration (baseline)', 'median s': refNs / 1e9, runs: 1 },
  ];
  printTable(e2e);
  const path = writeResults('table', { date: new Date().toISOString(), machine: machine(), iterations: ITER, runs, builds, rows, cliMs: cli, loads, referenceNsPerSurface: refNs });
  console.log(`\nwrote ${path}`);
}

if (args.child) await child(args.child);
else await main();
