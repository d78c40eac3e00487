/**
 * Full-board player speed: pieces per second, single thread, for the presets at 1-ply and seedGA at 2-ply, against
 * a baseline measured in the same run: the pure-TypeScript reference player (FullBoard + featureValues) choosing
 * the same moves. Medians over repeated runs; wall-clock and CPU-time rates (the machine may be shared: the CPU
 * rate is the fairer per-core figure). Prints a table and writes bench/results/fullboard.json.
 *
 *   node --import tsx bench/fullboard.ts [--quick]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../src/random.js';
import { FullBoard, featureValues, playFullGame, resolveWeights, type PresetName } from '../src/fullboard/index.js';

const quick = process.argv.includes('--quick');
const REPEATS = quick ? 3 : 5;

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

async function measure(name: string, pieces: number, run: () => Promise<number>): Promise<Row> {
  await run(); // warm-up (compiles the kernel, tiers up the JIT)
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const n = await run();
    const t = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    wall.push(n / t);
    cpu.push(n / ((c.user + c.system) / 1e6));
  }
  return { case: name, pieces, runs: REPEATS, wallPiecesPerSecond: median(wall), cpuPiecesPerSecond: median(cpu), wallRange: [Math.min(...wall), Math.max(...wall)] };
}

/** The reference player: every legal move placed and scored in TypeScript. Returns pieces played. */
function tsGame(preset: PresetName, seed: number, maxPieces: number): number {
  const v = resolveWeights(preset);
  const rng = new Rng(seed);
  let b = new FullBoard();
  let n = 0;
  for (; n < maxPieces; n++) {
    const p = rng.nextInt(7);
    let best = -Infinity;
    let next: FullBoard | null = null;
    for (const m of b.legalMoves(p)) {
      const pl = b.place(p, m.orientation, m.x)!;
      const f = featureValues(pl.board, { lines: pl.lines, erodedCells: pl.erodedCells, landingRow: pl.landingRow, pieceHeight: pl.pieceHeight });
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
const rows: Row[] = [];
rows.push(await measure('seedGA 1-ply (WASM)', P1, async () => (await playFullGame({ weights: 'seedGA', seed: 1, maxPieces: P1 })).pieces));
rows.push(await measure('seedGA 2-ply (WASM)', P2, async () => (await playFullGame({ weights: 'seedGA', seed: 1, maxPieces: P2, lookahead: 1 })).pieces));
rows.push(await measure('dellacherie 1-ply (WASM)', P1, async () => (await playFullGame({ weights: 'dellacherie', seed: 1, maxPieces: P1 })).pieces));
rows.push(await measure('bcts 1-ply (WASM)', P1, async () => (await playFullGame({ weights: 'bcts', seed: 1, maxPieces: P1 })).pieces));
rows.push(await measure('seedGA 1-ply (TypeScript reference)', PTS, async () => tsGame('seedGA', 1, PTS)));

const base = rows[rows.length - 1].cpuPiecesPerSecond;
const one = rows[0].cpuPiecesPerSecond;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`full-board player, single thread, median of ${REPEATS} runs (load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores)`);
console.log(`${'case'.padEnd(38)} ${'pieces/run'.padStart(10)} ${'wall p/s'.padStart(11)} ${'CPU p/s'.padStart(11)} ${'vs TS ref'.padStart(10)} ${'vs 1-ply'.padStart(9)}  wall range`);
for (const r of rows) {
  console.log(
    `${r.case.padEnd(38)} ${fmt(r.pieces).padStart(10)} ${fmt(r.wallPiecesPerSecond).padStart(11)} ${fmt(r.cpuPiecesPerSecond).padStart(11)} ${(r.cpuPiecesPerSecond / base).toFixed(1).padStart(9)}x ${(r.cpuPiecesPerSecond / one).toFixed(3).padStart(8)}x  ${fmt(r.wallRange[0])}–${fmt(r.wallRange[1])}`,
  );
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
    },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${out}`);
