/**
 * The user's table cache (Node): tables are named by their parameters, reused when they verify, rebuilt when
 * missing or damaged. Used by `stackrank table build` without --out and by StackingAI.create.
 */
import { StackRankError } from '../errors.js';
import { checkBuildOptions } from './build.js';
import { buildRankTable, loadRankTable, type RankTable, type RankTableBuildOptions } from './table.js';

export function tableFileName(width: number, maxStep: number, iterations: number, variant = 'article'): string {
  return `rank-${variant}-w${width}-s${maxStep}-i${iterations}.srk`;
}

export async function cachedTablePath(opts: RankTableBuildOptions = {}, env?: Record<string, string | undefined>): Promise<string> {
  const { width, maxStep, iterations } = checkBuildOptions(opts);
  const { cacheDir } = await import('./node-io.js');
  const { join } = await import('node:path');
  return join(cacheDir(env), tableFileName(width, maxStep, iterations));
}

export interface CachedTable {
  table: RankTable;
  path: string;
  /** True when the table came from the cache, false when it was built now. */
  cached: boolean;
  /** Why a cached file was not used (damaged, other parameters), if one was there. */
  rejected?: string;
}

/** Loads the cached table for these parameters, or builds and caches it. */
export async function loadOrBuildCachedTable(
  opts: RankTableBuildOptions & { force?: boolean; env?: Record<string, string | undefined> } = {},
): Promise<CachedTable> {
  const { width, maxStep, iterations } = checkBuildOptions(opts);
  const path = await cachedTablePath(opts, opts.env);
  let rejected: string | undefined;
  if (!opts.force) {
    try {
      const table = await loadRankTable(path);
      if (table.width === width && table.maxStep === maxStep && table.iterations === iterations && (opts.encoding ?? 'u16') === table.encoding) {
        return { table, path, cached: true };
      }
      rejected = `${path} holds other parameters`;
    } catch (e) {
      if (!(e instanceof StackRankError)) throw e;
      if (!/no such file/.test(e.message)) rejected = e.message;
    }
  }
  const table = await buildRankTable(opts);
  await table.save(path);
  return { table, path, cached: false, rejected };
}
