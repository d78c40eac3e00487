import { mkdtempSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ITERATIONS } from '../../src/rank/build.js';
import { runCli } from '../helpers/cli.js';

/** A table file that does not exist, in a fresh folder of this test's own. */
const missingTable = join(mkdtempSync(join(tmpdir(), 'stackrank-cli-')), 'missing.srk');

describe('stackrank table', () => {
  it('builds to --out with progress, then reports info and ranks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-cli-'));
    const file = join(dir, 't.srk');
    const built = await runCli([
      'table',
      'build',
      '--width',
      '6',
      '--max-step',
      '3',
      '--iterations',
      '4',
      '--threads',
      '1',
      '--out',
      file,
    ]);
    expect(built.code).toBe(0);
    expect(built.out).toMatch(/built 6x3 rank table \(4 iterations\)/);
    expect(built.statuses.some((s) => /iteration 4\/4 .*elapsed/.test(s))).toBe(true);

    const info = await runCli(['table', 'info', file, '--json']);
    expect(info.code).toBe(0);
    const meta = JSON.parse(info.out);
    expect(meta).toMatchObject({ width: 6, maxStep: 3, iterations: 4, encoding: 'u16', surfaces: 7 ** 5 });
    expect(meta.stats.max).toBeLessThanOrEqual(1);
    expect(meta.stats.flat).toBeGreaterThan(meta.stats.mean);

    const human = await runCli(['table', 'info', file]);
    expect(human.out).toMatch(/6 columns, max step 3, 4 iterations/);

    const rank = await runCli(['table', 'rank', file, '33333', '00000', '--json']);
    const rows = rank.out.split('\n').map((l) => JSON.parse(l)); // JSON Lines: one object per surface
    expect(rows.map((r: { digits: string }) => r.digits)).toEqual(['33333', '00000']);
    expect(rows[0].rank).toBeCloseTo(meta.stats.flat, 6);
    expect(rows[0].rank).toBeGreaterThan(rows[1].rank);
  });

  it('info reports the folding the file header holds: the 20g table is stored unfolded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-cli-'));
    for (const variant of ['20g', 'article']) {
      const file = join(dir, `${variant}.srk`);
      const args = ['--width', '5', '--max-step', '2', '--iterations', '2', '--threads', '1', '--out', file];
      expect((await runCli(['table', 'build', '--variant', variant, ...args])).code).toBe(0);
      const folded = variant === 'article';
      expect((await readFile(file))[15]).toBe(folded ? 1 : 0);
      expect(JSON.parse((await runCli(['table', 'info', file, '--json'])).out).folded).toBe(folded);
      const human = (await runCli(['table', 'info', file])).out;
      expect(human).toContain(folded ? ', mirror-folded, ' : ', not folded, ');
      if (!folded) expect(human).not.toContain('mirror-folded');
    }
  });

  it('caches under XDG_CACHE_HOME, reuses a valid table and rebuilds a damaged one', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'stackrank-cache-'));
    const env = { XDG_CACHE_HOME: cache };
    const args = ['table', 'build', '--width', '5', '--iterations', '3', '--json'];
    const first = JSON.parse((await runCli(args, env)).out);
    expect(first.cached).toBe(false);
    expect(first.path).toBe(join(cache, 'stackrank', 'rank-article-w5-s4-i3.srk'));
    const second = JSON.parse((await runCli(args, env)).out);
    expect(second.cached).toBe(true);

    const bytes = await readFile(first.path);
    bytes[bytes.length - 1] ^= 0xff;
    await writeFile(first.path, bytes);
    const third = await runCli(args, env);
    expect(JSON.parse(third.out).cached).toBe(false);
    expect(third.err).toMatch(/rebuilding: .*checksum/);
    expect(await readdir(join(cache, 'stackrank'))).toEqual(['rank-article-w5-s4-i3.srk']);
  });

  it('writes nothing when the build is cancelled', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-cancel-'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    // The most iterations allowed, so the build cannot finish before the abort on a fast machine (15 take about 1 s).
    const run = await runCli(
      ['table', 'build', '--iterations', String(MAX_ITERATIONS), '--out', join(dir, 'never.srk')],
      {},
      controller.signal,
    );
    expect(run.code).toBe(130);
    expect(run.err).toBe('stackrank table build: interrupted');
    expect(await readdir(dir)).toEqual([]);
  });

  it.each([
    [['table', 'build', '--width', '10'], 2, 'stackrank table build: --width must be an integer from 4 to 9; got "10"'],
    [
      ['table', 'build', '--iterations', 'x'],
      2,
      `stackrank table build: --iterations must be an integer from 1 to ${MAX_ITERATIONS}; got "x"`,
    ],
    [['table', 'build', '--encoding', 'u8'], 2, 'stackrank table build: --encoding must be one of u16, f32; got "u8"'],
    [
      ['table', 'build', '--bogus'],
      2,
      /^stackrank table build: unknown option '--bogus'; options are --variant, .*--json, --help$/,
    ],
    [['table', 'frobnicate'], 2, "stackrank table: unknown command 'frobnicate'; commands are build, info, rank"],
    [
      ['table', 'rank', missingTable, '44444444'],
      1,
      `stackrank table rank: could not read rank table ${missingTable}: no such file [IO]`,
    ],
    [['nonsense'], 2, /^stackrank: unknown command 'nonsense'; commands are table, bench, play, .*tbp$/],
  ])('fails with a one-line reason: %j (exit %i)', async (argv, code, message) => {
    const run = await runCli(argv as string[]);
    expect(run.code).toBe(code);
    if (typeof message === 'string') expect(run.err).toBe(message);
    else expect(run.err).toMatch(message);
    expect(run.err.split('\n')).toHaveLength(1);
  });
});
