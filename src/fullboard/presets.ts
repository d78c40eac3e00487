/**
 * Feature sets and weight presets for the full-board player. A preset is data: the features (by name, with the
 * conventions they were tuned with) and one weight per feature. The player maximises Σ weight × feature over the
 * legal placements.
 */
import { StackRankError, describe, fieldsOnce, requireDenseArray } from '../errors.js';
import { FEATURES, FEATURE_NAMES, type FeatureName } from './features.js';
import { FEATURE_SLOTS } from '../kernels/fullboard.js';
import { deepFreeze } from '../frozen.js';

export interface WeightVector {
  readonly features: readonly FeatureName[];
  readonly weights: readonly number[];
}

export interface Preset extends WeightVector {
  readonly name: string;
  readonly source: string;
}

/** The CS3243 GA report's six features with the clean definitions (the report's prose). */
export const CS3243_FEATURES_PROSE: readonly FeatureName[] = Object.freeze([
  'rowsCleared',
  'rowTransitions',
  'columnTransitions',
  'holes',
  'cumulativeWells',
  'maxHeight',
]);
/** The CS3243 GA report's six features with the conventions of the code that trained its weights. */
export const CS3243_FEATURES: readonly FeatureName[] = Object.freeze([
  'rowsCleared',
  'rowTransitionsContinuous',
  'columnTransitionsBelowTop',
  'holesTimesTen',
  'wellsTriangle',
  'maxHeight',
]);
export const DELLACHERIE_FEATURES: readonly FeatureName[] = Object.freeze([
  'landingHeight',
  'erodedPieceCells',
  'rowTransitions',
  'columnTransitions',
  'holes',
  'cumulativeWells',
]);
export const BCTS_FEATURES: readonly FeatureName[] = Object.freeze([
  ...DELLACHERIE_FEATURES,
  'holeDepth',
  'rowsWithHoles',
]);

/** The names of the trainer's feature sets (FEATURE_SETS), as `--features` and `trainWeights({ features })` take them. */
export type FeatureSetName = 'cs3243' | 'cs3243Prose' | 'dellacherie' | 'bcts';

/** Named feature sets for the trainer (`features` option). */
export const FEATURE_SETS: Readonly<Record<FeatureSetName, readonly FeatureName[]>> = Object.freeze({
  cs3243: CS3243_FEATURES,
  cs3243Prose: CS3243_FEATURES_PROSE,
  dellacherie: DELLACHERIE_FEATURES,
  bcts: BCTS_FEATURES,
});

export const FEATURE_SET_NAMES: readonly FeatureSetName[] = Object.freeze(
  Object.keys(FEATURE_SETS) as FeatureSetName[],
);

export function isFeatureSetName(value: unknown): value is FeatureSetName {
  return typeof value === 'string' && (FEATURE_SET_NAMES as string[]).includes(value);
}

const CS3243_WEIGHTS = Object.freeze([
  8.580230809919557, -7.323298208568506, -5.79715846115661, -4.194861543999046, -3.908041863765, -7.193861810393222,
]);

export const PRESETS = {
  /** The CS3243 GA report's weights (Table 1) with the conventions of the code that trained them: the faithful replica. */
  cs3243: {
    name: 'cs3243',
    features: CS3243_FEATURES,
    weights: CS3243_WEIGHTS,
    source: 'CS3243 GA report, Table 1, code conventions',
  },
  /** The same weights read with the report's prose (clean) feature definitions; plays far worse (docs). */
  cs3243Prose: {
    name: 'cs3243Prose',
    features: CS3243_FEATURES_PROSE,
    weights: CS3243_WEIGHTS,
    source: 'CS3243 GA report, Table 1, prose definitions',
  },
  /** Dellacherie's hand-tuned player (as reported by Fahey, 2003). */
  dellacherie: {
    name: 'dellacherie',
    features: DELLACHERIE_FEATURES,
    weights: [-1, 1, -1, -1, -4, -1],
    source: 'Dellacherie (Fahey 2003)',
  },
  /**
   * BCTS (Thiery & Scherrer 2009), tuned with the cross-entropy method: the published controller at full
   * precision, as MdpTetris ships it (data/features/record_du.dat); the paper prints these rounded to two decimals.
   */
  bcts: {
    name: 'bcts',
    features: BCTS_FEATURES,
    weights: [-12.629, 6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087],
    source: 'Thiery & Scherrer 2009 (BCTS)',
  },
} as const satisfies Record<string, Preset>;
deepFreeze(PRESETS);
export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES: readonly PresetName[] = Object.freeze(Object.keys(PRESETS) as PresetName[]);
/** The weights bestMove and playFullGame use when none are given: the strongest preset measured (bench/notes/fullboard-results.md). */
export const DEFAULT_WEIGHTS: PresetName = 'bcts';

/** A preset name, or any features + weights pair (a Preset is one). */
export type WeightsSpec = PresetName | WeightVector;

/** Resolves and checks a weights spec; throws BAD_ARGUMENT with what is allowed. */
export function resolveWeights(spec: unknown): WeightVector {
  if (typeof spec === 'string') {
    const p = Object.hasOwn(PRESETS, spec) ? (PRESETS as Record<string, Preset>)[spec] : undefined;
    if (!p) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `unknown weights preset ${describe(spec)}; presets are ${PRESET_NAMES.join(', ')}`,
      );
    }
    return p;
  }
  if (!spec || typeof spec !== 'object') {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `weights must be a preset name (${PRESET_NAMES.join(', ')}) or { features, weights }; got ${describe(spec)}`,
    );
  }
  const { features, weights } = fieldsOnce('weights', spec, ['features', 'weights']) as Partial<WeightVector>;
  if (!Array.isArray(features) || features.length === 0) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `weights.features must be a non-empty array of feature names (${FEATURE_NAMES.join(', ')})`,
    );
  }
  requireDenseArray('BAD_ARGUMENT', 'weights.features', features);
  for (const f of features) {
    if (!(FEATURE_NAMES as readonly string[]).includes(f)) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `unknown feature ${describe(f)}; features are ${FEATURE_NAMES.join(', ')}`,
      );
    }
  }
  if (new Set(features).size !== features.length)
    throw new StackRankError('BAD_ARGUMENT', `weights.features lists a feature twice: ${describe(features)}`);
  if (!Array.isArray(weights) || weights.length !== features.length) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `need exactly one weight per feature (${features.length}); got ${Array.isArray(weights) ? weights.length : describe(weights)}`,
    );
  }
  // An index loop, not forEach: a sparse array's holes are weights too (and bad ones).
  for (let i = 0; i < weights.length; i++) {
    const w: unknown = weights[i];
    if (typeof w !== 'number' || !Number.isFinite(w)) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `weight ${i} (${features[i]}) must be a finite number; got ${describe(w)}`,
      );
    }
  }
  return { features: [...features], weights: [...weights] };
}

/** The kernel's weight slots: one f64 per feature id, 0 for features not in the vector. */
export function weightSlots(v: WeightVector): Float64Array {
  const slots = new Float64Array(FEATURE_SLOTS);
  v.features.forEach((f, i) => {
    slots[FEATURES[FEATURE_NAMES.indexOf(f)].id] = v.weights[i];
  });
  return slots;
}
