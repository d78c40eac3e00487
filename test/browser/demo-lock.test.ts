/** Play mode's lock (demo/lock.ts): the game ends only when a cell stays over the field once full rows clear. */
import { describe, expect, it } from 'vitest';
import { lockOnField } from '../../demo/lock.js';
import type { Paint } from '../../demo/draw.js';
import { Board, type Cell } from '../../src/index.js';

/** Rows top first, 10 wide, with every filled cell painted 'X'. */
function field(topFirst: string[]) {
  const board = Board.fromRows(topFirst, topFirst.length);
  const paint: Paint[][] = [...topFirst].reverse().map((row) => [...row].map((c) => (c === '#' ? 'X' : null)));
  return { board, paint };
}

describe('lockOnField', () => {
  // Rows 0-16: columns 1-9 filled (column 0 open); rows 17-19: columns 0-8 filled (column 9 open).
  const rows = [...Array(3).fill('#########.'), ...Array(17).fill('.#########')];

  it('a piece over the top that completes the rows under it plays on (as the library decides a top-out)', () => {
    const { board, paint } = field(rows);
    const iInWell: Cell[] = [
      [9, 17],
      [9, 18],
      [9, 19],
      [9, 20],
    ];
    const locked = lockOnField(board, paint, iInWell, 'I');
    expect(locked.toppedOut).toBe(false);
    expect(locked.lines).toBe(3);
    // The I's fourth cell came down 3 rows, onto row 17; the 17 rows under it are as they were.
    expect(locked.board.toRows()).toEqual([
      ...Array(2).fill('..........'),
      '.........#',
      ...Array(17).fill('.#########'),
    ]);
    expect(locked.paint).toHaveLength(20);
    expect(locked.paint[17][9]).toBe('I');
    expect(locked.paint[16][9]).toBe('X');
    expect(locked.paint[18].every((c) => c === null)).toBe(true);
  });

  it('a piece that stays over the top ends the game: the field unchanged, its cells inside the field painted', () => {
    const { board, paint } = field(rows);
    const o: Cell[] = [
      [0, 20],
      [1, 20],
      [0, 21],
      [1, 21],
    ];
    const locked = lockOnField(board, paint, o, 'O');
    expect(locked).toMatchObject({ toppedOut: true, lines: 0, board });
    expect(locked.paint).toEqual(paint);
    const straddling: Cell[] = [
      [9, 19],
      [9, 20],
      [8, 20],
      [8, 21],
    ];
    const top = lockOnField(field(rows.map((r, i) => (i === 0 ? '########..' : r))).board, paint, straddling, 'S');
    expect(top.toppedOut).toBe(true);
    // Its one cell inside the field is painted; the rest of the paint is as it was.
    expect(top.paint[19][9]).toBe('S');
    expect(top.paint.map((row, y) => row.map((c, x) => (x === 9 && y === 19 ? null : c)))).toEqual(
      paint.map((row, y) => row.map((c, x) => (x === 9 && y === 19 ? null : c))),
    );
    // A flat I resting on a full column, wholly in the first row over the field, clears nothing: a top-out too.
    const column = field(Array(20).fill('#.........'));
    const flat: Cell[] = [
      [0, 20],
      [1, 20],
      [2, 20],
      [3, 20],
    ];
    expect(lockOnField(column.board, column.paint, flat, 'I')).toMatchObject({ toppedOut: true, board: column.board });
  });

  it('an ordinary lock clears full rows and keeps the colours in step with the board', () => {
    const { board, paint } = field(rows);
    const locked = lockOnField(
      board,
      paint,
      [
        [0, 0],
        [0, 1],
        [0, 2],
        [0, 3],
      ],
      'I',
    );
    expect(locked.toppedOut).toBe(false);
    expect(locked.lines).toBe(4);
    const filled = locked.board.toRows().map((r) => [...r].map((c) => c === '#'));
    const painted = [...locked.paint].reverse().map((r) => r.map((c) => c !== null));
    expect(painted).toEqual(filled);
  });
});
