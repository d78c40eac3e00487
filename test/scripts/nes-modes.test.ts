/**
 * bench/nes-modes-tally.ts: the counts bench/nes-modes.ts prints, from turns built here by hand (boards whose kind
 * is known from their rows), so each count is checked against what the turns say.
 */
import { describe, expect, it } from 'vitest';
import { boardKind, emptyTallies, tallyGame } from '../../bench/nes-modes-tally.js';
import type { Piece } from '../../src/pieces.js';
import type { PlayedTurn } from '../../src/tetris-ai/game-simulator.js';

const WIDTH = 10;
/** A board from its rows, bottom first (bit x is column x). */
const board = (...rows: number[]) => {
  const out = new Uint32Array(24);
  out.set(rows);
  return out;
};
const STACK = 0x1ff; // columns 0–8: the stack beside a right well
const BOARDS = {
  empty: board(),
  building: board(STACK),
  ready: board(STACK, STACK, STACK, STACK),
  // The well column holds a buried row (a hole at column 3) under a clean stack row.
  overFloor: board(0x3ff & ~(1 << 3), STACK),
  // A covered hole at column 4 under the stack, and no side's floor under it.
  noCleanStack: board(STACK & ~(1 << 4), STACK),
};

function turn(
  level: number,
  before: Uint32Array,
  current: Piece,
  mode: 'stack' | 'recover' | null,
  lines = 0,
): PlayedTurn {
  return {
    nes: { level, lines: 0 },
    n: 0,
    before,
    after: before,
    current,
    queue: [],
    hold: null,
    combo: 0,
    backToBack: 0,
    move: mode === null ? null : ({ mode } as PlayedTurn['move']),
    lines,
  };
}

describe('boardKind', () => {
  it('tells a ready stack, a building one, one over a floor and a board with no clean stack', () => {
    expect(boardKind(BOARDS.empty, WIDTH)).toBe('building');
    expect(boardKind(BOARDS.building, WIDTH)).toBe('building');
    expect(boardKind(BOARDS.ready, WIDTH)).toBe('ready');
    expect(boardKind(BOARDS.overFloor, WIDTH)).toBe('over a floor');
    expect(boardKind(BOARDS.noCleanStack, WIDTH)).toBe('no clean stack');
  });

  it('reads a left well as the mirror image', () => {
    const mirror = (rows: Uint32Array) =>
      rows.map((r) => Number.parseInt(r.toString(2).padStart(WIDTH, '0').split('').reverse().join(''), 2));
    expect(boardKind(mirror(BOARDS.ready), WIDTH)).toBe('ready');
    expect(boardKind(mirror(BOARDS.overFloor), WIDTH)).toBe('over a floor');
  });
});

describe('tallyGame', () => {
  it('counts pieces by band and mode, I pieces by board, hand-offs and recover runs', () => {
    const tallies = emptyTallies();
    tallyGame(
      tallies,
      [
        turn(18, BOARDS.building, 'T', 'stack'),
        turn(18, BOARDS.ready, 'I', 'stack', 4),
        turn(29, BOARDS.overFloor, 'O', 'recover'),
        turn(29, BOARDS.noCleanStack, 'I', 'recover', 1),
        turn(30, BOARDS.building, 'L', 'stack'),
        turn(39, BOARDS.ready, 'S', 'recover'),
        turn(39, BOARDS.ready, 'Z', null),
      ],
      WIDTH,
    );
    const [low, , high, top] = tallies;
    expect(low.pieces).toBe(2);
    expect(low.modes).toEqual({ stack: 2 });
    expect(low.iPieces.ready).toBe(1);
    expect(low.iTetrises.ready).toBe(1);
    expect(low.recoverRuns).toEqual([]);
    expect(tallies[1].pieces).toBe(0);
    expect(high.pieces).toBe(3);
    expect(high.modes).toEqual({ recover: 2, stack: 1 });
    expect(high.iPieces['no clean stack']).toBe(1);
    expect(high.iTetrises['no clean stack']).toBe(0);
    expect(high.handoffs['over a floor']).toBe(1);
    expect(high.recoverRuns).toEqual([2]);
    // The top-out's turn places nothing; the run it ends is counted.
    expect(top.pieces).toBe(1);
    expect(top.handoffs.ready).toBe(1);
    expect(top.recoverRuns).toEqual([1]);
  });

  it('counts a run where it starts, across bands and games', () => {
    const tallies = emptyTallies();
    const game = [
      turn(28, BOARDS.building, 'T', 'recover'),
      turn(29, BOARDS.building, 'T', 'recover'),
      turn(29, BOARDS.building, 'T', 'recover'),
    ];
    tallyGame(tallies, game, WIDTH);
    tallyGame(tallies, game, WIDTH);
    expect(tallies[1].recoverRuns).toEqual([3, 3]);
    expect(tallies[2].recoverRuns).toEqual([]);
    // No stack-mode turn came before: no hand-off.
    expect(tallies[1].handoffs.building + tallies[2].handoffs.building).toBe(0);
  });
});
