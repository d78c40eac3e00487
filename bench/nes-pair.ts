/**
 * Two `stackrank bench nes` runs of the same games compared game by game (bench/notes/nes.md, "How big a difference
 * a screen can see"). Games depend only on the seed and the game number, so two policies' games are the same games
 * until their first different move: the difference of the two averages is judged by the spread of the per-game
 * differences (a paired comparison), not by each average's own interval. Prints, overall and per level band, the
 * two averages, the mean difference B - A with its standard error and 95 % interval, and how many games scored the
 * same; writes bench/results/nes-pair.json (`--json` prints the same rows as one JSON object instead).
 *
 *   stackrank bench nes --games 1000 --seed 7 --threads 2 --out a.json          # policy A
 *   stackrank bench nes --games 1000 --seed 7 --threads 2 --out b.json          # policy B
 *   npx tsx bench/nes-pair.ts --a a.json --b b.json [--json]
 *
 * Both files must be finished run files (merged shards or whole runs) of the same seed and games: of `bench nes`, or
 * of `bench game` under a timed rule set (`--rules nes` plays the same games, with options `bench nes` does not
 * have, such as `--leaf`; its AI's games are compared). Their other parameters may differ (that is the comparison).
 * Exits 2 naming the problem otherwise.
 */
import { StackRankError } from '../src/errors.js';
import { meanInterval } from '../src/tetris-ai/intervals.js';
import { NES_LEVEL_BANDS } from '../src/tetris-ai/nes-stats.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import { type NesGameRecord, type NesRun, readNesRun } from './nes-runs.js';

interface PairedGame {
  game: number;
  /** Total score, then the score of each band. */
  a: number[];
  b: number[];
}

interface PairedRow {
  measure: string;
  games: number;
  meanA: number;
  meanB: number;
  /** Mean of B - A over the games. */
  difference: number;
  /** Its standard error: the per-game differences' sample standard deviation / sqrt(games) (0 for one game). */
  standardError: number;
  low95: number;
  high95: number;
  /** Games whose two scores on this measure are equal. */
  equal: number;
}

/** Mean difference, standard error and 95 % interval (normal approximation) of column `k` of the pairs. */
function pairedRow(measure: string, pairs: PairedGame[], k: number): PairedRow {
  const d = meanInterval(pairs.map((p) => p.b[k] - p.a[k]));
  return {
    measure,
    games: pairs.length,
    meanA: meanInterval(pairs.map((p) => p.a[k])).mean,
    meanB: meanInterval(pairs.map((p) => p.b[k])).mean,
    difference: d.mean,
    standardError: d.standardError ?? 0,
    low95: d.ci95?.[0] ?? d.mean,
    high95: d.ci95?.[1] ?? d.mean,
    equal: pairs.filter((p) => p.b[k] === p.a[k]).length,
  };
}

/** The games both files played, paired; throws BAD_ARGUMENT when the seeds or the games differ. */
function pairRuns(runA: NesRun, runB: NesRun): PairedGame[] {
  const [a, b] = [runA.run, runB.run];
  if (a.params.seed !== b.params.seed)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `the runs have different seeds (${String(a.params.seed)} and ${String(b.params.seed)}), so different games`,
    );
  const scores = (r: NesGameRecord) => [r.nes.score, ...r.nes.bandScore];
  const gamesA = new Map([...runA.games].map(([g, r]) => [g, scores(r)]));
  const gamesB = new Map([...runB.games].map(([g, r]) => [g, scores(r)]));
  if (gamesA.size !== gamesB.size || [...gamesA.keys()].some((g) => !gamesB.has(g)))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `the runs hold different games (A ${a.shard.start}..${a.shard.end - 1}, B ${b.shard.start}..${b.shard.end - 1})`,
    );
  return [...gamesA.keys()].sort((x, y) => x - y).map((game) => ({ game, a: gamesA.get(game)!, b: gamesB.get(game)! }));
}

function pairedRows(pairs: PairedGame[]): PairedRow[] {
  return [pairedRow('score', pairs, 0), ...NES_LEVEL_BANDS.map((b, i) => pairedRow(`score ${b.label}`, pairs, i + 1))];
}

const { values: args } = benchArgs(import.meta.url, {
  a: { type: 'string' },
  b: { type: 'string' },
  json: { type: 'boolean', default: false },
});
if (!args.a || !args.b) {
  console.error(
    '--a FILE and --b FILE are required: two run files with NES scores (bench nes, or bench game under a timed rule set)',
  );
  process.exit(2);
}
let rows: PairedRow[];
try {
  rows = pairedRows(pairRuns(await readNesRun(args.a, 'A'), await readNesRun(args.b, 'B')));
} catch (e) {
  if (!(e instanceof StackRankError)) throw e;
  console.error(`nes-pair: ${e.message} [${e.code}]`);
  process.exit(2);
}
if (args.json) {
  console.log(JSON.stringify({ a: args.a, b: args.b, rows }));
  process.exit(0);
}
const path = writeResults('nes-pair', { machine: machine(), a: args.a, b: args.b, rows });
console.log(`A ${args.a}, B ${args.b}: B - A over the same games`);
printTable(
  rows.map((r) => ({
    measure: r.measure,
    games: r.games,
    'A average': Math.round(r.meanA),
    'B average': Math.round(r.meanB),
    'B - A': Math.round(r.difference),
    's.e.': Math.round(r.standardError),
    '95 % interval': `${Math.round(r.low95).toLocaleString('en-US')} to ${Math.round(r.high95).toLocaleString('en-US')}`,
    'equal games': r.equal,
  })),
);
console.log(`wrote ${path}`);
