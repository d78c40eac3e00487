/**
 * The user's table cache (Node): tables are named by their parameters, reused when they verify, rebuilt when
 * missing or damaged. Used by `stackrank table build` without --out and by StackingAI.create.
 *
 * Names: rank-<variant>[-<randomizer>]-w<W>-s<S>-i<iterations>.srk, e.g. rank-article-w9-s4-i15.srk,
 * rank-preview-tgm1-w9-s4-i15.srk, rank-collapse-w9-s4-i15.srk, rank-preview-collapse-tgm1-w9-s4-i15.srk (the
 * randomizer carries its parameter when it is not the default: decay2).
 * The preview and weighted variants' cache is in variant-cache.ts.
 */
import { StackRankError } from '../errors.js';
import { checkBuildOptions } from './build.js';
import { STEEP_VARIANT } from './file.js';
import { buildRankTable, loadRankTable, type RankTable, type RankTableBuildOptions } from './table.js';

export function tableFileName(width: number, maxStep: number, iterations: number, variant = 'article', randomizerTag?: string): string {
  return `rank-${variant}${randomizerTag ? `-${randomizerTag}` : ''}-w${width}-s${maxStep}-i${iterations}.srk`;
}

export async function cachedTablePath(opts: RankTableBuildOptions = {}, env?: Record<string, string | undefined>): Promise<string> {
  const { width, maxStep, iterations, steep } = checkBuildOptions(opts);
  const { cacheDir } = await import('./node-io.js');
  const { join } = await import('node:path');
  return join(cacheDir(env), tableFileName(width, maxStep, iterations, STEEP_VARIANT.rank[steep]));
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

/** Loads `path` and checks it with `fits`; builds and saves otherwise. */
export async function loadOrBuild<T extends { save(path: string): Promise<void> }>(
  path: string,
  force: boolean | undefined,
  load: (path: string) => Promise<T>,
  fits: (t: T) => boolean,
  build: () => Promise<T>,
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
  await table.save(path);
  return { table, path, cached: false, rejected };
}

/** Loads the cached table for these parameters, or builds and caches it. */
export async function loadOrBuildCachedTable(opts: RankTableBuildOptions & CacheOptions = {}): Promise<CachedTable> {
  const { width, maxStep, iterations, steep } = checkBuildOptions(opts);
  const path = await cachedTablePath(opts, opts.env);
  return loadOrBuild(
    path,
    opts.force,
    loadRankTable,
    (t) => t.width === width && t.maxStep === maxStep && t.iterations === iterations && (opts.encoding ?? 'u16') === t.encoding && t.variant === STEEP_VARIANT.rank[steep],
    () => buildRankTable(opts),
  );
}

let defaultTable: Promise<CachedTable> | null = null;

/**
 * The default table (9x4, 15 iterations, from the user cache or built), loaded once per process: every
 * StackingAI.create() without a table shares it, and with it one search image (src/stacking/shared-table.ts).
 */
export function sharedDefaultTable(): Promise<CachedTable> {
  if (!defaultTable) {
    defaultTable = loadOrBuildCachedTable();
    // A failure is not kept: the next caller tries again.
    defaultTable.catch(() => (defaultTable = null));
  }
  return defaultTable;
}
