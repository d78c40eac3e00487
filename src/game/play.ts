/**
 * playGame: the real-game simulator (docs/game.md). TetrisAI plays games of a rule set against a seeded
 * randomizer; the simulator keeps its own board (it locks the returned cells, clears rows and checks that every
 * cell was empty and inside the board), its own queue and hold box, and counts what the benchmark reports.
 *
 * A game ends at a top-out: nextMove answers null (nothing can be placed) or the piece ends with a cell above the
 * visible field (20 rows). Game g draws its pieces from the randomizer seeded with streamSeed(seed, g, 0), so the
 * same seed gives the same games.
 */
import { StackRankError, describe, requireInt } from '../errors.js';
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
  const games = requireInt('games', opts.games ?? 1, 1, 1_000_000);
  const maxPieces = requireInt('maxPieces', opts.maxPieces ?? 10_000, 1, Number.MAX_SAFE_INTEGER);
  const seed = checkSeed(opts.seed ?? 0);
  const policy = opts.policy ?? 'both';
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

  const result: PlayGameResult = {
    rules,
    randomizer,
    lookahead,
    hold,
    policy,
    games: 0,
    pieces: 0,
    lines: 0,
    tetrisRate: 0,
    clears: { single: 0, double: 0, triple: 0, tetris: 0 },
    topOuts: 0,
    piecesPerTopOut: Infinity,
    stackShare: 0,
    holesPer1000: 0,
    gamePieces: [],
    piecesPerSecond: 0,
    seconds: 0,
    seed,
  };
  let stackPieces = 0;
  let holesMade = 0;
  const t0 = performance.now();
  let lastProgress = t0;
  let lastYield = t0;
  const sizes = ['single', 'double', 'triple', 'tetris'] as const;
  for (let g = 0; g < games; g++) {
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
        result.topOuts++;
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
      if (move.mode === 'stack') stackPieces++;
      if (locked.lines > 0) {
        result.lines += locked.lines;
        result.clears[sizes[locked.lines - 1]]++;
      }
      const nowHoles = countHoles(rows, width);
      if (nowHoles > holes) holesMade += nowHoles - holes;
      holes = nowHoles;
      if (rows.subarray(visible).some((m) => m !== 0)) {
        result.topOuts++;
        break;
      }
      if (opts.onProgress && (pieces & 255) === 0 && performance.now() - lastProgress > 250) {
        lastProgress = performance.now();
        opts.onProgress({
          games: g,
          pieces: result.pieces + pieces,
          lines: result.lines,
          topOuts: result.topOuts,
          elapsedMs: lastProgress - t0,
        });
      }
    }
    result.games++;
    result.pieces += pieces;
    result.gamePieces.push(pieces);
  }
  result.seconds = (performance.now() - t0) / 1000;
  result.piecesPerSecond = result.seconds > 0 ? result.pieces / result.seconds : 0;
  result.tetrisRate = result.lines > 0 ? (4 * result.clears.tetris) / result.lines : 0;
  result.stackShare = result.pieces > 0 ? stackPieces / result.pieces : 0;
  result.holesPer1000 = result.pieces > 0 ? (1000 * holesMade) / result.pieces : 0;
  result.piecesPerTopOut = result.topOuts > 0 ? result.pieces / result.topOuts : Infinity;
  return result;
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
