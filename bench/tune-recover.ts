/**
 * Tunes recover mode's weights (bench/notes/results.md, "Recover weights tuned"). Each of the
 * evaluator's twelve terms is its starting weight times e^x; a generation draws `population` vectors x around the
 * current centre (the centre itself is the first), plays every one on the same games (playGame with
 * recover.weights, seed + generation), scores each by its Tetris rate in points less `top-out-cost` per top-out,
 * and moves the centre to the mean of the best third (each spread to that third's, at least 0.08). The starting
 * weights play every generation's games too, as the baseline. Prints one row per generation and the final weights;
 * writes bench/results/<out>.json (every candidate, its weights and score).
 *
 *   npx tsx bench/tune-recover.ts [--rules nesUntimed] [--randomizer nes] [--games 20] [--max-pieces 5000]
 *                                 [--population 14] [--generations 8] [--sigma 0.35] [--seed 100]
 *                                 [--sampler-seed 1] [--top-out-cost 1] [--from weights.json|hand-set]
 *                                 [--threads 2] [--out tune-recover]
 *
 * --from starts from other weights than the defaults (RECOVER_WEIGHTS): a JSON file holding an object of weights by
 * name (terms it leaves out keep their default) or an earlier run's results (its `final`), or `hand-set`, the
 * weights before any tuning (BCTS's with hand-set recover terms). The defaults came from two runs, made when nes
 * stacked over floors of up to 4 rows with a recover beam of 12 and no chance ply (bench/notes/results.md, "Floors of at most
 * 2 rows"), so today's defaults do not replay them:
 *
 *   npx tsx bench/tune-recover.ts --from hand-set --out tune-recover-1
 *   npx tsx bench/tune-recover.ts --from bench/results/tune-recover-1.json --sigma 0.2 --generations 6
 *                                 --population 12 --max-pieces 10000 --seed 200 --top-out-cost 2 --out tune-recover-2
 */
import { PLAIN_BCTS_WEIGHTS, RECOVER_TERMS, RECOVER_WEIGHTS } from '../src/tetris-ai/evaluate.js';
import type { RecoverWeights } from '../src/kernels/recover.js';
import { loadRecoverWeights } from '../src/cli/game.js';
import { playGame } from '../src/tetris-ai/play.js';
import { defaultGameRandomizer } from '../src/tetris-ai/rules-adapter.js';
import type { RandomizerName } from '../src/randomizers/index.js';
import type { RuleSetName } from '../src/rules/types.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import { crossEntropySearch } from './cross-entropy.js';

const { values: args } = benchArgs(import.meta.url, {
  rules: { type: 'string', default: 'nesUntimed' },
  randomizer: { type: 'string' },
  games: { type: 'string', default: '20' },
  'max-pieces': { type: 'string', default: '5000' },
  population: { type: 'string', default: '14' },
  generations: { type: 'string', default: '8' },
  sigma: { type: 'string', default: '0.35' },
  seed: { type: 'string', default: '100' },
  'sampler-seed': { type: 'string', default: '1' },
  'top-out-cost': { type: 'string', default: '1' },
  from: { type: 'string' },
  threads: { type: 'string', default: '2' },
  out: { type: 'string', default: 'tune-recover' },
});
const rules = args.rules as RuleSetName;
const randomizer = (args.randomizer ?? defaultGameRandomizer(rules)) as RandomizerName;
const games = Number(args.games);
const maxPieces = Number(args['max-pieces']);
const population = Number(args.population);
const generations = Number(args.generations);
const topOutCost = Number(args['top-out-cost']);
const threads = Number(args.threads);
/** The weights before any tuning: BCTS's, and the recover terms set by hand (bench/notes/results.md). */
const HAND_SET: RecoverWeights = { ...PLAIN_BCTS_WEIGHTS, wellCells: -10, clean: 60, floorRows: -10, wellCover: -10 };

async function startingWeights(from: string | undefined): Promise<RecoverWeights> {
  if (from === undefined) return RECOVER_WEIGHTS;
  if (from === 'hand-set') return HAND_SET;
  // A weights file, or an earlier run's results (it starts from where that run ended), read as bench game reads them.
  return loadRecoverWeights(from, '--from');
}
const start = await startingWeights(args.from);

/** A vector x as weights: each term's starting weight times e^x, to 3 decimals. */
function weightsOf(x: readonly number[]): RecoverWeights {
  const w: Record<string, number> = {};
  RECOVER_TERMS.forEach((term, i) => {
    w[term] = Math.round(start[term] * Math.exp(x[i]) * 1000) / 1000;
  });
  return w as unknown as RecoverWeights;
}

interface Scored {
  x: number[];
  weights: RecoverWeights;
  tetrisRate: number;
  topOuts: number;
  pieces: number;
  score: number;
}

async function score(weights: RecoverWeights, seed: number): Promise<Omit<Scored, 'x'>> {
  const r = await playGame({ rules, randomizer, lookahead: 1, games, maxPieces, seed, threads, recover: { weights } });
  const tetrisRate = r.tetrisRate * 100;
  return { weights, tetrisRate, topOuts: r.topOuts, pieces: r.pieces, score: tetrisRate - topOutCost * r.topOuts };
}

const { rows, history, final } = await crossEntropySearch({
  dims: RECOVER_TERMS.length,
  generations,
  population,
  spread: Number(args.sigma),
  minSpread: 0.08,
  seed: Number(args.seed),
  samplerSeed: Number(args['sampler-seed']),
  digits: 2,
  weightsOf,
  baseline: start,
  score,
});
printTable(rows);
console.log(`\nfinal weights (score: Tetris rate in points − ${topOutCost} per top-out):`);
console.log(JSON.stringify(final));
const path = writeResults(args.out, {
  machine: machine(),
  options: {
    rules,
    randomizer,
    games,
    maxPieces,
    population,
    generations,
    sigma: Number(args.sigma),
    seed: Number(args.seed),
    samplerSeed: Number(args['sampler-seed']),
    topOutCost,
    threads,
  },
  start,
  final,
  generations: history,
});
console.log(`wrote ${path}`);
