/**
 * Mirror folding (docs/file-formats.md, "Mirror folding"): r(mirror(s)) = r(s), so a table file stores each mirror pair once.
 *
 * Split the W-1 digits into a leading half A, an optional middle digit c and a trailing half Z (h digits each).
 * With f(Z) = Z's digits reversed and complemented (d -> B-1-d), mirroring maps (A, c, f(Z)) to (f(Z), B-1-c, A):
 * it swaps a = A and b = f(Z) and complements c. A surface is stored at the slot of the representative with a <= b
 * (and c <= B-1-c when a = b): slot = (b(b+1)/2 + a) * C + c, C = B with a middle digit, else 1. The arithmetic
 * is O(h) per lookup, and the file holds M(M+1)/2 * C values for M = B^h, just over half of B^(W-1).
 */
import { StackRankError, sliceClock, yieldToEventLoop } from '../errors.js';

export interface FoldShape {
  base: number;
  half: number;
  middle: number;
  halfSize: number;
  foldedSize: number;
}

export function foldShape(width: number, maxStep: number): FoldShape {
  const base = 2 * maxStep + 1;
  const digits = width - 1;
  const half = Math.floor(digits / 2);
  const middle = digits % 2 === 1 ? base : 1;
  const halfSize = base ** half;
  return { base, half, middle, halfSize, foldedSize: ((halfSize * (halfSize + 1)) / 2) * middle };
}

/** f: the half's digits reversed and complemented. */
function flipHalf(z: number, shape: FoldShape): number {
  let out = 0;
  for (let i = 0; i < shape.half; i++) {
    out = out * shape.base + (shape.base - 1 - (z % shape.base));
    z = Math.floor(z / shape.base);
  }
  return out;
}

/** Storage slot of a full surface index in the folded layout. */
export function foldIndex(index: number, shape: FoldShape): number {
  const z = index % shape.halfSize;
  const rest = Math.floor(index / shape.halfSize);
  const c = rest % shape.middle;
  let a = Math.floor(rest / shape.middle);
  let b = flipHalf(z, shape);
  let m = c;
  if (a > b || (a === b && m > shape.middle - 1 - m)) {
    const t = a;
    a = b;
    b = t;
    m = shape.middle - 1 - m;
  }
  return ((b * (b + 1)) / 2 + a) * shape.middle + m;
}

/** f for every half value (the search kernel's fold block holds it too). */
export function flipTable(shape: FoldShape): Int32Array {
  const t = new Int32Array(shape.halfSize);
  for (let z = 0; z < shape.halfSize; z++) t[z] = flipHalf(z, shape);
  return t;
}

/**
 * Visits every surface in index order with its folded slot; the loops walk (a, c, z) so the per-surface work is a
 * table look-up and a few integer operations.
 */
function forEachSlot(shape: FoldShape, visit: (index: number, slot: number, mirrored: boolean) => void): void {
  const flip = flipTable(shape);
  const { halfSize, middle } = shape;
  let index = 0;
  for (let a = 0; a < halfSize; a++) {
    for (let c = 0; c < middle; c++) {
      const cMirror = middle - 1 - c;
      for (let z = 0; z < halfSize; z++, index++) {
        const b = flip[z];
        const direct = a < b || (a === b && c <= cMirror);
        const slot = direct ? ((b * (b + 1)) / 2 + a) * middle + c : ((a * (a + 1)) / 2 + b) * middle + cMirror;
        visit(index, slot, !direct);
      }
    }
  }
}

/** Folds full per-surface values into the folded layout (slots no surface maps to, the second of a self-mirror pair's middle digits, stay 0). */
export function foldValues<T extends Float32Array | Uint16Array>(full: T, shape: FoldShape, make: (n: number) => T): T {
  const out = make(shape.foldedSize);
  forEachSlot(shape, (s, slot) => (out[slot] = full[s]));
  return out;
}

/** Expands folded values back to one value per surface. */
export function unfoldValues<T extends Float32Array | Uint16Array>(
  folded: T,
  shape: FoldShape,
  size: number,
  make: (n: number) => T,
): T {
  const out = make(size);
  for (const _ of unfoldSteps(folded, shape, out));
  return out;
}

/**
 * unfoldValues into `out` (one value per surface), giving the event loop a turn every 16 ms and stopping with
 * ABORTED once `signal` aborts: the 9x4 table's unfolding takes a quarter of a second, too long for a page's thread
 * or for an abort to wait.
 */
export async function unfoldValuesSliced<T extends Float32Array | Uint16Array>(
  folded: T,
  shape: FoldShape,
  out: T,
  signal?: AbortSignal,
): Promise<void> {
  const due = sliceClock();
  for (const _ of unfoldSteps(folded, shape, out)) {
    if (!due()) continue;
    await yieldToEventLoop();
    if (signal?.aborted) throw new StackRankError('ABORTED', 'the unfolding of the table was aborted');
  }
}

/** The unfolding, in steps of a few milliseconds at 9x4 (a tile of pass 1, 64 rows of pass 2). */
function* unfoldSteps<T extends Float32Array | Uint16Array>(folded: T, shape: FoldShape, out: T): Generator<void> {
  const flip = flipTable(shape);
  const { halfSize: H, middle: m } = shape;
  // Surface (a, c, z) with b = flip(z) reads folded row b at a when it is its own representative (a < b, or a = b
  // and c <= C-1-c), else row a at b. Two passes keep both sides' memory access in cache instead of one scattered
  // read per surface (visiting the surfaces in index order reads the folded rows in a scattered order):
  // 1. representatives, in tiles of consecutive z: the tile's folded rows are read side by side as a advances,
  //    and each output row gets a run of consecutive values;
  // Int32 offsets (a folded 9x4 table has 21.5 M values), so the index arithmetic stays in integers.
  const TILE = 64;
  const zs = new Int32Array(TILE);
  const bs = new Int32Array(TILE);
  const rowOf = new Int32Array(TILE);
  for (let z0 = 0; z0 < H; z0 += TILE) {
    const n = Math.min(H, z0 + TILE) - z0;
    // The tile's z by b = flip(z) descending: the z whose b passes a are then a prefix (no branch per value).
    const order = Array.from({ length: n }, (_, i) => z0 + i).sort((x, y) => flip[y] - flip[x]);
    for (let i = 0; i < n; i++) {
      zs[i] = order[i];
      bs[i] = flip[order[i]];
      rowOf[i] = ((bs[i] * (bs[i] + 1)) / 2) * m;
    }
    let above = n; // z with b > a
    let atLeast = n; // z with b >= a
    for (let a = 0; a < H; a++) {
      while (above > 0 && bs[above - 1] <= a) above--;
      while (atLeast > 0 && bs[atLeast - 1] < a) atLeast--;
      // Past every b of the tile: the rest of its surfaces are mirror images (pass 2).
      if (atLeast === 0) break;
      for (let c = 0; c < m; c++) {
        const base = (a * m + c) * H;
        const at = a * m + c;
        const count = c <= m - 1 - c ? atLeast : above;
        for (let i = 0; i < count; i++) out[base + zs[i]] = folded[rowOf[i] + at];
      }
    }
    yield;
  }
  // 2. mirror images, folded row b read in order: its value for (a, c) is also the value of surface
  //    (b, C-1-c, flip(a)), written into output row b (a few KB, in cache).
  for (let b = 0; b < H; b++) {
    const row = ((b * (b + 1)) / 2) * m;
    for (let c = 0; c < m; c++) {
      const base = (b * m + (m - 1 - c)) * H;
      for (let a = 0; a < b; a++) out[base + flip[a]] = folded[row + a * m + c];
      if (c < m - 1 - c) out[base + flip[b]] = folded[row + b * m + c];
    }
    if (b % 64 === 63) yield;
  }
}

/**
 * Rows of `slots` values per surface (preview tables: slot n = piece n, slot 7 shared): a folded row holds the row
 * of the representative surface; the mirror image's row is the same with the pieces mirrored (slot n read from
 * slot MIRROR_PIECE[n], S<->Z and L<->J; slot 7 unchanged). Folding keeps the representative's row (the rows of a
 * mirror pair must agree under that swap); unfolding applies `mirrorSlot` (slot k of a mirrored surface is read from
 * folded slot mirrorSlot[k]).
 */
export function foldRows(full: Uint16Array, shape: FoldShape, slots: number): Uint16Array {
  const out = new Uint16Array(shape.foldedSize * slots);
  forEachSlot(shape, (s, slot, mirrored) => {
    if (mirrored) return;
    const from = s * slots;
    const to = slot * slots;
    for (let k = 0; k < slots; k++) out[to + k] = full[from + k];
  });
  return out;
}

/** Expands folded rows back to one row per surface, swapping mirrored slots on the mirrored side. */
export function unfoldRows(
  folded: Uint16Array,
  shape: FoldShape,
  size: number,
  slots: number,
  mirrorSlot: readonly number[],
): Uint16Array {
  const out = new Uint16Array(size * slots);
  forEachSlot(shape, (s, slot, mirrored) => {
    const from = slot * slots;
    const to = s * slots;
    if (mirrored) for (let k = 0; k < slots; k++) out[to + k] = folded[from + mirrorSlot[k]];
    else for (let k = 0; k < slots; k++) out[to + k] = folded[from + k];
  });
  return out;
}

/**
 * Folds a run of full rows as they are produced: of the `rows.length / slots` surfaces from index `first` on, each
 * one that is its pair's representative has its row written at its folded slot of `target` (foldedSize rows).
 * Folding chunk by chunk, the full rows never exist at once. `slots` must be even (rows are copied as u32 words).
 */
export function foldRowRange(
  rows: Uint16Array,
  first: number,
  shape: FoldShape,
  slots: number,
  target: Uint16Array,
  flip: Int32Array = flipTable(shape),
): void {
  const count = rows.length / slots;
  const words = slots / 2;
  const from = new Uint32Array(rows.buffer, rows.byteOffset, count * words);
  const to = new Uint32Array(target.buffer, target.byteOffset, target.length / 2);
  const { halfSize: H, middle: m } = shape;
  let z = first % H;
  const rest = Math.floor(first / H);
  let c = rest % m;
  let a = Math.floor(rest / m);
  for (let i = 0; i < count; i++) {
    const b = flip[z];
    if (a < b || (a === b && c <= m - 1 - c)) {
      const at = (((b * (b + 1)) / 2 + a) * m + c) * words;
      for (let k = 0; k < words; k++) to[at + k] = from[i * words + k];
    }
    if (++z === H) {
      z = 0;
      if (++c === m) {
        c = 0;
        a++;
      }
    }
  }
}
