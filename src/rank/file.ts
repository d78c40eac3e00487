/**
 * Rank table file format, versions 1 and 2 (docs/file-formats.md). Little-endian throughout.
 *
 * Version 1 (written for tables without variant parameters, i.e. the article's table):
 *   0  u8[8]  magic 89 53 52 4B 0D 0A 1A 0A ("\x89SRK\r\n\x1a\n": catches text-mode and truncating transfers)
 *   8  u16    format version (1)
 *  10  u8     width W (4..9)
 *  11  u8     max step S (1..4)
 *  12  u16    iterations
 *  14  u8     value encoding: 1 = u16 scaled (value = q * scale), 2 = f32
 *  15  u8     folding: 0 = one row per surface, 1 = mirror-folded (src/rank/fold.ts)
 *  16  f64    scale (u16 encoding; 1 for f32)
 *  24  u32    number of stored values
 *  28  u32    data checksum: FNV-1a over the data's 32-bit words (a short tail word is zero-padded)
 *  32  u8[16] variant name, ASCII, NUL-padded ("article": the stacking article's iteration)
 *  48  u32    header checksum: FNV-1a over bytes 0..47
 *  52  u8[12] reserved, zero
 *  64  data   the values, then nothing
 *
 * Version 2 (variants with parameters): bytes 0..47 as in version 1 (version = 2), then
 *  48  u8     values per surface (slots): 1, or 8 for the preview variant
 *  49  u8[3]  reserved, zero
 *  52  u32    parameter block length P in bytes (a multiple of 8; 0 = none)
 *  56  u32    parameter block checksum: FNV-1a over its P bytes
 *  60  u32    header checksum: FNV-1a over bytes 0..59
 *  64  u8[P]  parameter block (layout below)
 *  64+P data  the values (rows of `slots` values), then nothing
 *
 * Parameter block (variants preview and weighted):
 *   0  u8[16] randomizer name, ASCII, NUL-padded ("custom" when the matrix or weights were given directly)
 *  16  u32    pieces dealt to estimate the model (0 = exact)
 *  20  u32    seed of that run
 *  24  f64    the randomizer's parameter (decay: its denominator; 0 for families without one)
 *  32  u16    K, the number of f64 model values (preview: 49, weighted: 7)
 *  34  u8[6]  reserved, zero
 *  40  f64[K] preview: the transition matrix P(p | n) row-major at 8 * (7 n + p); weighted: the piece weights
 */
import { StackRankError, describe } from '../errors.js';
import { MIRROR_PIECE } from '../pieces.js';
import { MAX_MAX_STEP, MAX_WIDTH, MIN_MAX_STEP, MIN_WIDTH, surfaceCount } from '../surface.js';
import { MAX_ITERATIONS } from './build.js';
import { foldShape } from './fold.js';
import type { TableSteep } from './moves.js';
import type { TableGravity } from './build.js';

export const MAGIC = Uint8Array.of(0x89, 0x53, 0x52, 0x4b, 0x0d, 0x0a, 0x1a, 0x0a);
/** The newest format version this stackrank writes (it also reads version 1). */
export const FORMAT_VERSION = 2;
export const HEADER_BYTES = 64;
/** Parameter block: fixed part before the model values. */
export const PARAMS_FIXED_BYTES = 40;

export type ValueEncoding = 'u16' | 'f32';
/** Value encodings a table file can hold; the first is the default. */
export const VALUE_ENCODINGS: readonly ValueEncoding[] = ['u16', 'f32'];
const ENCODING_CODE: Record<ValueEncoding, number> = { u16: 1, f32: 2 };
const BYTES_PER_VALUE: Record<ValueEncoding, number> = { u16: 2, f32: 4 };

/**
 * Variants this stackrank knows, with the shape of their files and what their iteration does with a placement that
 * would leave a step steeper than ±S (src/rank/moves.ts TableSteep).
 */
export const VARIANTS = {
  /** The seed article's iteration: one value per surface, no parameters. */
  article: { slots: 1, modelValues: 0, steep: 'forbid' },
  /** The article's iteration with such placements legal and the step collapsed to ±S (game rule steep 'collapse'). */
  collapse: { slots: 1, modelValues: 0, steep: 'collapse' },
  /** The article's iteration with per-piece weights (a randomizer's piece frequencies): one value per surface. */
  weighted: { slots: 1, modelValues: 7, steep: 'forbid' },
  /** State (surface, piece in hand) under a piece-transition matrix: 8 values per surface. */
  preview: { slots: 8, modelValues: 49, steep: 'forbid' },
  /** The preview iteration with collapsing placements, as `collapse` is the article's. */
  'preview-collapse': { slots: 8, modelValues: 49, steep: 'collapse' },
  /** The article's iteration over the placements reachable at 20G from TGM's spawn (src/rank/moves-20g.ts). */
  '20g': { slots: 1, modelValues: 0, steep: 'forbid', asymmetric: true },
} as const;
export type VariantName = keyof typeof VARIANTS;

/** The variant a rank (one value) or preview (eight values) build gets for its steep rule. */
export const STEEP_VARIANT = {
  rank: { forbid: 'article', collapse: 'collapse' },
  preview: { forbid: 'preview', collapse: 'preview-collapse' },
} as const satisfies Record<'rank' | 'preview', Record<TableSteep, VariantName>>;

/** What a variant's iteration does with steep placements ('forbid' for names this stackrank does not know). */
export function variantSteep(variant: string): TableSteep {
  return (VARIANTS as Record<string, { steep: TableSteep }>)[variant]?.steep ?? 'forbid';
}

/** The variant of a one-value rank table built with these steep and gravity rules. */
export function rankVariant(steep: TableSteep, gravity: TableGravity): VariantName {
  return gravity === '20G' ? '20g' : STEEP_VARIANT.rank[steep];
}

/**
 * Whether a variant's values are mirror-symmetric, so its file may store each mirror pair once. The 20G table is
 * not: the piece appears left of the centre of the 10-column board and the well is on the right.
 */
export function variantMirrored(variant: string): boolean {
  return !(VARIANTS as Record<string, { asymmetric?: boolean }>)[variant]?.asymmetric;
}

/** A variant named in a sentence: "an article table", "a collapse table". */
export function variantTable(variant: string): string {
  return `${/^[aeiou]/i.test(variant) ? 'an' : 'a'} ${variant} table`;
}

/** Where a variant's piece model came from, and the model itself (see docs/file-formats.md). */
export interface VariantParams {
  /** A randomizer name (src/randomizers), or "custom" for a matrix / weights given directly. */
  randomizer: string;
  /** Pieces dealt to estimate the model; 0 when it is exact. */
  samples: number;
  /** Seed of the estimation run. */
  seed: number;
  /** The randomizer's parameter (decay's denominator), 0 when it has none. */
  parameter: number;
  /** preview: P(p | n) at [7 n + p] (49 values); weighted: 7 piece weights. */
  model: Float64Array;
}

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
  /** Values per surface: 1 (version 1 files always), 8 for preview tables. */
  slots: number;
  /** The variant's parameters (version 2 files with a parameter block), else null. */
  params: VariantParams | null;
}

export type HeaderInput = Omit<TableHeader, 'version' | 'checksum' | 'count' | 'slots' | 'params'> & {
  slots?: number;
  params?: VariantParams | null;
  /** Force a format version; default: 1 when the table has one slot and no parameters, else 2. */
  version?: 1 | 2;
};

/** FNV-1a over 32-bit little-endian words (fast in JS; detects corruption, not tampering). */
export function checksum(bytes: Uint8Array): number {
  const words = bytes.byteLength >>> 2;
  let h = 0x811c9dc5;
  if (words > 0) {
    const view =
      bytes.byteOffset % 4 === 0
        ? new Uint32Array(bytes.buffer, bytes.byteOffset, words)
        : new Uint32Array(bytes.slice(0, words * 4).buffer);
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

/** Stored values of a table: rows (folded or not) times values per row. */
export function expectedCount(width: number, maxStep: number, folded: boolean, slots = 1): number {
  return (folded ? foldShape(width, maxStep).foldedSize : surfaceCount(width, maxStep)) * slots;
}

function checkName(what: string, name: string): Uint8Array {
  const bytes = new TextEncoder().encode(name);
  if (bytes.length > 16 || /[^\x20-\x7e]/.test(name)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what} must be printable ASCII of at most 16 characters; got ${JSON.stringify(name)}`,
    );
  }
  return bytes;
}

function readName(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  // A copy (slice), not a view: browsers' TextDecoder refuses a view of a SharedArrayBuffer, which a table's bytes
  // may be in a cross-origin isolated page.
  return new TextDecoder().decode(bytes.slice(0, nul < 0 ? bytes.length : nul));
}

export function encodeParams(p: VariantParams): Uint8Array {
  const size = PARAMS_FIXED_BYTES + 8 * p.model.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(checkName('randomizer name', p.randomizer), 0);
  view.setUint32(16, p.samples, true);
  view.setUint32(20, p.seed >>> 0, true);
  view.setFloat64(24, p.parameter, true);
  view.setUint16(32, p.model.length, true);
  p.model.forEach((v, i) => {
    view.setFloat64(PARAMS_FIXED_BYTES + 8 * i, v, true);
  });
  return out;
}

/**
 * The table file as two parts, header (with the parameter block) and the data bytes as a view of `data` (not a
 * copy): a writer can send them one after the other without holding a second copy of a large table.
 */
export function encodeTableParts(
  header: HeaderInput,
  data: Uint16Array | Float32Array,
): [head: Uint8Array, data: Uint8Array] {
  const slots = header.slots ?? 1;
  const params = header.params ?? null;
  const version = header.version ?? (slots === 1 && !params ? 1 : 2);
  if (version === 1 && (slots !== 1 || params)) {
    throw new StackRankError('BAD_ARGUMENT', 'format version 1 holds one value per surface and no variant parameters');
  }
  const variant = checkName('variant name', header.variant);
  const paramBytes = params ? encodeParams(params) : new Uint8Array(0);
  const dataBytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const start = HEADER_BYTES + paramBytes.byteLength;
  const out = new Uint8Array(start);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint16(8, version, true);
  view.setUint8(10, header.width);
  view.setUint8(11, header.maxStep);
  view.setUint16(12, header.iterations, true);
  view.setUint8(14, ENCODING_CODE[header.encoding]);
  view.setUint8(15, header.folded ? 1 : 0);
  view.setFloat64(16, header.scale, true);
  view.setUint32(24, data.length, true);
  view.setUint32(28, checksum(dataBytes), true);
  out.set(variant, 32);
  if (version === 1) {
    view.setUint32(48, checksum(out.subarray(0, 48)), true);
  } else {
    view.setUint8(48, slots);
    view.setUint32(52, paramBytes.byteLength, true);
    view.setUint32(56, checksum(paramBytes), true);
    view.setUint32(60, checksum(out.subarray(0, 60)), true);
    out.set(paramBytes, HEADER_BYTES);
  }
  return [out, dataBytes];
}

export function encodeTable(header: HeaderInput, data: Uint16Array | Float32Array): Uint8Array {
  const [head, dataBytes] = encodeTableParts(header, data);
  const out = new Uint8Array(head.byteLength + dataBytes.byteLength);
  out.set(head, 0);
  out.set(dataBytes, head.byteLength);
  return out;
}

function bad(code: ConstructorParameters<typeof StackRankError>[0], what: string): never {
  throw new StackRankError(code, `not a usable rank table: ${what}`);
}

/** Parses a parameter block; throws BAD_HEADER on anything malformed. */
function decodeParams(bytes: Uint8Array): VariantParams {
  if (bytes.byteLength < PARAMS_FIXED_BYTES)
    bad('BAD_HEADER', `its parameter block is ${bytes.byteLength} bytes, shorter than ${PARAMS_FIXED_BYTES}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const randomizer = readName(bytes.subarray(0, 16));
  if (!/^[\x20-\x7e]+$/.test(randomizer))
    bad('BAD_HEADER', `its randomizer name ${JSON.stringify(randomizer)} is not printable ASCII`);
  const k = view.getUint16(32, true);
  if (bytes.byteLength !== PARAMS_FIXED_BYTES + 8 * k)
    bad(
      'BAD_HEADER',
      `its parameter block holds ${bytes.byteLength} bytes; ${k} model values need ${PARAMS_FIXED_BYTES + 8 * k}`,
    );
  const model = new Float64Array(k);
  for (let i = 0; i < k; i++) model[i] = view.getFloat64(PARAMS_FIXED_BYTES + 8 * i, true);
  return {
    randomizer,
    samples: view.getUint32(16, true),
    seed: view.getUint32(20, true),
    parameter: view.getFloat64(24, true),
    model,
  };
}

/** Tolerance of the model checks (rows / weights sum to 1). */
const SUM_TOLERANCE = 1e-9;

/**
 * Checks a preview transition matrix (49 values) or a weighted variant's weights (7 values): every value in [0, 1],
 * each row (or the weights) summing to 1, and mirror symmetry (P(mirror p | mirror n) = P(p | n), the S/Z and L/J
 * weights equal) exactly. Returns a reason, or null when the model is usable.
 */
/**
 * Why a variant's parameters could not be read back from a file (null when they can): the loader refuses such a
 * file, and RankTable.fromValues refuses to make one.
 */
export function paramsProblem(p: VariantParams): string | null {
  if (!(Number.isFinite(p.parameter) && p.parameter >= 0))
    return `the randomizer parameter ${p.parameter} is not a finite number >= 0`;
  return modelProblem(p.model);
}

export function modelProblem(model: Float64Array): string | null {
  if (model.length !== 49 && model.length !== 7) return `${model.length} model values (expected 49 or 7)`;
  for (const v of model) if (!(v >= 0 && v <= 1)) return `model value ${v} is outside [0, 1]`;
  const rows = model.length === 49 ? 7 : 1;
  const cols = 7;
  for (let n = 0; n < rows; n++) {
    let sum = 0;
    for (let p = 0; p < cols; p++) sum += model[n * cols + p];
    if (Math.abs(sum - 1) > SUM_TOLERANCE)
      return `${rows === 7 ? `row ${n} of the transition matrix` : 'the piece weights'} sum${rows === 7 ? 's' : ''} to ${sum}, not 1`;
  }
  for (let n = 0; n < rows; n++) {
    const mn = rows === 7 ? MIRROR_PIECE[n] : 0;
    for (let p = 0; p < cols; p++) {
      if (model[n * cols + p] !== model[mn * cols + MIRROR_PIECE[p]])
        return 'the model is not mirror-symmetric (S/Z, L/J)';
    }
  }
  return null;
}

/** Largest parameter block a known variant carries (the preview's: 40 bytes + 49 model values). */
export const MAX_PARAMS_BYTES = PARAMS_FIXED_BYTES + 8 * 49;
/** u16 values are q * scale with the largest rank (at most 1) stored as 65535; an all-zero table has scale 1. */
const MAX_U16_SCALE = (1 + 1e-6) / 65535;
/** Ranks are averages of ranks starting from 1, so never above 1 (plus f32 rounding). */
const MAX_RANK = 1 + 1e-6;

/** What the first 64 bytes of a table file say, checked; `fileBytes` is the size the whole file must have. */
interface FixedHeader extends Omit<TableHeader, 'params'> {
  paramLength: number;
  paramChecksum: number;
  fileBytes: number;
}

/**
 * Whether `value` is a Uint8Array, by its bytes (ArrayBuffer.isView), not only its prototype: a Proxy (one whose
 * getPrototypeOf trap throws, a revoked one, or one around a Uint8Array, which has no bytes of its own) is not one,
 * and asking never runs a trap.
 */
export function isBytes(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && value instanceof Uint8Array;
}

/** ArrayBuffer's byteLength getter: a brand check (it throws for anything but an ArrayBuffer, a Proxy included). */
const BUFFER_LENGTH = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')?.get;

/**
 * The bytes a loader was given: a Uint8Array as it is, an ArrayBuffer viewed whole; null for anything else (a Proxy
 * too, without running its traps). A detached ArrayBuffer is BAD_ARGUMENT naming `what`.
 */
export function bytesFrom(source: unknown, what: string): Uint8Array | null {
  if (isBytes(source)) return source;
  if (source === null || typeof source !== 'object' || !BUFFER_LENGTH) return null;
  try {
    BUFFER_LENGTH.call(source);
  } catch {
    return null;
  }
  try {
    return new Uint8Array(source as ArrayBuffer);
  } catch (e) {
    throw new StackRankError('BAD_ARGUMENT', `${what}: the ArrayBuffer cannot be read (detached?)`, { cause: e });
  }
}

/**
 * Checks everything the 64-byte header holds (magic, version, header checksum, every field, the reserved bytes,
 * the variant and its shape) without looking further. The loaders call it on the first bytes of a file, so a
 * wrong or endless file (a device, a huge file of another kind) is refused before more than 64 bytes are read.
 */
export function decodeFixedHeader(bytes: Uint8Array): FixedHeader {
  if (!isBytes(bytes)) bad('BAD_ARGUMENT', `expected the bytes of a table file (Uint8Array); got ${describe(bytes)}`);
  if (bytes.byteLength < HEADER_BYTES) {
    if (bytes.byteLength >= 8 && MAGIC.every((b, i) => bytes[i] === b))
      bad('TRUNCATED', `the file is ${bytes.byteLength} bytes, shorter than its ${HEADER_BYTES}-byte header`);
    bad('BAD_MAGIC', `the file is ${bytes.byteLength} bytes and does not start with the stackrank table signature`);
  }
  if (!MAGIC.every((b, i) => bytes[i] === b))
    bad('BAD_MAGIC', 'it does not start with the stackrank table signature (wrong file, or transferred in text mode)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const version = view.getUint16(8, true);
  if (version !== 1 && version !== 2) {
    bad(
      'BAD_VERSION',
      `format version ${version}; this stackrank reads versions 1 and 2 (rebuild the table with this version)`,
    );
  }
  const headerSummed = version === 1 ? 48 : 60;
  if (view.getUint32(headerSummed, true) !== checksum(bytes.subarray(0, headerSummed)))
    bad('CHECKSUM', 'the header checksum does not match (the header is damaged)');
  const width = view.getUint8(10);
  const maxStep = view.getUint8(11);
  const iterations = view.getUint16(12, true);
  const encCode = view.getUint8(14);
  const foldCode = view.getUint8(15);
  const encoding = (Object.keys(ENCODING_CODE) as ValueEncoding[]).find((k) => ENCODING_CODE[k] === encCode);
  if (width < MIN_WIDTH || width > MAX_WIDTH) bad('BAD_HEADER', `width ${width} is outside ${MIN_WIDTH}..${MAX_WIDTH}`);
  if (maxStep < MIN_MAX_STEP || maxStep > MAX_MAX_STEP)
    bad('BAD_HEADER', `max step ${maxStep} is outside ${MIN_MAX_STEP}..${MAX_MAX_STEP}`);
  if (!encoding) bad('BAD_HEADER', `unknown value encoding ${encCode}`);
  if (foldCode > 1) bad('BAD_HEADER', `unknown folding ${foldCode}`);
  if (iterations < 1 || iterations > MAX_ITERATIONS)
    bad('BAD_HEADER', `iterations ${iterations} is outside 1..${MAX_ITERATIONS}`);
  const scale = view.getFloat64(16, true);
  if (encoding === 'f32' && scale !== 1) bad('BAD_HEADER', `scale ${scale}: f32 tables have scale 1`);
  if (encoding === 'u16' && !((scale > 0 && scale <= MAX_U16_SCALE) || scale === 1)) {
    bad(
      'BAD_HEADER',
      `scale ${scale} is not a u16 rank scale (a positive number up to 1/65535, or 1 for an all-zero table)`,
    );
  }
  const nameBytes = bytes.subarray(32, 48);
  const variant = readName(nameBytes);
  const nul = nameBytes.indexOf(0);
  if (nul >= 0 && nameBytes.subarray(nul).some((b) => b !== 0)) bad('BAD_HEADER', 'the variant name is not NUL-padded');
  const known = (VARIANTS as Record<string, { slots: number; modelValues: number }>)[variant];
  if (!known)
    bad('BAD_HEADER', `unknown variant ${describe(variant)}; variants are ${Object.keys(VARIANTS).join(', ')}`);

  let slots = 1;
  let paramLength = 0;
  let paramChecksum = 0;
  if (version === 1) {
    if (bytes.subarray(52, HEADER_BYTES).some((b) => b !== 0))
      bad('BAD_HEADER', 'reserved header bytes 52..63 are not zero');
    if (known.slots !== 1 || known.modelValues !== 0)
      bad(
        'BAD_HEADER',
        `a ${variant} table needs format version 2 (it carries parameters or several values per surface)`,
      );
  } else {
    slots = view.getUint8(48);
    if (slots !== 1 && slots !== 8) bad('BAD_HEADER', `${slots} values per surface (1 or 8 are allowed)`);
    if (view.getUint8(49) | view.getUint8(50) | view.getUint8(51))
      bad('BAD_HEADER', 'reserved header bytes 49..51 are not zero');
    paramLength = view.getUint32(52, true);
    if (paramLength % 8 !== 0) bad('BAD_HEADER', `its parameter block length ${paramLength} is not a multiple of 8`);
    if (paramLength > MAX_PARAMS_BYTES)
      bad(
        'BAD_HEADER',
        `its parameter block length ${paramLength} is above the ${MAX_PARAMS_BYTES} bytes any variant uses`,
      );
    paramChecksum = view.getUint32(56, true);
    if (slots !== known.slots)
      bad('BAD_HEADER', `a ${variant} table has ${known.slots} value(s) per surface; the header says ${slots}`);
    const expectedParams = known.modelValues ? PARAMS_FIXED_BYTES + 8 * known.modelValues : 0;
    if (paramLength !== expectedParams)
      bad(
        'BAD_HEADER',
        `a ${variant} table carries a ${expectedParams}-byte parameter block; the header says ${paramLength}`,
      );
    if (slots === 8 && encoding !== 'u16') bad('BAD_HEADER', 'tables with 8 values per surface are u16-encoded');
  }
  const folded = foldCode === 1;
  const count = view.getUint32(24, true);
  const expected = expectedCount(width, maxStep, folded, slots);
  if (count !== expected) {
    bad(
      'BAD_HEADER',
      `it claims ${count} values; a ${folded ? 'folded ' : ''}${width}x${maxStep} table${slots > 1 ? ` with ${slots} values per surface` : ''} has ${expected}`,
    );
  }
  return {
    version,
    width,
    maxStep,
    iterations,
    encoding,
    folded,
    scale,
    count,
    checksum: view.getUint32(28, true),
    variant,
    slots,
    paramLength,
    paramChecksum,
    fileBytes: HEADER_BYTES + paramLength + count * BYTES_PER_VALUE[encoding],
  };
}

/** The size a table file must have, from its first 64 bytes (throws the header's typed error). */
export function tableFileBytes(head: Uint8Array): number {
  return decodeFixedHeader(head).fileBytes;
}

/** Parses and verifies a table file; returns its header and a view of its data (aligned copy when needed). */
export function decodeTable(bytes: Uint8Array): { header: TableHeader; data: Uint16Array | Float32Array } {
  const h = decodeFixedHeader(bytes);
  const { version, width, maxStep, iterations, encoding, folded, scale, count, variant, slots, paramLength } = h;
  let params: VariantParams | null = null;
  const start = HEADER_BYTES + paramLength;
  if (bytes.byteLength < start) bad('TRUNCATED', `it ends inside its ${paramLength}-byte parameter block`);
  if (version === 2) {
    const paramBytes = bytes.subarray(HEADER_BYTES, start);
    if (checksum(paramBytes) !== h.paramChecksum)
      bad('CHECKSUM', 'the parameter block checksum does not match (the variant parameters are damaged)');
    if (paramLength > 0) params = decodeParams(paramBytes);
    const problem = params && paramsProblem(params);
    if (problem) bad('BAD_HEADER', `its ${variant} parameters are invalid: ${problem}`);
  }
  const dataBytes = count * BYTES_PER_VALUE[encoding];
  const have = bytes.byteLength - start;
  if (have < dataBytes)
    bad('TRUNCATED', `it holds ${have} of its ${dataBytes} data bytes (incomplete download or copy?)`);
  if (have > dataBytes)
    bad('BAD_HEADER', `it has ${have - dataBytes} unexpected byte${have - dataBytes === 1 ? '' : 's'} after its data`);
  const raw = bytes.subarray(start);
  if (checksum(raw) !== h.checksum) bad('CHECKSUM', 'the data checksum does not match (the file is corrupt)');
  const aligned = raw.byteOffset % 4 === 0 ? raw : raw.slice();
  const data =
    encoding === 'u16'
      ? new Uint16Array(aligned.buffer, aligned.byteOffset, count)
      : new Float32Array(aligned.buffer, aligned.byteOffset, count);
  if (encoding === 'f32') {
    for (let i = 0; i < count; i++) {
      const v = data[i];
      if (!(v >= 0 && v <= MAX_RANK)) bad('BAD_HEADER', `value ${i} is ${v}; ranks are numbers from 0 to 1`);
    }
  }
  return {
    header: {
      version,
      width,
      maxStep,
      iterations,
      encoding,
      folded,
      scale,
      count,
      checksum: h.checksum,
      variant,
      slots,
      params,
    },
    data,
  };
}
