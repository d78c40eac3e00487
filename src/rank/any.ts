/** Loading a table file of any variant: one value per surface (RankTable) or eight (PreviewTable). */
import { StackRankError } from '../errors.js';
import { MAGIC, bytesFrom, isBytes, tableFileBytes } from './file.js';
import { PreviewTable } from './preview.js';
import { RankTable } from './table.js';
import { readFileChecked } from './node-io.js';

/** Parses table-file bytes of any variant (article, weighted: RankTable; preview: PreviewTable), verifying everything. */
export function tableFromBytes(bytes: Uint8Array): RankTable | PreviewTable {
  // Dispatch on the header's values-per-surface byte (version 2 only); the full checks run in fromBytes.
  const isPreview =
    isBytes(bytes) &&
    bytes.byteLength >= 64 &&
    MAGIC.every((b, i) => bytes[i] === b) &&
    bytes[8] === 2 &&
    bytes[9] === 0 &&
    bytes[48] === 8;
  return isPreview ? PreviewTable.fromBytes(bytes) : RankTable.fromBytes(bytes);
}

/** Loads a table of any variant from a file path (Node) or from the bytes of a table file. */
export async function loadAnyTable(source: string | Uint8Array | ArrayBuffer): Promise<RankTable | PreviewTable> {
  if (typeof source === 'string') {
    return tableFromBytes(await readFileChecked(source, tableFileBytes));
  }
  const bytes = bytesFrom(source, 'loadAnyTable');
  if (bytes) return tableFromBytes(bytes);
  throw new StackRankError('BAD_ARGUMENT', 'loadAnyTable takes a file path, a Uint8Array or an ArrayBuffer');
}
