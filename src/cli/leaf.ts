/**
 * --leaf and --leaf-iterations: how the randomizer-aware (expectimax) search scores its leaves, shared by
 * `bench survival` and `bench game`. piece-max reads the rank table's best rank per piece; preview reads the
 * randomizer's preview table (surface x piece in hand, docs/file-formats.md), loaded from the user's cache or built
 * and cached on first use.
 */
import type { RandomizerName } from '../randomizers/index.js';
import { MAX_ITERATIONS } from '../rank/build.js';
import type { RankTable } from '../rank/table.js';
import type { NextPieceValues } from '../stacking-ai/strategy.js';
import { UsageError } from './args.js';
import type { CliIO } from './io.js';
import { progressLine } from './progress.js';
import { defineOptions, type ChoiceSpec, type Defaulted } from './spec.js';

export const LEAF_CHOICES = ['piece-max', 'preview'] as const;
export type LeafName = (typeof LEAF_CHOICES)[number];
/** The leaf when --leaf is not given. */
export const DEFAULT_LEAF: LeafName = 'piece-max';

export const LEAF_OPTIONS = defineOptions({
  leaf: {
    type: 'choice',
    choices: LEAF_CHOICES,
    default: DEFAULT_LEAF,
    help: "how the randomizer-aware search scores its leaves: the rank table's best rank per piece, or the randomizer's preview table (built and cached on first use)",
  } as Defaulted<ChoiceSpec<LeafName>, LeafName>,
  leafIterations: {
    type: 'int',
    min: 1,
    max: MAX_ITERATIONS,
    help: 'iterations of the preview table for --leaf preview',
    defaultHelp: "the rank table's",
  },
});

/**
 * The leaf as a run file's parameters record it (docs/cli.md, "Leaves"): only `preview`; the default leaf is left
 * out, because run files made before --leaf existed played it and must still resume and merge.
 */
export function recordedLeaf(leaf: LeafName): LeafName | undefined {
  return leaf === DEFAULT_LEAF ? undefined : leaf;
}

/** The leaf a run's recorded parameters name: a missing `leaf` is the default. */
export function leafOfParams(params: Record<string, unknown>): LeafName {
  return (params.leaf as LeafName | undefined) ?? DEFAULT_LEAF;
}

export interface LeafValues {
  leaf: LeafName;
  leafIterations?: number;
}

/** Option combinations refused before any work: --leaf-iterations without --leaf preview. */
export function checkLeafOptions(values: LeafValues): void {
  if (values.leafIterations !== undefined && values.leaf !== 'preview')
    throw new UsageError('--leaf-iterations needs --leaf preview');
}

/**
 * Refuses --leaf preview with a rank table that has no preview table: preview tables are iterated over the moves of
 * a dropped piece, and the 20G table ranks the moves a piece reaches at 20G (docs/rules.md, "The 20G table").
 */
export function checkLeafTable(values: LeafValues, table: RankTable): void {
  if (values.leaf === 'preview' && table.variant === '20g')
    throw new UsageError(
      '--leaf preview needs a rank table of dropped pieces (variant article, collapse or weighted); this is the 20G table (variant 20g), and preview tables are built for dropped pieces only',
    );
}

/**
 * The leaf values for the search (for a table checkLeafTable accepted; callers check it before starting their run):
 * undefined for piece-max (the engine's default), else the randomizer's preview table of the rank table's shape and
 * steep rule, with --leaf-iterations (default: the rank table's) iterations,
 * loaded from the cache or built there with progress on the status line.
 */
export async function loadLeafValues(
  values: LeafValues,
  table: RankTable,
  randomizer: RandomizerName,
  io: CliIO,
): Promise<NextPieceValues | undefined> {
  if (values.leaf !== 'preview') return undefined;
  const { loadOrBuildCachedPreviewTable } = await import('../rank/variant-cache.js');
  io.status(`preview table for ${randomizer}: loading or building`);
  const {
    table: preview,
    cached,
    path,
  } = await loadOrBuildCachedPreviewTable({
    width: table.width,
    maxStep: table.maxStep,
    iterations: values.leafIterations ?? table.iterations,
    randomizer,
    // The preview table follows the rank table's steep rule.
    steep: table.steep,
    signal: io.signal,
    env: io.env,
    onProgress: (p) =>
      io.status(
        progressLine(
          `building preview table for ${randomizer}, iteration`,
          p.iteration,
          p.iterations,
          p.elapsedMs,
          p.etaMs,
        ),
      ),
  });
  io.status('');
  if (!cached) io.err(`built and cached ${path}`);
  return preview;
}
