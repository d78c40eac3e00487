/**
 * `stackrank/research`: the library behind the game-facing entry (`stackrank`, src/index.ts), for experiments,
 * benchmarks and tools. Table variants (preview-aware, weighted) and their piece models, file-format constants and
 * cache paths, the search strategies' internals, full-board features and the genetic-algorithm trainer, randomizer
 * statistics, the seeded PRNG and the geometry limits. A name lives in exactly one of the two entries.
 */

// Geometry limits and helpers, the PRNG.
export { MIRROR_PIECE, PIECE_COUNT } from './pieces.js';
export {
  DEFAULT_WIDTH,
  DEFAULT_MAX_STEP,
  MIN_WIDTH,
  MAX_WIDTH,
  MIN_MAX_STEP,
  MAX_MAX_STEP,
  checkGeometry,
  surfaceBase,
  surfaceCount,
  mirrorIndex,
} from './surface.js';
export { Rng, type RngState, checkSeed } from './random.js';

// Rank-table files: variants, format, cache paths, the weighted tables and their piece models.
export { ARTICLE_VARIANT, COLLAPSE_VARIANT } from './rank/table.js';
export { FORMAT_VERSION, type TableHeader } from './rank/file.js';
export { cachedTablePath } from './rank/cache.js';
export { PREVIEW_VARIANT, PREVIEW_COLLAPSE_VARIANT, PREVIEW_SLOTS } from './rank/preview.js';
export { buildWeightedTable, WEIGHTED_VARIANT, type WeightedBuildOptions } from './rank/weighted.js';
export { transitionModel, weightsModel, type PieceModel } from './rank/transition.js';
export { loadAnyTable } from './rank/any.js';
export {
  loadOrBuildCachedWeightedTable,
  cachedPreviewTablePath,
  cachedWeightedTablePath,
} from './rank/variant-cache.js';
export { TABLE_STEEP, type TableSteep } from './rank/moves.js';
export { TABLE_GRAVITY, type TableGravity } from './rank/build.js';

// Randomizer statistics and parameters.
export { randomizerDefaults } from './randomizers/index.js';
export {
  analyzeRandomizer,
  analyzeRandomizerAsync,
  frequencySpread,
  type AnalyzeOptions,
  type AnalyzeAsyncOptions,
  type RandomizerAnalysis,
  type DroughtStats,
  type FrequencySpreadOptions,
} from './randomizers/analyze.js';

// Stacking search internals: strategies and the kernel's integer chance weights; simulator streams.
export { distributionWeights, pairWeights } from './kernels/search-format.js';
export {
  BEST_STRATEGY,
  MAX_UNKNOWN_PIECES,
  STRATEGIES,
  expectimaxStrategy,
  type SearchStrategy,
} from './stacking-ai/strategy.js';
export { streamSeed } from './stacking-ai/simulate.js';
export { reachTable, recordReached, type ReachTable } from './stacking-ai/reach.js';

// Runs split across machines (docs/distributed.md): shard ranges and exact merges of partial results.
export { MAX_SHARDS, shardRange, type GameRange } from './runs.js';
export {
  mergeSimulations,
  type StreamRecord,
  type StackingGameRecord,
} from './stacking-ai/simulate.js';
export { mergeGameResults } from './tetris-ai/game-results.js';
export type { GameTally } from './tetris-ai/play-types.js';
export {
  playFullGames,
  mergeFullGames,
  type FullGamesOptions,
  type FullGamesResult,
  type FullGamesRun,
  type FullGameRecord,
} from './fullboard/games.js';

// Full-board features, weight presets' internals, the GA trainer and game-length statistics.
export {
  FEATURES,
  FEATURE_NAMES,
  FEATURE_FUNCTIONS,
  featureValues,
  type FeatureEntry,
} from './fullboard/features.js';
export { FEATURE_SETS, DEFAULT_WEIGHTS, resolveWeights, type FeatureSetName } from './fullboard/presets.js';
// Recover mode's weights tuned for the timed NES game, and for its double killscreen (docs/game.md, "Recover mode").
export { FLOOR_RECOVER_WEIGHTS, NES_RECOVER_WEIGHTS } from './tetris-ai/evaluate.js';
export { kernelFeatures } from './fullboard/player.js';
export {
  trainWeights,
  checkCheckpoint,
  type TrainOptions,
  type TrainResult,
  type TrainCheckpoint,
  type GenerationInfo,
  type GenerationStats,
} from './fullboard/trainer.js';
export { summarizeLines, type LinesSummary } from './fullboard/stats.js';

// The rules layer's machinery: rotation systems, rule-set checking, the moving piece, the TypeScript search.
export {
  BOARD_MIN_WIDTH,
  BOARD_MAX_WIDTH,
  BOARD_MIN_HEIGHT,
  BOARD_MAX_HEIGHT,
  ROTATION_SYSTEMS,
  ROTATION_SYSTEM_NAMES,
  SRS,
  ARS,
  NRS,
  CLASSIC,
  GUIDELINE_MATRIX_ROWS,
  GUIDELINE_SPAWN_ROW,
  isRuleSetName,
  isTimed,
  resolveRules,
  fieldOf,
  gravityAt,
  rulesAtLevel,
  linesToLevel,
  TAP_TIMELINES,
  DAS_MODES,
  MAX_LEVEL,
  MAX_START_LEVEL,
  NES_LINE_POINTS,
  NES_DOUBLE_KILLSCREEN,
  nesLevel,
  nesLinesToLevelUp,
  nesClearPoints,
  firstLevelUpLines,
  SEARCH_MOVES,
  type RotationSystem,
  type RotationSystemName,
  type PieceStates,
  type Gravity,
  type SpawnRule,
  type Field,
} from './rules/index.js';
export { searchPlacements } from './rules/reachable.js';
// Versus machinery: the lists of names and the garbage steps a simulator composes (docs/rules.md, "Versus").
export {
  SPIN_RULES,
  ATTACK_TABLE_NAMES,
  CLEAR_KINDS,
  DEFAULT_MESSINESS,
  garbageAfterLock,
  garbageHoles,
  insertGarbageRows,
  type GarbageStep,
} from './rules/index.js';
// The versus simulator: matches between TetrisAI and TetrisAI or a Tetris Bot Protocol bot (docs/versus.md).
export {
  playVersus,
  type PlayVersusOptions,
  type VersusSide,
  type VersusAIOptions,
  type VersusResult,
  type VersusSideResult,
} from './versus/run.js';
export type { MatchTally, SideTally, MatchWinner, OutReason } from './versus/match.js';
