/**
 * One turn of the game AI (src/game/ai.ts): the turn as its search reads it, the move it answers with and what it
 * decided with, which rankPlacements (./rank-placements.ts) values every other move by.
 */
import type { Piece } from '../pieces.js';
import type { Cell, GamePlacement, Input } from '../rules/types.js';
import type { RecoverContext, RecoverState } from './recover.js';
import type { StackChoice, StackContext, TurnOption } from './stack.js';

/** Which of the AI's modes chose a move (docs/game.md). */
export type GameMode = 'stack' | 'recover';

export interface GameMove {
  /** Press hold first, then place `piece` (the held piece, or the first of the queue when the box was empty). */
  hold: boolean;
  piece: Piece;
  rotation: string;
  x: number;
  y: number;
  cells: readonly Cell[];
  /** Keys from spawn, 'hold' first when `hold`, 'hardDrop' last. */
  inputs: readonly Input[];
  linesCleared: number;
  mode: GameMode;
  /** stack: the rank (expected rank under expectimax) of the search's best final surface, 0..1; recover: the
   * evaluator's value of the best line (higher is better). Not comparable between modes. */
  value: number;
}

/** One turn as the search reads it: checked bit rows and pieces (readTurn, or playGame's own). */
export interface Turn {
  /** Bit rows, bottom first, WORK_ROWS of them, none full, empty from `height` up; not changed during the call. */
  rows: Uint32Array;
  /** The board's height (at least MIN_FIELD_HEIGHT). */
  height: number;
  current: Piece;
  queue: readonly Piece[];
  hold: Piece | null;
  canHold: boolean;
  /** Chances of the first piece after the queue (7 non-negative numbers summing to 1), or undefined. */
  next: ArrayLike<number> | undefined;
}

/** What nextMove decided, and the search contexts it decided with (rankPlacements values every move with them). */
export interface Decision extends Omit<Turn, 'next'> {
  options: TurnOption[];
  reachRoot: (p: Piece) => readonly GamePlacement[];
  move: GameMove | null;
  stack: { ctx: StackContext; choice: StackChoice } | null;
  recover: { ctx: RecoverContext; state: RecoverState } | null;
}
