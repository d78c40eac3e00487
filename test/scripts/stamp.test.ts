/** Build stamps (scripts/stamp.mjs): a step reruns when any input's content, a version or a flag changes. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { inputsHash, root, upToDate, writeStamp } from '../../scripts/stamp.mjs';

const dir = mkdtempSync(join(root, 'build', 'stamp-test-'));
const rel = (name: string) => relative(root, join(dir, name));
const stampName = relative(join(root, 'build'), join(dir, 'step'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('build stamps', () => {
  it('hashes contents, paths and extra strings', () => {
    writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'b.ts'), 'export const b = 2;\n');
    const h = inputsHash([rel('a.ts'), rel('b.ts')], ['tool 1.0']);
    expect(inputsHash([rel('b.ts'), rel('a.ts')], ['tool 1.0'])).toBe(h); // order of the list does not matter
    expect(inputsHash([rel('a.ts'), rel('b.ts')], ['tool 1.1'])).not.toBe(h);
    writeFileSync(join(dir, 'b.ts'), 'export const b = 3;\n');
    expect(inputsHash([rel('a.ts'), rel('b.ts')], ['tool 1.0'])).not.toBe(h);
    expect(inputsHash([rel('a.ts')], ['tool 1.0'])).not.toBe(inputsHash([rel('b.ts')], ['tool 1.0']));
  });

  it('a step is up to date only with the same hash and all its outputs present', () => {
    const out = rel('out.js');
    expect(upToDate(stampName, 'h1', [out])).toBe(false); // never ran
    writeFileSync(join(dir, 'out.js'), '');
    writeStamp(stampName, 'h1');
    expect(existsSync(join(dir, 'step.stamp'))).toBe(true);
    expect(upToDate(stampName, 'h1', [out])).toBe(true);
    expect(upToDate(stampName, 'h2', [out])).toBe(false); // inputs changed
    rmSync(join(dir, 'out.js'));
    expect(upToDate(stampName, 'h1', [out])).toBe(false); // output deleted (tsup's clean step, rm -rf dist)
  });
});
