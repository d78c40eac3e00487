/**
 * Grading a person's placement against the AI's ranking of the same turn (docs/demo.md, "Grades"). The ranking's
 * unit decides how a loss is read: in stack mode values are expected pieces of perfect-stack survival, so the loss
 * is taken relative to the best move's value (losing 10 of 1,000 expected pieces is as small as 1 of 100); in
 * recover mode values are evaluator scores with no natural scale, so the loss is taken as it is.
 */
import type { Cell, PlacementRanking, RankedPlacement } from 'stackrank';

export const GRADES = ['best', 'good', 'inaccuracy', 'mistake'] as const;
export type Grade = (typeof GRADES)[number];

/** Stack mode: largest relative loss (loss / best value) for each grade after best. */
export const STACK_THRESHOLDS = { good: 0.1, inaccuracy: 0.35 } as const;
/** Recover mode: largest loss in evaluator points (about one row of landing height is 13; a new hole costs 50+). */
export const RECOVER_THRESHOLDS = { good: 15, inaccuracy: 60 } as const;

export interface Graded {
  grade: Grade;
  /** The ranking's entry for the placement played, or null when the AI's list does not have it. */
  entry: RankedPlacement | null;
  /** The loss as the grade reads it: a fraction of the best value (stack) or evaluator points (recover). */
  loss: number;
  /** The placement played tops out (RankedPlacement.topsOut) and the AI's move does not: a mistake whatever the loss. */
  topsOut: boolean;
  /**
   * How bad the move is, in no unit, to sort moves of both modes together: the loss over its grade's limit (good:
   * the good threshold; inaccuracy and mistake: the inaccuracy threshold, where mistakes start), Infinity for a
   * move that tops out, 0 for the best move.
   */
  severity: number;
}

export function cellsKey(cells: readonly Cell[]): string {
  return [...cells]
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .map(([x, y]) => `${x},${y}`)
    .join(' ');
}

/** The thresholds of a ranking's unit, in the measure the grade reads (a fraction of the best value, or points). */
function thresholdsOf(unit: PlacementRanking['unit']): { good: number; inaccuracy: number } {
  return unit === 'expectedPieces' ? STACK_THRESHOLDS : RECOVER_THRESHOLDS;
}

/** The grade of a positive measured loss (in the unit's measure) under `unit`'s thresholds. */
function gradeAbove(unit: PlacementRanking['unit'], measured: number): Exclude<Grade, 'best'> {
  const t = thresholdsOf(unit);
  return measured <= t.good ? 'good' : measured <= t.inaccuracy ? 'inaccuracy' : 'mistake';
}

/** The grade of a loss in a ranking of this unit, best value `top`. */
export function gradeLoss(unit: PlacementRanking['unit'], loss: number, top: number): { grade: Grade; loss: number } {
  const measured = unit === 'expectedPieces' ? (top > 0 ? Math.max(0, loss) / top : 0) : Math.max(0, loss);
  return { grade: loss <= 1e-9 ? 'best' : gradeAbove(unit, measured), loss: measured };
}

/** Graded.severity of a grade and its measured loss. */
function severityOf(unit: PlacementRanking['unit'], grade: Grade, measured: number, topsOut: boolean): number {
  if (topsOut) return Infinity;
  if (grade === 'best') return 0;
  const t = thresholdsOf(unit);
  return measured / (grade === 'good' ? t.good : t.inaccuracy);
}

/**
 * Grades the placement `cells` (after pressing hold or not) against `ranking`, a full ranking (no limit) of the turn
 * it was played in. A placement the list does not hold (a tuck or spin after a part-way soft drop, which the key model
 * does not list: docs/rules.md) is graded against the worst
 * listed value. A placement that tops out where the AI's move does not is a mistake.
 */
export function gradePlacement(ranking: PlacementRanking, hold: boolean, cells: readonly Cell[]): Graded {
  const key = cellsKey(cells);
  const list = ranking.placements;
  const same = (p: RankedPlacement) => cellsKey(p.cells) === key;
  // Holding a piece identical to the current one is the same turn as not holding: match by cells then.
  const entry = list.find((p) => p.hold === hold && same(p)) ?? list.find(same) ?? null;
  const worst = list.reduce<RankedPlacement | null>((w, p) => (w === null || p.loss > w.loss ? p : w), null);
  const read = entry ?? worst;
  const top = list[0]?.value ?? 0;
  const topsOut = read?.topsOut === true && !list[0].topsOut;
  const graded = gradeLoss(ranking.unit, read ? read.loss : 0, top);
  const grade = topsOut ? 'mistake' : graded.grade;
  return { entry, grade, loss: graded.loss, topsOut, severity: severityOf(ranking.unit, grade, graded.loss, topsOut) };
}

/**
 * A measured loss as text (a percentage of the best move's value in stack mode, evaluator points in recover mode)
 * with as many decimals as it takes for the number shown to fall in the grade's own range (docs/demo.md, "Grades"):
 * a loss of 0.3 % is "0.3 %", not "0 %" (which would read as the best move), and 15.07 points is "15.1", not "15" (which
 * would read as good).
 */
export function lossText(unit: PlacementRanking['unit'], grade: Exclude<Grade, 'best'>, measured: number): string {
  const percent = unit === 'expectedPieces';
  const scale = percent ? 100 : 1;
  const suffix = percent ? ' %' : ' evaluator points';
  for (let decimals = 0; decimals <= MAX_DECIMALS; decimals++) {
    const shown = Number((measured * scale).toFixed(decimals));
    if (shown > 0 && gradeAbove(unit, shown / scale) === grade) return `${shown.toFixed(decimals)}${suffix}`;
  }
  // Closer to a threshold (or to 0) than MAX_DECIMALS decimals show: say on which side it is.
  const t = thresholdsOf(unit);
  const below = grade === 'good' ? 0 : grade === 'inaccuracy' ? t.good : t.inaccuracy;
  return below === 0
    ? `less than ${(10 ** -MAX_DECIMALS).toFixed(MAX_DECIMALS)}${suffix}`
    : `just over ${below * scale}${suffix}`;
}

/** Most decimals lossText shows. */
const MAX_DECIMALS = 3;

/**
 * The `n` worst moves of a game, worst first: mistakes, then inaccuracies, then good moves, and within a grade by
 * severity (a move that tops out first), so that stack and recover losses are ordered in one list.
 */
export function worstMoves<T extends Graded>(graded: readonly T[], n: number): T[] {
  const rank = (g: Grade) => GRADES.indexOf(g);
  return graded
    .filter((g) => g.grade !== 'best')
    .sort((a, b) => rank(b.grade) - rank(a.grade) || b.severity - a.severity)
    .slice(0, n);
}

/** Accuracy: the share of placements graded best or good, in percent (0 with nothing played). */
export function accuracy(grades: readonly Grade[]): number {
  if (grades.length === 0) return 0;
  return (100 * grades.filter((g) => g === 'best' || g === 'good').length) / grades.length;
}
