/**
 * The 20G survival table for bench/notes/results.md: the stacking game under the rule set tgm20g (only placements a TGM
 * piece reaches at 20G are played), tgm1 pieces, strategy rank, for the 20G table (`--variant 20g`) and the
 * article's table played at 20G. One table per run, so the two can run side by side on two cores. Piece budgets
 * per lookahead are sized from pilot runs for >= 1,000 deaths. Writes bench/results/<out>.json.
 *
 *   npx tsx bench/survival-20g.ts --table 20g|article [--lookahead 0,1,2] [--budget 35000,60000,120000,...]
 *                                 [--threads 1] [--games 200] [--seed 2009] [--out survival-20g-<table>]
 */
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import { simulateStacking } from '../src/stacking-ai/simulate.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  table: { type: 'string', default: '20g' },
  lookahead: { type: 'string', default: '0,1,2' },
  budget: { type: 'string', default: '35000,60000,120000,200000,250000' },
  threads: { type: 'string', default: '1' },
  games: { type: 'string', default: '200' },
  seed: { type: 'string', default: '2009' },
  out: { type: 'string' },
});
if (args.table !== '20g' && args.table !== 'article') throw new Error('--table must be 20g or article');
const budget = args.budget!.split(',').map(Number);
const { table } = await loadOrBuildCachedTable({ gravity: args.table === '20g' ? '20G' : 'drop' });
const rows = [];
const raw = [];
for (const lookahead of args.lookahead!.split(',').map(Number)) {
  const r = await simulateStacking({
    table,
    rules: 'tgm20g',
    randomizer: 'tgm1',
    lookahead,
    games: Number(args.games),
    maxPieces: budget[lookahead],
    seed: Number(args.seed),
    threads: Number(args.threads),
    onProgress: (p) => process.stderr.write(`\r${args.table} LA${lookahead}: ${p.pieces} pieces ${p.deaths} deaths   `),
  });
  process.stderr.write('\n');
  raw.push(r);
  rows.push({
    table: table.variant,
    rules: r.rules,
    lookahead,
    'mean pieces': r.meanPieces.toFixed(1),
    '95% CI': `${r.ci95[0].toFixed(1)}–${r.ci95[1].toFixed(1)}`,
    deaths: r.deaths,
    pieces: r.pieces,
    tetrises: r.tetrises,
    'pieces/s': Math.round(r.piecesPerSecond),
  });
  console.log(JSON.stringify(rows[rows.length - 1]));
}
printTable(rows);
const out = args.out ?? `survival-20g-${args.table}-la${args.lookahead!.replaceAll(',', '')}`;
console.log(
  `\nwrote ${writeResults(out, { date: new Date().toISOString(), machine: machine(), rules: 'tgm20g', randomizer: 'tgm1', table: table.variant, seed: Number(args.seed), rows, raw })}`,
);
