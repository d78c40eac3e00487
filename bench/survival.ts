/**
 * The survival table for bench/notes/results.md: tgm1, lookahead 0..4, both steep rules, with piece budgets
 * sized for >= 1,000 deaths at lookahead 0-2, >= 300 at 3 and >= 50 at 4. Writes bench/results/survival.json.
 *
 *   npx tsx bench/survival.ts [--randomizer tgm1] [--scale 1] [--threads 2] [--lookahead 0,1,2,3,4]
 *                             [--steep truncate,excessFirst] [--strategy rank] [--tetris forced] [--threshold 8]
 *                             [--budget 150000,500000,...] [--leaf piece-max|preview] [--leaf-iterations 15]
 *                             [--board-height 20] [--table-steep forbid|collapse] [--seed 2009]
 *                             [--out survival]
 */
import { ARTICLE_FIGURES } from '../src/cli/survival.js';
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import { isRandomizerName } from '../src/randomizers/index.js';
import { loadOrBuildCachedPreviewTable } from '../src/rank/variant-cache.js';
import type { StrategyName } from '../src/stacking-ai/strategy.js';
import type { SteepRule } from '../src/stacking-ai/rules.js';
import type { TableSteep } from '../src/rank/moves.js';
import { simulateStacking } from '../src/stacking-ai/simulate.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  randomizer: { type: 'string', default: 'tgm1' },
  scale: { type: 'string', default: '1' },
  threads: { type: 'string' },
  lookahead: { type: 'string', default: '0,1,2,3,4' },
  steep: { type: 'string', default: 'truncate,excessFirst' },
  out: { type: 'string', default: 'survival' },
  budget: { type: 'string' },
  strategy: { type: 'string', default: 'rank' },
  'unknown-pieces': { type: 'string' },
  tetris: { type: 'string', default: 'forced' },
  threshold: { type: 'string', default: '8' },
  leaf: { type: 'string', default: 'piece-max' },
  'board-height': { type: 'string', default: '20' },
  'leaf-iterations': { type: 'string', default: '15' },
  'table-steep': { type: 'string', default: 'forbid' },
  seed: { type: 'string', default: '2009' },
});
const randomizer = args.randomizer!;
if (!isRandomizerName(randomizer)) throw new Error(`unknown randomizer ${randomizer}`);
/** Piece budget per lookahead (scaled), chosen from pilot runs so the death counts clear the minimums bench/notes/results.md states. */
const BUDGET = args.budget ? args.budget.split(',').map(Number) : [150_000, 500_000, 1_500_000, 2_500_000, 2_000_000];
const tableSteep = args['table-steep'] as TableSteep;
const { table } = await loadOrBuildCachedTable({ steep: tableSteep });
// Expectimax leaves: the rank table's best placement per piece, or the randomizer's preview table.
const leafIterations = Number(args['leaf-iterations']);
const previewTable =
  args.leaf === 'preview'
    ? (await loadOrBuildCachedPreviewTable({ randomizer, iterations: leafIterations, steep: tableSteep })).table
    : undefined;
if (args.leaf !== 'preview' && args.leaf !== 'piece-max') throw new Error(`--leaf must be piece-max or preview`);
const rows = [];
const raw = [];
for (const steep of args.steep!.split(',') as SteepRule[]) {
  for (const la of args.lookahead!.split(',').map(Number)) {
    const r = await simulateStacking({
      table,
      randomizer,
      lookahead: la,
      games: 200,
      maxPieces: Math.round(BUDGET[la] * Number(args.scale)),
      seed: Number(args.seed),
      stacking: {
        steep,
        tetris: args.tetris as 'forced' | 'choice',
        tetrisThreshold: Number(args.threshold),
        boardHeight: Number(args['board-height']),
      },
      strategy: args.strategy as StrategyName,
      unknownPieces: args['unknown-pieces'] === undefined ? undefined : (Number(args['unknown-pieces']) as 1 | 2),
      previewTable,
      threads: args.threads ? Number(args.threads) : undefined,
      onProgress: (p) =>
        process.stderr.write(`\r${args.strategy} ${steep} LA${la}: ${p.pieces} pieces ${p.deaths} deaths   `),
    });
    process.stderr.write('\n');
    raw.push({ steep, ...r });
    rows.push({
      strategy: r.strategy === 'rank' ? 'rank' : `expectimax (${r.unknownPieces} unknown)`,
      leaf: r.leaf === 'preview' ? `preview/${leafIterations}` : r.leaf,
      table: table.variant,
      steep,
      tetris: `${args.tetris} at ${args.threshold}`,
      'board height': r.stacking.boardHeight,
      lookahead: la,
      'mean pieces': Math.round(r.meanPieces),
      '95% CI': `${Math.round(r.ci95[0])}–${Math.round(r.ci95[1])}`,
      deaths: r.deaths,
      pieces: r.pieces,
      'pieces/s': Math.round(r.piecesPerSecond),
      // The article's figures are for TGM (tgm1) only.
      article: randomizer === 'tgm1' ? ARTICLE_FIGURES[la] : '–',
      'vs article': randomizer === 'tgm1' ? `${((r.meanPieces / ARTICLE_FIGURES[la]) * 100).toFixed(1)} %` : '–',
    });
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
}
console.log(
  `\nsurvival under ${randomizer}, strategy ${args.strategy}${args['unknown-pieces'] ? ` (${args['unknown-pieces']} unknown pieces)` : ''}, Tetris ${args.tetris} at ${args.threshold}, board height ${args['board-height']}, table ${table.variant} 9x4/15, 200 streams, seed ${args.seed}\n`,
);
printTable(rows);
console.log(
  `\nwrote ${writeResults(args.out!, { date: new Date().toISOString(), machine: machine(), randomizer, strategy: args.strategy, unknownPieces: args['unknown-pieces'], table: table.variant, seed: Number(args.seed), rows, raw })}`,
);
