/**
 * stackrank public API. Each area re-exports from its own module; keep one export line per module.
 */
export { StackRankError, type StackRankErrorCode } from './errors.js';
export * from './pieces.js';
export * from './surface.js';
export { Rng, type RngState, checkSeed } from './random.js';
// rank tables (issue 2/3)
export { RankTable, buildRankTable, loadRankTable, ARTICLE_VARIANT, COLLAPSE_VARIANT, type RankTableBuildOptions } from './rank/table.js';
export { type BuildOptions, type BuildProgress } from './rank/build.js';
export { type ValueEncoding, type TableHeader, FORMAT_VERSION } from './rank/file.js';
export { loadOrBuildCachedTable, cachedTablePath, type CachedTable } from './rank/cache.js';
// table variants (issue 8): preview-aware (8 values per surface) and weighted tables, their piece models and cache
export { PreviewTable, buildPreviewTable, loadPreviewTable, PREVIEW_VARIANT, PREVIEW_COLLAPSE_VARIANT, PREVIEW_SLOTS, type PreviewBuildOptions } from './rank/preview.js';
export { buildWeightedTable, WEIGHTED_VARIANT, type WeightedBuildOptions } from './rank/weighted.js';
export { transitionModel, weightsModel, type PieceModel, type PieceModelOptions } from './rank/transition.js';
export { loadAnyTable } from './rank/any.js';
export { loadOrBuildCachedPreviewTable, loadOrBuildCachedWeightedTable, cachedPreviewTablePath, cachedWeightedTablePath, type CachedPreviewTable } from './rank/variant-cache.js';
export { RANDOMIZER_NAMES, createRandomizer, restoreRandomizer, isRandomizerName, randomizerDefaults, type Randomizer, type RandomizerName, type RandomizerOptions, type RandomizerState } from './randomizers/index.js';
export { analyzeRandomizer, analyzeRandomizerAsync, frequencySpread, type AnalyzeOptions, type AnalyzeAsyncOptions, type RandomizerAnalysis, type DroughtStats, type FrequencySpreadOptions } from './randomizers/analyze.js';
export * from './fullboard/index.js';
// stacking search and simulator (issue 4)
export { StackingAI, type BestPlacement, type PlanStep, type StackingAIOptions } from './stacking/ai.js';
export { BEST_STRATEGY, STRATEGIES, expectimaxStrategy, distributionWeights, pairWeights, type LeafRows, type Strategy, type StrategyName } from './stacking/engine.js';
export { simulateStacking, streamSeed, type SimulateOptions, type SimulationResult } from './stacking/simulate.js';
export { DEFAULT_RULES, SEED_RULES, STEEP_RULES, type StackingRules, type SteepRule, type TetrisRule } from './stacking/rules.js';
export { TABLE_STEEP, type TableSteep } from './rank/moves.js';
