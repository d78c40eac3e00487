/**
 * Tunes the versus evaluator's weights (bench/notes/versus.md) by the cross-entropy method, as
 * bench/tune-recover.ts tunes recover mode's. Each term's weight is its starting weight plus x times its scale (the
 * starting weight's size, at least `--floor`), so a weight may change sign; a generation draws `population` vectors
 * x around the current centre (the centre itself is the first), plays every one on the same games (playGame under
 * guideline with goal 'versus', seed + generation, optionally with garbage), scores each by its attack per piece less
 * `top-out-cost` per top-out per game, and moves the centre to the mean of the best third (each spread to that
 * third's, at least `--min-sigma`). The starting weights play every generation's games too, as the baseline. Prints
 * one row per generation and the final weights; writes bench/results/<out>.json (every candidate, its weights and
 * score).
 *
 *   npx tsx bench/tune-versus.ts [--games 8] [--max-pieces 400] [--beam 8] [--population 12] [--generations 10]
 *                                [--sigma 0.3] [--min-sigma 0.05] [--floor 20] [--seed 1000] [--sampler-seed 1]
 *                                [--top-out-cost 0.5] [--garbage 1-2/8-12] [--from weights.json] [--only a,b,...]
 *                                [--threads 2] [--out tune-versus]
 *
 * --from starts from other weights than the defaults (VERSUS_WEIGHTS): a JSON object of weights by name or an
 * earlier run's results (its `final`). --only tunes those terms alone (the others stay at their starting weights).
 */
import { loadVersusWeights, parseGarbage } from '../src/cli/game.js';
import { playGame } from '../src/tetris-ai/play.js';
import { VERSUS_TERMS, VERSUS_WEIGHTS, type VersusWeights } from '../src/tetris-ai/versus.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import { crossEntropySearch } from './cross-entropy.js';

const { values: args } = benchArgs(import.meta.url, {
  games: { type: 'string', default: '8' },
  'max-pieces': { type: 'string', default: '400' },
  beam: { type: 'string', default: '8' },
  population: { type: 'string', default: '12' },
  generations: { type: 'string', default: '10' },
  sigma: { type: 'string', default: '0.3' },
  'min-sigma': { type: 'string', default: '0.05' },
  floor: { type: 'string', default: '20' },
  seed: { type: 'string', default: '1000' },
  'sampler-seed': { type: 'string', default: '1' },
  'top-out-cost': { type: 'string', default: '0.5' },
  garbage: { type: 'string' },
  from: { type: 'string' },
  only: { type: 'string' },
  threads: { type: 'string', default: '2' },
  out: { type: 'string', default: 'tune-versus' },
});
const games = Number(args.games);
const maxPieces = Number(args['max-pieces']);
const beam = Number(args.beam);
const population = Number(args.population);
const generations = Number(args.generations);
const topOutCost = Number(args['top-out-cost']);
const threads = Number(args.threads);
const minSigma = Number(args['min-sigma']);
const floor = Number(args.floor);
const garbage = args.garbage === undefined ? undefined : parseGarbage(args.garbage);
const start: VersusWeights = args.from === undefined ? VERSUS_WEIGHTS : await loadVersusWeights(args.from, '--from');
const tuned = args.only === undefined ? [...VERSUS_TERMS] : args.only.split(',');
for (const t of tuned) if (!(VERSUS_TERMS as readonly string[]).includes(t)) throw new Error(`unknown term ${t}`);
const scale = tuned.map((t) => Math.max(Math.abs(start[t as keyof VersusWeights]), floor));

/** A vector x as weights: each tuned term's starting weight plus x times its scale, to 1 decimal. */
function weightsOf(x: readonly number[]): VersusWeights {
  const w: Record<string, number> = { ...start };
  tuned.forEach((term, i) => {
    w[term] = Math.round((start[term as keyof VersusWeights] + x[i] * scale[i]) * 10) / 10;
  });
  return w as unknown as VersusWeights;
}

interface Scored {
  x: number[];
  weights: VersusWeights;
  attackPerPiece: number;
  topOuts: number;
  pieces: number;
  score: number;
}

async function score(weights: VersusWeights, seed: number): Promise<Omit<Scored, 'x'>> {
  const r = await playGame({
    rules: 'guideline',
    goal: 'versus',
    versus: { beam, weights },
    games,
    maxPieces,
    seed,
    threads,
    garbage,
  });
  const attackPerPiece = r.versus!.attackPerPiece;
  const s = attackPerPiece - (topOutCost * r.topOuts) / games;
  return { weights, attackPerPiece, topOuts: r.topOuts, pieces: r.pieces, score: s };
}

const { rows, history, final } = await crossEntropySearch({
  dims: tuned.length,
  generations,
  population,
  spread: Number(args.sigma),
  minSpread: minSigma,
  seed: Number(args.seed),
  samplerSeed: Number(args['sampler-seed']),
  digits: 3,
  weightsOf,
  baseline: start,
  score,
  onGeneration: (generation, centre) => console.error(JSON.stringify({ generation, centre })),
});
printTable(rows);
console.log(`\nfinal weights (score: attack per piece − ${topOutCost} per top-out per game):`);
console.log(JSON.stringify(final));
const path = writeResults(args.out, {
  machine: machine(),
  options: {
    games,
    maxPieces,
    beam,
    population,
    generations,
    sigma: Number(args.sigma),
    minSigma,
    floor,
    seed: Number(args.seed),
    samplerSeed: Number(args['sampler-seed']),
    topOutCost,
    garbage: args.garbage ?? null,
    only: args.only ?? null,
    threads,
  },
  start,
  final,
  generations: history,
});
console.log(`wrote ${path}`);
