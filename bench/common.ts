/** Shared benchmark plumbing: medians, machine facts, table printing and JSON results under bench/results/. */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

export function writeResults(name: string, data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
  return path;
}
