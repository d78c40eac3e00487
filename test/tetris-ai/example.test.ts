// The game loop of docs/game.md, as written there (with a quick table and fewer pieces): it must run, place every
// piece the turn allows, and clear lines.
import { expect, it } from 'vitest';
import { Board } from '../../src/rules/board.js';
import { createRandomizer } from '../../src/randomizers/index.js';
import { buildRankTable } from '../../src/rank/table.js';
import { TetrisAI } from '../../src/tetris-ai/index.js';

it('the docs/game.md loop plays a guideline game with hold', async () => {
  const table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
  const ai = await TetrisAI.create({ rules: 'guideline', lookahead: 5, table });
  const pieces = createRandomizer('bag7', { seed: 1 });
  let board = Board.empty(10, 40);
  let current = pieces.take(1);
  let queue = pieces.take(5);
  let hold: string | null = null;
  let lines = 0;
  let n = 0;
  for (; n < 300; n++) {
    const move = ai.nextMove({ board, current, queue, hold, canHold: true });
    if (!move) break; // top-out: nothing fits
    // hold pressed: it plays the held piece, or the queue's first
    const played = move.hold ? (hold ?? queue[0]) : current;
    expect(move.piece).toBe(played);
    if (move.hold) {
      if (hold === null) queue = queue.slice(1) + pieces.next();
      hold = current;
    }
    const placed = board.place(move.cells); // lock the cells, clear full rows
    board = placed.board;
    if (Math.max(...board.heights()) > 20) break; // top-out: a cell left over the field
    lines += placed.lines;
    current = queue[0]; // the next piece comes out of the queue,
    queue = queue.slice(1) + pieces.next(); // and the randomizer deals one more preview
  }
  expect(n).toBe(300);
  expect(lines).toBeGreaterThan(80);
}, 120_000);
