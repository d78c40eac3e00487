/** `stackrank table build|info|rank`: build (or reuse from the cache), inspect and query rank tables. */
import { parseSurface, surfaceIndex, surfaceDigits, surfaceFromIndex } from '../surface.js';
import { cachedTablePath, loadOrBuildCachedTable } from '../rank/cache.js';
import { buildRankTable, loadRankTable, type RankTable } from '../rank/table.js';
import type { ValueEncoding } from '../rank/file.js';
import { MAX_ITERATIONS } from '../rank/build.js';
import { UsageError, intOption, parse } from './args.js';
import type { CliIO } from './io.js';
import { formatDuration, progressLine } from './progress.js';

const USAGE = `usage:
  stackrank table build [--width 9] [--max-step 4] [--iterations 15] [--threads N] [--encoding u16|f32]
                        [--out FILE] [--force] [--json]
      Without --out the table goes to the user cache ($XDG_CACHE_HOME/stackrank or ~/.cache/stackrank)
      and a valid cached table is reused (--force rebuilds it).
  stackrank table info [FILE] [--json]          header and value statistics (default: the cached 9x4x15 table)
  stackrank table rank FILE DIGITS... [--json]  ranks of surfaces given as digit strings, e.g. 44444444`;

export async function tableCommand(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'build') return build(rest, io);
  if (sub === 'info') return info(rest, io);
  if (sub === 'rank') return rank(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h') {
    io.out(USAGE);
    return sub ? 0 : 2;
  }
  throw new UsageError(`unknown subcommand ${JSON.stringify(sub)}; use build, info or rank`);
}

function encodingOption(v: string | undefined): ValueEncoding {
  if (v === undefined || v === 'u16' || v === 'f32') return v ?? 'u16';
  throw new UsageError(`--encoding must be u16 or f32; got ${JSON.stringify(v)}`);
}

async function build(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      width: { type: 'string' },
      'max-step': { type: 'string' },
      iterations: { type: 'string' },
      threads: { type: 'string' },
      encoding: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
    },
    false,
  );
  if (values.help) return io.out(USAGE), 0;
  void positionals;
  const opts = {
    width: intOption('width', values.width, 9, 4, 9),
    maxStep: intOption('max-step', values['max-step'], 4, 1, 4),
    iterations: intOption('iterations', values.iterations, 15, 1, MAX_ITERATIONS),
    threads: values.threads === undefined ? undefined : intOption('threads', values.threads, 1, 1, 256),
    encoding: encodingOption(values.encoding),
    signal: io.signal,
    onProgress: (p: { iteration: number; iterations: number; elapsedMs: number; etaMs: number | null }) =>
      io.status(progressLine('iteration', p.iteration, p.iterations, p.elapsedMs, p.etaMs)),
  };
  const started = performance.now();
  let path: string;
  let cached = false;
  if (values.out) {
    const table = await buildRankTable(opts);
    await table.save(values.out);
    path = values.out;
  } else {
    const result = await loadOrBuildCachedTable({ ...opts, force: values.force, env: io.env });
    if (result.rejected) io.err(`stackrank table build: rebuilding: ${result.rejected}`);
    path = result.path;
    cached = result.cached;
  }
  io.status('');
  const seconds = (performance.now() - started) / 1000;
  const summary = { path, cached, width: opts.width, maxStep: opts.maxStep, iterations: opts.iterations, encoding: opts.encoding, seconds };
  if (values.json) io.out(JSON.stringify(summary));
  else io.out(`${cached ? 'using cached' : 'built'} ${opts.width}x${opts.maxStep} rank table (${opts.iterations} iterations) in ${formatDuration(seconds * 1000)}: ${path}`);
  return 0;
}

export interface TableStats {
  min: number;
  max: number;
  mean: number;
  zeros: number;
  quantiles: Record<string, number>;
  flat: number;
}

/** Value statistics in one pass; quantiles from a 65,536-bin histogram over [min, max] (exact for u16 tables). */
export function tableStats(table: RankTable): TableStats {
  const v = table.toFloat32();
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x < min) min = x;
    if (x > max) max = x;
    if (x === 0) zeros++;
    sum += x;
  }
  const bins = new Float64Array(65536);
  const width = (max - min) / 65535 || 1;
  for (let i = 0; i < v.length; i++) bins[Math.round((v[i] - min) / width)]++;
  const quantile = (p: number) => {
    const target = p * v.length;
    let seen = 0;
    for (let b = 0; b < bins.length; b++) if ((seen += bins[b]) > target) return min + b * width;
    return max;
  };
  const flatIndex = (table.size - 1) / 2;
  return {
    min,
    max,
    mean: sum / v.length,
    zeros,
    quantiles: { p10: quantile(0.1), p50: quantile(0.5), p90: quantile(0.9), p99: quantile(0.99) },
    flat: table.get(flatIndex),
  };
}

async function info(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, {});
  if (values.help) return io.out(USAGE), 0;
  if (positionals.length > 1) throw new UsageError('table info takes at most one FILE');
  const path = positionals[0] ?? (await cachedTablePath({}, io.env));
  const table = await loadRankTable(path);
  const stats = tableStats(table);
  const header = {
    path,
    width: table.width,
    maxStep: table.maxStep,
    iterations: table.iterations,
    variant: table.variant,
    encoding: table.encoding,
    scale: table.scale,
    surfaces: table.size,
    bytes: table.toBytes().byteLength,
  };
  if (values.json) {
    io.out(JSON.stringify({ ...header, stats }));
    return 0;
  }
  const fmt = (x: number) => x.toPrecision(6);
  io.out(`table ${path}`);
  io.out(`  ${table.width} columns, max step ${table.maxStep}, ${table.iterations} iterations, variant ${table.variant}`);
  io.out(`  ${table.size.toLocaleString('en-US')} surfaces, values ${table.encoding}${table.encoding === 'u16' ? ` (scale ${table.scale.toExponential(6)})` : ''}, mirror-folded, ${header.bytes.toLocaleString('en-US')} bytes`);
  io.out(`  rank: min ${fmt(stats.min)}  mean ${fmt(stats.mean)}  max ${fmt(stats.max)}  zero on ${stats.zeros.toLocaleString('en-US')} surfaces`);
  io.out(`  quantiles: ${Object.entries(stats.quantiles).map(([k, x]) => `${k} ${fmt(x)}`).join('  ')}`);
  io.out(`  flat surface ${surfaceDigits(surfaceFromIndex((table.size - 1) / 2, table))}: ${fmt(stats.flat)}`);
  return 0;
}

async function rank(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, {});
  if (values.help) return io.out(USAGE), 0;
  const [file, ...digits] = positionals;
  if (!file || digits.length === 0) throw new UsageError('usage: stackrank table rank FILE DIGITS...');
  const table = await loadRankTable(file);
  const rows = digits.map((d) => {
    const surface = parseSurface(d, { maxStep: table.maxStep });
    if (surface.width !== table.width) {
      throw new UsageError(`${JSON.stringify(d)} has ${d.length} digits; this table needs ${table.width - 1}`);
    }
    const index = surfaceIndex(surface);
    return { digits: d, index, rank: table.get(index) };
  });
  if (values.json) io.out(JSON.stringify(rows));
  else for (const r of rows) io.out(`${r.digits}  ${r.rank.toPrecision(8)}`);
  return 0;
}
