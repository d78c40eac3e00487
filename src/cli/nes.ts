/**
 * `stackrank bench nes`: TetrisAI playing NES Tetris as the competition plays it (docs/game.md, "NES Tetris: the
 * competition format"): levels, score, the killscreens and a level cap, each placement one the frames allow at the
 * game's level.
 */
import { StackRankError } from '../errors.js';
import { playGame } from '../tetris-ai/play.js';
import { mergeGameResults, type PlayGameResult } from '../tetris-ai/game-results.js';
import type { GameTally } from '../tetris-ai/play-types.js';
import { NES_LEVEL_BANDS } from '../tetris-ai/nes-stats.js';
import { PLAY_OUTS } from '../tetris-ai/play-outs.js';
import { MAX_START_LEVEL, NES_COMPETITION_MAX_LEVEL, nesFormat } from '../rules/nes-game.js';
import { RULE_SETS } from '../rules/rule-sets.js';
import { MAX_LEVEL, MAX_REACTION, NES_DOUBLE_KILLSCREEN, type GameTiming } from '../rules/timing.js';
import { UsageError } from './args.js';
import { gameMeta, partResult, playResuming, runMeta } from './game.js';
import type { CliIO } from './io.js';
import { TABLE_SOURCE, THREADS, TIMELINE, checkTimelineOption, lookaheadOption, seedOption } from './options.js';
import { formatDuration } from './progress.js';
import { RUN_OPTIONS, runParams, runRecorded, tableIdentity, type ExpectedMeta, type RunFile } from './run-files.js';
import { startRun } from './run-recorder.js';
import { defineCommand } from './spec.js';
import { loadTableForCli } from './table-source.js';

/** The level from which a timing's gravity moves more than one row per frame (null: none). */
function doubleKillscreenOf(timing: GameTiming | undefined): number | null {
  const at = timing?.gravity.findIndex((g) => g.rows > 1) ?? -1;
  return at < 0 ? null : at;
}

/** One JSON line / the table's figures. */
function row(r: PlayGameResult) {
  const nes = r.nes!;
  const f = r.format!;
  return {
    games: r.games,
    startLevel: f.level,
    timeline: f.timeline,
    reaction: f.reaction,
    doubleKillscreen: doubleKillscreenOf(f.timing),
    maxLevel: f.maxLevel,
    randomizer: r.randomizer,
    lookahead: r.lookahead,
    playOuts: r.playOuts,
    averageScore: nes.averageScore,
    averageScoreCi95: nes.averageScoreCi95,
    meanLines: nes.meanLines,
    medianLines: nes.medianLines,
    p1Lines: nes.p1Lines,
    tetrisRate: r.tetrisRate,
    tetrisRateCi95: r.tetrisRateCi95,
    clears: r.clears,
    tetrisRateByBand: Object.fromEntries(nes.bands.map((b) => [b.band, b.tetrisRate])),
    linesByBand: Object.fromEntries(nes.bands.map((b) => [b.band, b.lines])),
    scoreByBand: Object.fromEntries(nes.bands.map((b) => [b.band, b.averageScore])),
    endLevels: nes.endLevels,
    reachedCap: nes.reachedCap,
    topOuts: r.topOuts,
    pieces: r.pieces,
    lines: r.lines,
    stackShare: r.stackShare,
    piecesPerSecond: r.piecesPerSecond,
    seconds: r.seconds,
    seed: r.seed,
  };
}

const count = (x: number) => Math.round(x).toLocaleString('en-US');
const percent = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)} %`);

function printNes(io: CliIO, json: boolean, result: PlayGameResult): void {
  const r = row(result);
  if (json) {
    io.out(JSON.stringify(r));
    return;
  }
  io.out(
    `NES games: start level ${r.startLevel}, timeline ${r.timeline}, reaction ${r.reaction} frames, double killscreen ${r.doubleKillscreen ?? 'none'}, level cap ${r.maxLevel ?? 'none'}; randomizer ${r.randomizer}, lookahead ${r.lookahead}${r.playOuts ? '' : ', no play-outs'}, seed ${r.seed}`,
  );
  io.out(
    'games  average score  95 % interval            mean lines  median  1st pct  Tetris rate  top-outs  reached cap  pieces/s',
  );
  const ci = r.averageScoreCi95 ? `${count(r.averageScoreCi95[0])}–${count(r.averageScoreCi95[1])}` : 'none';
  io.out(
    `${String(r.games).padStart(5)}  ${count(r.averageScore).padStart(13)}  ${ci.padEnd(23)}  ${r.meanLines.toFixed(1).padStart(10)}  ${String(r.medianLines).padStart(6)}  ${String(r.p1Lines).padStart(7)}  ${percent(r.tetrisRate).padStart(11)}  ${String(r.topOuts).padStart(8)}  ${String(r.reachedCap).padStart(11)}  ${count(r.piecesPerSecond).padStart(8)}`,
  );
  io.out(
    `Tetris rate by level band: ${Object.keys(r.tetrisRateByBand)
      .map((b) => `${b} ${percent(r.tetrisRateByBand[b])} (${count(r.linesByBand[b])} lines)`)
      .join(', ')}`,
  );
  const c = r.clears;
  io.out(
    `clears: ${count(c.single)} singles, ${count(c.double)} doubles, ${count(c.triple)} triples, ${count(c.tetris)} Tetrises`,
  );
  // the running total at each band's end: BetaTetris publishes its averages "pre-19", "pre-29" and "pre-39" so
  let before = 0;
  const totals = NES_LEVEL_BANDS.slice(1).map((b, i) => {
    before += r.scoreByBand[NES_LEVEL_BANDS[i].label];
    return `before ${b.from} ${count(before)}`;
  });
  io.out(
    `average score by level band: ${Object.keys(r.scoreByBand)
      .map((b) => `${b} ${count(r.scoreByBand[b])}`)
      .join(', ')} (${totals.join(', ')})`,
  );
  const levels = Object.keys(r.endLevels)
    .map(Number)
    .sort((a, b) => a - b);
  io.out(`games ended at level: ${levels.map((l) => `${l}: ${r.endLevels[l]}`).join(', ')}`);
}

/** The format options a run records (its option values, or a run file's `params`). */
interface FormatValues {
  startLevel: number;
  timeline: string;
  reaction: number;
  doubleKillscreen: number;
  maxLevel: number;
}

/** The NES format a run plays, from its option values or a run file's `params` (0: none, for both levels). */
function runFormat(v: FormatValues) {
  return nesFormat({
    startLevel: v.startLevel,
    timeline: v.timeline,
    reaction: v.reaction,
    doubleKillscreen: v.doubleKillscreen === 0 ? null : v.doubleKillscreen,
    maxLevel: v.maxLevel === 0 ? null : v.maxLevel,
  });
}

/**
 * What a finished part's `meta` (playGame's description of its run) must say: bench game's fields, and the format
 * the run's options make, as playGame describes it (`format`: start level, timeline, reaction, the gravity table
 * with its double killscreen, the cap). A params set that makes no format throws, and the file is refused.
 */
export const nesMeta: ExpectedMeta = (params, key) => {
  const { rules, maxLevel } = runFormat(params as unknown as FormatValues);
  const { level, timeline, reaction, timing } = rules;
  return {
    ...gameMeta(params, key),
    rules: rules.name,
    format: { level, timeline, reaction, timing, maxLevel },
    // (a run file written before --play-outs existed played them and does not say so)
    ...(params.playOuts === undefined ? {} : { playOuts: params.playOuts }),
  };
};

export const benchNesCommand = defineCommand({
  path: 'bench nes',
  summary: 'TetrisAI in NES Tetris as the competition plays it: score, lines, killscreens',
  description: `Plays --games NES games with TetrisAI, every placement one the frames allow at the game's level
(docs/rules.md, "Time: NES Tetris as it is played"): the game starts at --start-level, levels up (the first level-up
from start level S at min(10 S + 10, max(100, 10 S - 50)) lines, then every 10), scores 40/100/300/1200 x (level + 1),
falls one row per frame from level 29 and two from --double-killscreen, and ends at --max-level or a top-out. The
player taps by --timeline (X. = 30 Hz, X.. 20 Hz, X... 15 Hz, X.... 12 Hz, X..... 10 Hz) or shifts by DAS (das,
dasCharged); the next piece is known --reaction frames after a piece appears (the AI commits to its first
inputs without it: docs/game.md). Prints the average score with its 95 % interval, mean, median and 1st-percentile lines, the
Tetris rate overall and by level band, the clears by size, the levels where games ended and speed; --json one object per line. The
pieces come from the NES randomizer seeded per game (the same games on any thread count). --shard I/N with --out,
--checkpoint and stackrank merge as for bench game (docs/distributed.md). The defaults are the competition format
(docs/game.md); --no-play-outs plays without play-outs (docs/game.md, "Play-outs").`,
  options: {
    startLevel: {
      type: 'int',
      min: 0,
      max: MAX_START_LEVEL,
      default: RULE_SETS.nes.level!,
      help: 'level the game starts at',
    },
    timeline: TIMELINE,
    reaction: {
      type: 'int',
      min: 0,
      max: MAX_REACTION,
      default: RULE_SETS.nes.reaction!,
      help: 'frames after a piece appears before the next piece is known',
    },
    doubleKillscreen: {
      type: 'int',
      min: 0,
      max: MAX_LEVEL,
      default: NES_DOUBLE_KILLSCREEN,
      arg: 'LEVEL',
      help: 'level from which gravity is two rows per frame (0: never, as in the 1989 game)',
    },
    maxLevel: {
      type: 'int',
      min: 0,
      max: MAX_LEVEL,
      default: NES_COMPETITION_MAX_LEVEL,
      arg: 'LEVEL',
      help: 'level that ends the game (0: none, the game goes on to a top-out)',
    },
    // The NES shows one next piece: a second known piece would score a game nobody can play (docs/game.md).
    lookahead: {
      ...lookaheadOption(1),
      max: 1,
      help: 'next pieces the AI sees: 1, the one the NES shows, or 0 to play without it',
    },
    playOuts: {
      type: 'flag',
      help: `weigh a tall stack's burn at levels ${PLAY_OUTS.fromLevel}-${PLAY_OUTS.toLevel}, and keeping the well from ${PLAY_OUTS.wellFromLevel}, by playing on (the default; docs/game.md, "Play-outs")`,
      negation: "play the policy's move alone: about 4 times faster, and the games of the AI without play-outs",
    },
    games: { type: 'int', min: 1, max: 1_000_000, default: 1, help: 'games to play' },
    maxPieces: { type: 'int', min: 1, max: Number.MAX_SAFE_INTEGER, default: 10_000, help: 'pieces per game at most' },
    seed: seedOption(0),
    threads: { ...THREADS, defaultHelp: 'the number of cores, at most --games' },
    ...TABLE_SOURCE,
    ...RUN_OPTIONS,
  },
  async run({ values, given }, io) {
    const { startLevel, maxPieces, seed, lookahead } = values;
    checkTimelineOption(values.timeline);
    const maxLevel = values.maxLevel === 0 ? null : values.maxLevel;
    if (maxLevel !== null && maxLevel <= startLevel)
      throw new UsageError(`--max-level must be above --start-level (${startLevel}), or 0 for none; got ${maxLevel}`);
    const format = runFormat(values);
    const table = await loadTableForCli(values, given, io);
    const run = await startRun(io, {
      command: 'bench nes',
      params: runParams(values, { rankTable: tableIdentity(table, runRecorded(values)) }),
      values,
      recordName: 'game',
      indexOf: (r) => (r as GameTally).game,
      expectedMeta: nesMeta,
    });
    await run.play(async () => {
      const part = run.part<GameTally>('games');
      const total = run.range.end - run.range.start;
      const finished = new Set(part.resume.map((t) => t.game));
      const play = (start: number, end: number) => {
        const before = finished.size;
        return playGame({
          rules: format.rules,
          maxLevel: format.maxLevel,
          lookahead,
          games: end - start,
          firstGame: start,
          maxPieces,
          seed,
          table,
          playOuts: values.playOuts,
          threads: values.threads,
          signal: io.signal,
          onProgress: (p) =>
            io.status(
              `NES game ${Math.min(Math.max(finished.size, before + p.games) + 1, total)}/${total}, ${count(p.pieces)} pieces, ${count(p.lines)} lines, ${formatDuration(p.elapsedMs)}`,
            ),
          onGame: (tally) => {
            finished.add(tally.game);
            part.add(tally);
          },
        });
      };
      const result = await playResuming(run.range, part.resume, part.meta, play);
      if (!result.nes) throw new StackRankError('BAD_ARGUMENT', 'the run recorded games without their NES figures');
      result.seconds = part.finish(runMeta(result), result.seconds);
      result.piecesPerSecond = result.seconds > 0 ? result.pieces / result.seconds : 0;
      io.status('');
      printNes(io, values.json, result);
    });
    return 0;
  },
});

/** `stackrank merge` of bench nes shards (checked by checkShardSet, in shard order). */
export function printMergedNes(io: CliIO, json: boolean, shards: readonly { run: RunFile }[]): void {
  const result = mergeGameResults(
    shards.map(({ run }) => {
      const part = run.parts[0];
      return partResult(part.meta!, run.shard, part.records as GameTally[], part.seconds);
    }),
  );
  printNes(io, json, result);
}
