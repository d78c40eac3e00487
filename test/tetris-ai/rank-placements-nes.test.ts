/**
 * rankPlacements under a timed NES rule set (docs/game.md, "Ranking placements" and "NES Tetris: the competition
 * format"): the list holds exactly the placements the frames allow at the turn's level and timeline, as the
 * independent frame-by-frame reference (test/reference/timed-reference.ts) finds them, and every entry's frame inputs
 * replay through that reference onto its cells on its lock frame. Golden: an upright I to the right well on a stack
 * one row higher than the frames allow is absent, while the timing-free preset lists it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import type { PlacementRanking } from '../../src/tetris-ai/rank-placements.js';
import { PIECES, type Piece } from '../../src/pieces.js';
import { Rng } from '../../src/random.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';
import { timedRefBoard, timedRefPlacements, timedRefReplay } from '../reference/timed-reference.js';
import { randomBoard } from '../rules/random-boards.js';

let table: RankTable;
beforeAll(async () => {
  // A weak table (3 iterations): its stack fails often, so rankings come from recover mode too.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

/** A random 10 × 20 board (holes, overhangs, now and then a stack reaching the spawn rows), top row first. */
function randomRows(rng: Rng): string[] {
  for (;;) {
    const b = randomBoard(rng);
    if (b.width === 10 && b.height === 20) return b.rows;
  }
}

const cellsKey = (cells: readonly (readonly [number, number])[]) =>
  JSON.stringify([...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]));

/** A stack of `height` rows on columns 0..8 with the right well (column 9) open, top row first. */
function wellStack(height: number): string[] {
  return Array.from({ length: 20 }, (_, r) => (19 - r < height ? '#########.' : '..........'));
}

/** The upright I at the bottom of the right well. */
const WELL_I = cellsKey([
  [9, 0],
  [9, 1],
  [9, 2],
  [9, 3],
]);

const listed = (r: PlacementRanking) => new Set(r.placements.map((p) => cellsKey(p.cells)));

describe('rankPlacements under a timed NES rule set', () => {
  it('lists exactly the placements the frames allow, each with frame inputs that replay onto it', async () => {
    const rng = new Rng(52);
    let checked = 0;
    for (const timeline of ['X.', 'X..', 'X...', 'das']) {
      const ai = await TetrisAI.create({ rules: { ...RULE_SETS.nes, level: 29, timeline }, lookahead: 1, table });
      for (let i = 0; i < 12; i++) {
        const rows = randomRows(rng);
        const current = PIECES[rng.nextInt(7)] as Piece;
        const next = PIECES[rng.nextInt(7)] as Piece;
        // the rule set's own level (29), or the turn's
        const level = [29, 18, 19, 39][i % 4];
        const state = { board: rows, current, queue: [next], ...(level === 29 ? {} : { level }) };
        const ranking = ai.rankPlacements(state);
        const where = `${timeline} level ${level} ${current}:\n${rows.join('\n')}`;
        const ref = timedRefPlacements(timedRefBoard(rows), current, { level, timeline });
        expect(listed(ranking), where).toEqual(new Set(ref.keys()));
        expect(ranking.placements.length, where).toBe(ref.size);
        const move = ai.nextMove(state);
        if (move) expect(cellsKey(ranking.placements[0].cells), where).toBe(cellsKey(move.cells));
        for (const p of ranking.placements) {
          const tokens = p.inputs as string[];
          expect(tokens.length, where).toBe(ref.get(cellsKey(p.cells))!.frame + 1);
          const replay = timedRefReplay(timedRefBoard(rows), current, { level, timeline }, tokens);
          expect(replay, `${where}\n${tokens.join(' ')}`).toMatchObject({ cells: p.cells });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  }, 300_000);

  it('leaves out the upright I to the right well a row above what the frames allow; nesUntimed lists it', async () => {
    const at29 = (timeline: string) =>
      TetrisAI.create({ rules: { ...RULE_SETS.nes, level: 29, timeline }, lookahead: 0, table });
    const x2 = await at29('X.');
    const x3 = await at29('X..');
    const untimed = await TetrisAI.create({ rules: 'nesUntimed', lookahead: 0, table });
    const ranked = (ai: TetrisAI, height: number, level?: number) =>
      listed(ai.rankPlacements({ board: wellStack(height), current: 'I', ...(level === undefined ? {} : { level }) }));
    // StackRabbit's max4TapHeight at level 29: 12 rows with X., 9 with X.. (docs/rules.md, "Time").
    expect(ranked(x2, 12).has(WELL_I)).toBe(true);
    expect(ranked(x2, 13).has(WELL_I)).toBe(false);
    expect(ranked(x3, 9).has(WELL_I)).toBe(true);
    expect(ranked(x3, 10).has(WELL_I)).toBe(false);
    // The same rule set at the turn's level 18 reaches it from 13 rows; the timing-free preset from any height.
    expect(ranked(x2, 13, 18).has(WELL_I)).toBe(true);
    expect(ranked(untimed, 13).has(WELL_I)).toBe(true);
    expect(ranked(untimed, 16).has(WELL_I)).toBe(true);
    // The timed entries' inputs are frame tokens; the untimed ones keys.
    const i13 = x2.rankPlacements({ board: wellStack(13), current: 'I' }).placements;
    for (const p of i13)
      for (const t of p.inputs) expect(['.', 'L', 'R', 'A', 'B', 'LA', 'LB', 'RA', 'RB']).toContain(t);
    const u13 = untimed.rankPlacements({ board: wellStack(13), current: 'I' }).placements;
    expect(u13.find((p) => cellsKey(p.cells) === WELL_I)!.inputs).toContain('hardDrop');
  }, 120_000);
});
