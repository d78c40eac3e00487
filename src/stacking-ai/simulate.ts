/**
 * simulateStacking: plays stacking games in WebAssembly (assembly/search/game.ts playGame) and measures how long the
 * AI keeps a perfect stack (docs/rules.md, "The stacking game"). Pieces come from the randomizers in chunks, so the kernel crosses into
 * JavaScript once per chunk, not per move.
 *
 * Games are organised in `games` independent streams. Without a piece budget each stream plays one game to its
 * death. With `maxPieces`, the budget is split evenly over the streams and each stream plays games back to back
 * until its share is used (the last one is cut: censored). Stream s, game k draws its pieces from the randomizer
 * seeded with streamSeed(seed, s, k); streams are spread over worker threads, and the result depends only on the
 * seed, never on the thread count. So a run can be cut by stream (`range`), played in pieces on several machines or
 * resumed after a crash (`resume`, `onStream`), and pooled again by mergeSimulations with exactly the numbers of one
 * run over all the streams (docs/distributed.md).
 */
import {
  StackRankError,
  checkCallback,
  checkSignal,
  describe,
  optionNames,
  optionsObject,
  refuseUnknownOptions,
  requireInt,
} from '../errors.js';
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
import { PIECES, type Piece } from '../pieces.js';
import { MAX_SEED, checkSeed } from '../random.js';
import {
  RANDOMIZER_NAMES,
  createRandomizer,
  checkRandomizerName,
  isRandomizerName,
  type Randomizer,
  type RandomizerName,
} from '../randomizers/index.js';
import { requireRankTable, type RankTable } from '../rank/table.js';
import { MAX_THREADS, defaultThreadCount } from '../threads.js';
import { KernelGames } from '../kernels/search-games.js';
import { StackingEngine } from '../kernels/search.js';
import { checkStrategy, type NextPieceValues, type Strategy, type StrategyName } from './strategy.js';
import type { UnknownPieces } from '../kernels/search-format.js';
import { estimateSurvival, median, type SurvivalEstimate } from './estimate.js';
import { MAX_LOOKAHEAD } from './input.js';
import { checkRuleSet } from './reach.js';
import { resolveStacking, type StackingSettings } from './rules.js';
import type { RuleSet } from '../rules/rule-sets.js';
import type { RuleSetName } from '../rules/types.js';

/** simulateStacking's onProgress event. */
export interface SimulationProgress {
  pieces: number;
  deaths: number;
  games: number;
  elapsedMs: number;
}

export interface SimulateOptions {
  table: RankTable;
  randomizer?: RandomizerName;
  lookahead: number;
  /** Number of streams (games without a budget). Default 100. */
  games?: number;
  /** Total piece budget; games still running when their stream's share is used are censored. */
  maxPieces?: number;
  seed?: number;
  /** The real game's rule set whose reachable placements the AI may play: a preset name ('classic', the default;
   * 'nes', 'guideline', 'tgm', 'tgm20g') or a RuleSet (docs/rules.md). */
  rules?: RuleSetName | RuleSet;
  /** The stacking game's own rules (board height, Tetris rule, steep steps) or a preset name ('article', 'default'). */
  stacking?: Partial<StackingSettings> | 'article' | 'default';
  /** 'rank' (default, the article's), 'expectimax' (the unknown pieces after the queue averaged with the
   * randomizer's exact distribution; needs about 400 MB more memory for the 9x4 table) or 'best'. Rule sets other
   * than classic and guideline play 'rank' only. */
  strategy?: StrategyName;
  /** With 'expectimax': unknown pieces it averages over, 1 (default) or 2. */
  unknownPieces?: 1 | 2;
  /** With 'expectimax': a preview table scores the leaves instead of the rank table's best rank per piece. */
  previewTable?: NextPieceValues;
  /** Worker threads; default: the number of cores (1 where shared memory is missing). */
  threads?: number;
  /** Pieces, deaths and games this call has played so far (resumed streams not counted; pieces of games under way
   * included) and the time since play began: at most every 200 ms, and once after the last stream with the call's
   * totals (with `maxPieces` and every stream to play, `pieces` is then `maxPieces`). */
  onProgress?: (p: SimulationProgress) => void;
  signal?: AbortSignal;
  /** The streams to play, start..end-1 of `games` (default all): one shard of a run cut across machines. */
  range?: GameRange;
  /** Streams of this range already played (from a checkpoint of the same run): not played again, pooled in. */
  resume?: readonly StreamRecord[];
  /** Called with each stream's games as soon as the stream is finished (to write checkpoints). */
  onStream?: (record: StreamRecord) => void;
}

const SIMULATE_OPTIONS = optionNames<SimulateOptions>({
  table: true,
  randomizer: true,
  lookahead: true,
  games: true,
  maxPieces: true,
  seed: true,
  rules: true,
  stacking: true,
  strategy: true,
  unknownPieces: true,
  previewTable: true,
  threads: true,
  onProgress: true,
  signal: true,
  range: true,
  resume: true,
  onStream: true,
});

/** One stacking game: its length in pieces, whether it died (else the budget cut it), the piece it died on
 * (an id 0..6, meaningful only when `dead`; 0 for a game the budget cut) and its Tetrises. */
export interface StackingGameRecord {
  length: number;
  dead: boolean;
  deathPiece: number;
  tetrises: number;
}

/** The games stream `stream` played, in order. */
export interface StreamRecord {
  stream: number;
  games: StackingGameRecord[];
}

export interface SimulationResult extends SurvivalEstimate {
  games: number;
  deaths: number;
  pieces: number;
  /** Median and maximum length over all games (censored ones count with their length so far). */
  median: number;
  max: number;
  deathsByPiece: Record<Piece, number>;
  tetrises: number;
  piecesPerSecond: number;
  lookahead: number;
  randomizer: RandomizerName;
  /** Name of the rule set played. */
  rules: string;
  stacking: StackingSettings;
  strategy: Strategy;
  /** Unknown pieces expectimax averaged over (0 for 'rank'). */
  unknownPieces: UnknownPieces;
  /** What scored expectimax leaves: 'piece-max' (the rank table's best placement per piece) or 'preview' (a
   * preview table); 'rank' for the rank strategy. */
  leaf: 'rank' | 'piece-max' | 'preview';
  seed: number;
  seconds: number;
  /** The run's number of streams (the `games` option) and piece budget (null: none). */
  streamCount: number;
  maxPieces: number | null;
  /** The streams this result pools (all of them unless the call had a `range`). */
  range: GameRange;
  /** Every stream's games, in stream order: what mergeSimulations pools. */
  records: StreamRecord[];
}

/** Seed of game k of stream s: a fixed mix of the user seed, s and k (docs/api.md, `simulateStacking`). */
export function streamSeed(seed: number, stream: number, game: number): number {
  // Integers only: the hash reads its arguments as 32-bit integers, so 1.5 would be game 1's seed.
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(stream) || !Number.isSafeInteger(game)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `streamSeed takes three safe integers (seed, stream, game); got ${describe(seed)}, ${describe(stream)}, ${describe(game)}`,
    );
  }
  let h =
    Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35) ^ Math.imul(game + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 13)) >>> 0;
}

/** simulateStacking's options, checked once at the edge (its thread count and resumed games apart: they need the
 * streams' shares). */
function readSimulateOptions(options: SimulateOptions) {
  if (options === undefined) throw new StackRankError('BAD_ARGUMENT', 'simulateStacking needs { table, lookahead }');
  const opts = optionsObject('simulateStacking', options) as SimulateOptions;
  refuseUnknownOptions('simulateStacking', opts, SIMULATE_OPTIONS);
  requireRankTable(opts.table, 'simulateStacking: table');
  const randomizer = checkRandomizerName(opts.randomizer ?? 'tgm1');
  const signal = checkSignal(opts.signal, 'simulateStacking: signal');
  const onProgress = checkCallback<NonNullable<SimulateOptions['onProgress']>>(
    'simulateStacking: onProgress',
    opts.onProgress,
  );
  const lookahead = requireInt('lookahead', opts.lookahead, 0, MAX_LOOKAHEAD);
  const streams = requireInt('games', opts.games ?? 100, 1, MAX_SHARDS);
  const range = checkRange('range', opts.range, streams);
  const onStream = checkCallback<NonNullable<SimulateOptions['onStream']>>('simulateStacking: onStream', opts.onStream);
  const budget =
    opts.maxPieces === undefined ? undefined : requireInt('maxPieces', opts.maxPieces, 1, Number.MAX_SAFE_INTEGER);
  const seed = checkSeed(opts.seed ?? 0);
  const stacking = resolveStacking(opts.stacking);
  const ruleSet = checkRuleSet(opts.rules);
  const { strategy, unknownPieces } = checkStrategy(opts.strategy, opts.unknownPieces);
  return {
    opts,
    randomizer,
    signal,
    onProgress,
    onStream,
    lookahead,
    streams,
    range,
    budget,
    seed,
    stacking,
    ruleSet,
    strategy,
    unknownPieces,
  };
}

export async function simulateStacking(options: SimulateOptions): Promise<SimulationResult> {
  const checked = readSimulateOptions(options);
  const { opts, randomizer, signal, onProgress, onStream, lookahead, streams, range, budget, seed } = checked;
  const { stacking, ruleSet, strategy, unknownPieces } = checked;
  const threadsGiven = opts.threads !== undefined;
  const share = (s: number) =>
    budget === undefined ? Infinity : Math.floor(budget / streams) + (s < budget % streams ? 1 : 0);
  const results: StackingGameRecord[][] = Array.from({ length: range.end - range.start }, () => []);
  const resumed = checkResume(opts.resume, range, share, results);
  const toPlay = results.length - resumed;
  let threads = Math.min(
    Math.max(1, toPlay),
    requireInt('threads', opts.threads ?? (await defaultThreadCount()), 1, MAX_THREADS),
  );
  if (signal?.aborted) throw new StackRankError('ABORTED', 'the simulation was cancelled');
  const meta = {
    lookahead,
    randomizer,
    rules: ruleSet.name,
    stacking,
    strategy,
    unknownPieces,
    leaf: (strategy === 'rank' ? 'rank' : opts.previewTable ? 'preview' : 'piece-max') as SimulationResult['leaf'],
    seed,
    streamCount: streams,
    maxPieces: budget ?? null,
  };
  // Everything already played: pool it without starting the engine.
  if (toPlay === 0) return poolStreams(meta, range, results, 0, 0);

  const engine = await StackingEngine.create(opts.table, stacking, {
    shared: threads > 1,
    unknownPieces,
    leafValues: opts.previewTable,
    ruleSet,
    signal,
  });
  // Each thread's slot holds a game in the kernel's memory; a default thread count is lowered to what fits.
  const games = await KernelGames.open(engine, { threads, threadsGiven, unknownPieces, lookahead });
  threads = games.threads;
  const onAbort = () => games.terminate();
  signal?.addEventListener('abort', onAbort);

  let totalPieces = 0;
  let totalDeaths = 0;
  let totalGames = 0;
  const started = performance.now();
  let lastReport = 0;
  /** At most every 200 ms while games run; `final`: once more after the last stream, with the call's totals. */
  const report = (final = false) => {
    const now = performance.now();
    if (!onProgress || (!final && now - lastReport < 200)) return;
    lastReport = now;
    onProgress({ pieces: totalPieces, deaths: totalDeaths, games: totalGames, elapsedMs: now - started });
  };

  /** Plays one game in a slot; returns its record. */
  const playOne = async (slotIndex: number, rng: Randomizer, cap: number): Promise<StackingGameRecord> => {
    const game = await games.play(
      slotIndex,
      rng,
      cap,
      (played) => {
        totalPieces += played;
        report();
      },
      () => signal?.aborted === true,
    );
    if (game.dead) totalDeaths++;
    return game;
  };

  let nextStream = range.start;
  const worker = async (slotIndex: number) => {
    for (;;) {
      while (nextStream < range.end && results[nextStream - range.start].length > 0) nextStream++; // resumed
      if (nextStream >= range.end) return;
      const s = nextStream++;
      const games = results[s - range.start];
      let left = share(s);
      for (let k = 0; left > 0; k++) {
        const rng = createRandomizer(randomizer, { seed: streamSeed(seed, s, k) });
        const rec = await playOne(slotIndex, rng, left);
        totalGames++;
        games.push(rec);
        left -= rec.length;
        if (budget === undefined || !rec.dead) break;
      }
      onStream?.({ stream: s, games: games.slice() });
    }
  };

  try {
    await Promise.all(Array.from({ length: threads }, (_, i) => worker(i)));
  } catch (e) {
    if (signal?.aborted) throw new StackRankError('ABORTED', 'the simulation was cancelled');
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    games.terminate();
  }
  // Every game has returned: no thread uses the engine's blocks any more, so the next run over this table's search
  // image takes them again. (After a failure or an abort a worker may still be finishing a call: they stay given.)
  engine.release();
  report(true);

  return poolStreams(meta, range, results, (performance.now() - started) / 1000, totalPieces);
}

type SimulationMeta = Pick<
  SimulationResult,
  | 'lookahead'
  | 'randomizer'
  | 'rules'
  | 'stacking'
  | 'strategy'
  | 'unknownPieces'
  | 'leaf'
  | 'seed'
  | 'streamCount'
  | 'maxPieces'
>;
const META_FIELDS = [
  'lookahead',
  'randomizer',
  'rules',
  'stacking',
  'strategy',
  'unknownPieces',
  'leaf',
  'seed',
  'streamCount',
  'maxPieces',
] as const satisfies readonly (keyof SimulationMeta)[];

/**
 * The result of the streams `range` from their games (results[i]: stream range.start + i, in order). The one place
 * figures are computed from games: a single run and a merge of shards give the same numbers bit for bit.
 * `playedPieces`: pieces played in this call (its speed; resumed or merged games were timed elsewhere).
 */
function poolStreams(
  meta: SimulationMeta,
  range: GameRange,
  results: StackingGameRecord[][],
  seconds: number,
  playedPieces: number,
): SimulationResult {
  const all = results.flat();
  const lengths = all.map((r) => r.length);
  const deathsByPiece = Object.fromEntries(PIECES.map((p) => [p, 0])) as Record<Piece, number>;
  for (const r of all) if (r.dead) deathsByPiece[PIECES[r.deathPiece]]++;
  const pieces = lengths.reduce((a, b) => a + b, 0);
  return {
    ...estimateSurvival(
      lengths,
      all.map((r) => r.dead),
    ),
    games: all.length,
    deaths: all.filter((r) => r.dead).length,
    pieces,
    median: median(lengths),
    max: lengths.length ? Math.max(...lengths) : 0,
    deathsByPiece,
    tetrises: all.reduce((a, r) => a + r.tetrises, 0),
    piecesPerSecond: seconds > 0 ? playedPieces / seconds : 0,
    ...meta,
    seconds,
    range: { ...range },
    records: results.map((games, i) => ({ stream: range.start + i, games })),
  };
}

/**
 * Checks a result's description of its run (what a merge keeps, and a run file's `meta`): the values
 * simulateStacking writes there, each BAD_ARGUMENT naming `where` and the field otherwise.
 */
export function checkSimulationRun(run: Record<string, unknown>, where: string): void {
  const bad = (field: string, allowed: string) =>
    new StackRankError('BAD_ARGUMENT', `${where}: ${field} must be ${allowed}; got ${describe(run[field])}`);
  recordInt(where, 'lookahead', run.lookahead, 0, MAX_LOOKAHEAD);
  if (!isRandomizerName(run.randomizer)) throw bad('randomizer', `one of ${RANDOMIZER_NAMES.join(', ')}`);
  if (typeof run.rules !== 'string') throw bad('rules', 'the name of a rule set');
  try {
    resolveStacking(run.stacking as StackingSettings);
  } catch (e) {
    throw new StackRankError('BAD_ARGUMENT', `${where}: stacking: ${(e as Error).message}`);
  }
  if (run.strategy !== 'rank' && run.strategy !== 'expectimax') throw bad('strategy', '"rank" or "expectimax"');
  if (run.strategy === 'rank' && run.unknownPieces !== 0) throw bad('unknownPieces', '0 under the rank strategy');
  if (run.strategy === 'expectimax')
    checkStrategy('expectimax', recordInt(where, 'unknownPieces', run.unknownPieces, 1));
  if (run.leaf !== 'rank' && run.leaf !== 'piece-max' && run.leaf !== 'preview')
    throw bad('leaf', '"rank", "piece-max" or "preview"');
  recordInt(where, 'seed', run.seed, 0, MAX_SEED);
  recordInt(where, 'streamCount', run.streamCount, 1, MAX_SHARDS);
  if (run.maxPieces !== null) recordInt(where, 'maxPieces', run.maxPieces, 1);
}

/**
 * Checks one stream record of a run of `streamCount` streams and a budget of `maxPieces` (null: none), as
 * simulateStacking's resume and mergeSimulations check them. Returns the checked record.
 */
export function checkRunStream(
  value: unknown,
  where: string,
  run: { streamCount: number; maxPieces: number | null },
): StreamRecord {
  const stream = recordInt(where, 'stream', recordObject(where, value).stream, 0, run.streamCount - 1);
  const budget = run.maxPieces;
  const share =
    budget === null ? Infinity : Math.floor(budget / run.streamCount) + (stream < budget % run.streamCount ? 1 : 0);
  return checkStreamRecord(value, where, share);
}

/** Checks one stream's record; `share` is the stream's piece budget (Infinity without one). */
function checkStreamRecord(value: unknown, where: string, share: number): StreamRecord {
  const r = recordObject(where, value);
  const stream = recordInt(where, 'stream', r.stream, 0, MAX_SHARDS - 1);
  // A stream whose share of the budget is 0 (fewer pieces than streams) plays no game: its record is empty.
  if (!Array.isArray(r.games) || (r.games.length === 0 && share !== 0))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${where}: games must be a non-empty array (empty only for a stream with no pieces in its share); got ${describe(r.games)}`,
    );
  let total = 0;
  // An index loop, not map: a sparse array's holes are games too (and bad ones).
  const games: StackingGameRecord[] = [];
  for (let k = 0; k < r.games.length; k++) {
    const at = `${where}, game ${k + 1}`;
    const o = recordObject(at, r.games[k]);
    if (typeof o.dead !== 'boolean')
      throw new StackRankError('BAD_ARGUMENT', `${at}: dead must be true or false; got ${describe(o.dead)}`);
    const game: StackingGameRecord = {
      length: recordInt(at, 'length', o.length),
      dead: o.dead,
      deathPiece: recordInt(at, 'deathPiece', o.deathPiece, 0, 6),
      tetrises: recordInt(at, 'tetrises', o.tetrises),
    };
    total += game.length;
    games.push(game);
  }
  // Only a budget ends a game alive, and only the last game of a stream; a stream never overspends its share.
  if (games.slice(0, -1).some((g) => !g.dead) || (share === Infinity && games.length !== 1) || total > share)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${where}: stream ${stream}'s games (${games.length} game(s), ${total} pieces) are not what a stream with ${share === Infinity ? 'no budget' : `a budget of ${share} pieces`} plays`,
    );
  return { stream, games };
}

/** Fills `results` with the resumed streams; returns how many there were. */
function checkResume(
  resume: unknown,
  range: GameRange,
  share: (s: number) => number,
  results: StackingGameRecord[][],
): number {
  if (resume === undefined) return 0;
  if (!Array.isArray(resume))
    throw new StackRankError('BAD_ARGUMENT', `resume must be an array of stream records; got ${describe(resume)}`);
  // An index loop, not forEach: a sparse array's holes are stream records too (and bad ones).
  for (let i = 0; i < resume.length; i++) {
    const value: unknown = resume[i];
    const where = `resume[${i}]`;
    const stream = recordInt(where, 'stream', recordObject(where, value).stream, 0, MAX_SHARDS - 1);
    if (stream < range.start || stream >= range.end)
      throw new StackRankError(
        'RUN_MISMATCH',
        `${where}: stream ${stream} is not in this run's range ${range.start}..${range.end - 1}`,
      );
    if (results[stream - range.start].length > 0)
      throw new StackRankError('RUN_MISMATCH', `${where}: stream ${stream} is given twice`);
    results[stream - range.start] = checkStreamRecord(value, where, share(stream)).games;
  }
  return resume.length;
}

/**
 * Pools results of one run played in parts (each a `range` of its streams, on any machine, with any thread count)
 * into the result of the streams they cover together: the same numbers, bit for bit, as one simulateStacking call
 * over those streams. `seconds` is the parts' total; `piecesPerSecond` their pieces over it. Parts of different
 * runs (lookahead, randomizer, rules, strategy, leaf, seed, streams, budget), overlapping parts and gaps are
 * refused with RUN_MISMATCH.
 */
export function mergeSimulations(results: readonly SimulationResult[]): SimulationResult {
  const parts0 = readRunParts('mergeSimulations', results, [...META_FIELDS, 'range', 'records', 'seconds']);
  const first = requireRunParts('mergeSimulations', parts0, META_FIELDS);
  const streams = requireInt('streamCount', first.streamCount, 1, MAX_SHARDS);
  const budget =
    first.maxPieces === null ? undefined : requireInt('maxPieces', first.maxPieces, 1, Number.MAX_SAFE_INTEGER);
  checkSimulationRun(first as unknown as Record<string, unknown>, 'result 1');
  const share = (s: number) =>
    budget === undefined ? Infinity : Math.floor(budget / streams) + (s < budget % streams ? 1 : 0);
  const parts = parts0.map((r, i) => ({
    range: checkRange(`result ${i + 1}: range`, r.range, streams),
    records: r.records,
  }));
  const { range, records } = joinRecords<StreamRecord>(parts, (r, where) => {
    const stream = recordInt(where, 'stream', recordObject(where, r).stream, 0, MAX_SHARDS - 1);
    return checkStreamRecord(r, where, share(stream)).stream;
  });
  const seconds = parts0.reduce((a, r) => a + (Number.isFinite(r.seconds) && r.seconds > 0 ? r.seconds : 0), 0);
  const meta = Object.fromEntries(META_FIELDS.map((f) => [f, first[f]])) as SimulationMeta;
  const pooled = poolStreams(
    meta,
    range,
    records.map((r) => r.games),
    seconds,
    0,
  );
  pooled.piecesPerSecond = seconds > 0 ? pooled.pieces / seconds : 0;
  return pooled;
}
