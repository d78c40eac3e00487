/**
 * The reachable-placements kernel (assembly/reachable.ts, behind reachablePlacements) against the TypeScript
 * search it implements (searchPlacements): the same placements in the same order with the same key sequences.
 */
import { describe, expect, it } from 'vitest';
import { Board, RULE_SETS, countReachablePlacements, reachablePlacements } from '../../src/rules/index.js';
import { searchPlacements } from '../../src/rules/reachable.js';
import { Rng } from '../../src/random.js';
import { randomBoard } from './random-boards.js';

describe('reachable kernel', () => {
  // the timed nes is searched frame by frame, which the TypeScript search does not (test/rules/timed-reachable.test.ts)
  for (const rules of Object.values(RULE_SETS).filter((r) => r.timing === undefined)) {
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
  it('spins: the same T-spins, keys and landings as the TypeScript search (guideline; T-spins under ARS and 20G)', () => {
    // T pieces only, where spins are; custom rule sets switch T-spins on under ARS (corners from its own T) and at
    // 20G (a turn from where the piece appears, initial rotation).
    const custom = [
      RULE_SETS.guideline,
      { ...RULE_SETS.tgm, name: 'tgm-spins', spins: 'tSpins' as const },
      { ...RULE_SETS.tgm20g, name: 'tgm20g-spins', spins: 'tSpins' as const },
    ];
    for (const rules of custom) {
      const rng = new Rng(rules.name.length * 31 + 5);
      const spins = { none: 0, mini: 0, full: 0 };
      for (let i = 0; i < 600; i++) {
        const board = Board.fromRows(randomBoard(rng).rows);
        const expected = searchPlacements(board, 'T', rules);
        const got = reachablePlacements(board, 'T', { rules });
        expect(got, rules.name).toEqual(expected);
        for (const p of got) spins[p.spin]++;
      }
      expect(Math.min(spins.mini, spins.full), `${rules.name} ${JSON.stringify(spins)}`).toBeGreaterThan(20);
    }
  });
  it('keeps its answers apart across many calls (generation marks wrap after 65,535 calls)', () => {
    // The marks of the call on the empty board are stale when the mark value comes round again 65,535 calls
    // later; the calls in between (on a high stack) never touch the low rows, so only the clearing at the wrap
    // keeps that call right.
    const empty = Board.empty();
    const high = Board.fromRows(
      Array.from({ length: 18 }, () => '#########.'),
      20,
    );
    const expected = searchPlacements(empty, 2, RULE_SETS.guideline).length;
    expect(countReachablePlacements(empty, 2, { rules: 'guideline' })).toBe(expected);
    for (let i = 0; i < 65_534; i++) countReachablePlacements(high, 2, { rules: 'guideline' });
    expect(countReachablePlacements(empty, 2, { rules: 'guideline' })).toBe(expected);
  });
  it('a fresh custom rule-set object on every call reuses the prepared search (kernel memory stays put)', async () => {
    const { reachableMemoryBytes } = await import('../../src/kernels/reachable.js');
    const board = Board.empty();
    const custom = () => ({ ...RULE_SETS.nesUntimed, name: 'my-nes' });
    countReachablePlacements(board, 2, { rules: custom() });
    const before = reachableMemoryBytes();
    for (let i = 0; i < 5_000; i++) countReachablePlacements(board, 2, { rules: custom() });
    expect(reachableMemoryBytes()).toBe(before);
  });
});
