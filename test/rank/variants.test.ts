/**
 * Randomizer-aware table variants: the preview-aware table (state = surface + piece in hand, a randomizer's transition
 * matrix) and the weighted table, their piece models, their files (format version 2) and their CLI.
 */
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MIRROR_PIECE } from '../../src/pieces.js';
import { loadAnyTable } from '../../src/rank/any.js';
import { computePieceMax } from '../../src/rank/piece-max.js';
import { buildRankValues } from '../../src/rank/build.js';
import { loadOrBuildCachedPreviewTable } from '../../src/rank/variant-cache.js';
import { HEADER_BYTES, checksum, decodeTable, encodeTable } from '../../src/rank/file.js';
import {
  PreviewTable,
  buildPreviewRows,
  buildPreviewTable,
  loadPreviewTable,
  type PreviewResult,
} from '../../src/rank/preview.js';
import { RankTable, buildRankTable, loadRankTable } from '../../src/rank/table.js';
import { customModel, symmetrizeModel, transitionModel, weightsModel } from '../../src/rank/transition.js';
import { buildWeightedTable } from '../../src/rank/weighted.js';
import { Rng } from '../../src/random.js';
import { mirrorIndex } from '../../src/surface.js';
import { runCli } from '../helpers/cli.js';
import { referencePreview, referenceRanks, referenceWeighted } from '../reference/rank-reference.js';

const GOLDEN = join(__dirname, '..', 'golden', 'rank-preview-w4-s1-i2.srk.hex');
/** The exact repeat probability P(n | n) of tgm1 (stationary history chain, computed once from the roll rule). */
const TGM1_REPEAT = 0.02442753399671577;

const maxError = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

/** A random 7x7 stochastic matrix, deliberately not mirror-symmetric. */
function randomMatrix(seed: number): number[][] {
  const rng = new Rng(seed);
  return Array.from({ length: 7 }, () => {
    const row = Array.from({ length: 7 }, () => rng.nextFloat() + 0.05);
    const sum = row.reduce((a, b) => a + b, 0);
    return row.map((v) => v / sum);
  });
}

describe('piece models', () => {
  it('memoryless is exactly uniform; tgm1 is estimated close to its exact repeat probability, deterministically', () => {
    const uniform = transitionModel({ randomizer: 'memoryless' });
    expect(Array.from(uniform.model)).toEqual(new Array(49).fill(1 / 7));
    expect(uniform.samples).toBe(0);

    const tgm1 = transitionModel({ randomizer: 'tgm1', samples: 400_000, seed: 3 });
    for (let n = 0; n < 7; n++) expect(tgm1.model[8 * n]).toBeCloseTo(TGM1_REPEAT, 4);
    expect(transitionModel({ randomizer: 'tgm1', samples: 400_000, seed: 3 }).model).toEqual(tgm1.model);
    expect(transitionModel({ randomizer: 'tgm1', samples: 400_000, seed: 4 }).model).not.toEqual(tgm1.model);
  });

  it('symmetrises: P(mirror p | mirror n) = P(p | n) exactly and rows still sum to 1', () => {
    const raw = randomMatrix(11);
    const model = customModel(raw, 'transition').model;
    for (let n = 0; n < 7; n++) {
      expect(model.subarray(7 * n, 7 * n + 7).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      for (let p = 0; p < 7; p++) expect(model[7 * MIRROR_PIECE[n] + MIRROR_PIECE[p]]).toBe(model[7 * n + p]);
    }
    // The average of P and its mirror conjugate, nothing else.
    expect(model[7 * 3 + 5]).toBeCloseTo((raw[3][5] + raw[4][6]) / 2, 12);
    expect(symmetrizeModel([0.125, 0.125, 0.0625, 0.25, 0.125, 0.25, 0.0625])).toEqual(
      Float64Array.from([0.125, 0.125, 0.0625, 0.1875, 0.1875, 0.15625, 0.15625]),
    );
  });

  it('weights: every shipped randomizer deals the pieces equally often in the long run', () => {
    for (const randomizer of ['tgm1', 'bag7'] as const) {
      const w = weightsModel({ randomizer, samples: 200_000 }).model;
      for (const x of w) expect(Math.abs(x - 1 / 7)).toBeLessThan(2e-3);
    }
  });

  it('rejects bad models and randomizers with typed errors', () => {
    expect(() => customModel([[1]], 'transition')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() =>
      customModel(
        randomMatrix(1).map((r) => r.map((v) => v * 2)),
        'transition',
      ),
    ).toThrow(/sum to 1/);
    expect(() => customModel([0.5, 0.5, 0, 0, 0, 0, -0.0001], 'weights')).toThrow(/\[0, 1\]/);
    expect(() => transitionModel({ randomizer: 'tgm9' as never })).toThrow(
      expect.objectContaining({ code: 'BAD_ARGUMENT' }),
    );
    expect(() => transitionModel({ randomizer: 'tgm1', samples: 0 })).toThrow(
      expect.objectContaining({ code: 'BAD_ARGUMENT' }),
    );
  });
});

describe('preview kernel (WebAssembly) against the pure-TS reference', () => {
  const cases: [number, number, number][] = [
    [4, 1, 4],
    [4, 2, 3],
    [5, 1, 4],
    [5, 2, 3],
  ];
  it.each(cases)(
    'W=%i S=%i k=%i: every (surface, piece) within 1e-6, rows quantised from those values',
    async (width, maxStep, iterations) => {
      for (const transition of [randomMatrix(width * 10 + maxStep), undefined]) {
        const got = await buildPreviewRows({
          width,
          maxStep,
          iterations,
          threads: 1,
          raw: true,
          transition,
          randomizer: 'tgm1',
          samples: 50_000,
        });
        const ref = referencePreview(width, maxStep, iterations, got.model.model);
        const size = ref.after.length;
        expect(maxError(got.values!.subarray(0, 7 * size), ref.planes)).toBeLessThan(1e-6);
        expect(maxError(got.values!.subarray(7 * size), ref.after)).toBeLessThan(1e-6);
        expect(Math.max(...ref.planes)).toBeGreaterThan(0.05);
        let worst = 0;
        for (let s = 0; s < size; s++) {
          for (let n = 0; n < 7; n++)
            worst = Math.max(worst, Math.abs(got.rows[8 * s + n] * got.scale - ref.planes[n * size + s]));
          worst = Math.max(worst, Math.abs(got.rows[8 * s + 7] * got.scale - ref.after[s]));
        }
        expect(worst).toBeLessThanOrEqual(got.scale / 2 + 1e-6);
      }
    },
  );

  it('memoryless: the mean over the piece in hand is the article table, iteration for iteration', async () => {
    for (const [width, maxStep, iterations] of [
      [5, 4, 1],
      [6, 4, 6],
      [7, 3, 9],
    ]) {
      const preview = await buildPreviewRows({
        width,
        maxStep,
        iterations,
        randomizer: 'memoryless',
        threads: 2,
        raw: true,
      });
      const article = await buildRankValues({ width, maxStep, iterations, threads: 1 });
      const size = article.length;
      const mean = new Float64Array(size);
      for (let s = 0; s < size; s++) for (let n = 0; n < 7; n++) mean[s] += preview.values![n * size + s] / 7;
      expect(maxError(mean, article)).toBeLessThan(1e-6);
      // The same after quantisation: the stored rows against the stored article table.
      const table = RankTable.fromValues(article, { width, maxStep, iterations });
      let worst = 0;
      for (let s = 0; s < size; s++) {
        let q = 0;
        for (let n = 0; n < 7; n++) q += preview.rows[8 * s + n];
        worst = Math.max(worst, Math.abs((q * preview.scale) / 7 - table.get(s)));
      }
      expect(worst).toBeLessThan(2e-5);
    }
    // And against the independent reference at the flat surface.
    const small = await buildPreviewRows({
      width: 5,
      maxStep: 2,
      iterations: 2,
      randomizer: 'memoryless',
      threads: 1,
      raw: true,
    });
    const ref = referenceRanks(5, 2, 2);
    const flat = (ref.length - 1) / 2;
    let mean = 0;
    for (let n = 0; n < 7; n++) mean += small.values![n * ref.length + flat] / 7;
    expect(mean).toBeCloseTo(ref[flat], 6);
  });

  it('memoryless: the rows are the piece-max rows of the article table with one iteration fewer (drop-in for expectimax)', async () => {
    for (const [width, maxStep, iterations] of [
      [6, 4, 2],
      [7, 2, 6],
    ]) {
      const preview = await buildPreviewRows({ width, maxStep, iterations, randomizer: 'memoryless', threads: 1 });
      // The f32 iteration, quantised once (the u16 build rounds every iteration, so it is further than half a unit).
      const article = await buildRankTable({ width, maxStep, iterations: iterations - 1, threads: 1, encoding: 'f32' });
      const pieceMax = await computePieceMax(article);
      const articleScale = article.searchValues().scale;
      let worst = 0;
      for (let i = 0; i < pieceMax.length; i++)
        worst = Math.max(worst, Math.abs(preview.rows[i] * preview.scale - pieceMax[i] * articleScale));
      expect(worst).toBeLessThan((preview.scale + articleScale) / 2 + 1e-6);
    }
  });

  it('mirror images hold the same values with S/Z and L/J swapped, to the bit (W = 7)', async () => {
    const got = await buildPreviewRows({
      width: 7,
      maxStep: 4,
      iterations: 5,
      threads: 1,
      raw: true,
      transition: randomMatrix(5),
    });
    const size = got.rows.length / 8;
    const mirrorSlot = [...MIRROR_PIECE, 7];
    let checked = 0;
    for (let s = 0; s < size; s++) {
      const m = mirrorIndex(s, 7, 4);
      for (let k = 0; k < 8; k++) {
        if (got.values![k * size + s] !== got.values![mirrorSlot[k] * size + m])
          throw new Error(`plane ${k} surface ${s} differs from its mirror`);
      }
      for (let k = 0; k < 8; k++)
        if (got.rows[8 * s + k] !== got.rows[8 * m + mirrorSlot[k]])
          throw new Error(`row ${s} slot ${k} differs from its mirror`);
      checked++;
    }
    expect(checked).toBe(size);
  });

  it('1, 2 and 3 threads and the scalar kernel give bit-identical rows', async () => {
    const opts = { width: 7, maxStep: 4, iterations: 4, transition: randomMatrix(7), raw: true };
    const single = await buildPreviewRows({ ...opts, threads: 1 });
    const same = (a: PreviewResult, b: PreviewResult) =>
      Buffer.from(a.rows.buffer).equals(Buffer.from(b.rows.buffer)) &&
      Buffer.from(a.values!.buffer).equals(Buffer.from(b.values!.buffer));
    for (const threads of [2, 3]) expect(same(await buildPreviewRows({ ...opts, threads }), single)).toBe(true);
    expect(same(await buildPreviewRows({ ...opts, threads: 1, simd: false }), single)).toBe(true);
  });

  it('reports progress and cancels cleanly', async () => {
    const seen: number[] = [];
    await buildPreviewRows({
      width: 5,
      iterations: 2,
      randomizer: 'memoryless',
      threads: 2,
      onProgress: (p) => seen.push(p.iteration),
    });
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    for (const threads of [1, 2]) {
      const controller = new AbortController();
      const build = buildPreviewRows({
        width: 8,
        iterations: 15,
        threads,
        randomizer: 'memoryless',
        signal: controller.signal,
        onProgress: (p) => p.iteration >= 0.2 && controller.abort(),
      });
      await expect(build).rejects.toMatchObject({ code: 'ABORTED' });
    }
    await expect(buildPreviewRows({ width: 3 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(buildPreviewRows({ width: 4, transition: [[1]] })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});

describe('weighted variant', () => {
  it('matches the reference within 1e-6 and equals the article table for uniform weights (to f32 rounding)', async () => {
    const weights = [0.3, 0.1, 0.2, 0.05, 0.05, 0.15, 0.15];
    for (const [width, maxStep, iterations] of [
      [4, 2, 5],
      [5, 2, 4],
    ]) {
      const got = await buildRankValues({ width, maxStep, iterations, threads: 1 }, weights);
      expect(maxError(got, referenceWeighted(width, maxStep, iterations, weights))).toBeLessThan(1e-6);
      const uniform = await buildRankValues({ width, maxStep, iterations, threads: 2 }, new Array(7).fill(1 / 7));
      expect(maxError(uniform, referenceRanks(width, maxStep, iterations))).toBeLessThan(1e-6);
    }
  });

  it('is a RankTable that carries its weights through its file', async () => {
    const table = await buildWeightedTable({
      width: 6,
      maxStep: 2,
      iterations: 3,
      weights: [0.2, 0.1, 0.1, 0.15, 0.15, 0.1, 0.2],
      threads: 1,
    });
    expect(table.variant).toBe('weighted');
    const expected = [0.2, 0.1, 0.1, 0.15, 0.15, 0.15, 0.15];
    table.params!.model.forEach((w, p) => {
      expect(w).toBeCloseTo(expected[p], 12);
    });
    const bytes = table.toBytes();
    expect(new DataView(bytes.buffer).getUint16(8, true)).toBe(2);
    const again = await loadRankTable(bytes);
    expect(again.variant).toBe('weighted');
    expect(again.params).toEqual(table.params);
    expect(again.toUint16()).toEqual(table.toUint16());
    for (let s = 0; s < table.size; s += 97) expect(again.get(mirrorIndex(s, 6, 2))).toBe(again.get(s));
  });
});

describe('preview table files (format version 2)', () => {
  let table: PreviewTable;
  beforeAll(async () => {
    table = await buildPreviewTable({
      width: 6,
      maxStep: 3,
      iterations: 4,
      randomizer: 'tgm1',
      samples: 100_000,
      seed: 5,
      threads: 1,
    });
  });

  it('has a version-2 header with 8 values per surface and its model in the parameter block', () => {
    const bytes = table.toBytes();
    const { header } = decodeTable(bytes);
    expect(header).toMatchObject({
      version: 2,
      width: 6,
      maxStep: 3,
      iterations: 4,
      encoding: 'u16',
      folded: true,
      variant: 'preview',
      slots: 8,
    });
    expect(header.params).toMatchObject({ randomizer: 'tgm1', samples: 100_000, seed: 5, parameter: 0 });
    expect(header.params!.model).toEqual(table.transition);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint32(52, true)).toBe(40 + 49 * 8);
    // Folded: about half the rows of the unfolded table.
    expect(bytes.byteLength).toBeLessThan(HEADER_BYTES + 432 + table.size * 16 * 0.52);
  });

  it('round-trips through bytes and through an atomically written file: same header fields, same rows', async () => {
    const again = await loadPreviewTable(table.toBytes());
    const fields = (t: PreviewTable) => [
      t.width,
      t.maxStep,
      t.iterations,
      t.variant,
      t.scale,
      t.randomizer,
      t.samples,
      t.seed,
      t.randomizerParameter,
    ];
    expect(fields(again)).toEqual(fields(table));
    expect(again.transition).toEqual(table.transition);
    expect(Buffer.from(again.rows.buffer).equals(Buffer.from(table.rows.buffer))).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-preview-'));
    const path = join(dir, 'p.srk');
    await table.save(path);
    expect(await readdir(dir)).toEqual(['p.srk']);
    const loaded = await loadAnyTable(path);
    expect(loaded).toBeInstanceOf(PreviewTable);
    expect(Buffer.from((loaded as PreviewTable).rows.buffer).equals(Buffer.from(table.rows.buffer))).toBe(true);
  });

  it('reads values by index, piece and surface', () => {
    const flat = (table.size - 1) / 2;
    const row = table.row({ width: 6, maxStep: 3, steps: [0, 0, 0, 0, 0] });
    expect(row).toEqual(Array.from({ length: 8 }, (_, k) => table.get(flat, k)));
    expect(row[3]).toBe(0); // S has no hole-free place on a flat stack
    expect(row[0]).toBeGreaterThan(0);
    expect(() => table.get(flat, 8)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => table.row({ width: 5, maxStep: 3, steps: [0, 0, 0, 0] })).toThrow(
      expect.objectContaining({
        code: 'TABLE_MISMATCH',
        message: 'this table holds 6-column surfaces with max step 3; got a 5-column surface with max step 3',
      }),
    );
    // something that is no surface at all is a bad argument, not a table of another shape
    for (const notASurface of [null, undefined, 7, '444444', { width: 'six', maxStep: 3, steps: [] }])
      expect(() => table.row(notASurface as never)).toThrow(
        expect.objectContaining({
          code: 'BAD_ARGUMENT',
          message: expect.stringMatching(
            /^PreviewTable.row takes a Surface \(from parseSurface, surfaceFromSteps, surfaceFromHeights or surfaceFromIndex\); got /,
          ),
        }),
      );
    expect(() => table.row(null as never)).toThrow(/; got null$/);
  });

  it('is told apart from rank tables both ways', async () => {
    await expect(loadRankTable(table.toBytes())).rejects.toMatchObject({
      code: 'TABLE_MISMATCH',
      message: expect.stringMatching(/^this is a preview table with 8 values per surface.*loadPreviewTable$/),
    });
    const article = await buildRankTable({ width: 5, maxStep: 1, iterations: 2, threads: 1 });
    // "an article table", not "a article table".
    await expect(loadPreviewTable(article.toBytes())).rejects.toMatchObject({
      code: 'TABLE_MISMATCH',
      message: expect.stringMatching(/^this is an article table with 1 value\(s\) per surface, not a preview table/),
    });
    expect(await loadAnyTable(article.toBytes())).toBeInstanceOf(RankTable);
  });

  it('still writes the article table as version 1, and reads it written as version 2 as well', async () => {
    const article = await buildRankTable({ width: 5, maxStep: 2, iterations: 2, threads: 1 });
    const v1 = article.toBytes();
    expect(new DataView(v1.buffer).getUint16(8, true)).toBe(1);
    const { header, data } = decodeTable(v1);
    const v2 = encodeTable({ ...header, version: 2 }, data);
    expect(new DataView(v2.buffer).getUint16(8, true)).toBe(2);
    const again = await loadRankTable(v2);
    expect(again.toUint16()).toEqual(article.toUint16());
    expect([again.variant, again.params]).toEqual(['article', null]);
  });

  describe('refuses damaged variant parameters with typed errors', () => {
    const v2 = () => table.toBytes().slice();
    const fixParams = (b: Uint8Array) => {
      const view = new DataView(b.buffer);
      view.setUint32(56, checksum(b.subarray(HEADER_BYTES, HEADER_BYTES + view.getUint32(52, true))), true);
      return fixHeader(b);
    };
    const fixHeader = (b: Uint8Array) => {
      new DataView(b.buffer).setUint32(60, checksum(b.subarray(0, 60)), true);
      return b;
    };
    const setF64 = (b: Uint8Array, at: number, v: number) => (new DataView(b.buffer).setFloat64(at, v, true), b);
    // P(S | I) up and P(Z | I) down by the same amount: rows still sum to 1, mirror symmetry is gone.
    const skew = (b: Uint8Array) => {
      const a = new DataView(b.buffer).getFloat64(HEADER_BYTES + 40 + 8 * 3, true);
      return setF64(setF64(b, HEADER_BYTES + 40 + 8 * 3, a + 0.01), HEADER_BYTES + 40 + 8 * 4, a - 0.01);
    };
    it.each([
      ['CHECKSUM', (b: Uint8Array) => ((b[HEADER_BYTES + 50] ^= 0x10), b), /parameter block checksum/],
      ['CHECKSUM', (b: Uint8Array) => ((b[48] = 1), b), /header checksum/],
      ['BAD_HEADER', (b: Uint8Array) => fixParams(setF64(b, HEADER_BYTES + 40 + 8, 0.5)), /row 0 .* sums to/],
      ['BAD_HEADER', (b: Uint8Array) => fixParams(skew(b)), /not mirror-symmetric/],
      ['BAD_HEADER', (b: Uint8Array) => fixParams(setF64(b, HEADER_BYTES + 40, Number.NaN)), /outside \[0, 1\]/],
      ['BAD_HEADER', (b: Uint8Array) => fixHeader(((b[48] = 1), b)), /8 value\(s\) per surface/],
      ['BAD_HEADER', (b: Uint8Array) => fixHeader(((b[48] = 3), b)), /3 values per surface/],
      [
        'BAD_HEADER',
        (b: Uint8Array) => fixHeader((b.set(new TextEncoder().encode('previews'), 32), b)),
        /unknown variant "previews"/,
      ],
      [
        'BAD_HEADER',
        (b: Uint8Array) => fixHeader((new DataView(b.buffer).setUint32(52, 44, true), b)),
        /multiple of 8/,
      ],
      [
        'BAD_HEADER',
        (b: Uint8Array) => fixParams((new DataView(b.buffer).setUint16(HEADER_BYTES + 32, 7, true), b)),
        /7 model values need/,
      ],
      ['TRUNCATED', (b: Uint8Array) => b.subarray(0, HEADER_BYTES + 100), /inside its 432-byte parameter block/],
      ['TRUNCATED', (b: Uint8Array) => b.subarray(0, b.length - 2), /holds \d+ of its \d+ data bytes/],
      ['CHECKSUM', (b: Uint8Array) => ((b[b.length - 5] ^= 1), b), /data checksum/],
      ['BAD_VERSION', (b: Uint8Array) => fixHeader(((b[8] = 3), b)), /version 3/],
    ] as const)('%s (%#)', async (code, edit, message) => {
      await expect(loadPreviewTable(edit(v2()))).rejects.toMatchObject({
        code,
        message: expect.stringMatching(message),
      });
    });
  });

  it('matches the golden file byte for byte (bag7 model, W=4 S=1, 2 iterations)', async () => {
    const small = await buildPreviewTable({
      width: 4,
      maxStep: 1,
      iterations: 2,
      randomizer: 'bag7',
      samples: 50_000,
      seed: 1,
      threads: 1,
    });
    const hex = Buffer.from(small.toBytes()).toString('hex');
    if (process.env.UPDATE_GOLDEN) await writeFile(GOLDEN, hex + '\n');
    expect(hex).toBe((await readFile(GOLDEN, 'utf8')).trim());
  });
});

describe('preview cache and CLI', () => {
  it('caches as rank-preview-<randomizer>-w..-s..-i...srk, reuses it, and rebuilds for other model parameters', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'stackrank-pcache-'));
    const env = { XDG_CACHE_HOME: cache };
    const opts = { width: 5, maxStep: 2, iterations: 2, randomizer: 'tgm1' as const, samples: 20_000, threads: 1, env };
    const first = await loadOrBuildCachedPreviewTable(opts);
    expect(first.cached).toBe(false);
    expect(first.path).toBe(join(cache, 'stackrank', 'rank-preview-tgm1-w5-s2-i2.srk'));
    const second = await loadOrBuildCachedPreviewTable(opts);
    expect(second.cached).toBe(true);
    expect(second.table.transition).toEqual(first.table.transition);
    const third = await loadOrBuildCachedPreviewTable({ ...opts, samples: 30_000 });
    expect(third.cached).toBe(false);
    expect(third.rejected).toMatch(/other parameters/);
  });

  it('stackrank table build --variant preview, then info and rank show the variant and its parameters', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-pcli-'));
    const file = join(dir, 'p.srk');
    const built = await runCli([
      'table',
      'build',
      '--variant',
      'preview',
      '--randomizer',
      'memoryless',
      '--width',
      '5',
      '--max-step',
      '2',
      '--iterations',
      '3',
      '--threads',
      '1',
      '--out',
      file,
    ]);
    expect(built.code).toBe(0);
    expect(built.out).toMatch(/built 5x2 preview table \(memoryless\) \(3 iterations\)/);

    const info = JSON.parse((await runCli(['table', 'info', file, '--json'])).out);
    expect(info).toMatchObject({
      variant: 'preview',
      randomizer: 'memoryless',
      samples: 0,
      slots: 8,
      width: 5,
      maxStep: 2,
      iterations: 3,
    });
    expect(info.transition[2][5]).toBeCloseTo(1 / 7, 12);
    expect(info.bytes).toBe((await readFile(file)).byteLength);
    const human = await runCli(['table', 'info', file]);
    expect(human.out).toMatch(/variant preview/);
    expect(human.out).toMatch(/transition matrix P\(next \| in hand\) \(memoryless, exact, mirror-symmetrised\)/);

    // JSON Lines: one object per surface
    const rank = (await runCli(['table', 'rank', file, '2222', '--json'])).out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rank).toHaveLength(1);
    expect(Object.keys(rank[0].values)).toEqual(['I', 'O', 'T', 'S', 'Z', 'L', 'J', 'after-I']);
    expect(rank[0].values.I).toBeCloseTo(info.stats.flat[0], 9);

    const weighted = await runCli([
      'table',
      'build',
      '--variant',
      'weighted',
      '--randomizer',
      'bag7',
      '--samples',
      '10000',
      '--width',
      '5',
      '--iterations',
      '2',
      '--threads',
      '1',
      '--out',
      join(dir, 'w.srk'),
      '--json',
    ]);
    expect(JSON.parse(weighted.out)).toMatchObject({ variant: 'weighted', randomizer: 'bag7', samples: 10000 });
    const winfo = await runCli(['table', 'info', join(dir, 'w.srk')]);
    expect(winfo.out).toMatch(/piece weights \(bag7, estimated from 10,000 pieces, seed 1\)/);
  });

  it.each([
    [['table', 'build', '--variant', 'fancy'], /--variant must be one of article, preview, weighted/],
    [['table', 'build', '--variant', 'preview', '--randomizer', 'tgm9'], /--randomizer must be one of/],
    [['table', 'build', '--randomizer', 'tgm1'], /--randomizer needs --variant preview or weighted/],
    [['table', 'build', '--variant', 'preview', '--encoding', 'f32'], /u16-encoded/],
    [['table', 'build', '--variant', 'preview', '--samples', '0'], /--samples must be an integer from 1/],
    [
      ['table', 'build', '--variant', 'preview', '--denominator', '2'],
      /--denominator is a parameter of --randomizer decay/,
    ],
  ])('fails with a one-line reason: %j', async (argv, message) => {
    const run = await runCli(argv as string[]);
    expect(run.code).not.toBe(0);
    expect(run.err).toMatch(message);
    expect(run.err.split('\n')).toHaveLength(1);
  });
});
