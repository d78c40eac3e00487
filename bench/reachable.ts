/**
 * Reachable-placement speed per rule set on 10 × 20 boards with random stacks: the WebAssembly kernel counting
 * the placements (`countReachablePlacements`), the kernel plus the GamePlacement objects with key sequences
 * (`reachablePlacements`), and the TypeScript search (`searchPlacements`, the readable definition) measured in
 * the same run. Each figure is the median over rounds of computations per second on one thread, per second of
 * wall time and per second of the process's CPU time (the two agree on an idle machine). The timed NES rule set is
 * measured at levels 18, 19, 29 and 39 with X. and at level 18 with X.. and das (`nes@18:X.` …): frame by frame,
 * which the TypeScript search does not do. `CPU µs/call` is the count call's CPU time (on a loaded machine wall time
 * is not the search's).
 *
 *   npx tsx bench/reachable.ts [--rounds 7] [--ms 400] [--boards 1000] [--seed 1] [--rules guideline,nes@29:X..]
 *
 * Needs the kernels built (npm run build:wasm). Prints a table and writes bench/results/reachable.json.
 */
import {
  Board,
  RULE_SETS,
  RULE_SET_NAMES,
  countReachablePlacements,
  reachablePlacements,
  resolveRules,
  type RuleSet,
} from '../src/rules/index.js';
import { searchPlacements } from '../src/rules/reachable.js';
import { Rng } from '../src/random.js';
import { benchArgs, interleavedThroughput, machine, printTable, writeResults } from './common.js';

const { values } = benchArgs(import.meta.url, {
  rounds: { type: 'string', default: '7' },
  ms: { type: 'string', default: '400' },
  boards: { type: 'string', default: '1000' },
  seed: { type: 'string', default: '1' },
  rules: {
    type: 'string',
    default: [
      ...RULE_SET_NAMES.filter((n) => n !== 'nes'),
      'nes@18:X.',
      'nes@19:X.',
      'nes@29:X.',
      'nes@39:X.',
      'nes@18:X..',
      'nes@18:das',
    ].join(','),
  },
});
const rounds = Number(values.rounds);
const ms = Number(values.ms);
const boardCount = Number(values.boards);
const seed = Number(values.seed);

/** A random stack: column heights 0..14 around a random mean, a few holes and overhangs, no full row. */
function randomStack(rng: Rng): Board {
  const grid: boolean[][] = Array.from({ length: 20 }, () => new Array<boolean>(10).fill(false));
  const mean = rng.nextInt(10);
  for (let x = 0; x < 10; x++) {
    const h = Math.max(0, Math.min(14, mean + rng.nextInt(7) - 3));
    for (let y = 0; y < h; y++) grid[y][x] = rng.nextInt(10) !== 0;
  }
  for (let y = 0; y < 20; y++) if (grid[y].every(Boolean)) grid[y][rng.nextInt(10)] = false;
  return Board.fromRows(grid.map((r) => r.map((f) => (f ? '#' : '.')).join('')).reverse());
}

const rng = new Rng(seed);
const boards = Array.from({ length: boardCount }, () => randomStack(rng));
const pieces = Array.from({ length: boardCount }, () => rng.nextInt(7));

const rows: Record<string, string | number>[] = [];
const results: Record<string, unknown>[] = [];
/** A preset name, or nes@LEVEL:TIMELINE for the timed NES rule set at that level and timeline. */
function rulesOf(name: string): RuleSet {
  const m = /^nes@(\d+):(.+)$/.exec(name);
  if (m) return resolveRules({ ...RULE_SETS.nes, level: Number(m[1]), timeline: m[2] });
  if (!(RULE_SET_NAMES as string[]).includes(name))
    throw new Error(`unknown rule set ${name}; rule sets: ${RULE_SET_NAMES.join(', ')} or nes@LEVEL:TIMELINE`);
  return RULE_SETS[name as (typeof RULE_SET_NAMES)[number]];
}
for (const name of values.rules.split(',')) {
  const rules = rulesOf(name);
  const timed = rules.timing !== undefined;
  // a preset by name (its checked object is reused); a timed one as the object, resolved once per call as a caller's
  const options = { rules: timed ? rules : (name as (typeof RULE_SET_NAMES)[number]) };
  const count = (i: number) => countReachablePlacements(boards[i], pieces[i], options);
  const objects = (i: number) => reachablePlacements(boards[i], pieces[i], options).length;
  const ts = (i: number) => (timed ? count(i) : searchPlacements(boards[i], pieces[i], rules).length);
  // warm up and check the three agree on every board
  let placements = 0;
  for (let i = 0; i < boardCount; i++) {
    const n = count(i);
    if (n !== objects(i) || n !== ts(i)) throw new Error(`${name}: kernel and TypeScript disagree on board ${i}`);
    placements += n;
  }
  // interleaved so a load change on the machine touches all three alike
  const t = interleavedThroughput(
    { kernel: count, kernelObjects: objects, typescript: ts },
    { rounds, count: boardCount, ms },
  );
  const kernel = t.kernel.perSecond;
  const kernelObjects = t.kernelObjects.perSecond;
  const typescript = t.typescript.perSecond;
  const kernelCpu = t.kernel.perCpuSecond;
  rows.push({
    rules: name,
    'placements/board': Math.round((placements / boardCount) * 10) / 10,
    'kernel count/s': Math.round(kernel),
    'kernel count/CPU-s': Math.round(kernelCpu),
    'kernel + objects/s': Math.round(kernelObjects),
    'TypeScript/s': timed ? '–' : Math.round(typescript),
    'µs/call': Math.round(1e7 / kernel) / 10,
    'kernel / TS': timed ? '–' : Math.round((kernel / typescript) * 10) / 10,
  });
  results.push({
    rules: name,
    placementsPerBoard: placements / boardCount,
    kernelPerSecond: kernel,
    kernelPerCpuSecond: kernelCpu,
    kernelWithObjectsPerSecond: kernelObjects,
    typescriptPerSecond: typescript,
    kernelWithObjectsPerCpuSecond: t.kernelObjects.perCpuSecond,
    typescriptPerCpuSecond: t.typescript.perCpuSecond,
    cpuMicrosecondsPerCall: 1e6 / kernelCpu,
    ratioKernelToTypescript: timed ? null : kernel / typescript,
    samples: {
      kernel: t.kernel.samples.perSecond,
      kernelObjects: t.kernelObjects.samples.perSecond,
      typescript: t.typescript.samples.perSecond,
    },
    cpuSamples: {
      kernel: t.kernel.samples.perCpuSecond,
      kernelObjects: t.kernelObjects.samples.perCpuSecond,
      typescript: t.typescript.samples.perCpuSecond,
    },
  });
}

printTable(rows);
const path = writeResults('reachable', {
  bench: 'reachable',
  date: new Date().toISOString(),
  machine: machine(),
  rounds,
  msPerSample: ms,
  boards: boardCount,
  seed,
  results,
});
console.log(`wrote ${path}`);
