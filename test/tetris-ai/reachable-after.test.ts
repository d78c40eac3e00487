/**
 * reachableAfter (src/tetris-ai/rules-adapter.ts): the placements a piece still reaches after the first frames of a
 * move the player committed to before the next piece was known (docs/game.md, "The reaction"). Every placement it
 * lists replays, played inputs first, through the independent frame-by-frame reference
 * (test/reference/timed-reference.ts) onto its cells, the committed move itself is among them, and they are the
 * reference's placements after the same first frames, none missing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PIECES } from '../../src/pieces.js';
import { Board } from '../../src/rules/board.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';
import type { FrameInput } from '../../src/rules/types.js';
import { cellsKey } from '../../src/tetris-ai/grid.js';
import { factsAtLevel, reachableAfter, reachableOnRows, ruleFacts } from '../../src/tetris-ai/rules-adapter.js';
import { timedRefBoard, timedRefPlacements, timedRefReplay } from '../reference/timed-reference.js';
import { boardRows } from '../helpers/board-from-heights.js';

const lcm = (a: number, b: number): number => {
  let m = a;
  while (m % b !== 0) m += a;
  return m;
};

const sorted = (cells: readonly (readonly number[])[]) =>
  JSON.stringify([...cells].map(([x, y]) => [x, y]).sort((a, b) => a[1] - b[1] || a[0] - b[0]));

describe('reachableAfter', () => {
  it('lists the placements the committed frames and the rest allow, the committed one among them', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 13 }), { minLength: 10, maxLength: 10 }),
        fc.array(fc.integer({ min: -1, max: 12 }), { minLength: 10, maxLength: 10 }),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom(18, 19, 24),
        fc.constantFrom('X.', 'X..', 'X...'),
        fc.nat(1000),
        (heights, holes, pid, level, timeline, pick) => {
          const rows = boardRows(heights, holes);
          const board = Board.fromRows(rows);
          const bits = Uint32Array.from(board.rows);
          const facts = factsAtLevel(ruleFacts({ ...RULE_SETS.nes, timeline }), level);
          const piece = PIECES[pid];
          // the reaction (18 frames) rounded up to whole gravity steps (3 or 2 frames a row) and tap periods
          const step = lcm(level === 18 ? 3 : 2, timeline.length);
          const frames = Math.ceil(18 / step) * step;
          const moves = reachableOnRows(bits, 10, 20, piece, facts).filter((p) => p.inputs.length > frames);
          if (moves.length === 0) return;
          const played = moves[pick % moves.length];
          const after = reachableAfter(bits, 10, 20, piece, facts, played.inputs as FrameInput[], frames);
          expect(after).not.toBeNull();
          expect(after!.some((p) => cellsKey(p.cells) === cellsKey(played.cells))).toBe(true);
          for (const p of after!) {
            expect(p.inputs.slice(0, frames)).toEqual(played.inputs.slice(0, frames));
            const replay = timedRefReplay(timedRefBoard(rows), piece, { level, timeline }, p.inputs as string[]);
            expect('cells' in replay ? sorted(replay.cells) : replay.error).toBe(sorted(p.cells));
          }
          // and none is missing: the reference's placements after the same first frames
          const ref = timedRefPlacements(
            timedRefBoard(rows),
            piece,
            { level, timeline },
            played.inputs.slice(0, frames),
          );
          expect(new Set(after!.map((p) => sorted(p.cells)))).toEqual(new Set(ref.keys()));
          checked++;
        },
      ),
      { numRuns: 300, seed: 52 },
    );
    expect(checked).toBeGreaterThan(100);
  });
});
