/**
 * Versus mode's sides (demo/versus.ts), run in Node. The person's: a T-spin double typed in by keys is scored by the
 * rules layer as the library's own search finds it — the keys of `reachablePlacements`' full-spin double, pressed
 * one by one, give a 'tSpinDouble' of 4 lines that land on the opponent's meter, or cancel the lines waiting; the
 * garbage that enters comes in under the stack with its colours. The AI's: its pieces are its randomizer's, in
 * order, the hold box as the game keeps it, each move the one the library's AI makes on that position.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Board,
  TetrisAI,
  createRandomizer,
  reachablePlacements,
  RULE_SETS,
  type Input,
  type Piece,
} from '../../src/index.js';
import { buildRankTable } from '../../src/rank/table.js';
import type { Paint } from '../../demo/draw.js';
import type { Action } from '../../demo/play.js';
import { VersusAI, VersusField, VersusPerson, type LockReport } from '../../demo/versus.js';

/** A T-spin double slot under an overhang at column 3 (top row first; the T points down into column 4). */
const TSD = ['####......', '###...####', '####.#####'];

/** The first seed whose bag7 sequence has a T second: hold, then the T plays on the board set meanwhile. */
function seedWithSecondT(): number {
  for (let seed = 0; ; seed++) if (createRandomizer('bag7', { seed }).take(2)[1] === 'T') return seed;
}

function personOn(rows: readonly string[]) {
  const seed = seedWithSecondT();
  const field = new VersusField(0, seed);
  const opponent = new VersusField(1, seed);
  const person = new VersusPerson(field, null as unknown as TetrisAI, seed);
  person.opponent = opponent;
  const reports: (LockReport | null)[] = [];
  person.onLock = (r) => reports.push(r);
  const board = Board.fromRows([...Array<string>(20 - rows.length).fill('..........'), ...rows]);
  const paint: Paint[][] = Array.from({ length: 20 }, (_, y) =>
    Array.from({ length: 10 }, (_, x): Paint => ((board.rows[y] >> x) & 1 ? 'X' : null)),
  );
  field.board = board;
  field.paint = paint;
  person.board = board;
  person.paint = paint;
  person.act('hold'); // the T appears on the slot's board
  expect(person.piece).toBe('T' satisfies Piece);
  return { person, opponent, reports, board };
}

/** Presses a placement's keys: a DAS shift as ten taps, a soft drop to rest. */
function press(person: VersusPerson, inputs: readonly Input[]): void {
  for (const input of inputs) {
    if (input === 'dasLeft' || input === 'dasRight')
      for (let i = 0; i < 10; i++) person.act(input === 'dasLeft' ? 'left' : 'right');
    else if (input === 'softDrop') person.dropToRest();
    else person.act(input as Action);
  }
}

describe('versus: a person’s spin', () => {
  it('the keys of the search’s T-spin double score a tSpinDouble of 4 lines, sent to the opponent', () => {
    const { person, opponent, reports, board } = personOn(TSD);
    const tsd = reachablePlacements(board, 'T', { rules: 'guideline' }).find(
      (p) => p.spin === 'full' && board.place(p.cells).lines === 2,
    );
    expect(tsd).toBeDefined();
    press(person, tsd!.inputs as readonly Input[]);
    expect(reports).toHaveLength(1);
    const r = reports[0]!;
    expect({ spin: r.spin, lines: r.lines, kind: r.kind, attack: r.attack, sent: r.sent }).toEqual({
      spin: 'full',
      lines: 2,
      kind: 'tSpinDouble',
      attack: 4,
      sent: 4,
    });
    expect(r.text).toBe('T-spin double, 4 lines');
    expect(opponent.garbage.lines).toBe(4);
    expect(person.over).toBe(false);
    expect(r.toppedOut).toBe(false);
  });

  it('with 3 lines waiting, the same spin cancels them and sends the 1 line left over', () => {
    const { person, opponent, reports, board } = personOn(TSD);
    person.field.garbage.receive(3);
    const tsd = reachablePlacements(board, 'T', { rules: 'guideline' }).find(
      (p) => p.spin === 'full' && board.place(p.cells).lines === 2,
    );
    press(person, tsd!.inputs as readonly Input[]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      kind: 'tSpinDouble',
      attack: 4,
      cancelled: 3,
      sent: 1,
      entered: 0,
      incoming: 0,
    });
    expect(reports[0]!.text).toBe('T-spin double, 4 lines (3 cancelled, 1 sent)');
    expect([person.field.garbage.lines, opponent.garbage.lines]).toEqual([0, 1]);
  });
});

describe('versus: garbage that enters a board', () => {
  it('the rows come in under the stack, each attack its own hole, and the colours and highlight follow', () => {
    const { person, reports } = personOn(Array<string>(2).fill('#########.'));
    // Two attacks of 2 lines: clean garbage (docs/rules.md, "Garbage") gives each attack one hole, the next another.
    person.field.garbage.receive(2);
    person.field.garbage.receive(2);
    person.act('hardDrop'); // the T on top of the stack: no clear, so the 4 lines enter
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ lines: 0, entered: 4, incoming: 0, toppedOut: false });
    const { board, paint, lastCells } = person.field;
    // The bottom four rows are garbage: one hole each, the first attack's rows above the second's.
    const holes = [...board.rows.subarray(0, 4)].map((row) => (0x3ff & ~row).toString(2).length - 1);
    for (const row of board.rows.subarray(0, 4)) expect((0x3ff & ~row).toString(2).replace(/0/g, '')).toBe('1');
    expect(holes[0]).toBe(holes[1]);
    expect(holes[2]).toBe(holes[3]);
    expect(holes[1]).not.toBe(holes[2]);
    // The colours are the board's cells, row for row: garbage grey ('X'), the old stack and the T as they were.
    for (let y = 0; y < 20; y++) {
      const painted = paint[y].reduce((mask, c, x) => (c === null ? mask : mask | (1 << x)), 0);
      expect(painted, `row ${y}`).toBe(board.rows[y]);
      if (y < 4) expect(paint[y].filter((c) => c === 'X')).toHaveLength(9);
    }
    // The highlighted cells are the T's, where the garbage pushed it.
    expect(lastCells).toHaveLength(4);
    for (const [x, y] of lastCells) expect([x, y, paint[y][x]]).toEqual([x, y, 'T']);
    expect(Math.min(...lastCells.map(([, y]) => y))).toBe(6);
  });
});

describe('versus: garbage that tops a side out', () => {
  it('the lock is reported with toppedOut, the entered rows leave the meter, and the person’s game ends', () => {
    // 17 rows of stack with a hole per row (no line clears): four garbage rows push it above the 20 rows.
    const { person, reports } = personOn(Array<string>(17).fill('#########.'));
    person.field.garbage.receive(4);
    person.act('hardDrop'); // the T on top of the stack: no clear, so the 4 lines enter
    expect(reports).toHaveLength(1);
    const r = reports[0]!;
    expect({ lines: r.lines, entered: r.entered, incoming: r.incoming, toppedOut: r.toppedOut }).toEqual({
      lines: 0,
      entered: 4,
      incoming: 0,
      toppedOut: true,
    });
    expect(person.field.garbage.lines).toBe(0);
    expect(person.field.pieces).toBe(r.piece);
    expect(person.over).toBe(true);
  });
});

describe('versus: the AI side', () => {
  let ai: TetrisAI;
  beforeAll(async () => {
    const table = await buildRankTable({ width: 9, iterations: 2, threads: 1 });
    ai = await TetrisAI.create({ rules: 'guideline', lookahead: 1, table });
  });

  it('plays its randomizer’s pieces in order through the hold box, each the move the library’s AI makes', () => {
    const seed = 9;
    const field = new VersusField(1, seed);
    const opponent = new VersusField(0, seed);
    const side = new VersusAI(field, ai, seed);
    const pieces = createRandomizer('bag7', { seed }).take(500);
    const previews = RULE_SETS.guideline.previews;
    let next = 0; // index of the current piece in `pieces`
    let hold: Piece | null = null;
    let board = field.board;
    let holds = 0;
    for (let n = 1; n <= 60; n++) {
      const current = pieces[next] as Piece;
      const move = ai.nextMove({
        board,
        current,
        queue: [...pieces.slice(next + 1, next + 1 + previews)],
        hold,
        canHold: true,
        combo: field.state.combo,
        backToBack: field.state.backToBack,
        incoming: [],
      });
      const report = side.step(opponent);
      if (!move) {
        expect(report).toBeNull();
        break;
      }
      if (move.hold) {
        holds++;
        if (hold === null) next++; // the first hold plays the queue's first piece
        hold = current;
      }
      next++;
      board = board.place(move.cells).board;
      expect(report?.piece).toBe(n);
      expect(side.hold).toBe(hold);
      // The pieces still to come, in the randomizer's order (the side tops its queue up before each move).
      expect(side.queue.length).toBeGreaterThan(0);
      expect(side.queue).toBe(pieces.slice(next, next + side.queue.length));
      expect([...field.board.rows]).toEqual([...board.rows]);
    }
    expect(holds).toBeGreaterThan(0);
  });
});
