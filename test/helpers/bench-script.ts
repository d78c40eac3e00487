import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs a benchmark script as its usage says (`npx tsx bench/NAME.ts ARGS`: node with tsx, from the repository's
 * root), its output captured, for at most a minute. Its results file (bench/common.ts writeResults) goes to
 * `resultsDir` where given, so a test never writes over the repository's bench/results.
 */
export function runBenchScript(script: string, args: string[], resultsDir?: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', 'tsx', `bench/${script}`, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: resultsDir === undefined ? process.env : { ...process.env, BENCH_RESULTS_DIR: resultsDir },
  });
}
