/** The demo's TypeScript is type-checked against the library sources (Vite only strips types when it bundles). */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

it('demo/ type-checks against the library', async () => {
  const result = await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'demo')],
    { cwd: ROOT },
  ).then(
    () => '',
    (e: { stdout: string; stderr: string }) => e.stdout + e.stderr,
  );
  expect(result).toBe('');
});
