/** `stackrank bench survival`: the 2009 PageRank stacking article's survival table, measured by us (bench/notes/results.md). */
import type { RankTable } from '../rank/table.js';
import { BEST_STRATEGY, MAX_UNKNOWN_PIECES, STRATEGIES, type StrategyName } from '../stacking-ai/strategy.js';
import {
  DEFAULT_STACKING,
  MAX_BOARD_HEIGHT,
  MIN_BOARD_HEIGHT,
  STEEP_RULES,
  TETRIS_ROWS,
  TETRIS_RULES,
} from '../stacking-ai/rules.js';
import { MAX_LOOKAHEAD } from '../stacking-ai/input.js';
import { DEFAULT_STACKING_RULE_SET } from '../stacking-ai/reach.js';
import { RULE_SET_NAMES } from '../rules/rule-sets.js';
import { DEFAULT_MAX_STEP, DEFAULT_WIDTH } from '../surface.js';
import { BOARD_MAX_HEIGHT } from '../rules/board.js';
import {
  mergeSimulations,
  simulateStacking,
  type SimulationResult,
  type StreamRecord,
} from '../stacking-ai/simulate.js';
import { UsageError } from './args.js';
import type { CliIO } from './io.js';
import { LEAF_OPTIONS, checkLeafOptions, checkLeafTable, leafOfParams, loadLeafValues, recordedLeaf } from './leaf.js';
import { THREADS, TABLE_SOURCE, randomizerOption, seedOption } from './options.js';
import { formatDuration } from './progress.js';
import { RUN_OPTIONS, runParams, runRecorded, tableIdentity, type ExpectedMeta, type RunFile } from './run-files.js';
import { startRun } from './run-recorder.js';
import { defineCommand, defineOptions, type OptionValues } from './spec.js';
import { loadTableForCli } from './table-source.js';

/** The article's table: mean consecutive pieces under TGM, 15 iterations, lookahead 0..4. */
export const ARTICLE_FIGURES: readonly number[] = [153, 823, 9458, 154645, 1783670];

const STRATEGY_CHOICES: readonly StrategyName[] = [...STRATEGIES, 'best'];

/** What the header and the article column read from a run's parameters (a run's own, or merged shards'). */
interface SurvivalParams {
  [option: string]: unknown;
  randomizer: string;
  /** Absent in files made before --rules existed: classic. */
  rules?: string;
  rankTable: { width: number; maxStep: number; iterations: number; variant: string };
}

/**
 * Whether the article's figures belong to this run's game (bench/notes/results.md, "Stacking survival under TGM"): TGM's
 * pieces (tgm1) with every placement reachable (rules classic) on the article's stack of 9 columns, steps ±4 (our
 * default shape). Other randomizers, rule sets and shapes have no article figure.
 */
function hasArticleFigures(params: SurvivalParams): boolean {
  return (
    params.randomizer === 'tgm1' &&
    (params.rules ?? DEFAULT_STACKING_RULE_SET) === DEFAULT_STACKING_RULE_SET &&
    params.rankTable.width === DEFAULT_WIDTH &&
    params.rankTable.maxStep === DEFAULT_MAX_STEP
  );
}

/** One JSON line / table row; `articleFigure` is null where the article has none (hasArticleFigures, lookahead 5+). */
function row(r: SimulationResult, withArticle: boolean) {
  return {
    lookahead: r.lookahead,
    meanPieces: r.meanPieces,
    ci95: r.ci95,
    deaths: r.deaths,
    games: r.games,
    pieces: r.pieces,
    piecesPerSecond: r.piecesPerSecond,
    estimator: r.estimator,
    articleFigure: withArticle ? (ARTICLE_FIGURES[r.lookahead] ?? null) : null,
    randomizer: r.randomizer,
    rules: r.rules,
    steep: r.stacking.steep,
    tetris: r.stacking.tetris,
    tetrisThreshold: r.stacking.tetrisThreshold,
    boardHeight: r.stacking.boardHeight,
    strategy: r.strategy,
    unknownPieces: r.unknownPieces,
    leaf: r.leaf,
    seed: r.seed,
  };
}

const SURVIVAL_OPTIONS = defineOptions({
  lookahead: {
    type: 'intList',
    min: 0,
    max: MAX_LOOKAHEAD,
    default: [0, 1, 2, 3, 4],
    help: 'lookaheads to measure, comma-separated',
  },
  randomizer: randomizerOption('tgm1'),
  games: { type: 'int', min: 1, max: 1_000_000, default: 100, help: 'independent game streams' },
  maxPieces: {
    type: 'int',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    default: 200_000,
    help: 'piece budget per lookahead',
  },
  seed: seedOption(0),
  rules: {
    type: 'choice',
    choices: RULE_SET_NAMES,
    default: DEFAULT_STACKING_RULE_SET,
    help: "the real game's rule set: only placements its piece can reach are played",
  },
  steep: {
    type: 'choice',
    choices: STEEP_RULES,
    default: DEFAULT_STACKING.steep,
    help: 'how steps steeper than the max step are judged',
  },
  strategy: {
    type: 'choice',
    choices: STRATEGY_CHOICES,
    default: 'rank',
    help: 'search strategy',
  },
  unknownPieces: {
    type: 'int',
    min: 1,
    max: MAX_UNKNOWN_PIECES,
    help: 'with --strategy expectimax: unknown pieces after the queue it averages over',
    defaultHelp: '1',
  },
  tetris: {
    type: 'choice',
    choices: TETRIS_RULES,
    default: DEFAULT_STACKING.tetris,
    help: 'when an I goes down the well',
  },
  threshold: {
    type: 'int',
    min: MIN_BOARD_HEIGHT,
    max: MAX_BOARD_HEIGHT,
    default: DEFAULT_STACKING.tetrisThreshold,
    help: 'height at which the Tetris is forced',
  },
  boardHeight: {
    type: 'int',
    min: MIN_BOARD_HEIGHT,
    max: MAX_BOARD_HEIGHT,
    default: DEFAULT_STACKING.boardHeight,
    help: 'rows of the board',
  },
  ...LEAF_OPTIONS,
  threads: THREADS,
  ...TABLE_SOURCE,
  ...RUN_OPTIONS,
});

type SurvivalValues = OptionValues<typeof SURVIVAL_OPTIONS>;

/**
 * simulateStacking's options for one lookahead of a run, from its option values or from a run file's `params`
 * (which record them): what the run plays, and what each finished part's `meta` says (survivalMeta).
 */
function simulationRun(v: SurvivalValues, lookahead: number) {
  return {
    randomizer: v.randomizer,
    lookahead,
    games: v.games,
    maxPieces: v.maxPieces,
    seed: v.seed,
    rules: v.rules,
    stacking: { steep: v.steep, tetris: v.tetris, tetrisThreshold: v.threshold, boardHeight: v.boardHeight },
    strategy: v.strategy,
    unknownPieces: v.unknownPieces as 1 | 2 | undefined,
  };
}

/**
 * What a finished part's `meta` (the result's description of its lookahead) must say: the options it was played
 * with, `games` as the result's `streamCount`; `--strategy best` names a search the result spells out, so the
 * strategy is compared only when it was named.
 */
export const survivalMeta: ExpectedMeta = (params, key) => {
  const { games, strategy, ...run } = simulationRun(params as SurvivalValues, Number(key.slice('lookahead '.length)));
  return { ...run, streamCount: games, strategy: strategy === 'best' ? undefined : strategy };
};

export const benchSurvivalCommand = defineCommand({
  path: 'bench survival',
  summary: "the article's survival table, measured: mean pieces per lookahead",
  description: `Plays stacking games per lookahead and prints mean survival with a 95 % interval next to the 2009
PageRank stacking article's figure (one row per lookahead; with --json, one object per line). Games cut by the
--max-pieces budget are censored and the mean is then pieces / deaths (geometric hazard). --steep truncate is the
article's reading of steep steps; excessFirst plays better; collapse turns every step steeper than ±S into ±S after
each move (the game the article's figures fit). --table-steep collapse uses the table iterated under that rule
instead of the article's. --strategy expectimax averages over the next unknown piece with the randomizer's exact
distribution (--unknown-pieces 2: over the next two); best is the strongest measured (bench/notes/results.md). --tetris choice lets
the AI send an I down the well whenever the lowest column is at least ${TETRIS_ROWS}. --leaf preview scores expectimax leaves with
the randomizer's preview table (surface x piece in hand; built and cached on first use, about 700 MB in memory).
--board-height 63 is no practical limit: the article's surface-only game. --shard I/N plays streams of one shard
of the run and --out writes its result file; stackrank merge pools the shards (docs/distributed.md). --checkpoint
FILE records finished streams and resumes from them. --rules plays only the placements a real game's piece can
reach (docs/rules.md, "The stacking game under a rule set"): tgm20g is TGM at 20G, where the piece slides along
the stack (pair it with the 20G table: stackrank table build --variant 20g --out FILE, then --table FILE; without
--table the article's table is used); classic, the default, reaches every placement.`,
  options: SURVIVAL_OPTIONS,
  async run({ values, given }, io) {
    const { randomizer, strategy, leaf, rules } = values;
    if (rules !== DEFAULT_STACKING_RULE_SET && strategy !== 'rank')
      throw new UsageError(
        `--rules ${rules} plays with --strategy rank only (the expectimax leaves assume every placement is reachable)`,
      );
    if (rules !== DEFAULT_STACKING_RULE_SET && values.boardHeight > BOARD_MAX_HEIGHT)
      throw new UsageError(
        `--rules ${rules} needs --board-height of at most ${BOARD_MAX_HEIGHT} (the rules layer's boards)`,
      );
    if (values.threshold > values.boardHeight)
      throw new UsageError(
        `the Tetris threshold (${values.threshold}) must not exceed --board-height (${values.boardHeight})`,
      );
    if (leaf === 'preview' && strategy === 'rank')
      throw new UsageError('--leaf preview needs --strategy expectimax or best');
    if (values.unknownPieces !== undefined && strategy !== 'expectimax')
      throw new UsageError('--unknown-pieces needs --strategy expectimax (best sets its own)');
    checkLeafOptions(values);
    const table: RankTable = await loadTableForCli(values, given, io);
    checkLeafTable(values, table);
    // The leaf is recorded only for preview (docs/cli.md, "Leaves"), so files made before --leaf resume and merge,
    // and a rank run records none (its leaf is the rank, whatever --leaf says).
    const run = await startRun(io, {
      command: 'bench survival',
      params: runParams(
        { ...values, leaf: recordedLeaf(leaf) },
        { rankTable: tableIdentity(table, runRecorded(values)) },
      ),
      values,
      recordName: 'stream',
      indexOf: (r) => (r as StreamRecord).stream,
      expectedMeta: survivalMeta,
    });
    // After the run's checks (a checkpoint of another run is refused before a preview table is built).
    const previewTable = await loadLeafValues(values, table, randomizer, io);
    const params = run.run.params as SurvivalParams;
    const withArticle = hasArticleFigures(params);
    if (!values.json) printSurvivalHeader(io, params);
    await run.play(async () => {
      for (const lookahead of values.lookahead) {
        const part = run.part<StreamRecord>(`lookahead ${lookahead}`);
        const result = await simulateStacking({
          ...simulationRun(values, lookahead),
          table,
          previewTable,
          threads: values.threads,
          signal: io.signal,
          onProgress: (p) =>
            io.status(
              `lookahead ${lookahead}: ${p.pieces.toLocaleString('en-US')} pieces, ${p.deaths} deaths, ${formatDuration(p.elapsedMs)}`,
            ),
          range: run.range,
          resume: part.resume,
          onStream: part.add,
        });
        part.finish(runMeta(result), result.seconds);
        io.status('');
        printSurvivalRow(io, values.json, result, withArticle);
      }
    });
    if (!values.json) printSurvivalFootnote(io, params);
    return 0;
  },
});

/** What mergeSimulations needs besides the records: the result's description of its run. */
function runMeta(r: SimulationResult): Record<string, unknown> {
  const { lookahead, randomizer, rules, stacking, strategy, unknownPieces, leaf, seed, streamCount, maxPieces } = r;
  return { lookahead, randomizer, rules, stacking, strategy, unknownPieces, leaf, seed, streamCount, maxPieces };
}

/** The header of the text table, from the run's parameters (also when printing merged shards). */
function printSurvivalHeader(io: CliIO, params: SurvivalParams): void {
  const v = params as SurvivalParams & { [option: string]: string | number; games: number; maxPieces: number };
  const table = params.rankTable;
  const unknownPieces = v.unknownPieces ?? (v.strategy === 'best' ? BEST_STRATEGY.unknownPieces : 1);
  const search =
    v.strategy === 'rank'
      ? 'strategy rank, leaf rank'
      : `strategy ${v.strategy} (${unknownPieces} unknown piece${unknownPieces === 1 ? '' : 's'}), leaf ${leafOfParams(params)}`;
  io.out(
    `survival under ${v.randomizer}, rules ${v.rules ?? DEFAULT_STACKING_RULE_SET}, steep ${v.steep}, Tetris ${v.tetris} at ${v.threshold}, board height ${v.boardHeight}, ${search}, table ${table.variant} ${table.width}x${table.maxStep}/${table.iterations} iterations, ${v.games} stream${v.games === 1 ? '' : 's'}, budget ${v.maxPieces.toLocaleString('en-US')} pieces per lookahead, seed ${v.seed}`,
  );
  io.out(
    `lookahead  mean pieces   95% CI                deaths   pieces/s${hasArticleFigures(params) ? '    article' : ''}`,
  );
}

function printSurvivalRow(io: CliIO, json: boolean, result: SimulationResult, withArticle: boolean): void {
  const r = row(result, withArticle);
  if (json) {
    io.out(JSON.stringify(r));
    return;
  }
  const ci = `[${Math.round(r.ci95[0]).toLocaleString('en-US')}, ${Number.isFinite(r.ci95[1]) ? Math.round(r.ci95[1]).toLocaleString('en-US') : 'inf'}]`;
  // The article has figures for lookahead 0..4 only.
  const article = withArticle ? `  ${(r.articleFigure?.toLocaleString('en-US') ?? '–').padStart(9)}` : '';
  io.out(
    `${String(r.lookahead).padStart(9)}  ${r.meanPieces.toFixed(1).padStart(11)}   ${ci.padEnd(20)} ${String(r.deaths).padStart(7)}  ${Math.round(r.piecesPerSecond).toLocaleString('en-US').padStart(9)}${article}`,
  );
}

/** Below the table, where it has the article column: which game the article's figures fit. */
function printSurvivalFootnote(io: CliIO, params: SurvivalParams): void {
  if (!hasArticleFigures(params)) return;
  io.out(
    "article: the 2009 article's figures; they fit the game where steep steps collapse (--steep collapse), not the real game (bench/notes/results.md)",
  );
}

/** `stackrank merge` of bench survival shards (checked by checkShardSet, in shard order): one row per lookahead. */
export function printMergedSurvival(io: CliIO, json: boolean, shards: readonly { run: RunFile }[]): void {
  const params = shards[0].run.params as SurvivalParams;
  const withArticle = hasArticleFigures(params);
  // Every part is pooled (and checked) before anything is printed.
  const results = shards[0].run.parts.map((_, k) =>
    mergeSimulations(
      shards.map(({ run }) => {
        const part = run.parts[k];
        return {
          ...(part.meta as ReturnType<typeof runMeta>),
          range: { start: run.shard.start, end: run.shard.end },
          records: part.records as StreamRecord[],
          seconds: part.seconds,
        };
      }) as unknown as SimulationResult[],
    ),
  );
  if (!json) printSurvivalHeader(io, params);
  for (const result of results) printSurvivalRow(io, json, result, withArticle);
  if (!json) printSurvivalFootnote(io, params);
}
