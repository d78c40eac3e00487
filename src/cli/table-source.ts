/** How CLI commands that need a rank table get one: --table FILE, or the cached default (built with progress). */
import { loadOrBuildCachedTable } from '../rank/cache.js';
import { MAX_ITERATIONS } from '../rank/build.js';
import { loadRankTable, type RankTable } from '../rank/table.js';
import { intOption } from './args.js';
import type { CliIO } from './io.js';
import { progressLine } from './progress.js';

export const tableOptions = {
  table: { type: 'string' },
  iterations: { type: 'string' },
} as const;

export async function loadTableForCli(values: { table?: string; iterations?: string }, io: CliIO): Promise<RankTable> {
  if (values.table) return loadRankTable(values.table);
  const iterations = intOption('iterations', values.iterations, 15, 1, MAX_ITERATIONS);
  const { table, cached, path } = await loadOrBuildCachedTable({
    iterations,
    env: io.env,
    signal: io.signal,
    onProgress: (p) => io.status(progressLine('building rank table, iteration', p.iteration, p.iterations, p.elapsedMs, p.etaMs)),
  });
  io.status('');
  if (!cached) io.err(`built and cached ${path}`);
  return table;
}
