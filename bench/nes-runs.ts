/**
 * The NES games of a finished run file, for the scripts that compare runs game by game (bench/nes-pair.ts,
 * bench/nes-peer.ts): a `bench nes` file, or the AI's part (`player both`) of a `bench game` file under a timed rule
 * set, whose games are the same (`bench game --rules nes` plays the competition format).
 */
import { readRunFile, type RunFile } from '../src/cli/run-files.js';
import { StackRankError } from '../src/errors.js';

/** One game of a run file with NES scores (the fields of its record these scripts read). */
export interface NesGameRecord {
  game: number;
  lines: number;
  /** Clears by size: singles .. Tetrises. */
  clears: [number, number, number, number];
  topOut: boolean;
  nes: { score: number; bandScore: number[] };
}

/** A finished run file's games with NES scores, by game number. */
export interface NesRun {
  run: RunFile;
  games: Map<number, NesGameRecord>;
}

/**
 * The games of the finished run file at `path`; throws BAD_ARGUMENT naming `name` when it is of another command, is
 * not finished, or has no NES scores (its rule set is not a timed one).
 */
export async function readNesRun(path: string, name: string = path): Promise<NesRun> {
  const run = await readRunFile(path);
  const key = run.command === 'bench nes' ? 'games' : run.command === 'bench game' ? 'player both' : null;
  if (key === null)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${name} is a ${run.command} run file, not one of bench nes or bench game`,
    );
  const part = run.parts.find((p) => p.key === key);
  if (!part) throw new StackRankError('BAD_ARGUMENT', `${name} has no games of the AI (no part "${key}")`);
  if (part.meta === null || part.records.length !== run.shard.end - run.shard.start)
    throw new StackRankError('BAD_ARGUMENT', `${name} is not finished (its games are not all played)`);
  const games = new Map<number, NesGameRecord>();
  for (const record of part.records as Partial<NesGameRecord>[]) {
    if (!record.nes)
      throw new StackRankError('BAD_ARGUMENT', `${name} has no NES scores (its rule set is not a timed one)`);
    games.set(record.game!, record as NesGameRecord);
  }
  return { run, games };
}
