/** How CLI commands that need a rank table get one: --table FILE, or the cached default (built with progress). */
import { StackRankError } from '../errors.js';
import { loadOrBuildCachedTable } from '../rank/cache.js';
import { HEADER_BYTES, decodeFixedHeader } from '../rank/file.js';
import { readFileHead } from '../rank/node-io.js';
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
  /** Set in commands that take --leaf (src/cli/leaf.ts): a preview table file is then pointed to --leaf preview. */
  leaf?: string;
}

/**
 * The values per surface of the table file at `path` by its 64-byte header (read by the project's one reader, so a
 * FIFO or device is never opened for reading); null when that cannot be told.
 */
async function slotsOf(path: string): Promise<number | null> {
  try {
    const head = await readFileHead(path, HEADER_BYTES, 'rank table');
    if (head.byteLength < HEADER_BYTES) return null;
    return decodeFixedHeader(head).slots;
  } catch {
    return null; // loadRankTable reports what is wrong with the file
  }
}

/**
 * Refuses a preview table file (8 values per surface) given as --table before reading all of it, saying what the
 * CLI takes instead (the library's own message names the library's loader).
 */
async function refusePreviewTable(values: TableSourceValues, path: string): Promise<void> {
  const slots = await slotsOf(path);
  if (slots === null || slots === 1) return;
  throw new StackRankError(
    'TABLE_MISMATCH',
    `--table ${path} is a preview table (${slots} values per surface), not a rank table: give a rank table file (stackrank table build --variant article, weighted or 20g --out FILE), or leave --table out to use the cached rank table${values.leaf === undefined ? '' : "; preview tables are the search's leaves with --leaf preview, which uses the cached one (built there on first use)"}`,
  );
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
    await refusePreviewTable(values, values.table);
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
