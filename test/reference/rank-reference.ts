/**
 * Slow, obviously-correct reference of the rank iteration (docs/rules.md), independent of src/rank: it works on
 * column heights, tries every orientation at every column, and checks hole-freeness and step limits directly.
 * Test-only. Values are f64.
 */
import { ORIENTATIONS } from '../../src/pieces.js';

export function referenceSteps(index: number, width: number, maxStep: number): number[] {
  const base = 2 * maxStep + 1;
  const steps: number[] = [];
  for (let i = 0; i < width - 1; i++) {
    steps.unshift((index % base) - maxStep);
    index = Math.floor(index / base);
  }
  return steps;
}

export function referenceIndex(steps: number[], maxStep: number): number {
  return steps.reduce((acc, d) => acc * (2 * maxStep + 1) + d + maxStep, 0);
}

/**
 * Every surface index reachable from `index` by one hole-free placement of `piece` that keeps steps within ±S
 * ('forbid'), or by any hole-free placement with its steps then clamped to ±S ('collapse').
 */
export function referenceSuccessors(
  index: number,
  piece: number,
  width: number,
  maxStep: number,
  steep: 'forbid' | 'collapse' = 'forbid',
): number[] {
  const steps = referenceSteps(index, width, maxStep);
  const heights = [0];
  for (const d of steps) heights.push(heights[heights.length - 1] + d);
  const out: number[] = [];
  for (const o of ORIENTATIONS[piece]) {
    for (let x = 0; x + o.width <= width; x++) {
      const base = heights[x] - o.bot[0];
      let flush = true;
      for (let j = 0; j < o.width; j++) if (heights[x + j] - o.bot[j] !== base) flush = false;
      if (!flush) continue;
      const h = heights.slice();
      for (let j = 0; j < o.width; j++) h[x + j] = base + o.top[j];
      const next = h.slice(1).map((v, i) => v - h[i]);
      if (steep === 'collapse')
        out.push(
          referenceIndex(
            next.map((d) => Math.max(-maxStep, Math.min(maxStep, d))),
            maxStep,
          ),
        );
      else if (next.every((d) => Math.abs(d) <= maxStep)) out.push(referenceIndex(next, maxStep));
    }
  }
  return out;
}

/** The article's iteration: every piece weighs 1/7. */
export function referenceRanks(
  width: number,
  maxStep: number,
  iterations: number,
  steep: 'forbid' | 'collapse' = 'forbid',
): Float64Array {
  return referenceWeighted(width, maxStep, iterations, new Array(7).fill(1 / 7), steep);
}

/**
 * The preview variant, from its definition: v0 = 1; v_{k+1}(s, n) = max over n's legal placements c of
 * sum_p P[7 n + p] v_k(c, p), 0 without a placement. Returns the seven planes of v_K (plane n at [n * size + s]) and
 * the after-Tetris values sum_p P[p | I] v_{K-1}(s, p) (the I spent on a Tetris: same horizon as placing it).
 */
export function referencePreview(
  width: number,
  maxStep: number,
  iterations: number,
  P: ArrayLike<number>,
  steep: 'forbid' | 'collapse' = 'forbid',
): { planes: Float64Array; after: Float64Array } {
  const size = (2 * maxStep + 1) ** (width - 1);
  const successors: number[][][] = [];
  for (let s = 0; s < size; s++)
    successors.push([0, 1, 2, 3, 4, 5, 6].map((p) => referenceSuccessors(s, p, width, maxStep, steep)));
  let v = new Float64Array(7 * size).fill(1);
  const mix = (planes: Float64Array, s: number, n: number) => {
    let sum = 0;
    for (let p = 0; p < 7; p++) sum += P[7 * n + p] * planes[p * size + s];
    return sum;
  };
  const after = new Float64Array(size);
  for (let k = 0; k < iterations; k++) {
    for (let s = 0; s < size; s++) after[s] = mix(v, s, 0);
    const next = new Float64Array(7 * size);
    for (let s = 0; s < size; s++) {
      for (let n = 0; n < 7; n++) next[n * size + s] = successors[s][n].reduce((m, c) => Math.max(m, mix(v, c, n)), 0);
    }
    v = next;
  }
  return { planes: v, after };
}

/** The weighted variant: r_{k+1}(s) = sum_p w[p] max over p's placements of r_k, r_0 = 1. */
export function referenceWeighted(
  width: number,
  maxStep: number,
  iterations: number,
  w: ArrayLike<number>,
  steep: 'forbid' | 'collapse' = 'forbid',
): Float64Array {
  const size = (2 * maxStep + 1) ** (width - 1);
  const successors: number[][][] = [];
  for (let s = 0; s < size; s++)
    successors.push([0, 1, 2, 3, 4, 5, 6].map((p) => referenceSuccessors(s, p, width, maxStep, steep)));
  let prev = new Float64Array(size).fill(1);
  for (let k = 0; k < iterations; k++) {
    const next = new Float64Array(size);
    for (let s = 0; s < size; s++) {
      let sum = 0;
      successors[s].forEach((succ, p) => {
        sum += w[p] * succ.reduce((m, t) => Math.max(m, prev[t]), 0);
      });
      next[s] = sum;
    }
    prev = next;
  }
  return prev;
}
