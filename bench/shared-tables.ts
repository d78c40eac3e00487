/**
 * Memory of many AIs over one table: each configuration runs in its own process and prints its resident memory
 * after every instance has made a move and then played 200 pieces of a game (RSS then, after a garbage
 * collection, and the process's peak).
 *
 *   npx tsx bench/shared-tables.ts             # builds the 9x4 table once into a temporary file
 *   npx tsx bench/shared-tables.ts --table FILE
 *   npx tsx bench/shared-tables.ts --table FILE --preview FILE   # adds expectimax over a preview table's leaves
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { loadPreviewTable } from '../src/rank/preview.js';
import { buildRankTable, loadRankTable } from '../src/rank/table.js';
import { createRandomizer } from '../src/randomizers/index.js';
import { StackingAI } from '../src/stacking-ai/ai.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  table: { type: 'string' },
  preview: { type: 'string' },
  child: { type: 'string' },
});

async function child(kind: string, file: string): Promise<void> {
  // kind: 'rank:N', 'expectimax2:N' (expectimax over two unknown pieces) or 'expectimax2-preview:N' (the same
  // over the --preview table's leaves), N AIs
  const [strategy, countText] = kind.split(':') as ['rank' | 'expectimax2' | 'expectimax2-preview', string];
  const table = await loadRankTable(file);
  const ais: StackingAI[] = [];
  const previewTable = strategy === 'expectimax2-preview' ? await loadPreviewTable(args.preview!) : undefined;
  const options = strategy === 'rank' ? {} : ({ strategy: 'expectimax', unknownPieces: 2, previewTable } as const);
  for (let i = 0; i < Number(countText); i++) ais.push(await StackingAI.create({ table, ...options }));
  const moves = ais.map((ai) => ai.bestPlacement([0, 1, 2, 2, 1, 0, 0, 1, 1], 'TSZ', 1)?.column);
  // Then each plays a game (lookahead 1, tgm1 pieces, a fresh board when it dies), so the figures are those of AIs
  // at work, not just loaded.
  for (const ai of ais) {
    const pieces = createRandomizer('tgm1', { seed: 7 }).take(202);
    let heights: number[] = new Array(table.width).fill(0);
    for (let i = 0; i < 200; i++) {
      const step = ai.bestPlacement(heights, pieces.slice(i, i + 2), 1);
      heights = step ? step.heights : new Array(table.width).fill(0);
    }
  }
  const mib = (b: number) => Math.round(b / 2 ** 20);
  const rss = process.memoryUsage().rss;
  // What stays once garbage is collected (the piece-max rows' temporary kernel memory is garbage by now).
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(
    JSON.stringify({
      rssMiB: mib(rss),
      rssAfterGcMiB: mib(process.memoryUsage().rss),
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      moves,
    }),
  );
}

async function main() {
  let file = args.table;
  let dir: string | null = null;
  if (!file) {
    dir = mkdtempSync(join(os.tmpdir(), 'stackrank-shared-'));
    file = join(dir, 'table.srk');
    await (await buildRankTable()).save(file);
  }
  const configurations = [
    ['rank', 1],
    ['rank', 10],
    ['expectimax2', 1],
    ...(args.preview ? [['expectimax2-preview', 1]] : []),
  ];
  const rows = configurations.map(([strategy, count]) => {
    const preview = args.preview ? ['--preview', args.preview] : [];
    const out = JSON.parse(
      execFileSync(
        process.execPath,
        [
          ...process.execArgv,
          '--expose-gc',
          process.argv[1],
          '--table',
          file!,
          ...preview,
          '--child',
          `${strategy}:${count}`,
        ],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      ),
    );
    return {
      AIs: `${count} x ${strategy} (one table)`,
      'RSS MiB': out.rssMiB,
      'RSS after GC MiB': out.rssAfterGcMiB,
      'peak RSS MiB': out.peakRssMiB,
      'same move': new Set(out.moves).size === 1 ? 'yes' : 'no',
    };
  });
  if (dir) rmSync(dir, { recursive: true, force: true });
  console.log(`\nStackingAI memory, 9x4 table, ${machine().cpu}, load ${machine().loadAverage.join(' ')}\n`);
  printTable(rows);
  console.log(`\nwrote ${writeResults('shared-tables', { date: new Date().toISOString(), machine: machine(), rows })}`);
}

if (args.child) await child(args.child, args.table!);
else await main();
