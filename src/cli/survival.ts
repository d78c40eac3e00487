/** `stackrank bench survival`: the seed article's survival table, measured by us (DESIGN §3). */
import { RANDOMIZER_NAMES, isRandomizerName } from '../randomizers/index.js';
import { MAX_ITERATIONS } from '../rank/build.js';
import type { RankTable } from '../rank/table.js';
import { STRATEGIES, type LeafRows, type StrategyName } from '../stacking/engine.js';
import { DEFAULT_RULES, STEEP_RULES, type SteepRule } from '../stacking/rules.js';
import { simulateStacking, type SimulationResult } from '../stacking/simulate.js';
import { UsageError, intOption, listOption, parse } from './args.js';
import type { CliIO } from './io.js';
import { formatDuration } from './progress.js';
import { loadTableForCli, tableOptions } from './table-source.js';

/** Seed 002's table: mean consecutive pieces under TGM, 15 iterations, lookahead 0..4. */
export const ARTICLE_FIGURES: readonly number[] = [153, 823, 9458, 154645, 1783670];

const USAGE = `usage: stackrank bench survival [--lookahead 0,1,2,3,4] [--randomizer tgm1] [--games N] [--max-pieces M]
                              [--seed S] [--steep excessFirst|truncate|collapse] [--strategy rank|expectimax|expectimax2|best]
                              [--tetris forced|choice] [--threshold 8] [--leaf piece-max|preview]
                              [--leaf-iterations K] [--board-height 20] [--threads T] [--table FILE]
                              [--table-steep forbid|collapse] [--json]
  Plays stacking games per lookahead and prints mean survival with a 95 % interval next to the article's figure.
  --games: independent game streams (default 100); --max-pieces: piece budget per lookahead (default 200000);
  games cut by the budget are censored and the mean is then pieces / deaths (geometric hazard).
  --steep truncate is the article's reading of steep steps; excessFirst (default) plays better; collapse
  turns every step steeper than ±S into ±S after each move (the game's state is the truncated surface, the
  game the article's figures fit). --table-steep collapse uses the table iterated under that rule (built and
  cached on first use) instead of the article's, which forbids steep placements; preview leaves follow it.
  --strategy expectimax averages over the next unknown piece with the randomizer's exact distribution,
  expectimax2 over the next two (the second given the first); best is the strongest measured (docs/results.md). --tetris choice lets the AI send an I down the well
  whenever the lowest column is at least 4 (forced at --threshold either way). --leaf preview scores
  expectimax leaves with the preview table of the randomizer (surface x piece in hand; built and cached
  on first use, about 700 MB in memory) instead of the rank table's best placement per piece.
  --leaf-iterations: iterations of that preview table (default: the rank table's, 15); 60 measured stronger.
  --board-height: rows of the board (4..63); 63 is no practical limit, the article's surface-only game.`;

export function steepOption(v: string | undefined): SteepRule | undefined {
  if (v === undefined || (STEEP_RULES as readonly string[]).includes(v)) return v as SteepRule | undefined;
  throw new UsageError(`--steep must be one of ${STEEP_RULES.join(', ')}; got ${JSON.stringify(v)}`);
}

export function strategyOption(v: string | undefined): StrategyName {
  if (v === undefined) return 'rank';
  if (v === 'best' || (STRATEGIES as readonly string[]).includes(v)) return v as StrategyName;
  throw new UsageError(`--strategy must be ${STRATEGIES.join(', ')} or best; got ${JSON.stringify(v)}`);
}

export function randomizerOption(v: string | undefined): (typeof RANDOMIZER_NAMES)[number] {
  const name = v ?? 'tgm1';
  if (!isRandomizerName(name)) throw new UsageError(`--randomizer must be one of ${RANDOMIZER_NAMES.join(', ')}; got ${JSON.stringify(v)}`);
  return name;
}

export async function benchCommand(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'survival') return survival(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h') {
    io.out(USAGE);
    return sub ? 0 : 2;
  }
  throw new UsageError(`unknown benchmark ${JSON.stringify(sub)}; available: survival`);
}

function row(r: SimulationResult) {
  return {
    lookahead: r.lookahead,
    meanPieces: r.meanPieces,
    ci95: r.ci95,
    deaths: r.deaths,
    games: r.games,
    pieces: r.pieces,
    piecesPerSecond: r.piecesPerSecond,
    estimator: r.estimator,
    articleFigure: ARTICLE_FIGURES[r.lookahead] ?? null,
    randomizer: r.randomizer,
    steep: r.rules.steep,
    tetris: r.rules.tetris,
    tetrisThreshold: r.rules.tetrisThreshold,
    boardHeight: r.rules.boardHeight,
    strategy: r.strategy,
    leaf: r.leaf,
    seed: r.seed,
  };
}

async function survival(argv: string[], io: CliIO): Promise<number> {
  const { values } = parse(
    argv,
    {
      lookahead: { type: 'string' },
      randomizer: { type: 'string' },
      games: { type: 'string' },
      'max-pieces': { type: 'string' },
      seed: { type: 'string' },
      steep: { type: 'string' },
      strategy: { type: 'string' },
      tetris: { type: 'string' },
      threshold: { type: 'string' },
      'board-height': { type: 'string' },
      'leaf-iterations': { type: 'string' },
      leaf: { type: 'string' },
      threads: { type: 'string' },
      ...tableOptions,
    },
    false,
  );
  if (values.help) return io.out(USAGE), 0;
  const lookaheads = listOption('lookahead', values.lookahead, [0, 1, 2, 3, 4], 0, 6);
  const randomizer = randomizerOption(values.randomizer);
  const games = intOption('games', values.games, 100, 1, 1_000_000);
  const maxPieces = intOption('max-pieces', values['max-pieces'], 200_000, 1, Number.MAX_SAFE_INTEGER);
  const seed = intOption('seed', values.seed, 0, 0, 2 ** 32 - 1);
  const steep = steepOption(values.steep) ?? DEFAULT_RULES.steep;
  const strategy = strategyOption(values.strategy);
  const tetris = values.tetris ?? DEFAULT_RULES.tetris;
  if (tetris !== 'forced' && tetris !== 'choice') throw new UsageError(`--tetris must be forced or choice; got ${JSON.stringify(tetris)}`);
  const boardHeight = intOption('board-height', values['board-height'], DEFAULT_RULES.boardHeight, 4, 63);
  const tetrisThreshold = intOption('threshold', values.threshold, DEFAULT_RULES.tetrisThreshold, 4, 63);
  if (tetrisThreshold > boardHeight) throw new UsageError(`the Tetris threshold (${tetrisThreshold}) must not exceed --board-height (${boardHeight})`);
  const threads = values.threads === undefined ? undefined : intOption('threads', values.threads, 1, 1, 256);
  const leaf = values.leaf ?? 'piece-max';
  if (leaf !== 'piece-max' && leaf !== 'preview') throw new UsageError(`--leaf must be piece-max or preview; got ${JSON.stringify(leaf)}`);
  if (leaf === 'preview' && strategy === 'rank') throw new UsageError('--leaf preview needs --strategy expectimax, expectimax2 or best');
  if (values['leaf-iterations'] !== undefined && leaf !== 'preview') throw new UsageError('--leaf-iterations needs --leaf preview');
  const table: RankTable = await loadTableForCli(values, io);
  let leafRows: LeafRows | undefined;
  if (leaf === 'preview') {
    const { loadOrBuildCachedPreviewTable } = await import('../rank/variant-cache.js');
    io.status(`preview table for ${randomizer}: loading or building`);
    const iterations = intOption('leaf-iterations', values['leaf-iterations'], table.iterations, 1, MAX_ITERATIONS);
    // The preview table follows the rank table's steep rule.
    leafRows = (await loadOrBuildCachedPreviewTable({ width: table.width, maxStep: table.maxStep, iterations, randomizer, steep: table.steep })).table;
    io.status('');
  }

  const rows = [];
  if (!values.json) {
    io.out(`survival under ${randomizer}, steep ${steep}, Tetris ${tetris} at ${tetrisThreshold}, board height ${boardHeight}, strategy ${strategy}, leaf ${strategy === 'rank' ? 'rank' : leaf}, table ${table.width}x${table.maxStep}/${table.iterations} iterations, ${games} streams, budget ${maxPieces.toLocaleString('en-US')} pieces per lookahead, seed ${seed}`);
    io.out('lookahead  mean pieces   95% CI                deaths   pieces/s    article');
    io.out("article: the 2009 article's figures; they fit the game where steep steps collapse (--steep collapse), not the real game (docs/results.md)");
  }
  for (const lookahead of lookaheads) {
    const result = await simulateStacking({
      table,
      randomizer,
      lookahead,
      games,
      maxPieces,
      seed,
      rules: { steep, tetris, tetrisThreshold, boardHeight },
      strategy,
      leafRows,
      threads,
      signal: io.signal,
      onProgress: (p) => io.status(`lookahead ${lookahead}: ${p.pieces.toLocaleString('en-US')} pieces, ${p.deaths} deaths, ${formatDuration(p.elapsedMs)}`),
    });
    io.status('');
    const r = row(result);
    rows.push(r);
    if (values.json) io.out(JSON.stringify(r));
    else {
      const ci = `[${Math.round(r.ci95[0]).toLocaleString('en-US')}, ${Number.isFinite(r.ci95[1]) ? Math.round(r.ci95[1]).toLocaleString('en-US') : 'inf'}]`;
      io.out(
        `${String(lookahead).padStart(9)}  ${r.meanPieces.toFixed(1).padStart(11)}   ${ci.padEnd(20)} ${String(r.deaths).padStart(7)}  ${Math.round(r.piecesPerSecond).toLocaleString('en-US').padStart(9)}  ${(r.articleFigure ?? 0).toLocaleString('en-US').padStart(9)}`,
      );
    }
  }
  return 0;
}
