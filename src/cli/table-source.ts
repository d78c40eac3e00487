/** How CLI commands that need a rank table get one: --table FILE, or the cached default (built with progress). */
import { loadOrBuildCachedTable } from '../rank/cache.js';
import { loadRankTable, type RankTable } from '../rank/table.js';
import type { TableSteep } from '../rank/moves.js';
import { UsageError } from './args.js';
import type { CliIO } from './io.js';
import { progressLine } from './progress.js';

export interface TableSourceValues {
  table?: string;
  iterations: number;
  tableSteep: TableSteep;
}

export async function loadTableForCli(
  values: TableSourceValues,
  given: (name: 'tableSteep' | 'iterations') => boolean,
  io: CliIO,
): Promise<RankTable> {
  if (values.table !== undefined) {
    if (given('tableSteep'))
      throw new UsageError('--table-steep picks the cached table; it does not go with --table FILE');
    if (given('iterations'))
      throw new UsageError('--iterations picks the cached table; it does not go with --table FILE');
    return loadRankTable(values.table);
  }
  const { table, cached, path } = await loadOrBuildCachedTable({
    iterations: values.iterations,
    steep: values.tableSteep,
    env: io.env,
    signal: io.signal,
    onProgress: (p) =>
      io.status(progressLine('building rank table, iteration', p.iteration, p.iterations, p.elapsedMs, p.etaMs)),
  });
  io.status('');
  if (!cached) io.err(`built and cached ${path}`);
  return table;
}
