/**
 * The user's cache (Node) for the preview and weighted table variants, next to the article's tables:
 * rank-preview[-collapse]-<randomizer>-w<W>-s<S>-i<iterations>.srk and rank-weighted-<randomizer>-....srk. A cached file is
 * reused when it verifies and its model parameters (randomizer, samples, seed, parameter; the whole matrix for a
 * custom one) are the ones asked for; otherwise it is rebuilt, saying why.
 */
import { optionNames, optionsObject } from '../errors.js';
import { isRandomizerName, randomizerDefaults } from '../randomizers/index.js';
import { BUILD_OPTION_KEYS, checkBuildOptions } from './build.js';
import {
  CACHE_OPTION_KEYS,
  type CacheOptions,
  type CachedTable,
  cachePlace,
  checkEnv,
  loadOrBuild,
  tableFileName,
} from './cache.js';
import { STEEP_VARIANT, type VariantParams } from './file.js';
import {
  PREVIEW_BUILD_OPTIONS,
  PreviewTable,
  buildPreviewTable,
  loadPreviewTable,
  type PreviewBuildOptions,
} from './preview.js';
import { RankTable, loadRankTable } from './table.js';
import {
  CUSTOM_RANDOMIZER,
  PIECE_MODEL_OPTION_KEYS,
  checkModelOptions,
  customModel,
  randomizerParameter,
} from './transition.js';
import { WEIGHTED_BUILD_OPTIONS, WEIGHTED_VARIANT, buildWeightedTable, type WeightedBuildOptions } from './weighted.js';
import { cacheFilePath } from './node-io.js';

/**
 * What a variant's model will be, without estimating it: a randomizer's name, samples, seed and parameter (or the
 * whole model when it is given directly). A cached file fits when its parameters match these.
 */
function expectedParams(
  opts: PreviewBuildOptions & WeightedBuildOptions,
  given: ArrayLike<unknown> | undefined,
  kind: 'transition' | 'weights',
): VariantParams | Omit<VariantParams, 'model'> {
  if (given !== undefined) return customModel(given as ArrayLike<number>, kind);
  const { randomizer, samples, seed } = checkModelOptions(opts);
  const parameter = randomizerParameter(randomizer, opts.randomizerParams);
  if (randomizer === 'memoryless') return { randomizer, samples: 0, seed: 0, parameter };
  return { randomizer, samples, seed, parameter };
}

function paramsTag(p: Omit<VariantParams, 'model'>): string {
  if (p.randomizer === CUSTOM_RANDOMIZER || !isRandomizerName(p.randomizer)) return p.randomizer;
  const defaults = Object.values(randomizerDefaults(p.randomizer));
  return defaults.length && defaults[0] !== p.parameter ? `${p.randomizer}${p.parameter}` : p.randomizer;
}

function paramsFit(have: VariantParams | null, want: VariantParams | Omit<VariantParams, 'model'>): boolean {
  if (!have) return false;
  if (
    have.randomizer !== want.randomizer ||
    have.samples !== want.samples ||
    have.seed !== want.seed ||
    have.parameter !== want.parameter
  )
    return false;
  if ('model' in want)
    return have.model.length === want.model.length && have.model.every((v, i) => v === want.model[i]);
  return true;
}

/** The cache path of a preview table (no estimation needed: the name carries the randomizer). */
export async function cachedPreviewTablePath(
  options: PreviewBuildOptions = {},
  env?: Record<string, string | undefined>,
): Promise<string> {
  const opts = optionsObject('cachedPreviewTablePath', options, PREVIEW_BUILD_OPTIONS) as PreviewBuildOptions;
  const { width, maxStep, iterations, steep } = checkBuildOptions(opts);
  const want = expectedParams(opts, opts.transition, 'transition');
  return cacheFilePath(
    tableFileName(width, maxStep, iterations, STEEP_VARIANT.preview[steep], paramsTag(want)),
    checkEnv(env),
  );
}

export interface CachedPreviewTable {
  table: PreviewTable;
  path: string;
  cached: boolean;
  rejected?: string;
  /** In a browser, why the table just built could not be stored (CachedTable.unsaved). */
  unsaved?: string;
}

const CACHED_PREVIEW_TABLE_OPTIONS = optionNames<PreviewBuildOptions & CacheOptions>({
  ...BUILD_OPTION_KEYS,
  ...PIECE_MODEL_OPTION_KEYS,
  transition: true,
  ...CACHE_OPTION_KEYS,
});

/** Loads the cached preview table for these parameters (e.g. rank-preview-tgm1-w9-s4-i15.srk), or builds and caches it. */
export async function loadOrBuildCachedPreviewTable(
  options: PreviewBuildOptions & CacheOptions = {},
): Promise<CachedPreviewTable> {
  const opts = optionsObject(
    'loadOrBuildCachedPreviewTable',
    options,
    CACHED_PREVIEW_TABLE_OPTIONS,
  ) as PreviewBuildOptions & CacheOptions;
  const { width, maxStep, iterations, steep } = checkBuildOptions(opts);
  const want = expectedParams(opts, opts.transition, 'transition');
  // The build's own options go on to the path and the build, which take no cache options.
  const { force, env, ...build } = opts;
  const name = tableFileName(width, maxStep, iterations, STEEP_VARIANT.preview[steep], paramsTag(want));
  const place = await cachePlace(name, checkEnv(env), loadPreviewTable, PreviewTable.fromBytes);
  return loadOrBuild(
    place,
    force,
    (t) =>
      t.variant === STEEP_VARIANT.preview[steep] &&
      t.width === width &&
      t.maxStep === maxStep &&
      t.iterations === iterations &&
      paramsFit(t.params, want),
    () => buildPreviewTable(build),
    opts.signal,
  );
}

/** The cache path of a weighted table. */
export async function cachedWeightedTablePath(
  options: WeightedBuildOptions = {},
  env?: Record<string, string | undefined>,
): Promise<string> {
  const opts = optionsObject('cachedWeightedTablePath', options, WEIGHTED_BUILD_OPTIONS) as WeightedBuildOptions;
  const { width, maxStep, iterations } = checkBuildOptions(opts);
  const want = expectedParams(opts, opts.weights, 'weights');
  return cacheFilePath(
    tableFileName(width, maxStep, iterations, WEIGHTED_VARIANT, paramsTag(want), opts.encoding),
    checkEnv(env),
  );
}

const CACHED_WEIGHTED_TABLE_OPTIONS = optionNames<WeightedBuildOptions & CacheOptions>({
  ...BUILD_OPTION_KEYS,
  ...PIECE_MODEL_OPTION_KEYS,
  encoding: true,
  weights: true,
  ...CACHE_OPTION_KEYS,
});

/** Loads the cached weighted table for these parameters (e.g. rank-weighted-tgm1-w9-s4-i15.srk), or builds and caches it. */
export async function loadOrBuildCachedWeightedTable(
  options: WeightedBuildOptions & CacheOptions = {},
): Promise<CachedTable> {
  const opts = optionsObject(
    'loadOrBuildCachedWeightedTable',
    options,
    CACHED_WEIGHTED_TABLE_OPTIONS,
  ) as WeightedBuildOptions & CacheOptions;
  const { width, maxStep, iterations } = checkBuildOptions(opts);
  const want = expectedParams(opts, opts.weights, 'weights');
  // The build's own options go on to the path and the build, which take no cache options.
  const { force, env, ...build } = opts;
  const name = tableFileName(width, maxStep, iterations, WEIGHTED_VARIANT, paramsTag(want), opts.encoding);
  const place = await cachePlace(name, checkEnv(env), loadRankTable, RankTable.fromBytes);
  return loadOrBuild(
    place,
    force,
    (t) =>
      t.variant === WEIGHTED_VARIANT &&
      t.width === width &&
      t.maxStep === maxStep &&
      t.iterations === iterations &&
      (opts.encoding ?? 'u16') === t.encoding &&
      paramsFit(t.params, want),
    () => buildWeightedTable(build),
    opts.signal,
  );
}
