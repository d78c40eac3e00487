/** Full-board player (docs/fullboard.md): board, features, presets, player and GA trainer. */
export { legalDrops, dropPiece, type Drop, type DropFigures, type DropResult } from './drops.js';
export { FEATURE_NAMES, FEATURE_FUNCTIONS, featureValues, type FeatureName } from './features.js';
export {
  PRESETS,
  PRESET_NAMES,
  FEATURE_SETS,
  resolveWeights,
  type Preset,
  type PresetName,
  type WeightVector,
  type WeightsSpec,
} from './presets.js';
export {
  bestMove,
  playFullGame,
  kernelFeatures,
  type BestMoveOptions,
  type BestMoveResult,
  type PlayOptions,
  type GameResult,
} from './player.js';
export {
  trainWeights,
  checkCheckpoint,
  type TrainOptions,
  type TrainResult,
  type TrainCheckpoint,
  type GenerationInfo,
  type GenerationStats,
} from './trainer.js';
export { summarizeLines, type LinesSummary } from './stats.js';
