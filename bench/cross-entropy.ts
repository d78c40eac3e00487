/**
 * The cross-entropy search the weight tuners share (bench/tune-recover.ts, bench/tune-versus.ts): each generation
 * scores the current centre and population − 1 samples around it (a normal deviate per dimension times its spread)
 * on that generation's seed, beside a baseline, then moves the centre to the best third's mean and the spread to
 * their deviation (never under minSpread).
 */
import { Rng } from '../src/random.js';

export interface CrossEntropyOptions<W, S extends { score: number }> {
  dims: number;
  generations: number;
  population: number;
  /** The starting spread of every dimension, and the least it shrinks to. */
  spread: number;
  minSpread: number;
  /** Generation g plays seed + g. */
  seed: number;
  samplerSeed: number;
  /** Decimals of the printed scores. */
  digits: number;
  /** The point x as the thing scored (weights). */
  weightsOf(x: readonly number[]): W;
  /** The baseline, scored on each generation's seed beside the candidates. */
  baseline: W;
  score(weights: W, seed: number): Promise<S>;
  /** Hears each generation's new centre and its row of the table (progress for long runs). */
  onGeneration?(generation: number, centre: W, row: Record<string, string | number>): void;
}

export interface CrossEntropyRun<W> {
  centre: number[];
  rows: Record<string, string | number>[];
  history: unknown[];
  final: W;
}

export async function crossEntropySearch<W, S extends { score: number }>(
  o: CrossEntropyOptions<W, S>,
): Promise<CrossEntropyRun<W>> {
  const rng = new Rng(o.samplerSeed);
  /** A standard normal deviate (Box–Muller). */
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
  const dims = Array.from({ length: o.dims }, () => 0);
  let centre = dims.map(() => 0);
  let spread = dims.map(() => o.spread);
  const rows: Record<string, string | number>[] = [];
  const history: unknown[] = [];
  const fixed = (v: number) => v.toFixed(o.digits);
  for (let g = 0; g < o.generations; g++) {
    const seed = o.seed + g;
    const baseline = await o.score(o.baseline, seed);
    const scored: (S & { x: number[] })[] = [];
    for (let i = 0; i < o.population; i++) {
      const x = i === 0 ? centre : centre.map((c, j) => c + spread[j] * normal());
      scored.push({ x, ...(await o.score(o.weightsOf(x), seed)) });
      process.stderr.write(`\rgeneration ${g + 1}/${o.generations}: ${i + 1}/${o.population}`);
    }
    process.stderr.write('\n');
    const mean = scored.reduce((s, c) => s + c.score, 0) / o.population;
    const centreScore = scored[0].score;
    const elite = [...scored].sort((a, b) => b.score - a.score).slice(0, Math.ceil(o.population / 3));
    centre = dims.map((_, j) => elite.reduce((s, e) => s + e.x[j], 0) / elite.length);
    spread = dims.map((_, j) =>
      Math.max(o.minSpread, Math.sqrt(elite.reduce((s, e) => s + (e.x[j] - centre[j]) ** 2, 0) / elite.length)),
    );
    rows.push({
      generation: g + 1,
      seed,
      baseline: fixed(baseline.score),
      centre: fixed(centreScore),
      'centre − baseline': fixed(centreScore - baseline.score),
      mean: fixed(mean),
      best: fixed(elite[0].score),
    });
    history.push({ generation: g + 1, seed, baseline, candidates: scored, centre: o.weightsOf(centre) });
    o.onGeneration?.(g + 1, o.weightsOf(centre), rows[rows.length - 1]);
  }
  return { centre, rows, history, final: o.weightsOf(centre) };
}
