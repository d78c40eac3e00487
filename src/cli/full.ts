/**
 * `stackrank full play|train`: full-board games with a weight preset or file, and the genetic-algorithm trainer.
 */
import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { StackRankError } from '../errors.js';
import {
  mergeFullGames,
  playFullGames,
  type FullGameRecord,
  type FullGamesResult,
  type FullGamesRun,
} from '../fullboard/games.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH } from '../fullboard/drops.js';
import {
  FEATURE_SETS,
  FEATURE_SET_NAMES,
  PRESET_NAMES,
  resolveWeights,
  type PresetName,
  type WeightVector,
} from '../fullboard/presets.js';
import { TRAIN_DEFAULTS, TRAIN_LIMITS } from '../fullboard/trainer.js';
import { UsageError } from './args.js';
import {
  CheckpointFile,
  checkOutputFile,
  finishingCheckpoint,
  readOptionFile,
  refuseSameOutAndCheckpoint,
  writeKeepingResult,
  writeTextAtomic,
} from './files.js';
import { startWriting, type CliIO } from './io.js';
import { THREADS, randomizerOption, seedOption } from './options.js';
import { RUN_OPTIONS, runParams, type ExpectedMeta, type RunFile } from './run-files.js';
import { startRun } from './run-recorder.js';
import { defineCommand, defineOptions, flagName, type OptionValues } from './spec.js';

/**
 * A value that names a file rather than a preset: it ends in .json or holds a path separator. Such a file that cannot
 * be read is a runtime error (IO, exit 1); a bare word that is neither a preset nor an existing file is a usage error
 * (a misspelt preset, exit 2). docs/cli.md, "Exit codes".
 */
function looksLikePath(value: string): boolean {
  return /\.json$/i.test(value) || value.includes('/') || value.includes(sep);
}

async function loadWeights(spec: string | undefined, signal?: AbortSignal): Promise<WeightVector & { name: string }> {
  const s = spec ?? 'cs3243';
  if ((PRESET_NAMES as string[]).includes(s)) return { ...resolveWeights(s), name: s };
  let text: string;
  try {
    text = await readOptionFile('--weights', s, 'weights file', signal);
  } catch (e) {
    const cause = (e as { cause?: { code?: unknown } }).cause;
    if (cause?.code === 'ENOENT' && !looksLikePath(s))
      throw new UsageError(
        `--weights must be a preset (${PRESET_NAMES.join(', ')}) or a JSON file; ${JSON.stringify(s)} is neither`,
      );
    throw e;
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

const PLAY_OPTIONS = defineOptions({
  weights: {
    type: 'text',
    default: 'cs3243' satisfies PresetName,
    arg: 'PRESET|FILE',
    help: `weights: a preset (${PRESET_NAMES.join(', ')}) or a JSON file`,
  },
  games: { type: 'int', min: 1, max: 1_000_000, default: 10, help: 'games to play' },
  seed: seedOption(1, 'seed of the first game'),
  maxLines: {
    type: 'int',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    arg: 'L',
    help: 'stop a game at this many lines',
    defaultHelp: 'no cap',
  },
  maxPieces: {
    type: 'int',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    arg: 'P',
    help: 'stop a game at this many pieces',
    defaultHelp: 'no cap',
  },
  lookahead: { type: 'int', min: 0, max: 1, default: 0, help: '0: one piece at a time; 1: also the next piece' },
  width: { type: 'int', min: MIN_WIDTH, max: MAX_WIDTH, default: DEFAULT_WIDTH, arg: 'W', help: 'board columns' },
  height: { type: 'int', min: MIN_HEIGHT, max: MAX_HEIGHT, default: DEFAULT_HEIGHT, arg: 'H', help: 'board rows' },
  randomizer: randomizerOption('memoryless'),
  ...RUN_OPTIONS,
});

export const fullPlayCommand = defineCommand({
  path: 'full play',
  summary: 'play full-board games with a weight preset or file',
  description: `Plays N games (game i uses seed S + i) and prints lines per game and a summary (mean, median, min,
max, 95 % CI; with a cap, also the censored geometric estimate). FILE is JSON { features, weights } or a trainer
output. With --json: one object on one line. --shard I/N plays one shard of the games and --out writes its result
file for stackrank merge; --checkpoint FILE records finished games and resumes from them (docs/distributed.md).`,
  options: PLAY_OPTIONS,
  async run({ values }, io) {
    return play(values, io);
  },
});

type PlayValues = OptionValues<typeof PLAY_OPTIONS>;

/** The text and JSON output of full play, from its parameters and game records (also for merged shards). */
function fullPlayPrinter(io: CliIO, json: boolean, params: Record<string, unknown>) {
  const w = params.weightVector as { name: string; features: string[]; weights: number[] };
  return {
    header() {
      if (!json) io.out(`weights ${w.name}: ${w.features.map((f, i) => `${f} ${w.weights[i]}`).join(', ')}`);
    },
    game(r: FullGameRecord) {
      if (json) return;
      io.status('');
      io.out(
        `game ${String(r.game + 1).padStart(4)}  seed ${String(r.seed).padStart(6)}  lines ${fmt(r.lines).padStart(12)}  pieces ${fmt(r.pieces).padStart(12)}  ${fmt(r.seconds > 0 ? r.pieces / r.seconds : 0).padStart(9)} p/s${r.lost ? '' : '  (capped)'}`,
      );
    },
    summary(result: FullGamesResult) {
      const { records, summary, pieces, seconds } = result;
      if (json) {
        io.out(
          JSON.stringify({
            weights: { name: w.name, features: w.features, weights: w.weights },
            seed: params.seed,
            maxLines: params.maxLines,
            maxPieces: params.maxPieces,
            lookahead: params.lookahead,
            width: params.width,
            height: params.height,
            games: records.map(({ seed, lines, pieces, seconds, lost }) => ({ seed, lines, pieces, seconds, lost })),
            summary,
            seconds,
            piecesPerSecond: pieces / seconds,
          }),
        );
        return;
      }
      io.out(
        `games ${summary.games} (lost ${summary.lost}, capped ${summary.capped})  mean ${fmt(summary.mean)}  median ${fmt(summary.median)}  min ${fmt(summary.min)}  max ${fmt(summary.max)}  95% CI [${fmt(summary.ci95[0])}, ${fmt(summary.ci95[1])}]`,
      );
      if (summary.censored)
        io.out(
          `censored (geometric) estimate of the uncapped mean: ${fmt(summary.censored.mean)}  95% CI [${fmt(summary.censored.ci95[0])}, ${fmt(summary.censored.ci95[1])}]`,
        );
      io.out(`${fmt(pieces)} pieces in ${seconds.toFixed(1)} s (${fmt(pieces / seconds)} pieces/s)`);
    },
  };
}

/**
 * playFullGames's options for a run, from its option values and the weights read from `--weights`, or from a run
 * file's `params` (which record both, the weights as `weightVector`): what the run plays, and what each finished
 * part's `meta` says (fullPlayMeta).
 */
function fullGamesRun(v: PlayValues, weights: WeightVector) {
  return {
    weights,
    games: v.games,
    seed: v.seed,
    maxLines: v.maxLines,
    maxPieces: v.maxPieces,
    lookahead: v.lookahead as 0 | 1,
    width: v.width,
    height: v.height,
    randomizer: v.randomizer,
  };
}

/**
 * What a finished part's `meta` (the result's description of its run) must say: the options it was played with,
 * `games` as the result's `gameCount`, a cap left out as null, the weights without their name.
 */
export const fullPlayMeta: ExpectedMeta = (params) => {
  // merge and resume check the params first: weightVector is there (the guard keeps a bare call from throwing)
  const vector = (params.weightVector ?? {}) as WeightVector;
  const { games, weights, ...run } = fullGamesRun(params as PlayValues, vector);
  return {
    ...run,
    gameCount: games,
    maxLines: run.maxLines ?? null,
    maxPieces: run.maxPieces ?? null,
    weights: { features: weights.features, weights: weights.weights },
  };
};

async function play(values: PlayValues, io: CliIO): Promise<number> {
  const w = await loadWeights(values.weights, io.signal);
  const run = await startRun(io, {
    command: 'full play',
    params: runParams(values, { weightVector: { name: w.name, features: w.features, weights: w.weights } }),
    values,
    recordName: 'game',
    indexOf: (r) => (r as FullGameRecord).game,
    expectedMeta: fullPlayMeta,
  });
  const part = run.part<FullGameRecord>('games');
  const printer = fullPlayPrinter(io, values.json, run.run.params);
  printer.header();
  let played = 0; // seconds of the games this session played
  const result = await run.play(async () => {
    const r = await playFullGames({
      ...fullGamesRun(values, w),
      signal: io.signal,
      range: run.range,
      resume: part.resume,
      onGame: (record, resumed) => {
        if (!resumed) {
          part.add(record);
          played += record.seconds;
        }
        printer.game(record);
      },
      onProgress: (p) =>
        io.status(
          `game ${p.game + 1}/${values.games}: ${fmt(p.lines)} lines, ${fmt(p.pieces / Math.max(p.seconds, 1e-9))} pieces/s`,
        ),
    });
    part.finish(runMeta(r), played);
    return r;
  });
  printer.summary(result);
  return 0;
}

/** What mergeFullGames needs besides the records: the result's description of its run. */
function runMeta(r: FullGamesResult): Record<string, unknown> {
  const { weights, randomizer, seed, gameCount, maxLines, maxPieces, lookahead, width, height } = r;
  return { weights, randomizer, seed, gameCount, maxLines, maxPieces, lookahead, width, height };
}

/** `stackrank merge` of full play shards (checked by checkShardSet, in shard order). */
export function printMergedFullPlay(io: CliIO, json: boolean, shards: readonly { run: RunFile }[]): void {
  const result = mergeFullGames(
    shards.map(({ run }) => ({
      ...(run.parts[0].meta as unknown as FullGamesRun),
      range: { start: run.shard.start, end: run.shard.end },
      records: run.parts[0].records as FullGameRecord[],
    })) as FullGamesResult[],
  );
  const printer = fullPlayPrinter(io, json, shards[0].run.params);
  printer.header();
  for (const r of result.records) printer.game(r);
  printer.summary(result);
}

const TRAIN_OPTIONS = defineOptions({
  features: {
    type: 'choice',
    choices: FEATURE_SET_NAMES,
    default: 'bcts',
    help: 'feature set',
  },
  generations: {
    type: 'int',
    min: TRAIN_LIMITS.generations.min,
    max: TRAIN_LIMITS.generations.max,
    default: 10,
    arg: 'G',
    help: "generations to run in all (with --resume: counting the checkpoint's; default the checkpoint's target)",
  },
  population: {
    type: 'int',
    min: TRAIN_LIMITS.population.min,
    max: TRAIN_LIMITS.population.max,
    default: TRAIN_DEFAULTS.population,
    help: 'weight vectors per generation',
  },
  tournament: {
    type: 'int',
    min: 2,
    max: TRAIN_LIMITS.population.max,
    help: 'individuals drawn per tournament (at most the population)',
    defaultHelp: `${TRAIN_DEFAULTS.tournament}, or the population if smaller`,
  },
  gamesPerEval: {
    type: 'int',
    min: TRAIN_LIMITS.gamesPerEval.min,
    max: TRAIN_LIMITS.gamesPerEval.max,
    default: TRAIN_DEFAULTS.gamesPerEval,
    arg: 'K',
    help: 'games per fitness evaluation',
  },
  boardHeight: {
    type: 'int',
    min: MIN_HEIGHT,
    max: MAX_HEIGHT,
    default: TRAIN_DEFAULTS.boardHeight,
    arg: 'H',
    help: 'rows of the proxy board',
  },
  maxPieces: {
    type: 'int',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    default: TRAIN_DEFAULTS.maxPieces,
    arg: 'P',
    help: 'piece cap per evaluation game',
  },
  seed: seedOption(TRAIN_DEFAULTS.seed),
  threads: { ...THREADS, default: 1, defaultHelp: undefined },
  checkpoint: {
    type: 'outFile',
    help: 'save the state here after every generation (an existing file needs --resume)',
    readWith: 'resume',
  },
  resume: { type: 'flag', help: 'continue from --checkpoint' },
  out: { type: 'outFile', help: 'write the best weights (JSON) here' },
});

export const fullTrainCommand = defineCommand({
  path: 'full train',
  summary: 'train full-board weights with a genetic algorithm',
  description: `The CS3243 GA report's genetic algorithm (tournament selection, 2 parents, uniform crossover,
mutation 10 %, elite 20 %) on a proxy board; prints one row per generation and the best weights (with --json, one
object on one line). --checkpoint saves the state after every generation; --resume continues from it with its
options: a flag given that differs from them is refused (RUN_MISMATCH), the flags not given keep the checkpoint's
values (docs/fullboard.md).`,
  options: TRAIN_OPTIONS,
  async run({ values, given }, io) {
    return train(values, given, io);
  },
});

type TrainValues = OptionValues<typeof TRAIN_OPTIONS>;

/** A checkpoint's option value as the user would write it: a feature list by its set's name. */
function optionText(value: unknown): string {
  if (Array.isArray(value)) {
    const set = FEATURE_SET_NAMES.find((n) => JSON.stringify(FEATURE_SETS[n]) === JSON.stringify(value));
    if (set !== undefined) return set;
  }
  return Array.isArray(value) ? value.join(',') : String(value);
}

async function train(
  values: TrainValues,
  given: (name: keyof typeof TRAIN_OPTIONS & string) => boolean,
  io: CliIO,
): Promise<number> {
  const { trainWeights, checkCheckpoint, resumeConflict } = await import('../fullboard/trainer.js');
  if (values.resume && values.checkpoint === undefined) throw new UsageError('--resume needs --checkpoint FILE');
  refuseSameOutAndCheckpoint(values);
  // A checkpoint is replaced after the first generation: starting a new run over one would lose it.
  if (!values.resume && values.checkpoint !== undefined && existsSync(values.checkpoint))
    throw new UsageError(
      `--checkpoint: ${values.checkpoint} exists; pass --resume to continue from it, or remove it to start a new run`,
    );
  // On --resume only the options given on the command line are passed: the others keep the checkpoint's values.
  const option = <K extends keyof TrainValues & keyof typeof TRAIN_OPTIONS & string>(
    key: K,
  ): TrainValues[K] | undefined => (!values.resume || given(key) ? values[key] : undefined);
  const population = option('population');
  if (values.tournament !== undefined && population !== undefined && values.tournament > population) {
    throw new UsageError(`--tournament (${values.tournament}) must not exceed --population (${population})`);
  }
  const options = {
    features: option('features') === undefined ? undefined : FEATURE_SETS[values.features],
    generations: option('generations'),
    population,
    tournament: values.tournament,
    gamesPerEval: option('gamesPerEval'),
    boardHeight: option('boardHeight'),
    maxPieces: option('maxPieces'),
    seed: option('seed'),
  };
  let resume: ReturnType<typeof checkCheckpoint> | undefined;
  if (values.resume) {
    const path = values.checkpoint!;
    // A file to read first (docs/cli.md, "Files to read": missing, a directory, unreadable is IO), then the file
    // written after every generation (its folder checked as for any output file).
    const text = await readOptionFile('--checkpoint', path, 'GA checkpoint', io.signal);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      // Not a checkpoint (truncated, another file): BAD_HEADER, as for a damaged run file (docs/errors.md).
      throw new StackRankError(
        'BAD_HEADER',
        `${path} is not a stackrank GA checkpoint (not JSON: ${(e as Error).message})`,
        { cause: e },
      );
    }
    resume = checkCheckpoint(json);
    checkOutputFile('checkpoint', path);
    // Checked here too, to name the flag rather than the library's option (trainWeights refuses it as well).
    const conflict = resumeConflict(options, resume);
    if (conflict) {
      const flag = `--${flagName(conflict.option)}`;
      throw new StackRankError(
        'RUN_MISMATCH',
        `the checkpoint ${values.checkpoint} belongs to another run: ${flag} is ${optionText(conflict.given)} here and ${optionText(conflict.saved)} in the checkpoint; leave ${flag} out to continue with the checkpoint's`,
      );
    }
  }
  const checkpoint =
    values.checkpoint === undefined ? null : new CheckpointFile(values.checkpoint, 'full train', io.err);
  if (!values.json) io.out(' gen      best      mean    median  evals   seconds  best weights');
  const result = await finishingCheckpoint(checkpoint, () =>
    trainWeights({
      ...options,
      threads: values.threads,
      signal: io.signal,
      resume,
      onGeneration: (g) => {
        const text = JSON.stringify(g.checkpoint); // now: the trainer may reuse its arrays
        checkpoint?.save(() => text);
        if (!values.json) {
          io.out(
            `${String(g.generation).padStart(4)} ${fmt(g.best).padStart(9)} ${fmt(g.mean).padStart(9)} ${fmt(g.median).padStart(9)} ${String(g.evaluated).padStart(6)} ${g.seconds.toFixed(1).padStart(9)}  ${g.bestWeights.map((v) => v.toFixed(3)).join(' ')}`,
          );
        }
      },
    }),
  );
  const out = {
    best: { features: result.features, weights: result.weights },
    fitness: result.fitness,
    history: result.history,
    options: result.options,
  };
  // An interrupt that came as training ended writes no weights (the checkpoint has its last generation).
  startWriting(io);
  if (values.out !== undefined)
    await writeKeepingResult(values.out, 'trained weights', (p) =>
      writeTextAtomic(p, JSON.stringify(out, null, 2) + '\n'),
    );
  // Without --out the checkpoint is the run's only result file: it must be where asked (docs/cli.md).
  else await checkpoint?.keepAsResult();
  if (values.json) io.out(JSON.stringify(out));
  else
    io.out(
      `best weights (${result.features.join(', ')}): ${result.weights.map((v) => v.toFixed(4)).join(', ')}${values.out ? `  -> ${values.out}` : ''}`,
    );
  return 0;
}
