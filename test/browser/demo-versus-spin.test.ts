/**
 * Versus mode's person side (demo/versus.ts), run in Node: a T-spin double typed in by keys is scored by the rules
 * layer as the library's own search finds it — the keys of `reachablePlacements`' full-spin double, pressed one by
 * one, give a 'tSpinDouble' of 4 lines that land on the opponent's meter. The AI is never asked (a person plays), so none is made.
 */
import { describe, expect, it } from 'vitest';
import {
  Board,
  createRandomizer,
  reachablePlacements,
  type Input,
  type Piece,
  type TetrisAI,
} from '../../src/index.js';
import type { Paint } from '../../demo/draw.js';
import type { Action } from '../../demo/play.js';
import { VersusField, VersusPerson, type LockReport } from '../../demo/versus.js';

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
