// The game loop of docs/game.md, as written there (with a quick table and fewer pieces): it must run, place every
// piece the turn allows, and clear lines.
import { expect, it } from 'vitest';
import { Board } from '../../src/rules/board.js';
import { createRandomizer } from '../../src/randomizers/index.js';
import { buildRankTable } from '../../src/rank/table.js';
import { TetrisAI } from '../../src/game/index.js';
import type { Piece } from '../../src/pieces.js';

it('the docs/game.md loop plays a guideline game with hold', async () => {
  const table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
  const ai = await TetrisAI.create({ rules: 'guideline', lookahead: 5, table });
  const pieces = createRandomizer('bag7', { seed: 1 });
  let board = Board.empty(10, 40);
  let [current, ...queue] = [...pieces.take(6)] as Piece[];
  let hold: Piece | null = null;
  let lines = 0;
  let n = 0;
  for (; n < 300; n++) {
    const move = ai.nextMove({ board, current, queue, hold, canHold: true });
    if (!move) break; // top-out: nothing fits
    if (move.hold) [hold, current] = [current, hold ?? queue.shift()!]; // hold pressed: move.piece === current
    expect(move.piece).toBe(current);
    const placed = board.place(move.cells); // lock the cells, clear full rows
    board = placed.board;
    if (Math.max(...board.heights()) > 20) break; // top-out: a cell left over the field
    lines += placed.lines;
    current = queue.shift()!;
    while (queue.length < 5) queue.push(pieces.next() as Piece);
  }
  expect(n).toBe(300);
  expect(lines).toBeGreaterThan(80);
}, 120_000);
