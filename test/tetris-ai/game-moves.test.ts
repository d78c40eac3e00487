/**
 * Every move TetrisAI plays in a game, not only the first of a position: reachable under the rule set (the library's
 * reachablePlacements and the independent reference), its inputs replay to its cells, its line count is the board's,
 * and a stack-mode move never leaves a cell in the well (a Tetris in stack mode clears four rows).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PIECES, type Piece } from '../../src/pieces.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { reachablePlacements } from '../../src/rules/reachable.js';
import { createRandomizer } from '../../src/randomizers/index.js';
import { TetrisAI } from '../../src/tetris-ai/index.js';
import { RefSimulator, cellKey, refBoardFromRows, refReachable, type RefRules } from '../reference/rules-reference.js';

const W = 10;
const H = 20;
let table: RankTable;
beforeAll(async () => {
  // A weak 9-column table (3 iterations): its stack fails often, so the games visit recover mode and floors too.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

/** A board as rows of characters, bottom first (independent of the library's bit rows). */
type Grid = string[][];
const emptyRow = () => new Array<string>(W).fill('.');
const toStrings = (grid: Grid) => grid.map((r) => r.join('')).reverse();

/** Locks cells and clears full rows; returns the lines cleared. */
function lock(grid: Grid, cells: readonly (readonly [number, number])[]): number {
  for (const [x, y] of cells) {
    expect(grid[y][x]).toBe('.');
    grid[y][x] = '#';
  }
  let lines = 0;
  for (let y = H - 1; y >= 0; y--) {
    if (grid[y].every((c) => c !== '.')) {
      grid.splice(y, 1);
      grid.push(emptyRow());
      lines++;
    }
  }
  return lines;
}

/** Height of a column (its top filled cell + 1). */
const columnHeight = (grid: Grid, x: number) => {
  for (let y = H - 1; y >= 0; y--) if (grid[y][x] !== '.') return y + 1;
  return 0;
};

const GAMES: { rules: RefRules; lookahead: number; hold: boolean }[] = [
  { rules: 'classic', lookahead: 1, hold: false },
  { rules: 'nesUntimed', lookahead: 1, hold: false },
  { rules: 'guideline', lookahead: 3, hold: true },
  { rules: 'tgm', lookahead: 1, hold: false },
  { rules: 'tgm20g', lookahead: 1, hold: false },
];

describe('TetrisAI: every move of a game', () => {
  for (const { rules, lookahead, hold } of GAMES) {
    it(`${rules}: reachable, replays, counts its lines; stack moves keep the well open`, async () => {
      // The right well (classic's default is either edge): the checks below read the well column.
      const ai = await TetrisAI.create({ rules, lookahead, table, well: 'right' });
      const well = W - 1;
      let stackMoves = 0;
      let recoverMoves = 0;
      let tetrises = 0;
      let overFloor = 0;
      for (let seed = 1; seed <= 3; seed++) {
        const rng = createRandomizer('memoryless', { seed });
        const grid: Grid = Array.from({ length: H }, emptyRow);
        // A few garbage rows (one gap each) so games start from a buried floor too.
        for (let y = 0; y < seed - 1; y++)
          for (let x = 0; x < W; x++) grid[y][x] = x === (3 * y + seed) % W ? '.' : 'G';
        const stream: Piece[] = [];
        let held: Piece | null = null;
        for (let n = 0; n < 120; n++) {
          while (stream.length < lookahead + 1) stream.push(rng.next() as Piece);
          const board = toStrings(grid);
          const [current, ...queue] = stream;
          const move = ai.nextMove({ board, current, queue, hold: held, canHold: hold });
          if (!move) break;
          // The piece placed is the one the turn allows; hold moves it as the game would.
          const expected = move.hold ? (held ?? queue[0]) : current;
          expect(move.piece).toBe(expected);
          const listed = reachablePlacements(board, move.piece, { rules });
          const same = listed.find((p) => cellKey(p.cells) === cellKey(move.cells));
          expect(same, `${rules} move ${n}: ${move.piece} ${cellKey(move.cells)} not reachable`).toBeDefined();
          expect([same!.rotation, same!.x, same!.y]).toEqual([move.rotation, move.x, move.y]);
          const ref = refBoardFromRows(board);
          expect(refReachable(ref, move.piece, rules).has(cellKey(move.cells))).toBe(true);
          const keys = move.hold ? move.inputs.slice(1) : move.inputs;
          const landed = new RefSimulator(ref, move.piece, rules).replay(keys);
          expect(landed && cellKey(landed)).toBe(cellKey(move.cells));

          const wellBefore = columnHeight(grid, well);
          const lines = lock(grid, move.cells);
          expect(move.linesCleared).toBe(lines);
          if (move.mode === 'stack') {
            stackMoves++;
            if (wellBefore > 0) overFloor++;
            // Stack mode plays over the floor (the well's height): nothing it places stays in the well.
            expect(columnHeight(grid, well)).toBeLessThanOrEqual(wellBefore);
            if (move.piece === 'I' && move.cells.every(([x]) => x === well)) {
              expect(lines).toBe(4);
              tetrises++;
            }
          } else recoverMoves++;
          if (move.hold) {
            if (held === null) stream.splice(1, 1);
            held = current;
          }
          stream.shift();
          if (grid.slice(H - 1).some((r) => r.some((c) => c !== '.'))) break;
        }
      }
      expect(stackMoves).toBeGreaterThan(0);
      expect(recoverMoves + stackMoves).toBeGreaterThan(100);
      // The garbage the games start from is stacked over (a floor), not only dug out.
      if (rules === 'classic') expect(overFloor).toBeGreaterThan(0);
      void tetrises;
    }, 120_000);
  }
});

/** Rows top first from column heights (hole-free) plus extra filled / emptied cells. */
function drawBoard(heights: number[], filled: [number, number][] = [], emptied: [number, number][] = []): string[] {
  const grid = Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => y < heights[x]));
  for (const [x, y] of filled) grid[y][x] = true;
  for (const [x, y] of emptied) grid[y][x] = false;
  for (let y = 0; y < H; y++) if (grid[y].every(Boolean)) grid[y][(y * 7) % (W - 1)] = false; // no full rows
  return grid.map((row) => row.map((f) => (f ? '#' : '.')).join('')).reverse();
}

describe('TetrisAI: a well holding garbage', () => {
  it('is never Tetris-ready while the garbage stands above a stack column: recover mode (property)', async () => {
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'right' });
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 4, max: 12 }), { minLength: W - 1, maxLength: W - 1 }),
        fc.integer({ min: 0, max: W - 2 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(...PIECES),
        (h, low, extra, current) => {
          // The well holds garbage up to a row above the lowest stack column: an I there cannot clear four rows.
          const heights = h.slice();
          heights[low] = Math.min(...h) - 1 - extra;
          const wellTop = heights[low] + extra; // > heights[low]
          const filled: [number, number][] = [];
          for (let y = 0; y <= wellTop; y++) filled.push([W - 1, y]);
          const rows = drawBoard([...heights, 0], filled);
          const move = ai.nextMove({ board: rows, current, queue: 'I' });
          expect(move?.mode).toBe('recover');
        },
      ),
      { numRuns: 80 },
    );
  });

  it('buried under the stack (the well no higher than every stack column, at most 4 rows under classic, 2 under nes), an I down the well clears 4 rows above it; a higher floor is recover mode (property)', async () => {
    // The highest floor each rule set stacks over (docs/game.md, "Floors").
    const maxFloors = { classic: 4, nes: 2 } as const;
    const ais = {
      classic: await TetrisAI.create({ rules: 'classic', lookahead: 1, table, well: 'right' }),
      // Without play-outs: from 9 rows they may weigh a burn against the Tetris by playing on (docs/game.md,
      // "Play-outs"), and this weak table plays on badly; the floors are stack mode's rule alone.
      nes: await TetrisAI.create({ rules: 'nes', lookahead: 1, table, well: 'right', playOuts: false }),
    };
    fc.assert(
      fc.property(
        fc.constantFrom('classic', 'nes' as const),
        // A smooth stack (steps within the table's ±4) well under its limit: the Tetris is the rule's forced move
        // (a steep or tall stack may rather take a smaller clear, docs/game.md).
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: W - 1, maxLength: W - 1 }),
        fc.array(fc.integer({ min: 0, max: W - 2 }), { minLength: 1, maxLength: 5 }),
        (rules, h, gaps) => {
          const ai = ais[rules];
          const MAX_FLOOR = maxFloors[rules];
          // Garbage rows at the bottom (the well filled, one gap each) under a stack at least 4 rows high.
          const g = gaps.length;
          const heights = h.map((v) => v + g + 4);
          const rows = drawBoard(
            [...heights, g],
            [],
            gaps.map((x, y) => [x, y]),
          );
          // The next piece is an I, which every surface takes: the Tetris's line then lasts the window. (After an O, a
          // surface with no two equal neighbours once the Tetris is made, e.g. steps 3,2,3,2,3,2,1,0,1, leaves the O
          // no clean place, and a smaller clear that keeps the stack playable is the better move; docs/game.md.)
          const move = ai.nextMove({ board: rows, current: 'I', queue: 'I' })!;
          if (g > MAX_FLOOR) {
            expect(move.mode).toBe('recover');
            return;
          }
          expect(move.mode).toBe('stack');
          expect(cellKey(move.cells)).toBe(cellKey([0, 1, 2, 3].map((y) => [W - 1, g + y] as [number, number])));
          expect(move.linesCleared).toBe(4);
        },
      ),
      { numRuns: 200 },
    );
  });
});
