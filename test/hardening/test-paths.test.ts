/**
 * Tests write and expect only under fresh temporary folders of their own (mkdtemp): a fixed path such as
 * `/nonexistent-dir` or `/tmp/never.srk` may exist on the machine that runs them (an earlier run of `stackrank
 * randomizers --plots /nonexistent-dir/x/plots` creates it), and a test then fails there, or a command under test
 * writes into it. This test looks for the signature of that mistake in the test sources: a quoted absolute path under
 * /tmp, or whose first folder is a made-up "missing" name.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const TEST_ROOT = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && path !== __filename ? [path] : [];
  });
}

/** A quoted absolute path under /tmp, or one whose first folder is named as if it could not exist. */
const FIXED_PATH =
  /(['"`])(\/(?:var\/)?tmp\/[^'"`\s]*|\/[^/'"`\s]*(?:nonexist|missing|never|nowhere|no-such|does-not)[^'"`\s]*)\1/gi;

it('no test names a fixed path outside its own temporary folders', () => {
  const found: string[] = [];
  for (const file of sources(TEST_ROOT)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(FIXED_PATH)) found.push(`${relative(TEST_ROOT, file)}:${i + 1}: ${m[2]}`);
    });
  }
  expect(found).toEqual([]);
});

it('finds the mistake where it is made', () => {
  const matches = (text: string) => [...text.matchAll(FIXED_PATH)].map((m) => m[2]);
  expect(matches(`runCli(['--out', '/nonexistent-dir/t.srk'])`)).toEqual(['/nonexistent-dir/t.srk']);
  expect(matches(`load("/tmp/never.srk")`)).toEqual(['/tmp/never.srk']);
  expect(matches('env: { XDG_CACHE_HOME: `/nowhere` }')).toEqual(['/nowhere']);
  expect(matches(`join(dir, 'missing.json'); get('/etc/passwd'); '/dev/zero'`)).toEqual([]);
});
