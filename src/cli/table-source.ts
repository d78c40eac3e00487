/** How CLI commands that need a rank table get one: --table FILE, or the cached default (built with progress). */
import { loadOrBuildCachedTable } from '../rank/cache.js';
import { loadRankTable, type RankTable } from '../rank/table.js';
import type { TableGravity } from '../rank/build.js';
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
  /** '20G': the cached 20G table (rule set tgm20g, docs/rules.md), which is built with steep 'forbid' only. */
  gravity: TableGravity = 'drop',
): Promise<RankTable> {
  if (values.table !== undefined) {
    if (given('tableSteep'))
      throw new UsageError('--table-steep picks the cached table; it does not go with --table FILE');
    if (given('iterations'))
      throw new UsageError('--iterations picks the cached table; it does not go with --table FILE');
    return loadRankTable(values.table);
  }
  if (gravity === '20G' && values.tableSteep !== 'forbid')
    throw new UsageError('the 20G table is iterated forbidding steep placements only; drop --table-steep');
  const { table, cached, path } = await loadOrBuildCachedTable({
    iterations: values.iterations,
    steep: values.tableSteep,
    gravity,
    env: io.env,
    signal: io.signal,
    onProgress: (p) =>
      io.status(progressLine('building rank table, iteration', p.iteration, p.iterations, p.elapsedMs, p.etaMs)),
  });
  io.status('');
  if (!cached) io.err(`built and cached ${path}`);
  return table;
}
