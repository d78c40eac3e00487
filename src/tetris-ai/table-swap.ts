/**
 * The AI of createWorkerTetrisAI's table 'smallFirst' in its worker (docs/browser.md, "Small table first"): it plays
 * the small table until the default table is ready, then the default one. Its calls, and those of the games made
 * from it, go to whichever AI holds the table in use, so a game that began on the small table plays on with the
 * default one once it is swapped in (the game's own knowledge, such as the randomizer's state, is kept).
 */
import type { TetrisAI } from './ai.js';
import type { GameMove, GameState, MoveOptions } from './decision.js';
import type { PlacementRanking } from './rank-placements.js';
import { GameSession, type GameSessionOptions, type SessionHost } from './session.js';

export class TableSwap {
  private ai: TetrisAI;
  private host: SessionHost;
  /** The table the moves come from now. */
  table: 'small' | 'default' = 'small';

  constructor(small: TetrisAI) {
    this.ai = small;
    this.host = small.sessionHost();
  }

  /** From now on every call, the games' too, is answered by `full` (the same options over the default table). */
  swapIn(full: TetrisAI): void {
    this.ai = full;
    this.host = full.sessionHost();
    this.table = 'default';
  }

  nextMove(state: GameState, options?: MoveOptions): GameMove | null {
    return this.ai.nextMove(state, options);
  }

  rankPlacements(state: GameState, options?: { limit?: number }): PlacementRanking {
    return this.ai.rankPlacements(state, options);
  }

  newGame(options?: GameSessionOptions): GameSession {
    // Both AIs have the same options, so the same randomizer; only their tables differ.
    return new GameSession(
      {
        randomizer: this.ai.randomizer,
        readTurn: (state, caller) => this.host.readTurn(state, caller),
        readMoveOptions: (options) => this.host.readMoveOptions(options),
        play: (turn, budgetMs, salt) => this.host.play(turn, budgetMs, salt),
      },
      options,
    );
  }
}
