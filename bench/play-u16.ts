/**
 * Does the mirror-folded u16 table (the default build) play like the f32 iteration on the full 9x4 table? Builds
 * both, then for sampled (surface, piece) positions compares the placement each table picks with one known piece
 * (test/helpers/play-compare.ts); every differing pick must be a tie within the u16 build's resolution.
 *
 *   npx tsx bench/play-u16.ts                      # 200,000 positions, seed 1
 *   npx tsx bench/play-u16.ts --positions 1000000 --seed 7
 */
import { buildRankTable } from '../src/rank/table.js';
import { comparePlay, sampledPositions } from '../test/helpers/play-compare.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  positions: { type: 'string', default: '200000' },
  seed: { type: 'string', default: '1' },
  iterations: { type: 'string', default: '15' },
});
const positions = Number(args.positions);
const iterations = Number(args.iterations);
const f32 = await buildRankTable({ iterations, encoding: 'f32' });
const u16 = await buildRankTable({ iterations });
const got = comparePlay(f32, u16, sampledPositions(f32.size, positions, Number(args.seed)));
console.log(
  `\n9x4 table, ${iterations} iterations: u16 mirror-folded build vs f32 iteration, ${positions.toLocaleString('en-US')} sampled positions (seed ${args.seed})\n`,
);
printTable([
  {
    positions: got.positions,
    'with a legal placement': got.decided,
    'different picks': got.differences,
    'of which ties': got.ties,
    'largest f32 gap of a differing pick': got.largestGap,
    'max |u16 - f32| value': got.maxValueError,
    'in u16 units': got.maxValueError / u16.scale,
    'tie bound': got.tieBound,
  },
]);
const path = writeResults('play-u16', {
  date: new Date().toISOString(),
  machine: machine(),
  iterations,
  seed: Number(args.seed),
  u16Scale: u16.scale,
  ...got,
});
console.log(`\nwrote ${path}`);
if (got.ties !== got.differences) process.exitCode = 1;
