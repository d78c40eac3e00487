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
