/**
 * The user's table cache (Node): tables are named by their parameters, reused when they verify, rebuilt when
 * missing or damaged. Used by `stackrank table build` without --out and by StackingAI.create.
 *
 * Names: rank-<variant>[-<randomizer>]-w<W>-s<S>-i<iterations>[-f32].srk, e.g. rank-article-w9-s4-i15.srk,
 * rank-preview-tgm1-w9-s4-i15.srk, rank-collapse-w9-s4-i15.srk, rank-preview-collapse-tgm1-w9-s4-i15.srk (the
 * randomizer carries its parameter when it is not the default: decay2).
 * The preview and weighted variants' cache is in variant-cache.ts.
 */
import { SharedWork } from '../setup-once.js';
import { StackRankError, describe, optionNames, optionsObject } from '../errors.js';
import { BUILD_OPTION_KEYS, checkBuildOptions, type CheckedBuild } from './build.js';
import { rankVariant, type ValueEncoding } from './file.js';
import {
  RANK_TABLE_BUILD_OPTIONS,
  buildCheckedRankTable,
  loadRankTable,
  type RankTable,
  type RankTableBuildOptions,
} from './table.js';
import { cacheFilePath } from './node-io.js';

/**
 * The cache file name. Everything that changes the file's bytes is in it: variant, randomizer (and parameter),
 * geometry, iterations and the value encoding (u16, the default, adds nothing, so existing caches keep their names).
 */
export function tableFileName(
  width: number,
  maxStep: number,
  iterations: number,
  variant = 'article',
  randomizerTag?: string,
  encoding: ValueEncoding = 'u16',
): string {
  return `rank-${variant}${randomizerTag ? `-${randomizerTag}` : ''}-w${width}-s${maxStep}-i${iterations}${encoding === 'u16' ? '' : `-${encoding}`}.srk`;
}

export async function cachedTablePath(
  options: RankTableBuildOptions = {},
  env?: Record<string, string | undefined>,
): Promise<string> {
  const build = checkBuildOptions(optionsObject('cachedTablePath', options, RANK_TABLE_BUILD_OPTIONS));
  return tablePath(build, checkEnv(env));
}

/** cachedTablePath for options checked already. */
function tablePath(build: CheckedBuild, env: Record<string, string | undefined> | undefined): Promise<string> {
  const { width, maxStep, iterations, steep, gravity } = build;
  return cacheFilePath(
    tableFileName(width, maxStep, iterations, rankVariant(steep, gravity), undefined, build.encoding),
    env,
  );
}

export function checkEnv(env: unknown): Record<string, string | undefined> | undefined {
  if (env === undefined) return undefined;
  if (env === null || typeof env !== 'object')
    throw new StackRankError('BAD_ARGUMENT', `env must be an object of environment variables; got ${describe(env)}`);
  const e = env as Record<string, unknown>;
  for (const key of ['XDG_CACHE_HOME', 'HOME']) {
    if (e[key] !== undefined && typeof e[key] !== 'string')
      throw new StackRankError('BAD_ARGUMENT', `env.${key} must be a string; got ${describe(e[key])}`);
  }
  return e as Record<string, string | undefined>;
}

export interface CachedTable {
  table: RankTable;
  path: string;
  /** True when the table came from the cache, false when it was built now. */
  cached: boolean;
  /** Why a cached file was not used (damaged, other parameters), if one was there. */
  rejected?: string;
}

export type CacheOptions = { force?: boolean; env?: Record<string, string | undefined> };

/** CacheOptions' keys, which the loadOrBuildCached* option lists spread. */
export const CACHE_OPTION_KEYS: { readonly [K in keyof Required<CacheOptions>]: true } = { force: true, env: true };

/**
 * Loads `path` and checks it with `fits`; builds and saves otherwise. `signal` (the build's) is looked at once more
 * between the build and the save: an abort that comes as the build ends saves no file (docs/errors.md, "What
 * cancellation promises"); once the save has begun it completes.
 */
export async function loadOrBuild<T extends { save(path: string): Promise<void> }>(
  path: string,
  force: boolean | undefined,
  load: (path: string) => Promise<T>,
  fits: (t: T) => boolean,
  build: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<{ table: T; path: string; cached: boolean; rejected?: string }> {
  let rejected: string | undefined;
  if (!force) {
    try {
      const table = await load(path);
      if (fits(table)) return { table, path, cached: true };
      rejected = `${path} holds other parameters`;
    } catch (e) {
      if (!(e instanceof StackRankError)) throw e;
      if (!/no such file/.test(e.message)) rejected = e.message;
    }
  }
  const table = await build();
  if (signal?.aborted) throw new StackRankError('ABORTED', 'the rank-table build was cancelled');
  // Another builder of the same entry (a second call in this process, another process) may have finished first:
  // then its file is used and ours dropped, so every caller ends with the table the cache holds.
  try {
    const theirs = await load(path);
    if (fits(theirs)) return { table: theirs, path, cached: true, rejected };
  } catch (e) {
    if (!(e instanceof StackRankError)) throw e;
  }
  await table.save(path);
  return { table, path, cached: false, rejected };
}

const CACHED_TABLE_OPTIONS = optionNames<RankTableBuildOptions & CacheOptions>({
  ...BUILD_OPTION_KEYS,
  encoding: true,
  ...CACHE_OPTION_KEYS,
});

/** Loads the cached table for these parameters, or builds and caches it. */
export async function loadOrBuildCachedTable(options: RankTableBuildOptions & CacheOptions = {}): Promise<CachedTable> {
  const opts = optionsObject('loadOrBuildCachedTable', options, CACHED_TABLE_OPTIONS);
  const build = checkBuildOptions(opts);
  const { width, maxStep, iterations, steep, gravity } = build;
  const path = await tablePath(build, checkEnv(opts.env));
  return loadOrBuild(
    path,
    opts.force,
    loadRankTable,
    (t) =>
      t.width === width &&
      t.maxStep === maxStep &&
      t.iterations === iterations &&
      (build.encoding ?? 'u16') === t.encoding &&
      t.variant === rankVariant(steep, gravity),
    () => buildCheckedRankTable(build),
    build.signal,
  );
}

/** The default tables being loaded or loaded, by gravity: one per process (sharedDefaultTable). */
const defaultTables = new Map<'drop' | '20G', SharedWork<CachedTable>>();

/**
 * The default table (9x4, 15 iterations, from the user cache or built; at 20G the 20G table), loaded once per
 * process: every StackingAI.create(), TetrisAI.create() and playGame() without a table shares it, and with it one
 * search image (src/kernels/search-image.ts). `signal` ends this caller's wait (ABORTED); the load itself stops
 * only when no caller waits for it any more (src/setup-once.ts).
 */
export function sharedDefaultTable(gravity: 'drop' | '20G' = 'drop', signal?: AbortSignal): Promise<CachedTable> {
  let work = defaultTables.get(gravity);
  if (!work) {
    work = new SharedWork((stop) => loadOrBuildCachedTable({ gravity, signal: stop }), "the AI's setup was aborted");
    defaultTables.set(gravity, work);
  }
  return work.get(signal);
}
