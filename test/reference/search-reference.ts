/**
 * Exhaustive pure-TS reference of the stacking search (docs/rules.md, "The stacking game"), independent of src/stacking: it works on
 * heights with plain arrays and recursion, in the same enumeration order as the kernel (pieces' orientations in
 * docs/rules.md "Pieces" order, columns left to right), so the first optimal move is comparable exactly.
 */
import { ORIENTATIONS } from '../../src/pieces.js';

export interface ReferenceRules {
  boardHeight: number;
  tetrisThreshold: number;
  steep: 'truncate' | 'excessFirst' | 'collapse';
  tetris?: 'forced' | 'choice';
}

/** Steep rule 'collapse': the truncated steps summed up again from the right, lowest point at the old lowest height. */
export function referenceCollapse(heights: number[], maxStep: number): number[] {
  const n = heights.length;
  const sums = new Array<number>(n).fill(0);
  for (let i = n - 2; i >= 0; i--)
    sums[i] = sums[i + 1] - Math.max(-maxStep, Math.min(maxStep, heights[i + 1] - heights[i]));
  const lift = Math.min(...heights) - Math.min(...sums);
  return sums.map((s) => s + lift);
}

export interface ReferenceMove {
  tetris: boolean;
  rotation: number;
  column: number;
}

/** [depth reached, -excess (excessFirst only), rank] compared lexicographically. */
export type ReferenceValue = [number, number, number];

function better(a: ReferenceValue, b: ReferenceValue): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

export function referenceLeaf(
  heights: number[],
  maxStep: number,
  rules: ReferenceRules,
  rankOf: (index: number) => number,
): [number, number] {
  let index = 0;
  let excess = 0;
  for (let i = 0; i + 1 < heights.length; i++) {
    const d = heights[i + 1] - heights[i];
    const t = Math.max(-maxStep, Math.min(maxStep, d));
    excess += Math.abs(d - t);
    index = index * (2 * maxStep + 1) + t + maxStep;
  }
  return [rules.steep === 'excessFirst' ? -excess : 0, rankOf(index)];
}

/**
 * Which moves a real game's rule set lets the piece make on a stack (the Tetris included); every move when absent.
 * A Tetris it forbids is not made even when the rule forces it: the I is placed instead.
 */
export type ReferenceAllowed = (heights: number[], piece: number, move: ReferenceMove) => boolean;

export function referenceChildren(
  heights: number[],
  piece: number,
  rules: ReferenceRules,
  maxStep = 4,
  allowed: ReferenceAllowed = () => true,
): { move: ReferenceMove; heights: number[] }[] {
  const low = Math.min(...heights);
  const high = Math.max(...heights);
  const tetris = { move: { tetris: true, rotation: -1, column: -1 }, heights: heights.map((h) => h - 4) };
  const tetrisAllowed = piece === 0 && low >= 4 && allowed(heights, piece, tetris.move);
  if (tetrisAllowed && high >= rules.tetrisThreshold) return [tetris];
  const out: { move: ReferenceMove; heights: number[] }[] = tetrisAllowed && rules.tetris === 'choice' ? [tetris] : [];
  ORIENTATIONS[piece].forEach((o, rotation) => {
    for (let x = 0; x + o.width <= heights.length; x++) {
      if (!allowed(heights, piece, { tetris: false, rotation, column: x })) continue;
      const base = heights[x] - o.bot[0];
      let ok = true;
      for (let j = 0; j < o.width; j++)
        if (heights[x + j] - o.bot[j] !== base || base + o.top[j] > rules.boardHeight) ok = false;
      if (!ok) continue;
      const next = heights.slice();
      for (let j = 0; j < o.width; j++) next[x + j] = base + o.top[j];
      out.push({
        move: { tetris: false, rotation, column: x },
        heights: rules.steep === 'collapse' ? referenceCollapse(next, maxStep) : next,
      });
    }
  });
  return out;
}

export function referenceSearch(
  heights: number[],
  queue: number[],
  lookahead: number,
  maxStep: number,
  rules: ReferenceRules,
  rankOf: (index: number) => number,
  allowed?: ReferenceAllowed,
): { value: ReferenceValue; move: ReferenceMove | null } {
  const visit = (h: number[], depth: number): ReferenceValue => {
    if (depth > lookahead) return [depth, ...referenceLeaf(h, maxStep, rules, rankOf)];
    let best: ReferenceValue | null = null;
    for (const child of referenceChildren(h, queue[depth], rules, maxStep, allowed)) {
      const v = visit(child.heights, depth + 1);
      if (!best || better(v, best)) best = v;
    }
    return best ?? [depth, ...referenceLeaf(h, maxStep, rules, rankOf)];
  };
  let bestValue: ReferenceValue | null = null;
  let bestMove: ReferenceMove | null = null;
  for (const child of referenceChildren(heights, queue[0], rules, maxStep, allowed)) {
    const v = visit(child.heights, 1);
    if (!bestValue || better(v, bestValue)) {
      bestValue = v;
      bestMove = child.move;
    }
  }
  return { value: bestValue ?? [0, ...referenceLeaf(heights, maxStep, rules, rankOf)], move: bestMove };
}

/** Index of the surface of `heights` with steps truncated to ±S. */
export function referenceIndexTruncated(heights: number[], maxStep: number): number {
  let index = 0;
  for (let i = 0; i + 1 < heights.length; i++) {
    const d = Math.max(-maxStep, Math.min(maxStep, heights[i + 1] - heights[i]));
    index = index * (2 * maxStep + 1) + d + maxStep;
  }
  return index;
}

/**
 * referenceSearch where hold may be pressed at every ply from depth `hold.fromDepth` (docs/game.md, "Hold"): a ply
 * places the current piece, or the held one (the current one goes into the box; not when both are the same piece),
 * or, with an empty box, the piece after the current one (the current one goes into the box). Past the queue's end
 * only the held piece can be placed, and the box is then of no more use. The current piece's placements are
 * enumerated before the ones hold brings, so the first optimal move is comparable with the kernel's.
 */
export function referenceSearchHeld(
  heights: number[],
  queue: number[],
  lookahead: number,
  maxStep: number,
  rules: ReferenceRules,
  rankOf: (index: number) => number,
  hold: { piece: number | null; fromDepth: number },
): { value: ReferenceValue; move: ReferenceMove | null } {
  // held: a piece id, null (an empty box), or undefined (hold of no more use).
  type Held = number | null | undefined;
  const turns = (depth: number, index: number, held: Held) => {
    const out: { piece: number; index: number; held: Held }[] = [];
    const current = index < queue.length ? queue[index] : undefined;
    if (current !== undefined) out.push({ piece: current, index: index + 1, held });
    if (held === undefined || depth < hold.fromDepth) return out;
    if (held !== null) {
      if (held !== current) out.push({ piece: held, index: index + 1, held: current });
    } else if (current !== undefined && index + 1 < queue.length) {
      out.push({ piece: queue[index + 1], index: index + 2, held: current });
    }
    return out;
  };
  const visit = (h: number[], depth: number, index: number, held: Held): ReferenceValue => {
    if (depth > lookahead) return [depth, ...referenceLeaf(h, maxStep, rules, rankOf)];
    let best: ReferenceValue | null = null;
    for (const t of turns(depth, index, held))
      for (const child of referenceChildren(h, t.piece, rules, maxStep)) {
        const v = visit(child.heights, depth + 1, t.index, t.held);
        if (!best || better(v, best)) best = v;
      }
    return best ?? [depth, ...referenceLeaf(h, maxStep, rules, rankOf)];
  };
  let bestValue: ReferenceValue | null = null;
  let bestMove: ReferenceMove | null = null;
  for (const t of turns(0, 0, hold.piece))
    for (const child of referenceChildren(heights, t.piece, rules, maxStep)) {
      const v = visit(child.heights, 1, t.index, t.held);
      if (!bestValue || better(v, bestValue)) {
        bestValue = v;
        bestMove = child.move;
      }
    }
  return { value: bestValue ?? [0, ...referenceLeaf(heights, maxStep, rules, rankOf)], move: bestMove };
}
