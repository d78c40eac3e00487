/** The full-board player works without weights: DEFAULT_WEIGHTS ('bcts', the strongest preset measured). */
import { describe, expect, it } from 'vitest';
import { Board } from '../../src/rules/board.js';
import { bestMove, playFullGame } from '../../src/fullboard/player.js';
import { DEFAULT_WEIGHTS, FEATURE_SETS, PRESET_NAMES, resolveWeights } from '../../src/fullboard/presets.js';

// A board with holes and wells, so each preset scores its best T placement differently.
const BOARD = Board.fromRows(['..........', '#.........', '##...#....', '###.###..#', '####.####.'], 20);

describe('full-board defaults', () => {
  it('bestMove without options plays DEFAULT_WEIGHTS', async () => {
    expect(DEFAULT_WEIGHTS).toBe('bcts');
    const byDefault = await bestMove(BOARD, 'T');
    const bcts = await bestMove(BOARD, 'T', { weights: 'bcts' });
    const cs3243 = await bestMove(BOARD, 'T', { weights: 'cs3243' });
    expect(byDefault).not.toBeNull();
    expect({ ...byDefault, board: byDefault!.board.toRows() }).toEqual({ ...bcts, board: bcts!.board.toRows() });
    // the comparison above can tell presets apart: another preset scores differently
    expect(cs3243!.value).not.toBe(bcts!.value);
    // options with only `next` keep the default weights too
    expect((await bestMove(BOARD, 'T', { next: 'I' }))!.value).toBe(
      (await bestMove(BOARD, 'T', { weights: 'bcts', next: 'I' }))!.value,
    );
  });

  it('playFullGame without weights plays DEFAULT_WEIGHTS', async () => {
    const a = await playFullGame({ seed: 4, maxPieces: 3000 });
    const b = await playFullGame({ weights: 'bcts', seed: 4, maxPieces: 3000 });
    expect({ ...a, seconds: 0, piecesPerSecond: 0 }).toEqual({ ...b, seconds: 0, piecesPerSecond: 0 });
  });

  it('options that are not an object are refused, not silently defaulted', async () => {
    await expect(bestMove(BOARD, 'T', 'bcts' as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/options must be an object/),
    });
    await expect(bestMove(BOARD, 'T', null as never)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(playFullGame(7 as never)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });

  it('the CS3243 presets are cs3243 and cs3243Prose; any other name is refused with the presets listed', async () => {
    expect(PRESET_NAMES).toEqual(['cs3243', 'cs3243Prose', 'dellacherie', 'bcts']);
    expect(Object.keys(FEATURE_SETS)).toEqual(['cs3243', 'cs3243Prose', 'dellacherie', 'bcts']);
    for (const name of ['seedGA', 'CS3243']) {
      await expect(bestMove(BOARD, 'T', { weights: name as never })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: `unknown weights preset "${name}"; presets are cs3243, cs3243Prose, dellacherie, bcts`,
      });
    }
    expect(() => resolveWeights('toString')).toThrow(/unknown weights preset "toString"; presets are cs3243,/);
  });
});
