/** `stackrank table build|info|rank`: build (or reuse from the cache), inspect and query rank tables. */
import { stat } from 'node:fs/promises';
import { parseSurface, surfaceIndex, surfaceDigits, surfaceFromIndex } from '../surface.js';
import { PIECES } from '../pieces.js';
import { isRandomizerName, RANDOMIZER_NAMES, type RandomizerName } from '../randomizers/index.js';
import { cachedTablePath, loadOrBuildCachedTable } from '../rank/cache.js';
import { loadOrBuildCachedPreviewTable, loadOrBuildCachedWeightedTable } from '../rank/variant-cache.js';
import { buildRankTable, type RankTable } from '../rank/table.js';
import { loadAnyTable } from '../rank/any.js';
import { PreviewTable, buildPreviewTable, PREVIEW_SLOTS } from '../rank/preview.js';
import { buildWeightedTable } from '../rank/weighted.js';
import { MAX_SAMPLES } from '../rank/transition.js';
import type { ValueEncoding, VariantParams } from '../rank/file.js';
import { MAX_ITERATIONS } from '../rank/build.js';
import { UsageError, intOption, parse } from './args.js';
import type { CliIO } from './io.js';
import { formatDuration, progressLine } from './progress.js';
import { tableSteepOption } from './table-source.js';

const USAGE = `usage:
  stackrank table build [--variant article|preview|weighted] [--steep forbid|collapse] [--randomizer tgm1]
                        [--samples N] [--seed S] [--denominator D] [--width 9] [--max-step 4] [--iterations 15] [--threads N]
                        [--encoding u16|f32] [--out FILE] [--force] [--json]
      article: the seed's table. preview: values of (surface, piece in hand) under the randomizer's
      piece-transition matrix, 8 per surface. weighted: the article's iteration with the randomizer's piece
      frequencies. --samples/--seed: the run that estimates the randomizer's model (default 10000000, 1);
      --denominator: decay's parameter. Without --out the table goes to the user cache ($XDG_CACHE_HOME/stackrank
      or ~/.cache/stackrank, e.g. rank-preview-tgm1-w9-s4-i15.srk) and a valid cached table is reused
      (--force rebuilds it).
  stackrank table info [FILE] [--json]          header, variant parameters and value statistics
                                                (default: the cached 9x4x15 article table)
  stackrank table rank FILE DIGITS... [--json]  values of surfaces given as digit strings, e.g. 44444444`;

const VARIANT_NAMES = ['article', 'preview', 'weighted'] as const;
type VariantOption = (typeof VARIANT_NAMES)[number];

function variantOption(v: string | undefined): VariantOption {
  if (v === undefined) return 'article';
  if ((VARIANT_NAMES as readonly string[]).includes(v)) return v as VariantOption;
  throw new UsageError(`--variant must be one of ${VARIANT_NAMES.join(', ')}; got ${JSON.stringify(v)}`);
}

function randomizerOption(v: string | undefined): RandomizerName {
  if (v === undefined) return 'tgm1';
  if (isRandomizerName(v)) return v;
  throw new UsageError(`--randomizer must be one of ${RANDOMIZER_NAMES.join(', ')}; got ${JSON.stringify(v)}`);
}

function numberOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a number > 0; got ${JSON.stringify(v)}`);
  return n;
}

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
      variant: { type: 'string' },
      steep: { type: 'string' },
      randomizer: { type: 'string' },
      samples: { type: 'string' },
      seed: { type: 'string' },
      denominator: { type: 'string' },
    },
    false,
  );
  if (values.help) return io.out(USAGE), 0;
  void positionals;
  const variant = variantOption(values.variant);
  const modelGiven = ['randomizer', 'samples', 'seed', 'denominator'].filter((k) => values[k as keyof typeof values] !== undefined);
  if (variant === 'article' && modelGiven.length) {
    throw new UsageError(`--${modelGiven[0]} needs --variant preview or weighted (the article's table has no piece model)`);
  }
  if (variant === 'preview' && values.encoding !== undefined && values.encoding !== 'u16') {
    throw new UsageError('--variant preview tables are u16-encoded (--encoding f32 is for one value per surface)');
  }
  const steep = tableSteepOption(values.steep);
  if (variant === 'weighted' && steep !== 'forbid') throw new UsageError('--variant weighted is built with --steep forbid only');
  const randomizer = randomizerOption(values.randomizer);
  const denominator = numberOption('denominator', values.denominator);
  if (denominator !== undefined && randomizer !== 'decay') throw new UsageError('--denominator is a parameter of --randomizer decay');
  const model = {
    randomizer,
    samples: values.samples === undefined ? undefined : intOption('samples', values.samples, 1, 1, MAX_SAMPLES),
    seed: values.seed === undefined ? undefined : intOption('seed', values.seed, 1, 0, 0xffffffff),
    randomizerParams: denominator === undefined ? undefined : { denominator },
  };
  const opts = {
    width: intOption('width', values.width, 9, 4, 9),
    maxStep: intOption('max-step', values['max-step'], 4, 1, 4),
    iterations: intOption('iterations', values.iterations, 15, 1, MAX_ITERATIONS),
    threads: values.threads === undefined ? undefined : intOption('threads', values.threads, 1, 1, 256),
    encoding: encodingOption(values.encoding),
    steep,
    signal: io.signal,
    onProgress: (p: { iteration: number; iterations: number; elapsedMs: number; etaMs: number | null }) =>
      io.status(progressLine('iteration', p.iteration, p.iterations, p.elapsedMs, p.etaMs)),
  };
  const started = performance.now();
  let path: string;
  let cached = false;
  let params: VariantParams | null = null;
  let fileVariant: string;
  if (variant !== 'article') io.status(`preparing the ${variant} table (${randomizer} piece model)...`);
  if (values.out) {
    const table =
      variant === 'preview' ? await buildPreviewTable({ ...opts, ...model }) : variant === 'weighted' ? await buildWeightedTable({ ...opts, ...model }) : await buildRankTable(opts);
    await table.save(values.out);
    params = table.params ?? null;
    fileVariant = table.variant;
    path = values.out;
  } else {
    const cacheOpts = { ...opts, ...model, force: values.force, env: io.env };
    const result =
      variant === 'preview'
        ? await loadOrBuildCachedPreviewTable(cacheOpts)
        : variant === 'weighted'
          ? await loadOrBuildCachedWeightedTable(cacheOpts)
          : await loadOrBuildCachedTable({ ...opts, force: values.force, env: io.env });
    if (result.rejected) io.err(`stackrank table build: rebuilding: ${result.rejected}`);
    path = result.path;
    cached = result.cached;
    params = result.table.params ?? null;
    fileVariant = result.table.variant;
  }
  io.status('');
  const seconds = (performance.now() - started) / 1000;
  const summary = {
    path,
    cached,
    variant: fileVariant,
    width: opts.width,
    maxStep: opts.maxStep,
    iterations: opts.iterations,
    encoding: opts.encoding,
    ...(params ? { randomizer: params.randomizer, samples: params.samples } : {}),
    seconds,
  };
  if (values.json) io.out(JSON.stringify(summary));
  else {
    const what = variant === 'article' ? `${fileVariant === 'article' ? 'rank' : fileVariant} table` : `${fileVariant} table (${params?.randomizer})`;
    io.out(`${cached ? 'using cached' : 'built'} ${opts.width}x${opts.maxStep} ${what} (${opts.iterations} iterations) in ${formatDuration(seconds * 1000)}: ${path}`);
  }
  return 0;
}

/** What `table info` reports of any table file: shape, variant, piece model, encoding, and its size on disk. */
async function tableHeader(table: RankTable | PreviewTable, path: string) {
  const preview = table instanceof PreviewTable;
  return {
    path,
    width: table.width,
    maxStep: table.maxStep,
    iterations: table.iterations,
    variant: table.variant,
    ...(table.params ? describeParams(table.params) : {}),
    encoding: preview ? 'u16' : table.encoding,
    scale: table.scale,
    surfaces: table.size,
    slots: preview ? PREVIEW_SLOTS : 1,
    bytes: (await stat(path)).size,
  };
}

function describeParams(p: VariantParams) {
  return {
    randomizer: p.randomizer,
    samples: p.samples,
    seed: p.seed,
    randomizerParameter: p.parameter,
    ...(p.model.length === 49
      ? { transition: Array.from({ length: 7 }, (_, n) => Array.from(p.model.subarray(7 * n, 7 * n + 7))) }
      : { weights: Array.from(p.model) }),
  };
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
  const any = await loadAnyTable(path);
  if (any instanceof PreviewTable) return await previewInfo(any, path, values.json === true, io);
  const table = any;
  const stats = tableStats(table);
  const header = await tableHeader(table, path);
  if (values.json) {
    io.out(JSON.stringify({ ...header, stats }));
    return 0;
  }
  const fmt = (x: number) => x.toPrecision(6);
  io.out(`table ${path}`);
  io.out(`  ${table.width} columns, max step ${table.maxStep}, ${table.iterations} iterations, variant ${table.variant}`);
  if (table.params) {
    io.out(`  piece weights (${modelSource(table.params)}): ${PIECES.map((p, i) => `${p} ${fmt(table.params!.model[i])}`).join('  ')}`);
  }
  io.out(`  ${table.size.toLocaleString('en-US')} surfaces, values ${table.encoding}${table.encoding === 'u16' ? ` (scale ${table.scale.toExponential(6)})` : ''}, mirror-folded, ${header.bytes.toLocaleString('en-US')} bytes`);
  io.out(`  rank: min ${fmt(stats.min)}  mean ${fmt(stats.mean)}  max ${fmt(stats.max)}  zero on ${stats.zeros.toLocaleString('en-US')} surfaces`);
  io.out(`  quantiles: ${Object.entries(stats.quantiles).map(([k, x]) => `${k} ${fmt(x)}`).join('  ')}`);
  io.out(`  flat surface ${surfaceDigits(surfaceFromIndex((table.size - 1) / 2, table))}: ${fmt(stats.flat)}`);
  return 0;
}

function modelSource(p: VariantParams): string {
  const from = p.randomizer === 'custom' ? 'given directly' : p.samples === 0 ? `${p.randomizer}, exact` : `${p.randomizer}, estimated from ${p.samples.toLocaleString('en-US')} pieces, seed ${p.seed}`;
  return p.randomizer === 'decay' ? `${from}, denominator ${p.parameter}` : from;
}

/** Mean of each slot over all surfaces, surfaces whose row is all zero, and the flat surface's row. */
export function previewStats(table: PreviewTable) {
  const sums = new Float64Array(PREVIEW_SLOTS);
  let dead = 0;
  const rows = table.rows;
  for (let s = 0; s < table.size; s++) {
    let any = 0;
    for (let k = 0; k < PREVIEW_SLOTS; k++) {
      const q = rows[s * PREVIEW_SLOTS + k];
      sums[k] += q;
      any |= q;
    }
    if (!any) dead++;
  }
  const flat = (table.size - 1) / 2;
  return {
    mean: Array.from(sums, (x) => (x / table.size) * table.scale),
    zeros: dead,
    flat: Array.from({ length: PREVIEW_SLOTS }, (_, k) => table.get(flat, k)),
  };
}

const SLOT_NAMES = [...PIECES, 'after-I'];

async function previewInfo(table: PreviewTable, path: string, json: boolean, io: CliIO): Promise<number> {
  const stats = previewStats(table);
  const params = table.params;
  const header = await tableHeader(table, path);
  if (json) {
    io.out(JSON.stringify({ ...header, stats }));
    return 0;
  }
  const fmt = (x: number) => x.toPrecision(6);
  io.out(`table ${path}`);
  io.out(`  ${table.width} columns, max step ${table.maxStep}, ${table.iterations} iterations, variant ${table.variant}`);
  io.out(`  ${table.size.toLocaleString('en-US')} surfaces x ${PREVIEW_SLOTS} values u16 (scale ${table.scale.toExponential(6)}), mirror-folded, ${header.bytes.toLocaleString('en-US')} bytes`);
  io.out(`  transition matrix P(next | in hand) (${modelSource(params)}, mirror-symmetrised):`);
  io.out(`         ${PIECES.map((p) => p.padStart(8)).join('')}`);
  for (let n = 0; n < 7; n++) io.out(`    ${PIECES[n]} -> ${PIECES.map((_, p) => table.transition[7 * n + p].toFixed(5).padStart(8)).join('')}`);
  io.out(`  mean value per slot: ${SLOT_NAMES.map((name, k) => `${name} ${fmt(stats.mean[k])}`).join('  ')}`);
  io.out(`  all slots zero on ${stats.zeros.toLocaleString('en-US')} surfaces`);
  io.out(`  flat surface ${surfaceDigits(surfaceFromIndex((table.size - 1) / 2, table))}: ${SLOT_NAMES.map((name, k) => `${name} ${fmt(stats.flat[k])}`).join('  ')}`);
  return 0;
}

async function rank(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, {});
  if (values.help) return io.out(USAGE), 0;
  const [file, ...digits] = positionals;
  if (!file || digits.length === 0) throw new UsageError('usage: stackrank table rank FILE DIGITS...');
  const table = await loadAnyTable(file);
  const indexOf = (d: string) => {
    const surface = parseSurface(d, { maxStep: table.maxStep });
    if (surface.width !== table.width) {
      throw new UsageError(`${JSON.stringify(d)} has ${d.length} digits; this table needs ${table.width - 1}`);
    }
    return surfaceIndex(surface);
  };
  if (table instanceof PreviewTable) {
    // One row per surface: the value with each piece in hand, and after a Tetris (slot 7).
    const rows = digits.map((d) => {
      const index = indexOf(d);
      return { digits: d, index, values: Object.fromEntries(SLOT_NAMES.map((name, k) => [name, table.get(index, k)])) };
    });
    if (values.json) io.out(JSON.stringify(rows));
    else for (const r of rows) io.out(`${r.digits}  ${Object.entries(r.values).map(([k, v]) => `${k} ${v.toPrecision(6)}`).join('  ')}`);
    return 0;
  }
  const rows = digits.map((d) => {
    const index = indexOf(d);
    return { digits: d, index, rank: table.get(index) };
  });
  if (values.json) io.out(JSON.stringify(rows));
  else for (const r of rows) io.out(`${r.digits}  ${r.rank.toPrecision(8)}`);
  return 0;
}
