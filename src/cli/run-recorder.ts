/**
 * A run being played and recorded (docs/distributed.md): `startRun` reads --shard, --out, --checkpoint and
 * --checkpoint-every, resumes from the checkpoint when it holds games of this run, and gives the command a
 * RunRecorder that records each finished game (or stream), saves the checkpoint every few seconds and writes the
 * run file (./run-files.ts) once the run is finished.
 */
import { statSync } from 'node:fs';
import { StackRankError } from '../errors.js';
import { shardRange, type GameRange } from '../runs.js';
import { UsageError } from './args.js';
import { CheckpointFile, finishingCheckpoint, refuseSameOutAndCheckpoint } from './files.js';
import { startWriting, type CliIO } from './io.js';
import {
  CHECKPOINT_EVERY,
  RUN_FORMAT,
  RUN_VERSION,
  canonicalJson,
  checkMetaAgrees,
  firstDifference,
  parseShard,
  partFinished,
  readRunFile,
  runRecorded,
  writeRunFile,
  type ExpectedMeta,
  type RunCommand,
  type RunFile,
  type RunShard,
} from './run-files.js';

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
  /** The part keys in the order the command asked for them (the order it plays them). */
  private readonly played: string[] = [];

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
    if (!this.played.includes(key)) this.played.push(key);
    if (!part) {
      part = { key, seconds: 0, meta: null, records: [] };
      if (this.recording) this.run.parts.push(part);
    }
    // The parts in the order the command plays them, those it has not come to yet after: a checkpoint that lost a
    // part gets it back in its place, so its shard holds its parts in the same order as the run's other shards
    // (merge pools the shards' parts by position). A stable sort keeps the others' order.
    const rank = (k: string) => {
      const i = this.played.indexOf(k);
      return i < 0 ? this.played.length : i;
    };
    this.run.parts.sort((a, b) => rank(a.key) - rank(b.key));
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
  /** What a finished part of a checkpoint must say in its `meta` (checked before resuming from it). */
  expectedMeta: ExpectedMeta;
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
    const saved = await readRunFile(path, io.signal);
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
    checkMetaAgrees(saved, path, opts.expectedMeta);
    run = saved;
    const done = saved.parts.reduce((a, p) => a + p.records.length, 0);
    io.err(`stackrank ${command}: resuming from ${path} (${done} finished ${opts.recordName} record(s))`);
  }
  const recording = runRecorded(values);
  const checkpoint = path === undefined ? null : new CheckpointFile(path, command, io.err);
  const every = (values.checkpointEvery ?? CHECKPOINT_EVERY) * 1000;
  return new RunRecorder(run, recording, opts.indexOf, checkpoint, every, values.out, io);
}
