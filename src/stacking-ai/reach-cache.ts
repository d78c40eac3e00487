/**
 * Reach records on disk (Node): the records of a rule set (src/stacking-ai/reach.ts) are derived once per machine
 * instead of once per process (the 20G game's take 9-15 s at 9 columns), in the rank tables' cache folder
 * (src/rank/node-io.ts cacheFilePath), written atomically (writeFileAtomic) and checked on every load (docs/file-formats.md,
 * "Reach record files"). A missing, damaged or mismatching file is derived again and replaced, never trusted.
 * In a browser (no file system) the records are derived as before.
 */
import { StackRankError } from '../errors.js';
import { SharedWork } from '../setup-once.js';
import { checksum } from '../rank/file.js';
import { inNode } from '../node-builtins.js';
import type { RuleSet } from '../rules/rule-sets.js';
import { REACH_RECORD_BYTES, newReachRecords, reachRecordCount, reachRecordValid } from '../kernels/search-format.js';
import type { ColumnSlot } from './placements.js';
import type { SetupEvent, SetupReport } from '../setup-progress.js';
import { type ReachTable, knownReach, reachRequest, reachTableSliced, rememberReach } from './reach.js';
import { cacheFilePath, readFileChecked, writeFileAtomic } from '../rank/node-io.js';
import type { RuleSetName } from '../rules/types.js';

/**
 * The file format's version. Bump it when the layout below or the derivation in src/stacking-ai/reach.ts changes
 * what a file holds: files of another version are derived again, not read.
 */
export const REACH_FILE_VERSION = 1;
const MAGIC = 'SRKREACH';
const HEADER_BYTES = 64;
/** Header bytes under the header checksum (the checksum itself sits at HEADER_SUMMED). */
const HEADER_SUMMED = 60;

/** What a file must match to be used: the request it answers. */
export interface ReachFileKey {
  ruleSet: RuleSet;
  width: number;
  maxStep: number;
  boardHeight: number;
  /** Placements of the width (one record each, plus the Tetris's). */
  placementCount: number;
}

const pad8 = (n: number) => Math.ceil(n / 8) * 8;

/** The cache file name: the rule set's name (letters, digits, dashes) and a checksum of all its settings. */
export function reachFileName(key: Omit<ReachFileKey, 'placementCount'>): string {
  const json = new TextEncoder().encode(JSON.stringify(key.ruleSet));
  const padded = new Uint8Array(pad8(json.byteLength));
  padded.set(json);
  const name =
    key.ruleSet.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 40) || 'rules';
  const sum = checksum(padded).toString(16).padStart(8, '0');
  return `reach-${name}-${sum}-w${key.width}-s${key.maxStep}-h${key.boardHeight}-v${REACH_FILE_VERSION}.srr`;
}

/**
 * The file's bytes (layout in docs/file-formats.md, "Reach record files"): a 64-byte header, the rule set as JSON
 * (zero-padded to 8 bytes), the records (i32) and the boxes (u64), little-endian. `table` null: the rule set
 * restricts nothing (no records).
 */
export function encodeReachFile(key: ReachFileKey, table: ReachTable | null): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(key.ruleSet));
  const recordCount = table ? reachRecordCount(table.records) : 0;
  const boxCount = table ? table.boxes.length / 2 : 0;
  const dataBytes = pad8(json.byteLength) + recordCount * REACH_RECORD_BYTES + boxCount * 16;
  const out = new Uint8Array(HEADER_BYTES + dataBytes);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, REACH_FILE_VERSION, true);
  view.setUint32(12, key.width, true);
  view.setUint32(16, key.maxStep, true);
  view.setUint32(20, key.boardHeight, true);
  view.setUint32(24, recordCount, true);
  view.setUint32(28, boxCount, true);
  view.setUint32(32, json.byteLength, true);
  let at = HEADER_BYTES;
  out.set(json, at);
  at += pad8(json.byteLength);
  if (table) {
    for (let i = 0; i < table.records.length; i++, at += 4) view.setInt32(at, table.records[i], true);
    for (let i = 0; i < table.boxes.length; i++, at += 8) view.setBigUint64(at, table.boxes[i], true);
  }
  view.setUint32(36, checksum(out.subarray(HEADER_BYTES)), true);
  view.setUint32(HEADER_SUMMED, checksum(out.subarray(0, HEADER_SUMMED)), true);
  return out;
}

function damaged(code: 'BAD_MAGIC' | 'BAD_HEADER' | 'CHECKSUM' | 'TRUNCATED', why: string): never {
  throw new StackRankError(code, `reach record file: ${why}`);
}

/** The file size a header implies (after checking the header), for a read bounded by it. */
export function reachFileBytes(head: Uint8Array): number {
  if (head.byteLength < HEADER_BYTES) damaged('TRUNCATED', `${head.byteLength} bytes, shorter than the header`);
  if (new TextDecoder().decode(head.subarray(0, 8)) !== MAGIC) damaged('BAD_MAGIC', 'not a reach record file');
  const view = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
  if (view.getUint32(HEADER_SUMMED, true) !== checksum(head.subarray(0, HEADER_SUMMED)))
    damaged('CHECKSUM', 'the header checksum does not match (the header is damaged)');
  const version = view.getUint32(8, true);
  if (version !== REACH_FILE_VERSION)
    damaged('BAD_HEADER', `format version ${version}; this library reads version ${REACH_FILE_VERSION}`);
  for (let b = 40; b < HEADER_SUMMED; b++) if (head[b] !== 0) damaged('BAD_HEADER', 'reserved header bytes are not 0');
  const records = view.getUint32(24, true);
  const boxes = view.getUint32(28, true);
  const json = view.getUint32(32, true);
  if (records > 1 << 16 || boxes > 1 << 24 || json > 1 << 16)
    damaged('BAD_HEADER', `${records} records, ${boxes} boxes, ${json} bytes of rule set`);
  return HEADER_BYTES + pad8(json) + records * REACH_RECORD_BYTES + boxes * 16;
}

/**
 * Reads a reach record file's bytes, checking everything: header, checksums, that it answers `key` (the same rule
 * set, geometry and board height, one record per placement plus the Tetris's), and that every record's columns and
 * boxes lie in range. Throws StackRankError (BAD_MAGIC, BAD_HEADER, CHECKSUM, TRUNCATED, TABLE_MISMATCH).
 */
export function decodeReachFile(bytes: Uint8Array, key: ReachFileKey): ReachTable | null {
  const size = reachFileBytes(bytes);
  if (bytes.byteLength < size) damaged('TRUNCATED', `${bytes.byteLength} bytes; the header implies ${size}`);
  if (bytes.byteLength > size) damaged('BAD_HEADER', `${bytes.byteLength - size} bytes after the data`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(36, true) !== checksum(bytes.subarray(HEADER_BYTES)))
    damaged('CHECKSUM', 'the data checksum does not match (the file is corrupt)');
  const json = view.getUint32(32, true);
  const ruleSet = new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + json));
  const mismatch = (why: string) => {
    throw new StackRankError('TABLE_MISMATCH', `reach record file: ${why}`);
  };
  if (ruleSet !== JSON.stringify(key.ruleSet)) mismatch('it holds the records of another rule set');
  const [width, maxStep, boardHeight] = [12, 16, 20].map((at) => view.getUint32(at, true));
  if (width !== key.width || maxStep !== key.maxStep || boardHeight !== key.boardHeight)
    mismatch(
      `it is for ${width} columns, max step ${maxStep}, board height ${boardHeight}; wanted ${key.width}, ${key.maxStep}, ${key.boardHeight}`,
    );
  const recordCount = view.getUint32(24, true);
  const boxCount = view.getUint32(28, true);
  if (recordCount === 0) {
    if (boxCount !== 0) damaged('BAD_HEADER', 'boxes without records');
    return null;
  }
  if (recordCount !== key.placementCount + 1)
    mismatch(`${recordCount} records for ${key.placementCount} placements and the Tetris`);
  let at = HEADER_BYTES + pad8(json);
  const records = newReachRecords(recordCount);
  for (let i = 0; i < records.length; i++, at += 4) records[i] = view.getInt32(at, true);
  const boxes = new BigUint64Array(boxCount * 2);
  for (let i = 0; i < boxes.length; i++, at += 8) boxes[i] = view.getBigUint64(at, true);
  for (let r = 0; r < recordCount; r++)
    if (!reachRecordValid(records, r, width, boxCount)) damaged('BAD_HEADER', `record ${r} is out of range`);
  return { ruleSet: key.ruleSet, records, boxes };
}

export interface CachedReach {
  table: ReachTable | null;
  /** The cache file; null when the rule set needs no records (nothing is cached) or outside Node. */
  path: string | null;
  /** True when the records came from the file. */
  cached: boolean;
  /** Why a file that was there was not used (damaged, another version or request). */
  rejected?: string;
}

const pending = new Map<string, SharedWork<CachedReach, SetupEvent>>();

/**
 * reachTable, with the records from the disk cache when a valid file is there, else derived (in slices, the event
 * loop run between them) and written for the next process. Once per process and request (later calls get the same
 * records). `env`: XDG_CACHE_HOME / HOME for the cache folder (default: the process's). `signal` ends this caller's
 * wait (ABORTED), and the derivation once no caller waits (src/setup-once.ts); `report` hears its progress and the
 * file it reads or writes.
 */
export function cachedReachTable(
  rules: RuleSetName | RuleSet,
  width: number,
  maxStep: number,
  boardHeight: number,
  placements: readonly ColumnSlot[],
  env?: Record<string, string | undefined>,
  signal?: AbortSignal,
  report?: SetupReport,
): Promise<CachedReach> {
  const request = reachRequest(rules, width, maxStep, boardHeight);
  if (!request) return Promise.resolve({ table: null, path: null, cached: false });
  const known = knownReach(request.key);
  if (known !== undefined) return Promise.resolve({ table: known, path: null, cached: false });
  const pendingKey = `${request.key}:${env?.XDG_CACHE_HOME ?? ''}:${env?.HOME ?? ''}`;
  let work = pending.get(pendingKey);
  if (!work) {
    const key = { ruleSet: request.ruleSet, width, maxStep, boardHeight, placementCount: placements.length };
    const derive = (stop: AbortSignal, events: SetupReport) =>
      reachTableSliced(rules, width, maxStep, boardHeight, placements, {
        signal: stop,
        abortMessage: ABORTED_REACH,
        onFraction: (fraction) => events({ stage: 'reach', fraction }),
      });
    work = new SharedWork<CachedReach, SetupEvent>(async (stop, events) => {
      // In a browser (no file system) the records are derived in each page.
      const r = inNode
        ? await loadOrDeriveReach(key, () => derive(stop, events), env, events)
        : { table: await derive(stop, events), path: null, cached: false };
      rememberReach(request.key, r.table);
      pending.delete(pendingKey);
      return r;
    }, ABORTED_REACH);
    pending.set(pendingKey, work);
  }
  return work.get(signal, report);
}

const ABORTED_REACH = "the reach records' derivation was aborted";

/**
 * The records answering `key` from the cache file when it is there and valid; else `derive()`d and written
 * atomically for the next process (a file that cannot be written is skipped, not an error). `report` hears the
 * file read and the file written, with their sizes.
 */
export async function loadOrDeriveReach(
  key: ReachFileKey,
  derive: () => Promise<ReachTable | null>,
  env?: Record<string, string | undefined>,
  report?: SetupReport,
): Promise<CachedReach> {
  const path = await cacheFilePath(reachFileName(key), env);
  let rejected: string | undefined;
  try {
    const bytes = await readFileChecked(path, reachFileBytes, 'reach record file');
    const table = decodeReachFile(bytes, key);
    report?.({ stage: 'load', fraction: 1, path, bytes: bytes.byteLength });
    return { table, path, cached: true };
  } catch (e) {
    if (!(e instanceof StackRankError)) throw e;
    if (!/no such file/.test(e.message)) rejected = e.message;
  }
  const table = await derive();
  const file = encodeReachFile(key, table);
  try {
    report?.({ stage: 'write', fraction: 0, path, bytes: file.byteLength });
    await writeFileAtomic(path, file);
    report?.({ stage: 'write', fraction: 1, path, bytes: file.byteLength });
  } catch (e) {
    // A cache that cannot be written (read-only home, full disk) costs the next process the derivation, no more.
    if (!(e instanceof StackRankError)) throw e;
    return { table, path: null, cached: false, rejected: rejected ?? e.message };
  }
  return { table, path, cached: false, rejected };
}
