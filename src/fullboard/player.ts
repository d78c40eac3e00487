/**
 * The full-board player: bestMove (1-ply, or 2-ply over a known next piece) and playFullGame, whose game loop
 * runs inside the WebAssembly kernel in chunks (progress and abort between chunks).
 */
import {
  StackRankError,
  checkCallback,
  checkSignal,
  describe,
  optionNames,
  optionsObject,
  requireInt,
  yieldToEventLoop,
} from '../errors.js';
import { PIECES } from '../pieces.js';
import { Rng, checkSeed } from '../random.js';
import type { PieceMove } from '../rules/types.js';
import type { Board } from '../rules/board.js';
import { checkDrop, DEFAULT_HEIGHT, DEFAULT_WIDTH, checkFullBoard, checkSize, dropPiece, type Drop } from './drops.js';
import { toPieceId } from '../pieces.js';
import { FEATURE_NAMES, type FeatureName } from './features.js';
import { FullBoardContext } from '../kernels/fullboard.js';
import { DEFAULT_WEIGHTS, resolveWeights, weightSlots, type WeightsSpec } from './presets.js';
import { createRandomizer, checkRandomizerName, type Randomizer } from '../randomizers/index.js';

export interface BestMoveOptions {
  /** A preset name or { features, weights }; default DEFAULT_WEIGHTS ('bcts', the strongest preset). */
  weights?: WeightsSpec;
  /** The next piece, when known: the move is then chosen 2-ply over every placement of it. */
  next?: number | string;
}

const BEST_MOVE_OPTIONS = optionNames<BestMoveOptions>({ weights: true, next: true });

/**
 * The full-board player's move in the shape every AI answers with (PieceMove: docs/api.md, "Moves"): `rotation`,
 * `x`, `y`, `cells` in the classic rule set's terms (the piece is dropped straight down; `x` its leftmost column,
 * `y` its lowest row, `rotation` the orientation index as a string), before full rows are removed.
 */
export interface BestMoveResult extends PieceMove {
  /** Index of the orientation in ORIENTATIONS[piece] (docs/rules.md, "Pieces"): the rotation as a number. */
  orientation: number;
  /** Value of the move: its evaluation (1-ply) or the best evaluation after the next piece (2-ply). */
  value: number;
  /** Rows the move clears. */
  linesCleared: number;
  /** The board after the move. */
  board: Board;
}

/** The best placement of `piece` on `board`, or null when every placement loses. */
export async function bestMove(
  board: Board,
  piece: number | string,
  options: BestMoveOptions = {},
): Promise<BestMoveResult | null> {
  checkFullBoard(board, 'bestMove');
  const p = toPieceId(piece);
  const opts = optionsObject('bestMove', options, BEST_MOVE_OPTIONS);
  const q = opts.next === undefined ? null : toPieceId(opts.next);
  const slots = weightSlots(resolveWeights((opts.weights ?? DEFAULT_WEIGHTS) as WeightsSpec));
  const context = await FullBoardContext.acquire(board.width, board.height);
  try {
    context.setWeights(slots);
    context.setBoard(board);
    const choice = context.bestMove(p, q);
    if (!choice) return null;
    const { orientation, x } = choice;
    const placed = dropPiece(board, { piece: PIECES[p], rotation: String(orientation), x })!;
    return {
      ...placed.move,
      orientation,
      value: choice.value,
      linesCleared: placed.lines,
      board: placed.board,
    };
  } finally {
    context.release();
  }
}

/**
 * Features computed by the WebAssembly evaluator, for a board on its own or after a move (null when the move
 * loses). The TypeScript reference is featureValues in features.ts; tests hold the two equal.
 */
export async function kernelFeatures(board: Board, move?: Drop): Promise<Record<FeatureName, number> | null> {
  checkFullBoard(board, 'kernelFeatures');
  const drop = move === undefined ? null : checkDrop(board, move, 'kernelFeatures: move');
  const context = await FullBoardContext.acquire(board.width, board.height);
  try {
    context.setBoard(board);
    let values: number[] | null;
    if (drop) {
      values = context.moveFeatures(drop.p, drop.orientation, drop.x);
      if (!values) return null;
    } else values = context.boardFeatures();
    const out = {} as Record<FeatureName, number>;
    FEATURE_NAMES.forEach((f, i) => {
      out[f] = values[i];
    });
    return out;
  } finally {
    context.release();
  }
}

export interface PlayOptions {
  /** A preset name or { features, weights }; default DEFAULT_WEIGHTS ('bcts': games run for millions of lines, set maxLines). */
  weights?: WeightsSpec;
  /** Piece randomizer; `memoryless` (default) runs the PRNG inside the kernel: exactly new Rng(seed).nextInt(7). */
  randomizer?: string;
  seed?: number;
  maxLines?: number;
  maxPieces?: number;
  /** 0 = 1-ply (default, the CS3243 GA report's rules: no preview); 1 = 2-ply with one preview piece. */
  lookahead?: 0 | 1;
  width?: number;
  height?: number;
  /** Called between chunks with the running totals, and once more when the game ends with its final lines and
   * pieces (unless the last chunk's call already had them). */
  onProgress?(p: { lines: number; pieces: number; seconds: number }): void;
  signal?: AbortSignal;
  /** Pieces per kernel call (default 20,000: a few milliseconds, so abort is honoured quickly). */
  chunk?: number;
}

const PLAY_OPTIONS = optionNames<PlayOptions>({
  weights: true,
  randomizer: true,
  seed: true,
  maxLines: true,
  maxPieces: true,
  lookahead: true,
  width: true,
  height: true,
  onProgress: true,
  signal: true,
  chunk: true,
});

export interface GameResult {
  lines: number;
  pieces: number;
  seconds: number;
  piecesPerSecond: number;
  /** True when the game ended by a loss; false when it stopped at maxLines or maxPieces. */
  lost: boolean;
}

/** Pieces per kernel call between two looks at the event loop (about 20 ms at full speed on one core). */
const DEFAULT_CHUNK = 20_000;

function loadRandomizer(given: string, seed: number): Randomizer {
  const name = checkRandomizerName(given);
  return createRandomizer(name, { seed });
}

/** Plays one full-board game; the loop runs in WebAssembly. */
export async function playFullGame(playOptions: PlayOptions = {}): Promise<GameResult> {
  const options = optionsObject('playFullGame', playOptions, PLAY_OPTIONS) as PlayOptions;
  const slots = weightSlots(resolveWeights(options.weights ?? DEFAULT_WEIGHTS));
  const signal = checkSignal(options.signal, 'playFullGame: signal');
  const onProgress = checkCallback<NonNullable<PlayOptions['onProgress']>>(
    'playFullGame: onProgress',
    options.onProgress,
  );
  const { width, height } = checkSize(options.width ?? DEFAULT_WIDTH, options.height ?? DEFAULT_HEIGHT);
  const seed = checkSeed(options.seed ?? 0);
  const maxLines =
    options.maxLines === undefined ? Infinity : requireInt('maxLines', options.maxLines, 1, Number.MAX_SAFE_INTEGER);
  const maxPieces =
    options.maxPieces === undefined ? Infinity : requireInt('maxPieces', options.maxPieces, 1, Number.MAX_SAFE_INTEGER);
  const lookahead = options.lookahead ?? 0;
  if (lookahead !== 0 && lookahead !== 1)
    throw new StackRankError('BAD_ARGUMENT', `lookahead must be 0 or 1; got ${describe(lookahead)}`);
  const chunk = requireInt('chunk', options.chunk ?? DEFAULT_CHUNK, 1, 1 << 30);
  const randomizer = options.randomizer ?? 'memoryless';
  const external = randomizer === 'memoryless' ? null : loadRandomizer(randomizer, seed);

  const context = await FullBoardContext.acquire(width, height);
  try {
    context.setWeights(slots);
    context.startGame(lookahead, new Rng(seed).state(), external);
    const t0 = performance.now();
    const counters = () => context.counters();
    let lost = false;
    let reportedPieces = -1;
    const report = () => {
      const c = counters();
      reportedPieces = c.pieces;
      onProgress!({ ...c, seconds: (performance.now() - t0) / 1000 });
    };
    for (;;) {
      if (signal?.aborted) throw new StackRankError('ABORTED', 'the game was aborted');
      const { pieces } = counters();
      const budget = Math.min(chunk, maxPieces - pieces);
      if (budget <= 0) break;
      const end = context.playChunk(budget, maxLines);
      if (end === 'lost') {
        lost = true;
        break;
      }
      if (end === 'lineCap') break;
      // the kernel used up the dealt pieces and was dealt more: on with the next chunk
      if (end === 'dealt') continue;
      if (onProgress) report();
      // Let timers and abort events run between chunks, with or without onProgress.
      await yieldToEventLoop();
    }
    // The last event has the game's totals: a loss or the line cap ends a chunk without one.
    if (onProgress && counters().pieces !== reportedPieces) report();
    const seconds = (performance.now() - t0) / 1000;
    const { lines, pieces } = counters();
    return { lines, pieces, seconds, piecesPerSecond: seconds > 0 ? pieces / seconds : 0, lost };
  } finally {
    context.release();
  }
}
