/**
 * The reach records' disk cache (src/stacking-ai/reach-cache.ts): for each rule set, two fresh processes over one
 * empty cache folder: the first derives the 9-column records and writes them, the second reads them. Times are of
 * the records alone (cachedReachTable), wall and CPU.
 *
 *   npx tsx bench/reach-cache.ts [--rules tgm20g,nesUntimed,tgm,guideline] [--width 9]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { placementTable } from '../src/stacking-ai/placements.js';
import { cachedReachTable } from '../src/stacking-ai/reach-cache.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import type { RuleSetName } from '../src/rules/types.js';

const { values: args } = benchArgs(import.meta.url, {
  rules: { type: 'string', default: 'tgm20g,nesUntimed,tgm,guideline' },
  width: { type: 'string', default: '9' },
  child: { type: 'string' },
  cache: { type: 'string' },
});
const width = Number(args.width);

async function child(rules: string, cache: string): Promise<void> {
  const placements = placementTable(width).placements;
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const r = await cachedReachTable(rules as RuleSetName, width, 4, 20, placements, { XDG_CACHE_HOME: cache });
  const { user, system } = process.cpuUsage(cpu);
  process.stdout.write(
    JSON.stringify({
      seconds: (performance.now() - wall) / 1000,
      cpuSeconds: (user + system) / 1e6,
      cached: r.cached,
      bytes: r.path ? statSync(r.path).size : 0,
      records: r.table ? r.table.records.length : 0,
    }),
  );
}

async function main() {
  const rows: Record<string, string | number>[] = [];
  for (const rules of args.rules.split(',')) {
    const cache = mkdtempSync(join(os.tmpdir(), 'stackrank-reach-bench-'));
    for (const run of ['first process (derives, writes)', 'second process (reads)']) {
      const out = JSON.parse(
        execFileSync(
          process.execPath,
          [...process.execArgv, process.argv[1], '--width', args.width, '--child', rules, '--cache', cache],
          {
            encoding: 'utf8',
          },
        ),
      );
      rows.push({
        rules,
        run,
        'from cache': out.cached ? 'yes' : 'no',
        'wall s': out.seconds.toFixed(3),
        'CPU s': out.cpuSeconds.toFixed(3),
        'file bytes': out.bytes,
      });
    }
    rmSync(cache, { recursive: true, force: true });
  }
  console.log(`\nreach records, ${width} columns, ${machine().cpu}, load ${machine().loadAverage.join(' ')}\n`);
  printTable(rows);
  console.log(
    `\nwrote ${writeResults('reach-cache', { date: new Date().toISOString(), machine: machine(), width, rows })}`,
  );
}

if (args.child) await child(args.child, args.cache!);
else await main();
