/**
 * The preview-aware table variant. The state is (surface s, piece n in hand); with a mirror-symmetric
 * piece-transition matrix P(p | n):
 *
 *   v_0(s, n) = 1,   v_{k+1}(s, n) = max over n's rank-legal placements c on s of  sum_p P(p | n) v_k(c, p)
 *
 * (0 when n has no placement). v_k(s, n) is the best chance of placing n and k - 1 more pieces hole-free when each
 * next piece is drawn from P(. | previous piece). Stored as 8 u16 per surface, the row layout of src/rank/piece-max.ts
 * (K = the iterations):
 *   slot n (0..6) = v_K(s, n),
 *   slot 7        = sum_p P(p | I) v_{K-1}(s, p), the value of s right after a Tetris made with the I in hand.
 * Slot 7 is the Tetris counterpart of slot 0 (= max over the I's placements c of sum_p P(p | I) v_{K-1}(c, p)):
 * both count the I and K - 1 pieces after it, as in the piece-max rows (slot 7 = r(s), slot 0 = max r(c), one table).
 * Mixing v_K instead would count one piece more after a Tetris and bias the search against leaves where it fires.
 * With the memoryless randomizer (P = 1/7 everywhere) the mean of slots 0..6 is the article's r_K(s), and the whole
 * row equals the piece-max row of the article table with K - 1 iterations (up to quantisation).
 *
 * Kernel (assembly/rank.ts previewMix / previewBlocks): seven f32 planes (one per piece) plus a spare plane, 8 x 4
 * bytes per surface in WebAssembly memory (1.38 GB for 9x4). An iteration mixes v -> u in place
 * (u(c, n) = sum_p P(p | n) v(c, p)), then for each piece n writes max-over-moves of plane n into the spare plane,
 * whose old plane becomes the spare for the next piece: planes rotate, nothing is copied.
 */
import { StackRankError, describe, optionNames, optionsObject, requireInt } from '../errors.js';
import { PIECE_COUNT } from '../pieces.js';
import { type Surface, checkGeometry, surfaceCount, surfaceIndex, tableSurface } from '../surface.js';
import { defaultThreadCount } from '../threads.js';
import { previewRows } from '../kernels/rank.js';
import { MIRROR_SLOT } from '../kernels/search-format.js';
import {
  BUILD_OPTION_KEYS,
  MAX_ITERATIONS,
  checkBuildOptions,
  progressReporter,
  type BuildOptions,
  type CheckedBuild,
} from './build.js';
import {
  STEEP_VARIANT,
  bytesFrom,
  decodeTable,
  encodeTable,
  tableFileBytes,
  variantSteep,
  variantTable,
  type VariantParams,
} from './file.js';
import { foldRows, foldShape, unfoldRows } from './fold.js';
import { rankMoves, type TableSteep } from './moves.js';
import { rankPlanSteps } from '../kernels/rank-plan.js';
import { runInSlices } from '../slices.js';
import {
  PIECE_MODEL_OPTION_KEYS,
  customModel,
  pieceModelOptions,
  runSliced,
  transitionModel,
  transitionSteps,
  type PieceModel,
  type PieceModelOptions,
} from './transition.js';
import { readFileChecked, writeFileAtomic } from './node-io.js';

export const PREVIEW_VARIANT = STEEP_VARIANT.preview.forbid;
/** The preview iteration with collapsing steep placements (BuildOptions.steep 'collapse'). */
export const PREVIEW_COLLAPSE_VARIANT = STEEP_VARIANT.preview.collapse;
const PREVIEW_VARIANTS: readonly string[] = Object.values(STEEP_VARIANT.preview);
/** Values per surface: seven pieces plus the after-Tetris value. */
export const PREVIEW_SLOTS = 8;
/** The constructor's first argument from this module's factories; a caller's `new PreviewTable(...)` is refused. */
const INTERNAL: unique symbol = Symbol('PreviewTable');

export interface PreviewBuildOptions extends BuildOptions, PieceModelOptions {
  /**
   * The transition matrix given directly (7 rows of 7, row n = piece in hand, rows summing to 1), instead of one
   * estimated from `randomizer`. It is mirror-symmetrised and recorded as randomizer "custom".
   */
  transition?: ArrayLike<ArrayLike<number>> | ArrayLike<number>;
}

function abortError(): StackRankError {
  return new StackRankError('ABORTED', 'the rank-table build was cancelled');
}

/** The piece model of a preview build: the given matrix, or the randomizer's (estimated once here). */
export function previewModel(opts: PreviewBuildOptions): PieceModel {
  return opts.transition !== undefined
    ? customModel(opts.transition, 'transition')
    : transitionModel(pieceModelOptions(opts));
}

/** previewModel with the estimation in slices, cancelled by `signal`. */
async function previewModelAsync(opts: PreviewBuildOptions, signal?: AbortSignal): Promise<PieceModel> {
  return opts.transition !== undefined
    ? customModel(opts.transition, 'transition')
    : runSliced(transitionSteps(pieceModelOptions(opts)), signal);
}

export interface PreviewResult {
  width: number;
  maxStep: number;
  iterations: number;
  steep: TableSteep;
  model: PieceModel;
  /** 8 u16 per surface, index order (slot n = v_K(s, n) / scale, slot 7 = the after-Tetris value / scale). */
  rows: Uint16Array;
  scale: number;
  /** Only with `raw`: the final f32 values, plane-major, 8 x surfaces: plane n = v(., n), plane 7 = slot 7's values. */
  values?: Float32Array;
}

/**
 * Runs the preview iteration with the WebAssembly kernel (threads: worker pool over one shared memory, like the
 * article build; every surface is computed by the same instructions whatever the thread count).
 */
export async function buildPreviewRows(
  opts: PreviewBuildOptions & { raw?: boolean; model?: PieceModel } = {},
): Promise<PreviewResult> {
  return computePreviewRows(checkPreviewBuild(opts), opts);
}

/** A preview build's options checked (checkBuildOptions, and the variant's own limit). */
export function checkPreviewBuild(opts: PreviewBuildOptions): CheckedBuild {
  const build = checkBuildOptions(opts);
  if (build.gravity !== 'drop')
    throw new StackRankError('BAD_ARGUMENT', 'preview tables are built with gravity "drop" only');
  return build;
}

/** buildPreviewRows for a checked build; `opts` gives the piece model (or what to estimate it from) and `raw`. */
async function computePreviewRows(
  build: CheckedBuild,
  opts: PreviewBuildOptions & { raw?: boolean; model?: PieceModel },
): Promise<PreviewResult> {
  const { width, maxStep, iterations, steep, signal, onProgress } = build;
  const threads = build.threads ?? (await defaultThreadCount());
  if (signal?.aborted) throw abortError();
  const model = opts.model ?? (await previewModelAsync(opts, signal));
  if (signal?.aborted) throw abortError();

  const size = surfaceCount(width, maxStep);
  const plan = await runInSlices(rankPlanSteps(rankMoves(width, maxStep, steep), width, maxStep), {
    signal,
    abortMessage: 'the rank-table build was cancelled',
  });
  const report = progressReporter(iterations, onProgress);
  const run = { iterations, threads, simd: build.simd, signal, report };
  const { rows, scale, values } = await previewRows(plan, size, model.model, run, opts.raw);
  return { width, maxStep, iterations, steep, model, rows, scale, values };
}

/**
 * A preview table: 8 u16 values per surface (see the module comment), ready for the stacking search's expectimax
 * leaves in place of the piece-max rows, plus the piece model it was built with.
 */
export class PreviewTable {
  /** PREVIEW_VARIANT, or PREVIEW_COLLAPSE_VARIANT for a table built with steep 'collapse'. */
  readonly variant: string;
  readonly width: number;
  readonly maxStep: number;
  readonly iterations: number;
  /** Number of surfaces, (2S+1)^(W-1). */
  readonly size: number;
  /** value = stored u16 * scale. */
  readonly scale: number;
  /** Randomizer name the model came from ("custom" when given directly). */
  readonly randomizer: string;
  /** Pieces dealt to estimate the model (0 = exact), the run's seed, and the randomizer's parameter. */
  readonly samples: number;
  readonly seed: number;
  readonly randomizerParameter: number;
  /** P(p | n) at [7 n + p] (mirror-symmetric, rows sum to 1); the kernel used these values rounded to f32. */
  readonly transition: Float64Array;
  /** 8 u16 per surface, in surface-index order (unfolded). */
  readonly rows: Uint16Array;

  private constructor(
    token: typeof INTERNAL,
    meta: { width: number; maxStep: number; iterations: number; scale: number; params: VariantParams; variant: string },
    rows: Uint16Array,
  ) {
    if (token !== INTERNAL)
      throw new StackRankError(
        'BAD_ARGUMENT',
        'PreviewTable has no public constructor: use buildPreviewTable, loadPreviewTable, loadOrBuildCachedPreviewTable or PreviewTable.fromBytes',
      );
    this.variant = meta.variant;
    this.width = meta.width;
    this.maxStep = meta.maxStep;
    this.iterations = meta.iterations;
    this.scale = meta.scale;
    this.size = surfaceCount(meta.width, meta.maxStep);
    this.randomizer = meta.params.randomizer;
    this.samples = meta.params.samples;
    this.seed = meta.params.seed;
    this.randomizerParameter = meta.params.parameter;
    this.transition = meta.params.model;
    if (rows.length !== this.size * PREVIEW_SLOTS) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `expected ${this.size * PREVIEW_SLOTS} values (8 per surface); got ${rows.length}`,
      );
    }
    this.rows = rows;
  }

  /** Wraps what the preview build returns (buildPreviewTable does this; the rows are kept, not copied). */
  static fromResult(r: PreviewResult): PreviewTable {
    const rows = (r as Partial<PreviewResult> | null)?.rows;
    if (!(rows instanceof Uint16Array) || !r.model || (r.steep !== 'forbid' && r.steep !== 'collapse'))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `PreviewTable.fromResult takes the preview build's result { width, maxStep, iterations, steep, model, rows, scale }; make preview tables with buildPreviewTable; got ${describe(r)}`,
      );
    checkGeometry({ width: r.width, maxStep: r.maxStep });
    requireInt('iterations', r.iterations, 1, MAX_ITERATIONS);
    if (!(r.scale > 0) || !Number.isFinite(r.scale))
      throw new StackRankError('BAD_ARGUMENT', `scale must be a positive finite number; got ${describe(r.scale)}`);
    return new PreviewTable(
      INTERNAL,
      {
        width: r.width,
        maxStep: r.maxStep,
        iterations: r.iterations,
        scale: r.scale,
        params: r.model,
        variant: STEEP_VARIANT.preview[r.steep],
      },
      r.rows,
    );
  }

  /** Parses preview-table file bytes (docs/file-formats.md), verifying everything. */
  static fromBytes(bytes: Uint8Array): PreviewTable {
    const { header, data } = decodeTable(bytes);
    if (!PREVIEW_VARIANTS.includes(header.variant) || header.slots !== PREVIEW_SLOTS || !header.params) {
      throw new StackRankError(
        'TABLE_MISMATCH',
        `this is ${variantTable(header.variant)} with ${header.slots} value(s) per surface, not a preview table; load it with loadRankTable`,
      );
    }
    const shape = foldShape(header.width, header.maxStep);
    const rows = header.folded
      ? unfoldRows(data as Uint16Array, shape, surfaceCount(header.width, header.maxStep), PREVIEW_SLOTS, MIRROR_SLOT)
      : (data as Uint16Array).slice();
    return new PreviewTable(INTERNAL, { ...header, params: header.params }, rows);
  }

  /** What the table's iteration did with placements leaving a step steeper than ±S (from its variant). */
  get steep(): TableSteep {
    return variantSteep(this.variant);
  }

  /** The piece model as the file header records it (the same shape as a rank table's `params`). */
  get params(): VariantParams {
    return {
      randomizer: this.randomizer,
      samples: this.samples,
      seed: this.seed,
      parameter: this.randomizerParameter,
      model: this.transition,
    };
  }

  /** The transition matrix as 7 rows of 7 (row n = the piece in hand, column p = the next piece). */
  transitionRows(): number[][] {
    return Array.from({ length: PIECE_COUNT }, (_, n) =>
      Array.from(this.transition.subarray(n * PIECE_COUNT, n * PIECE_COUNT + PIECE_COUNT)),
    );
  }

  /** v(s, piece) for the surface with this index; piece 7 is the after-Tetris slot. */
  get(index: number, piece: number): number {
    requireInt('surface index', index, 0, this.size - 1);
    requireInt('piece', piece, 0, PREVIEW_SLOTS - 1);
    return this.rows[index * PREVIEW_SLOTS + piece] * this.scale;
  }

  /** The 8 values of a surface's row (steps steeper than ±S are truncated, as for rank tables). */
  row(surface: Surface): number[] {
    const checked = tableSurface(surface, 'PreviewTable.row');
    const { width, maxStep } = checked;
    if (width !== this.width || maxStep !== this.maxStep) {
      throw new StackRankError(
        'TABLE_MISMATCH',
        `this table holds ${this.width}-column surfaces with max step ${this.maxStep}; got a ${width}-column surface with max step ${maxStep}`,
      );
    }
    const index = surfaceIndex(checked, { truncate: true });
    return Array.from(
      this.rows.subarray(index * PREVIEW_SLOTS, index * PREVIEW_SLOTS + PREVIEW_SLOTS),
      (q) => q * this.scale,
    );
  }

  /** The table file's bytes (format version 2, mirror-folded rows). */
  toBytes(): Uint8Array {
    const shape = foldShape(this.width, this.maxStep);
    return encodeTable(
      {
        width: this.width,
        maxStep: this.maxStep,
        iterations: this.iterations,
        encoding: 'u16',
        folded: true,
        scale: this.scale,
        variant: this.variant,
        slots: PREVIEW_SLOTS,
        params: this.params,
      },
      foldRows(this.rows, shape, PREVIEW_SLOTS),
    );
  }

  /** Writes the table file atomically (Node only), as RankTable.save: folders made if missing, a target must be a regular file. */
  async save(path: string): Promise<void> {
    await writeFileAtomic(path, this.toBytes(), { what: 'PreviewTable.save' });
  }
}

/** Every option of buildPreviewTable (and of cachedPreviewTablePath). */
export const PREVIEW_BUILD_OPTIONS = optionNames<PreviewBuildOptions>({
  ...BUILD_OPTION_KEYS,
  ...PIECE_MODEL_OPTION_KEYS,
  transition: true,
});

/** Builds a preview table (see PreviewBuildOptions: randomizer or transition, iterations, threads, progress, abort). */
export async function buildPreviewTable(options: PreviewBuildOptions = {}): Promise<PreviewTable> {
  const opts = optionsObject('buildPreviewTable', options, PREVIEW_BUILD_OPTIONS);
  return buildCheckedPreviewTable(checkPreviewBuild(opts), opts);
}

/** buildPreviewTable for a checked build; `opts` gives the piece model (or what to estimate it from). */
export async function buildCheckedPreviewTable(build: CheckedBuild, opts: PreviewBuildOptions): Promise<PreviewTable> {
  return PreviewTable.fromResult(await computePreviewRows(build, opts));
}

/** Loads a preview table from a file path (Node) or from the bytes of a table file. */
export async function loadPreviewTable(source: string | Uint8Array | ArrayBuffer): Promise<PreviewTable> {
  if (typeof source === 'string') {
    return PreviewTable.fromBytes(await readFileChecked(source, tableFileBytes, 'preview table'));
  }
  const bytes = bytesFrom(source, 'loadPreviewTable');
  if (bytes) return PreviewTable.fromBytes(bytes);
  throw new StackRankError('BAD_ARGUMENT', 'loadPreviewTable takes a file path, a Uint8Array or an ArrayBuffer');
}
