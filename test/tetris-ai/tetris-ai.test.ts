import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import { ORIENTATIONS, PIECES, MIRROR_PIECE, pieceId, type Piece } from '../../src/pieces.js';
import { buildRankTable, loadRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingAI } from '../../src/stacking-ai/ai.js';
import { TetrisAI, benchGame, playGame } from '../../src/tetris-ai/index.js';
import { burnsRows, MAX_STACK_ROOM, MIN_STACK_ROOM, stackSearchSetup } from '../../src/tetris-ai/policy.js';
import { NES_RECOVER_WEIGHTS, PLAIN_BCTS_WEIGHTS, RECOVER_WEIGHTS } from '../../src/tetris-ai/evaluate.js';
import { lockCells, stackFloor } from '../../src/tetris-ai/grid.js';
import { normalizeBoard } from '../../src/tetris-ai/board-input.js';
import { Board } from '../../src/rules/board.js';
import { ruleFacts } from '../../src/tetris-ai/rules-adapter.js';
import { isTetrisReady, stackSurfaces } from '../../src/tetris-ai/stack.js';
import {
  createRandomizer,
  RANDOMIZER_NAMES,
  randomizerDefinition,
  type RandomizerName,
} from '../../src/randomizers/index.js';
import { analyzeRandomizer } from '../../src/randomizers/analyze.js';
import { RULE_SET_NAMES, RULE_SETS } from '../../src/rules/rule-sets.js';
import type { Cell, RuleSetName } from '../../src/rules/types.js';
import { RefSimulator, cellKey, refBoardFromRows, refReachable, type RefRules } from '../reference/rules-reference.js';

const W = 10;
const H = 20;
let table: RankTable;
beforeAll(async () => {
  // A quick 9-column table (3 iterations): the tests check the plumbing, not the strength.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

/** Rows top first from column heights (hole-free) plus extra filled / emptied cells. */
function drawBoard(heights: number[], filled: [number, number][] = [], emptied: [number, number][] = []): string[] {
  const grid = Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => y < heights[x]));
  for (const [x, y] of filled) grid[y][x] = true;
  for (const [x, y] of emptied) grid[y][x] = false;
  for (let y = 0; y < H; y++) if (grid[y].every(Boolean)) grid[y][(y * 7) % (W - 1)] = false; // no full rows
  return grid.map((row) => row.map((f) => (f ? '#' : '.')).join('')).reverse();
}

const pieceArb = fc.constantFrom(...PIECES);
const cellArb = fc.tuple(fc.integer({ min: 0, max: W - 1 }), fc.integer({ min: 0, max: H - 1 }));

/** Random boards of every kind a real game produces: clean stacks, holes, garbage, blocked wells, tall stacks. */
const boardArb = fc.oneof(
  // clean stacks, low or tall, the well open
  fc.array(fc.integer({ min: 0, max: 17 }), { minLength: W - 1, maxLength: W - 1 }).map((h) => drawBoard([...h, 0])),
  // stacks with holes and stray cells (garbage, overhangs, a blocked well)
  fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: 14 }), { minLength: W, maxLength: W }),
      fc.array(cellArb, { maxLength: 8 }),
      fc.array(cellArb, { maxLength: 8 }),
    )
    .map(([h, add, del]) => drawBoard(h, add, del)),
  // garbage rows at the bottom (one gap each) under a clean stack
  fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: W - 1 }), { minLength: 1, maxLength: 6 }),
      fc.array(fc.integer({ min: 0, max: 8 }), { minLength: W - 1, maxLength: W - 1 }),
    )
    .map(([gaps, h]) => {
      const g = gaps.length;
      return drawBoard(
        [...h.map((v) => v + g), g],
        [],
        gaps.map((x, y) => [x, y] as [number, number]),
      );
    }),
);

/** Lines a set of cells completes on a board drawn as strings (independent of the library's bit rows). */
function refLines(rows: string[], cells: readonly (readonly [number, number])[]): number {
  const grid = rows.map((r) => [...r]).reverse();
  for (const [x, y] of cells) {
    while (grid.length <= y) grid.push(new Array(W).fill('.'));
    expect(grid[y][x]).toBe('.');
    grid[y][x] = '#';
  }
  return grid.filter((r) => r.every((c) => c !== '.')).length;
}

describe('TetrisAI.nextMove on random boards', () => {
  for (const rules of ['classic', 'nesUntimed', 'guideline', 'tgm', 'tgm20g'] as RefRules[]) {
    it(`${rules}: a reachable placement whenever one exists, its inputs replay to its cells (property)`, async () => {
      const ai = await TetrisAI.create({ rules, lookahead: 1, table });
      const holdRules = rules === 'guideline';
      fc.assert(
        fc.property(
          boardArb,
          pieceArb,
          fc.array(pieceArb, { maxLength: 3 }),
          fc.option(pieceArb, { nil: null }),
          fc.boolean(),
          (rows, current, queue, hold0, canHold0) => {
            const hold = holdRules ? hold0 : null;
            const canHold = holdRules && canHold0;
            const move = ai.nextMove({ board: rows, current, queue, hold, canHold });
            const ref = refBoardFromRows(rows);
            const options: Piece[] = [current];
            const held = hold ?? queue[0];
            if (canHold && held !== undefined) options.push(held);
            const anyReachable = options.some((p) => refReachable(ref, p, rules).size > 0);
            if (!anyReachable) {
              expect(move).toBeNull();
              return;
            }
            expect(move).not.toBeNull();
            const m = move!;
            expect(m.piece).toBe(m.hold ? held : current);
            if (m.hold) expect(canHold).toBe(true);
            expect(refReachable(ref, m.piece, rules).has(cellKey(m.cells))).toBe(true);
            const keys = m.hold ? m.inputs.slice(1) : m.inputs;
            if (m.hold) expect(m.inputs[0]).toBe('hold');
            const landed = new RefSimulator(ref, m.piece, rules).replay(keys);
            expect(landed && cellKey(landed)).toBe(cellKey(m.cells));
            expect(m.linesCleared).toBe(refLines(rows, m.cells));
            expect(['stack', 'recover']).toContain(m.mode);
            expect(Number.isFinite(m.value)).toBe(true);
          },
        ),
        { numRuns: rules === 'classic' ? 120 : 60 },
      );
    });
  }

  // A well holding garbage: test/tetris-ai/game-moves.test.ts (recover while it stands above a stack column; a Tetris
  // over it when it is buried under the stack).

  it('on a clean, low stack it plays the surface AI (StackingAI.bestPlacement) and the Tetris when the rule fires', async () => {
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'right' });
    const surface = await StackingAI.create({ table, stacking: { boardHeight: 16, tetrisThreshold: 4 } });
    fc.assert(
      fc.property(
        // Low: two pieces on the tallest column stay under the building limit's smaller-clear margin (14 - 4 rows),
        // where the policy may weigh a smaller clear instead of the surface AI's move.
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: W - 1, maxLength: W - 1 }),
        pieceArb,
        pieceArb,
        (h, current, next) => {
          const rows = drawBoard([...h, 0]);
          const move = ai.nextMove({ board: rows, current, queue: next });
          const best = surface.bestPlacement(h, current + next, 1);
          if (!best) return; // no hole-free move: recover's business
          // When the perfect stack dies inside the known pieces, TetrisAI may prefer a smaller clear (docs/game.md)
          if (best.survives < 2) return;
          expect(move!.mode).toBe('stack');
          let expected: [number, number][];
          if (best.tetris) expected = [0, 1, 2, 3].map((y) => [W - 1, y]);
          else {
            const o = ORIENTATIONS[PIECES.indexOf(best.piece)][best.orientation];
            const base = h[best.column] - o.bot[0];
            expected = [];
            for (let j = 0; j < o.width; j++)
              for (let r = o.bot[j]; r < o.top[j]; r++) expected.push([best.column + j, base + r]);
          }
          expect(cellKey(move!.cells)).toBe(cellKey(expected));
          // one move shape: the surface AI states the same cells on the same board
          expect(cellKey(best.cells)).toBe(cellKey(expected));
          if (best.tetris) expect(move!.linesCleared).toBe(4);
        },
      ),
      { numRuns: Number(process.env.GAME_RUNS ?? 150) },
    );
  });

  it("a left well plays the mirror image of the right well's move", async () => {
    const right = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'right' });
    const left = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'left' });
    fc.assert(
      fc.property(boardArb, pieceArb, pieceArb, (rows, current, next) => {
        const a = right.nextMove({ board: rows, current, queue: next });
        const mirrored = rows.map((r) => [...r].reverse().join(''));
        const m = (p: Piece) => PIECES[MIRROR_PIECE[PIECES.indexOf(p)]];
        const b = left.nextMove({ board: mirrored, current: m(current), queue: m(next as Piece) });
        if (a?.mode !== 'stack') return; // recover's ties are not mirror-symmetric
        expect(b?.mode).toBe('stack');
        expect(cellKey(b!.cells)).toBe(cellKey(a.cells.map(([x, y]) => [W - 1 - x, y])));
      }),
      { numRuns: 100 },
    );
  });
});

describe('TetrisAI hold and hand-offs', () => {
  it('an S on a flat stack has no clean place: hold saves the stack, else recover places it', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', lookahead: 1, table });
    const flat = drawBoard(new Array(W).fill(0));
    const held = ai.nextMove({ board: flat, current: 'S', queue: 'T', hold: 'O', canHold: true })!;
    expect([held.hold, held.piece, held.mode, held.inputs[0]]).toEqual([true, 'O', 'stack', 'hold']);
    const emptyBox = ai.nextMove({ board: flat, current: 'S', queue: 'T', hold: null, canHold: true })!;
    expect([emptyBox.hold, emptyBox.piece, emptyBox.mode]).toEqual([true, 'T', 'stack']);
    const noHold = ai.nextMove({ board: flat, current: 'S', queue: 'T', hold: 'O', canHold: false })!;
    expect([noHold.hold, noHold.piece, noHold.mode]).toEqual([false, 'S', 'recover']);
  });
});

describe('TetrisAI well sides', () => {
  it("'auto' stacks toward whichever edge column is an open well; a fixed side recovers when its well is filled", async () => {
    const auto = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'auto' });
    const right = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'right' });
    const rows = drawBoard([0, 3, 3, 3, 3, 3, 3, 3, 3, 3]); // column 0 open, column 9 part of the stack
    const a = auto.nextMove({ board: rows, current: 'O', queue: 'T' })!;
    expect(a.mode).toBe('stack');
    expect(a.cells.every(([x]) => x !== 0)).toBe(true);
    expect(right.nextMove({ board: rows, current: 'O', queue: 'T' })!.mode).toBe('recover');
    const tetris = auto.nextMove({ board: drawBoard([0, 5, 6, 5, 6, 5, 6, 5, 6, 5]), current: 'I', queue: 'T' })!;
    expect([tetris.mode, tetris.linesCleared, cellKey(tetris.cells)]).toEqual([
      'stack',
      4,
      cellKey([
        [0, 0],
        [0, 1],
        [0, 2],
        [0, 3],
      ]),
    ]);
  });
});

describe('TetrisAI smaller clears near the top', () => {
  it('takes none while a Tetris is in sight (a Tetris-ready stack, an I next), and does take some without it', async () => {
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'right' });
    // These stacks are Tetris-ready, so classic keeps 4 rows free: the stack's limit is 16, and smaller clears are
    // weighed from 4 rows under it.
    const surface = await StackingAI.create({ table, stacking: { boardHeight: 16, tetrisThreshold: 4 } });
    const nonI = PIECES.filter((p) => p !== 'I');
    let clearsWithoutI = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 10, max: 12 }), { minLength: W - 2, maxLength: W - 2 }),
        fc.integer({ min: 1, max: 2 }),
        fc.constantFrom(...nonI),
        fc.constantFrom(...nonI),
        (stack, dip, current, other) => {
          // The column beside the well lies lower than the rest: an O, or a J's or L's foot, clears the top rows
          // at the top of the well and leaves it open (a smaller clear that keeps the stack clean).
          const h = [...stack, Math.min(...stack) - dip];
          const board = drawBoard([...h, 0]);
          const withI = ai.nextMove({ board, current, queue: 'I' })!;
          // Only where the current piece has no surface move may a clear be played with the I next.
          if (withI.linesCleared > 0 && withI.linesCleared < 4)
            expect(surface.bestPlacement(h, `${current}I`, 1)).toBeNull();
          const without = ai.nextMove({ board, current, queue: other })!;
          if (without.mode === 'stack' && without.linesCleared > 0 && surface.bestPlacement(h, current + other, 1))
            clearsWithoutI++;
        },
      ),
      { numRuns: 150, seed: 17 },
    );
    expect(clearsWithoutI).toBeGreaterThan(0);
  });
});

describe('TetrisAI burns on a tall stack', () => {
  it('burnsRows: a tall stack and no I among the known pieces', () => {
    // A stack limit of 15 rows: a 14-row stack is tall (within 2 rows of it).
    const rows = new Uint32Array(44);
    for (let y = 0; y < 14; y++) rows[y] = 0x1ff;
    const low = rows.map((r, y) => (y < 12 ? r : 0));
    expect(burnsRows(rows, 15, ['O', 'T', null])).toBe(true);
    expect(burnsRows(rows, 15, ['O', 'I', null])).toBe(false);
    expect(burnsRows(rows, 15, ['O', 'T', 'I'])).toBe(false);
    expect(burnsRows(low, 15, ['O', 'T', null])).toBe(false);
    expect(
      burnsRows(
        low.map((r, y) => (y === 13 ? 1 : r)),
        15,
        ['O', 'T', null],
      ),
    ).toBe(true);
  });
});

describe('TetrisAI default well side', () => {
  it("is 'auto' under classic, nes and tgm, and 'right' under guideline and tgm20g", async () => {
    const defaults: Record<string, string> = {};
    for (const rules of ['classic', 'nes', 'guideline', 'tgm', 'tgm20g'] as const)
      defaults[rules] = (await TetrisAI.create({ rules, table })).well;
    expect(defaults).toEqual({ classic: 'auto', nes: 'auto', guideline: 'right', tgm: 'auto', tgm20g: 'right' });
    // A given side wins over the default.
    expect((await TetrisAI.create({ rules: 'classic', table, well: 'right' })).well).toBe('right');
  });

  it("plays the open edge under classic by default, as well: 'auto' does (the Tetris down column 0)", async () => {
    const byDefault = await TetrisAI.create({ rules: 'classic', lookahead: 1, table });
    const auto = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'auto' });
    const state = { board: drawBoard([0, 5, 6, 5, 6, 5, 6, 5, 6, 5]), current: 'I', queue: 'T' };
    const move = byDefault.nextMove(state)!;
    expect(move.cells).toEqual(auto.nextMove(state)!.cells);
    expect([move.linesCleared, move.cells.every(([x]) => x === 0)]).toEqual([4, true]);
  });
});

/** The moves of a short game from six garbage rows (so it starts in recover mode), as strings. */
async function gameMoves(ai: TetrisAI, seed: number): Promise<string[]> {
  const rng = createRandomizer('tgm1', { seed });
  let rows = new Uint32Array(20);
  for (let y = 0; y < 6; y++) rows[y] = 0x3ff & ~(1 << ((3 * y + seed) % 10));
  const moves: string[] = [];
  let current = rng.next() as Piece;
  for (let n = 0; n < 120; n++) {
    const next = rng.next() as Piece;
    const move = ai.nextMove({ board: { width: W, rows }, current, queue: [next] });
    if (!move) break;
    moves.push(`${move.mode} ${move.piece}${move.rotation}@${move.x},${move.y}`);
    rows = lockCells(rows, W, move.cells).rows.slice(0, 20);
    current = next;
  }
  return moves;
}

describe('TetrisAI recover chance ply', () => {
  it('classic values its best 12 recover lines over the next piece by default, nes its best 3 of a beam of 4', async () => {
    const byDefault = await gameMoves(await TetrisAI.create({ rules: 'classic', table }), 1);
    const twelve = await gameMoves(await TetrisAI.create({ rules: 'classic', table, recover: { chance: 12 } }), 1);
    const off = await gameMoves(await TetrisAI.create({ rules: 'classic', table, recover: { chance: 0 } }), 1);
    expect(byDefault).toEqual(twelve);
    expect(off).not.toEqual(byDefault);
    // The games differ only once recover mode has chosen differently.
    const first = off.findIndex((m, i) => m !== byDefault[i]);
    expect(byDefault[first]).toMatch(/^recover /);
    // The NES model without time (under time every recover move searches as near the top: below).
    const nes = await gameMoves(await TetrisAI.create({ rules: 'nesUntimed', table }), 2);
    expect(nes).toEqual(
      await gameMoves(await TetrisAI.create({ rules: 'nesUntimed', table, recover: { beam: 4, chance: 3 } }), 2),
    );
    for (const other of [{ beam: 12 }, { chance: 0 }, { beam: 12, chance: 0 }])
      expect(nes).not.toEqual(
        await gameMoves(await TetrisAI.create({ rules: 'nesUntimed', table, recover: other }), 2),
      );
    // The full-board baseline stays the plain BCTS player: beam 12, no chance ply.
    const plain = await gameMoves(await TetrisAI.create({ rules: 'nesUntimed', table, policy: 'fullBoardOnly' }), 2);
    expect(plain).toEqual(
      await gameMoves(
        await TetrisAI.create({
          rules: 'nesUntimed',
          table,
          policy: 'fullBoardOnly',
          recover: { beam: 12, chance: 0 },
        }),
        2,
      ),
    );
  });

  it('timed nes searches every recover move with a beam of 12 and 12 lines', async () => {
    // nextMove plays the rule set's level, 18 (docs/game.md, "NES Tetris: the competition format").
    const timed = await gameMoves(await TetrisAI.create({ rules: 'nes', table }), 2);
    expect(timed.some((m) => m.startsWith('recover '))).toBe(true);
    expect(timed).toEqual(
      await gameMoves(await TetrisAI.create({ rules: 'nes', table, recover: { beam: 12, chance: 12 } }), 2),
    );
    expect(timed).not.toEqual(
      await gameMoves(await TetrisAI.create({ rules: 'nes', table, recover: { beam: 4, chance: 3 } }), 2),
    );
  });
});

describe('TetrisAI recover search near the top', () => {
  it('under nesUntimed a board with a cell in the top 4 rows recovers with a beam of 12 and 12 lines, any other with 4 and 3, unless the caller gives either (property)', async () => {
    const rules = 'nesUntimed';
    const byDefault = await TetrisAI.create({ rules, table });
    const narrow = await TetrisAI.create({ rules, table, recover: { beam: 4, chance: 3 } });
    const wide = await TetrisAI.create({ rules, table, recover: { beam: 12, chance: 12 } });
    // A beam or a chance ply the caller gives is the search of every recover move, near the top too.
    const beamGiven = await TetrisAI.create({ rules, table, recover: { beam: 4 } });
    const chanceGiven = await TetrisAI.create({ rules, table, recover: { chance: 3 } });
    const differ = { nearTop: 0, lower: 0 };
    fc.assert(
      fc.property(
        // a stack up to a top row from 12 to 18, columns up to 6 rows under it, holes in it
        fc.integer({ min: 12, max: 18 }),
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: W, maxLength: W }),
        fc.array(cellArb, { minLength: 2, maxLength: 8 }),
        pieceArb,
        pieceArb,
        (top, under, holes, current, next) => {
          const heights = under.map((u) => top - u);
          const state = { board: drawBoard(heights, [], holes), current, queue: [next] };
          const move = byDefault.nextMove(state);
          if (move?.mode !== 'recover') return;
          const nearTop = Math.max(...heights) > H - 4;
          const [a, b] = [narrow.nextMove(state), wide.nextMove(state)];
          expect(move).toEqual(nearTop ? b : a);
          expect([beamGiven.nextMove(state), chanceGiven.nextMove(state)]).toEqual([a, a]);
          if (JSON.stringify(a) !== JSON.stringify(b)) differ[nearTop ? 'nearTop' : 'lower']++;
        },
      ),
      { numRuns: 200, seed: 17 },
    );
    // On both kinds of board the two searches were told apart.
    expect(Math.min(differ.nearTop, differ.lower)).toBeGreaterThan(2);
  });
});

describe('TetrisAI recover weights', () => {
  it('plays the weights it is given in place of the defaults, term by term', async () => {
    // The right well (not nes's default 'auto'): this game's recoveries then meet the changed term. Level 17 (the
    // gravity of 18): under the play-outs' levels, whose burns weigh recover moves too (docs/game.md, "Play-outs").
    const rules = { ...RULE_SETS.nes, level: 17 };
    const byDefault = await gameMoves(await TetrisAI.create({ rules, table, well: 'right' }), 3);
    // The defaults given by name play the same game; one term changed plays another, and only from a recover move on.
    const same = await gameMoves(
      await TetrisAI.create({ rules, table, well: 'right', recover: { weights: { ...NES_RECOVER_WEIGHTS } } }),
      3,
    );
    expect(same).toEqual(byDefault);
    const lower = await gameMoves(
      await TetrisAI.create({
        rules,
        table,
        well: 'right',
        recover: { weights: { landingHeight: 4 * NES_RECOVER_WEIGHTS.landingHeight } },
      }),
      3,
    );
    expect(lower).not.toEqual(byDefault);
    expect(byDefault[lower.findIndex((m, i) => m !== byDefault[i])]).toMatch(/^recover /);
    // The full-board baseline's weights are plain BCTS's: the recover terms play no part there unless given.
    const plain = await gameMoves(await TetrisAI.create({ rules: 'nes', table, policy: 'fullBoardOnly' }), 3);
    const plainByName = await gameMoves(
      await TetrisAI.create({
        rules: 'nes',
        table,
        policy: 'fullBoardOnly',
        recover: { weights: { ...PLAIN_BCTS_WEIGHTS } },
      }),
      3,
    );
    expect(plainByName).toEqual(plain);
    expect(PLAIN_BCTS_WEIGHTS.clean).toBe(0);
  });

  it('plays NES_RECOVER_WEIGHTS under the timed nes rule set and RECOVER_WEIGHTS under the untimed one', async () => {
    const weights = (w: typeof RECOVER_WEIGHTS) => ({ weights: { ...w } });
    const game = async (rules: 'nes' | 'nesUntimed', recover?: { weights: typeof RECOVER_WEIGHTS }) =>
      gameMoves(await TetrisAI.create({ rules, table, well: 'right', recover }), 3);
    // Timed: the default game is the timed weights' game, and the untimed weights play another.
    const timed = await game('nes');
    expect(await game('nes', weights(NES_RECOVER_WEIGHTS))).toEqual(timed);
    expect(await game('nes', weights(RECOVER_WEIGHTS))).not.toEqual(timed);
    // Untimed: the other way round.
    const untimed = await game('nesUntimed');
    expect(await game('nesUntimed', weights(RECOVER_WEIGHTS))).toEqual(untimed);
    expect(await game('nesUntimed', weights(NES_RECOVER_WEIGHTS))).not.toEqual(untimed);
    expect(NES_RECOVER_WEIGHTS.columnTransitions).not.toBe(RECOVER_WEIGHTS.columnTransitions);
  });

  it('plays NES_RECOVER_WEIGHTS only at the timeline they were tuned at (X.), RECOVER_WEIGHTS at 12 Hz', async () => {
    const rules = { ...RULE_SETS.nes, timeline: 'X....' };
    const game = async (weights?: typeof RECOVER_WEIGHTS) => {
      const ai = await TetrisAI.create({
        rules,
        table,
        well: 'right',
        recover: weights ? { weights: { ...weights } } : {},
      });
      return [await gameMoves(ai, 1), await gameMoves(ai, 2), await gameMoves(ai, 3), await gameMoves(ai, 4)];
    };
    const byDefault = await game();
    expect(await game(RECOVER_WEIGHTS)).toEqual(byDefault);
    expect(await game(NES_RECOVER_WEIGHTS)).not.toEqual(byDefault);
  });

  it('refuses unknown terms, unknown recover options and weights that are not finite numbers within ±1000', async () => {
    const cases: [unknown, RegExp][] = [
      [{ weights: { hole: -1 } }, /recover.weights: unknown term "hole"; terms are landingHeight, /],
      [{ weights: { holes: '-13' } }, /recover.weights.holes must be a finite number from -1000 to 1000; got "-13"/],
      [{ weights: { clean: Number.NaN } }, /recover.weights.clean must be a finite number/],
      [{ weights: { clean: 1001 } }, /recover.weights.clean must be .* got 1001/],
      [{ weights: { clean: -Infinity } }, /recover.weights.clean must be/],
      [{ weights: [1, 2] }, /recover.weights must be an object of weights by name/],
      [{ weights: null }, /recover.weights must be an object/],
      [{ depht: 2 }, /unknown recover option "depht"; recover options are depth, beam, chance, weights/],
    ];
    // The top-level options are checked the same way: a misspelt or retired name is unknown, and the error lists
    // the options there are.
    await expect(TetrisAI.create({ rules: 'nes', table, lookahed: 2 } as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(
        /^TetrisAI.create: unknown option "lookahed"; options are rules, goal, versus, lookahead, /,
      ),
    });
    await expect(TetrisAI.create({ rules: 'nes', table, leafRows: 2 } as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^TetrisAI.create: unknown option "leafRows"; options are .*previewTable/),
    });
    for (const [recover, message] of cases)
      await expect(TetrisAI.create({ rules: 'nes', table, recover: recover as never })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(message),
      });
  });
});

describe('TetrisAI input checks', () => {
  it('names the problem with a typed error, never a move', async () => {
    const ai = await TetrisAI.create({ rules: 'nes', table });
    const guideline = await TetrisAI.create({ rules: 'guideline', table });
    const board = drawBoard(new Array(W).fill(0));
    const cases: [() => unknown, string, RegExp][] = [
      [
        () => ai.nextMove({ board: ['.....', '.....'], current: 'T' }),
        'BAD_BOARD',
        /^board row 0 \(from the top\) has 5 cells; this AI plays boards 10 wide \(its rank table's 9 columns and the well: a board W wide needs a table of W − 1 columns\)$/,
      ],
      [() => ai.nextMove({ board: ['..........', '.........'], current: 'T' }), 'BAD_BOARD', /row 1/],
      [() => ai.nextMove({ board: 'not a board' as never, current: 'T' }), 'BAD_BOARD', /rows of strings/],
      // A sparse array's hole is a row too, not an empty one.
      [
        () => ai.nextMove({ board: ['..........', , '..........'] as never, current: 'T' }),
        'BAD_BOARD',
        /row 1 .* undefined/,
      ],
      [
        () => ai.nextMove({ board: { width: 8, rows: [] }, current: 'T' }),
        'BAD_BOARD',
        /^this AI plays boards 10 wide \(its rank table's 9 columns and the well: .*\); the board is 8 wide$/,
      ],
      [() => ai.nextMove({ board: { width: W, rows: [1023] }, current: 'T' }), 'BAD_BOARD', /full/],
      [() => ai.nextMove({ board: { width: W, rows: [1024] }, current: 'T' }), 'BAD_BOARD', /bit row 0/],
      [
        () => ai.nextMove({ board, current: 'X' }),
        'BAD_PIECE',
        /current must be a letter of I O T S Z L J or an id 0..6; got "X"/,
      ],
      [() => ai.nextMove({ board, current: 7 as never }), 'BAD_PIECE', /current must be .* got 7/],
      [() => ai.nextMove({ board, current: 'T', queue: ['S', 1.5 as never] }), 'BAD_PIECE', /queue entry 1 .* got 1.5/],
      // A misspelt key would otherwise be ignored (canhold: false, and hold is pressed anyway).
      [
        () => guideline.nextMove({ board, current: 'S', queue: 'Z', hold: 'I', canhold: false } as never),
        'BAD_ARGUMENT',
        /nextMove: unknown option "canhold"; options are board, current, queue, hold, canHold, next/,
      ],
      [() => ai.nextMove({ board, current: 'T', queue: 'SQ' }), 'BAD_PIECE', /queue entry 1/],
      [() => ai.nextMove({ board, current: 'T', hold: 'I' }), 'BAD_ARGUMENT', /nes rule set has no hold/],
      [
        () => ai.nextMove({ board, current: 'T', canHold: true }),
        'BAD_ARGUMENT',
        /canHold is true but the nes rule set has no hold/,
      ],
      [
        () => guideline.nextMove({ board, current: 'T', canHold: 'yes' as never }),
        'BAD_ARGUMENT',
        /canHold must be true or false/,
      ],
      [() => guideline.nextMove({ board, current: 'T', next: [1, 0] }), 'BAD_ARGUMENT', /7 non-negative/],
      [() => ai.nextMove(null as never), 'BAD_ARGUMENT', /nextMove takes/],
      // board and current have no default: null is a bad board or piece, not a request for a default.
      [() => ai.nextMove({ board: null as never, current: 'T' }), 'BAD_BOARD', /got null/],
      [() => ai.nextMove({ board, current: null as never }), 'BAD_PIECE', /current must be .* got null/],
      // A height that would drop given rows (and their cells), or is not a row count, is refused.
      ...[20, 5, 0, -5, 20.5, '24'].map((height): [() => unknown, string, RegExp] => [
        () =>
          guideline.nextMove({
            board: { width: W, rows: new Array(22).fill(0b0111111110), height } as never,
            current: 'I',
          }),
        'BAD_BOARD',
        /board height must be an integer from the number of bit rows \(22\) to 40/,
      ]),
      // Under a preset whose field is 20 rows, a cell over it is a game already lost, not a taller field.
      [
        () => ai.nextMove({ board: Board.empty(W, 40).withCells([[3, 20]]), current: 'T' }),
        'BAD_BOARD',
        /row 20 \(from the bottom\) has cells over the 20-row field of nes; rows over the field may be given but must be empty/,
      ],
    ];
    // Pieces as ids 0..6 (I O T S Z L J), as everywhere else in the library: the same move as the letters.
    const byLetter = guideline.nextMove({ board, current: 'T', queue: 'SZ', hold: 'I' });
    expect(guideline.nextMove({ board, current: 2, queue: [3, 4], hold: 0 })).toEqual(byLetter);
    for (const [call, code, message] of cases) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error, String(message)).toBeInstanceOf(StackRankError);
      expect((error as StackRankError).code).toBe(code);
      expect((error as StackRankError).message).toMatch(message);
    }
    await expect(TetrisAI.create({ rules: 'tetris99' as never, table })).rejects.toMatchObject({
      name: 'StackRankError',
      code: 'BAD_RULES',
      message: expect.stringMatching(/^unknown rule set "tetris99"; rule sets are classic, /),
    });
    // A RuleSet is taken when it is a preset's with its time changed (test/tetris-ai/nes-timed.test.ts); not another.
    await expect(TetrisAI.create({ rules: { ...RULE_SETS.nes, name: 'mine' }, table })).rejects.toMatchObject({
      code: 'BAD_RULES',
      message: /^a rule set for the game AI is based on a preset: its name must be one of classic, /,
    });
    await expect(TetrisAI.create({ rules: 5 as never, table })).rejects.toMatchObject({
      code: 'BAD_RULES',
      message: /^rules must be a rule set name \(classic, .*\) or a RuleSet based on one; got 5$/,
    });
    await expect(TetrisAI.create({ well: 'middle' as never, table })).rejects.toMatchObject({
      name: 'StackRankError',
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^well must be "right", "left" or "auto"; got "middle"$/),
    });
    await expect(TetrisAI.create({ lookahead: 9, table })).rejects.toMatchObject({
      name: 'StackRankError',
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^lookahead must be an integer from 0 to \d; got 9$/),
    });
    for (const chance of [-1, 1.5, 1001, '12'])
      await expect(TetrisAI.create({ recover: { chance: chance as never }, table })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringContaining('recover.chance'),
      });
    // recover is an options object: a list or a number is refused, not read as "no options" (a sparse list was)
    for (const recover of [[1, , 3], 5, 'deep']) // eslint-disable-line no-sparse-arrays
      await expect(TetrisAI.create({ recover: recover as never, table })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringContaining('recover: options must be an object'),
      });
    await expect(TetrisAI.create({ randomizer: 'bag8' as never, table })).rejects.toMatchObject({
      name: 'StackRankError',
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^unknown randomizer "bag8"; randomizers are .*bag7/),
    });
  });

  it('reads a board taller than 20 rows as the 20-row field under every preset but guideline (40 rows there)', async () => {
    // A stack 18 rows high with the well open in column 9, and an I: on the 20-row TGM field it cannot stand up to
    // reach the well (it appears in the top row), so it lies flat. A 40-row board is the same field with empty rows
    // over it, not a taller field whose piece appears 20 rows higher.
    const field = Board.fromRows(['..........', '..........', ...new Array(18).fill('#########.')]);
    for (const rules of RULE_SET_NAMES) {
      const ai = await TetrisAI.create({ rules, lookahead: 0, table });
      const on20 = ai.nextMove({ board: field, current: 'I' });
      expect(ai.nextMove({ board: field.withHeight(40), current: 'I' }), rules).toEqual(on20);
      expect(ai.nextMove({ board: { width: W, rows: field.rows, height: 40 }, current: 'I' }), rules).toEqual(on20);
      if (rules === 'tgm') expect(on20?.cells.every(([, y]) => y >= 18)).toBe(true);
    }
    // The guideline's matrix is 40 rows: a cell over the visible 20 is part of the board.
    const guideline = await TetrisAI.create({ rules: 'guideline', lookahead: 0, table });
    const tall = Board.fromRows(new Array(26).fill('#.........')).withHeight(40);
    const move = guideline.nextMove({ board: tall, current: 'O' });
    expect(move).not.toBeNull();
    expect(tall.withCells(move!.cells)).toBeInstanceOf(Board); // on empty cells, inside the board
  });

  it('answers null only at a top-out: a piece that cannot appear, and hold cannot save it', async () => {
    const ai = await TetrisAI.create({ rules: 'nes', table });
    const full = drawBoard(new Array(W).fill(20));
    expect(ai.nextMove({ board: full, current: 'T', queue: 'I' })).toBeNull();
  });
});

describe('playGame', () => {
  it('same seed, same game; another seed, another game', async () => {
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table });
    const strip = ({
      seconds,
      piecesPerSecond,
      cpuSeconds,
      piecesPerCpuSecond,
      ...r
    }: Awaited<ReturnType<typeof playGame>>) => (
      void seconds, void piecesPerSecond, void cpuSeconds, void piecesPerCpuSecond, r
    );
    const a = strip(
      await playGame({ rules: 'classic', randomizer: 'tgm1', lookahead: 1, games: 2, maxPieces: 300, seed: 5, ai }),
    );
    const b = strip(
      await playGame({ rules: 'classic', randomizer: 'tgm1', lookahead: 1, games: 2, maxPieces: 300, seed: 5, ai }),
    );
    const c = strip(
      await playGame({ rules: 'classic', randomizer: 'tgm1', lookahead: 1, games: 2, maxPieces: 300, seed: 6, ai }),
    );
    expect(a).toEqual(b);
    expect(a.pieces).toBeGreaterThan(0);
    expect(a.lines).toBe(a.clears.single + 2 * a.clears.double + 3 * a.clears.triple + 4 * a.clears.tetris);
    expect(c).not.toEqual(a);
  });

  it('checks its options', async () => {
    await expect(playGame({ rules: 'nes', hold: true, table, games: 1, maxPieces: 1 })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /no hold/,
    });
    await expect(playGame({ randomizer: 'bag8' as never, table })).rejects.toMatchObject({
      name: 'StackRankError',
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^unknown randomizer "bag8"; randomizers are .*bag7/),
    });
    await expect(playGame({ games: 0, table })).rejects.toMatchObject({
      name: 'StackRankError',
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^games must be an integer from 1 to \d+; got 0$/),
    });
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table });
    await expect(playGame({ rules: 'classic', lookahead: 1, ai, signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    await expect(playGame({ rules: 'nes', lookahead: 1, ai })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /plays classic/,
    });
    await expect(playGame({ rules: 'nes', ai: {} as never, table })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: 'ai must be a TetrisAI (from TetrisAI.create); got an object',
    });
    // A misspelt option is refused, not ignored (maxPiece would play the 10,000-piece default).
    await expect(playGame({ table, maxPiece: 5 } as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^playGame: unknown option "maxPiece"; options are rules, /),
    });
    await expect(benchGame({ rules: 'nes', lookahead: 1, table, maxPiece: 5 } as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/^benchGame: unknown option "maxPiece"; options are rules, /),
    });
    await expect(TetrisAI.create({ table, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(TetrisAI.create({ table, signal: 'stop' as never })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /signal must be an AbortSignal/,
    });
  });
});

/** Bit rows (bottom first) of drawBoard's board, as nextMove reads it. */
function rowsOf(heights: number[]): Uint32Array {
  return normalizeBoard(drawBoard(heights), W, { name: 'guideline', boardRows: 40 }).rows;
}

/** Whether the board is Tetris-ready on one of `sides`, as the policy asks it. */
function readyOn(rows: Uint32Array, sides: readonly ('right' | 'left')[]): boolean {
  return stackSurfaces(rows, W, sides).some(isTetrisReady);
}

/**
 * The definition isTetrisReady must meet, checked by dropping the piece: the board is a clean stack over a floor for a
 * well side, and an I upright in that well column, resting on what it holds, clears four rows.
 */
function tetrisByDrop(rows: Uint32Array, side: 'right' | 'left'): boolean {
  const well = side === 'right' ? W - 1 : 0;
  if (stackFloor(rows, W, well) < 0) return false;
  let top = 0;
  for (let y = 0; y < rows.length; y++) if ((rows[y] >> well) & 1) top = y + 1;
  if (top + 4 > rows.length) return false;
  const cells: Cell[] = [0, 1, 2, 3].map((i) => [well, top + i]);
  return lockCells(rows, W, cells).lines === 4;
}

describe('isTetrisReady', () => {
  it('is true exactly where an I down a clean well clears four rows, on either side asked (property)', () => {
    // Clean stacks over a floor of 0-4 rows (the well column's height) on either side, some with stray cells or
    // holes (a flip of one cell), the stack columns 3-9 rows over the floor: some ready, some not.
    const board = fc
      .tuple(
        fc.boolean(),
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.integer({ min: 3, max: 9 }), { minLength: W - 1, maxLength: W - 1 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: W - 1 }), fc.integer({ min: 0, max: 13 })), { maxLength: 1 }),
      )
      .map(([left, floor, stack, flips]) => {
        const heights = stack.map((h) => floor + h);
        const rows = rowsOf(left ? [floor, ...heights.reverse()] : [...heights, floor]);
        for (const [x, y] of flips) rows[y] ^= 1 << x;
        for (let y = 0; y < rows.length; y++) if (rows[y] === (1 << W) - 1) rows[y] &= ~2; // no full rows
        return rows;
      });
    let ready = 0;
    fc.assert(
      fc.property(board, (rows) => {
        const right = tetrisByDrop(rows, 'right');
        const left = tetrisByDrop(rows, 'left');
        expect(readyOn(rows, ['right'])).toBe(right);
        expect(readyOn(rows, ['left'])).toBe(left);
        expect(readyOn(rows, ['right', 'left'])).toBe(right || left);
        if (right || left) ready++;
      }),
      { numRuns: 400, seed: 5 },
    );
    // The boards include ready ones, or the property would say little.
    expect(ready).toBeGreaterThan(10);
  });

  it('needs the lowest stack column four rows over the floor', () => {
    expect(readyOn(rowsOf([4, 6, 5, 7, 4, 5, 6, 4, 5, 0]), ['right'])).toBe(true);
    expect(readyOn(rowsOf([4, 6, 5, 7, 3, 5, 6, 4, 5, 0]), ['right'])).toBe(false);
    // Over a floor of two rows (the well holds them): the stack counts from the floor.
    expect(readyOn(rowsOf([6, 8, 7, 9, 6, 7, 8, 6, 7, 2]), ['right'])).toBe(true);
    expect(readyOn(rowsOf([5, 8, 7, 9, 6, 7, 8, 6, 7, 2]), ['right'])).toBe(false);
    // A left well: the mirror image.
    expect(readyOn(rowsOf([0, 5, 4, 6, 5, 4, 7, 5, 6, 4]), ['left'])).toBe(true);
    expect(readyOn(rowsOf([0, 5, 4, 6, 5, 4, 7, 5, 6, 4]), ['right'])).toBe(false);
  });
});

describe('stack limits', () => {
  it('under classic a Tetris-ready stack may fill 16 rows and any other 14; the other rule sets have one limit', () => {
    const limits = Object.fromEntries(
      (['classic', 'nes', 'guideline', 'tgm', 'tgm20g'] as const).map((r) => {
        const setup = stackSearchSetup(ruleFacts(r), 'tgm1', 'both');
        // The search engine's board is the higher limit; each turn searches under the one its board allows.
        const { tetrisReady, building } = setup.limits;
        expect(setup.stacking.boardHeight).toBe(Math.max(tetrisReady.boardHeight, building.boardHeight));
        return [r, [tetrisReady.boardHeight, building.boardHeight]];
      }),
    );
    expect(limits).toEqual({ classic: [16, 14], nes: [14, 14], guideline: [16, 16], tgm: [14, 14], tgm20g: [12, 12] });
  });

  it('under nes and tgm a randomizer with long I droughts keeps the stack 8 rows under the top, not 6', () => {
    const limitsUnder = (rules: RuleSetName, randomizer: RandomizerName | undefined) => {
      const { tetrisReady, building } = stackSearchSetup(ruleFacts(rules), randomizer, 'both').limits;
      return [tetrisReady.boardHeight, building.boardHeight];
    };
    const long: RandomizerName[] = ['memoryless', 'nes', 'nesSketch', 'decay'];
    for (const randomizer of RANDOMIZER_NAMES) {
      const expected = long.includes(randomizer) ? [12, 12] : [14, 14];
      expect([randomizer, limitsUnder('nes', randomizer), limitsUnder('tgm', randomizer)]).toEqual([
        randomizer,
        expected,
        expected,
      ]);
      // The other kinds of rule set keep their room whatever the randomizer.
      expect(limitsUnder('classic', randomizer)).toEqual([16, 14]);
      expect(limitsUnder('guideline', randomizer)).toEqual([16, 16]);
      expect(limitsUnder('tgm20g', randomizer)).toEqual([12, 12]);
    }
    // With no randomizer given, the rule set's own (defaultGameRandomizer): nes's droughts, tgm1's.
    expect(limitsUnder('nes', undefined)).toEqual([12, 12]);
    expect(limitsUnder('tgm', undefined)).toEqual([14, 14]);
    // What makes a drought long, from the pieces themselves: one I gap in a thousand is over 30 pieces, that is over
    // 29 other pieces between two I pieces (analyzeRandomizer's droughts).
    const drought999 = (randomizer: RandomizerName) => {
      const { histogram } = analyzeRandomizer(randomizer, { pieces: 200_000, seed: 9 }).droughts[pieceId('I')];
      const total = histogram.reduce((a, b) => a + b, 0);
      let seen = 0;
      return histogram.findIndex((count) => (seen += count) > 0.999 * total);
    };
    expect(RANDOMIZER_NAMES.filter((r) => drought999(r) > 29)).toEqual(long);
    // Which is what each randomizer's definition says (src/randomizers/: `longIDroughts`).
    expect(RANDOMIZER_NAMES.filter((r) => randomizerDefinition(r).longIDroughts)).toEqual(long);
  });

  it('stackRoom is the room of both limits under every rule set; a room out of range is BAD_ARGUMENT', async () => {
    for (const rules of RULE_SET_NAMES)
      for (const room of [MIN_STACK_ROOM, 7, MAX_STACK_ROOM]) {
        const { tetrisReady, building } = stackSearchSetup(ruleFacts(rules), 'nes', 'both', room).limits;
        expect([rules, tetrisReady.boardHeight, building.boardHeight]).toEqual([rules, H - room, H - room]);
      }
    for (const bad of [MIN_STACK_ROOM - 1, MAX_STACK_ROOM + 1, 2.5, '8', Number.NaN, null]) {
      const made = TetrisAI.create({ rules: 'nes', table, stackRoom: bad as number });
      await expect(made).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(/(^|: )stackRoom /),
      });
    }
  });

  it('stack mode places no cell above the room it is given, at the narrowest and the widest room', async () => {
    for (const rules of RULE_SET_NAMES)
      for (const stackRoom of [MIN_STACK_ROOM, MAX_STACK_ROOM]) {
        const ai = await TetrisAI.create({ rules, table, stackRoom });
        const rng = createRandomizer('tgm1', { seed: 5 });
        let rows = new Uint32Array(H);
        let current = rng.next() as Piece;
        let stackMoves = 0;
        const over: string[] = [];
        for (let n = 0; n < 150; n++) {
          const next = rng.next() as Piece;
          const move = ai.nextMove({ board: { width: W, rows }, current, queue: [next] });
          if (!move) break;
          if (move.mode === 'stack') {
            stackMoves++;
            const top = Math.max(...move.cells.map(([, y]) => y));
            if (top >= H - stackRoom) over.push(`${rules}, room ${stackRoom}: piece ${n} reaches row ${top}`);
          }
          rows = lockCells(rows, W, move.cells).rows.slice(0, H);
          current = next;
        }
        expect(over).toEqual([]);
        expect(stackMoves).toBeGreaterThan(10);
      }
  });

  it('a Tetris-ready classic stack 13 rows high waits for its I in stack mode; one still building burns', async () => {
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'right' });
    // 13 rows high, no I known: within 2 rows of the building limit (14), a stack still building burns (no piece
    // clears a row here, so recover mode); a Tetris-ready one is 3 rows under its limit (16) and plays on.
    const ready = [12, 12, 13, 13, 12, 12, 13, 13, 12, 0];
    const building = [3, 12, 13, 13, 12, 12, 13, 13, 12, 0];
    expect(readyOn(rowsOf(ready), ['right'])).toBe(true);
    expect(readyOn(rowsOf(building), ['right'])).toBe(false);
    const onReady = ai.nextMove({ board: drawBoard(ready), current: 'O', queue: 'T' })!;
    expect([onReady.mode, onReady.linesCleared]).toEqual(['stack', 0]);
    expect(Math.max(...onReady.cells.map(([, y]) => y))).toBeLessThan(16);
    expect(ai.nextMove({ board: drawBoard(building), current: 'O', queue: 'T' })!.mode).toBe('recover');
    // A ready stack within 2 rows of its own limit burns too.
    const move = ai.nextMove({ board: drawBoard([15, 15, 14, 14, 15, 15, 14, 14, 15, 0]), current: 'O', queue: 'T' })!;
    expect(move.mode).toBe('recover');
  });
});

describe('stack mode with no piece known after the current one', () => {
  it('reads the ranks it needs one by one: it never unfolds the whole table in the middle of a game', async () => {
    // A table of its own, which no AI has unfolded yet (unfolding a 9-column table took 0.2-0.3 s and 86 MB).
    const fresh = await buildRankTable({ width: 9, iterations: 2, threads: 1 });
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 0, table: fresh });
    const unfold = vi.spyOn(fresh, 'searchValues');
    const board = drawBoard([2, 3, 3, 2, 4, 5, 5, 4, 3, 0]);
    const moves = (['T', 'S', 'L', 'I'] as const).map((current) => ai.nextMove({ board, current, queue: [] }));
    expect(moves.every((m) => m?.mode === 'stack')).toBe(true);
    expect(unfold).not.toHaveBeenCalled();
    // The same moves as an AI reading the unfolded values.
    unfold.mockRestore();
    fresh.searchValues();
    const again = (['T', 'S', 'L', 'I'] as const).map((current) => ai.nextMove({ board, current, queue: [] }));
    expect(again).toEqual(moves);
  }, 120_000);

  it('RankTable.searchValue(i) is searchValues().values[i], for u16 (folded) and f32 tables', async () => {
    for (const encoding of ['u16', 'f32'] as const) {
      const t = await buildRankTable({ width: 6, maxStep: 3, iterations: 3, threads: 1, encoding });
      const single = Array.from({ length: t.size }, (_, i) => t.searchValue(i));
      expect(single).toEqual(Array.from(t.searchValues().values));
    }
    expect(() => table.searchValue(table.size)).toThrow(StackRankError);
  });
});

describe('TetrisAI without a table', () => {
  it('every AI in the process shares the default table and its search image (one load, one image)', async () => {
    const inside = (ai: TetrisAI) => ai as unknown as { table: RankTable; engine: { memory: WebAssembly.Memory } };
    const [a, b] = await Promise.all([TetrisAI.create({ rules: 'classic' }), TetrisAI.create({ rules: 'nes' })]);
    const c = await TetrisAI.create({ rules: 'guideline', lookahead: 3 });
    expect(inside(b).table).toBe(inside(a).table);
    expect(inside(c).table).toBe(inside(a).table);
    expect(inside(b).engine.memory).toBe(inside(a).engine.memory);
    expect(inside(c).engine.memory).toBe(inside(a).engine.memory);
  }, 240_000);
});

describe('TetrisAI.create sharing one signal', () => {
  it('sixteen setups under one signal: no MaxListenersExceededWarning (Node warns past 10 listeners)', async () => {
    const fresh = await loadRankTable(table.toBytes()); // no search image yet: every setup waits for it
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const shared = new AbortController();
      const ais = await Promise.all(
        Array.from({ length: 16 }, () => TetrisAI.create({ rules: 'classic', table: fresh, signal: shared.signal })),
      );
      expect(ais).toHaveLength(16);
      await new Promise((r) => setTimeout(r, 20)); // warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
