/**
 * Tunes recover mode's weights (bench/notes/results.md, "Recover weights tuned"). Each of the
 * evaluator's twelve terms is its starting weight times e^x; a generation draws `population` vectors x around the
 * current centre (the centre itself is the first), plays every one on the same games (playGame with
 * recover.weights, seed + generation), scores each by its Tetris rate in points less `top-out-cost` per top-out,
 * and moves the centre to the mean of the best third (each spread to that third's, at least 0.08). The starting
 * weights play every generation's games too, as the baseline. Prints one row per generation and the final weights;
 * writes bench/results/<out>.json (every candidate, its weights and score).
 *
 * --nes-max-level L plays the timed NES competition format instead (the games of `stackrank bench nes --max-level L`:
 * start 18, tapping `X.`, reaction 18, docs/game.md "NES Tetris: the competition format"; 0 for no cap, the main
 * format's 49 with its double killscreen at 39) and scores each candidate by its average NES score less
 * `top-out-cost` (default 0 here) times its share of games that topped out before the cap: a game lost before level
 * 29 also loses what the main format's games make from 29 (about 600,000), which the cap-29 score does not see
 * (--rules, --randomizer and --max-pieces do not apply). --nes-start-level S and --nes-double-killscreen D (0: none)
 * play that format from another start level or with the double killscreen elsewhere, as `bench nes --start-level S
 * --double-killscreen D` does: from start 29 with D 29 every move is at the double killscreen's speed. Every candidate of a
 * generation plays the same games (common random numbers); keep its seeds apart from the held-out seeds a result is
 * checked on (bench/notes/nes.md, "Recover weights tuned for the timed game").
 *
 *   npx tsx bench/tune-recover.ts [--rules nesUntimed] [--randomizer nes] [--games 20] [--max-pieces 5000]
 *                                 [--population 14] [--generations 8] [--sigma 0.35] [--seed 100]
 *                                 [--sampler-seed 1] [--top-out-cost 1] [--from weights.json|hand-set|recover|bcts]
 *                                 [--nes-max-level 29] [--nes-start-level 18] [--nes-double-killscreen 39]
 *                                 [--threads 2] [--out tune-recover]
 *
 * --from starts from other weights than the defaults (RECOVER_WEIGHTS; NES_RECOVER_WEIGHTS with --nes-max-level): a JSON file holding an object of weights by
 * name (terms it leaves out keep their default) or an earlier run's results (its `final`), or `hand-set`, the
 * weights before any tuning (BCTS's with hand-set recover terms), `recover` (RECOVER_WEIGHTS) or `bcts`
 * (PLAIN_BCTS_WEIGHTS). The defaults came from two runs, made when nes
 * stacked over floors of up to 4 rows with a recover beam of 12 and no chance ply (bench/notes/results.md, "Floors of at most
 * 2 rows"), so today's defaults do not replay them:
 *
 *   npx tsx bench/tune-recover.ts --from hand-set --out tune-recover-1
 *   npx tsx bench/tune-recover.ts --from bench/results/tune-recover-1.json --sigma 0.2 --generations 6
 *                                 --population 12 --max-pieces 10000 --seed 200 --top-out-cost 2 --out tune-recover-2
 *
 * FLOOR_RECOVER_WEIGHTS (the timed game's weights where its limit is at its floor) came from games played wholly at
 * the double killscreen's speed, 100 lines each (bench/notes/nes.md, "Floor recover weights tuned for the double
 * killscreen"):
 *
 *   npx tsx bench/tune-recover.ts --nes-start-level 15 --nes-double-killscreen 15 --nes-max-level 16 --from bcts
 *                                 --games 200 --population 14 --generations 8 --sigma 0.3 --seed 3000 --threads 1
 *                                 --out tune-floor
 */
import { NES_RECOVER_WEIGHTS, PLAIN_BCTS_WEIGHTS, RECOVER_TERMS, RECOVER_WEIGHTS } from '../src/tetris-ai/evaluate.js';
import type { RecoverWeights } from '../src/kernels/recover.js';
import { loadRecoverWeights } from '../src/cli/game.js';
import { playGame } from '../src/tetris-ai/play.js';
import { defaultGameRandomizer } from '../src/tetris-ai/rules-adapter.js';
import { nesFormat } from '../src/rules/nes-game.js';
import { NES_DOUBLE_KILLSCREEN } from '../src/rules/timing.js';
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
  'top-out-cost': { type: 'string' },
  from: { type: 'string' },
  'nes-max-level': { type: 'string' },
  'nes-start-level': { type: 'string' },
  'nes-double-killscreen': { type: 'string' },
  threads: { type: 'string', default: '2' },
  out: { type: 'string', default: 'tune-recover' },
});
const rules = args.rules as RuleSetName;
const randomizer = (args.randomizer ?? defaultGameRandomizer(rules)) as RandomizerName;
const games = Number(args.games);
const maxPieces = Number(args['max-pieces']);
const population = Number(args.population);
const generations = Number(args.generations);
const threads = Number(args.threads);
/** The double killscreen's level played: the competition's unless given; 0 is none (null). nesFormat checks it. */
const doubleKillscreen =
  args['nes-double-killscreen'] === undefined
    ? NES_DOUBLE_KILLSCREEN
    : args['nes-double-killscreen'] === '0'
      ? null
      : Number(args['nes-double-killscreen']);
/** The timed NES format (--nes-max-level), or null for the untimed game scored by its Tetris rate. */
const nes =
  args['nes-max-level'] === undefined
    ? null
    : nesFormat({
        maxLevel: Number(args['nes-max-level']) === 0 ? null : Number(args['nes-max-level']),
        ...(args['nes-start-level'] === undefined ? {} : { startLevel: Number(args['nes-start-level']) }),
        doubleKillscreen,
      });
const topOutCost = Number(args['top-out-cost'] ?? (nes ? 0 : 1));
/** The weights before any tuning: BCTS's, and the recover terms set by hand (bench/notes/results.md). */
const HAND_SET: RecoverWeights = { ...PLAIN_BCTS_WEIGHTS, wellCells: -10, clean: 60, floorRows: -10, wellCover: -10 };

/** The game's default weights: the timed NES game's own (NES_RECOVER_WEIGHTS) with --nes-max-level. */
const defaults = nes ? NES_RECOVER_WEIGHTS : RECOVER_WEIGHTS;

async function startingWeights(from: string | undefined): Promise<RecoverWeights> {
  if (from === undefined) return defaults;
  if (from === 'hand-set') return HAND_SET;
  if (from === 'recover') return RECOVER_WEIGHTS;
  if (from === 'bcts') return PLAIN_BCTS_WEIGHTS;
  // A weights file, or an earlier run's results (it starts from where that run ended), read as bench game reads them.
  return loadRecoverWeights(from, '--from', undefined, defaults);
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
  if (nes) {
    // bench nes's games (src/cli/nes.ts): the format's rules and cap, lookahead 1, up to 10,000 pieces.
    const r = await playGame({
      rules: nes.rules,
      maxLevel: nes.maxLevel,
      lookahead: 1,
      games,
      maxPieces: 10_000,
      seed,
      threads,
      recover: { weights },
    });
    const score = r.nes!.averageScore - (topOutCost * r.topOuts) / games;
    return { weights, tetrisRate: r.tetrisRate * 100, topOuts: r.topOuts, pieces: r.pieces, score };
  }
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
  digits: nes ? 0 : 2,
  weightsOf,
  baseline: start,
  score,
  onGeneration: (g, centre, row) =>
    console.log(`${JSON.stringify(row)}\ngeneration ${g} centre ${JSON.stringify(centre)}`),
});
printTable(rows);
console.log(
  nes
    ? `\nfinal weights (score: the average NES score, cap ${nes.maxLevel ?? 'none'}, − ${topOutCost} × the share of games topped out):`
    : `\nfinal weights (score: Tetris rate in points − ${topOutCost} per top-out):`,
);
console.log(JSON.stringify(final));
const path = writeResults(args.out, {
  machine: machine(),
  options: {
    nesMaxLevel: nes ? nes.maxLevel : undefined,
    nesStartLevel: nes ? nes.rules.level : undefined,
    nesDoubleKillscreen: nes ? doubleKillscreen : undefined,
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
