/**
 * Regression tests for worker start-up: workers start whatever flags the parent process was given (they get their
 * own execArgv), and a worker that cannot start rejects the call with WORKER_FAILED and its reason.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);
const SCRIPT =
  "import { buildRankTable } from './src/index.ts'; const t = await buildRankTable({ width: 5, maxStep: 2, threads: 2 }); console.log('built', t.size);";

describe("workers under the parent's flags (defect 2)", () => {
  it('build on worker threads from `node --input-type=module -e`', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      timeout: 60_000,
    });
    expect(stdout.trim()).toBe('built 625');
  });

  it('build on worker threads from a module script piped on stdin', async () => {
    const child = execFile(process.execPath, ['--import', 'tsx', '--input-type=module'], {
      cwd: ROOT,
      timeout: 60_000,
    });
    child.stdin!.end(SCRIPT);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'built 625' });
  });
});
