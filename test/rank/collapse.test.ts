/**
 * The collapsing table variants: the rank and preview iterations with placements that leave a step
 * steeper than ±S made legal, the step collapsed to ±S (the exact model of the game rule steep 'collapse').
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnyTable } from '../../src/rank/any.js';
import { buildRankValues } from '../../src/rank/build.js';
import { loadOrBuildCachedTable } from '../../src/rank/cache.js';
import { decodeTable } from '../../src/rank/file.js';
import { rankMoves } from '../../src/rank/moves.js';
import { PreviewTable, buildPreviewRows, buildPreviewTable, loadPreviewTable } from '../../src/rank/preview.js';
import { RankTable, buildRankTable, loadRankTable } from '../../src/rank/table.js';
import { loadOrBuildCachedPreviewTable } from '../../src/rank/variant-cache.js';
import { buildWeightedTable } from '../../src/rank/weighted.js';
import { mirrorIndex } from '../../src/surface.js';
import { runCli } from '../helpers/cli.js';
import { referencePreview, referenceRanks, referenceSteps } from '../reference/rank-reference.js';

const GOLDEN = join(__dirname, '..', 'golden', 'rank-collapse-w4-s1-i2.srk.hex');

const maxError = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

describe('collapsing rank iteration', () => {
  it('equals the independent reference within 1e-6 (W = 4..6, S = 1..3), and differs from the article iteration', async () => {
    for (const [width, maxStep, iterations] of [
      [4, 1, 5],
      [5, 2, 4],
      [6, 3, 3],
    ]) {
      const got = await buildRankValues({ width, maxStep, iterations, steep: 'collapse', threads: 1 });
      expect(maxError(got, referenceRanks(width, maxStep, iterations, 'collapse'))).toBeLessThan(1e-6);
      expect(maxError(got, referenceRanks(width, maxStep, iterations, 'forbid'))).toBeGreaterThan(0.01);
    }
  });

  it('only adds moves: every move of the article iteration is a move of the collapsing one, and there are more', () => {
    const forbid = rankMoves(9, 4, 'forbid');
    const collapse = rankMoves(9, 4, 'collapse');
    expect(collapse.length).toBeGreaterThan(forbid.length);
    const key = (m: {
      piece: number;
      orientation: number;
      column: number;
      lo: number[];
      hi: number[];
      delta: number;
    }) => JSON.stringify(m);
    const all = new Set(collapse.map(key));
    for (const m of forbid) expect(all.has(key(m))).toBe(true);
  });

  it('values every surface at least as high as the article iteration does (more placements are legal)', async () => {
    const forbid = await buildRankValues({ width: 6, maxStep: 2, iterations: 4, threads: 1 });
    const collapse = await buildRankValues({ width: 6, maxStep: 2, iterations: 4, steep: 'collapse', threads: 1 });
    for (let s = 0; s < forbid.length; s++) expect(collapse[s]).toBeGreaterThanOrEqual(forbid[s]);
    // A surface the article iteration cannot use at all: W = 4, S = 1, steps +1 +1 +1 (a staircase). Only pieces
    // that keep every step within ±1 count there; collapsing lets more of them in.
    const stairs = [1, 1, 1].reduce((acc, d) => acc * 3 + d + 1, 0);
    expect(referenceSteps(stairs, 4, 1)).toEqual([1, 1, 1]);
    const f1 = await buildRankValues({ width: 4, maxStep: 1, iterations: 1, threads: 1 });
    const c1 = await buildRankValues({ width: 4, maxStep: 1, iterations: 1, steep: 'collapse', threads: 1 });
    expect(c1[stairs]).toBeGreaterThan(f1[stairs]);
  });

  it('keeps mirror images bit-identical, so the folded file loses nothing (W = 7)', async () => {
    const values = await buildRankValues({ width: 7, maxStep: 3, iterations: 4, steep: 'collapse', threads: 2 });
    for (let s = 0; s < values.length; s += 37) expect(values[mirrorIndex(s, 7, 3)]).toBe(values[s]);
  });

  it('is bit-identical on 1 and 2 threads', async () => {
    const a = await buildRankValues({ width: 7, maxStep: 4, iterations: 3, steep: 'collapse', threads: 1 });
    const b = await buildRankValues({ width: 7, maxStep: 4, iterations: 3, steep: 'collapse', threads: 2 });
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });

  it('rejects an unknown steep option, and weighted tables other than forbid, with BAD_ARGUMENT', async () => {
    await expect(
      buildRankTable({ width: 4, maxStep: 1, iterations: 1, steep: 'clamp' as never }),
    ).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/"forbid", "collapse"/) });
    await expect(
      buildWeightedTable({ width: 4, maxStep: 1, iterations: 1, steep: 'collapse', randomizer: 'memoryless' }),
    ).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});

describe('collapse table files', () => {
  it('carries its variant through its file (version 1, variant "collapse") and says what it forbids', async () => {
    const table = await buildRankTable({ width: 5, maxStep: 2, iterations: 3, steep: 'collapse', threads: 1 });
    expect([table.variant, table.steep]).toEqual(['collapse', 'collapse']);
    const { header } = decodeTable(table.toBytes());
    expect(header).toMatchObject({ version: 1, variant: 'collapse', slots: 1 });
    const again = await loadRankTable(table.toBytes());
    expect([again.variant, again.steep, again.iterations]).toEqual(['collapse', 'collapse', 3]);
    for (let s = 0; s < table.size; s += 7) expect(again.get(s)).toBe(table.get(s));
    const article = await buildRankTable({ width: 5, maxStep: 2, iterations: 3, threads: 1 });
    expect([article.variant, article.steep]).toEqual(['article', 'forbid']);
  });

  it('matches the golden file byte for byte (W=4 S=1, 2 iterations)', async () => {
    const small = await buildRankTable({ width: 4, maxStep: 1, iterations: 2, steep: 'collapse', threads: 1 });
    const hex = Buffer.from(small.toBytes()).toString('hex');
    if (process.env.UPDATE_GOLDEN) await writeFile(GOLDEN, hex + '\n');
    expect(hex).toBe((await readFile(GOLDEN, 'utf8')).trim());
  });

  it('caches as rank-collapse-w..-s..-i...srk, apart from the article table', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'stackrank-ccache-'));
    const env = { XDG_CACHE_HOME: cache };
    const opts = { width: 5, maxStep: 2, iterations: 2, threads: 1, env };
    const collapse = await loadOrBuildCachedTable({ ...opts, steep: 'collapse' });
    expect(collapse.path).toBe(join(cache, 'stackrank', 'rank-collapse-w5-s2-i2.srk'));
    expect(collapse.table.variant).toBe('collapse');
    const article = await loadOrBuildCachedTable(opts);
    expect(article.path).toBe(join(cache, 'stackrank', 'rank-article-w5-s2-i2.srk'));
    expect([article.cached, article.table.variant]).toEqual([false, 'article']);
    expect((await loadOrBuildCachedTable({ ...opts, steep: 'collapse' })).cached).toBe(true);
  });
});

describe('collapsing preview iteration', () => {
  it('equals the independent reference (W = 5, S = 2, tgm1 model) to the u16 step', async () => {
    const width = 5;
    const maxStep = 2;
    const got = await buildPreviewRows({
      width,
      maxStep,
      iterations: 3,
      randomizer: 'tgm1',
      samples: 50_000,
      steep: 'collapse',
      threads: 1,
    });
    const ref = referencePreview(width, maxStep, 3, got.model.model, 'collapse');
    const forbid = referencePreview(width, maxStep, 3, got.model.model, 'forbid');
    const size = (2 * maxStep + 1) ** (width - 1);
    let worst = 0;
    let apart = 0;
    for (let s = 0; s < size; s++) {
      for (let n = 0; n < 7; n++) {
        worst = Math.max(worst, Math.abs(got.rows[8 * s + n] * got.scale - ref.planes[n * size + s]));
        apart = Math.max(apart, Math.abs(ref.planes[n * size + s] - forbid.planes[n * size + s]));
      }
      worst = Math.max(worst, Math.abs(got.rows[8 * s + 7] * got.scale - ref.after[s]));
    }
    expect(worst).toBeLessThanOrEqual(got.scale / 2 + 1e-6);
    expect(apart).toBeGreaterThan(0.01);
  });

  it('round-trips with its own variant name, is told apart from rank tables, and caches under its own name', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'stackrank-pccache-'));
    const opts = {
      width: 5,
      maxStep: 2,
      iterations: 2,
      randomizer: 'memoryless' as const,
      threads: 1,
      env: { XDG_CACHE_HOME: cache },
    };
    const built = await loadOrBuildCachedPreviewTable({ ...opts, steep: 'collapse' });
    expect(built.path).toBe(join(cache, 'stackrank', 'rank-preview-collapse-memoryless-w5-s2-i2.srk'));
    const table = built.table;
    expect([table.variant, table.steep]).toEqual(['preview-collapse', 'collapse']);
    expect(decodeTable(table.toBytes()).header).toMatchObject({ version: 2, variant: 'preview-collapse', slots: 8 });
    const again = await loadPreviewTable(table.toBytes());
    expect([again.variant, again.steep]).toEqual(['preview-collapse', 'collapse']);
    expect(Buffer.from(again.rows.buffer).equals(Buffer.from(table.rows.buffer))).toBe(true);
    expect(await loadAnyTable(table.toBytes())).toBeInstanceOf(PreviewTable);
    await expect(loadRankTable(table.toBytes())).rejects.toMatchObject({ code: 'TABLE_MISMATCH' });
    const { env: _env, ...buildOpts } = opts;
    expect((await buildPreviewTable(buildOpts)).variant).toBe('preview');
    expect((await loadOrBuildCachedPreviewTable(opts)).path).toBe(
      join(cache, 'stackrank', 'rank-preview-memoryless-w5-s2-i2.srk'),
    );
    expect(
      await loadAnyTable(
        (await buildRankTable({ width: 4, maxStep: 1, iterations: 1, steep: 'collapse', threads: 1 })).toBytes(),
      ),
    ).toBeInstanceOf(RankTable);
  });
});

describe('collapse in the CLI', () => {
  it('stackrank table build --steep collapse, table info, and bench survival --table-steep collapse --steep collapse', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-ccli-'));
    const file = join(dir, 'c.srk');
    const built = await runCli([
      'table',
      'build',
      '--steep',
      'collapse',
      '--width',
      '5',
      '--max-step',
      '2',
      '--iterations',
      '2',
      '--threads',
      '1',
      '--out',
      file,
    ]);
    expect(built.code).toBe(0);
    expect(built.out).toMatch(/built 5x2 collapse table \(2 iterations\)/);
    const info = JSON.parse((await runCli(['table', 'info', file, '--json'])).out);
    expect(info.variant).toBe('collapse');

    const env = { XDG_CACHE_HOME: dir };
    const survival = await runCli(
      [
        'bench',
        'survival',
        '--table-steep',
        'collapse',
        '--steep',
        'collapse',
        '--iterations',
        '2',
        '--lookahead',
        '0',
        '--games',
        '2',
        '--max-pieces',
        '300',
        '--json',
      ],
      env,
    );
    expect(survival.code).toBe(0);
    expect(JSON.parse(survival.out.trim().split('\n')[0]).steep).toBe('collapse');

    const bad = await runCli(['bench', 'survival', '--table-steep', 'clamp']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--table-steep must be one of forbid, collapse/);
    const both = await runCli(['bench', 'survival', '--table', file, '--table-steep', 'collapse']);
    expect(both.err).toMatch(/does not go with --table FILE/);
    const weighted = await runCli(['table', 'build', '--variant', 'weighted', '--steep', 'collapse']);
    expect(weighted.err).toMatch(/--steep forbid only/);
  });
});
