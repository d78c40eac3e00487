/**
 * Full-board player speed: pieces per second, single thread, for the presets at 1-ply and cs3243 at 2-ply, against
 * a baseline measured in the same run: the pure-TypeScript reference player (legalDrops, dropPiece and featureValues over a Board) choosing
 * the same moves. Medians over repeated runs, the cases taking turns; wall-clock and CPU-time rates (the machine
 * may be shared: the CPU rate is the fairer per-core figure). Prints a table and writes bench/results/fullboard.json.
 *
 * With `--ab OTHER.wasm` (another build of assembly/fullboard.ts with the same context offsets, e.g. an earlier
 * commit's: `git show REV:assembly/fullboard.ts > /tmp/old/fullboard.ts; cp assembly/memory.ts /tmp/old/;
 * npx asc /tmp/old/fullboard.ts --config asconfig.json --target release --enable threads,simd --outFile old.wasm`),
 * it also times this build's kernel against that one in the same process: the same 1-ply games alternately on
 * each, several rounds, median of the per-round ratios (the fair comparison on a shared machine).
 *
 *   node --import tsx bench/fullboard.ts [--quick] [--ab OTHER.wasm]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../src/random.js';
import { Board } from '../src/rules/board.js';
import {
  dropPiece,
  featureValues,
  legalDrops,
  playFullGame,
  resolveWeights,
  type PresetName,
} from '../src/fullboard/index.js';
import { fullBoardModule, gameRunner } from '../src/kernels/fullboard.js';
import { weightSlots } from '../src/fullboard/presets.js';

const quick = process.argv.includes('--quick');
const abIndex = process.argv.indexOf('--ab');
const abFile = abIndex >= 0 ? process.argv[abIndex + 1] : undefined;
const REPEATS = quick ? 3 : 7;

interface Row {
  case: string;
  pieces: number;
  runs: number;
  wallPiecesPerSecond: number;
  cpuPiecesPerSecond: number;
  /** Slowest and fastest run (wall), to show the spread on a shared machine. */
  wallRange: [number, number];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

interface Case {
  name: string;
  pieces: number;
  run: () => Promise<number>;
}

/**
 * Times every case REPEATS times, round-robin (case 1, case 2, …, case 1, …) after one warm-up run each, so that
 * a burst of load from other jobs on the shared machine hits all cases alike rather than one.
 */
async function measureAll(cases: Case[]): Promise<Row[]> {
  for (const c of cases) await c.run(); // warm-up (compiles the kernel, tiers up the JIT)
  const wall: number[][] = cases.map(() => []);
  const cpu: number[][] = cases.map(() => []);
  for (let i = 0; i < REPEATS; i++) {
    for (const [k, c] of cases.entries()) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const n = await c.run();
      const t = (performance.now() - t0) / 1000;
      const u = process.cpuUsage(c0);
      wall[k].push(n / t);
      cpu[k].push(n / ((u.user + u.system) / 1e6));
    }
  }
  return cases.map((c, k) => ({
    case: c.name,
    pieces: c.pieces,
    runs: REPEATS,
    wallPiecesPerSecond: median(wall[k]),
    cpuPiecesPerSecond: median(cpu[k]),
    wallRange: [Math.min(...wall[k]), Math.max(...wall[k])],
  }));
}

/** The reference player: every legal move placed and scored in TypeScript. Returns pieces played. */
function tsGame(preset: PresetName, seed: number, maxPieces: number): number {
  const v = resolveWeights(preset);
  const rng = new Rng(seed);
  let b = Board.empty(10, 20);
  let n = 0;
  for (; n < maxPieces; n++) {
    const p = rng.nextInt(7);
    let best = -Infinity;
    let next: Board | null = null;
    for (const m of legalDrops(b, p)) {
      const pl = dropPiece(b, m)!;
      const f = featureValues(pl.board, pl);
      const val = v.features.reduce((s, name, i) => s + v.weights[i] * f[name], 0);
      if (val > best) {
        best = val;
        next = pl.board;
      }
    }
    if (!next) break;
    b = next;
  }
  return n;
}

const P1 = quick ? 100_000 : 300_000;
const P2 = quick ? 3_000 : 10_000;
const PTS = quick ? 200 : 500;
const rows = await measureAll([
  {
    name: 'cs3243 1-ply (WASM)',
    pieces: P1,
    run: async () => (await playFullGame({ weights: 'cs3243', seed: 1, maxPieces: P1 })).pieces,
  },
  {
    name: 'cs3243 2-ply (WASM)',
    pieces: P2,
    run: async () => (await playFullGame({ weights: 'cs3243', seed: 1, maxPieces: P2, lookahead: 1 })).pieces,
  },
  {
    name: 'dellacherie 1-ply (WASM)',
    pieces: P1,
    run: async () => (await playFullGame({ weights: 'dellacherie', seed: 1, maxPieces: P1 })).pieces,
  },
  {
    name: 'bcts 1-ply (WASM)',
    pieces: P1,
    run: async () => (await playFullGame({ weights: 'bcts', seed: 1, maxPieces: P1 })).pieces,
  },
  { name: 'cs3243 1-ply (TypeScript reference)', pieces: PTS, run: async () => tsGame('cs3243', 1, PTS) },
]);

const base = rows[rows.length - 1].cpuPiecesPerSecond;
const one = rows[0].cpuPiecesPerSecond;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(
  `full-board player, single thread, median of ${REPEATS} runs (load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores)`,
);
console.log(
  `${'case'.padEnd(38)} ${'pieces/run'.padStart(10)} ${'wall p/s'.padStart(11)} ${'CPU p/s'.padStart(11)} ${'vs TS ref'.padStart(10)} ${'vs 1-ply'.padStart(9)}  wall range`,
);
for (const r of rows) {
  console.log(
    `${r.case.padEnd(38)} ${fmt(r.pieces).padStart(10)} ${fmt(r.wallPiecesPerSecond).padStart(11)} ${fmt(r.cpuPiecesPerSecond).padStart(11)} ${(r.cpuPiecesPerSecond / base).toFixed(1).padStart(9)}x ${(r.cpuPiecesPerSecond / one).toFixed(3).padStart(8)}x  ${fmt(r.wallRange[0])}–${fmt(r.wallRange[1])}`,
  );
}
/** One kernel instance with a 10 × 20 context, playing memoryless games from a seed (the loop of playFullGame). */
async function rawKernel(module: WebAssembly.Module) {
  const play = await gameRunner(module);
  return (preset: PresetName, pieces: number): number => play(weightSlots(resolveWeights(preset)), pieces);
}

interface AbRow {
  case: string;
  thisCpuPiecesPerSecond: number;
  otherCpuPiecesPerSecond: number;
  /** Median over rounds of (this build's rate / the other kernel's rate) in the same round. */
  ratio: number;
}
const abRows: AbRow[] = [];
if (abFile) {
  const mine = await rawKernel(await fullBoardModule());
  const other = await rawKernel(await WebAssembly.compile(readFileSync(abFile)));
  const rounds = quick ? 5 : 9;
  const cpuRate = (play: (p: PresetName, n: number) => number, preset: PresetName, n: number) => {
    const c0 = process.cpuUsage();
    const played = play(preset, n);
    const c = process.cpuUsage(c0);
    return played / ((c.user + c.system) / 1e6);
  };
  for (const preset of ['cs3243', 'dellacherie', 'bcts'] as const) {
    cpuRate(mine, preset, P1 / 5); // warm-up both
    cpuRate(other, preset, P1 / 5);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // alternate which kernel goes first
      if (r % 2 === 0) {
        a.push(cpuRate(mine, preset, P1));
        b.push(cpuRate(other, preset, P1));
      } else {
        b.push(cpuRate(other, preset, P1));
        a.push(cpuRate(mine, preset, P1));
      }
    }
    abRows.push({
      case: `${preset} 1-ply`,
      thisCpuPiecesPerSecond: median(a),
      otherCpuPiecesPerSecond: median(b),
      ratio: median(a.map((x, i) => x / b[i])),
    });
  }
  console.log(`\nA/B against ${abFile}: ${rounds} alternating rounds of ${fmt(P1)} pieces (CPU time), medians`);
  console.log(`${'case'.padEnd(20)} ${'this p/s'.padStart(11)} ${'other p/s'.padStart(11)} ${'ratio'.padStart(7)}`);
  for (const r of abRows) {
    console.log(
      `${r.case.padEnd(20)} ${fmt(r.thisCpuPiecesPerSecond).padStart(11)} ${fmt(r.otherCpuPiecesPerSecond).padStart(11)} ${r.ratio.toFixed(3).padStart(6)}x`,
    );
  }
}

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'fullboard.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      loadAverage: loadavg(),
      repeats: REPEATS,
      rows,
      ratios: { wasmOverTsReference1ply: one / base, twoPlyOverOnePly: rows[1].cpuPiecesPerSecond / one },
      ...(abFile ? { ab: { other: abFile, rows: abRows } } : {}),
    },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${out}`);
