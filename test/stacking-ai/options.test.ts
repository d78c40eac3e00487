/**
 * The stacking AI's strategy options (docs/api.md, "Strategies"): `strategy` with an explicit `unknownPieces`, the
 * preview table as `previewTable`, the article's rules as `'article'`; any other name is refused with an error that
 * lists what is allowed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { playGame } from '../../src/tetris-ai/play.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingAI } from '../../src/stacking-ai/ai.js';
import { BEST_STRATEGY, checkStrategy } from '../../src/stacking-ai/strategy.js';
import { ARTICLE_STACKING, resolveStacking } from '../../src/stacking-ai/rules.js';
import { simulateStacking } from '../../src/stacking-ai/simulate.js';

let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 4, maxStep: 2, iterations: 2, threads: 1 });
});

const refused = (message: RegExp) =>
  expect.objectContaining({ name: 'StackRankError', code: 'BAD_ARGUMENT', message: expect.stringMatching(message) });

describe('strategy and unknownPieces', () => {
  it('resolve to the kernel strategy: rank takes none, expectimax 1 by default or 2, best is expectimax over 2', () => {
    expect(checkStrategy(undefined)).toEqual({ strategy: 'rank', unknownPieces: 0 });
    expect(checkStrategy('rank')).toEqual({ strategy: 'rank', unknownPieces: 0 });
    expect(checkStrategy('expectimax')).toEqual({ strategy: 'expectimax', unknownPieces: 1 });
    expect(checkStrategy('expectimax', 1)).toEqual({ strategy: 'expectimax', unknownPieces: 1 });
    expect(checkStrategy('expectimax', 2)).toEqual({ strategy: 'expectimax', unknownPieces: 2 });
    expect(checkStrategy('best')).toEqual(BEST_STRATEGY);
    expect(BEST_STRATEGY).toEqual({ strategy: 'expectimax', unknownPieces: 2 });
  });

  it('refuse unknown pieces the kernel does not search, or given without expectimax', () => {
    for (const n of [0, 3, 1.5, '2', null])
      expect(() => checkStrategy('expectimax', n)).toThrow(refused(/unknownPieces/));
    expect(() => checkStrategy('rank', 1)).toThrow(refused(/unknownPieces goes with strategy "expectimax"/));
    expect(() => checkStrategy(undefined, 2)).toThrow(refused(/"rank" \(the default\)/));
    expect(() => checkStrategy('best', 1)).toThrow(refused(/"best" sets its own/));
    expect(() => checkStrategy('minimax')).toThrow(refused(/"rank", "expectimax" or "best"/));
  });

  it('a strategy that is not one is refused with the strategies listed, by every entry', async () => {
    const listed = /^strategy must be "rank", "expectimax" or "best"; got "expectimax2"$/;
    await expect(StackingAI.create({ table, strategy: 'expectimax2' as never })).rejects.toEqual(refused(listed));
    await expect(simulateStacking({ table, lookahead: 0, strategy: 'expectimax2' as never })).rejects.toEqual(
      refused(listed),
    );
  });

  it('the AI and the simulator report what they play', async () => {
    const ai = await StackingAI.create({ table, strategy: 'expectimax', unknownPieces: 2 });
    expect([ai.strategy, ai.unknownPieces]).toEqual(['expectimax', 2]);
    const best = await StackingAI.create({ table, strategy: 'best' });
    expect([best.strategy, best.unknownPieces]).toEqual(['expectimax', 2]);
    const r = await simulateStacking({ table, lookahead: 0, games: 2, strategy: 'expectimax', threads: 1 });
    expect([r.strategy, r.unknownPieces, r.leaf]).toEqual(['expectimax', 1, 'piece-max']);
    const rank = await simulateStacking({ table, lookahead: 0, games: 2, threads: 1 });
    expect([rank.strategy, rank.unknownPieces, rank.leaf]).toEqual(['rank', 0, 'rank']);
  });
});

describe('previewTable', () => {
  it('an option of another name is unknown, by every entry, and the error lists previewTable', async () => {
    const unknown = (entry: string) =>
      refused(new RegExp(`^${entry}: unknown option "leafRows"; options are .*previewTable`));
    const rows = { width: 4, maxStep: 2, rows: new Uint16Array(table.size * 8) };
    await expect(StackingAI.create({ table, strategy: 'expectimax', leafRows: rows } as never)).rejects.toEqual(
      unknown('StackingAI.create'),
    );
    await expect(
      simulateStacking({ table, lookahead: 0, strategy: 'expectimax', leafRows: rows } as never),
    ).rejects.toEqual(unknown('simulateStacking'));
    await expect(TetrisAI.create({ table, randomizer: 'tgm1', leafRows: rows } as never)).rejects.toEqual(
      unknown('TetrisAI.create'),
    );
    await expect(playGame({ table, leafRows: rows } as never)).rejects.toEqual(unknown('playGame'));
  });

  it('needs the expectimax strategy, and leaf values the size of the table', async () => {
    const rows = { width: 4, maxStep: 2, rows: new Uint16Array(table.size * 8) };
    await expect(StackingAI.create({ table, previewTable: rows })).rejects.toEqual(refused(/previewTable needs/));
    await expect(
      StackingAI.create({ table, strategy: 'expectimax', previewTable: { ...rows, rows: new Uint16Array(8) } }),
    ).rejects.toMatchObject({ code: 'TABLE_MISMATCH', message: expect.stringMatching(/^previewTable is for/) });
    await expect(
      StackingAI.create({ table, strategy: 'expectimax', previewTable: { width: 4 } as never }),
    ).rejects.toEqual(refused(/previewTable must be a preview table/));
  });
});

describe("the article's rules preset", () => {
  it("is 'article' (ARTICLE_STACKING); any other name is refused with the presets listed", () => {
    expect(resolveStacking('article')).toEqual(ARTICLE_STACKING);
    expect(ARTICLE_STACKING).toEqual({ boardHeight: 20, tetrisThreshold: 8, steep: 'truncate', tetris: 'forced' });
    expect(() => resolveStacking('seed' as never)).toThrow(
      refused(/^unknown stacking preset "seed"; presets are article, default$/),
    );
    expect(() => resolveStacking('toString' as never)).toThrow(refused(/unknown stacking preset "toString"/));
  });
});
