/**
 * Does the mirror-folded u16 build play like the f32 build? For a position (surface s, piece p) the rank AI with
 * one known piece picks the legal placement whose resulting surface has the highest table value (first in move
 * order on equal values; that is the search kernel's rule at lookahead 0). This compares those picks between two
 * tables, reading the values the search reads (RankTable.searchValues: u16 ranks), and checks that every pick that
 * differs is a tie within the u16 build's resolution: the f32 iteration's own values of the two placements differ
 * by at most `tieBound` (default: twice the largest per-surface difference between the two tables, within which
 * neither table can tell the two placements apart; callers bound that difference separately).
 */
import { rankMoves } from '../../src/rank/moves.js';
import type { RankTable } from '../../src/rank/table.js';

export interface PlayComparison {
  positions: number;
  /** Positions where at least one placement is legal (the others have nothing to pick). */
  decided: number;
  differences: number;
  /** Differences whose f32 values are within tieBound of each other. */
  ties: number;
  /** The largest f32 value gap among differing picks (0 when none differ). */
  largestGap: number;
  /** max over surfaces of |u16 value - f32 value|, and the tie bound derived from it (2x). */
  maxValueError: number;
  tieBound: number;
}

/** Visits each sampled position (surface index, piece); `positions` yields them. */
export function comparePlay(
  f32Table: RankTable,
  u16Table: RankTable,
  positions: Iterable<[surface: number, piece: number]>,
  tieBound?: number,
): PlayComparison {
  const { width, maxStep } = f32Table;
  const base = 2 * maxStep + 1;
  const digits = width - 1;
  const exact = f32Table.toFloat32();
  const folded = u16Table.toFloat32();
  let maxValueError = 0;
  for (let i = 0; i < exact.length; i++) maxValueError = Math.max(maxValueError, Math.abs(exact[i] - folded[i]));
  tieBound ??= 2 * maxValueError;
  const oldValues = f32Table.searchValues().values;
  const newValues = u16Table.searchValues().values;
  const movesByPiece = Array.from({ length: 7 }, (_, p) =>
    rankMoves(width, maxStep, u16Table.steep).filter((m) => m.piece === p),
  );
  const d = new Array<number>(digits);
  const result: PlayComparison = {
    positions: 0,
    decided: 0,
    differences: 0,
    ties: 0,
    largestGap: 0,
    maxValueError,
    tieBound,
  };
  for (const [s, p] of positions) {
    result.positions++;
    let rest = s;
    for (let i = digits - 1; i >= 0; i--) {
      d[i] = rest % base;
      rest = Math.floor(rest / base);
    }
    let oldBest = -1;
    let newBest = -1;
    for (const m of movesByPiece[p]) {
      let legal = true;
      for (let i = 0; i < digits && legal; i++) legal = d[i] >= m.lo[i] && d[i] <= m.hi[i];
      if (!legal) continue;
      const to = s + m.delta;
      if (oldBest < 0 || oldValues[to] > oldValues[oldBest]) oldBest = to;
      if (newBest < 0 || newValues[to] > newValues[newBest]) newBest = to;
    }
    if (oldBest < 0) continue;
    result.decided++;
    if (oldBest === newBest) continue;
    result.differences++;
    const gap = Math.abs(exact[oldBest] - exact[newBest]);
    result.largestGap = Math.max(result.largestGap, gap);
    if (gap <= tieBound) result.ties++;
  }
  return result;
}

/** Every (surface, piece) pair of a table. */
export function* allPositions(size: number): Generator<[number, number]> {
  for (let s = 0; s < size; s++) for (let p = 0; p < 7; p++) yield [s, p];
}

/** `count` positions drawn uniformly with a seeded generator (mulberry32). */
export function* sampledPositions(size: number, count: number, seed: number): Generator<[number, number]> {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; i < count; i++) yield [Math.floor(next() * size), Math.floor(next() * 7)];
}
