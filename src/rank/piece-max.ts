/**
 * Best-placement values per piece, for expectimax leaves: for every surface s, eight u16 values: slot p
 * (0..6) is the best quantised rank reachable by one rank-legal placement of piece p (0 when there is none), and
 * slot 7 is the rank of s itself. Computed with the rank kernel's product-set loops over the table's own u16
 * values, so the numbers are exactly the table's. 16 bytes per surface (688 MB for 9x4): Node-sized; the search
 * keeps them folded by mirror symmetry (computeFoldedPieceMax, 344 MB for 9x4).
 * The preview table variant (src/rank/preview.ts, PreviewTable.rows) has the same row layout and can stand in for
 * these rows; with the memoryless randomizer and K iterations it equals the rows of the (K-1)-iteration table.
 */
import { StackRankError } from '../errors.js';
import { pieceMaxRowChunks } from '../kernels/rank.js';
import { rankPlanSteps, type RankPlanArrays } from '../kernels/rank-plan.js';
// The rows are the search kernel's leaf rows (its layout: assembly/search/layout.ts).
import { LEAF_ROW_SLOTS as SLOTS } from '../kernels/search-format.js';
import { variantMirrored } from './file.js';
import { flipTable, foldRowRange, foldShape } from './fold.js';
import { rankMoves } from './moves.js';
import { runInSlices } from '../slices.js';
import type { RankTable } from './table.js';

/**
 * The rows of every surface; written into `target` (8 u16 per surface, e.g. a view of a search kernel's memory)
 * when given, so the 688 MB result of the 9x4 table exists once. Returns the rows.
 */
export async function computePieceMax(
  table: RankTable,
  target?: Uint16Array,
  signal?: AbortSignal,
  onFraction?: (done: number) => void,
): Promise<Uint16Array> {
  const size = table.size;
  if (target && target.length !== size * SLOTS)
    throw new StackRankError('BAD_ARGUMENT', `expected room for ${size * SLOTS} values; got ${target.length}`);
  const out = target ?? new Uint16Array(size * SLOTS);
  await pieceMaxRowChunks(
    table,
    await rankPlan(table, signal),
    (first, rows) => out.set(rows, first * SLOTS),
    signal,
    onFraction,
  );
  return out;
}

/**
 * The rows folded by mirror symmetry (docs/file-formats.md, "Mirror folding"), half the memory: each mirror
 * pair's representative keeps its row at its folded slot of `target` (8 u16 per folded slot, foldedSize slots;
 * slots no surface maps to are left as they are); the other surface's row is the representative's with pieces
 * mirrored (MIRROR_SLOT in src/kernels/search-format.ts), as unfoldRows rebuilds it. Only for a mirror-symmetric table,
 * whose rows are symmetric that way (its values are, and so are the moves of the rank iteration). The full rows
 * never exist: each chunk from the kernel is folded as it comes.
 */
export async function computeFoldedPieceMax(
  table: RankTable,
  target: Uint16Array,
  signal?: AbortSignal,
  onFraction?: (done: number) => void,
): Promise<void> {
  if (!variantMirrored(table.variant))
    throw new StackRankError('BAD_ARGUMENT', `a ${table.variant} table is not mirror-symmetric: its rows do not fold`);
  const shape = foldShape(table.width, table.maxStep);
  if (target.length !== shape.foldedSize * SLOTS)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `expected room for ${shape.foldedSize * SLOTS} values; got ${target.length}`,
    );
  const flip = flipTable(shape);
  await pieceMaxRowChunks(
    table,
    await rankPlan(table, signal),
    (first, rows) => foldRowRange(rows, first, shape, SLOTS, target, flip),
    signal,
    onFraction,
  );
}

/** The article's moves on the table's surfaces, as the rank kernel's plan (made in slices: abortable). */
function rankPlan(table: RankTable, signal: AbortSignal | undefined): Promise<RankPlanArrays> {
  return runInSlices(rankPlanSteps(rankMoves(table.width, table.maxStep), table.width, table.maxStep), {
    signal,
    abortMessage: "the search's setup was aborted",
  });
}
