/**
 * The 20G window's count at W = 6 (docs/rules.md, "The 20G table"): about a million boards searched, about a minute,
 * so only `npm run fuzz` runs it (FUZZ_RUNS set); test/rank/20g-window.test.ts checks W = 5 in every run.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rankMoves20G } from '../../src/rank/moves-20g.js';
import { volume, windowTriples } from '../rank/window-triples.js';

describe.runIf(process.env.FUZZ_RUNS !== undefined)('the 20G window at W = 6 (fuzz)', () => {
  it('misses the documented triples, upright I and J as documented, adds none; the moves hold the rest', () => {
    const doc = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const claim = doc.match(/and (\d+) at W = 6 \((\d+) upright I, (\d+) upright J\)/);
    expect(claim, 'the sentence of docs/rules.md this test checks').not.toBeNull();
    const [missedCount, uprightI, uprightJ] = claim!.slice(1).map(Number);
    const { full, windowed, missed, added } = windowTriples(6, 4);
    expect(missed).toHaveLength(missedCount);
    expect(missed.filter((t) => t.piece === 'I' && t.upright)).toHaveLength(uprightI);
    expect(missed.filter((t) => t.piece === 'J' && t.upright)).toHaveLength(uprightJ);
    expect(uprightI + uprightJ).toBe(missedCount);
    expect(added).toEqual([]);
    expect(full - windowed).toBe(missed.length);
    expect(volume(rankMoves20G(6, 4))).toBe(windowed);
  }, 600_000);
});
