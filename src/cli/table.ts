/** `stackrank table build|info|rank`: build (or reuse from the cache), inspect and query rank tables. */
import { stat } from 'node:fs/promises';
import {
  parseSurface,
  surfaceIndex,
  surfaceDigits,
  surfaceFromIndex,
  DEFAULT_MAX_STEP,
  DEFAULT_WIDTH,
  MAX_MAX_STEP,
  MAX_WIDTH,
  MIN_MAX_STEP,
  MIN_WIDTH,
} from '../surface.js';
import { PIECES } from '../pieces.js';
import { StackRankError } from '../errors.js';
import { cachedTablePath, loadOrBuildCachedTable } from '../rank/cache.js';
import { loadOrBuildCachedPreviewTable, loadOrBuildCachedWeightedTable } from '../rank/variant-cache.js';
import { buildRankTable, type RankTable } from '../rank/table.js';
import { loadAnyTable } from '../rank/any.js';
import { PreviewTable, buildPreviewTable, PREVIEW_SLOTS } from '../rank/preview.js';
import { buildWeightedTable } from '../rank/weighted.js';
import { DEFAULT_MODEL_RANDOMIZER, DEFAULT_MODEL_SEED, DEFAULT_SAMPLES, MAX_SAMPLES } from '../rank/transition.js';
import { HEADER_BYTES, VALUE_ENCODINGS, decodeFixedHeader, type VariantParams } from '../rank/file.js';
import { readFileHead } from '../rank/node-io.js';
import { TABLE_STEEP } from '../rank/moves.js';
import { UsageError } from './args.js';
import { writeBytesAtomic, writeKeepingResult } from './files.js';
import { startWriting, wroteResults, type CliIO } from './io.js';
import { DENOMINATOR, ITERATIONS, THREADS, randomizerOption, seedOption } from './options.js';
import { formatDuration, progressLine } from './progress.js';
import { defineCommand } from './spec.js';

const VARIANT_NAMES = ['article', 'preview', 'weighted', '20g'] as const;

export const tableBuildCommand = defineCommand({
  path: 'table build',
  summary: 'build a rank table (or reuse the cached one)',
  description: `Builds a rank table. article: the 2009 PageRank stacking article's table. preview: values of (surface,
piece in hand) under the randomizer's piece-transition matrix, 8 per surface. weighted: the article's iteration
with the randomizer's piece frequencies. 20g: the article's iteration over the placements reachable at 20G from
TGM's spawn (rule set tgm20g; docs/rules.md, "The 20G table"). Without --out the table goes to the user cache
($XDG_CACHE_HOME/stackrank or ~/.cache/stackrank, e.g. rank-preview-tgm1-w9-s4-i15.srk) and a valid cached table
is reused (--force rebuilds it). Ctrl-C stops the build and writes nothing.`,
  options: {
    variant: { type: 'choice', choices: VARIANT_NAMES, default: 'article', help: 'which table' },
    steep: {
      type: 'choice',
      choices: TABLE_STEEP,
      default: TABLE_STEEP[0],
      help: 'what the iteration does with steep placements: forbid them (the article) or collapse them',
    },
    randomizer: randomizerOption(DEFAULT_MODEL_RANDOMIZER, 'preview and weighted: the piece model'),
    samples: {
      type: 'int',
      min: 1,
      max: MAX_SAMPLES,
      default: DEFAULT_SAMPLES,
      help: 'preview and weighted: pieces dealt to estimate the piece model',
    },
    seed: seedOption(DEFAULT_MODEL_SEED, "preview and weighted: seed of the piece model's run"),
    denominator: DENOMINATOR,
    width: {
      type: 'int',
      min: MIN_WIDTH,
      max: MAX_WIDTH,
      default: DEFAULT_WIDTH,
      help: 'columns of the surface (the well is not counted)',
    },
    maxStep: {
      type: 'int',
      min: MIN_MAX_STEP,
      max: MAX_MAX_STEP,
      default: DEFAULT_MAX_STEP,
      help: 'largest step between neighbouring columns',
    },
    iterations: ITERATIONS,
    threads: THREADS,
    encoding: {
      type: 'choice',
      choices: VALUE_ENCODINGS,
      default: VALUE_ENCODINGS[0],
      help: 'value encoding in the file',
    },
    out: { type: 'outFile', help: 'write the table here instead of the cache' },
    force: { type: 'flag', help: 'rebuild the cached table even if a valid one exists' },
  },
  async run({ values, given }, io) {
    const variant = values.variant;
    const modelGiven = (['randomizer', 'samples', 'seed', 'denominator'] as const).filter((k) => given(k));
    if ((variant === 'article' || variant === '20g') && modelGiven.length) {
      throw new UsageError(
        `--${modelGiven[0]} needs --variant preview or weighted (the ${variant} table has no piece model)`,
      );
    }
    if (variant === 'preview' && values.encoding !== 'u16')
      throw new UsageError('--variant preview tables are u16-encoded (--encoding f32 is for one value per surface)');
    const steep = values.steep;
    if ((variant === 'weighted' || variant === '20g') && steep !== 'forbid')
      throw new UsageError(`--variant ${variant} is built with --steep forbid only`);
    const randomizer = values.randomizer;
    if (values.denominator !== undefined && randomizer !== 'decay')
      throw new UsageError('--denominator is a parameter of --randomizer decay');
    const model = {
      randomizer,
      samples: values.samples,
      seed: values.seed,
      randomizerParams: values.denominator === undefined ? undefined : { denominator: values.denominator },
    };
    const opts = {
      width: values.width,
      maxStep: values.maxStep,
      iterations: values.iterations,
      threads: values.threads,
      encoding: values.encoding,
      steep,
      gravity: variant === '20g' ? ('20G' as const) : ('drop' as const),
      signal: io.signal,
      onProgress: (p: { iteration: number; iterations: number; elapsedMs: number; etaMs: number | null }) =>
        io.status(progressLine('iteration', p.iteration, p.iterations, p.elapsedMs, p.etaMs)),
    };
    const started = performance.now();
    let path: string;
    let cached = false;
    let params: VariantParams | null = null;
    let fileVariant: string;
    if (variant === 'preview' || variant === 'weighted')
      io.status(`preparing the ${variant} table (${randomizer} piece model)...`);
    // A preview table has no encoding option (it is u16, checked above).
    const { encoding: _, ...previewOpts } = opts;
    if (values.out !== undefined) {
      const table =
        variant === 'preview'
          ? await buildPreviewTable({ ...previewOpts, ...model })
          : variant === 'weighted'
            ? await buildWeightedTable({ ...opts, ...model })
            : await buildRankTable(opts);
      // A folder removed during the build sends the table to a temporary folder, named in the error (docs/cli.md).
      startWriting(io);
      await writeKeepingResult(values.out, 'table', (p) => writeBytesAtomic(p, table.toBytes()));
      params = table.params ?? null;
      fileVariant = table.variant;
      path = values.out;
    } else {
      const cache = { force: values.force, env: io.env };
      const result =
        variant === 'preview'
          ? await loadOrBuildCachedPreviewTable({ ...previewOpts, ...model, ...cache })
          : variant === 'weighted'
            ? await loadOrBuildCachedWeightedTable({ ...opts, ...model, ...cache })
            : await loadOrBuildCachedTable({ ...opts, ...cache });
      // The cache looked at the signal before saving (an interrupt before leaves no file); the file is complete now.
      wroteResults(io);
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
      const what =
        variant === 'article' || variant === '20g'
          ? `${fileVariant === 'article' ? 'rank' : fileVariant} table`
          : `${fileVariant} table (${params?.randomizer})`;
      io.out(
        `${cached ? 'using cached' : 'built'} ${opts.width}x${opts.maxStep} ${what} (${opts.iterations} iterations) in ${formatDuration(seconds * 1000)}: ${path}`,
      );
    }
    return 0;
  },
});

/** What `table info` reports of any table file: shape, variant, piece model, encoding, and its size on disk. */
/**
 * The file's folding byte (docs/file-formats.md): a loaded table does not keep it (a variant's values are folded in
 * memory or not whatever the file held), so it is read from the file's header.
 */
async function fileFolded(path: string): Promise<boolean> {
  return decodeFixedHeader(await readFileHead(path, HEADER_BYTES, 'table')).folded;
}

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
    folded: await fileFolded(path),
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

export const tableInfoCommand = defineCommand({
  path: 'table info',
  summary: 'header, variant parameters and value statistics of a table file',
  args: [{ name: 'file', help: 'table file (default: the cached 9x4x15 article table)', optional: true }],
  options: {},
  async run({ values, args }, io) {
    return info(args[0] ?? (await cachedTablePath({}, io.env)), values.json, io);
  },
});

async function info(path: string, json: boolean, io: CliIO): Promise<number> {
  const any = await loadAnyTable(path);
  if (any instanceof PreviewTable) return await previewInfo(any, path, json, io);
  const table = any;
  const stats = tableStats(table);
  const header = await tableHeader(table, path);
  if (json) {
    io.out(JSON.stringify({ ...header, stats }));
    return 0;
  }
  const fmt = (x: number) => x.toPrecision(6);
  io.out(`table ${path}`);
  io.out(
    `  ${table.width} columns, max step ${table.maxStep}, ${table.iterations} iterations, variant ${table.variant}`,
  );
  if (table.params) {
    io.out(
      `  piece weights (${modelSource(table.params)}): ${PIECES.map((p, i) => `${p} ${fmt(table.params!.model[i])}`).join('  ')}`,
    );
  }
  io.out(
    `  ${table.size.toLocaleString('en-US')} surfaces, values ${table.encoding}${table.encoding === 'u16' ? ` (scale ${table.scale.toExponential(6)})` : ''}, ${foldingText(header.folded)}, ${header.bytes.toLocaleString('en-US')} bytes`,
  );
  io.out(
    `  rank: min ${fmt(stats.min)}  mean ${fmt(stats.mean)}  max ${fmt(stats.max)}  zero on ${stats.zeros.toLocaleString('en-US')} surfaces`,
  );
  io.out(
    `  quantiles: ${Object.entries(stats.quantiles)
      .map(([k, x]) => `${k} ${fmt(x)}`)
      .join('  ')}`,
  );
  io.out(`  flat surface ${surfaceDigits(surfaceFromIndex((table.size - 1) / 2, table))}: ${fmt(stats.flat)}`);
  return 0;
}

/** The header's folding byte in words (docs/file-formats.md: 0 = one value per surface, 1 = mirror-folded). */
function foldingText(folded: boolean): string {
  return folded ? 'mirror-folded' : 'not folded';
}

function modelSource(p: VariantParams): string {
  const from =
    p.randomizer === 'custom'
      ? 'given directly'
      : p.samples === 0
        ? `${p.randomizer}, exact`
        : `${p.randomizer}, estimated from ${p.samples.toLocaleString('en-US')} pieces, seed ${p.seed}`;
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
  io.out(
    `  ${table.width} columns, max step ${table.maxStep}, ${table.iterations} iterations, variant ${table.variant}`,
  );
  io.out(
    `  ${table.size.toLocaleString('en-US')} surfaces x ${PREVIEW_SLOTS} values u16 (scale ${table.scale.toExponential(6)}), ${foldingText(header.folded)}, ${header.bytes.toLocaleString('en-US')} bytes`,
  );
  io.out(`  transition matrix P(next | in hand) (${modelSource(params)}, mirror-symmetrised):`);
  io.out(`         ${PIECES.map((p) => p.padStart(8)).join('')}`);
  for (let n = 0; n < 7; n++)
    io.out(`    ${PIECES[n]} -> ${PIECES.map((_, p) => table.transition[7 * n + p].toFixed(5).padStart(8)).join('')}`);
  io.out(`  mean value per slot: ${SLOT_NAMES.map((name, k) => `${name} ${fmt(stats.mean[k])}`).join('  ')}`);
  io.out(`  all slots zero on ${stats.zeros.toLocaleString('en-US')} surfaces`);
  io.out(
    `  flat surface ${surfaceDigits(surfaceFromIndex((table.size - 1) / 2, table))}: ${SLOT_NAMES.map((name, k) => `${name} ${fmt(stats.flat[k])}`).join('  ')}`,
  );
  return 0;
}

export const tableRankCommand = defineCommand({
  path: 'table rank',
  summary: 'values of surfaces given as digit strings, e.g. 44444444',
  description: `Prints the value of each surface: one row per surface (with --json, one object per line). A surface
is its steps between neighbouring columns as digits 0..2S (S = the table's max step; S means flat), width - 1 of
them: 44444444 is the flat 9-column surface of a max-step-4 table.`,
  args: [
    { name: 'file', help: 'table file' },
    { name: 'digits', help: 'surfaces, e.g. 44444444 45244345', variadic: true },
  ],
  options: {},
  async run({ values, args }, io) {
    const [file, ...digits] = args;
    const table = await loadAnyTable(file);
    // The digits are command-line input: a malformed surface is a usage error like any other bad argument.
    const indexOf = (d: string) => {
      let surface: ReturnType<typeof parseSurface>;
      try {
        surface = parseSurface(d, { maxStep: table.maxStep });
      } catch (e) {
        if (e instanceof StackRankError)
          throw new UsageError(`${JSON.stringify(d)} is not a surface of this table: ${e.message}`);
        throw e;
      }
      if (surface.width !== table.width) {
        throw new UsageError(`${JSON.stringify(d)} has ${d.length} digits; this table needs ${table.width - 1}`);
      }
      return surfaceIndex(surface);
    };
    const indexes = digits.map(indexOf);
    if (table instanceof PreviewTable) {
      // One row per surface: the value with each piece in hand, and after a Tetris (slot 7).
      for (const [i, d] of digits.entries()) {
        const index = indexes[i];
        const row = {
          digits: d,
          index,
          values: Object.fromEntries(SLOT_NAMES.map((name, k) => [name, table.get(index, k)])),
        };
        if (values.json) io.out(JSON.stringify(row));
        else
          io.out(
            `${row.digits}  ${Object.entries(row.values)
              .map(([k, v]) => `${k} ${v.toPrecision(6)}`)
              .join('  ')}`,
          );
      }
      return 0;
    }
    for (const [i, d] of digits.entries()) {
      const row = { digits: d, index: indexes[i], rank: table.get(indexes[i]) };
      if (values.json) io.out(JSON.stringify(row));
      else io.out(`${row.digits}  ${row.rank.toPrecision(8)}`);
    }
    return 0;
  },
});
