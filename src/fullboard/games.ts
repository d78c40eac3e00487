/**
 * playFullGames: a run of full-board games, game i seeded with (seed + i) mod 2^32, so any range of the games can
 * be played anywhere, resumed from the records of finished games, and pooled again exactly (mergeFullGames;
 * docs/distributed.md). `stackrank full play` is this run.
 */
import { StackRankError, checkCallback, describe, optionNames, optionsObject, requireInt } from '../errors.js';
import { MAX_SEED, checkSeed } from '../random.js';
import {
  MAX_SHARDS,
  checkRange,
  joinRecords,
  recordInt,
  recordObject,
  readRunParts,
  requireRunParts,
  type GameRange,
} from '../runs.js';
import { checkRandomizerName } from '../randomizers/index.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, checkSize } from './drops.js';
import { playFullGame, type PlayOptions } from './player.js';
import { DEFAULT_WEIGHTS, resolveWeights, type WeightVector } from './presets.js';
import { summarizeLines, type LinesSummary } from './stats.js';

export interface FullGamesOptions extends Omit<PlayOptions, 'seed' | 'onProgress'> {
  /** Games in the run (default 10); game i is seeded with (seed + i) mod 2^32. */
  games?: number;
  seed?: number;
  /** The games to play, start..end-1 of `games` (default all): one shard of a run cut across machines. */
  range?: GameRange;
  /** Games of this range already played (from a checkpoint of the same run): not played again, pooled in. */
  resume?: readonly FullGameRecord[];
  /** Called for every game of the range in game order, once it is played or, for a resumed one, reached. */
  onGame?: (record: FullGameRecord, resumed: boolean) => void;
  /** Progress of the game being played. */
  onProgress?: (p: { game: number; lines: number; pieces: number; seconds: number }) => void;
}

const FULL_GAMES_OPTIONS = optionNames<FullGamesOptions>({
  weights: true,
  randomizer: true,
  maxLines: true,
  maxPieces: true,
  lookahead: true,
  width: true,
  height: true,
  signal: true,
  chunk: true,
  games: true,
  seed: true,
  range: true,
  resume: true,
  onGame: true,
  onProgress: true,
});

/** One full-board game: its index and seed, lines, pieces, seconds, and whether it was lost (else capped). */
export interface FullGameRecord {
  game: number;
  seed: number;
  lines: number;
  pieces: number;
  seconds: number;
  lost: boolean;
}

/** What a run is (two parts merge only when all of it is equal). */
export interface FullGamesRun {
  weights: WeightVector;
  randomizer: string;
  seed: number;
  gameCount: number;
  /** null: no cap. */
  maxLines: number | null;
  maxPieces: number | null;
  lookahead: 0 | 1;
  width: number;
  height: number;
}

export interface FullGamesResult extends FullGamesRun {
  range: GameRange;
  /** Every game of the range, in order. */
  records: FullGameRecord[];
  /** Lines per game (summarizeLines over the records, in order). */
  summary: LinesSummary;
  pieces: number;
  /** The games' own times added up (resumed and merged games included). */
  seconds: number;
}

const RUN_FIELDS = [
  'weights',
  'randomizer',
  'seed',
  'gameCount',
  'maxLines',
  'maxPieces',
  'lookahead',
  'width',
  'height',
] as const satisfies readonly (keyof FullGamesRun)[];

/**
 * Checks a result's description of its run (what a merge keeps, and a run file's `meta`): the values playFullGames
 * writes there, each BAD_ARGUMENT naming `where` and the field otherwise.
 */
export function checkFullGamesRun(run: Record<string, unknown>, where: string): void {
  const within = (what: () => void) => {
    try {
      what();
    } catch (e) {
      throw new StackRankError('BAD_ARGUMENT', `${where}: ${(e as Error).message}`);
    }
  };
  within(() => resolveWeights(run.weights as WeightVector));
  within(() => checkRandomizerName(run.randomizer));
  recordInt(where, 'seed', run.seed, 0, MAX_SEED);
  recordInt(where, 'gameCount', run.gameCount, 1, MAX_SHARDS);
  if (run.maxLines !== null) recordInt(where, 'maxLines', run.maxLines, 1);
  if (run.maxPieces !== null) recordInt(where, 'maxPieces', run.maxPieces, 1);
  if (run.lookahead !== 0 && run.lookahead !== 1)
    throw new StackRankError('BAD_ARGUMENT', `${where}: lookahead must be 0 or 1; got ${describe(run.lookahead)}`);
  within(() => checkSize(run.width, run.height));
}

/** Checks a game record of the run seeded with `runSeed` (playFullGames' resume, mergeFullGames, run files). */
export function checkFullGameRecord(value: unknown, where: string, runSeed: number): FullGameRecord {
  const r = recordObject(where, value);
  const game = recordInt(where, 'game', r.game, 0, MAX_SHARDS - 1);
  const seed = recordInt(where, 'seed', r.seed, 0, MAX_SEED);
  if (seed !== (runSeed + game) >>> 0)
    throw new StackRankError(
      'RUN_MISMATCH',
      `${where}: game ${game} has seed ${seed}; game ${game} of this run has seed ${(runSeed + game) >>> 0}`,
    );
  if (typeof r.lost !== 'boolean' || typeof r.seconds !== 'number' || !(r.seconds >= 0))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${where}: lost must be true or false and seconds a number >= 0; got ${describe(r)}`,
    );
  return {
    game,
    seed,
    lines: recordInt(where, 'lines', r.lines),
    pieces: recordInt(where, 'pieces', r.pieces),
    seconds: r.seconds,
    lost: r.lost,
  };
}

/** The result of `range` from its records in order: the one place a run's figures are computed. */
function poolFullGames(run: FullGamesRun, range: GameRange, records: FullGameRecord[]): FullGamesResult {
  return {
    ...run,
    range: { ...range },
    records,
    summary: summarizeLines(
      records.map((r) => r.lines),
      records.map((r) => r.lost),
    ),
    pieces: records.reduce((a, r) => a + r.pieces, 0),
    seconds: records.reduce((a, r) => a + r.seconds, 0),
  };
}

export async function playFullGames(options: FullGamesOptions = {}): Promise<FullGamesResult> {
  const opts = optionsObject('playFullGames', options, FULL_GAMES_OPTIONS) as FullGamesOptions;
  const games = requireInt('games', opts.games ?? 10, 1, MAX_SHARDS);
  const range = checkRange('range', opts.range, games);
  const seed = checkSeed(opts.seed ?? 0);
  const onGame = checkCallback<NonNullable<FullGamesOptions['onGame']>>('playFullGames: onGame', opts.onGame);
  const onProgress = checkCallback<NonNullable<FullGamesOptions['onProgress']>>(
    'playFullGames: onProgress',
    opts.onProgress,
  );
  const weights = resolveWeights(opts.weights ?? DEFAULT_WEIGHTS);
  const lookahead = opts.lookahead ?? 0;
  if (lookahead !== 0 && lookahead !== 1)
    throw new StackRankError('BAD_ARGUMENT', `lookahead must be 0 or 1; got ${describe(lookahead)}`);
  const done = new Map<number, FullGameRecord>();
  if (opts.resume !== undefined) {
    if (!Array.isArray(opts.resume))
      throw new StackRankError('BAD_ARGUMENT', `resume must be an array of game records; got ${describe(opts.resume)}`);
    for (const [i, value] of opts.resume.entries()) {
      const r = checkFullGameRecord(value, `resume[${i}]`, seed);
      if (r.game < range.start || r.game >= range.end || done.has(r.game))
        throw new StackRankError(
          'RUN_MISMATCH',
          `resume[${i}]: game ${r.game} is outside the range ${range.start}..${range.end - 1} or given twice`,
        );
      done.set(r.game, r);
    }
  }
  const { width, height } = checkSize(opts.width ?? DEFAULT_WIDTH, opts.height ?? DEFAULT_HEIGHT);
  const cap = (name: string, v: unknown) => (v === undefined ? null : requireInt(name, v, 1, Number.MAX_SAFE_INTEGER));
  const randomizer = checkRandomizerName(opts.randomizer ?? 'memoryless');
  const run: FullGamesRun = {
    weights: { features: [...weights.features], weights: [...weights.weights] },
    randomizer,
    seed,
    gameCount: games,
    maxLines: cap('maxLines', opts.maxLines),
    maxPieces: cap('maxPieces', opts.maxPieces),
    lookahead,
    width,
    height,
  };
  const records: FullGameRecord[] = [];
  for (let g = range.start; g < range.end; g++) {
    let record = done.get(g);
    const resumed = record !== undefined;
    if (!record) {
      const gameSeed = (seed + g) >>> 0;
      const r = await playFullGame({
        weights,
        randomizer,
        seed: gameSeed,
        maxLines: opts.maxLines,
        maxPieces: opts.maxPieces,
        lookahead,
        width,
        height,
        chunk: opts.chunk,
        signal: opts.signal,
        onProgress: onProgress && ((p) => onProgress({ game: g, ...p })),
      });
      record = { game: g, seed: gameSeed, lines: r.lines, pieces: r.pieces, seconds: r.seconds, lost: r.lost };
    }
    records.push(record);
    onGame?.(record, resumed);
  }
  return poolFullGames(run, range, records);
}

/**
 * Pools results of one playFullGames run played in parts (each a `range` of its games) into the result of the
 * games they cover together: the same summary, bit for bit, as one call over those games. Parts of different runs,
 * overlaps and gaps are refused with RUN_MISMATCH.
 */
export function mergeFullGames(results: readonly FullGamesResult[]): FullGamesResult {
  const parts = readRunParts('mergeFullGames', results, [...RUN_FIELDS, 'range', 'records']);
  const first = requireRunParts('mergeFullGames', parts, RUN_FIELDS);
  // The parts' weights are compared as JSON, where a hole reads as null: check the ones the merged result keeps.
  checkFullGamesRun(first as unknown as Record<string, unknown>, 'result 1');
  const games = requireInt('gameCount', first.gameCount, 1, MAX_SHARDS);
  const seed = checkSeed(first.seed);
  const { range, records } = joinRecords<FullGameRecord>(
    parts.map((r, i) => ({ range: checkRange(`result ${i + 1}: range`, r.range, games), records: r.records })),
    (r, where) => checkFullGameRecord(r, where, seed).game,
  );
  const run = Object.fromEntries(RUN_FIELDS.map((f) => [f, first[f]])) as unknown as FullGamesRun;
  return poolFullGames(run, range, records);
}
