/**
 * Watch mode's real game (demo/tetris-game.ts), run in Node: the page's loop (demo/main.ts, playFor) counts a game
 * over and starts the next only when a step answers false, so a step that ends the game must say so. And the game
 * the page shows is the library's: a replay here, with the library's board, the AI and the randomizer's pieces,
 * gives the same board, hold box, pieces, lines and Tetrises after every step, and ends where it ends.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Board, RULE_SETS, TetrisAI, buildRankTable, createRandomizer, type Piece } from 'stackrank';
import { TetrisGame } from '../../demo/tetris-game.js';

let ai: TetrisAI;
/** An AI that reads all five previews (lookahead 5), so a game that hands it fewer plays other moves. */
let farAi: TetrisAI;
beforeAll(async () => {
  const table = await buildRankTable({ width: 9, iterations: 2, threads: 1 });
  ai = await TetrisAI.create({ rules: 'guideline', lookahead: 0, table });
  farAi = await TetrisAI.create({ rules: 'guideline', lookahead: 5, table });
});

describe("watch mode's TetrisGame", () => {
  it('a step answers false exactly when the game is over, also when garbage pushed the stack off the top', () => {
    let endedByGarbage = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const game = new TetrisGame(ai, 'guideline', { randomizer: 'bag7', seed }, 1);
      let ok = true;
      for (let n = 0; n < 400 && ok; n++) {
        const before = game.pieces;
        ok = game.step();
        expect(ok).toBe(!game.over);
        // The piece was placed and then a garbage row ended the game: the case the page once missed.
        if (!ok && game.pieces > before) endedByGarbage++;
      }
      expect(game.over).toBe(true); // a garbage row after every piece ends every game
    }
    expect(endedByGarbage).toBeGreaterThan(0);
  });

  it('replays move for move: the board, the hold box, the queue and the counters are the library game', () => {
    const previews = RULE_SETS.guideline.previews;
    const seen = { holds: 0, lines: 0, tetrises: 0, garbage: 0, endedByGarbage: 0 };
    for (const [player, seed, garbageEvery, moves] of [
      [ai, 4, 0, 300],
      [ai, 5, 9, 300],
      [ai, 6, 4, 300],
      [farAi, 7, 0, 40],
    ] as const) {
      const game = new TetrisGame(player, 'guideline', { randomizer: 'bag7', seed }, garbageEvery);
      const pieces = createRandomizer('bag7', { seed }).take(2000);
      let board = Board.empty(10, 20);
      let next = 0; // index of the current piece in `pieces`
      let hold: Piece | null = null;
      const count = { pieces: 0, lines: 0, tetrises: 0 };
      for (let n = 0; n < moves; n++) {
        expect(game.queue.slice(0, previews + 1)).toBe(pieces.slice(next, next + previews + 1));
        const current = pieces[next] as Piece;
        const queue = [...pieces.slice(next + 1, next + 1 + previews)];
        const move = player.nextMove({ board, current, queue, hold, canHold: true });
        const ok = game.step();
        if (!move || move.cells.some(([, y]) => y >= 20)) {
          expect([ok, game.over, game.pieces]).toEqual([false, true, count.pieces]);
          break;
        }
        if (move.hold) {
          seen.holds++;
          if (hold === null) next++; // the first hold plays the queue's first piece
          hold = current;
        }
        next++;
        const placed = board.place(move.cells);
        board = placed.board;
        count.pieces++;
        count.lines += placed.lines;
        if (placed.lines === 4) count.tetrises++;
        let over = false;
        if (garbageEvery > 0 && count.pieces % garbageEvery === 0) {
          seen.garbage++;
          if (board.rows[19] !== 0) over = true;
          else {
            // The hole is the page's own random choice: take it from the game, and check the row has one hole.
            const row = game.board.rows[0];
            expect((0x3ff & ~row).toString(2).replace(/0/g, '')).toBe('1');
            board = Board.fromBits([row, ...board.rows.slice(0, 19)], 10, 20);
          }
        }
        expect([ok, game.over]).toEqual([!over, over]);
        expect([game.pieces, game.lines, game.tetrises]).toEqual([count.pieces, count.lines, count.tetrises]);
        expect(game.hold).toBe(hold);
        if (over) {
          seen.endedByGarbage++;
          break;
        }
        expect([...game.board.rows]).toEqual([...board.rows]);
        expect(game.holes).toBe(board.holes());
      }
      seen.lines += count.lines;
      seen.tetrises += count.tetrises;
    }
    // The games exercised what the replay checks.
    expect(Object.values(seen).every((k) => k > 0)).toBe(true);
  });
});
