/**
 * Two checkouts of the repository, A (before) and B (after), timed against each other in alternating processes:
 * each case runs once per side per round, the side going first alternating from round to round, and every process
 * runs under `nice -n 10` with its wall and CPU time taken by /usr/bin/time. Both trees must be built
 * (`npm run build` in each; the rank table cache is shared). It also checks that the sides compute the same things:
 * the same table file bytes, the same search nodes per move, the same games (the figures of `bench game --json`
 * both print: pieces, lines, Tetris rate, clears, top-outs, stack share, holes), the same full-board games (lines
 * and pieces per game of `full play`).
 *
 *   npx tsx bench/tree-ab.ts --a /tmp/base --b . [--rounds 3] [--cases table,search,game,fullboard]
 *       [--rules classic,nes,guideline,tgm,tgm20g] [--pieces 1500] [--positions 1000] [--b-game 'R=OPTIONS;…']
 *
 * Cases (the same command in each tree; each tree's own bench scripts, which differ only in their imports):
 *  - table: `node dist/cli.js table build --threads 1 --out FILE` (the default 9x4 table, 15 iterations, one
 *    thread), CPU seconds of the process.
 *  - search: `npx tsx bench/search.ts --positions N --repeats 3`, moves per CPU second at lookahead 0..4 (from the
 *    tree's bench/results/search.json, which the run overwrites).
 *  - game: `node dist/cli.js bench game --rules R --games 1 --max-pieces N --seed 7 --json`, the CPU seconds of the
 *    process (start-up, about 4 s of loading the rank table and the rule set's tables, included: the earlier builds
 *    report a wall-clock rate only). `--b-game 'R=OPTIONS;…'` gives side B other options than `--rules R` for a
 *    rule set whose name or default changed (e.g. `nes=--rules nesUntimed`).
 *  - fullboard: `npx tsx bench/fullboard.ts --quick`, pieces per CPU second per case (from
 *    bench/results/fullboard.json), then `node dist/cli.js full play --weights bcts --games 3 --seed 7
 *    --max-pieces 50000 --json` (its games are the full board's identity check), CPU seconds of the process.
 *
 * Prints the medians per side, the ratio B/A of the medians (above 1: B faster), the checks, and writes
 * bench/results/tree-ab.json. Restore the overwritten result files with `git checkout bench/results` afterwards.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  a: { type: 'string' },
  b: { type: 'string' },
  rounds: { type: 'string', default: '3' },
  cases: { type: 'string', default: 'table,search,game,fullboard' },
  rules: { type: 'string', default: 'classic,nes,guideline,tgm,tgm20g' },
  pieces: { type: 'string', default: '1500' },
  positions: { type: 'string', default: '1000' },
  'b-game': { type: 'string', default: '' },
});
if (!args.a || !args.b) {
  console.error('--a and --b name the two checkouts');
  process.exit(2);
}
const SIDES = { A: resolve(args.a), B: resolve(args.b) } as const;
type Side = keyof typeof SIDES;
const cases = new Set(args.cases.split(','));
/** Side B's own `bench game` options for a rule set, where a name or a default changed (`--b-game`). */
const bGame = new Map(
  args['b-game']
    .split(';')
    .filter(Boolean)
    .map((entry) => {
      const [rules, options] = entry.split('=');
      return [rules, options.trim().split(/\s+/)] as const;
    }),
);
const rounds = Number(args.rounds);
const scratch = mkdtempSync(join(os.tmpdir(), 'tree-ab-'));

interface Run {
  wall: number;
  cpu: number;
  stdout: string;
}

/** One process in a tree, under nice, timed by /usr/bin/time. */
function run(side: Side, command: string[]): Run {
  const timeFile = join(scratch, 'time');
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', timeFile, 'nice', '-n', '10', ...command], {
    cwd: SIDES[side],
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`${side}: ${command.join(' ')} failed (${r.status}):\n${r.stderr}`);
  const [wall, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall, cpu: user + sys, stdout: r.stdout };
}

/** Figures per case and metric and side, over rounds; facts that must agree between sides. */
const figures = new Map<string, { A: number[]; B: number[]; better: 'higher' | 'lower' }>();
const facts = new Map<string, { A: Set<string>; B: Set<string> }>();
const record = (key: string, side: Side, value: number, better: 'higher' | 'lower') => {
  if (!figures.has(key)) figures.set(key, { A: [], B: [], better });
  figures.get(key)![side].push(value);
};
const fact = (key: string, side: Side, value: string) => {
  if (!facts.has(key)) facts.set(key, { A: new Set(), B: new Set() });
  facts.get(key)![side].add(value);
};

/** The figures of a `bench game --json` row both sides print (later builds add versus figures and a CPU rate). */
const GAME_FIGURES = [
  'rules',
  'randomizer',
  'lookahead',
  'hold',
  'pieces',
  'lines',
  'tetrisRate',
  'clears',
  'topOuts',
  'stackShare',
  'holesPer1000',
];

const steps: { name: string; go: (side: Side) => void }[] = [];
if (cases.has('table')) {
  steps.push({
    name: 'table',
    go: (side) => {
      const out = join(scratch, `table-${side}.srk`);
      const r = run(side, ['node', 'dist/cli.js', 'table', 'build', '--threads', '1', '--out', out]);
      record('table build 9x4, 1 thread: CPU s', side, r.cpu, 'lower');
      record('table build 9x4, 1 thread: wall s', side, r.wall, 'lower');
      fact('table file sha256', side, createHash('sha256').update(readFileSync(out)).digest('hex').slice(0, 16));
      rmSync(out, { force: true });
    },
  });
}
if (cases.has('search')) {
  steps.push({
    name: 'search',
    go: (side) => {
      run(side, ['npx', 'tsx', 'bench/search.ts', '--positions', args.positions, '--repeats', '3']);
      const json = JSON.parse(readFileSync(join(SIDES[side], 'bench/results/search.json'), 'utf8'));
      for (const row of json.rows) {
        record(`search lookahead ${row.lookahead}: CPU moves/s`, side, row['CPU moves/s (median)'], 'higher');
        record(`search lookahead ${row.lookahead}: wall moves/s`, side, row['moves/s (median)'], 'higher');
        fact(`search lookahead ${row.lookahead}: nodes per move`, side, String(row['nodes per move']));
      }
    },
  });
}
if (cases.has('game')) {
  for (const rules of args.rules.split(',')) {
    steps.push({
      name: `game ${rules}`,
      go: (side) => {
        const r = run(side, [
          'node',
          'dist/cli.js',
          'bench',
          'game',
          ...(side === 'B' && bGame.has(rules) ? bGame.get(rules)! : ['--rules', rules]),
          '--games',
          '1',
          '--max-pieces',
          args.pieces,
          '--seed',
          '7',
          '--json',
        ]);
        const row = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
        record(`bench game ${rules}: process CPU s`, side, r.cpu, 'lower');
        const game = Object.fromEntries(GAME_FIGURES.map((k) => [k, row[k]]));
        fact(`bench game ${rules}: the game`, side, JSON.stringify(game));
      },
    });
  }
}
if (cases.has('fullboard')) {
  steps.push({
    name: 'fullboard',
    go: (side) => {
      run(side, ['npx', 'tsx', 'bench/fullboard.ts', '--quick']);
      const json = JSON.parse(readFileSync(join(SIDES[side], 'bench/results/fullboard.json'), 'utf8'));
      for (const row of json.rows ?? json) {
        if (!row.case) continue;
        record(`fullboard ${row.case}: pieces/CPU s`, side, row.cpuPiecesPerSecond, 'higher');
      }
    },
  });
  steps.push({
    name: 'full play',
    go: (side) => {
      const r = run(side, [
        'node',
        'dist/cli.js',
        'full',
        'play',
        '--weights',
        'bcts',
        '--games',
        '3',
        '--seed',
        '7',
        '--max-pieces',
        '50000',
        '--json',
      ]);
      const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      record('full play bcts, 3 games: process CPU s', side, r.cpu, 'lower');
      const games = out.games.map(
        (g: { lines: number; pieces: number; lost: boolean }) => `${g.lines}/${g.pieces}/${g.lost}`,
      );
      fact('full play bcts seeds 7-9: lines/pieces/lost', side, games.join(' '));
    },
  });
}

const loads: number[][] = [os.loadavg()];
for (let round = 0; round < rounds; round++) {
  const order: Side[] = round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
  for (const step of steps) {
    for (const side of order) {
      process.stderr.write(`round ${round + 1}/${rounds} ${step.name} ${side} (load ${os.loadavg()[0].toFixed(1)})\n`);
      step.go(side);
    }
  }
  loads.push(os.loadavg());
}
rmSync(scratch, { recursive: true, force: true });

const rows = [...figures].map(([figure, f]) => {
  const a = median(f.A);
  const b = median(f.B);
  const ratio = f.better === 'higher' ? b / a : a / b;
  return {
    figure,
    'A median': a,
    'B median': b,
    'B speed / A': Math.round(ratio * 1000) / 1000,
    'A runs': f.A.map((x) => x.toPrecision(4)).join(' '),
    'B runs': f.B.map((x) => x.toPrecision(4)).join(' '),
  };
});
const checks = [...facts].map(([check, f]) => {
  const same = f.A.size === 1 && f.B.size === 1 && [...f.A][0] === [...f.B][0];
  return { check, same: same ? 'same' : 'DIFFERENT', A: [...f.A].join(' | '), B: [...f.B].join(' | ') };
});
console.log(
  `A: ${SIDES.A}\nB: ${SIDES.B}\n${rounds} rounds, alternating first side; load averages ${loads.map((l) => l[0].toFixed(1)).join(' → ')}\n`,
);
printTable(rows);
console.log('');
printTable(
  checks.map((c) => ({ check: c.check, same: c.same, value: c.A.length > 60 ? `${c.A.slice(0, 57)}...` : c.A })),
);
const path = writeResults('tree-ab', {
  date: new Date().toISOString(),
  machine: machine(),
  loadAverages: loads,
  sides: SIDES,
  rounds,
  args,
  rows,
  checks,
});
console.log(`\nwrote ${path}`);
