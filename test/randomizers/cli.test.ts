import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { CliIO } from '../../src/cli/io.js';
import { RANDOMIZER_NAMES, createRandomizer } from '../../src/randomizers/index.js';

function fakeIO() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (l) => out.push(l), err: (l) => err.push(l), status: () => {}, isTTY: false, env: {} };
  return { io, out, err };
}

describe('stackrank queue', () => {
  it('prints the queue a generator deals from a seed', async () => {
    const { io, out } = fakeIO();
    expect(await main(['queue', 'tgm1', '--seed', '7', '--count', '100'], io)).toBe(0);
    expect(out).toEqual([createRandomizer('tgm1', { seed: 7 }).take(100)]);
    expect(out[0]).toMatch(/^[IOTSZLJ]{100}$/);
  });

  it('--json carries name, seed, params, count and queue; --denominator reaches decay', async () => {
    const { io, out } = fakeIO();
    expect(await main(['queue', 'decay', '--denominator', '1.5', '--count', '20', '--seed', '3', '--json'], io)).toBe(
      0,
    );
    expect(JSON.parse(out[0])).toEqual({
      name: 'decay',
      seed: 3,
      params: { denominator: 1.5 },
      count: 20,
      queue: createRandomizer('decay', { seed: 3, denominator: 1.5 }).take(20),
    });
  });

  it('refuses a denominator below 1 as a usage error, with the range the library takes', async () => {
    const { io, out, err } = fakeIO();
    expect(await main(['queue', 'decay', '--denominator', '0.9', '--count', '5'], io)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(/--denominator must be a number from 1 to 1e\+300; got "0.9"/);
  });

  it.each([
    [['queue'], /missing required argument 'name'/],
    [['queue', 'tgm9'], /unknown generator "tgm9"; one of memoryless/],
    [['queue', 'bag7', '--count=-3'], /--count must be an integer/],
    [['queue', 'bag7', '--seed', 'x'], /--seed must be an integer/],
    [['queue', 'bag7', '--denominator', '2'], /only applies to decay/],
    [['queue', 'decay', '--denominator', '0'], /--denominator must be a number from 1 to 1e\+300/],
    [['queue', 'bag7', '--bogus'], /bogus/],
  ])('%j fails with usage exit code 2', async (argv, message) => {
    const { io, out, err } = fakeIO();
    expect(await main(argv as string[], io)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(message);
  });
});

describe('stackrank randomizers', () => {
  it('prints one comparison table with every generator and the published figures', async () => {
    const { io, out } = fakeIO();
    expect(await main(['randomizers', '--pieces', '20000', '--seed', '1'], io)).toBe(0);
    const text = out.join('\n');
    for (const name of RANDOMIZER_NAMES) expect(text).toMatch(new RegExp(`^\\| ${name}\\b`, 'm'));
    expect(text).toMatch(/^\| bag7 +\| +37\.0\d % \| +37\.04 % \|/m);
    expect(text).toMatch(/^\| decay 1\.1 /m);
  });

  it('--json prints one object per generator with the documented fields', async () => {
    const { io, out } = fakeIO();
    expect(await main(['randomizers', '--pieces', '20000', '--seed', '1', '--json', '--denominator', '1.5'], io)).toBe(
      0,
    );
    const rows = out.map((l) => JSON.parse(l)) as Record<string, unknown>[]; // JSON Lines: one object per generator
    expect(rows.map((r) => r.name)).toEqual([...RANDOMIZER_NAMES]);
    for (const row of rows) {
      for (const field of [
        'predictability',
        'entropy',
        'maxDrought',
        'repeatProbability',
        'longestRun',
        'frequencyStd',
      ]) {
        expect(typeof row[field]).toBe('number');
      }
      expect(row.predictability as number).toBeGreaterThan(0.14);
      expect(row.predictability as number).toBeLessThan(1);
    }
    const bag7 = rows.find((r) => r.name === 'bag7')!;
    expect(bag7.maxDrought).toBe(12);
    expect(bag7.longestRun).toBe(2);
    expect(rows.find((r) => r.name === 'decay')!.params).toEqual({ denominator: 1.5 });
  });

  it('--plots writes the SVG charts (and keeps stdout pure JSON under --json)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stackrank-plots-'));
    try {
      const { io, out, err } = fakeIO();
      expect(await main(['randomizers', '--pieces', '5000', '--json', '--plots', join(dir, 'nested')], io)).toBe(0);
      expect(out.map((l) => JSON.parse(l).name)).toEqual([...RANDOMIZER_NAMES]);
      const files = (await readdir(join(dir, 'nested'))).sort();
      expect(files).toEqual(['decay-sweep.svg', 'decay-weights.svg', 'drought-histograms.svg']);
      expect(err.filter((l) => l.startsWith('wrote '))).toHaveLength(3);
      for (const file of files) {
        const svg = await readFile(join(dir, 'nested', file), 'utf8');
        expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
        expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
        expect(svg).not.toMatch(/NaN|undefined|Infinity/);
      }
      const droughts = await readFile(join(dir, 'nested', 'drought-histograms.svg'), 'utf8');
      for (const name of RANDOMIZER_NAMES) expect(droughts).toContain(`${name}: longest drought`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['randomizers', '--pieces', '10'], /--pieces must be an integer from 100/],
    [['randomizers', '--seed=-1'], /--seed must be an integer/],
    [['randomizers', 'extra'], /too many arguments/],
    [['randomizers', '--denominator', 'abc'], /--denominator must be a number/],
  ])('%j fails with usage exit code 2', async (argv, message) => {
    const { io, err } = fakeIO();
    expect(await main(argv as string[], io)).toBe(2);
    expect(err.join('\n')).toMatch(message);
  });

  it('--help describes both commands', async () => {
    for (const command of ['randomizers', 'queue']) {
      const { io, out } = fakeIO();
      expect(await main([command, '--help'], io)).toBe(0);
      expect(out.join('\n')).toMatch(new RegExp(`Usage: stackrank ${command}`));
    }
  });
});
