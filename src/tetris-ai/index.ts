/** The game-facing AI (docs/game.md): TetrisAI for any position of a real game, and the real-game simulator. */
export { TetrisAI, type WellSide, type GamePolicy, type HoldPlies } from './ai.js';
export type { TetrisAIOptions, GameGoal } from './ai-options.js';
export type { GameMove, GameMode, GameState } from './decision.js';
export {
  expectedPiecesFromRank,
  type PlacementRanking,
  type RankedPlacement,
  type PlacementUnit,
} from './rank-placements.js';
export type { GameSession, GameSessionOptions, SessionState, SessionStatus } from './session.js';
export type { RandomizerKnowledge } from '../randomizers/infer.js';
export { NES_RECOVER_WEIGHTS, PLAIN_BCTS_WEIGHTS, RECOVER_WEIGHTS } from './evaluate.js';
export type { RecoverWeights } from '../kernels/recover.js';
export { VERSUS_WEIGHTS, type VersusWeights } from './versus.js';
export { playGame, type PlayGameOptions } from './play.js';
export type { PlayGameResult } from './game-results.js';
export { defaultGameRandomizer } from './rules-adapter.js';
export { benchGame, type BenchGameOptions, type BenchGameResult } from './bench.js';
