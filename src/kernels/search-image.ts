/**
 * One copy of a table in kernel memory for every search over it in this process. The search kernel reads the
 * table's u16 ranks (86 MB at 9x4) or, for the expectimax strategies, 8 leaf values per surface (688 MB at 9x4;
 * the table's own piece-max rows and a preview table's are kept folded by mirror symmetry, 344 MB); copying
 * them into each engine's own memory cost that much per StackingAI. Instead, a search image (one WebAssembly
 * memory holding the ranks or the leaf rows) is made once per (table, leaf rows, kernel variant) and kept while
 * the table object lives (a WeakMap on the table); each engine instantiates its own kernel instance over that
 * memory and allocates its small per-engine state through the image's owner instance (the stub runtime's bump
 * allocator lives in the instance that made the memory, so only that one may allocate). Worker pools already run
 * over their engine's memory, so they share the same image.
 */
import { variantMirrored } from '../rank/file.js';
import { foldRowRange, foldShape } from '../rank/fold.js';
import { computeFoldedPieceMax, computePieceMax } from '../rank/piece-max.js';
import { PreviewTable } from '../rank/preview.js';
import type { RankTable } from '../rank/table.js';
import { StackRankError } from '../errors.js';
import { SharedWork } from '../setup-once.js';
import type { SetupEvent, SetupReport } from '../setup-progress.js';
import { loadKernel, pickVariant } from './wasm.js';
import { type MirrorPairIndex, mirrorPairIndex } from './search-folded-rows.js';
import { LEAF_ROW_SLOTS } from './search-format.js';

export interface SearchImage {
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  /**
   * The owner instance's allocator: every engine over this image allocates through it. A block freed before (`free`,
   * same size) is handed out again, zeroed; WASM_FAILED when the memory cannot grow.
   */
  alloc(bytes: number): number;
  /** Gives back a block of `bytes` from `alloc` once nothing uses it (an engine released, a simulation's slots). */
  free(ptr: number, bytes: number): void;
  /**
   * Blocks every engine over this image reads and none writes (the placement records, the reach records), made once
   * per key and kept while the image lives.
   */
  constants: Map<string | object, number[]>;
  /** The u16 ranks; 0 for the expectimax strategies (their search reads only the leaf rows) unless an engine asked
   * for them (ImageNeeds.ranks). */
  tablePtr: number;
  /** 0 for the rank strategy (no leaf rows). */
  rowsPtr: number;
  /** The rows' fold block (assembly/search/layout.ts FOLD_*) when they are folded by mirror symmetry, else 0. */
  foldPtr: number;
  /** With folded rows: the index the kernel must read them by (its engines' step lookup and records), else null. */
  mirrorPair: MirrorPairIndex | null;
  /** rank = stored value * scale. */
  scale: number;
}

/** Where the leaf rows come from: none (rank), the table's piece-max rows, or caller-given rows. */
export type LeafRowsSource = null | 'pieceMax' | { readonly rows: Uint16Array };

const images = new WeakMap<RankTable, Map<string, SharedWork<SearchImage, SetupEvent>>>();
const rowIds = new WeakMap<object, number>();
let nextRowId = 1;

function rowsKey(rows: LeafRowsSource): string {
  if (rows === null || rows === 'pieceMax') return String(rows);
  let id = rowIds.get(rows);
  if (id === undefined) rowIds.set(rows, (id = nextRowId++));
  return `rows${id}`;
}

/** How an engine needs its image laid out beyond its table and leaf rows (StackingEngine.create). */
export interface ImageNeeds {
  /** Leaf rows one per surface even where mirror symmetry would fold them (leaves that depend on more than the
   * table: StackingEngine.create's `blockedWell`); rows kept one per surface either way share an image. */
  unfolded?: boolean;
  /** The u16 ranks beside the leaf rows, which the expectimax kernel never reads, for callers that read a surface's
   * rank themselves from the image (playGame's worker threads: src/tetris-ai/game-worker.ts). */
  ranks?: boolean;
}

/**
 * The shared search image for this table and leaf rows (made on first use); `shared`: thread-capable memory;
 * `needs`: ImageNeeds. When `signal` aborts, this caller's promise rejects with ABORTED at once; and when no other
 * caller is waiting for the image any more, its making stops too and it is forgotten, so an aborted setup does not
 * run on for a second (the next caller starts it again; src/setup-once.ts). `report` hears its progress (stage
 * `search`).
 */
export function searchImage(
  table: RankTable,
  rows: LeafRowsSource,
  shared: boolean,
  signal?: AbortSignal,
  needs: ImageNeeds = {},
  report?: SetupReport,
): Promise<SearchImage> {
  const variant = pickVariant(shared);
  const folded = !needs.unfolded && rows !== null && mirrorSymmetric(table, rows);
  // The search reads the ranks only under the rank strategy: the expectimax strategies read every leaf from its
  // row (slot 7 holds what a Tetris leaves), so their image holds the rows alone (86 MB less at 9x4) unless asked.
  const ranks = rows === null || !!needs.ranks;
  const kind = `${variant.shared ? 'shared' : 'local'}-${variant.simd ? 'simd' : 'scalar'}`;
  const key = `${kind}|${rowsKey(rows)}|folded ${folded}|ranks ${ranks}`;
  let byKey = images.get(table);
  if (!byKey) images.set(table, (byKey = new Map()));
  let work = byKey.get(key);
  if (!work) {
    work = new SharedWork<SearchImage, SetupEvent>(
      (stop, events) => makeImage(table, rows, variant, stop, folded, ranks, events),
      "the search's setup was aborted",
    );
    byKey.set(key, work);
  }
  return work.get(signal, report);
}

async function makeImage(
  table: RankTable,
  rows: LeafRowsSource,
  variant: ReturnType<typeof pickVariant>,
  stop: AbortSignal,
  folded: boolean,
  ranks: boolean,
  report: SetupReport,
): Promise<SearchImage> {
  report({ stage: 'search', fraction: 0 });
  const { exports, memory, module } = await loadKernel<{ alloc(bytes: number): number }>('search', variant);
  const { alloc, free } = recyclingAllocator(memory, (bytes) => exports.alloc(bytes));
  const constants = new Map<string | object, number[]>();
  const tablePtr = ranks ? alloc(table.size * 2) : 0;
  const scale = ranks
    ? await table.writeSearchValues(new Uint16Array(memory.buffer, tablePtr, table.size), stop)
    : table.searchScale();
  // The ranks are about a quarter of an image with leaf rows (its rows take the rest).
  report({ stage: 'search', fraction: rows === null ? 1 : 0.25 });
  const rowsDone = (done: number) => report({ stage: 'search', fraction: 0.25 + 0.75 * done });
  if (rows === null)
    return { memory, module, alloc, free, constants, tablePtr, rowsPtr: 0, scale, foldPtr: 0, mirrorPair: null };
  const shape = foldShape(table.width, table.maxStep);
  const mirrorPair = folded ? mirrorPairIndex(shape) : null;
  if (!mirrorPair) {
    const rowsPtr = alignedRows(alloc, table.size);
    const target = new Uint16Array(memory.buffer, rowsPtr, table.size * LEAF_ROW_SLOTS);
    if (rows === 'pieceMax') await computePieceMax(table, target, stop, rowsDone);
    else target.set(rows.rows);
    report({ stage: 'search', fraction: 1 });
    return { memory, module, alloc, free, constants, tablePtr, rowsPtr, scale, foldPtr: 0, mirrorPair: null };
  }
  // Computed straight into the image, so they exist once; the kernel finds a surface's row from its mirror-pair
  // index (src/kernels/search-folded-rows.ts).
  const foldPtr = alloc(mirrorPair.block.byteLength);
  new Int32Array(memory.buffer, foldPtr, mirrorPair.block.length).set(mirrorPair.block);
  const rowsPtr = alignedRows(alloc, shape.foldedSize);
  const target = new Uint16Array(memory.buffer, rowsPtr, shape.foldedSize * LEAF_ROW_SLOTS);
  if (rows === 'pieceMax') await computeFoldedPieceMax(table, target, stop, rowsDone);
  else foldRowRange(rows.rows, 0, shape, LEAF_ROW_SLOTS, target);
  report({ stage: 'search', fraction: 1 });
  return { memory, module, alloc, free, constants, tablePtr, rowsPtr, scale, foldPtr, mirrorPair };
}

/**
 * Whether leaf rows are mirror-symmetric, and so folded (half the size) unless an engine asks otherwise: the
 * piece-max rows of a mirror-symmetric table and a preview table's (symmetric by construction: built from a
 * mirror-symmetric matrix, or unfolded from a folded file; test/rank/variants.test.ts checks the build to the bit).
 * Other caller-given rows and an asymmetric table's keep one row per surface.
 */
function mirrorSymmetric(table: RankTable, rows: Exclude<LeafRowsSource, null>): boolean {
  return rows === 'pieceMax'
    ? variantMirrored(table.variant)
    : rows instanceof PreviewTable && variantMirrored(rows.variant);
}

/** Room for `count` leaf rows; the kernel marks a mirrored row in the low bits of its address, so rows are 16-aligned. */
function alignedRows(alloc: (bytes: number) => number, count: number): number {
  const ptr = alloc(count * LEAF_ROW_SLOTS * 2);
  if (ptr % 16 !== 0) throw new StackRankError('WASM_FAILED', `leaf rows at ${ptr} are not 16-byte aligned`);
  return ptr;
}

/**
 * The image's allocator over the kernel's bump allocator, which never frees: freed blocks wait in a list by size and
 * the next request of that size takes one (engines and simulations ask for the same few sizes), so a process that
 * makes and drops AIs over one table for ever keeps its memory flat. A failed bump (the memory cannot grow) is
 * WASM_FAILED, not the kernel's trap.
 */
export function recyclingAllocator(
  memory: WebAssembly.Memory,
  bump: (bytes: number) => number,
): { alloc(bytes: number): number; free(ptr: number, bytes: number): void } {
  const freed = new Map<number, number[]>();
  return {
    alloc(bytes: number): number {
      const ptr = freed.get(bytes)?.pop();
      if (ptr !== undefined) {
        new Uint8Array(memory.buffer, ptr, bytes).fill(0);
        return ptr;
      }
      try {
        return bump(bytes);
      } catch (e) {
        throw new StackRankError(
          'WASM_FAILED',
          `out of WebAssembly memory: ${bytes} more bytes for a search over this table (${Math.round(memory.buffer.byteLength / 2 ** 20)} MB in use)`,
          { cause: e },
        );
      }
    },
    free(ptr: number, bytes: number): void {
      let list = freed.get(bytes);
      if (!list) freed.set(bytes, (list = []));
      list.push(ptr);
    },
  };
}
