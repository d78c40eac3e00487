import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { main } from '../../src/cli.js';
import type { CliIO } from '../../src/cli/io.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
  statuses: string[];
}

/** Runs the CLI in-process with captured output. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = {},
  signal?: AbortSignal,
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const statuses: string[] = [];
  const io: CliIO = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    status: (l) => statuses.push(l),
    isTTY: false,
    env,
    signal,
  };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n'), statuses };
}

/**
 * Runs the calling test file from a fresh temporary folder (and back where it was after), so the relative names its
 * commands are given (a misspelt preset that must not be a file, a missing `x.json`) meet no file of the repository
 * or the machine, and whatever a faulty command writes lands there. Test files run in their own process (vitest's
 * forks pool), so the folder change stays in the file.
 */
export function runInFreshFolder(prefix = 'stackrank-cwd-'): void {
  let home: string;
  beforeAll(() => {
    home = process.cwd();
    process.chdir(mkdtempSync(join(tmpdir(), prefix)));
  });
  afterAll(() => process.chdir(home));
}
