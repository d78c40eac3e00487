/**
 * A/B of the kernels against another checkout (e.g. the commit before a refactor), in alternating processes: each
 * round runs bench/search.ts and bench/fullboard.ts once in each tree, the order of the two trees swapping every
 * round, so load from other jobs on a shared machine falls on both alike. Prints, per benchmark row, the median over
 * rounds of this tree's rate / the other's in the same round, with the lowest and highest round ratio.
 *
 *   git worktree add --detach /tmp/base <rev> && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   (cd /tmp/base && node scripts/build-wasm.mjs)
 *   npx tsx bench/ab.ts --other /tmp/base [--rounds 5] [--search-repeats 3] [--positions 3000]
 *
 * The other tree must have the same bench/search.ts and bench/fullboard.ts options and result files (true of every
 * commit since both benchmarks wrote JSON). Each tree's bench/results/search.json and fullboard.json are restored
 * afterwards. Writes bench/results/ab.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  other: { type: 'string' },
  rounds: { type: 'string', default: '5' },
  'search-repeats': { type: 'string', default: '3' },
  positions: { type: 'string', default: '3000' },
});
if (!args.other) throw new Error('--other DIR (a checkout with built kernels) is required');
const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const other = resolve(args.other);
const rounds = Number(args.rounds);

/** The parts of bench/results/search.json and fullboard.json read here. */
interface ResultFile {
  rows: {
    lookahead?: number;
    'moves/s (median)'?: number;
    'CPU moves/s (median)'?: number;
    case?: string;
    cpuPiecesPerSecond?: number;
  }[];
}
interface Bench {
  name: string;
  argv: string[];
  result: string;
  /** Rates by row name from the benchmark's JSON. */
  rates(json: ResultFile): Record<string, number>;
}
const BENCHES: Bench[] = [
  {
    name: 'search',
    argv: ['bench/search.ts', '--repeats', args['search-repeats']!, '--positions', args.positions!],
    result: 'bench/results/search.json',
    // CPU rates where the tree's bench/search.ts records them (the fairer figure on a shared machine), else wall.
    rates: (j) =>
      Object.fromEntries(
        j.rows.map((r) =>
          r['CPU moves/s (median)'] === undefined
            ? [`search lookahead ${r.lookahead} (moves/s)`, r['moves/s (median)'] ?? NaN]
            : [`search lookahead ${r.lookahead} (CPU moves/s)`, r['CPU moves/s (median)']],
        ),
      ),
  },
  {
    name: 'fullboard',
    argv: ['bench/fullboard.ts', '--quick'],
    result: 'bench/results/fullboard.json',
    rates: (j) =>
      Object.fromEntries(
        j.rows
          .filter((r) => r.case?.includes('WASM'))
          // trees from before the preset's rename call the cs3243 preset seedGA
          .map((r) => [`fullboard ${r.case?.replace('seedGA', 'cs3243')} (CPU pieces/s)`, r.cpuPiecesPerSecond ?? NaN]),
      ),
  },
];

const saved = new Map<string, string | null>();
for (const tree of [here, other])
  for (const b of BENCHES) {
    const p = join(tree, b.result);
    saved.set(p, existsSync(p) ? readFileSync(p, 'utf8') : null);
  }

function run(tree: string, b: Bench): Record<string, number> {
  execFileSync(process.execPath, ['--import', 'tsx', ...b.argv], { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'] });
  return b.rates(JSON.parse(readFileSync(join(tree, b.result), 'utf8')));
}

const ratios = new Map<string, number[]>();
const mine = new Map<string, number[]>();
const theirs = new Map<string, number[]>();
try {
  for (let r = 0; r < rounds; r++) {
    for (const b of BENCHES) {
      const order = r % 2 === 0 ? [other, here] : [here, other];
      const got = new Map(order.map((tree) => [tree, run(tree, b)]));
      const a = got.get(here)!;
      const o = got.get(other)!;
      for (const key of Object.keys(a)) {
        if (!(key in o)) continue;
        for (const [m, v] of [
          [ratios, a[key] / o[key]],
          [mine, a[key]],
          [theirs, o[key]],
        ] as const) {
          if (!m.has(key)) m.set(key, []);
          m.get(key)!.push(v);
        }
      }
      console.error(`round ${r + 1}/${rounds} ${b.name} done`);
    }
  }
} finally {
  for (const [p, text] of saved) if (text !== null) writeFileSync(p, text);
}

const rows = [...ratios.keys()].map((key) => {
  const rs = ratios.get(key)!;
  return {
    row: key,
    'this (median)': Math.round(median(mine.get(key)!)),
    'other (median)': Math.round(median(theirs.get(key)!)),
    'ratio this/other (median)': Number(median(rs).toFixed(3)),
    'lowest round': Number(Math.min(...rs).toFixed(3)),
    'highest round': Number(Math.max(...rs).toFixed(3)),
  };
});
console.log(`\nA/B against ${other}: ${rounds} rounds, alternating processes (measured ${new Date().toISOString()})\n`);
printTable(rows);
console.log(
  `\nwrote ${writeResults('ab', { date: new Date().toISOString(), machine: machine(), other, rounds, rows })}`,
);
