/**
 * Run files: the result file of one shard of `bench survival`, `bench game` or `full play`, which is also the
 * format of their checkpoints (docs/distributed.md, docs/file-formats.md). A run file names its command, the run's
 * parameters and its shard, and holds the record of every finished game (or stream) of each part of the run (one
 * part per lookahead or per player). Records are the library's own (simulateStacking's stream records,
 * playGame's game records), so `stackrank merge` pools them with the library's merge functions and prints exactly
 * what one run over all the games prints.
 */
import { readFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { StackRankError, describe } from '../errors.js';
import { checksum } from '../rank/file.js';
import type { RankTable } from '../rank/table.js';
import { MAX_SHARDS, shardRange, type GameRange } from '../runs.js';
import { UsageError } from './args.js';
import {
  CheckpointFile,
  finishingCheckpoint,
  refuseSameOutAndCheckpoint,
  writeKeepingResult,
  writeTextAtomic,
} from './files.js';
import { startWriting, type CliIO } from './io.js';
import { recordedLeaf, type LeafName } from './leaf.js';
import { defineOptions } from './spec.js';

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

/** Checks the structure of a parsed run file (its records are checked by the library when they are pooled). */
export function checkRunFile(json: unknown, path: string): RunFile {
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
  for (const [i, p] of (f.parts as unknown[]).entries()) {
    const part = p as RunPart | null;
    if (
      part === null ||
      typeof part !== 'object' ||
      typeof part.key !== 'string' ||
      typeof part.seconds !== 'number' ||
      !(part.seconds >= 0) ||
      !Array.isArray(part.records) ||
      (part.meta !== null && (typeof part.meta !== 'object' || Array.isArray(part.meta)))
    )
      bad(path, `part ${i + 1} is not { key, seconds, meta, records }`);
  }
  return f as unknown as RunFile;
}

export async function readRunFile(path: string): Promise<RunFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new StackRankError(
      'IO',
      `could not read ${path}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      {
        cause: e,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    bad(path, 'not JSON');
  }
  return checkRunFile(json, path);
}

/** The first parameter whose value differs, for messages ("seed is 3 in a.json and 4 in b.json"). */
function firstDifference(a: Record<string, unknown>, b: Record<string, unknown>): string {
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
  const keys = canonicalJson(first.run.parts.map((p) => p.key));
  for (const f of sorted) {
    const { shard } = f.run;
    const unfinished = f.run.parts.find((p) => !partFinished(p, shard));
    if (unfinished || canonicalJson(f.run.parts.map((p) => p.key)) !== keys)
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

/** One part of a run being played: what to skip (resume), and where each finished game goes. */
export interface RunPartHandle<R> {
  /** Records of this part already finished (from the checkpoint). */
  readonly resume: R[];
  /** The part's run description when the checkpoint holds it finished, else null. */
  readonly meta: Record<string, unknown> | null;
  /** A game (or stream) finished. */
  add(record: R): void;
  /** The part is done: its library result's description and the seconds this session spent on it. Returns the
   * part's seconds over every session (this session's when nothing is recorded). */
  finish(meta: Record<string, unknown>, seconds: number): number;
}

/**
 * The run being played: its shard, the records recorded so far (when it has a checkpoint or an --out file) and the
 * checkpoint's saves.
 */
export class RunRecorder {
  private lastSave = performance.now();

  constructor(
    readonly run: RunFile,
    private readonly recording: boolean,
    private readonly indexOf: (record: unknown) => number,
    private readonly checkpoint: CheckpointFile | null,
    private readonly everyMs: number,
    private readonly out: string | undefined,
    private readonly io: CliIO,
  ) {}

  get range(): GameRange {
    return { start: this.run.shard.start, end: this.run.shard.end };
  }

  part<R>(key: string): RunPartHandle<R> {
    let part = this.run.parts.find((p) => p.key === key);
    if (!part) {
      part = { key, seconds: 0, meta: null, records: [] };
      if (this.recording) this.run.parts.push(part);
    }
    const p = part;
    const prior = p.seconds;
    const started = performance.now();
    // A game played again (to describe a fully resumed part) is recorded once: games are pure, the record is the same.
    const seen = new Set(p.records.map((r) => this.indexOf(r)));
    return {
      resume: [...p.records] as R[],
      meta: p.meta,
      add: (record) => {
        if (!this.recording || seen.has(this.indexOf(record))) return;
        seen.add(this.indexOf(record));
        p.records.push(record);
        p.seconds = prior + (performance.now() - started) / 1000;
        if (performance.now() - this.lastSave >= this.everyMs) this.save();
      },
      finish: (meta, seconds) => {
        if (!this.recording) return seconds;
        p.records.sort((a, b) => this.indexOf(a) - this.indexOf(b));
        p.meta = meta;
        p.seconds = prior + seconds;
        this.save();
        return p.seconds;
      },
    };
  }

  private save(): void {
    if (!this.checkpoint) return;
    this.lastSave = performance.now();
    this.checkpoint.save(() => `${JSON.stringify(this.run)}\n`);
  }

  /**
   * Plays `work`, then saves the checkpoint with every game finished by then (also after an error or Ctrl-C) and
   * waits for the save; writes --out when the run is finished.
   */
  async play<T>(work: () => Promise<T>): Promise<T> {
    const result = await finishingCheckpoint(this.checkpoint, async () => {
      try {
        return await work();
      } finally {
        try {
          this.save();
        } catch {
          // an earlier save failed: flush reports it
        }
      }
    });
    // Only a finished run has a result file (a command stopped by Ctrl-C returns without finishing its parts).
    const finished = this.run.parts.length > 0 && this.run.parts.every((p) => partFinished(p, this.run.shard));
    if (finished && this.out !== undefined) {
      // An interrupt that came as the games ended writes no result file (the checkpoint keeps them; docs/cli.md).
      startWriting(this.io);
      await writeRunFile(this.out, this.run);
    }
    // Without --out the finished checkpoint is the run's result file (merge reads it): it must be where asked.
    else if (finished) await this.checkpoint?.keepAsResult();
    return result;
  }
}

export interface StartRunOptions {
  command: RunCommand;
  /** What one record is, for messages: a game, or (bench survival) a stream of games. */
  recordName: 'game' | 'stream';
  params: Record<string, unknown>;
  values: { shard?: string; out?: string; checkpoint?: string; checkpointEvery?: number };
  /** Reads the game (or stream) index of a record. */
  indexOf: (record: unknown) => number;
}

/**
 * Sets up a run from --shard, --out, --checkpoint and --checkpoint-every: its range of games, and, when the
 * checkpoint file exists, the games already finished (after checking that the checkpoint is one of this run).
 */
export async function startRun(io: CliIO, opts: StartRunOptions): Promise<RunRecorder> {
  const { values, command } = opts;
  const games = opts.params.games as number;
  if (values.checkpointEvery !== undefined && values.checkpoint === undefined)
    throw new UsageError('--checkpoint-every needs --checkpoint FILE');
  const split = values.shard === undefined ? { index: 0, count: 1 } : parseShard(values.shard, games);
  if (values.shard !== undefined && values.out === undefined && values.checkpoint === undefined)
    throw new UsageError(
      '--shard needs --out FILE (or --checkpoint FILE): where the shard writes its result for stackrank merge',
    );
  refuseSameOutAndCheckpoint(values);
  const shard: RunShard = { ...split, ...shardRange(split.index, split.count, games) };
  let run: RunFile = { format: RUN_FORMAT, version: RUN_VERSION, command, params: opts.params, shard, parts: [] };
  const path = values.checkpoint;
  if (path !== undefined && statSync(path, { throwIfNoEntry: false }) !== undefined) {
    const saved = await readRunFile(path);
    const what = `the checkpoint ${path} belongs to another run`;
    if (saved.command !== command)
      throw new StackRankError('RUN_MISMATCH', `${what}: it is a ${saved.command} run, not ${command}`);
    if (canonicalJson(saved.params) !== canonicalJson(opts.params))
      throw new StackRankError(
        'RUN_MISMATCH',
        `${what}: ${firstDifference(saved.params, opts.params)} (checkpoint, this run)`,
      );
    if (saved.shard.index !== shard.index || saved.shard.count !== shard.count)
      throw new StackRankError(
        'RUN_MISMATCH',
        `${what}: it is shard ${saved.shard.index}/${saved.shard.count}, this run is shard ${shard.index}/${shard.count}`,
      );
    run = saved;
    const done = saved.parts.reduce((a, p) => a + p.records.length, 0);
    io.err(`stackrank ${command}: resuming from ${path} (${done} finished ${opts.recordName} record(s))`);
  }
  const recording = runRecorded(values);
  const checkpoint = path === undefined ? null : new CheckpointFile(path, command, io.err);
  const every = (values.checkpointEvery ?? CHECKPOINT_EVERY) * 1000;
  return new RunRecorder(run, recording, opts.indexOf, checkpoint, every, values.out, io);
}
