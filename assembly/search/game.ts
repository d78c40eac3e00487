// Search kernel: whole games. playGame advances a game record (assembly/search/layout.ts G_*) move by move until
// the game dies, reaches its piece cap or runs out of known pieces (the caller refills the piece buffer and calls
// again), so a simulated game never leaves WebAssembly.
import {
  CFG_STRATEGY, CTX_HOLD, CTX_WEIGHTS, GAME_CAPPED, HOLD_NONE, GAME_DEAD, GAME_NEEDS_PIECES, G_AVAILABLE, G_CAP, G_CTX, G_DEATH_PIECE,
  G_HEIGHTS, G_LOOKAHEAD, G_PIECES, G_PLAYED, G_POSITION, G_STATUS, G_TETRISES, G_WEIGHTS, MAX_DEPTH, MOVE_NONE,
  MOVE_TETRIS, STRATEGY_EXPECT2, STRATEGY_RANK, WEIGHT_WORDS_EXPECT, WEIGHT_WORDS_EXPECT2,
} from './layout';
import { cfgWord, heightsAt, word } from './records';
import { applyMove } from './rules';
import { search } from './tree';

/** Plays `game` until it dies, reaches its cap or needs more pieces; returns its status (GAME_*). */
export function playGame(cfg: usize, game: usize): i32 {
  const h = word(game, G_HEIGHTS);
  const pieces = <usize>load<i32>(word(game, G_PIECES));
  const lookahead = load<i32>(word(game, G_LOOKAHEAD));
  const ctx = <usize>load<i32>(word(game, G_CTX));
  const scratch = heightsAt(ctx, MAX_DEPTH);
  // The stacking game has no hold (a context's words may hold another search's).
  store<i32>(word(ctx, CTX_HOLD), HOLD_NONE);
  let position = load<i32>(word(game, G_POSITION));
  let played = load<i32>(word(game, G_PLAYED));
  let tetrises = load<i32>(word(game, G_TETRISES));
  const available = load<i32>(word(game, G_AVAILABLE));
  const cap = load<i32>(word(game, G_CAP));
  let status = GAME_NEEDS_PIECES;
  while (true) {
    if (played >= cap) {
      status = GAME_CAPPED;
      break;
    }
    // One piece past the window must be buffered: its chances are the expectimax weights.
    if (position + lookahead + 1 >= available) break;
    const strategy = cfgWord(cfg, CFG_STRATEGY);
    if (strategy != STRATEGY_RANK) {
      // The chances of the first unknown piece (and, for two, of the second given the first): WEIGHT_WORDS_EXPECT or WEIGHT_WORDS_EXPECT2
      // words per buffered piece, copied to the context's CTX_WEIGHTS (and CTX_WEIGHTS2, which follows it).
      const words = strategy == STRATEGY_EXPECT2 ? WEIGHT_WORDS_EXPECT2 : WEIGHT_WORDS_EXPECT;
      const weights = <usize>load<i32>(word(game, G_WEIGHTS));
      memory.copy(word(ctx, CTX_WEIGHTS), weights + ((<usize>((position + lookahead + 1) * words)) << 2), (<usize>words) << 2);
    }
    const move = search(cfg, ctx, h, pieces + <usize>position, lookahead);
    if (move == MOVE_NONE) {
      status = GAME_DEAD;
      store<i32>(word(game, G_DEATH_PIECE), <i32>load<u8>(pieces + <usize>position));
      break;
    }
    if (move == MOVE_TETRIS) tetrises++;
    applyMove(cfg, h, move, scratch);
    position++;
    played++;
  }
  store<i32>(word(game, G_POSITION), position);
  store<i32>(word(game, G_PLAYED), played);
  store<i32>(word(game, G_TETRISES), tetrises);
  store<i32>(word(game, G_STATUS), status);
  return status;
}
