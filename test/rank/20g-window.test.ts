/**
 * The 20G table's window against the full board (docs/rules.md, "The 20G table"), counted from the definition by
 * test/rank/window-triples.ts. W = 6 takes about a minute: `npm run fuzz` runs it (test/fuzz/20g-window.fuzz.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rankMoves20G } from '../../src/rank/moves-20g.js';
import { ARS } from '../../src/rules/rotation-systems.js';
import { PIECES, spawnColumns, volume, windowTriples } from './window-triples.js';

describe('the 20G window against the full board (docs/rules.md, "The 20G table")', () => {
  const doc = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const claim = doc.match(
    /the window misses (\d+) \(surface, piece, successor\) triples at W = 5, all of them the upright I/,
  );

  it("the spawn boxes are the documented columns at W = 9, and the rules layer's at every width here", () => {
    expect(PIECES.map((p) => spawnColumns(p, 10))).toEqual([
      [3, 6],
      [4, 5],
      [3, 5],
      [3, 5],
      [3, 5],
      [3, 5],
      [3, 5],
    ]);
    for (const boardWidth of [6, 7, 10])
      for (const [id, p] of PIECES.entries()) {
        const left = ARS.spawnX(id, boardWidth);
        expect(spawnColumns(p, boardWidth)).toEqual([left, left + ARS.pieces[id].spawnBox - 1]);
      }
  });

  // W = 6 searches about 1.1 million boards this way (45 to 65 s): only W = 5 runs here.
  it('at W = 5, S = 4: misses the documented count, every one an upright I, adds none; the moves hold the rest', () => {
    expect(claim, 'the sentence of docs/rules.md this test checks').not.toBeNull();
    const { full, windowed, missed, added } = windowTriples(5, 4);
    expect(missed).toHaveLength(Number(claim![1]));
    expect(missed).toEqual(new Array(missed.length).fill({ piece: 'I', upright: true }));
    expect(added).toEqual([]);
    expect(full - windowed).toBe(missed.length);
    expect(windowed).toBeGreaterThan(20_000);
    // The table's moves (src/rank/moves-20g.ts) hold exactly the windowed triples.
    expect(volume(rankMoves20G(5, 4))).toBe(windowed);
  });
});
