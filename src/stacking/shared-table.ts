/**
 * One copy of a table in kernel memory for every search over it in this process. The search kernel reads the
 * table's u16 ranks (86 MB at 9x4) or, for the expectimax strategies, 8 leaf values per surface (688 MB); copying
 * them into each engine's own memory cost that much per StackingAI. Instead, a search image (one WebAssembly
 * memory holding the ranks or the leaf rows) is made once per (table, leaf rows, kernel variant) and kept while
 * the table object lives (a WeakMap on the table); each engine instantiates its own kernel instance over that
 * memory and allocates its small per-engine state through the image's owner instance (the stub runtime's bump
 * allocator lives in the instance that made the memory, so only that one may allocate). Worker pools already run
 * over their engine's memory, so they share the same image.
 */
import { computePieceMax } from '../rank/piece-max.js';
import type { RankTable } from '../rank/table.js';
import { instantiateKernel, pickVariant } from '../wasm.js';

export interface SearchImage {
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  /** The owner instance's allocator: every engine over this image allocates through it. */
  alloc(bytes: number): number;
  /** The u16 ranks; 0 for the expectimax strategies (their search reads only the leaf rows). */
  tablePtr: number;
  /** 0 for the rank strategy (no leaf rows). */
  rowsPtr: number;
  /** rank = stored value * scale. */
  scale: number;
}

/** Where the leaf rows come from: none (rank), the table's piece-max rows, or caller-given rows. */
export type LeafRowsSource = null | 'pieceMax' | { readonly rows: Uint16Array };

const images = new WeakMap<RankTable, Map<string, Promise<SearchImage>>>();
const rowIds = new WeakMap<object, number>();
let nextRowId = 1;

function rowsKey(rows: LeafRowsSource): string {
  if (rows === null || rows === 'pieceMax') return String(rows);
  let id = rowIds.get(rows);
  if (id === undefined) rowIds.set(rows, (id = nextRowId++));
  return `rows${id}`;
}

/** The shared search image for this table and leaf rows (made on first use); `shared`: thread-capable memory. */
export function searchImage(table: RankTable, rows: LeafRowsSource, shared: boolean): Promise<SearchImage> {
  const variant = pickVariant(shared);
  const key = `${variant.shared ? 'shared' : 'local'}-${variant.simd ? 'simd' : 'scalar'}|${rowsKey(rows)}`;
  let byKey = images.get(table);
  if (!byKey) images.set(table, (byKey = new Map()));
  let image = byKey.get(key);
  if (!image) {
    image = makeImage(table, rows, variant);
    // A failed image is not kept, so the next engine tries again.
    image.catch(() => byKey.delete(key));
    byKey.set(key, image);
  }
  return image;
}

async function makeImage(
  table: RankTable,
  rows: LeafRowsSource,
  variant: ReturnType<typeof pickVariant>,
): Promise<SearchImage> {
  const { exports, memory, module } = await instantiateKernel<{ alloc(bytes: number): number }>('search', variant);
  const alloc = (bytes: number) => exports.alloc(bytes);
  // The search reads the ranks only under the rank strategy: the expectimax strategies read every leaf from its
  // row (slot 7 holds what a Tetris leaves), so their image holds the rows alone (86 MB less at 9x4).
  if (rows === null) {
    const tablePtr = alloc(table.size * 2);
    const scale = table.writeSearchValues(new Uint16Array(memory.buffer, tablePtr, table.size));
    return { memory, module, alloc, tablePtr, rowsPtr: 0, scale };
  }
  const rowsPtr = alloc(table.size * 16);
  const target = new Uint16Array(memory.buffer, rowsPtr, table.size * 8);
  // The piece-max rows are computed straight into the image, so they exist once.
  if (rows === 'pieceMax') await computePieceMax(table, target);
  else target.set(rows.rows);
  return { memory, module, alloc, tablePtr: 0, rowsPtr, scale: table.searchScale() };
}
