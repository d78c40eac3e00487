/**
 * Shared benchmark plumbing: the command line, medians, machine facts, table printing and JSON results under
 * bench/results/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A script's usage: the doc comment its file opens with (every benchmark starts with one). */
export function scriptUsage(scriptUrl: string): string {
  const opening = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(fileURLToPath(scriptUrl), 'utf8'));
  if (!opening) return '';
  return opening[1]
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

/**
 * A benchmark's command line (node:util parseArgs over `options`): --help or -h prints the script's usage and
 * exits 0; an unknown option or a missing value prints what was wrong and the usage and exits 2, instead of a stack
 * trace.
 */
export function benchArgs<const O extends NonNullable<ParseArgsConfig['options']>>(scriptUrl: string, options: O) {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(scriptUsage(scriptUrl));
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, options });
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${scriptUsage(scriptUrl)}`);
    process.exit(2);
  }
}

export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'results');

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function machine() {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

export function printTable(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]);
  const cell = (v: string | number) =>
    typeof v === 'number' ? (Number.isInteger(v) ? v.toLocaleString('en-US') : v.toPrecision(4)) : v;
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(cell(r[k])).length)));
  const line = (vals: string[]) => '| ' + vals.map((v, i) => v.padEnd(widths[i])).join(' | ') + ' |';
  console.log(line(keys));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(keys.map((k) => String(cell(r[k])))));
}

/** Writes a run's figures to bench/results/NAME.json, or under BENCH_RESULTS_DIR where it is set (the tests of a
 * script, which must not touch the repository's results); returns the path. */
export function writeResults(name: string, data: unknown): string {
  const dir = process.env.BENCH_RESULTS_DIR || RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
  return path;
}

export interface Throughput {
  /** Calls per second of wall time. */
  perSecond: number;
  /** Calls per second of this process's CPU time (what one core does even when other processes share the machine). */
  perCpuSecond: number;
}

/** Calls per second of `f(i)`, i running over 0 .. count - 1 again and again for about `ms` milliseconds. */
export function throughput(f: (i: number) => number, count: number, ms: number): Throughput {
  let calls = 0;
  let sink = 0; // summed and checked so the calls cannot be optimised away
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < count; i++) sink += f(i);
    calls += count;
    t = performance.now();
  }
  const cpu = process.cpuUsage(c0);
  if (Number.isNaN(sink)) throw new Error('a measured call returned NaN');
  return { perSecond: (calls * 1000) / (t - t0), perCpuSecond: (calls * 1e6) / (cpu.user + cpu.system) };
}

/**
 * The median throughput of each variant over `rounds` rounds, the variants taking turns within each round so a load
 * change on the machine touches them all alike. Which variant goes first turns round by round (round r starts with
 * the (r mod n)-th), so none always runs right after the warm-up or right after another's garbage.
 */
export function interleavedThroughput<K extends string>(
  variants: Record<K, (i: number) => number>,
  opts: { rounds: number; count: number; ms: number },
): Record<K, Throughput & { samples: { perSecond: number[]; perCpuSecond: number[] } }> {
  const keys = Object.keys(variants) as K[];
  const samples = Object.fromEntries(keys.map((k) => [k, { perSecond: [] as number[], perCpuSecond: [] as number[] }]));
  for (let r = 0; r < opts.rounds; r++) {
    for (const k of [...keys.slice(r % keys.length), ...keys.slice(0, r % keys.length)]) {
      const t = throughput(variants[k], opts.count, opts.ms);
      samples[k].perSecond.push(t.perSecond);
      samples[k].perCpuSecond.push(t.perCpuSecond);
    }
  }
  return Object.fromEntries(
    keys.map((k) => [
      k,
      { perSecond: median(samples[k].perSecond), perCpuSecond: median(samples[k].perCpuSecond), samples: samples[k] },
    ]),
  ) as Record<K, Throughput & { samples: { perSecond: number[]; perCpuSecond: number[] } }>;
}
