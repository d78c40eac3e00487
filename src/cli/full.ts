/**
 * `stackrank full play|train`: full-board games with a weight preset or file, and the genetic-algorithm trainer.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { StackRankError } from '../errors.js';
import { FEATURE_SETS, PRESET_NAMES, resolveWeights, type WeightVector } from '../fullboard/presets.js';
import { playFullGame } from '../fullboard/player.js';
import { summarizeLines } from '../fullboard/stats.js';
import { intOption, parse, UsageError } from './args.js';
import type { CliCommand, CliIO } from './io.js';

const PLAY_HELP = `usage: stackrank full play [--weights seedGA|seedGAProse|dellacherie|bcts|FILE] [--games N] [--seed S]
                          [--max-lines L] [--max-pieces P] [--lookahead 0|1] [--width W] [--height H]
                          [--randomizer NAME] [--json]
Plays N games (game i uses seed S + i) and prints lines per game and a summary (mean, median, min, max, 95 % CI;
with a cap, also the censored geometric estimate). FILE is JSON { features, weights } or a trainer output.`;

const TRAIN_HELP = `usage: stackrank full train [--features bcts|dellacherie|seedClean|seedCode] [--generations G]
                           [--population N] [--games-per-eval K] [--board-height H] [--max-pieces P]
                           [--seed S] [--threads T] [--checkpoint FILE] [--resume] [--out weights.json] [--json]
Genetic algorithm of seed 004 (tournament 8, 2 parents, uniform crossover, mutation 10 %, elite 20 %) on a proxy
board; prints one row per generation and writes the best weights.`;

function loadWeights(spec: string | undefined): WeightVector & { name: string } {
  const s = spec ?? 'seedGA';
  if ((PRESET_NAMES as string[]).includes(s)) return { ...resolveWeights(s), name: s };
  let text: string;
  try {
    text = readFileSync(s, 'utf8');
  } catch (e) {
    throw new UsageError(`--weights must be a preset (${PRESET_NAMES.join(', ')}) or a readable JSON file; ${String((e as Error).message)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StackRankError('BAD_ARGUMENT', `${s} is not JSON`);
  }
  // a training result file ({ best: { features, weights }, ... }) or a bare weight vector
  const best = (json as { best?: { features?: unknown } } | null)?.best;
  const v = best?.features ? best : json;
  return { ...resolveWeights(v), name: s };
}

function fmt(n: number): string {
  if (n === Infinity) return '∞';
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n);
}

async function play(argv: string[], io: CliIO): Promise<number> {
  const { values } = parse(argv, {
    weights: { type: 'string' },
    games: { type: 'string' },
    seed: { type: 'string' },
    'max-lines': { type: 'string' },
    'max-pieces': { type: 'string' },
    lookahead: { type: 'string' },
    width: { type: 'string' },
    height: { type: 'string' },
    randomizer: { type: 'string' },
  }, false);
  if (values.help) {
    io.out(PLAY_HELP);
    return 0;
  }
  const w = loadWeights(values.weights);
  const games = intOption('games', values.games, 10, 1, 1_000_000);
  const seed = intOption('seed', values.seed, 1, 0, 0xffffffff);
  const maxLines = values['max-lines'] === undefined ? undefined : intOption('max-lines', values['max-lines'], 0, 1, Number.MAX_SAFE_INTEGER);
  const maxPieces = values['max-pieces'] === undefined ? undefined : intOption('max-pieces', values['max-pieces'], 0, 1, Number.MAX_SAFE_INTEGER);
  const lookahead = intOption('lookahead', values.lookahead, 0, 0, 1) as 0 | 1;
  const width = intOption('width', values.width, 10, 4, 10);
  const height = intOption('height', values.height, 20, 4, 24);
  const results: { seed: number; lines: number; pieces: number; seconds: number; lost: boolean }[] = [];
  const t0 = performance.now();
  if (!values.json) io.out(`weights ${w.name}: ${w.features.map((f, i) => `${f} ${w.weights[i]}`).join(', ')}`);
  for (let g = 0; g < games; g++) {
    if (io.signal?.aborted) break;
    const r = await playFullGame({
      weights: w,
      seed: (seed + g) >>> 0,
      maxLines,
      maxPieces,
      lookahead,
      width,
      height,
      randomizer: values.randomizer,
      signal: io.signal,
      onProgress: (p) => io.status(`game ${g + 1}/${games}: ${fmt(p.lines)} lines, ${fmt(p.pieces / Math.max(p.seconds, 1e-9))} pieces/s`),
    });
    results.push({ seed: (seed + g) >>> 0, lines: r.lines, pieces: r.pieces, seconds: r.seconds, lost: r.lost });
    if (!values.json) {
      io.status('');
      io.out(`game ${String(g + 1).padStart(4)}  seed ${String((seed + g) >>> 0).padStart(6)}  lines ${fmt(r.lines).padStart(12)}  pieces ${fmt(r.pieces).padStart(12)}  ${fmt(r.piecesPerSecond).padStart(9)} p/s${r.lost ? '' : '  (capped)'}`);
    }
  }
  const summary = summarizeLines(results.map((r) => r.lines), results.map((r) => r.lost));
  const seconds = (performance.now() - t0) / 1000;
  const pieces = results.reduce((s, r) => s + r.pieces, 0);
  if (values.json) {
    io.out(JSON.stringify({ weights: { name: w.name, features: w.features, weights: w.weights }, seed, maxLines, maxPieces, lookahead, width, height, games: results, summary, seconds, piecesPerSecond: pieces / seconds }, null, 2));
  } else {
    io.out(`games ${summary.games} (lost ${summary.lost}, capped ${summary.capped})  mean ${fmt(summary.mean)}  median ${fmt(summary.median)}  min ${fmt(summary.min)}  max ${fmt(summary.max)}  95% CI [${fmt(summary.ci95[0])}, ${fmt(summary.ci95[1])}]`);
    if (summary.censored) io.out(`censored (geometric) estimate of the uncapped mean: ${fmt(summary.censored.mean)}  95% CI [${fmt(summary.censored.ci95[0])}, ${fmt(summary.censored.ci95[1])}]`);
    io.out(`${fmt(pieces)} pieces in ${seconds.toFixed(1)} s (${fmt(pieces / seconds)} pieces/s)`);
  }
  return 0;
}

async function train(argv: string[], io: CliIO): Promise<number> {
  const { values } = parse(argv, {
    features: { type: 'string' },
    generations: { type: 'string' },
    population: { type: 'string' },
    'games-per-eval': { type: 'string' },
    'board-height': { type: 'string' },
    'max-pieces': { type: 'string' },
    seed: { type: 'string' },
    threads: { type: 'string' },
    checkpoint: { type: 'string' },
    resume: { type: 'boolean' },
    out: { type: 'string' },
  }, false);
  if (values.help) {
    io.out(TRAIN_HELP);
    return 0;
  }
  const { trainWeights, checkCheckpoint } = await import('../fullboard/trainer.js');
  const features = values.features ?? 'bcts';
  if (!FEATURE_SETS[features]) throw new UsageError(`--features must be one of ${Object.keys(FEATURE_SETS).join(', ')}`);
  if (values.resume && !values.checkpoint) throw new UsageError('--resume needs --checkpoint FILE');
  let resume: ReturnType<typeof checkCheckpoint> | undefined;
  if (values.resume) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(values.checkpoint!, 'utf8'));
    } catch (e) {
      throw new StackRankError('IO', `cannot read checkpoint ${values.checkpoint}: ${(e as Error).message}`);
    }
    resume = checkCheckpoint(json);
  }
  if (!values.json) io.out(' gen      best      mean    median  evals   seconds  best weights');
  const result = await trainWeights({
    features: FEATURE_SETS[features],
    generations: intOption('generations', values.generations, 10, 1, 100_000),
    population: intOption('population', values.population, 100, 4, 100_000),
    gamesPerEval: intOption('games-per-eval', values['games-per-eval'], 3, 1, 1000),
    boardHeight: intOption('board-height', values['board-height'], 12, 4, 24),
    maxPieces: intOption('max-pieces', values['max-pieces'], 200_000, 1, Number.MAX_SAFE_INTEGER),
    seed: intOption('seed', values.seed, 1, 0, 0xffffffff),
    threads: intOption('threads', values.threads, 1, 1, 64),
    signal: io.signal,
    resume,
    onGeneration: (g) => {
      if (values.checkpoint) {
        const tmp = `${values.checkpoint}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(g.checkpoint));
        renameSync(tmp, values.checkpoint);
      }
      if (!values.json) {
        io.out(
          `${String(g.generation).padStart(4)} ${fmt(g.best).padStart(9)} ${fmt(g.mean).padStart(9)} ${fmt(g.median).padStart(9)} ${String(g.evaluated).padStart(6)} ${g.seconds.toFixed(1).padStart(9)}  ${g.bestWeights.map((v) => v.toFixed(3)).join(' ')}`,
        );
      }
    },
  });
  const out = { best: { features: result.features, weights: result.weights }, fitness: result.fitness, history: result.history, options: result.options };
  if (values.out) {
    const tmp = `${values.out}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(out, null, 2) + '\n');
    renameSync(tmp, values.out);
  }
  if (values.json) io.out(JSON.stringify(out, null, 2));
  else io.out(`best weights (${result.features.join(', ')}): ${result.weights.map((v) => v.toFixed(4)).join(', ')}${values.out ? `  -> ${values.out}` : ''}`);
  return 0;
}

export const fullCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === 'play') return play(rest, io);
  if (sub === 'train') return train(rest, io);
  if (!sub || sub === '--help' || sub === '-h') {
    io.out(`${PLAY_HELP}\n\n${TRAIN_HELP}`);
    return sub ? 0 : 2;
  }
  throw new UsageError(`unknown subcommand ${JSON.stringify(sub)}; use play or train`);
};
