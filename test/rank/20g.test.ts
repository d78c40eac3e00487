/**
 * The 20G rank-table variant: the article's iteration over the placements reachable at 20G from TGM's spawn
 * (docs/rules.md, "The 20G table"), checked against a reference that asks the rules layer about every whole board.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { buildRankValues } from '../../src/rank/build.js';
import { rankMoves } from '../../src/rank/moves.js';
import { rankMoves20G } from '../../src/rank/moves-20g.js';
import { RankTable, buildRankTable } from '../../src/rank/table.js';
import { decodeTable, encodeTable } from '../../src/rank/file.js';
import { foldShape } from '../../src/rank/fold.js';
import { ORIENTATIONS } from '../../src/pieces.js';
import { mirrorIndex } from '../../src/surface.js';
import { referenceRanks, referenceSuccessors } from '../reference/rank-reference.js';
import { reference20GRanks, reference20GSuccessors } from '../reference/rank-20g-reference.js';

function maxError(got: Float32Array, want: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < want.length; i++)
    worst = Math.max(worst, Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i])));
  return worst;
}

describe('20G rank table', () => {
  for (const width of [5, 6]) {
    it(`matches the whole-board reference at width ${width}, max step 4`, async () => {
      const iterations = 4;
      const want = reference20GRanks(width, 4, iterations);
      const got = await buildRankValues({ width, maxStep: 4, iterations, gravity: '20G', threads: 1 });
      expect(maxError(got, want)).toBeLessThan(1e-6);
      // and it is a different game from the article's
      expect(maxError(got, referenceRanks(width, 4, iterations))).toBeGreaterThan(0.01);
    }, 300_000);
  }

  // Whether the window allows a placement the whole board forbids is counted in test/rank/20g-window.test.ts: the
  // reference takes its windowed placements from the whole board's, so it cannot see one.
  it("the reference's window misses only upright-I placements (11 at width 5), and the moves hold the rest", () => {
    const missed: number[] = [];
    // (surface, placement) pairs: one successor each (two placements of a piece never leave the same surface).
    let windowedPairs = 0;
    let articlePairs = 0;
    for (let s = 0; s < 9 ** 4; s++) {
      for (let p = 0; p < 7; p++) {
        const full = new Set(reference20GSuccessors(s, p, 5, 4, false));
        const windowed = reference20GSuccessors(s, p, 5, 4, true);
        for (const t of full) if (!windowed.includes(t)) missed.push(p);
        windowedPairs += windowed.length;
        articlePairs += referenceSuccessors(s, p, 5, 4).length;
      }
    }
    expect(missed).toEqual(new Array(11).fill(0));
    // The product-set moves cover exactly those pairs: disjoint boxes whose volumes add up to the reference's count.
    const volume = (moves: { lo: number[]; hi: number[] }[]) =>
      moves.reduce((sum, m) => sum + m.lo.reduce((v, lo, i) => v * (m.hi[i] - lo + 1), 1), 0);
    expect(windowedPairs).toBeGreaterThan(20_000);
    expect(volume(rankMoves20G(5, 4))).toBe(windowedPairs);
    expect(volume(rankMoves(5, 4))).toBe(articlePairs);
    expect(articlePairs).toBeGreaterThan(windowedPairs);
  }, 300_000);

  it('allows only placements the article allows, each at most once per surface (the product sets are disjoint)', () => {
    // The documented counts (docs/rules.md, docs/architecture.md): at 9x4 the article has one move per placement,
    // sum over the 19 orientations of 10 - width = 143; the 20G variant 1,897; the collapsing one 945.
    expect(ORIENTATIONS.flat().reduce((n, o) => n + 10 - o.width, 0)).toBe(143);
    expect(rankMoves(9, 4).length).toBe(143);
    expect(rankMoves20G(9, 4).length).toBe(1897);
    expect(rankMoves(9, 4, 'collapse').length).toBe(945);
    // At 6x4 the article has 86 = sum of 7 - width, each placement once.
    expect(rankMoves(6, 4).length).toBe(86);
    const article = new Map(rankMoves(6, 4).map((m) => [`${m.piece}:${m.orientation}:${m.column}`, m]));
    expect(article.size).toBe(86);
    const moves = rankMoves20G(6, 4);
    const seen = new Map<string, number>();
    for (const m of moves) {
      const a = article.get(`${m.piece}:${m.orientation}:${m.column}`);
      expect(a).toBeDefined();
      expect(m.delta).toBe(a!.delta);
      for (const [i, lo] of m.lo.entries()) expect(lo >= a!.lo[i] && m.hi[i] <= a!.hi[i]).toBe(true);
      seen.set(
        `${m.piece}:${m.orientation}:${m.column}`,
        (seen.get(`${m.piece}:${m.orientation}:${m.column}`) ?? 0) + 1,
      );
    }
    // overlapping boxes of one placement: check pairwise disjointness
    const byKey = new Map<string, typeof moves>();
    for (const m of moves)
      byKey.set(`${m.piece}:${m.orientation}:${m.column}`, [
        ...(byKey.get(`${m.piece}:${m.orientation}:${m.column}`) ?? []),
        m,
      ]);
    let pairs = 0;
    for (const group of byKey.values()) {
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          pairs++;
          const overlap = group[i].lo.every(
            (lo, d) => Math.max(lo, group[j].lo[d]) <= Math.min(group[i].hi[d], group[j].hi[d]),
          );
          expect(overlap).toBe(false);
        }
      }
    }
    // The loops above ran: several boxes for most placements, and more moves than placements.
    expect(seen.size).toBeGreaterThan(40);
    expect(moves.length).toBeGreaterThan(2 * seen.size);
    expect(pairs).toBeGreaterThan(100);
  });

  it('is not mirror-symmetric, and its file keeps every surface (variant "20g", not folded)', async () => {
    const table = await buildRankTable({ width: 5, maxStep: 2, iterations: 3, gravity: '20G', threads: 1 });
    expect(table.variant).toBe('20g');
    const values = table.toFloat32();
    let asymmetric = 0;
    for (let s = 0; s < values.length; s++) if (values[mirrorIndex(s, 5, 2)] !== values[s]) asymmetric++;
    expect(asymmetric).toBeGreaterThan(0);
    const bytes = table.toBytes();
    expect(decodeTable(bytes).header).toMatchObject({ variant: '20g', folded: false, count: values.length });
    const again = RankTable.fromBytes(bytes);
    expect(again.variant).toBe('20g');
    expect(Array.from(again.toFloat32())).toEqual(Array.from(values));
  });

  it('refuses a mirror-folded 20g file (its values are not mirror-symmetric)', () => {
    const data = new Uint16Array(foldShape(5, 2).foldedSize).fill(1);
    const header = { width: 5, maxStep: 2, iterations: 3, encoding: 'u16' as const, scale: 1, variant: '20g' };
    expect(() => RankTable.fromBytes(encodeTable({ ...header, folded: true }, data))).toThrow(
      expect.objectContaining({ code: 'BAD_HEADER', message: expect.stringMatching(/not mirror-symmetric/) }),
    );
    const full = new Uint16Array(5 ** 4).fill(1);
    expect(RankTable.fromBytes(encodeTable({ ...header, folded: false }, full)).get(7)).toBe(1);
  });

  it("is built in u16 by the folded build's kernel over every surface: within 1.5 units of the f32 iteration, the same on any thread count, SIMD or not", async () => {
    for (const [width, maxStep, iterations] of [
      [5, 4, 6],
      [6, 2, 5],
      [7, 4, 4],
    ]) {
      const opts = { width, maxStep, iterations, gravity: '20G' as const };
      const u16 = await buildRankTable({ ...opts, threads: 1 });
      const f32 = await buildRankTable({ ...opts, threads: 1, encoding: 'f32' });
      expect(u16.encoding).toBe('u16');
      expect(u16.variant).toBe('20g');
      const a = u16.toFloat32();
      const b = f32.toFloat32();
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
      expect(worst / u16.scale).toBeLessThan(1.5);
      for (const other of [
        await buildRankTable({ ...opts, threads: 2 }),
        await buildRankTable({ ...opts, threads: 3 }),
        await buildRankTable({ ...opts, threads: 1, simd: false }),
      ]) {
        expect(other.scale).toBe(u16.scale);
        expect(Buffer.from(other.toUint16().buffer).equals(Buffer.from(u16.toUint16().buffer))).toBe(true);
      }
    }
  }, 120_000);

  it("reports its plan's progress (the 20G moves are derived then) before the iterations, and cancels during it", async () => {
    const planned: number[] = [];
    const iterations: number[] = [];
    await buildRankTable({
      width: 6,
      maxStep: 4,
      iterations: 2,
      gravity: '20G',
      threads: 1,
      onProgress: (p) => (p.planned === undefined ? iterations.push(p.iteration) : planned.push(p.planned)),
    });
    expect(planned.at(-1)).toBe(1);
    expect(planned).toEqual([...planned].sort((x, y) => x - y));
    expect(iterations[0]).toBe(0);
    expect(iterations.at(-1)).toBe(2);
    // An abort while the moves are derived (a width not derived before in this process).
    const controller = new AbortController();
    const build = buildRankTable({ width: 8, maxStep: 4, iterations: 2, gravity: '20G', signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(build).rejects.toMatchObject({ code: 'ABORTED' });
  }, 60_000);

  it('rejects 20G with steep collapse and unknown gravity names', async () => {
    await expect(
      buildRankTable({ width: 4, maxStep: 1, iterations: 1, gravity: '20G', steep: 'collapse' }),
    ).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/forbid/) });
    await expect(buildRankTable({ width: 4, maxStep: 1, iterations: 1, gravity: '1G' as never })).rejects.toMatchObject(
      { code: 'BAD_ARGUMENT', message: expect.stringMatching(/"drop", "20G"/) },
    );
  });
});

describe('stackrank table build --variant 20g', () => {
  it('builds the 20G table into the cache under its own name and reuses it', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'stackrank-20g-'));
    const env = { XDG_CACHE_HOME: cache };
    const args = [
      'table',
      'build',
      '--variant',
      '20g',
      '--width',
      '5',
      '--max-step',
      '2',
      '--iterations',
      '3',
      '--threads',
      '1',
      '--json',
    ];
    const first = JSON.parse((await runCli(args, env)).out);
    expect(first).toMatchObject({
      cached: false,
      variant: '20g',
      path: join(cache, 'stackrank', 'rank-20g-w5-s2-i3.srk'),
    });
    const second = JSON.parse((await runCli(args, env)).out);
    expect(second.cached).toBe(true);
    const info = JSON.parse((await runCli(['table', 'info', first.path, '--json'])).out);
    expect(info).toMatchObject({ variant: '20g', width: 5, maxStep: 2 });
    const direct = await buildRankTable({ width: 5, maxStep: 2, iterations: 3, gravity: '20G', threads: 1 });
    const flat = JSON.parse((await runCli(['table', 'rank', first.path, '2222', '--json'])).out);
    expect(flat.rank).toBeCloseTo(direct.get(2 * (125 + 25 + 5 + 1)), 4);
    expect(flat.rank).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a piece model or --steep collapse with --variant 20g', async () => {
    const withModel = await runCli([
      'table',
      'build',
      '--variant',
      '20g',
      '--randomizer',
      'tgm1',
      '--out',
      join(await mkdtemp(join(tmpdir(), 'stackrank-20g-')), 'never.srk'),
    ]);
    expect(withModel.code).not.toBe(0);
    expect(withModel.err).toMatch(/--randomizer needs --variant preview or weighted/);
    const collapse = await runCli([
      'table',
      'build',
      '--variant',
      '20g',
      '--steep',
      'collapse',
      '--out',
      join(await mkdtemp(join(tmpdir(), 'stackrank-20g-')), 'never.srk'),
    ]);
    expect(collapse.code).not.toBe(0);
    expect(collapse.err).toMatch(/--variant 20g is built with --steep forbid only/);
  });
});
