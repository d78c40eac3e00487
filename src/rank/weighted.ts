/**
 * The weighted table variant: the article's iteration with per-piece weights instead of 1/7 each,
 *
 *   r_0 = 1,   r_{k+1}(s) = sum_p w_p max over p's rank-legal placements of r_k,
 *
 * where w is a randomizer's long-run piece frequency (or weights given directly), averaged over the mirror pairs
 * S/Z and L/J so that mirror images keep equal values. One value per surface: a weighted table is a RankTable
 * (variant "weighted", `params` holding the weights) and works wherever the article's table does.
 *
 * Every randomizer stackrank ships treats the seven pieces alike, so its long-run frequencies are 1/7 each (to
 * the estimate's noise) and the weighted table equals the article's; the variant matters for weights of your own.
 */
import { StackRankError, optionNames, optionsObject } from '../errors.js';
import {
  BUILD_OPTION_KEYS,
  checkBuildOptions,
  computeRankValues,
  type BuildOptions,
  type CheckedBuild,
} from './build.js';
import {
  PIECE_MODEL_OPTION_KEYS,
  customModel,
  pieceModelOptions,
  runSliced,
  weightsModel,
  weightsSteps,
  type PieceModel,
  type PieceModelOptions,
} from './transition.js';
import { RankTable, type RankTableBuildOptions } from './table.js';

export const WEIGHTED_VARIANT = 'weighted';

export interface WeightedBuildOptions extends BuildOptions, PieceModelOptions, Pick<RankTableBuildOptions, 'encoding'> {
  /** Seven piece weights given directly (summing to 1), instead of a randomizer's frequencies; recorded as "custom". */
  weights?: ArrayLike<number>;
}

/** The piece weights of a weighted build: the given ones, or the randomizer's estimated frequencies. */
export function weightedModel(opts: WeightedBuildOptions): PieceModel {
  return opts.weights !== undefined ? customModel(opts.weights, 'weights') : weightsModel(pieceModelOptions(opts));
}

/** Every option of cachedWeightedTablePath; buildWeightedTable takes a `model` too. */
export const WEIGHTED_BUILD_OPTIONS = optionNames<WeightedBuildOptions>({
  ...BUILD_OPTION_KEYS,
  ...PIECE_MODEL_OPTION_KEYS,
  encoding: true,
  weights: true,
});

const BUILD_WEIGHTED_TABLE_OPTIONS = optionNames<WeightedBuildOptions & { model?: PieceModel }>({
  ...BUILD_OPTION_KEYS,
  ...PIECE_MODEL_OPTION_KEYS,
  encoding: true,
  weights: true,
  model: true,
});

/** Builds a weighted table (see WeightedBuildOptions); threads, progress and abort as for buildRankTable. */
export async function buildWeightedTable(
  options: WeightedBuildOptions & { model?: PieceModel } = {},
): Promise<RankTable> {
  const opts = optionsObject('buildWeightedTable', options, BUILD_WEIGHTED_TABLE_OPTIONS);
  return buildCheckedWeightedTable(checkWeightedBuild(opts), opts);
}

/** A weighted build's options checked (checkBuildOptions, and the variant's own limits). */
export function checkWeightedBuild(opts: WeightedBuildOptions): CheckedBuild {
  const build = checkBuildOptions(opts);
  if (build.gravity !== 'drop')
    throw new StackRankError('BAD_ARGUMENT', 'weighted tables are built with gravity "drop" only');
  // Every shipped randomizer weights the pieces equally in the long run, so no collapsing weighted variant exists.
  if (build.steep !== 'forbid')
    throw new StackRankError('BAD_ARGUMENT', 'weighted tables are built with steep "forbid" only');
  return build;
}

/** buildWeightedTable for a checked build; `model` options: the weights, or the randomizer's to estimate them. */
export async function buildCheckedWeightedTable(
  build: CheckedBuild,
  model: Pick<WeightedBuildOptions & { model?: PieceModel }, keyof PieceModelOptions | 'weights' | 'model'>,
): Promise<RankTable> {
  const { width, maxStep, iterations } = build;
  const pieces =
    model.model ??
    (model.weights !== undefined
      ? customModel(model.weights, 'weights')
      : await runSliced(weightsSteps(pieceModelOptions(model)), build.signal));
  const values = await computeRankValues(build, pieces.model);
  return RankTable.fromValues(values, {
    width,
    maxStep,
    iterations,
    encoding: build.encoding,
    variant: WEIGHTED_VARIANT,
    params: pieces,
  });
}
