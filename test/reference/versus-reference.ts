/**
 * Independent reference of the versus rules (docs/rules.md, "Versus"), written apart from src/rules/ so the two
 * check each other:
 * - T-spins from a piece's four explicit cells: its centre is the cell with three neighbours, it points away from the
 *   missing one, its corners are the centre's diagonal cells; the fifth SRS test (index 4 of the offset list the
 *   reference simulator tries, test/reference/rules-reference.ts) upgrades a mini. Spins are searched with a plain
 *   breadth-first search over that simulator's pieces, keyed by strings.
 * - Attack as each game counts it, with each game's own counters: the guideline with Cold Clear's (clears before
 *   this one, a back-to-back flag), TETR.IO with its own (counters that start at -1).
 * - Garbage on rows of strings and plain arrays of line counts.
 */
import { RefSimulator, cellKey, type RefBoard, type RefPiece } from './rules-reference.js';

export type RefSpin = 'none' | 'mini' | 'full';
type XY = [number, number];

/** The three-corner spin of a T resting on its cells after a turn that used offset test `test` (0 = none). */
export function refTSpin(cells: XY[], test: number, blocked: (x: number, y: number) => boolean): RefSpin {
  const has = (x: number, y: number) => cells.some(([a, b]) => a === x && b === y);
  const dirs: XY[] = [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ];
  const centre = cells.find(([x, y]) => dirs.filter(([dx, dy]) => has(x + dx, y + dy)).length === 3);
  if (!centre) throw new Error('not a T');
  const [cx, cy] = centre;
  const missing = dirs.find(([dx, dy]) => !has(cx + dx, cy + dy))!;
  const point: XY = [-missing[0], -missing[1]];
  let filled = 0;
  let front = 0;
  for (const dx of [-1, 1])
    for (const dy of [-1, 1]) {
      if (!blocked(cx + dx, cy + dy)) continue;
      filled++;
      if (dx * point[0] + dy * point[1] > 0) front++;
    }
  if (filled < 3) return 'none';
  return front === 2 || test === 4 ? 'full' : 'mini';
}

const LEVEL: Record<RefSpin, number> = { none: 0, mini: 1, full: 2 };

/**
 * Under `guideline`, per placement of a T (by its cell key): the best spin it can lock with and the fewest presses
 * (hardDrop included) that make it; placements no spin reaches are left out.
 */
export function refSpins(board: RefBoard): Map<string, { spin: RefSpin; presses: number }> {
  const sim = new RefSimulator(board, 'T', 'guideline');
  const out = new Map<string, { spin: RefSpin; presses: number }>();
  const start = sim.start();
  if (!start) return out;
  const stateKey = (p: RefPiece) => `${p.rot}|${cellKey(p.cells)}`;
  const seen = new Set<string>([stateKey(start)]);
  let frontier: RefPiece[] = [start];
  for (let depth = 0; frontier.length > 0; depth++) {
    const next: RefPiece[] = [];
    for (const p of frontier) {
      for (const clockwise of [true, false]) {
        const candidates = sim.game.system.turns(p, 'T', clockwise, sim.blocked);
        const test = candidates.findIndex((c) => sim.fits(c));
        if (test < 0) continue;
        const q = candidates[test];
        if (cellKey(sim.fall(q).cells) !== cellKey(q.cells)) continue; // it would fall: no spin
        const spin = refTSpin(q.cells, test, sim.blocked);
        if (spin === 'none' || q.cells.some(([, y]) => y >= sim.game.lockTop)) continue;
        const k = cellKey(q.cells);
        const had = out.get(k);
        if (!had || LEVEL[spin] > LEVEL[had.spin]) out.set(k, { spin, presses: depth + 2 });
      }
      for (const key of ['left', 'right', 'dasLeft', 'dasRight', 'cw', 'ccw', 'softDrop'] as const) {
        const q = sim.press(p, key);
        if (!q || seen.has(stateKey(q))) continue;
        seen.add(stateKey(q));
        next.push(q);
      }
    }
    frontier = next;
  }
  return out;
}

/**
 * The spin a key sequence locks with, replayed in the reference simulator (guideline, T): the last key before
 * hardDrop must be a turn that leaves the piece at rest.
 */
export function refReplaySpin(board: RefBoard, inputs: readonly string[]): RefSpin {
  const sim = new RefSimulator(board, 'T', 'guideline');
  let p = sim.start()!;
  for (let i = 0; i < inputs.length - 2; i++) p = sim.press(p, inputs[i] as never)!;
  const last = inputs[inputs.length - 2];
  if (last !== 'cw' && last !== 'ccw') return 'none';
  const candidates = sim.game.system.turns(p, 'T', last === 'cw', sim.blocked);
  const test = candidates.findIndex((c) => sim.fits(c));
  const q = candidates[test];
  if (cellKey(sim.fall(q).cells) !== cellKey(q.cells)) return 'none';
  return refTSpin(q.cells, test, sim.blocked);
}

// ----- attack -----

/** Lines sent before bonuses: [spin][lines]. */
const SENT: Record<RefSpin, number[]> = {
  none: [0, 0, 1, 2, 4],
  mini: [0, 0, 1],
  full: [0, 2, 4, 6],
};

/** The guideline as Cold Clear's libtetris counts: `combo` clears before this one, `b2b` whether the last clear was hard. */
export function refGuidelineLock(
  lines: number,
  spin: RefSpin,
  perfect: boolean,
  state: { combo: number; b2b: boolean },
): { sent: number; combo: number; b2b: boolean } {
  let sent = SENT[spin][lines];
  let { combo, b2b } = state;
  if (lines > 0) {
    const hard = lines === 4 || spin !== 'none';
    if (hard && b2b) sent += 1;
    b2b = hard;
    const comboLines = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];
    sent += combo >= comboLines.length ? 5 : comboLines[combo];
    combo += 1;
  } else combo = 0;
  if (perfect) sent = 10;
  return { sent, combo, b2b };
}

/**
 * TETR.IO (TETRA LEAGUE before 2024's season 2) with its counters: `combo` and `b2b` start at -1, a clear adds one
 * to combo and a hard clear to b2b, an easy clear sets b2b to -1, a lock without lines sets combo to -1.
 */
export function refTetrioLock(
  lines: number,
  spin: RefSpin,
  perfect: boolean,
  state: { combo: number; b2b: number },
): { sent: number; combo: number; b2b: number } {
  let { combo, b2b } = state;
  if (lines > 0) {
    combo++;
    if (spin !== 'none' || lines === 4) b2b++;
    else b2b = -1;
  } else combo = -1;
  const chain = Math.max(b2b, 0);
  const c = Math.max(combo, 0);
  let g = SENT[spin][lines];
  if (lines > 0 && chain > 0) {
    const l = Math.log1p(0.8 * chain);
    g += Math.floor(1 + l) + (chain === 1 ? 0 : (1 + (l - Math.floor(l))) / 3);
  }
  if (c > 0) {
    g = g * (1 + 0.25 * c);
    if (c > 1) g = Math.max(g, Math.log1p(1.25 * c));
  }
  let sent = Math.floor(g);
  if (perfect) sent += 10;
  return { sent, combo, b2b };
}

// ----- garbage -----

/** Outgoing lines against queued attacks (line counts, oldest first): what is left of each and what goes out. */
export function refCancel(queued: number[], attack: number): { queued: number[]; sent: number } {
  const left = [...queued];
  let a = attack;
  while (a > 0 && left.length > 0) {
    if (left[0] <= a) a -= left.shift()!;
    else {
      left[0] -= a;
      a = 0;
    }
  }
  return { queued: left, sent: a };
}

/** Rows (top first) with garbage rows pushed in from below, one per hole column in order; lost top rows are returned. */
export function refInsertGarbage(rows: string[], holes: number[]): { rows: string[]; lost: string[] } {
  const width = rows[0].length;
  let all = [...rows];
  for (const h of holes) all = [...all, [...Array(width)].map((_, x) => (x === h ? '.' : 'G')).join('')];
  return { rows: all.slice(all.length - rows.length), lost: all.slice(0, all.length - rows.length) };
}
