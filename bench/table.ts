/**
 * Rank-table build benchmark: ours against a native C build of the same iteration, measured in one run. Each
 * measurement runs in its own process, so peak memory belongs to that run alone.
 *
 *   npm run bench:table              # 3 runs per row (medians)
 *   npm run bench:table -- --runs 5 --iterations 15
 *   npm run bench:table -- --skip-f32   # without the f32 rows (the build before the u16 one; slow)
 *
 * Rows:
 *  - `stackrank table build --out` end to end (process start, build, save), with its peak RSS (/usr/bin/time).
 *  - the mirror-folded u16 build in process (threads 1 and cores): set-up (until iteration 0 starts: the kernel
 *    and the plan; the workers join later), per-iteration time (median over iterations 2..k; the first two also
 *    pay for their output buffer's fresh pages, and the first for the workers' start) and total.
 *  - the f32 iteration (the build before the u16 one; still `encoding: 'f32'`).
 *  - native: bench/native/rank.c, compiled here with gcc -O3 -march=native -fopenmp when a C compiler exists
 *    (skipped with a message otherwise), run with OMP_NUM_THREADS = cores on the plan src/kernels/rank-plan.ts makes.
 *  - the memory-bandwidth floor: a streaming read and copy measured by the same C program; an iteration must at
 *    least read the previous values and write the new ones (u16: 2 x 86 MB at 9x4; f32: 2 x 172 MB).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFoldedRanks, buildRankValues } from '../src/rank/build.js';
import { rankMoves } from '../src/rank/moves.js';
import { makeRankPlan } from '../src/kernels/rank-plan.js';
import { loadRankTable } from '../src/rank/table.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  runs: { type: 'string', default: '3' },
  iterations: { type: 'string', default: '15' },
  child: { type: 'string' },
  'skip-f32': { type: 'boolean', default: false },
});
const ITER = Number(args.iterations);
const SURFACES = 43_046_721;
const HERE = dirname(fileURLToPath(import.meta.url));
const TIME = '/usr/bin/time';

/** In-process measurements, run as `--child kind:threads[:file]`. */
async function child(kind: string): Promise<void> {
  const [what, threadsText, file] = kind.split(':');
  const threads = Number(threadsText);
  let out: Record<string, unknown> = {};
  if (what === 'u16' || what === 'f32') {
    const marks: number[] = [];
    const onProgress = (p: { iteration: number }) => Number.isInteger(p.iteration) && marks.push(performance.now());
    const t0 = performance.now();
    if (what === 'u16') await buildFoldedRanks({ iterations: ITER, threads, onProgress });
    else await buildRankValues({ iterations: ITER, threads, onProgress });
    const total = performance.now() - t0;
    const iterMs = marks.slice(1).map((t, i) => t - marks[i]);
    out = { setupMs: marks[0] - t0, firstIterationMs: iterMs[0], iterationMs: median(iterMs.slice(1)), totalMs: total };
  } else if (what === 'load') {
    const t0 = performance.now();
    const table = await loadRankTable(file);
    out = { totalMs: performance.now() - t0, flat: table.get((SURFACES - 1) / 2) };
  }
  out.peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(JSON.stringify(out));
}

function runChild(kind: string): Record<string, number> {
  const text = execFileSync(
    process.execPath,
    [...process.execArgv, process.argv[1], '--iterations', String(ITER), '--child', kind],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(text);
}

/** Runs a command under GNU time when it exists: wall seconds and peak RSS (MiB, null without GNU time). */
function timed(
  cmd: string,
  cmdArgs: string[],
  env: NodeJS.ProcessEnv = process.env,
): { seconds: number; peakMiB: number | null; cpuSeconds: number | null; stdout: string } {
  const useTime = existsSync(TIME);
  const t0 = performance.now();
  const r = useTime
    ? spawnSync(TIME, ['-f', '__peak_kib=%M __cpu=%U+%S', cmd, ...cmdArgs], {
        encoding: 'utf8',
        env,
        maxBuffer: 1 << 24,
      })
    : spawnSync(cmd, cmdArgs, { encoding: 'utf8', env, maxBuffer: 1 << 24 });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed: ${r.stderr}`);
  const m = /__peak_kib=(\d+) __cpu=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? '');
  return {
    seconds,
    peakMiB: m ? Math.round(Number(m[1]) / 1024) : null,
    cpuSeconds: m ? Number(m[2]) + Number(m[3]) : null,
    stdout: r.stdout,
  };
}

/** The plan file bench/native/rank.c reads (its header comment gives the layout). */
function writeNativePlan(path: string): void {
  const plan = makeRankPlan(rankMoves(9, 4), 9, 4);
  const moves = plan.delta.length;
  const words = Int32Array.of(plan.lo, plan.hi, moves, plan.runs.length / 2, SURFACES);
  const parts = [words, plan.pieceEnd, plan.delta, plan.runFirst, plan.runCount, plan.runs].map((a) =>
    Buffer.from(a.buffer, a.byteOffset, a.byteLength),
  );
  writeFileSync(path, Buffer.concat([...parts, Buffer.from(plan.hiOk)]));
}

function compileNative(dir: string): string | null {
  const cc = ['gcc', 'cc', 'clang'].find((c) => spawnSync(c, ['--version']).status === 0);
  if (!cc) {
    console.log('native baseline skipped: no C compiler (gcc, cc or clang) on this machine');
    return null;
  }
  const exe = join(dir, 'rank-native');
  const r = spawnSync(cc, ['-O3', '-march=native', '-fopenmp', join(HERE, 'native', 'rank.c'), '-o', exe], {
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    console.log(`native baseline skipped: ${cc} could not build bench/native/rank.c with OpenMP:\n${r.stderr}`);
    return null;
  }
  return exe;
}

async function main() {
  const runs = Number(args.runs);
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const dir = mkdtempSync(join(os.tmpdir(), 'stackrank-bench-'));
  const file = join(dir, 'table.srk');
  const cli = join(process.cwd(), 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run npm run build first');

  const exe = compileNative(dir);
  const planFile = join(dir, 'plan.bin');
  if (exe) writeNativePlan(planFile);
  const env = { ...process.env, OMP_NUM_THREADS: String(cores) };
  // Ours end to end and the native build take turns (which goes first alternates), so a change in the machine's
  // load during the run touches both alike.
  const e2e: ReturnType<typeof timed>[] = [];
  const native: {
    seconds: number;
    peakMiB: number | null;
    cpuSeconds: number | null;
    iterationMs: number;
    firstIterationMs: number;
  }[] = [];
  const runOurs = () =>
    e2e.push(timed(process.execPath, [cli, 'table', 'build', '--iterations', String(ITER), '--out', file]));
  const runNative = () => {
    if (!exe) return;
    const r = timed(exe, ['build', planFile, String(ITER), join(dir, 'native.u16')], env);
    const j = JSON.parse(r.stdout) as { iterationMs: number[] };
    native.push({
      seconds: r.seconds,
      peakMiB: r.peakMiB,
      cpuSeconds: r.cpuSeconds,
      iterationMs: median(j.iterationMs.slice(1)),
      firstIterationMs: j.iterationMs[0],
    });
  };
  for (let r = 0; r < runs; r++) {
    if (r % 2 === 0) runOurs(), runNative();
    else runNative(), runOurs();
  }
  const loads = Array.from({ length: runs }, () => runChild(`load:0:${file}`));
  const configs = [...new Set([1, cores])];
  const u16: Record<number, Record<string, number>[]> = {};
  for (const t of configs) u16[t] = Array.from({ length: runs }, () => runChild(`u16:${t}`));
  const f32 = args['skip-f32'] ? [] : Array.from({ length: runs }, () => runChild(`f32:${cores}`));
  const stream: { readGBs: number; copyGBs: number } | null = exe
    ? JSON.parse(timed(exe, ['stream', '512', '5'], env).stdout)
    : null;
  rmSync(dir, { recursive: true, force: true });

  const ours = median(e2e.map((r) => r.seconds));
  const nativeS = native.length ? median(native.map((r) => r.seconds)) : null;
  const peak = (xs: { peakMiB: number | null }[]) =>
    xs.length && xs[0].peakMiB !== null ? Math.max(...xs.map((x) => x.peakMiB ?? 0)) : 'n/a';
  // CPU time (user + system) says less about a loaded machine's other jobs than wall time does.
  const cpu = (xs: { cpuSeconds: number | null }[]) =>
    xs.length && xs[0].cpuSeconds !== null ? median(xs.map((x) => x.cpuSeconds ?? 0)) : 'n/a';
  console.log(
    `\nrank table 9x4, ${ITER} iterations, ${runs} runs per row (medians), ${machine().cpu}, ${cores} cores, load ${machine().loadAverage.join(' ')}\n`,
  );
  printTable([
    {
      build: `stackrank table build --out (u16 folded), threads ${cores}`,
      'total s': ours,
      'CPU s': cpu(e2e),
      'peak RSS MiB': peak(e2e),
    },
    ...(nativeS !== null
      ? [
          {
            build: `native C (gcc -O3 -march=native -fopenmp, f32), ${cores} threads`,
            'total s': nativeS,
            'CPU s': cpu(native),
            'peak RSS MiB': peak(native),
          },
        ]
      : []),
  ]);
  if (nativeS !== null) {
    const cpuRatio = native[0]?.cpuSeconds ? (cpu(e2e) as number) / (cpu(native) as number) : NaN;
    console.log(
      `\nours / native: ${(ours / nativeS).toFixed(3)} wall (target <= 0.55), ${cpuRatio.toFixed(3)} CPU time`,
    );
  }
  console.log('');
  const floorMs = (bytes: number) => (stream ? (bytes / (stream.copyGBs * 1e9)) * 1000 : NaN);
  const rows: Record<string, string | number>[] = [
    ...configs.map((t) => ({
      kernel: `u16 mirror-folded, threads ${t}`,
      'iteration ms': median(u16[t].map((x) => x.iterationMs)),
      'first iteration ms': median(u16[t].map((x) => x.firstIterationMs)),
      'setup ms': median(u16[t].map((x) => x.setupMs)),
      'total s': median(u16[t].map((x) => x.totalMs)) / 1000,
      'peak RSS MiB': Math.max(...u16[t].map((x) => x.peakRssMiB)),
      'bandwidth floor ms': floorMs(2 * 2 * SURFACES),
    })),
    ...(f32.length === 0
      ? []
      : [
          {
            kernel: `f32 (before), threads ${cores}`,
            'iteration ms': median(f32.map((x) => x.iterationMs)),
            'first iteration ms': median(f32.map((x) => x.firstIterationMs)),
            'setup ms': median(f32.map((x) => x.setupMs)),
            'total s': median(f32.map((x) => x.totalMs)) / 1000,
            'peak RSS MiB': Math.max(...f32.map((x) => x.peakRssMiB)),
            'bandwidth floor ms': floorMs(2 * 4 * SURFACES),
          },
        ]),
    ...(native.length
      ? [
          {
            kernel: `native C f32, threads ${cores}`,
            'iteration ms': median(native.map((x) => x.iterationMs)),
            'first iteration ms': median(native.map((x) => x.firstIterationMs)),
            'setup ms': NaN,
            'total s': nativeS!,
            'peak RSS MiB': peak(native),
            'bandwidth floor ms': floorMs(2 * 4 * SURFACES),
          },
        ]
      : []),
  ];
  printTable(rows);
  if (stream)
    console.log(
      `\nmemory bandwidth (C, ${cores} threads, 512 MiB): read ${stream.readGBs} GB/s, copy ${stream.copyGBs} GB/s (read + write bytes)`,
    );
  console.log(`loadRankTable(file): ${(median(loads.map((x) => x.totalMs)) / 1000).toFixed(3)} s`);
  const path = writeResults('table', {
    date: new Date().toISOString(),
    machine: machine(),
    iterations: ITER,
    runs,
    e2e,
    loads,
    u16,
    f32,
    native,
    stream,
    oursOverNative: nativeS ? ours / nativeS : null,
  });
  console.log(`\nwrote ${path}`);
}

if (args.child) await child(args.child);
else await main();
