/**
 * RankTable: the ranks of every surface of a W x S stack, as built or loaded. Values are stored mirror-folded
 * (about half the surfaces) either as scaled u16 (default, what files hold) or f32.
 */
import {
  StackRankError,
  checkSignal,
  describe,
  optionNames,
  optionsObject,
  requireDenseArray,
  requireInt,
} from '../errors.js';
import { type Surface, checkGeometry, surfaceCount, surfaceIndex, tableSurface } from '../surface.js';
import {
  BUILD_OPTION_KEYS,
  MAX_ITERATIONS,
  checkBuildOptions,
  computeFoldedRanks,
  computePlainRanks,
  computeRankValues,
  type BuildOptions,
  type CheckedBuild,
} from './build.js';
import {
  STEEP_VARIANT,
  VARIANTS,
  type VariantName,
  bytesFrom,
  decodeTable,
  rankVariant,
  variantMirrored,
  variantTable,
  encodeTableParts,
  paramsProblem,
  tableFileBytes,
  variantSteep,
  type TableHeader,
  type ValueEncoding,
  type VariantParams,
} from './file.js';
import type { TableSteep } from './moves.js';
import { type FoldShape, foldIndex, foldShape, foldValues, unfoldValues, unfoldValuesSliced } from './fold.js';
import { readFileChecked, writeFileAtomic } from './node-io.js';

export const ARTICLE_VARIANT = STEEP_VARIANT.rank.forbid;

/** The variants a RankTable holds: one value per surface (fromValues). */
const FROM_VALUES_OPTIONS = optionNames<Parameters<typeof RankTable.fromValues>[1]>({
  width: true,
  maxStep: true,
  iterations: true,
  encoding: true,
  variant: true,
  params: true,
});
const ONE_VALUE_VARIANTS: readonly string[] = (Object.keys(VARIANTS) as VariantName[]).filter(
  (v) => VARIANTS[v].slots === 1,
);
/** Of those, the ones without a piece model (fromFolded): stored mirror-folded, or one value per surface (20g). */
const FOLDED_PLAIN_VARIANTS: readonly string[] = ONE_VALUE_VARIANTS.filter(
  (v) => VARIANTS[v as VariantName].modelValues === 0,
);
/** The article's iteration with collapsing steep placements (BuildOptions.steep 'collapse'). */
export const COLLAPSE_VARIANT = STEEP_VARIANT.rank.collapse;
const U16_MAX = 65535;
/** The constructor's first argument from this module's factories; a caller's `new RankTable(...)` is refused. */
const INTERNAL: unique symbol = Symbol('RankTable');

type TableMeta = Omit<TableHeader, 'version' | 'checksum' | 'count' | 'folded' | 'slots' | 'params'> & {
  params?: VariantParams | null;
};

export interface RankTableBuildOptions extends BuildOptions {
  /**
   * How values are computed, kept and saved: 'u16' (default: the mirror-folded u16 iteration, within about 1.5
   * units of its scale of the f32 iteration, 1.4e-5 at 9x4) or 'f32' (the f32 iteration).
   */
  encoding?: ValueEncoding;
}

export class RankTable {
  readonly width: number;
  readonly maxStep: number;
  readonly iterations: number;
  /** Number of surfaces, (2S+1)^(W-1). */
  readonly size: number;
  readonly encoding: ValueEncoding;
  readonly variant: string;
  /** u16 encoding: value = stored * scale. */
  readonly scale: number;
  /** The variant's parameters (weighted: the randomizer and its 7 piece weights); null for the article's table. */
  readonly params: VariantParams | null;
  /** The mirror-folding layout, or null for a variant whose values are not mirror-symmetric (stored in full). */
  private readonly shape: FoldShape | null;
  private readonly folded: Uint16Array | Float32Array;

  private constructor(token: typeof INTERNAL, header: TableMeta, folded: Uint16Array | Float32Array) {
    if (token !== INTERNAL)
      throw new StackRankError(
        'BAD_ARGUMENT',
        'RankTable has no public constructor: use buildRankTable, loadRankTable, RankTable.fromBytes or RankTable.fromValues',
      );
    this.width = header.width;
    this.maxStep = header.maxStep;
    this.iterations = header.iterations;
    this.encoding = header.encoding;
    this.variant = header.variant;
    this.scale = header.scale;
    this.params = header.params ?? null;
    this.size = surfaceCount(header.width, header.maxStep);
    this.shape = variantMirrored(header.variant) ? foldShape(header.width, header.maxStep) : null;
    this.folded = folded;
  }

  /** Wraps per-surface f32 values (from the kernel) as a table; values must be mirror-symmetric. */
  static fromValues(
    values: Float32Array,
    given: {
      width: number;
      maxStep: number;
      iterations: number;
      encoding?: ValueEncoding;
      variant?: string;
      params?: VariantParams | null;
    },
  ): RankTable {
    if (!(values instanceof Float32Array))
      throw new StackRankError('BAD_ARGUMENT', `values must be a Float32Array; got ${describe(values)}`);
    if (given === null || typeof given !== 'object')
      throw new StackRankError(
        'BAD_ARGUMENT',
        `fromValues needs { width, maxStep, iterations }; got ${describe(given)}`,
      );
    const meta = optionsObject('RankTable.fromValues', given, FROM_VALUES_OPTIONS) as typeof given;
    checkGeometry({ width: meta.width, maxStep: meta.maxStep });
    requireInt('iterations', meta.iterations, 1, MAX_ITERATIONS);
    const encoding = meta.encoding ?? 'u16';
    if (encoding !== 'u16' && encoding !== 'f32') {
      throw new StackRankError('BAD_ARGUMENT', `encoding must be "u16" or "f32"; got ${describe(encoding)}`);
    }
    if (meta.params !== undefined && meta.params !== null) checkParams(meta.params);
    if (meta.variant !== undefined && !ONE_VALUE_VARIANTS.includes(meta.variant))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `variant must be one of ${ONE_VALUE_VARIANTS.join(', ')} (one value per surface); got ${describe(meta.variant)}`,
      );
    // A variant with a piece model carries it, one without carries none: the file loader holds tables to that.
    const withModel = VARIANTS[(meta.variant ?? ARTICLE_VARIANT) as VariantName].modelValues > 0;
    if (withModel !== (meta.params !== undefined && meta.params !== null))
      throw new StackRankError(
        'BAD_ARGUMENT',
        withModel
          ? `a ${meta.variant} table needs params (its piece model); got ${describe(meta.params)}`
          : `a ${meta.variant ?? ARTICLE_VARIANT} table has no params; got ${describe(meta.params)}`,
      );
    const shape = foldShape(meta.width, meta.maxStep);
    if (values.length !== surfaceCount(meta.width, meta.maxStep)) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `expected ${surfaceCount(meta.width, meta.maxStep)} values for ${meta.width}x${meta.maxStep}; got ${values.length}`,
      );
    }
    // A rank is a chance: a value outside 0..1 (or NaN) would read back as another number, or not load again.
    for (let i = 0; i < values.length; i++)
      if (!(values[i] >= 0 && values[i] <= 1))
        throw new StackRankError('BAD_ARGUMENT', `value ${i} must be a rank from 0 to 1; got ${describe(values[i])}`);
    const folded = variantMirrored(meta.variant ?? ARTICLE_VARIANT)
      ? foldValues(values, shape, (n) => new Float32Array(n))
      : values.slice();
    const header: TableMeta = {
      width: meta.width,
      maxStep: meta.maxStep,
      iterations: meta.iterations,
      encoding,
      variant: meta.variant ?? ARTICLE_VARIANT,
      scale: 1,
      params: meta.params ?? null,
    };
    if (encoding === 'f32') return new RankTable(INTERNAL, header, folded);
    let max = 0;
    for (let i = 0; i < folded.length; i++) if (folded[i] > max) max = folded[i];
    const scale = max > 0 ? max / U16_MAX : 1;
    const q = new Uint16Array(folded.length);
    for (let i = 0; i < folded.length; i++) q[i] = Math.round(folded[i] / scale);
    return new RankTable(INTERNAL, { ...header, scale }, q);
  }

  /**
   * Wraps u16 values already in the table file's layout (from the u16 builds): mirror-folded for the mirror-symmetric
   * variants, one per surface in index order for `20g`; value = stored * scale. The array is kept, not copied.
   */
  static fromFolded(
    folded: Uint16Array,
    scale: number,
    meta: { width: number; maxStep: number; iterations: number; variant?: string },
  ): RankTable {
    if (!(folded instanceof Uint16Array))
      throw new StackRankError('BAD_ARGUMENT', `folded must be a Uint16Array; got ${describe(folded)}`);
    if (meta === null || typeof meta !== 'object')
      throw new StackRankError(
        'BAD_ARGUMENT',
        `fromFolded needs { width, maxStep, iterations, variant? }; got ${describe(meta)}`,
      );
    checkGeometry({ width: meta.width, maxStep: meta.maxStep });
    requireInt('iterations', meta.iterations, 1, MAX_ITERATIONS);
    // Stored values without parameters: the variants of one value per surface and no piece model.
    const variant = meta.variant ?? ARTICLE_VARIANT;
    if (!FOLDED_PLAIN_VARIANTS.includes(variant))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `fromFolded takes the ${FOLDED_PLAIN_VARIANTS.join(', ')} variant (one value per surface, no parameters); got ${describe(variant)}`,
      );
    const stored = variantMirrored(variant)
      ? foldShape(meta.width, meta.maxStep).foldedSize
      : surfaceCount(meta.width, meta.maxStep);
    if (folded.length !== stored) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `expected ${stored} ${variantMirrored(variant) ? 'folded values' : 'values, one per surface,'} for a ${variant} table ${meta.width}x${meta.maxStep}; got ${folded.length}`,
      );
    }
    if (!(scale > 0) || !Number.isFinite(scale))
      throw new StackRankError('BAD_ARGUMENT', `scale must be a positive finite number; got ${scale}`);
    const header: TableMeta = {
      width: meta.width,
      maxStep: meta.maxStep,
      iterations: meta.iterations,
      encoding: 'u16',
      variant,
      scale,
      params: null,
    };
    return new RankTable(INTERNAL, header, folded);
  }

  /** What the table's iteration did with placements leaving a step steeper than ±S (from its variant). */
  get steep(): TableSteep {
    return variantSteep(this.variant);
  }

  /** Parses table-file bytes (see docs/file-formats.md), verifying everything. */
  static fromBytes(bytes: Uint8Array): RankTable {
    const { header, data } = decodeTable(bytes);
    if (header.slots !== 1) {
      throw new StackRankError(
        'TABLE_MISMATCH',
        `this is ${variantTable(header.variant)} with ${header.slots} values per surface, not a rank table; load it with loadPreviewTable`,
      );
    }
    if (header.folded && !variantMirrored(header.variant)) {
      throw new StackRankError(
        'BAD_HEADER',
        `a ${header.variant} table is not mirror-symmetric, so its file cannot be mirror-folded`,
      );
    }
    const folded =
      header.folded || !variantMirrored(header.variant)
        ? data
        : foldValues(
            data,
            foldShape(header.width, header.maxStep),
            (n) => (header.encoding === 'u16' ? new Uint16Array(n) : new Float32Array(n)) as typeof data,
          );
    return new RankTable(INTERNAL, header, folded);
  }

  /** Rank of the surface with this index. */
  get(index: number): number {
    requireInt('surface index', index, 0, this.size - 1);
    const v = this.folded[this.shape ? foldIndex(index, this.shape) : index];
    return this.encoding === 'u16' ? v * this.scale : v;
  }

  /** Rank of a surface; steps steeper than ±S are truncated to ±S (docs/rules.md, "Surfaces"). */
  rank(surface: Surface): number {
    const checked = tableSurface(surface, 'RankTable.rank');
    const { width, maxStep } = checked;
    if (width !== this.width || maxStep !== this.maxStep) {
      throw new StackRankError(
        'TABLE_MISMATCH',
        `this table ranks ${this.width}-column surfaces with max step ${this.maxStep}; got a ${width}-column surface with max step ${maxStep}`,
      );
    }
    return this.get(surfaceIndex(checked, { truncate: true }));
  }

  /** Values for every surface, in index order, as f32 (for kernels and statistics). */
  toFloat32(): Float32Array {
    if (this.encoding === 'f32') {
      return this.shape
        ? unfoldValues(this.folded as Float32Array, this.shape, this.size, (n) => new Float32Array(n))
        : (this.folded as Float32Array).slice();
    }
    const q = this.toUint16();
    const out = new Float32Array(q.length);
    for (let i = 0; i < q.length; i++) out[i] = q[i] * this.scale;
    return out;
  }

  /** Stored u16 values for every surface in index order (u16 tables only): order-preserving, half the memory. */
  toUint16(): Uint16Array {
    if (this.encoding !== 'u16') throw new StackRankError('BAD_ARGUMENT', 'toUint16 needs a u16-encoded table');
    return this.shape
      ? unfoldValues(this.folded as Uint16Array, this.shape, this.size, (n) => new Uint16Array(n))
      : (this.folded as Uint16Array).slice();
  }

  /**
   * Order-preserving u16 ranks for every surface plus their scale (rank = q * scale), the form the search
   * kernel reads: the stored values for u16 tables, a quantisation of f32 ones.
   */
  searchValues(): { values: Uint16Array; scale: number } {
    // Memoised: every AI and simulator over this table reads the same unfolded array.
    this.searchCache ??= this.computeSearchValues();
    return this.searchCache;
  }

  private searchCache: { values: Uint16Array; scale: number } | undefined;

  /**
   * searchValues().values[index] alone. A u16 table reads it from its stored values, without unfolding all of them:
   * a game's move whose search sees no piece after the current one scores a few surfaces, and unfolding the table
   * for them took a quarter of a second and 86 MB in the middle of a game.
   */
  searchValue(index: number): number {
    requireInt('surface index', index, 0, this.size - 1);
    if (this.encoding === 'u16' && !this.searchCache)
      return this.folded[this.shape ? foldIndex(index, this.shape) : index];
    return this.searchValues().values[index];
  }

  /** The scale of searchValues() (rank = q * scale), without unfolding them for a u16 table. */
  searchScale(): number {
    if (this.searchCache) return this.searchCache.scale;
    if (this.encoding === 'u16') return this.scale;
    // An f32 table's quantisation scale depends on its largest value.
    return this.searchValues().scale;
  }

  /**
   * searchValues() written into `target` (one u16 per surface, e.g. a view of a kernel's memory) without keeping a
   * copy on the table: a search image shared by many AIs needs the values once, in its own memory. Resolves to the
   * scale. A u16 table unfolds its values in slices (a quarter of a second in all at 9x4), giving the event loop a
   * turn between them and stopping with ABORTED once `signal` aborts.
   */
  async writeSearchValues(target: Uint16Array, signal?: AbortSignal): Promise<number> {
    if (!(target instanceof Uint16Array) || target.length !== this.size)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `expected a Uint16Array with room for ${this.size} values; got ${describe(target)}`,
      );
    checkSignal(signal, 'writeSearchValues: signal');
    // An aborted signal stops the call before any work, whatever the table's size (docs/errors.md).
    if (signal?.aborted) throw new StackRankError('ABORTED', 'writeSearchValues was aborted before it began');
    if (this.searchCache) {
      target.set(this.searchCache.values);
      return this.searchCache.scale;
    }
    if (this.encoding === 'u16') {
      if (this.shape) await unfoldValuesSliced(this.folded as Uint16Array, this.shape, target, signal);
      else target.set(this.folded as Uint16Array);
      return this.scale;
    }
    const { values, scale } = this.computeSearchValues();
    target.set(values);
    return scale;
  }

  private computeSearchValues(): { values: Uint16Array; scale: number } {
    if (this.encoding === 'u16') return { values: this.toUint16(), scale: this.scale };
    const f = this.toFloat32();
    let max = 0;
    for (let i = 0; i < f.length; i++) if (f[i] > max) max = f[i];
    const scale = max > 0 ? max / U16_MAX : 1;
    const values = new Uint16Array(f.length);
    for (let i = 0; i < f.length; i++) values[i] = Math.round(f[i] / scale);
    return { values, scale };
  }

  /** The table file's bytes (mirror-folded; format version 1 for the article's table, 2 when it has parameters). */
  toBytes(): Uint8Array {
    const [head, data] = this.fileParts();
    const out = new Uint8Array(head.byteLength + data.byteLength);
    out.set(head, 0);
    out.set(data, head.byteLength);
    return out;
  }

  private fileParts(): [Uint8Array, Uint8Array] {
    return encodeTableParts(
      {
        width: this.width,
        maxStep: this.maxStep,
        iterations: this.iterations,
        encoding: this.encoding,
        folded: this.shape !== null,
        scale: this.scale,
        variant: this.variant,
        params: this.params,
      },
      this.folded,
    );
  }

  /**
   * Writes the table file atomically: to a temporary file beside `path`, then renamed into place (Node only).
   * Missing folders are created (like mkdir -p); an existing `path` must be a regular file (IO otherwise, before
   * anything is written).
   */
  async save(path: string): Promise<void> {
    await writeFileAtomic(path, this.fileParts(), { what: 'RankTable.save' });
  }
}

/** What an AI created without a table in a browser is told (the default table comes from the cache, on disk). */
export const PASS_A_TABLE_IN_A_BROWSER =
  'in a browser pass { table }: build it with buildRankTable or load it with loadRankTable';

/** Throws BAD_ARGUMENT unless `value` is a RankTable (built, loaded or from fromValues); `what` names the argument. */
export function requireRankTable(value: unknown, what = 'table'): RankTable {
  if (!(value instanceof RankTable)) {
    const hint =
      value !== null && typeof value === 'object' && (value as { slots?: unknown }).slots === 8
        ? ' (a preview table goes in previewTable)'
        : '';
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what} must be a RankTable from buildRankTable or loadRankTable; got ${describe(value)}${hint}`,
    );
  }
  return value;
}

/**
 * fromValues' `params`: written into the table's file as given, so parameters the loader would refuse (a hole in a
 * plain array, values that are not a piece model, a bad randomizer parameter: paramsProblem) are refused here.
 */
function checkParams(params: unknown): void {
  const model = (params as Partial<VariantParams>)?.model as ArrayLike<number> | undefined;
  const length = model !== null && typeof model === 'object' ? model.length : undefined;
  if (typeof params !== 'object' || (length !== 7 && length !== 49))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `params must be a piece model { randomizer, samples, seed, parameter, model: 7 or 49 numbers } (weightsModel); got ${describe(params)}`,
    );
  if (Array.isArray(model)) requireDenseArray('BAD_ARGUMENT', 'params.model', model);
  const values = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const v: unknown = (model as ArrayLike<unknown>)[i];
    if (typeof v !== 'number')
      throw new StackRankError('BAD_ARGUMENT', `params.model value ${i} must be a number; got ${describe(v)}`);
    values[i] = v;
  }
  const problem = paramsProblem({ ...(params as VariantParams), model: values });
  if (problem) throw new StackRankError('BAD_ARGUMENT', `params are not a table's variant parameters: ${problem}`);
}

/** Every option of buildRankTable (and of cachedTablePath). */
export const RANK_TABLE_BUILD_OPTIONS = optionNames<RankTableBuildOptions>({ ...BUILD_OPTION_KEYS, encoding: true });

/**
 * Builds the rank table of docs/rules.md ("The rank iteration") with the WebAssembly kernel (see BuildOptions for
 * threads, progress, abort). The default u16 encoding runs the mirror-folded u16 iteration (half the surfaces, 2-byte values; plays
 * the same moves as the f32 iteration, see bench/notes/benchmarks.md); encoding 'f32' runs the f32 iteration.
 */
export async function buildRankTable(options: RankTableBuildOptions = {}): Promise<RankTable> {
  return buildCheckedRankTable(checkBuildOptions(optionsObject('buildRankTable', options, RANK_TABLE_BUILD_OPTIONS)));
}

/** buildRankTable for options checked already (the cache builds with the options it checked). */
export async function buildCheckedRankTable(build: CheckedBuild): Promise<RankTable> {
  const { width, maxStep, iterations, steep, gravity } = build;
  const variant = rankVariant(steep, gravity);
  // The mirror-folded u16 iteration computes one surface of each mirror pair: only for mirror-symmetric variants.
  if ((build.encoding ?? 'u16') === 'u16' && variantMirrored(variant)) {
    const { folded, scale } = await computeFoldedRanks(build);
    return RankTable.fromFolded(folded, scale, { width, maxStep, iterations, variant });
  }
  // The 20G variant in u16: the same kernel over every surface (within about one unit of the f32 iteration's
  // quantised values, as the folded build is: test/rank/20g.test.ts).
  if ((build.encoding ?? 'u16') === 'u16') {
    const { values, scale } = await computePlainRanks(build);
    return RankTable.fromFolded(values, scale, { width, maxStep, iterations, variant });
  }
  const values = await computeRankValues(build);
  return RankTable.fromValues(values, {
    width,
    maxStep,
    iterations,
    encoding: build.encoding,
    variant,
  });
}

/** Loads a table from a file path (Node) or from the bytes of a table file. */
export async function loadRankTable(source: string | Uint8Array | ArrayBuffer): Promise<RankTable> {
  if (typeof source === 'string') {
    return RankTable.fromBytes(await readFileChecked(source, tableFileBytes));
  }
  const bytes = bytesFrom(source, 'loadRankTable');
  if (bytes) return RankTable.fromBytes(bytes);
  throw new StackRankError('BAD_ARGUMENT', 'loadRankTable takes a file path, a Uint8Array or an ArrayBuffer');
}
