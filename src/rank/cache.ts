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
import { StackRankError, describe, fieldsOnce, optionNames, optionsObject } from '../errors.js';
import { inNode, nodeBuiltin } from '../node-builtins.js';
import { indexedDbAvailable, indexedDbPlace, readIndexedDb, writeIndexedDb } from './idb-cache.js';
import { type SetupEvent, type SetupReport, buildEvents } from '../setup-progress.js';
import { BUILD_OPTION_KEYS, checkBuildOptions, type CheckedBuild } from './build.js';
import { rankVariant, type ValueEncoding } from './file.js';
import {
  RANK_TABLE_BUILD_OPTIONS,
  RankTable,
  buildCheckedRankTable,
  loadRankTable,
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

/** The environment variables the cache's folder comes from (node-io.ts cacheFilePath). */
const ENV_KEYS = ['XDG_CACHE_HOME', 'HOME'] as const;

export function checkEnv(env: unknown): Record<string, string | undefined> | undefined {
  if (env === undefined) return undefined;
  if (env === null || typeof env !== 'object')
    throw new StackRankError('BAD_ARGUMENT', `env must be an object of environment variables; got ${describe(env)}`);
  // Read once (docs/errors.md): a getter or Proxy that throws is BAD_ARGUMENT; the copy is what the cache reads.
  const e = fieldsOnce('env', env, ENV_KEYS);
  for (const key of ENV_KEYS) {
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
  /**
   * In a browser, why the table just built could not be stored in IndexedDB (full, or refused): the page plays it
   * all the same, and the next page builds it again. (In Node a file that cannot be written is an IO error.)
   */
  unsaved?: string;
}

export type CacheOptions = { force?: boolean; env?: Record<string, string | undefined> };

/** CacheOptions' keys, which the loadOrBuildCached* option lists spread. */
export const CACHE_OPTION_KEYS: { readonly [K in keyof Required<CacheOptions>]: true } = { force: true, env: true };

/** The size of the file at `path` in bytes (for a setup's events: docs/game.md), or undefined. */
async function fileBytes(path: string): Promise<number | undefined> {
  try {
    return (await nodeBuiltin('fs/promises', 'the table cache').stat(path)).size;
  } catch {
    return undefined;
  }
}

/** A table the cache keeps: it has a file's bytes, and in Node saves itself as one. */
interface Cacheable {
  save(path: string): Promise<void>;
  toBytes(): Uint8Array;
}

/**
 * Where a cache entry lives: a file in Node's cache folder ($XDG_CACHE_HOME/stackrank), or in a browser (a page or a
 * web worker) an IndexedDB entry of the same name (src/rank/idb-cache.ts). Outside both, IO saying what to do.
 */
export interface CachePlace<T> {
  /** What results and events call it: the file's path, or indexeddb:stackrank/files/<name>. */
  path: string;
  /**
   * The table there and the entry's size; StackRankError IO "... no such file" when there is none, the file's error
   * when damaged. `reading` is told the size once the entry is found, before it is read and checked.
   */
  read(reading?: (bytes: number) => void): Promise<{ table: T; bytes: number }>;
  /** Stores the table there; resolves to the bytes written, or to why it could not (a browser's full IndexedDB). */
  write(table: T): Promise<number | undefined | { unsaved: string }>;
}

/** The cache place of the file `name` (tableFileName), read with `loadFile` (Node) or `fromBytes` (a browser). */
export async function cachePlace<T extends Cacheable>(
  name: string,
  env: Record<string, string | undefined> | undefined,
  loadFile: (path: string) => Promise<T>,
  fromBytes: (bytes: Uint8Array) => T,
): Promise<CachePlace<T>> {
  if (!inNode) {
    if (!indexedDbAvailable())
      throw new StackRankError(
        'IO',
        'the table cache needs IndexedDB in a browser, and it is not available here (a private window may lack it): build the table (buildRankTable) and pass it as { table }',
      );
    const path = indexedDbPlace(name);
    return {
      path,
      async read(reading) {
        const bytes = await readIndexedDb(name);
        if (!bytes) throw new StackRankError('IO', `could not read ${path}: no such file`);
        reading?.(bytes.byteLength);
        return { table: fromBytes(bytes), bytes: bytes.byteLength };
      },
      async write(table) {
        try {
          return await writeIndexedDb(name, table.toBytes());
        } catch (e) {
          // A cache that cannot be written costs the next page the build, no more.
          if (e instanceof StackRankError) return { unsaved: e.message };
          throw e;
        }
      },
    };
  }
  const path = await cacheFilePath(name, env);
  return {
    path,
    async read(reading) {
      const bytes = await fileBytes(path);
      if (bytes !== undefined) reading?.(bytes);
      return { table: await loadFile(path), bytes: bytes ?? 0 };
    },
    async write(table) {
      await table.save(path);
      return fileBytes(path);
    },
  };
}

/**
 * Loads the entry at `place` and checks it with `fits`; builds and saves otherwise. `signal` (the build's) is looked
 * at once more between the build and the save: an abort that comes as the build ends saves no file (docs/errors.md,
 * "What cancellation promises"); once the save has begun it completes. `report` hears the entry read (`load`) and
 * the entry written (`write`, with its size once in place).
 */
export async function loadOrBuild<T extends Cacheable>(
  place: CachePlace<T>,
  force: boolean | undefined,
  fits: (t: T) => boolean,
  build: () => Promise<T>,
  signal: AbortSignal | undefined,
  report?: SetupReport,
): Promise<{ table: T; path: string; cached: boolean; rejected?: string; unsaved?: string }> {
  const { path } = place;
  let rejected: string | undefined;
  if (!force) {
    try {
      const { table, bytes } = await place.read((size) => report?.({ stage: 'load', fraction: 0, path, bytes: size }));
      if (fits(table)) {
        report?.({ stage: 'load', fraction: 1, path, bytes });
        return { table, path, cached: true };
      }
      rejected = `${path} holds other parameters`;
    } catch (e) {
      if (!(e instanceof StackRankError)) throw e;
      if (!/no such file/.test(e.message)) rejected = e.message;
    }
  }
  const table = await build();
  if (signal?.aborted) throw new StackRankError('ABORTED', 'the rank-table build was cancelled');
  // Another builder of the same entry (a second call in this process, another process) may have finished first:
  // then its file is used and ours dropped, so every caller ends with the table the cache holds. Not under `force`,
  // whose caller asked for this build to replace the entry (the entry was there before it began).
  if (!force) {
    try {
      const { table: theirs } = await place.read();
      if (fits(theirs)) return { table: theirs, path, cached: true, rejected };
    } catch (e) {
      if (!(e instanceof StackRankError)) throw e;
    }
  }
  report?.({ stage: 'write', fraction: 0, path });
  const written = await place.write(table);
  if (typeof written === 'object') return { table, path, cached: false, rejected, ...written };
  report?.({ stage: 'write', fraction: 1, path, bytes: written });
  return { table, path, cached: false, rejected };
}

const CACHED_TABLE_OPTIONS = optionNames<RankTableBuildOptions & CacheOptions>({
  ...BUILD_OPTION_KEYS,
  encoding: true,
  ...CACHE_OPTION_KEYS,
});

/** Loads the cached table for these parameters, or builds and caches it. */
export async function loadOrBuildCachedTable(options: RankTableBuildOptions & CacheOptions = {}): Promise<CachedTable> {
  return cachedTable(options);
}

/** loadOrBuildCachedTable, telling `report` what it reads, builds and writes (a setup's events). */
async function cachedTable(options: RankTableBuildOptions & CacheOptions, report?: SetupReport): Promise<CachedTable> {
  const opts = optionsObject('loadOrBuildCachedTable', options, CACHED_TABLE_OPTIONS);
  const build = checkBuildOptions(opts);
  const { width, maxStep, iterations, steep, gravity } = build;
  const name = tableFileName(width, maxStep, iterations, rankVariant(steep, gravity), undefined, build.encoding);
  const place = await cachePlace(name, checkEnv(opts.env), loadRankTable, RankTable.fromBytes);
  return loadOrBuild(
    place,
    opts.force,
    (t) =>
      t.width === width &&
      t.maxStep === maxStep &&
      t.iterations === iterations &&
      (build.encoding ?? 'u16') === t.encoding &&
      t.variant === rankVariant(steep, gravity),
    () => buildCheckedRankTable(build),
    build.signal,
    report,
  );
}

/** The default tables being loaded or loaded, by gravity and size: one per process (sharedDefaultTable). */
const defaultTables = new Map<string, SharedWork<CachedTable, SetupEvent>>();

/**
 * The small table games may ask for instead of the default (TetrisAIOptions.table 'small'): 9 columns, steps within
 * ±3, 15 iterations. 5.8 MB and about 7 times faster to build than the default 9x4 (docs/game.md, "The small table").
 */
export const SMALL_TABLE = { width: 9, maxStep: 3, iterations: 15 } as const;

/**
 * The default table (9x4, 15 iterations, from the user cache or built; at 20G the 20G table), loaded once per
 * process: every StackingAI.create(), TetrisAI.create() and playGame() without a table shares it, and with it one
 * search image (src/kernels/search-image.ts). `signal` ends this caller's wait (ABORTED); the load itself stops
 * only when no caller waits for it any more (src/setup-once.ts). `report` hears the file read, the build and the
 * file written.
 */
export function sharedDefaultTable(
  gravity: 'drop' | '20G' = 'drop',
  signal?: AbortSignal,
  report?: SetupReport,
  size?: 'small',
): Promise<CachedTable> {
  const key = `${gravity}${size ? `:${size}` : ''}`;
  let work = defaultTables.get(key);
  if (!work) {
    const shape = size === 'small' ? SMALL_TABLE : {};
    work = new SharedWork(
      (stop, events) => cachedTable({ ...shape, gravity, signal: stop, onProgress: buildEvents(events) }, events),
      "the AI's setup was aborted",
    );
    defaultTables.set(key, work);
  }
  return work.get(signal, report);
}
