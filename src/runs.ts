/**
 * Runs split across processes or machines (docs/distributed.md). A benchmark run is a list of numbered games (or
 * game streams) whose randomness depends only on the run's seed and the game's index, so any subset of the indices
 * can be played anywhere and the pieces pooled afterwards. These helpers are the one definition of a game range, of
 * how a run is cut into shards, and of how the records of several parts are checked and put back in order.
 */
import {
  StackRankError,
  describe,
  fieldsOnce,
  isArrayOrRevoked,
  optionNames,
  optionsObject,
  requireInt,
} from './errors.js';

/** Game indices start..end-1 of a run. */
export interface GameRange {
  start: number;
  end: number;
}

/** The most shards a run can be cut into (and the most games or streams a benchmark takes). */
export const MAX_SHARDS = 1_000_000;

const RANGE_KEYS = optionNames<GameRange>({ start: true, end: true });

/** Checks `range` against a run of `count` games: integers with 0 <= start < end <= count. Default: all of them. */
export function checkRange(what: string, range: unknown, count: number): GameRange {
  if (range === undefined) return { start: 0, end: count };
  if (range === null || typeof range !== 'object' || Array.isArray(range))
    throw new StackRankError('BAD_ARGUMENT', `${what} must be { start, end }; got ${describe(range)}`);
  const { start, end } = optionsObject(what, range as GameRange, RANGE_KEYS);
  requireInt(`${what}.start`, start, 0, count - 1);
  requireInt(`${what}.end`, end, (start as number) + 1, count);
  return { start: start as number, end: end as number };
}

/**
 * The games of shard `index` of `count` in a run of `games`: the contiguous range
 * floor(index * games / count) .. floor((index + 1) * games / count) - 1. Contiguous rather than every count-th game,
 * so that a shard is one range of the library's `range` option and a merge is a concatenation in shard order;
 * the games are independent and alike, so both cuts balance the work equally (sizes differ by at most one).
 */
export function shardRange(index: number, count: number, games: number): GameRange {
  requireInt('games', games, 1, MAX_SHARDS);
  requireInt('shard count', count, 1, games);
  requireInt('shard index', index, 0, count - 1);
  return { start: Math.floor((index * games) / count), end: Math.floor(((index + 1) * games) / count) };
}

/**
 * Puts the records of several parts of one run back in index order and checks that no index comes twice and that
 * together they cover one contiguous range (gaps are refused: a merge never invents or drops a game).
 * `indexOf` reads a record's game index (and checks the record). Returns the records in order and their range.
 */
export function joinRecords<R>(
  parts: readonly { range: GameRange; records: readonly R[] }[],
  indexOf: (record: R, where: string) => number,
): { range: GameRange; records: R[] } {
  if (parts.length === 0) throw new StackRankError('BAD_ARGUMENT', 'nothing to merge: no results were given');
  const sorted = parts
    .map((p, i) => ({ ...p, at: i }))
    .sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  const records: R[] = [];
  let next = sorted[0].range.start;
  for (const part of sorted) {
    if (part.range.start < next)
      throw new StackRankError(
        'RUN_MISMATCH',
        `results overlap: games ${part.range.start}..${Math.min(next, part.range.end) - 1} are in two of them`,
      );
    if (part.range.start > next)
      throw new StackRankError('RUN_MISMATCH', `games ${next}..${part.range.start - 1} are missing from the results`);
    const expected = part.range.end - part.range.start;
    if (!Array.isArray(part.records) || part.records.length !== expected)
      throw new StackRankError(
        'RUN_MISMATCH',
        `result ${part.at + 1} covers games ${part.range.start}..${part.range.end - 1} but holds ${Array.isArray(part.records) ? part.records.length : 'no'} game records`,
      );
    // An index loop, not forEach: a sparse array's holes are records too (and bad ones).
    for (let k = 0; k < part.records.length; k++) {
      const r = part.records[k];
      const index = indexOf(r, `result ${part.at + 1}, record ${k + 1}`);
      if (index !== part.range.start + k)
        throw new StackRankError(
          'RUN_MISMATCH',
          `result ${part.at + 1}: record ${k + 1} is game ${index}; expected game ${part.range.start + k} (records must be the range's games in order)`,
        );
      records.push(r);
    }
    next = part.range.end;
  }
  return { range: { start: sorted[0].range.start, end: next }, records };
}

/** The deepest nesting of arrays and objects a run's data may have (its files and results hold at most a few). */
export const MAX_JSON_DEPTH = 32;

/**
 * What keeps `value` from being JSON data, or undefined: a BigInt, a cycle, or arrays and objects nested deeper than
 * `maxDepth` (JSON.stringify would throw a TypeError, or a RangeError when its recursion overflows the stack). The
 * walk stops at `maxDepth`, so it never overflows itself. `where` names the value (`result 2: rules`).
 */
export function jsonDataProblem(where: string, value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const open = new Set<object>();
  const walk = (v: unknown, path: string, depth: number): string | undefined => {
    if (typeof v === 'bigint') return `${path} is a BigInt (${describe(v)}), which JSON cannot hold`;
    if (v === null || typeof v !== 'object') return undefined;
    if (depth >= maxDepth) return `${path} nests arrays and objects more than ${maxDepth} deep`;
    if (open.has(v)) return `${path} refers to itself`;
    open.add(v);
    for (const [k, item] of Object.entries(v)) {
      // Paths name the first levels only: a message about deep nesting stays one short line.
      const inner = depth >= 4 ? path : depth === 3 ? `${path}…` : Array.isArray(v) ? `${path}[${k}]` : `${path}.${k}`;
      const problem = walk(item, inner, depth + 1);
      if (problem) return problem;
    }
    open.delete(v);
    return undefined;
  };
  try {
    return walk(value, where, 0);
  } catch (e) {
    // A getter or proxy that throws.
    return `${where} cannot be read (${e instanceof Error ? e.message : describe(e)})`;
  }
}

/** `value` as JSON text for comparing runs; BAD_ARGUMENT naming `where` when it is not JSON data (jsonDataProblem). */
function runFieldJson(where: string, value: unknown): string | undefined {
  const problem = jsonDataProblem(where, value);
  if (problem) throw new StackRankError('BAD_ARGUMENT', problem);
  try {
    return JSON.stringify(value);
  } catch (e) {
    // A toJSON that throws.
    throw new StackRankError('BAD_ARGUMENT', `${where} cannot be written as JSON (${(e as Error).message})`);
  }
}

/**
 * Throws RUN_MISMATCH unless every part has the same value of each named field (compared as JSON); BAD_ARGUMENT for
 * a field that is not JSON data (a BigInt, a cycle, deep nesting).
 */
export function requireSameRun(parts: readonly object[], fields: readonly string[]): void {
  for (const field of fields) {
    const first = runFieldJson(`result 1: ${field}`, (parts[0] as Record<string, unknown>)[field]);
    parts.forEach((p, i) => {
      const value = runFieldJson(`result ${i + 1}: ${field}`, (p as Record<string, unknown>)[field]);
      if (value !== first)
        throw new StackRankError(
          'RUN_MISMATCH',
          `these results come from different runs: ${field} is ${first} in result 1 and ${value} in result ${i + 1}`,
        );
    });
  }
}

/**
 * The checks every merge of a run's parts starts with: `results` is a non-empty array of result objects from the
 * same run (the same value of each of `fields`). Returns the first, whose run fields the merged result keeps.
 */
/**
 * A merge's `results` as a caller gave them, read once (docs/errors.md): a non-empty array of result objects, each
 * copied by fieldsOnce (its own fields and `fields`), so a getter or Proxy that throws (or a revoked one) is
 * BAD_ARGUMENT, not its own exception. The merge then reads only the copies.
 */
export function readRunParts<T extends object>(merge: string, results: readonly T[], fields: readonly string[]): T[] {
  let list: unknown[] | null = null;
  try {
    if (Array.isArray(results)) list = Array.from(results);
  } catch (e) {
    throw new StackRankError('BAD_ARGUMENT', `${merge}: its results could not be read`, { cause: e });
  }
  if (!list || list.length === 0)
    throw new StackRankError('BAD_ARGUMENT', `${merge} takes a non-empty array of results; got ${describe(results)}`);
  return list.map((r, i) => fieldsOnce(`${merge}: result ${i + 1}`, recordObject(`result ${i + 1}`, r), fields) as T);
}

export function requireRunParts<T extends object>(merge: string, results: readonly T[], fields: readonly string[]): T {
  if (!Array.isArray(results) || results.length === 0)
    throw new StackRankError('BAD_ARGUMENT', `${merge} takes a non-empty array of results; got ${describe(results)}`);
  for (const [i, r] of results.entries()) recordObject(`result ${i + 1}`, r);
  requireSameRun(results, fields);
  return results[0];
}

/** A record field that must be an integer in [min, max]; a bad one is a damaged result (BAD_ARGUMENT). */
export function recordInt(where: string, name: string, value: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${where}: ${name} must be an integer from ${min} to ${max}; got ${describe(value)}`,
    );
  return value;
}

export function recordObject(where: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || isArrayOrRevoked(value))
    throw new StackRankError('BAD_ARGUMENT', `${where} must be a game record object; got ${describe(value)}`);
  return value as Record<string, unknown>;
}
