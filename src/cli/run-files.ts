/**
 * Run files: the result file of one shard of `bench survival`, `bench game`, `bench nes` or `full play`, which is
 * also the format of their checkpoints (docs/distributed.md, docs/file-formats.md). A run file names its command,
 * the run's parameters and its shard, and holds the record of every finished game (or stream) of each part of the
 * run (one part per lookahead or per player). Records are the library's own (simulateStacking's stream records,
 * playGame's game records), so `stackrank merge` pools them with the library's merge functions and prints exactly
 * what one run over all the games prints. ./run-recorder.ts plays a run into one.
 */
import { StackRankError, describe } from '../errors.js';
import { checksum } from '../rank/file.js';
import { readTextFile } from '../rank/node-io.js';
import type { RankTable } from '../rank/table.js';
import { checkFullGameRecord, checkFullGamesRun } from '../fullboard/games.js';
import { checkGameRun, checkGameTally } from '../tetris-ai/game-results.js';
import { MAX_JSON_DEPTH, MAX_SHARDS, jsonDataProblem, shardRange, type GameRange } from '../runs.js';
import { checkRunStream, checkSimulationRun } from '../stacking-ai/simulate.js';
import { UsageError } from './args.js';
import { writeKeepingResult, writeTextAtomic } from './files.js';
import { recordedLeaf, type LeafName } from './leaf.js';
import { defineOptions, type OptionSpec, type OptionTable } from './spec.js';

export const RUN_FORMAT = 'stackrank-run';
export const RUN_VERSION = 1;
export const RUN_COMMANDS = ['bench survival', 'bench game', 'bench nes', 'full play'] as const;
export type RunCommand = (typeof RUN_COMMANDS)[number];

/** Default seconds between two checkpoint saves (a save also follows every finished part and the end). */
export const CHECKPOINT_EVERY = 10;

/** The options the three commands share: which games to play, where the result and the checkpoint go. */
export const RUN_OPTIONS = defineOptions({
  shard: {
    type: 'text',
    arg: 'I/N',
    help: 'play only shard I of N (0 <= I < N): a contiguous range of the games; merge the shard files with stackrank merge (docs/distributed.md)',
  },
  out: { type: 'outFile', help: "write the run's result file (JSON) for stackrank merge" },
  checkpoint: {
    type: 'outFile',
    help: 'record finished games in FILE and, when FILE exists, resume from it (after a crash or kill)',
  },
  checkpointEvery: {
    type: 'number',
    above: 0,
    arg: 'SECONDS',
    help: 'seconds between two checkpoint saves',
    defaultHelp: String(CHECKPOINT_EVERY),
  },
});

/**
 * The options that only say how or where a run goes, not what it measures: left out of the run's parameters. The
 * table options (a file path, which cached table) are replaced by the table itself (tableIdentity, as `rankTable`),
 * so shards on machines with the table in different places still merge.
 */
const NOT_PARAMETERS = new Set([
  'json',
  'threads',
  'shard',
  'out',
  'checkpoint',
  'checkpointEvery',
  'table',
  'iterations',
  'tableSteep',
]);

export interface RunShard extends GameRange {
  index: number;
  count: number;
}

export interface RunPart {
  /** e.g. "lookahead 2", "player both", "games". */
  key: string;
  /** Seconds spent on this part's games (over every session that played some). */
  seconds: number;
  /** The library result's run description once the part is finished (null while it is not). */
  meta: Record<string, unknown> | null;
  /** One record per finished game (or stream), in index order once the part is finished. */
  records: unknown[];
}

export interface RunFile {
  format: typeof RUN_FORMAT;
  version: typeof RUN_VERSION;
  command: RunCommand;
  params: Record<string, unknown>;
  shard: RunShard;
  parts: RunPart[];
}

/** JSON with object keys sorted at every level and undefined values left out: equal runs give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

/** Whether the run keeps records (a result file or a checkpoint): only then does it need its full identity. */
export function runRecorded(values: { shard?: string; out?: string; checkpoint?: string }): boolean {
  return values.shard !== undefined || values.out !== undefined || values.checkpoint !== undefined;
}

/**
 * Which table a run played with: its shape and, when `fingerprint` (a recorded run), a checksum of its file header,
 * which covers the checksum of its values (encoding the file costs about a table's size in memory for a moment).
 */
export function tableIdentity(table: RankTable, fingerprint: boolean) {
  return {
    width: table.width,
    maxStep: table.maxStep,
    iterations: table.iterations,
    variant: table.variant,
    ...(fingerprint ? { fingerprint: headerFingerprint(table.toBytes().slice(0, 64)) } : {}),
  };
}

/**
 * FNV-1a of a table file's 64-byte header (docs/file-formats.md) without its own header checksums (bytes 48 and
 * 60): an FNV-1a that runs over its own result ends at zero. The header holds the data checksum, the shape, the
 * encoding, the scale, the variant and the parameter block's checksum.
 */
function headerFingerprint(head: Uint8Array): string {
  head.fill(0, 48, 52);
  head.fill(0, 60, 64);
  return checksum(head).toString(16).padStart(8, '0');
}

/** The run's parameters: every option value except those that do not change the results, plus `extra`. */
export function runParams(values: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (!NOT_PARAMETERS.has(k) && v !== undefined) params[k] = v;
  return JSON.parse(canonicalJson({ ...params, ...extra })) as Record<string, unknown>;
}

/** "I/N" with 0 <= I < N <= games. */
export function parseShard(text: string, games: number): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : Number.NaN;
  const count = m ? Number(m[2]) : Number.NaN;
  if (!m || !(count >= 1 && count <= MAX_SHARDS) || !(index < count))
    throw new UsageError(
      `--shard must be I/N with 0 <= I < N <= ${MAX_SHARDS.toLocaleString('en-US')} (shards are numbered from 0, like a Kubernetes completion index); got ${JSON.stringify(text)}`,
    );
  if (count > games)
    throw new UsageError(`--shard ${index}/${count}: the run has ${games} game(s), so at most ${games} shards`);
  return { index, count };
}

function bad(path: string, why: string): never {
  throw new StackRankError('BAD_HEADER', `${path} is not a stackrank run file (${why})`);
}

/** The record check of a part of game tallies (bench game, bench nes): each record a game of at most the run's
 * params.maxPieces pieces. */
function gameTallyRecord(params: Record<string, unknown>, path: string): (record: unknown, where: string) => number {
  const { maxPieces } = params;
  if (!(Number.isSafeInteger(maxPieces) && (maxPieces as number) >= 1))
    bad(path, `params.maxPieces is ${describe(maxPieces)}`);
  return (record, where) => checkGameTally(record, where, maxPieces as number).game;
}

/**
 * What a command's finished part must say in its run description (`meta`), from the run's `params` and the part's
 * key: fields and their values, an object value compared field by field (undefined: the params do not say, not
 * compared). Merge prints a run's rows from `meta`, so a description that contradicts them is a damaged file. Each
 * command defines its own beside its library call, from the options it calls with.
 */
export type ExpectedMeta = (params: Record<string, unknown>, key: string) => Record<string, unknown>;

/**
 * What each command's parts hold, checked by the library functions that read them (docs/file-formats.md, "Run
 * files"): the part keys, a record check made from the run's parameters (returning the record's game or stream
 * index) and the check of a finished part's run description (`meta`). Each throws the library's typed error.
 */
const PART_SCHEMAS: Record<
  RunCommand,
  {
    key: RegExp;
    record(params: Record<string, unknown>, path: string): (record: unknown, where: string) => number;
    meta(meta: Record<string, unknown>, where: string): void;
  }
> = {
  'bench survival': {
    key: /^lookahead \d$/,
    record: (params, path) => {
      const maxPieces = params.maxPieces ?? null;
      if (maxPieces !== null && !(Number.isSafeInteger(maxPieces) && (maxPieces as number) >= 1))
        bad(path, `params.maxPieces is ${describe(maxPieces)}`);
      const run = { streamCount: params.games as number, maxPieces: maxPieces as number | null };
      return (record, where) => checkRunStream(record, where, run).stream;
    },
    meta: checkSimulationRun,
  },
  'bench game': {
    key: /^player (both|stackOnly|fullBoardOnly)$/,
    record: gameTallyRecord,
    meta: checkGameRun,
  },
  // NES games: one part of game tallies, as bench game's
  'bench nes': {
    key: /^games$/,
    record: gameTallyRecord,
    meta: checkGameRun,
  },
  'full play': {
    key: /^games$/,
    record: (params, path) => {
      const { seed } = params;
      if (!(Number.isSafeInteger(seed) && (seed as number) >= 0)) bad(path, `params.seed is ${describe(seed)}`);
      return (record, where) => checkFullGameRecord(record, where, seed as number).game;
    },
    meta: checkFullGamesRun,
  },
};

/** A whole number (a safe integer) of at least `min`. */
const wholeAtLeast = (v: unknown, min: number) => Number.isSafeInteger(v) && (v as number) >= min;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The parameters a run records beyond its option values (runParams' `extra`), each with its check: what the table
 * was, the full player's weights, bench game's recover weights (recorded as the weights, not the file's name).
 */
const PARAM_EXTRAS: Record<string, { is: string; ok(v: unknown): boolean }> = {
  rankTable: {
    is: 'a table identity { width, maxStep, iterations, variant, fingerprint? }',
    ok: (v) =>
      isPlainObject(v) &&
      wholeAtLeast(v.width, 1) &&
      wholeAtLeast(v.maxStep, 1) &&
      wholeAtLeast(v.iterations, 0) &&
      typeof v.variant === 'string' &&
      (v.fingerprint === undefined || typeof v.fingerprint === 'string'),
  },
  weightVector: {
    is: 'a weight vector { name, features, weights } with one finite weight per feature name',
    ok: (v) =>
      isPlainObject(v) &&
      typeof v.name === 'string' &&
      Array.isArray(v.features) &&
      Array.isArray(v.weights) &&
      v.features.length === v.weights.length &&
      v.features.every((f) => typeof f === 'string') &&
      v.weights.every((w) => Number.isFinite(w)),
  },
  recoverWeights: {
    is: 'an object of finite weights by term name',
    ok: (v) => isPlainObject(v) && Object.values(v).every((w) => Number.isFinite(w)),
  },
};

/** Whether `v` is a value the option could have had (the parse of its flag), and what it must be otherwise. */
function optionValueProblem(spec: OptionSpec, v: unknown): string | null {
  switch (spec.type) {
    case 'int':
      return wholeAtLeast(v, spec.min) && (v as number) <= spec.max ? null : `a whole number ${spec.min}..${spec.max}`;
    case 'intList':
      return Array.isArray(v) && v.length > 0 && v.every((x) => wholeAtLeast(x, spec.min) && x <= spec.max)
        ? null
        : `a list of whole numbers ${spec.min}..${spec.max}`;
    case 'number': {
      const ok =
        typeof v === 'number' &&
        Number.isFinite(v) &&
        (spec.min === undefined ? v > spec.above : v >= spec.min) &&
        (spec.max === undefined || v <= spec.max);
      return ok ? null : "a number in the option's range";
    }
    case 'choice':
      return (spec.choices as readonly unknown[]).includes(v) ? null : `one of ${spec.choices.join(', ')}`;
    case 'text':
    case 'outFile':
    case 'outDir':
      return typeof v === 'string' && v.trim() !== '' ? null : 'a non-empty string';
    case 'flag':
      return typeof v === 'boolean' ? null : 'true or false';
  }
}

/**
 * Checks a run's parameters against the options of its command (`options`, the command's own option table) and
 * the recorded extras (PARAM_EXTRAS): each value one the command could have recorded, so what prints a merged run
 * reads only values of the right kind, and the `required` ones (those it prints from) are there. Keys the command
 * does not know are left alone (they only take part in the comparison of shards). BAD_HEADER naming the file and
 * the parameter.
 */
export function checkRunParams(
  params: Record<string, unknown>,
  options: OptionTable,
  required: readonly string[],
  path: string,
): void {
  for (const key of required) if (!Object.hasOwn(params, key)) bad(path, `params.${key} is missing`);
  for (const [key, v] of Object.entries(params)) {
    const extra = Object.hasOwn(PARAM_EXTRAS, key) ? PARAM_EXTRAS[key] : undefined;
    const problem = extra
      ? extra.ok(v)
        ? null
        : extra.is
      : Object.hasOwn(options, key)
        ? optionValueProblem(options[key], v)
        : null;
    if (problem) bad(path, `params.${key} is ${describe(v)}, not ${problem}`);
  }
}

/**
 * Checks a parsed run file against its schema (docs/file-formats.md, "Run files"): nesting at most MAX_JSON_DEPTH
 * deep, the header fields, the shard, and each part (its key, seconds and run description, and every record by
 * the library's own check, within the shard's games, each game once). The first problem is BAD_HEADER (BAD_VERSION
 * for another version) naming the file and where in it.
 */
export function checkRunFile(json: unknown, path: string): RunFile {
  // First, so that nothing below (nor merge's comparisons, nor a checkpoint save) recurses without bound.
  const deep = jsonDataProblem('run', json, MAX_JSON_DEPTH);
  if (deep) bad(path, deep);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) bad(path, 'not a JSON object');
  const f = json as Record<string, unknown>;
  if (f.format !== RUN_FORMAT) bad(path, `its format is ${describe(f.format)}, not "${RUN_FORMAT}"`);
  if (f.version !== RUN_VERSION)
    throw new StackRankError(
      'BAD_VERSION',
      `${path} is a run file of version ${describe(f.version)}; this stackrank reads version ${RUN_VERSION}`,
    );
  if (!(RUN_COMMANDS as readonly unknown[]).includes(f.command))
    bad(path, `its command ${describe(f.command)} is not one of ${RUN_COMMANDS.join(', ')}`);
  if (f.params === null || typeof f.params !== 'object' || Array.isArray(f.params)) bad(path, 'params is missing');
  // A recorded default leaf reads as none (docs/file-formats.md, "Run files"): bench survival wrote one before it
  // recorded the leaf as bench game does, and those files are the same runs as the ones without it.
  const params = f.params as Record<string, unknown>;
  if (typeof params.leaf === 'string' && recordedLeaf(params.leaf as LeafName) === undefined) delete params.leaf;
  const games = (f.params as { games?: unknown }).games;
  if (!Number.isInteger(games) || (games as number) < 1 || (games as number) > MAX_SHARDS)
    bad(path, `params.games is ${describe(games)}`);
  const shard = f.shard as RunShard | undefined;
  if (
    !shard ||
    !Number.isInteger(shard.count) ||
    shard.count < 1 ||
    shard.count > (games as number) ||
    !Number.isInteger(shard.index) ||
    shard.index < 0 ||
    shard.index >= shard.count
  )
    bad(path, `its shard is ${describe(shard)}`);
  const range = shardRange(shard.index, shard.count, games as number);
  if (shard.start !== range.start || shard.end !== range.end)
    bad(
      path,
      `shard ${shard.index}/${shard.count} of ${games} games is games ${range.start}..${range.end - 1}, not ${shard.start}..${shard.end - 1}`,
    );
  if (!Array.isArray(f.parts)) bad(path, 'parts is missing');
  const schema = PART_SCHEMAS[f.command as RunCommand];
  const indexOf = schema.record(params, path);
  const keys = new Set<string>();
  // Index loops, not entries/forEach: a sparse array's holes are parts and records too (and bad ones).
  for (let i = 0; i < f.parts.length; i++) {
    const part = f.parts[i] as RunPart | null;
    if (
      part === null ||
      typeof part !== 'object' ||
      Array.isArray(part) ||
      typeof part.key !== 'string' ||
      typeof part.seconds !== 'number' ||
      !(part.seconds >= 0 && part.seconds < Number.MAX_VALUE) ||
      !Array.isArray(part.records) ||
      part.meta === undefined ||
      (part.meta !== null && (typeof part.meta !== 'object' || Array.isArray(part.meta)))
    )
      bad(path, `part ${i + 1} is not { key, seconds, meta, records }`);
    if (!schema.key.test(part.key) || keys.has(part.key))
      bad(path, `part ${i + 1}'s key ${describe(part.key)} is not a part of a ${f.command} run, or comes twice`);
    keys.add(part.key);
    const at = (check: () => void) => {
      try {
        check();
      } catch (e) {
        if (e instanceof StackRankError) bad(path, `part ${i + 1} (${part.key}): ${e.message}`);
        throw e;
      }
    };
    if (part.meta !== null) at(() => schema.meta(part.meta!, 'meta'));
    const seen = new Set<number>();
    for (let k = 0; k < part.records.length; k++) {
      at(() => {
        const index = indexOf(part.records[k], `record ${k + 1}`);
        if (index < shard.start || index >= shard.end || seen.has(index))
          throw new StackRankError(
            'BAD_HEADER',
            `record ${k + 1} is game ${index}, ${seen.has(index) ? 'which comes twice' : `outside the shard's games ${shard.start}..${shard.end - 1}`}`,
          );
        seen.add(index);
      });
    }
  }
  return f as unknown as RunFile;
}

/**
 * Checks that each finished part's run description (`meta`) agrees with what the run's `params` and the part's key
 * say (the command's `expected`): one that contradicts them is a damaged file (BAD_HEADER). Called once the
 * params are known good: by merge after checkRunParams, by resume after they equal this run's.
 */
export function checkMetaAgrees(run: RunFile, path: string, expected: ExpectedMeta): void {
  run.parts.forEach((part, i) => {
    if (part.meta === null) return;
    let fields: Record<string, unknown>;
    try {
      fields = expected(run.params, part.key);
    } catch (e) {
      // params the command's own functions refuse (e.g. no NES format) describe no run this file can hold
      if (e instanceof StackRankError) bad(path, `its params describe no run: ${e.message}`);
      throw e;
    }
    const agree = (field: string, meta: unknown, fields: Record<string, unknown>) => {
      for (const [name, value] of Object.entries(fields)) {
        if (value === undefined) continue;
        const said = isPlainObject(meta) ? meta[name] : undefined;
        if (isPlainObject(value)) {
          agree(`${field}${name}.`, said, value);
          continue;
        }
        const [saidJson, given] = [canonicalJson(said), canonicalJson(value)];
        if (saidJson !== given)
          bad(
            path,
            `part ${i + 1} (${part.key}): meta.${field}${name} is ${saidJson ?? 'not set'}, the run's params say ${given}`,
          );
      }
    };
    agree('', part.meta, fields);
  });
}

/** Reads a run file (a shard's result, a checkpoint) through the project's one reader (regular files only, bounded). */
export async function readRunFile(path: string, signal?: AbortSignal): Promise<RunFile> {
  const text = await readTextFile(path, { what: 'run file', signal });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    bad(path, 'not JSON');
  }
  return checkRunFile(json, path);
}

/** The first parameter whose value differs, for messages ("seed is 3 in a.json and 4 in b.json"). */
export function firstDifference(a: Record<string, unknown>, b: Record<string, unknown>): string {
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const x = canonicalJson(a[key]);
    const y = canonicalJson(b[key]);
    if (x !== y) return `${key} is ${x ?? 'not set'} in one and ${y ?? 'not set'} in the other`;
  }
  return 'they differ';
}

/** A part is finished when its library result was recorded and it holds one record per game of its shard. */
export function partFinished(part: RunPart, shard: GameRange): boolean {
  return part.meta !== null && part.records.length === shard.end - shard.start;
}

/**
 * Checks that `files` are the complete shards of one run: same command and parameters, the same N, every shard
 * 0..N-1 once, each finished with the same parts. Returns them in shard order.
 */
export function checkShardSet(files: readonly { path: string; run: RunFile }[]): { path: string; run: RunFile }[] {
  if (files.length === 0) throw new StackRankError('BAD_ARGUMENT', 'nothing to merge: no run files were given');
  const [first] = files;
  for (const f of files.slice(1)) {
    if (f.run.command !== first.run.command)
      throw new StackRankError(
        'RUN_MISMATCH',
        `${first.path} is a ${first.run.command} run and ${f.path} a ${f.run.command} run; only shards of one run merge`,
      );
    if (canonicalJson(f.run.params) !== canonicalJson(first.run.params))
      throw new StackRankError(
        'RUN_MISMATCH',
        `${first.path} and ${f.path} come from different runs: ${firstDifference(first.run.params, f.run.params)}`,
      );
    if (f.run.shard.count !== first.run.shard.count)
      throw new StackRankError(
        'RUN_MISMATCH',
        `${first.path} is a shard of ${first.run.shard.count} and ${f.path} a shard of ${f.run.shard.count}; give the shards of one split`,
      );
  }
  const count = first.run.shard.count;
  const byIndex = new Map<number, { path: string; run: RunFile }>();
  for (const f of files) {
    const twin = byIndex.get(f.run.shard.index);
    if (twin)
      throw new StackRankError(
        'RUN_MISMATCH',
        `${twin.path} and ${f.path} are both shard ${f.run.shard.index}/${count} (their games would count twice)`,
      );
    byIndex.set(f.run.shard.index, f);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw new StackRankError(
      'RUN_MISMATCH',
      `shard${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''} of ${count} ${missing.length > 1 ? 'are' : 'is'} missing (${missing.length} of ${count} shards missing)`,
    );
  const sorted = [...byIndex.keys()].sort((a, b) => a - b).map((i) => byIndex.get(i)!);
  const partKeys = (run: RunFile) => canonicalJson(run.parts.map((p) => p.key));
  const keys = partKeys(first.run);
  for (const f of sorted) {
    const { shard } = f.run;
    const unfinished = f.run.parts.find((p) => !partFinished(p, shard));
    const own = partKeys(f.run);
    if (!unfinished && f.run.parts.length > 0 && own !== keys)
      throw new StackRankError(
        'RUN_MISMATCH',
        `${first.path} holds the parts ${keys} and ${f.path} ${own}; the shards of one run hold the same parts in the same order`,
      );
    // A run plays at least one part: a file without any has lost them.
    if (unfinished || f.run.parts.length === 0)
      throw new StackRankError(
        'RUN_MISMATCH',
        `${f.path}: shard ${shard.index}/${count} did not finish${unfinished ? ` (${unfinished.key}: ${unfinished.records.length} of ${shard.end - shard.start} games)` : ''}; run it again with --checkpoint ${f.path} to finish it`,
      );
  }
  return sorted;
}

/** The run file of the whole run made from its shards (checked by checkShardSet): records joined in order. */
export function joinedRunFile(shards: readonly { run: RunFile }[]): RunFile {
  const first = shards[0].run;
  const games = first.params.games as number;
  return {
    format: RUN_FORMAT,
    version: RUN_VERSION,
    command: first.command,
    params: first.params,
    shard: { index: 0, count: 1, start: 0, end: games },
    parts: first.parts.map((p, k) => ({
      key: p.key,
      seconds: shards.reduce((a, s) => a + s.run.parts[k].seconds, 0),
      meta: p.meta,
      records: shards.flatMap((s) => s.run.parts[k].records),
    })),
  };
}

export async function writeRunFile(path: string, run: RunFile): Promise<void> {
  await writeKeepingResult(path, 'run result', (p) => writeTextAtomic(p, `${JSON.stringify(run)}\n`));
}
