/**
 * playVersus: matches between two players (docs/versus.md), TetrisAI with any settings or a Tetris Bot Protocol bot,
 * on worker threads or on this one. Match m is the same match whatever thread plays it (src/versus/match.ts): the
 * same seed gives the same results on any thread count when both players decide from the position alone (TetrisAI
 * does; a bot that searches for a given time does not).
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
import { TetrisAI, defaultGameTable } from '../tetris-ai/ai.js';
import type { TetrisAIOptions } from '../tetris-ai/ai-options.js';
import { wilsonInterval } from '../tetris-ai/intervals.js';
import { runOnWorkers, workerEngine, type WorkerEngine } from '../tetris-ai/play-threads.js';
import { ruleFacts } from '../tetris-ai/rules-adapter.js';
import { inNode } from '../node-builtins.js';
import { checkSeed } from '../random.js';
import { requireRankTable, type RankTable } from '../rank/table.js';
import { CLEAR_KINDS, type ClearKind } from '../rules/attack.js';
import { GarbageQueue, MAX_GARBAGE_DELAY, type Messiness } from '../rules/garbage.js';
import type { StackingEngine } from '../kernels/search.js';
import { MAX_THREADS, defaultThreadCount } from '../threads.js';
import { playMatch, type MatchSettings, type MatchTally, type OutReason, type VersusPlayer } from './match.js';
import { TbpPlayer, aiPlayer, commandWords } from './players.js';

/** TetrisAI.create's options for a side (the rank table is the run's: `table`). */
export type VersusAIOptions = Omit<TetrisAIOptions, 'table' | 'previewTable' | 'signal'>;

/**
 * A side: TetrisAI made with `ai` (TetrisAI.create's options, passed on as they are; `rules` is guideline), or a TBP
 * bot program (`tbp`: its command line, words split on white space, or its words) given `thinkMs` milliseconds
 * before each `suggest` (default 0: for bots that search when asked).
 */
export type VersusSide = { ai: VersusAIOptions } | { tbp: string | readonly string[]; thinkMs?: number };

export interface PlayVersusOptions {
  /** Side A (default { ai: {} }: TetrisAI with its defaults) and side B (the same). */
  a?: VersusSide;
  b?: VersusSide;
  matches?: number;
  /** Index of the first match (default 0): matches firstMatch .. firstMatch + matches - 1 of the seed's sequence. */
  firstMatch?: number;
  seed?: number;
  /** Pieces per side at most (default 500): a match still on then is a draw. */
  maxPieces?: number;
  /** Locks of the receiver before sent garbage may enter its board (default 0: at its next lock that clears nothing). */
  garbageDelay?: number;
  /** Where the garbage holes go (docs/rules.md, "Garbage"; default DEFAULT_MESSINESS). */
  messiness?: Partial<Messiness>;
  /** 'same' (default): both seats draw the same pieces; 'independent': each its own. */
  streams?: 'same' | 'independent';
  /** The rank table of the TetrisAI sides (default: the cached one); its width + 1 is the board's (10 with a TBP side). */
  table?: RankTable;
  /** Worker threads playing matches side by side (Node; default the core count, at most `matches`). */
  threads?: number;
  /** Working directory of TBP bot programs (default the process's). */
  cwd?: string;
  /** Called with each match's tally as soon as it is over (any order with threads). */
  onMatch?: (tally: MatchTally) => void;
  signal?: AbortSignal;
}

const PLAY_VERSUS_OPTIONS = optionNames<PlayVersusOptions>({
  a: true,
  b: true,
  matches: true,
  firstMatch: true,
  seed: true,
  maxPieces: true,
  garbageDelay: true,
  messiness: true,
  streams: true,
  table: true,
  threads: true,
  cwd: true,
  onMatch: true,
  signal: true,
});

/** A side's figures over the run. */
export interface VersusSideResult {
  /** What played: "TetrisAI {...options}" or "TBP: command (think ms)". */
  player: string;
  wins: number;
  pieces: number;
  lines: number;
  attack: number;
  sent: number;
  cancelled: number;
  received: number;
  /** Attack (before cancelling) per piece, and lines sent on per piece. */
  attackPerPiece: number;
  sentPerPiece: number;
  /** Line clears by kind. */
  clears: Partial<Record<ClearKind, number>>;
  /** Matches lost, by how (OutReason). */
  losses: Partial<Record<OutReason, number>>;
  unreachable: number;
  retries: number;
  restarts: number;
}

export interface VersusResult {
  matches: number;
  firstMatch: number;
  seed: number;
  maxPieces: number;
  garbageDelay: number;
  messiness: Messiness;
  streams: 'same' | 'independent';
  width: number;
  /** Side A's figures, then side B's. */
  sides: [VersusSideResult, VersusSideResult];
  /** Matches side A won, lost and drew. */
  wins: number;
  losses: number;
  draws: number;
  /** Side A's score per match: (wins + draws / 2) / matches, and its 95 % Wilson interval. */
  winRate: number;
  winRateCi95: [number, number];
  /** Mean rounds per match (pieces each side had a turn for). */
  meanRounds: number;
  /** Matches that reached the piece cap. */
  capped: number;
  /** Pieces of both sides per second of play. */
  piecesPerSecond: number;
  seconds: number;
  threads: number;
  /** Every match's tally, in match order. */
  tallies: MatchTally[];
}

/** A side checked: TetrisAI's options (rules filled in), or a bot's command words and think time. */
export type CheckedSide = { ai: VersusAIOptions } | { tbp: string[]; thinkMs: number };

/** What a versus worker is told first (src/versus/worker.ts). */
export interface VersusWorkerInit {
  type: 'init';
  sides: [CheckedSide, CheckedSide];
  /** The engine of each TetrisAI side (null for a TBP side). */
  engines: [WorkerEngine | null, WorkerEngine | null];
  settings: MatchSettings;
  cwd: string | undefined;
}

export async function playVersus(options: PlayVersusOptions = {}): Promise<VersusResult> {
  const opts = optionsObject('playVersus', options);
  refuseUnknownOptions('playVersus', opts, PLAY_VERSUS_OPTIONS);
  const sides = [checkSide('a', opts.a), checkSide('b', opts.b)] as [CheckedSide, CheckedSide];
  const matches = requireInt('matches', opts.matches ?? 2, 1, 1_000_000);
  const firstMatch = requireInt('firstMatch', opts.firstMatch ?? 0, 0, Number.MAX_SAFE_INTEGER - matches);
  const seed = checkSeed(opts.seed ?? 0);
  const maxPieces = requireInt('maxPieces', opts.maxPieces ?? 500, 1, Number.MAX_SAFE_INTEGER);
  const garbageDelay = requireInt('garbageDelay', opts.garbageDelay ?? 0, 0, MAX_GARBAGE_DELAY);
  const messiness = new GarbageQueue({ messiness: opts.messiness ?? {} }).messiness;
  const streams = opts.streams ?? 'same';
  if (streams !== 'same' && streams !== 'independent')
    throw new StackRankError('BAD_ARGUMENT', `streams must be "same" or "independent"; got ${describe(streams)}`);
  if (opts.cwd !== undefined && (typeof opts.cwd !== 'string' || opts.cwd === ''))
    throw new StackRankError('BAD_ARGUMENT', `cwd must be a directory path; got ${describe(opts.cwd)}`);
  const signal = checkSignal(opts.signal);
  const onMatch = checkCallback<(t: MatchTally) => void>('onMatch', opts.onMatch);
  if (opts.threads !== undefined) requireInt('threads', opts.threads, 1, MAX_THREADS);
  const threads = Math.min(matches, opts.threads ?? (inNode ? await defaultThreadCount() : 1));

  const aiSides = sides.filter((s): s is { ai: VersusAIOptions } => 'ai' in s);
  if (opts.table !== undefined) requireRankTable(opts.table, 'playVersus: table');
  const table =
    aiSides.length === 0 ? undefined : (opts.table ?? (await defaultGameTable(ruleFacts('guideline').ruleSet, signal)));
  const width = table ? table.width + 1 : 10;
  if (width !== 10 && aiSides.length < 2)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `a TBP bot plays a 10-wide board: the table must be 9 columns wide (it is ${table!.width}, a ${width}-wide board)`,
    );
  // The versus policy plays the guideline's 10-wide board whatever table it is given (docs/game.md, "The versus policy").
  if (width !== 10 && aiSides.some((s) => (s.ai as { goal?: unknown }).goal === 'versus'))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `goal 'versus' plays a 10-wide board: the table must be 9 columns wide (it is ${table!.width}, a ${width}-wide board)`,
    );
  const settings: MatchSettings = { width, previews: 5, maxPieces, garbageDelay, messiness, streams, seed };
  if (signal?.aborted) throw new StackRankError('ABORTED', 'the matches were aborted');
  // Each TetrisAI side is made here first, also with threads: TetrisAI.create checks its options (once, at the edge).
  const ais = await Promise.all(
    sides.map((s) => ('ai' in s ? TetrisAI.create({ ...s.ai, table, signal }) : Promise.resolve(null))),
  );
  const names = sides.map(describeSide) as [string, string];

  let t0 = performance.now();
  let tallies: MatchTally[];
  if (threads > 1) {
    const owners: StackingEngine[] = [];
    try {
      const inits: VersusWorkerInit[] = [];
      for (let i = 0; i < threads; i++) {
        const engines: VersusWorkerInit['engines'] = [null, null];
        for (let s = 0; s < 2; s++) {
          const side = sides[s];
          if (!('ai' in side)) continue;
          const made = await workerEngine(table!, side.ai, undefined, signal);
          owners.push(made.owner);
          engines[s] = made.engine;
        }
        inits.push({ type: 'init', sides, engines, settings, cwd: opts.cwd });
      }
      const run = await runOnWorkers<MatchTally>({
        module: 'versus-worker',
        what: 'match',
        inits,
        first: firstMatch,
        count: matches,
        signal,
        onDone: (_, tally) => onMatch?.(tally),
        close: sides.some((s) => 'tbp' in s),
      });
      tallies = run.results;
      t0 = run.startedAt;
    } finally {
      for (const engine of owners) engine.release();
    }
  } else {
    const players = await makePlayers(sides, (s) => ais[s]!, opts.cwd, signal);
    try {
      t0 = performance.now();
      tallies = [];
      for (let m = firstMatch; m < firstMatch + matches; m++) {
        const tally = await playMatch(players, m, settings, signal);
        onMatch?.(tally);
        tallies.push(tally);
      }
    } finally {
      await closePlayers(players);
    }
  }
  return summarizeVersus(
    tallies,
    { firstMatch, seed, maxPieces, garbageDelay, messiness, streams, width, threads, names },
    (performance.now() - t0) / 1000,
  );
}

/** The players of both sides: TetrisAI from `ai(side)`, TBP bots started here. Closes what it made on a failure. */
export async function makePlayers(
  sides: readonly [CheckedSide, CheckedSide],
  ai: (side: number) => TetrisAI,
  cwd: string | undefined,
  signal?: AbortSignal,
): Promise<[VersusPlayer, VersusPlayer]> {
  const players: VersusPlayer[] = [];
  try {
    for (let s = 0; s < 2; s++) {
      const side = sides[s];
      players.push(
        'ai' in side
          ? aiPlayer(ai(s), describeSide(side))
          : await TbpPlayer.spawn(side.tbp, side.thinkMs, { cwd, signal }),
      );
    }
  } catch (e) {
    await closePlayers(players);
    throw e;
  }
  return players as [VersusPlayer, VersusPlayer];
}

/** Ends the bot programs among `players`. */
export async function closePlayers(players: readonly VersusPlayer[]): Promise<void> {
  await Promise.all(players.map((p) => (p instanceof TbpPlayer ? p.close() : undefined)));
}

function checkSide(name: string, value: unknown): CheckedSide {
  if (value === undefined) return { ai: { rules: 'guideline' } };
  const side = optionsObject(`side ${name}`, value as VersusSide);
  const keys = Object.keys(side);
  if ('ai' in side && keys.length === 1) {
    const ai = optionsObject(`side ${name}'s ai`, side.ai as VersusAIOptions);
    for (const key of ['table', 'previewTable', 'signal'])
      if (key in ai)
        throw new StackRankError(
          'BAD_ARGUMENT',
          `side ${name}'s ai options take no ${key}: the run's table (and signal) serve both sides`,
        );
    if (ai.rules !== undefined && ai.rules !== 'guideline')
      throw new StackRankError(
        'BAD_ARGUMENT',
        `versus matches play the guideline rule set; side ${name}'s ai asks for ${describe(ai.rules)}`,
      );
    return { ai: { ...ai, rules: 'guideline' } };
  }
  if ('tbp' in side && keys.every((k) => k === 'tbp' || k === 'thinkMs')) {
    const t = side as { tbp: unknown; thinkMs?: unknown };
    const words =
      typeof t.tbp === 'string' ? commandWords(t.tbp) : Array.isArray(t.tbp) ? [...(t.tbp as unknown[])] : [];
    if (words.length === 0 || words.some((w) => typeof w !== 'string' || w === ''))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `side ${name}'s tbp must be a bot's command line or its words; got ${describe(t.tbp)}`,
      );
    const thinkMs = t.thinkMs ?? 0;
    if (typeof thinkMs !== 'number' || !(thinkMs >= 0 && thinkMs <= 60_000))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `side ${name}'s thinkMs must be a number of milliseconds from 0 to 60000; got ${describe(thinkMs)}`,
      );
    return { tbp: words as string[], thinkMs };
  }
  throw new StackRankError(
    'BAD_ARGUMENT',
    `side ${name} must be { ai: TetrisAI options } or { tbp: command line, thinkMs? }; got ${describe(value)}`,
  );
}

/** A side in words: "TetrisAI lookahead 5, randomizer bag7" or "TBP: cold-clear-2 (50 ms per move)". */
export function describeSide(side: CheckedSide): string {
  if ('tbp' in side) return `TBP: ${side.tbp.join(' ')}${side.thinkMs > 0 ? ` (${side.thinkMs} ms per move)` : ''}`;
  const { rules, ...rest } = side.ai;
  const text = Object.entries(rest)
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
  return `TetrisAI${text ? ` ${text}` : ''}`;
}

/** The run's result from its matches' tallies (in any order: they are sorted by match index). */
export function summarizeVersus(
  tallies: readonly MatchTally[],
  run: Pick<
    VersusResult,
    'firstMatch' | 'seed' | 'maxPieces' | 'garbageDelay' | 'messiness' | 'streams' | 'width' | 'threads'
  > & { names: [string, string] },
  seconds: number,
): VersusResult {
  const sorted = [...tallies].sort((a, b) => a.match - b.match);
  const sides = run.names.map((player, k) => {
    const side: VersusSideResult = {
      player,
      wins: 0,
      pieces: 0,
      lines: 0,
      attack: 0,
      sent: 0,
      cancelled: 0,
      received: 0,
      attackPerPiece: 0,
      sentPerPiece: 0,
      clears: {},
      losses: {},
      unreachable: 0,
      retries: 0,
      restarts: 0,
    };
    const kinds = CLEAR_KINDS.map(() => 0);
    for (const t of sorted) {
      const s = t.sides[k];
      if (t.winner === (k === 0 ? 'A' : 'B')) side.wins++;
      side.pieces += s.pieces;
      side.lines += s.lines;
      side.attack += s.attack;
      side.sent += s.sent;
      side.cancelled += s.cancelled;
      side.received += s.received;
      side.unreachable += s.unreachable;
      side.retries += s.retries;
      side.restarts += s.restarts;
      s.kinds.forEach((n, i) => {
        kinds[i] += n;
      });
      if (s.out) side.losses[s.out] = (side.losses[s.out] ?? 0) + 1;
    }
    // In CLEAR_KINDS order, so a printed or JSON result reads the same from run to run.
    CLEAR_KINDS.forEach((kind, i) => {
      if (kinds[i] > 0) side.clears[kind] = kinds[i];
    });
    side.attackPerPiece = side.pieces > 0 ? side.attack / side.pieces : 0;
    side.sentPerPiece = side.pieces > 0 ? side.sent / side.pieces : 0;
    return side;
  }) as [VersusSideResult, VersusSideResult];
  const matches = sorted.length;
  const draws = matches - sides[0].wins - sides[1].wins;
  const score = sides[0].wins + draws / 2;
  const pieces = sides[0].pieces + sides[1].pieces;
  const { names, ...described } = run;
  return {
    ...described,
    matches,
    sides,
    wins: sides[0].wins,
    losses: sides[1].wins,
    draws,
    winRate: matches > 0 ? score / matches : 0,
    winRateCi95: wilsonInterval(score, matches),
    meanRounds: matches > 0 ? sorted.reduce((a, t) => a + t.rounds, 0) / matches : 0,
    capped: sorted.filter((t) => t.sides.every((s) => s.out === null)).length,
    piecesPerSecond: seconds > 0 ? pieces / seconds : 0,
    seconds,
    tallies: sorted,
  };
}
