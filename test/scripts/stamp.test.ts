/**
 * Build stamps (scripts/stamp.mjs): a step reruns when any input's content, a version or a flag changes, and every
 * step reruns under STACKRANK_FORCE_BUILD=1.
 */
import { execFileSync } from 'node:child_process';
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
    // A renamed input is a changed input (an import of the old name breaks), though its bytes are the same.
    writeFileSync(join(dir, 'c.ts'), 'export const b = 3;\n');
    expect(inputsHash([rel('c.ts')], [])).not.toBe(inputsHash([rel('b.ts')], []));
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
    // Every output must be there: one of two missing reruns the step.
    const other = rel('other.js');
    writeFileSync(join(dir, 'other.js'), '');
    expect(upToDate(stampName, 'h1', [other])).toBe(true);
    expect(upToDate(stampName, 'h1', [other, out])).toBe(false);
  });

  it('STACKRANK_FORCE_BUILD=1 makes a step with its stamp and outputs in place run again', () => {
    writeFileSync(join(dir, 'forced.js'), '');
    writeStamp(stampName, 'h3');
    expect(upToDate(stampName, 'h3', [rel('forced.js')])).toBe(true);
    // The flag is read when the module loads, so the check runs in a fresh Node process.
    const probe = (env: Record<string, string>) =>
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { upToDate } from ${JSON.stringify(join(root, 'scripts', 'stamp.mjs'))};` +
            `console.log(upToDate(${JSON.stringify(stampName)}, 'h3', [${JSON.stringify(rel('forced.js'))}]));`,
        ],
        { encoding: 'utf8', env: { ...process.env, STACKRANK_FORCE_BUILD: '', ...env } },
      ).trim();
    expect(probe({})).toBe('true');
    expect(probe({ STACKRANK_FORCE_BUILD: '1' })).toBe('false');
  });
});
