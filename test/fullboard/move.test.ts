/**
 * The full-board player's move has the shape every AI answers with (docs/api.md, "Moves"): on random boards its
 * `{ piece, rotation, x, y, cells }` is exactly one of the classic rule set's reachable placements (the rules
 * layer's independent statement of the same move), and its cells are where the piece lands.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropPiece } from '../../src/fullboard/drops.js';
import { bestMove } from '../../src/fullboard/player.js';
import { PIECES } from '../../src/pieces.js';
import { popcount } from '../../src/board-rows.js';
import { Board } from '../../src/rules/board.js';
import { reachablePlacements } from '../../src/rules/reachable.js';

/** Random 10 x 20 boards: each column filled up to a random height with a few holes, no full row. */
const boardArb = fc
  .array(fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), { minLength: 0, maxLength: 12 })
  .map((rows) => rows.map((r) => r.map((f) => (f ? '#' : '.')).join('')).filter((r) => r.includes('.')));

describe('bestMove answers with the shared move shape', () => {
  it('is a classic reachable placement of the same piece, its cells where the piece lands', async () => {
    await fc.assert(
      fc.asyncProperty(boardArb, fc.constantFrom(...PIECES), async (rows, piece) => {
        const board = Board.fromRows(rows.length > 0 ? rows : ['..........'], 20);
        const move = await bestMove(board, piece);
        if (!move) return;
        const { piece: p, rotation, x, y, cells } = move;
        const classic = reachablePlacements(board, piece, {
          rules: 'classic',
        }).map(({ inputs: _, spin: __, ...m }) => m);
        expect(classic).toContainEqual({ piece: p, rotation, x, y, cells });
        expect([p, rotation]).toEqual([piece, String(move.orientation)]);
        // the board after the move, before rows are removed, is the board plus these cells
        const placed = dropPiece(board, move)!;
        expect(placed.move).toEqual({ piece: p, rotation, x, y, cells });
        expect(placed.landingRow).toBe(y);
        expect(move.linesCleared).toBe(placed.lines);
        expect(move.board.equals(placed.board)).toBe(true);
        for (const [cx, cy] of cells) expect(board.filled(cx, cy)).toBe(false);
        if (placed.lines === 0) {
          const count = (b: Board) => Array.from(b.rows).reduce((n, r) => n + popcount(r), 0);
          expect(count(placed.board)).toBe(count(board) + 4);
          for (const [cx, cy] of cells) expect(placed.board.filled(cx, cy)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
