/** How CLI commands that need a rank table get one: --table FILE, or the cached default (built with progress). */
import { loadOrBuildCachedTable } from '../rank/cache.js';
import { MAX_ITERATIONS } from '../rank/build.js';
import { loadRankTable, type RankTable } from '../rank/table.js';
import { TABLE_STEEP, type TableSteep } from '../rank/moves.js';
import { UsageError, intOption } from './args.js';
import type { CliIO } from './io.js';
import { progressLine } from './progress.js';

export const tableOptions = {
  table: { type: 'string' },
  iterations: { type: 'string' },
  'table-steep': { type: 'string' },
} as const;

/** --steep of `table build` and --table-steep elsewhere: what the rank iteration does with steep placements. */
export function tableSteepOption(v: string | undefined, name = 'steep'): TableSteep {
  if (v === undefined) return 'forbid';
  if ((TABLE_STEEP as readonly string[]).includes(v)) return v as TableSteep;
  throw new UsageError(`--${name} must be one of ${TABLE_STEEP.join(', ')}; got ${JSON.stringify(v)}`);
}

export async function loadTableForCli(values: { table?: string; iterations?: string; 'table-steep'?: string }, io: CliIO): Promise<RankTable> {
  if (values.table && values['table-steep'] !== undefined) throw new UsageError('--table-steep picks the cached table; it does not go with --table FILE');
  if (values.table) return loadRankTable(values.table);
  const iterations = intOption('iterations', values.iterations, 15, 1, MAX_ITERATIONS);
  const { table, cached, path } = await loadOrBuildCachedTable({
    iterations,
    steep: tableSteepOption(values['table-steep'], 'table-steep'),
    env: io.env,
    signal: io.signal,
    onProgress: (p) => io.status(progressLine('building rank table, iteration', p.iteration, p.iterations, p.elapsedMs, p.etaMs)),
  });
  io.status('');
  if (!cached) io.err(`built and cached ${path}`);
  return table;
}
