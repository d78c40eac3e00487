/**
 * Speed of the real-game simulator (playGame, docs/game.md): pieces per second of TetrisAI's games per target row
 * of bench/notes/results.md, on 1 thread and on more, with the 1-thread run of the same row as the baseline measured in
 * the same run. Medians over repeated runs; each run plays the same games (same seed), and the table says whether
 * every thread count played exactly the games the 1-thread run did. Setup (loading the table, starting workers,
 * making the AIs) is not timed: playGame's clock starts when play does. Writes bench/results/game-speed.json.
 *
 *   npx tsx bench/game-speed.ts [--rows classic,nes,guideline,tgm20g] [--threads 1,2] [--games 4]
 *                               [--max-pieces 4000] [--repeats 3] [--seed 1] [--out game-speed] [--other DIR]
 *
 * --other DIR also plays each row on 1 thread with another checkout's playGame (e.g. the commit before a speed-up:
 * `git worktree add --detach /tmp/base <rev>`, node_modules linked, its kernels built), in the same process, the two
 * taking turns run by run, and prints this tree's speed / the other's (wall clock and CPU time) and whether both
 * played the same games.
 *
 * On a busy machine the figures fall with the load (the JSON records the load average); rerun on a quiet one.
 */
import { resolve } from 'node:path';
import { playGame } from '../src/tetris-ai/play.js';
import type { PlayGameResult } from '../src/tetris-ai/game-results.js';
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import type { RandomizerName } from '../src/randomizers/index.js';
import type { RuleSetName } from '../src/rules/types.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  rows: { type: 'string', default: 'classic,nes,guideline,tgm20g' },
  threads: { type: 'string', default: '1,2' },
  games: { type: 'string', default: '4' },
  'max-pieces': { type: 'string', default: '4000' },
  repeats: { type: 'string', default: '3' },
  seed: { type: 'string', default: '1' },
  out: { type: 'string', default: 'game-speed' },
  other: { type: 'string' },
});

/** The target rows of bench/notes/results.md ("Real games") and the speed each aims at with 2 threads. */
const ROWS: Record<
  string,
  { rules: RuleSetName; randomizer: RandomizerName; lookahead: number; hold: boolean; target: number | null }
> = {
  classic: { rules: 'classic', randomizer: 'tgm1', lookahead: 1, hold: false, target: 50_000 },
  // the timing-free model the speed target was set for (NES with time: stackrank bench nes)
  nes: { rules: 'nesUntimed', randomizer: 'nes', lookahead: 1, hold: false, target: 50_000 },
  guideline: { rules: 'guideline', randomizer: 'bag7', lookahead: 5, hold: true, target: 5_000 },
  tgm20g: { rules: 'tgm20g', randomizer: 'tgm1', lookahead: 1, hold: false, target: null },
};

const threadCounts = args.threads!.split(',').map(Number);
if (threadCounts[0] !== 1) threadCounts.unshift(1); // the baseline
const games = Number(args.games);
const maxPieces = Number(args['max-pieces']);
const repeats = Number(args.repeats);
const seed = Number(args.seed);
const { table } = await loadOrBuildCachedTable();

/** The other checkout's playGame and table (--other), loaded from its own sources. */
const other = args.other
  ? {
      playGame: (await import(`${resolve(args.other)}/src/tetris-ai/play.ts`)).playGame as typeof playGame,
      table: (await (await import(`${resolve(args.other)}/src/rank/cache.ts`)).loadOrBuildCachedTable()).table,
    }
  : null;

/** What must not depend on the thread count: every game's pieces, stack moves and holes, and the clears. */
const playedGames = (r: PlayGameResult) =>
  JSON.stringify([r.gamePieces, r.gameStackPieces, r.gameHolesMade, r.clears, r.topOuts]);

const printed: Record<string, string | number>[] = [];
const raw: unknown[] = [];
for (const key of args.rows!.split(',')) {
  const row = ROWS[key];
  if (!row) throw new Error(`unknown row ${key}; rows are ${Object.keys(ROWS).join(', ')}`);
  const { target, ...options } = row;
  // Warm-up (not counted): the shared search images for this table are made once, and the code is compiled.
  for (const threads of threadCounts)
    await playGame({ ...options, games: threads, maxPieces: 200, seed, table, threads });
  let baseline = 0;
  let reference = '';
  for (const threads of threadCounts) {
    const runs: PlayGameResult[] = [];
    const cpuPerPiece: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const cpu = process.cpuUsage();
      runs.push(await playGame({ ...options, games, maxPieces, seed, table, threads }));
      const used = process.cpuUsage(cpu);
      cpuPerPiece.push((used.user + used.system) / runs[i].pieces);
    }
    const speeds = runs.map((r) => r.piecesPerSecond);
    const speed = median(speeds);
    if (threads === 1) {
      baseline = speed;
      reference = playedGames(runs[0]);
    }
    const same = runs.every((r) => playedGames(r) === reference);
    const r = runs[0];
    printed.push({
      'rules, randomizer, lookahead, hold': `${row.rules}, ${row.randomizer}, ${row.lookahead}, ${row.hold ? 'hold' : 'no'}`,
      threads,
      pieces: r.pieces,
      'pieces/s (median)': Math.round(speed),
      'min..max': `${Math.round(Math.min(...speeds))}..${Math.round(Math.max(...speeds))}`,
      'vs 1 thread': Number((speed / baseline).toFixed(2)),
      // CPU time of the whole process per piece (1 thread: the game loop; more: worker start-up too): steadier than
      // the wall clock on a busy machine.
      'pieces per CPU-s': threads === 1 ? Math.round(1e6 / median(cpuPerPiece)) : '',
      target: target === null ? 'report' : threads === 2 ? `>= ${target.toLocaleString('en-US')}` : '',
      'same games': same ? 'yes' : 'NO',
      'Tetris rate': `${(100 * r.tetrisRate).toFixed(1)} %`,
      'stack share': `${(100 * r.stackShare).toFixed(1)} %`,
    });
    raw.push({
      row: key,
      ...options,
      threads,
      games,
      maxPieces,
      seed,
      repeats,
      piecesPerSecond: speeds,
      medianPiecesPerSecond: speed,
      ratioToOneThread: speed / baseline,
      cpuMicrosecondsPerPiece: cpuPerPiece,
      targetWithTwoThreads: target,
      sameGamesAsOneThread: same,
      pieces: r.pieces,
      tetrisRate: r.tetrisRate,
      stackShare: r.stackShare,
      topOuts: r.topOuts,
    });
  }
}
printTable(printed);

const abPrinted: Record<string, string | number>[] = [];
const abRaw: unknown[] = [];
if (other) {
  for (const key of args.rows!.split(',')) {
    const { target, ...options } = ROWS[key];
    void target;
    const mine: number[] = [];
    const theirs: number[] = [];
    const mineCpu: number[] = [];
    const theirsCpu: number[] = [];
    let same = true;
    // Warm-up of the other tree (its search image is made on first use; this tree's was made above).
    await other.playGame({ ...options, games: 1, maxPieces: 200, seed, table: other.table, threads: 1 });
    for (let i = 0; i < repeats; i++) {
      // Order swaps every repeat, so load from other jobs falls on both alike.
      const order = i % 2 === 0 ? (['mine', 'theirs'] as const) : (['theirs', 'mine'] as const);
      const got: Partial<Record<'mine' | 'theirs', PlayGameResult>> = {};
      for (const who of order) {
        const cpu = process.cpuUsage();
        const r =
          who === 'mine'
            ? await playGame({ ...options, games, maxPieces, seed, table, threads: 1 })
            : await other.playGame({ ...options, games, maxPieces, seed, table: other.table, threads: 1 });
        const used = process.cpuUsage(cpu);
        (who === 'mine' ? mine : theirs).push(r.piecesPerSecond);
        (who === 'mine' ? mineCpu : theirsCpu).push(r.pieces / ((used.user + used.system) / 1e6));
        got[who] = r;
      }
      same &&= JSON.stringify(got.mine!.gamePieces) === JSON.stringify(got.theirs!.gamePieces);
      same &&= JSON.stringify(got.mine!.clears) === JSON.stringify(got.theirs!.clears);
    }
    const row = ROWS[key];
    abPrinted.push({
      'rules, randomizer, lookahead, hold': `${row.rules}, ${row.randomizer}, ${row.lookahead}, ${row.hold ? 'hold' : 'no'}`,
      'this pieces/s': Math.round(median(mine)),
      'other pieces/s': Math.round(median(theirs)),
      'this / other': Number((median(mine) / median(theirs)).toFixed(2)),
      'this / other (CPU)': Number((median(mineCpu) / median(theirsCpu)).toFixed(2)),
      'same games': same ? 'yes' : 'NO',
    });
    abRaw.push({ row: key, mine, theirs, mineCpu, theirsCpu, sameGames: same });
  }
  console.log(`\nthis tree against ${args.other} (1 thread, median of ${repeats}):`);
  printTable(abPrinted);
}
const path = writeResults(args.out!, { machine: machine(), args, rows: raw, against: other ? abRaw : undefined });
console.log(`\nwrote ${path}`);
