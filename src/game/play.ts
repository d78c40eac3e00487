/**
 * playGame: the real-game simulator (docs/game.md). TetrisAI plays games of a rule set against a seeded
 * randomizer; the simulator keeps its own board (it locks the returned cells, clears rows and checks that every
 * cell was empty and inside the board), its own queue and hold box, and counts what the benchmark reports.
 *
 * A game ends at a top-out: nextMove answers null (nothing can be placed) or the piece ends with a cell above the
 * visible field (20 rows). Game g draws its pieces from the randomizer seeded with streamSeed(seed, g, 0), so the
 * same seed gives the same games, and a run can be cut by game (`range`), resumed (`resume`, `onGame`) and pooled
 * again exactly (mergeGameResults; docs/distributed.md).
 */
import { StackRankError, checkCallback, describe, requireInt } from '../errors.js';
import {
  MAX_SHARDS,
  checkRange,
  joinRecords,
  recordInt,
  recordObject,
  requireSameRun,
  type GameRange,
} from '../runs.js';
import type { Piece } from '../pieces.js';
import { checkSeed } from '../random.js';
import { createRandomizer, isRandomizerName, RANDOMIZER_NAMES, type RandomizerName } from '../randomizers/index.js';
import type { RankTable } from '../rank/table.js';
import { refuseLeafRows, type NextPieceValues } from '../stacking/engine.js';
import { streamSeed } from '../stacking/simulate.js';
import type { RuleSetName } from '../rules/types.js';
import { TetrisAI, type GamePolicy, type WellSide } from './ai.js';
import { WORK_ROWS } from './board-input.js';
import { isHoleFree, lockCells } from './grid.js';
import { ruleFacts } from './rules-adapter.js';

/** Longest stretch of moves without giving the event loop a turn. */
const YIELD_EVERY_MS = 20;

export interface PlayGameOptions {
  rules?: RuleSetName;
  randomizer?: RandomizerName;
  /** Preview pieces shown to the AI (and searched). Default 1. */
  lookahead?: number;
  /** Whether the AI may use hold (only rule sets with hold). Default: the rule set's. */
  hold?: boolean;
  games?: number;
  /** Pieces per game at most (a game still alive then is cut). Default 10,000. */
  maxPieces?: number;
  seed?: number;
  well?: WellSide;
  /** An AI made for these options, to reuse (its rules, lookahead and randomizer must match). */
  ai?: TetrisAI;
  table?: RankTable;
  /** 'both' (the AI); 'stackOnly' and 'fullBoardOnly' are the benchmark baselines. */
  policy?: GamePolicy;
  /** A preview table for the randomizer-aware search (TetrisAIOptions.previewTable). */
  previewTable?: NextPieceValues;
  recover?: { depth?: number; beam?: number };
  onProgress?: (p: { games: number; pieces: number; lines: number; topOuts: number; elapsedMs: number }) => void;
  signal?: AbortSignal;
  /** The games to play, start..end-1 of `games` (default all): one shard of a run cut across machines. */
  range?: GameRange;
  /** Games of this range already played (from a checkpoint of the same run): not played again, pooled in. */
  resume?: readonly RealGameRecord[];
  /** Called with each game's record as soon as the game is over (to write checkpoints). */
  onGame?: (record: RealGameRecord) => void;
}

/** What one game counted: everything the result pools, as integers. */
export interface RealGameRecord {
  game: number;
  pieces: number;
  lines: number;
  /** Singles, doubles, triples, Tetrises. */
  clears: [number, number, number, number];
  topOut: boolean;
  /** Pieces placed in stack mode, holes made. */
  stackPieces: number;
  holesMade: number;
}

export interface PlayGameResult {
  rules: RuleSetName;
  randomizer: RandomizerName;
  lookahead: number;
  hold: boolean;
  policy: GamePolicy;
  games: number;
  pieces: number;
  lines: number;
  /** Lines cleared by Tetrises / all lines (0 when no line was cleared). */
  tetrisRate: number;
  /** Clears by size: singles, doubles, triples, Tetrises. */
  clears: { single: number; double: number; triple: number; tetris: number };
  topOuts: number;
  /** Pieces per top-out (pieces / topOuts; Infinity when none) and its 95 % interval (exponential model). */
  piecesPerTopOut: number;
  /** Share of pieces placed in stack mode. */
  stackShare: number;
  /** Holes made per 1,000 pieces (each move counts the holes it added, when it added any). */
  holesPer1000: number;
  /** Pieces of each game, in order. */
  gamePieces: number[];
  piecesPerSecond: number;
  seconds: number;
  seed: number;
  /** The run's number of games (the `games` option) and pieces per game at most. */
  gameCount: number;
  maxPieces: number;
  /** The games this result pools (all of them unless the call had a `range`). */
  range: GameRange;
  /** Every game's counts, in game order: what mergeGameResults pools. */
  gameRecords: RealGameRecord[];
}

export async function playGame(opts: PlayGameOptions = {}): Promise<PlayGameResult> {
  if (opts !== null && typeof opts === 'object') refuseLeafRows(opts);
  const rules = opts.rules ?? 'guideline';
  const randomizer = opts.randomizer ?? (rules === 'guideline' ? 'bag7' : rules === 'nes' ? 'nes' : 'tgm1');
  if (!isRandomizerName(randomizer))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `unknown randomizer ${describe(randomizer)}; randomizers are ${RANDOMIZER_NAMES.join(', ')}`,
    );
  const lookahead = requireInt('lookahead', opts.lookahead ?? 1, 0, 6);
  const games = requireInt('games', opts.games ?? 1, 1, MAX_SHARDS);
  const range = checkRange('range', opts.range, games);
  const onGame = checkCallback<NonNullable<PlayGameOptions['onGame']>>('playGame: onGame', opts.onGame);
  const maxPieces = requireInt('maxPieces', opts.maxPieces ?? 10_000, 1, Number.MAX_SAFE_INTEGER);
  const seed = checkSeed(opts.seed ?? 0);
  const policy = opts.policy ?? 'both';
  const records: (RealGameRecord | undefined)[] = new Array(range.end - range.start);
  if (opts.resume !== undefined) {
    if (!Array.isArray(opts.resume))
      throw new StackRankError('BAD_ARGUMENT', `resume must be an array of game records; got ${describe(opts.resume)}`);
    opts.resume.forEach((value, i) => {
      const r = checkGameRecord(value, `resume[${i}]`, maxPieces);
      if (r.game < range.start || r.game >= range.end)
        throw new StackRankError(
          'RUN_MISMATCH',
          `resume[${i}]: game ${r.game} is not in this run's range ${range.start}..${range.end - 1}`,
        );
      if (records[r.game - range.start])
        throw new StackRankError('RUN_MISMATCH', `resume[${i}]: game ${r.game} is given twice`);
      records[r.game - range.start] = r;
    });
  }
  if (opts.hold !== undefined && typeof opts.hold !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `hold must be true or false; got ${describe(opts.hold)}`);
  if (opts.hold && !ruleFacts(rules).hold)
    throw new StackRankError('BAD_ARGUMENT', `the ${rules} rule set has no hold`);
  const ai =
    opts.ai ??
    (await TetrisAI.create({
      rules,
      lookahead,
      randomizer: policy === 'fullBoardOnly' ? undefined : randomizer,
      well: opts.well,
      table: opts.table,
      policy,
      recover: opts.recover,
      previewTable: policy === 'fullBoardOnly' ? undefined : opts.previewTable,
    }));
  if (ai.rules.name !== rules || ai.lookahead !== lookahead || ai.policy !== policy) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `the given ai plays ${ai.rules.name} at lookahead ${ai.lookahead} (${ai.policy}); these games ask for ${rules} at ${lookahead} (${policy})`,
    );
  }
  const hold = opts.hold ?? ai.rules.hold;
  const width = ai.width;
  const visible = ai.rules.visibleHeight;
  const useNext = ai.randomizer !== undefined;

  const meta: GameRunMeta = { rules, randomizer, lookahead, hold, policy, seed, gameCount: games, maxPieces };
  // Running totals for onProgress only; the result is pooled from the game records.
  const result = { pieces: 0, lines: 0, topOuts: 0 };
  let playedPieces = 0;
  const t0 = performance.now();
  let lastProgress = t0;
  let lastYield = t0;
  for (let g = range.start; g < range.end; g++) {
    if (records[g - range.start]) continue; // resumed
    const record: RealGameRecord = {
      game: g,
      pieces: 0,
      lines: 0,
      clears: [0, 0, 0, 0],
      topOut: false,
      stackPieces: 0,
      holesMade: 0,
    };
    const rng = createRandomizer(randomizer, { seed: streamSeed(seed, g, 0) });
    // stream = the pieces dealt and not yet placed: the current one and the queue, so the randomizer's
    // distribution() is exactly the chance of the piece after the queue.
    const stream: Piece[] = [];
    let rows: Uint32Array = new Uint32Array(WORK_ROWS);
    let holdPiece: Piece | null = null;
    let holes = 0;
    let pieces = 0;
    while (pieces < maxPieces) {
      if (opts.signal?.aborted) throw new StackRankError('ABORTED', 'the games were aborted');
      if ((pieces & 15) === 0 && performance.now() - lastYield > YIELD_EVERY_MS) {
        // Give the event loop a turn, so an abort (Ctrl-C) or a timer can arrive while the games run.
        await new Promise((r) => setTimeout(r, 0));
        lastYield = performance.now();
      }
      while (stream.length < lookahead + 1) stream.push(rng.next() as Piece);
      const current = stream[0];
      const queue = stream.slice(1);
      const next = useNext ? rng.distribution() : undefined;
      const move = ai.nextMove({
        board: { width, rows: rows.subarray(0, Math.max(visible, 20)) },
        current,
        queue,
        hold: hold ? holdPiece : null,
        canHold: hold,
        next,
      });
      if (!move) {
        record.topOut = true;
        break;
      }
      const expected = !move.hold ? current : (holdPiece ?? queue[0]);
      if (move.piece !== expected || (move.hold && !hold)) {
        throw new StackRankError(
          'BAD_ARGUMENT',
          `the AI placed ${move.piece}${move.hold ? ' after hold' : ''}; the turn allows ${expected}`,
        );
      }
      if (move.hold) {
        if (holdPiece === null) stream.shift(); // the box was empty: the first queue piece comes out too
        holdPiece = current;
      }
      stream.shift();
      const locked = placeChecked(rows, width, move.cells);
      rows = locked.rows;
      pieces++;
      if (move.mode === 'stack') record.stackPieces++;
      if (locked.lines > 0) {
        record.lines += locked.lines;
        result.lines += locked.lines;
        record.clears[locked.lines - 1]++;
      }
      const nowHoles = countHoles(rows, width);
      if (nowHoles > holes) record.holesMade += nowHoles - holes;
      holes = nowHoles;
      if (rows.subarray(visible).some((m) => m !== 0)) {
        record.topOut = true;
        break;
      }
      if (opts.onProgress && (pieces & 255) === 0 && performance.now() - lastProgress > 250) {
        lastProgress = performance.now();
        opts.onProgress({
          games: g - range.start,
          pieces: result.pieces + pieces,
          lines: result.lines,
          topOuts: result.topOuts,
          elapsedMs: lastProgress - t0,
        });
      }
    }
    record.pieces = pieces;
    if (record.topOut) result.topOuts++;
    result.pieces += pieces;
    playedPieces += pieces;
    records[g - range.start] = record;
    onGame?.({ ...record, clears: [...record.clears] });
  }
  const seconds = (performance.now() - t0) / 1000;
  return poolGames(meta, range, records as RealGameRecord[], seconds, playedPieces);
}

type GameRunMeta = Pick<
  PlayGameResult,
  'rules' | 'randomizer' | 'lookahead' | 'hold' | 'policy' | 'seed' | 'gameCount' | 'maxPieces'
>;
const GAME_META_FIELDS = [
  'rules',
  'randomizer',
  'lookahead',
  'hold',
  'policy',
  'seed',
  'gameCount',
  'maxPieces',
] as const satisfies readonly (keyof GameRunMeta)[];

/** The result of the games `range` from their records, in order: the one place the figures are computed. */
function poolGames(
  meta: GameRunMeta,
  range: GameRange,
  records: RealGameRecord[],
  seconds: number,
  playedPieces: number,
): PlayGameResult {
  let pieces = 0;
  let lines = 0;
  let topOuts = 0;
  let stackPieces = 0;
  let holesMade = 0;
  const clears = [0, 0, 0, 0];
  for (const r of records) {
    pieces += r.pieces;
    lines += r.lines;
    if (r.topOut) topOuts++;
    stackPieces += r.stackPieces;
    holesMade += r.holesMade;
    for (let k = 0; k < 4; k++) clears[k] += r.clears[k];
  }
  return {
    rules: meta.rules,
    randomizer: meta.randomizer,
    lookahead: meta.lookahead,
    hold: meta.hold,
    policy: meta.policy,
    games: records.length,
    pieces,
    lines,
    tetrisRate: lines > 0 ? (4 * clears[3]) / lines : 0,
    clears: { single: clears[0], double: clears[1], triple: clears[2], tetris: clears[3] },
    topOuts,
    piecesPerTopOut: topOuts > 0 ? pieces / topOuts : Infinity,
    stackShare: pieces > 0 ? stackPieces / pieces : 0,
    holesPer1000: pieces > 0 ? (1000 * holesMade) / pieces : 0,
    gamePieces: records.map((r) => r.pieces),
    piecesPerSecond: seconds > 0 ? playedPieces / seconds : 0,
    seconds,
    seed: meta.seed,
    gameCount: meta.gameCount,
    maxPieces: meta.maxPieces,
    range: { ...range },
    gameRecords: records,
  };
}

/** Checks a game record (from a checkpoint or a shard): integers where counts go, a top-out flag, no game longer
 * than the run allows. */
function checkGameRecord(value: unknown, where: string, maxPieces: number): RealGameRecord {
  const r = recordObject(where, value);
  if (typeof r.topOut !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `${where}: topOut must be true or false; got ${describe(r.topOut)}`);
  if (!Array.isArray(r.clears) || r.clears.length !== 4)
    throw new StackRankError('BAD_ARGUMENT', `${where}: clears must be 4 counts; got ${describe(r.clears)}`);
  const pieces = recordInt(where, 'pieces', r.pieces, 0, maxPieces);
  const record: RealGameRecord = {
    game: recordInt(where, 'game', r.game, 0, MAX_SHARDS - 1),
    pieces,
    lines: recordInt(where, 'lines', r.lines),
    clears: r.clears.map((c, k) => recordInt(where, `clears[${k}]`, c)) as RealGameRecord['clears'],
    topOut: r.topOut,
    stackPieces: recordInt(where, 'stackPieces', r.stackPieces, 0, pieces),
    holesMade: recordInt(where, 'holesMade', r.holesMade),
  };
  if (record.clears.reduce((a, c, k) => a + c * (k + 1), 0) !== record.lines)
    throw new StackRankError('BAD_ARGUMENT', `${where}: lines (${record.lines}) is not the sum of its clears`);
  return record;
}

/**
 * Pools results of one run played in parts (each a `range` of its games) into the result of the games they cover
 * together: the same numbers, bit for bit, as one playGame call over those games. `seconds` is the parts' total.
 * Parts of different runs (rules, randomizer, lookahead, hold, policy, seed, games, maxPieces), overlapping parts
 * and gaps are refused with RUN_MISMATCH. (The table, well and recovery settings are not in a result: parts must
 * have been played with the same ones.)
 */
export function mergeGameResults(results: readonly PlayGameResult[]): PlayGameResult {
  if (!Array.isArray(results) || results.length === 0)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `mergeGameResults takes a non-empty array of results; got ${describe(results)}`,
    );
  for (const [i, r] of results.entries()) recordObject(`result ${i + 1}`, r);
  requireSameRun(results, GAME_META_FIELDS);
  const first = results[0];
  const games = requireInt('gameCount', first.gameCount, 1, MAX_SHARDS);
  const maxPieces = requireInt('maxPieces', first.maxPieces, 1, Number.MAX_SAFE_INTEGER);
  const parts = results.map((r, i) => ({
    range: checkRange(`result ${i + 1}: range`, r.range, games),
    records: r.gameRecords,
  }));
  const { range, records } = joinRecords<RealGameRecord>(
    parts,
    (r, where) => checkGameRecord(r, where, maxPieces).game,
  );
  const seconds = results.reduce((a, r) => a + (Number.isFinite(r.seconds) && r.seconds > 0 ? r.seconds : 0), 0);
  const meta = Object.fromEntries(GAME_META_FIELDS.map((f) => [f, first[f]])) as GameRunMeta;
  const pooled = poolGames(meta, range, records, seconds, 0);
  pooled.piecesPerSecond = seconds > 0 ? pooled.pieces / seconds : 0;
  return pooled;
}

/** Locks the cells, refusing any that is filled or off the board: the simulator never trusts a move. */
function placeChecked(rows: Uint32Array, width: number, cells: readonly (readonly [number, number])[]) {
  if (cells.length !== 4) throw new StackRankError('BAD_ARGUMENT', `a move must have 4 cells; got ${cells.length}`);
  for (const [x, y] of cells) {
    if (!(x >= 0 && x < width && y >= 0 && y < rows.length) || (rows[y] >> x) & 1) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `the AI's move puts a cell on [${x}, ${y}], which is filled or off the board`,
      );
    }
  }
  return lockCells(rows, width, cells);
}

function countHoles(rows: Uint32Array, width: number): number {
  if (isHoleFree(rows, width)) return 0;
  let covered = 0;
  let n = 0;
  for (let r = rows.length - 1; r >= 0; r--) {
    let v = ~rows[r] & covered & ((1 << width) - 1);
    for (; v; v &= v - 1) n++;
    covered |= rows[r];
  }
  return n;
}
