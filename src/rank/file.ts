/**
 * Rank table file format, version 1 (docs/file-formats.md). Little-endian throughout.
 *
 *   0  u8[8]  magic 89 53 52 4B 0D 0A 1A 0A ("\x89SRK\r\n\x1a\n": catches text-mode and truncating transfers)
 *   8  u16    format version (1)
 *  10  u8     width W (4..9)
 *  11  u8     max step S (1..4)
 *  12  u16    iterations
 *  14  u8     value encoding: 1 = u16 scaled (value = q * scale), 2 = f32
 *  15  u8     folding: 0 = one value per surface, 1 = mirror-folded (src/rank/fold.ts)
 *  16  f64    scale (u16 encoding; 1 for f32)
 *  24  u32    number of stored values
 *  28  u32    data checksum: FNV-1a over the data's 32-bit words (a short tail word is zero-padded)
 *  32  u8[16] variant name, ASCII, NUL-padded ("article": the seed's iteration)
 *  48  u32    header checksum: FNV-1a over bytes 0..47
 *  52  u8[12] reserved, zero
 *  64  data   the values, then nothing
 */
import { StackRankError } from '../errors.js';
import { MAX_MAX_STEP, MAX_WIDTH, MIN_MAX_STEP, MIN_WIDTH, surfaceCount } from '../surface.js';
import { foldShape } from './fold.js';

export const MAGIC = Uint8Array.of(0x89, 0x53, 0x52, 0x4b, 0x0d, 0x0a, 0x1a, 0x0a);
export const FORMAT_VERSION = 1;
export const HEADER_BYTES = 64;

export type ValueEncoding = 'u16' | 'f32';
const ENCODING_CODE: Record<ValueEncoding, number> = { u16: 1, f32: 2 };
const BYTES_PER_VALUE: Record<ValueEncoding, number> = { u16: 2, f32: 4 };

export interface TableHeader {
  version: number;
  width: number;
  maxStep: number;
  iterations: number;
  encoding: ValueEncoding;
  folded: boolean;
  scale: number;
  count: number;
  checksum: number;
  variant: string;
}

/** FNV-1a over 32-bit little-endian words (fast in JS; detects corruption, not tampering). */
export function checksum(bytes: Uint8Array): number {
  const words = bytes.byteLength >>> 2;
  let h = 0x811c9dc5;
  if (words > 0) {
    const view =
      bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, words) : new Uint32Array(bytes.slice(0, words * 4).buffer);
    for (let i = 0; i < words; i++) h = Math.imul(h ^ view[i], 0x01000193);
  }
  const tail = bytes.byteLength & 3;
  if (tail) {
    let w = 0;
    for (let i = 0; i < tail; i++) w |= bytes[words * 4 + i] << (8 * i);
    h = Math.imul(h ^ w, 0x01000193);
  }
  return h >>> 0;
}

export function expectedCount(width: number, maxStep: number, folded: boolean): number {
  return folded ? foldShape(width, maxStep).foldedSize : surfaceCount(width, maxStep);
}

export function encodeTable(header: Omit<TableHeader, 'version' | 'checksum' | 'count'>, data: Uint16Array | Float32Array): Uint8Array {
  const dataBytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(HEADER_BYTES + dataBytes.byteLength);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint16(8, FORMAT_VERSION, true);
  view.setUint8(10, header.width);
  view.setUint8(11, header.maxStep);
  view.setUint16(12, header.iterations, true);
  view.setUint8(14, ENCODING_CODE[header.encoding]);
  view.setUint8(15, header.folded ? 1 : 0);
  view.setFloat64(16, header.scale, true);
  view.setUint32(24, data.length, true);
  view.setUint32(28, checksum(dataBytes), true);
  const variant = new TextEncoder().encode(header.variant);
  if (variant.length > 16 || /[^\x20-\x7e]/.test(header.variant)) {
    throw new StackRankError('BAD_ARGUMENT', `variant name must be printable ASCII of at most 16 characters; got ${JSON.stringify(header.variant)}`);
  }
  out.set(variant, 32);
  view.setUint32(48, checksum(out.subarray(0, 48)), true);
  out.set(dataBytes, HEADER_BYTES);
  return out;
}

function bad(code: ConstructorParameters<typeof StackRankError>[0], what: string): never {
  throw new StackRankError(code, `not a usable rank table: ${what}`);
}

/** Parses and verifies a table file; returns its header and a view of its data (aligned copy when needed). */
export function decodeTable(bytes: Uint8Array): { header: TableHeader; data: Uint16Array | Float32Array } {
  if (!(bytes instanceof Uint8Array)) bad('BAD_ARGUMENT', 'expected the bytes of a table file (Uint8Array)');
  if (bytes.byteLength < HEADER_BYTES) {
    if (bytes.byteLength >= 8 && MAGIC.every((b, i) => bytes[i] === b)) bad('TRUNCATED', `the file is ${bytes.byteLength} bytes, shorter than its ${HEADER_BYTES}-byte header`);
    bad('BAD_MAGIC', `the file is ${bytes.byteLength} bytes and does not start with the stackrank table signature`);
  }
  if (!MAGIC.every((b, i) => bytes[i] === b)) bad('BAD_MAGIC', 'it does not start with the stackrank table signature (wrong file, or transferred in text mode)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(8, true);
  if (version !== FORMAT_VERSION) {
    bad('BAD_VERSION', `format version ${version}; this stackrank reads version ${FORMAT_VERSION} (rebuild the table with this version)`);
  }
  if (view.getUint32(48, true) !== checksum(bytes.subarray(0, 48))) bad('CHECKSUM', 'the header checksum does not match (the header is damaged)');
  const width = view.getUint8(10);
  const maxStep = view.getUint8(11);
  const iterations = view.getUint16(12, true);
  const encCode = view.getUint8(14);
  const foldCode = view.getUint8(15);
  const encoding = (Object.keys(ENCODING_CODE) as ValueEncoding[]).find((k) => ENCODING_CODE[k] === encCode);
  if (width < MIN_WIDTH || width > MAX_WIDTH) bad('BAD_HEADER', `width ${width} is outside ${MIN_WIDTH}..${MAX_WIDTH}`);
  if (maxStep < MIN_MAX_STEP || maxStep > MAX_MAX_STEP) bad('BAD_HEADER', `max step ${maxStep} is outside ${MIN_MAX_STEP}..${MAX_MAX_STEP}`);
  if (!encoding) bad('BAD_HEADER', `unknown value encoding ${encCode}`);
  if (foldCode > 1) bad('BAD_HEADER', `unknown folding ${foldCode}`);
  const scale = view.getFloat64(16, true);
  if (!(scale > 0) || !Number.isFinite(scale)) bad('BAD_HEADER', `scale ${scale} is not a positive number`);
  const folded = foldCode === 1;
  const count = view.getUint32(24, true);
  const expected = expectedCount(width, maxStep, folded);
  if (count !== expected) bad('BAD_HEADER', `it claims ${count} values; a ${folded ? 'folded ' : ''}${width}x${maxStep} table has ${expected}`);
  const dataBytes = count * BYTES_PER_VALUE[encoding];
  const have = bytes.byteLength - HEADER_BYTES;
  if (have < dataBytes) bad('TRUNCATED', `it holds ${have} of its ${dataBytes} data bytes (incomplete download or copy?)`);
  if (have > dataBytes) bad('BAD_HEADER', `it has ${have - dataBytes} unexpected bytes after its data`);
  const raw = bytes.subarray(HEADER_BYTES);
  if (checksum(raw) !== view.getUint32(28, true)) bad('CHECKSUM', 'the data checksum does not match (the file is corrupt)');
  const variantBytes = bytes.subarray(32, 48);
  const nul = variantBytes.indexOf(0);
  const variant = new TextDecoder().decode(variantBytes.subarray(0, nul < 0 ? 16 : nul));
  const aligned = raw.byteOffset % 4 === 0 ? raw : raw.slice();
  const data =
    encoding === 'u16'
      ? new Uint16Array(aligned.buffer, aligned.byteOffset, count)
      : new Float32Array(aligned.buffer, aligned.byteOffset, count);
  return {
    header: { version, width, maxStep, iterations, encoding, folded, scale, count, checksum: view.getUint32(28, true), variant },
    data,
  };
}
