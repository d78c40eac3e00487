/**
 * PieceReach (src/tetris-ai/rules-adapter.ts): the count, the list and the lookup by cells that stack mode uses instead of
 * walking the reachable list, checked against reachableOnRows (the list every other caller gets) on random boards
 * under every rule set.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellsKey, lockCells } from '../../src/tetris-ai/grid.js';
import { PieceReach, reachableOnRows, ruleFacts } from '../../src/tetris-ai/rules-adapter.js';
import { PIECES } from '../../src/pieces.js';
import { topDrops } from '../../src/kernels/reachable.js';
import { RULE_SET_NAMES } from '../../src/rules/rule-sets.js';
import type { GamePlacement } from '../../src/rules/types.js';

const W = 10;
const H = 20;
const WORK_ROWS = 44;

/** Bottom rows of random cells (never full), 0..14 of them, the rest empty. */
const board = fc.array(fc.integer({ min: 0, max: (1 << W) - 2 }), { minLength: 0, maxLength: 14 }).map((low) => {
  const rows = new Uint32Array(WORK_ROWS);
  low.forEach((m, y) => {
    rows[y] = m;
  });
  return rows;
});

/** 1..8 bottom rows full but for one column (a well many pieces fill rows in), random rows above. */
const wellBoard = fc
  .record({
    depth: fc.integer({ min: 1, max: 8 }),
    well: fc.integer({ min: 0, max: W - 1 }),
    above: fc.array(fc.integer({ min: 0, max: (1 << W) - 2 }), { maxLength: 4 }),
  })
  .map(({ depth, well, above }) => {
    const rows = new Uint32Array(WORK_ROWS);
    for (let y = 0; y < depth; y++) rows[y] = ((1 << W) - 1) & ~(1 << well);
    above.forEach((m, i) => {
      rows[depth + i] = m;
    });
    return rows;
  });

/** The placement with these cells and the fewest inputs (the first listed among equals), by walking the list. */
function byWalking(list: readonly GamePlacement[], key: number): GamePlacement | undefined {
  let found: GamePlacement | undefined;
  for (const p of list) if (cellsKey(p.cells) === key && (!found || p.inputs.length < found.inputs.length)) found = p;
  return found;
}

describe('PieceReach', () => {
  for (const name of RULE_SET_NAMES) {
    it(`${name}: the count and list are reachableOnRows's, and find(key) is the list's placement with those cells (property)`, () => {
      const rules = ruleFacts(name);
      fc.assert(
        fc.property(board, fc.constantFrom(...PIECES), fc.constantFrom(...PIECES), (rows, piece, other) => {
          const list = reachableOnRows(rows, W, H, piece, rules);
          const reach = new PieceReach(rows, W, H, piece, rules);
          // Another piece's search in between: the kernel then holds the other's placements, and find must search again.
          const between = new PieceReach(rows, W, H, other, rules);
          expect(reach.count).toBe(list.length);
          expect(between.count).toBe(reachableOnRows(rows, W, H, other, rules).length);
          for (const p of list) expect(reach.find(cellsKey(p.cells))).toEqual(byWalking(list, cellsKey(p.cells)));
          // Cells no placement occupies: the other piece's (a different shape), and cells off the field's top.
          for (const p of between.list.slice(0, 5)) {
            const key = cellsKey(p.cells);
            if (!byWalking(list, key)) expect(reach.find(key)).toBeUndefined();
          }
          expect(
            reach.find(
              cellsKey([
                [0, 40],
                [1, 40],
                [2, 40],
                [3, 40],
              ]),
            ),
          ).toBeUndefined();
          expect(reach.list).toEqual(list);
        }),
        { numRuns: 40 },
      );
    });
  }

  for (const name of RULE_SET_NAMES) {
    it(`${name}: clearing() is the list's placements that clear a row when locked, in its order, made before the list or after (property)`, () => {
      const rules = ruleFacts(name);
      fc.assert(
        fc.property(fc.oneof(board, wellBoard), fc.constantFrom(...PIECES), (rows, piece) => {
          const list = reachableOnRows(rows, W, H, piece, rules);
          const expected = list.filter((p) => lockCells(rows, W, p.cells).lines > 0);
          const reach = new PieceReach(rows, W, H, piece, rules);
          expect(reach.clearing()).toEqual(expected);
          expect(reach.list).toEqual(list);
          expect(reach.clearing()).toEqual(expected);
        }),
        { numRuns: 60 },
      );
    });

    it(`${name}: clearing() keeps the placements that fill rows and only those (a well 4 deep)`, () => {
      const rules = ruleFacts(name);
      const rows = new Uint32Array(WORK_ROWS);
      for (let y = 0; y < 4; y++) rows[y] = ((1 << W) - 1) & ~(1 << (W - 1));
      const clearing = new PieceReach(rows, W, H, 'I', rules).clearing();
      // the upright I down the well fills the four rows; every other I placement fills none
      expect(clearing.length).toBeGreaterThan(0);
      for (const p of clearing) expect(p.cells.every(([x]) => x === W - 1)).toBe(true);
      expect(reachableOnRows(rows, W, H, 'I', rules).length).toBeGreaterThan(clearing.length);
    });
  }

  it('a kernel search for a new board shape in between (topDrops) makes the list search again', () => {
    const rules = ruleFacts('nesUntimed');
    const rows = new Uint32Array(WORK_ROWS);
    for (let y = 0; y < 5; y++) rows[y] = (1 << W) - 2;
    const reach = new PieceReach(rows, W, H, 'T', rules);
    expect(reach.count).toBeGreaterThan(0);
    // a shape no other test asks for: its preparation searches the empty board of that shape in the kernel
    expect(topDrops(W, 37, PIECES.indexOf('Z'), rules.ruleSet)).not.toBeNull();
    expect(reach.list).toEqual(reachableOnRows(rows, W, H, 'T', rules));
  });
});
