/**
 * TBP piece locations against the library's SRS moves: every piece and orientation gives the cells the spec defines
 * (test/helpers/tbp-frontend.ts draws them from the spec's text, apart from src/), both ways, on every reachable
 * placement of random boards, and the spec's spawn column.
 */
import { describe, expect, it } from 'vitest';
import { PIECES } from '../../src/pieces.js';
import { Rng } from '../../src/random.js';
import { Board } from '../../src/rules/board.js';
import { reachablePlacements } from '../../src/rules/reachable.js';
import { SRS } from '../../src/rules/rotation-systems.js';
import { TBP_ORIENTATIONS, srsFromTbp, tbpCells, tbpFromSrs } from '../../src/tbp/location.js';
import { ORIENTATION_NAMES, specCells, type Location } from '../helpers/tbp-frontend.js';
import { randomBoard } from '../rules/random-boards.js';

const sorted = (cells: readonly (readonly number[])[]) =>
  [...cells].map(([x, y]) => [x, y]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);

describe('TBP locations', () => {
  it('orientations are north, east, south, west: SRS 0, R, 2, L', () => {
    expect(TBP_ORIENTATIONS).toEqual(ORIENTATION_NAMES);
    for (const [i, o] of TBP_ORIENTATIONS.entries())
      expect(srsFromTbp({ type: 'T', orientation: o, x: 4, y: 10 }).rotation).toBe(['0', 'R', '2', 'L'][i]);
  });

  it.each(PIECES)('%s: every orientation covers the cells the spec defines around its centre, both ways', (type) => {
    for (const orientation of TBP_ORIENTATIONS)
      for (const [x, y] of [
        [4, 19],
        [0, 0],
        [9, 39],
        [-3, 2],
      ]) {
        const loc: Location = { type, orientation, x, y };
        expect(sorted(tbpCells(loc as never)), `${type} ${orientation} ${x},${y}`).toEqual(sorted(specCells(loc)));
        const srs = srsFromTbp(loc as never);
        const s = SRS.pieces[PIECES.indexOf(type)].names.indexOf(srs.rotation);
        const libraryCells = SRS.pieces[PIECES.indexOf(type)].cells[s].map(([dx, dy]) => [srs.x + dx, srs.y + dy]);
        expect(sorted(libraryCells)).toEqual(sorted(specCells(loc)));
        expect(tbpFromSrs(srs)).toEqual(loc);
      }
  });

  it('the O in any orientation and the I and S/Z in opposite ones cover the same cells from other centres', () => {
    // The spec's centres differ by orientation where the shapes coincide: one placement, several locations.
    const o = TBP_ORIENTATIONS.map((orientation, i) =>
      sorted(specCells({ type: 'O', orientation, x: 4 + [0, 0, 1, 1][i], y: 5 + [0, 1, 1, 0][i] })),
    );
    for (const cells of o) expect(cells).toEqual(o[0]);
    expect(sorted(specCells({ type: 'I', orientation: 'south', x: 5, y: 5 }))).toEqual(
      sorted(specCells({ type: 'I', orientation: 'north', x: 4, y: 5 })),
    );
  });

  it("pieces appear centred on x = 4 (the spec's default spawn column), north", () => {
    for (const type of PIECES) {
      const id = PIECES.indexOf(type);
      const spawn = tbpFromSrs({ piece: type, rotation: '0', x: SRS.spawnX(id, 10), y: 20 });
      expect(spawn.x, type).toBe(4);
      expect(spawn.orientation).toBe('north');
    }
  });

  it('every reachable placement on random boards maps to a location with the same cells, and back', () => {
    const rng = new Rng(54);
    let checked = 0;
    for (let b = 0; b < 12; b++) {
      const { rows } = randomBoard(rng);
      const width = rows[0].length;
      if (width !== 10) continue;
      const board = Board.fromRows(rows).withHeight(40);
      for (const piece of PIECES)
        for (const p of reachablePlacements(board, piece, { rules: 'guideline' })) {
          const loc = tbpFromSrs(p);
          expect(sorted(specCells(loc as Location))).toEqual(sorted(p.cells));
          expect(srsFromTbp(loc)).toEqual({ piece: p.piece, rotation: p.rotation, x: p.x, y: p.y });
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(500);
  });
});
