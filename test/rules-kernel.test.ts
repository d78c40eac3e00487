/**
 * The reachable-placements kernel (assembly/reachable.ts, behind reachablePlacements) against the TypeScript
 * search it implements (searchPlacements): the same placements in the same order with the same key sequences.
 */
import { describe, expect, it } from 'vitest';
import { Board, RULE_SETS, countReachablePlacements, reachablePlacements } from '../src/rules/index.js';
import { searchPlacements } from '../src/rules/reachable.js';
import { Rng } from '../src/random.js';
import { randomBoard } from './rules/random-boards.js';

describe('reachable kernel', () => {
  for (const rules of Object.values(RULE_SETS)) {
    it(`${rules.name}: identical to the TypeScript search on 1,000 random boards`, () => {
      const rng = new Rng(rules.name.length * 1000 + 17);
      for (let i = 0; i < 1000; i++) {
        const board = Board.fromRows(randomBoard(rng).rows);
        const pid = rng.nextInt(7);
        const expected = searchPlacements(board, pid, rules);
        expect(reachablePlacements(board, pid, { rules })).toEqual(expected);
        expect(countReachablePlacements(board, pid, { rules: rules.name as never })).toBe(expected.length);
      }
    });
  }
  it('keeps its answers apart across many calls (generation marks wrap after 65,535 calls)', () => {
    const board = Board.fromRows(['#.........', '##.....###'], 20);
    const expected = searchPlacements(board, 2, RULE_SETS.guideline).length;
    const empty = Board.empty();
    for (let i = 0; i < 70_000; i++) {
      const n = countReachablePlacements(i % 2 ? board : empty, 2, { rules: 'guideline' });
      if (i % 2 && n !== expected) throw new Error(`call ${i}: ${n} placements, expected ${expected}`);
    }
  });
});
