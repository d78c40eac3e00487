/**
 * `stackrank`: what a game or a demo needs (docs/api.md). The AIs and their rules, boards and pieces, the piece
 * randomizers, rank tables (build, load, cache) and the error type. Everything else (table variants and their
 * piece models, search strategies' internals, feature sets and the trainer, file-format constants, statistics) is
 * in `stackrank/research` (src/research.ts). At most 60 runtime exports here (test/entry-points.test.ts).
 * One export line per module; a name lives in exactly one of the two entries.
 */
export { StackRankError, type StackRankErrorCode } from './errors.js';

// Pieces and the stacking surface (9 columns of a 10-wide board; the 10th is the well).
export {
  PIECES,
  ORIENTATIONS,
  pieceId,
  orientationCells,
  type Piece,
  type PieceId,
  type Orientation,
} from './pieces.js';
export {
  parseSurface,
  surfaceFromHeights,
  surfaceFromSteps,
  surfaceFromIndex,
  surfaceIndex,
  surfaceHeights,
  surfaceDigits,
  mirrorSurface,
  type Surface,
  type Geometry,
} from './surface.js';

// The game-facing Tetris AI (docs/game.md); the boards and rule sets it plays are below.
export {
  TetrisAI,
  playGame,
  defaultGameRandomizer,
  benchGame,
  RECOVER_WEIGHTS,
  PLAIN_BCTS_WEIGHTS,
  VERSUS_WEIGHTS,
  type RecoverWeights,
  type VersusWeights,
  type PlacementRanking,
  type RankedPlacement,
  type PlacementUnit,
  type TetrisAIOptions,
  type GameState,
  type GameMove,
  type GameMode,
  type GameGoal,
  type WellSide,
  type HoldPlies,
  type PlayGameOptions,
  type PlayGameResult,
  type GameSession,
  type GameSessionOptions,
  type SessionState,
  type SessionStatus,
  type RandomizerKnowledge,
} from './tetris-ai/index.js';
export type { SetupProgress, SetupStage } from './setup-progress.js';

// The stacking game's settings (real games' rule sets are below, with the rules layer).
export {
  DEFAULT_STACKING,
  ARTICLE_STACKING,
  STEEP_RULES,
  type StackingSettings,
  type SteepRule,
  type TetrisRule,
} from './stacking-ai/rules.js';

// The stacking AI: best placement over the known queue, and its survival simulator.
export { StackingAI, type StackingAIOptions } from './stacking-ai/ai.js';
export type { BestPlacement, PlanStep } from './stacking-ai/surface-move.js';
export type { SurfacePlacementRanking, RankedSurfacePlacement } from './stacking-ai/rank-placements.js';
export type { NextPieceValues, Strategy, StrategyName } from './stacking-ai/strategy.js';
export type { UnknownPieces } from './kernels/search-format.js';
export {
  simulateStacking,
  type SimulateOptions,
  type SimulationProgress,
  type SimulationResult,
} from './stacking-ai/simulate.js';

// Rank tables: build, load, and the user cache (Node).
export { RankTable, buildRankTable, loadRankTable, type RankTableBuildOptions } from './rank/table.js';
export type { BuildOptions, BuildProgress } from './rank/build.js';
export type { ValueEncoding } from './rank/file.js';
export { loadOrBuildCachedTable, type CachedTable } from './rank/cache.js';
export { PreviewTable, buildPreviewTable, loadPreviewTable, type PreviewBuildOptions } from './rank/preview.js';
export { loadOrBuildCachedPreviewTable, type CachedPreviewTable } from './rank/variant-cache.js';
export type { PieceModelOptions } from './rank/transition.js';

// Piece randomizers.
export {
  RANDOMIZER_NAMES,
  createRandomizer,
  restoreRandomizer,
  isRandomizerName,
  type Randomizer,
  type RandomizerName,
  type RandomizerOptions,
  type RandomizerState,
} from './randomizers/index.js';

// The full-board player (10 x 20, feature weights) on the rules layer's Board (below).
export { legalDrops, dropPiece, type Drop, type DropFigures, type DropResult } from './fullboard/drops.js';
export {
  PRESETS,
  PRESET_NAMES,
  type Preset,
  type PresetName,
  type WeightVector,
  type WeightsSpec,
} from './fullboard/presets.js';
export type { FeatureName } from './fullboard/features.js';
export {
  bestMove,
  playFullGame,
  type BestMoveOptions,
  type BestMoveResult,
  type PlayOptions,
  type GameResult,
} from './fullboard/player.js';

// Real games: boards, rule sets, reachable placements with their key sequences (docs/rules.md, "Real games").
export {
  Board,
  reachablePlacements,
  countReachablePlacements,
  boardFromFumen,
  fumenFromBoard,
  PieceMover,
  RULE_SETS,
  RULE_SET_NAMES,
  nesTiming,
  formatFrameInputs,
  NesGame,
  nesFormat,
  NES_COMPETITION_MAX_LEVEL,
  type RuleSetName,
  type RuleSet,
  type GameTiming,
  type GravityStep,
  type Timeline,
  type NesFormat,
  type NesFormatOptions,
  type FrameInput,
  type Input,
  type Cell,
  type PieceMove,
  type GamePlacement,
  type BoardLike,
  type ReachableOptions,
  type FumenPosition,
  type FumenExportOptions,
  type PieceState,
} from './rules/index.js';

// Versus: spins, attack and garbage (docs/rules.md, "Versus").
export {
  ATTACK_TABLES,
  lockOutcome,
  GarbageQueue,
  insertGarbage,
  type Spin,
  type SpinRule,
  type ClearKind,
  type AttackTable,
  type AttackTableName,
  type LockResult,
  type LockOutcome,
  type VersusState,
  type GarbageEntry,
  type GarbageQueueOptions,
  type Messiness,
} from './rules/index.js';
