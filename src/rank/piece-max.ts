/**
 * Best-placement values per piece, for expectimax leaves: for every surface s, eight u16 values: slot p
 * (0..6) is the best quantised rank reachable by one rank-legal placement of piece p (0 when there is none), and
 * slot 7 is the rank of s itself. Computed with the rank kernel's product-set loops over the table's own u16
 * values, so the numbers are exactly the table's. 16 bytes per surface (688 MB for 9x4): Node-sized; the search
 * keeps them folded by mirror symmetry (computeFoldedPieceMax, 344 MB for 9x4).
 * The preview table variant (src/rank/preview.ts, PreviewTable.rows) has the same row layout and can stand in for
 * these rows; with the memoryless randomizer and K iterations it equals the rows of the (K-1)-iteration table.
 */
import { StackRankError, sliceClock, yieldToEventLoop } from '../errors.js';
import { instantiateKernel, pickVariant } from '../wasm.js';
import { type RankKernel, writePlan } from './build.js';
import { variantMirrored } from './file.js';
import { flipTable, foldRowRange, foldShape } from './fold.js';
import { rankMoves } from './moves.js';
import { rankPlanSteps } from './plan.js';
import { runInSlices } from '../slices.js';
import type { RankTable } from './table.js';
// The rows are the search kernel's leaf rows (its layout: assembly/search/layout.ts).
import { LEAF_ROW_SLOTS as SLOTS, LEAF_SLOT_AFTER_TETRIS } from '../../assembly/search/layout.js';

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
  await forEachRowChunk(table, (first, rows) => out.set(rows, first * SLOTS), signal, onFraction);
  return out;
}

/**
 * The rows folded by mirror symmetry (docs/file-formats.md, "Mirror folding"), half the memory: each mirror
 * pair's representative keeps its row at its folded slot of `target` (8 u16 per folded slot, foldedSize slots;
 * slots no surface maps to are left as they are); the other surface's row is the representative's with pieces
 * mirrored (MIRROR_SLOT in src/rank/preview.ts), as unfoldRows rebuilds it. Only for a mirror-symmetric table,
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
  await forEachRowChunk(
    table,
    (first, rows) => foldRowRange(rows, first, shape, SLOTS, target, flip),
    signal,
    onFraction,
  );
}

/**
 * Computes the rows chunk by chunk with the rank kernel and hands each chunk (its first surface, its rows: a view
 * of kernel memory, valid during the call) to `take`, so the kernel's memory holds only a slice of the
 * 16-byte-per-surface result. Stops with ABORTED at the next chunk once `signal` aborts; `onFraction` hears the
 * share of surfaces done whenever the event loop gets a turn.
 */
async function forEachRowChunk(
  table: RankTable,
  take: (first: number, rows: Uint16Array) => void,
  signal: AbortSignal | undefined,
  onFraction?: (done: number) => void,
): Promise<void> {
  const size = table.size;
  const plan = await runInSlices(rankPlanSteps(rankMoves(table.width, table.maxStep), table.width, table.maxStep), {
    signal,
    abortMessage: "the search's setup was aborted",
  });
  const { exports: kernel, memory } = await instantiateKernel<RankKernel>('rank', pickVariant(false));
  const planPtr = writePlan(kernel, memory, plan);
  // The table's values straight into kernel memory (16 bytes of slack: the kernel's last 8-lane step may pass the end).
  const prev = kernel.alloc(size * 2 + 16);
  await table.writeSearchValues(new Uint16Array(memory.buffer, prev, size), signal);
  const scratch = kernel.alloc(plan.lo * 2 + 16);
  // 2 MB of rows (131,072 surfaces) per chunk: kernel, slot 7 and `take` together take a few milliseconds, so a
  // chunk fits in a slice (16 MB chunks kept the event loop 110-140 ms under load: bench/notes/setup-lag.md).
  const blocksPerChunk = Math.max(1, Math.floor((2 << 20) / (plan.lo * SLOTS * 2)));
  const chunk = kernel.alloc(blocksPerChunk * plan.lo * SLOTS * 2);
  const values = new Uint16Array(memory.buffer, prev, size);
  // About a second of work in all (an AI's first engine): the event loop gets a turn between chunks, so a caller's
  // abort (TetrisAI.create's signal) or timer is not held up by it.
  const due = sliceClock();
  for (let hi = 0; hi < plan.hi; hi += blocksPerChunk) {
    if (due()) {
      onFraction?.(hi / plan.hi);
      await yieldToEventLoop();
    }
    if (signal?.aborted) throw new StackRankError('ABORTED', "the search's setup was aborted");
    const end = Math.min(plan.hi, hi + blocksPerChunk);
    // The kernel writes surface s at out + s * 16; shift the base so block `hi` lands at the chunk's start.
    const shifted = (chunk - hi * plan.lo * SLOTS * 2) >>> 0;
    kernel.pieceMaxBlocksU16(planPtr, prev, shifted, hi, end, scratch);
    const first = hi * plan.lo;
    const rows = new Uint16Array(memory.buffer, chunk, (end - hi) * plan.lo * SLOTS);
    for (let s = 0; s < rows.length / SLOTS; s++) rows[s * SLOTS + LEAF_SLOT_AFTER_TETRIS] = values[first + s];
    take(first, rows);
  }
}
