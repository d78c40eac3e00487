import { beforeAll, describe, expect, it } from 'vitest';
import { PIECES, type Piece } from '../../src/pieces.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { TetrisAI, expectedPiecesFromRank } from '../../src/tetris-ai/index.js';
import { refused } from '../helpers/refused.js';

let table: RankTable;
beforeAll(async () => {
  // A quick 9-column table (3 iterations): the tests check the ranking's plumbing and its agreement with nextMove.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

let seed = 12345;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return (seed >>> 8) % n;
};

/** A clean stack on 9 columns (steps within ±2) with the right well open, 20 rows, top row first. */
function cleanStack(): string[] {
  const h: number[] = [rnd(5)];
  for (let i = 1; i < 9; i++) h.push(Math.max(0, Math.min(10, h[i - 1] + rnd(5) - 2)));
  return Array.from({ length: 20 }, (_, r) => {
    const y = 19 - r;
    return h.map((v) => (y < v ? '#' : '.')).join('') + '.';
  });
}

/** A clean stack with one hole dug under a column (recover mode). */
function holed(): string[] {
  const rows = cleanStack().map((r) => r.split(''));
  const x = rnd(9);
  for (let r = 0; r < 20; r++) if (rows[r][x] === '#') rows[r][x] = '.';
  rows[19][x] = '.';
  rows[18][x] = '#';
  return rows.map((r) => r.join(''));
}

const piece = () => PIECES[rnd(7)] as Piece;

describe('rankPlacements', () => {
  it("lists nextMove's move first, values finite, the rest best first (stack mode, clean stacks)", async () => {
    const ai = await TetrisAI.create({ table, rules: 'guideline', lookahead: 1 });
    let stackTurns = 0;
    for (let t = 0; t < 25; t++) {
      const state = {
        board: cleanStack(),
        current: piece(),
        queue: [piece(), piece()].join(''),
        hold: t % 3 ? null : piece(),
        canHold: true,
      };
      const move = ai.nextMove(state)!;
      const ranking = ai.rankPlacements(state);
      expect(ranking.mode).toBe(move.mode);
      const first = ranking.placements[0];
      expect({ hold: first.hold, piece: first.piece, cells: first.cells }).toEqual({
        hold: move.hold,
        piece: move.piece,
        cells: move.cells,
      });
      for (const p of ranking.placements) {
        expect(Number.isFinite(p.value)).toBe(true);
        expect(Number.isFinite(p.loss)).toBe(true);
        expect(p.topsOut).toBe(false); // low stacks: nothing reaches the top
        expect(p.loss).toBeCloseTo(first.value - p.value, 9);
      }
      if (ranking.mode === 'stack') {
        stackTurns++;
        expect(ranking.unit).toBe('expectedPieces');
        expect(ranking.afterNextPiece!.map((a) => a.piece)).toEqual([...PIECES]);
        for (const a of ranking.afterNextPiece!) expect(a.value).toBeGreaterThanOrEqual(0);
        // placements that break the perfect stack (value 0) come after every stack move
        const zero = ranking.placements.findIndex((p) => p.value === 0);
        if (zero >= 0) for (const p of ranking.placements.slice(zero)) expect(p.value).toBe(0);
      }
      expect(ai.rankPlacements(state, { limit: 3 }).placements).toEqual(ranking.placements.slice(0, 3));
    }
    expect(stackTurns).toBeGreaterThan(15);
  }, 120_000);

  it('recover mode on boards with holes: nextMove first, evaluator scores, non-increasing after the first', async () => {
    const ai = await TetrisAI.create({ table, rules: 'guideline', lookahead: 1 });
    for (let t = 0; t < 15; t++) {
      const state = { board: holed(), current: piece(), queue: piece(), hold: null, canHold: true };
      const move = ai.nextMove(state)!;
      const ranking = ai.rankPlacements(state);
      expect(ranking.mode).toBe('recover');
      expect(ranking.unit).toBe('evaluatorScore');
      const first = ranking.placements[0];
      expect({ hold: first.hold, cells: first.cells }).toEqual({ hold: move.hold, cells: move.cells });
      const rest = ranking.placements.slice(1);
      for (let i = 1; i < rest.length; i++) expect(rest[i].value).toBeLessThanOrEqual(rest[i - 1].value);
      for (const p of ranking.placements) expect(Number.isFinite(p.value)).toBe(true);
      // every reachable placement of the current piece is listed once
      const cells = new Set(
        ranking.placements.filter((p) => !p.hold).map((p) => JSON.stringify([...p.cells].map(String).sort())),
      );
      expect(cells.size).toBe(ranking.placements.filter((p) => !p.hold).length);
    }
  }, 120_000);

  it('flags the moves that top out, whose value holds the top-out cost instead of points (recover mode)', async () => {
    const ai = await TetrisAI.create({ table, rules: 'guideline', lookahead: 1 });
    // Columns 3-6 filled to row 18 (19 rows): a T on them reaches row 19 or 20, over the 20 visible rows.
    const board = Array.from({ length: 20 }, (_, r) => (r === 0 ? '..........' : '...####...'));
    const ranking = ai.rankPlacements({ board, current: 'T', queue: 'SZ', hold: null, canHold: false });
    expect(ranking.mode).toBe('recover');
    const [best, ...rest] = ranking.placements;
    expect(best.topsOut).toBe(false);
    const over = rest.filter((p) => p.topsOut);
    expect(over.length).toBeGreaterThan(0);
    // Every move left with a cell at row 20 or above is flagged; its loss is the top-out cost, far from any points.
    for (const p of ranking.placements) {
      const above = p.cells.some(([, y]) => y >= 20);
      if (above) expect(p.topsOut).toBe(true);
      if (p.topsOut) expect(p.loss).toBeGreaterThan(1e8);
      else expect(Math.abs(p.loss)).toBeLessThan(1e5);
    }
    expect(over.some((p) => p.cells.some(([, y]) => y >= 20))).toBe(true);
  }, 120_000);

  it('converts ranks monotonically into expected pieces', () => {
    expect(expectedPiecesFromRank(0, 15)).toBe(0);
    // rank 0.5 after 1 iteration: q = 0.5, q / (1 − q) = 1
    expect(expectedPiecesFromRank(0.5, 1)).toBeCloseTo(1, 12);
    expect(expectedPiecesFromRank(0.25, 2)).toBeCloseTo(1, 12);
    let last = -1;
    for (let r = 0; r <= 1; r += 1 / 64) {
      const v = expectedPiecesFromRank(r, 15);
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThanOrEqual(last);
      last = v;
    }
  });

  it('rejects bad options', async () => {
    const ai = await TetrisAI.create({ table, rules: 'guideline' });
    const refusedArgument = (message: RegExp) => refused('BAD_ARGUMENT', message);
    expect(() => ai.rankPlacements({ board: cleanStack(), current: 'T' }, { limit: 0 })).toThrow(
      refusedArgument(/^limit must be an integer from 1 to 10000; got 0$/),
    );
    expect(() => ai.rankPlacements({ board: cleanStack(), current: 'T' }, { limit: 2.5 })).toThrow(
      refusedArgument(/^limit must be an integer from 1 to 10000; got 2\.5$/),
    );
    expect(() => ai.rankPlacements(null as never)).toThrow(
      refusedArgument(/^rankPlacements takes \{ board, current, .*\}; got null$/),
    );
  });
});
