/**
 * reachablePlacements against the independent reference in test/reference/rules-reference.ts, plus known
 * positions (kicks, spins, ARS exceptions, 20G) and typed errors. RULES_FUZZ_BOARDS sets the number of random
 * boards per rule set (default 400, so 2,000 in a normal run; `npm run fuzz:rules` runs 10,000 per rule set).
 */
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../helpers/refused.js';
import {
  Board,
  PieceMover,
  RULE_SETS,
  RULE_SET_NAMES,
  countReachablePlacements,
  reachablePlacements,
  type GamePlacement,
  type Input,
} from '../../src/rules/index.js';
import { ORIENTATIONS, PIECES } from '../../src/pieces.js';
import { Rng } from '../../src/random.js';
import { StackRankError } from '../../src/errors.js';
import { RefSimulator, cellKey, refBoardFromRows, refReachable, type RefRules } from '../reference/rules-reference.js';
import { refReplaySpin, refSpins } from '../reference/versus-reference.js';
import { randomBoard } from './random-boards.js';

const BOARDS = Number(process.env.RULES_FUZZ_BOARDS ?? 400);
/** The presets without time (the timed nes is test/rules/timed-reachable.test.ts's). */
const UNTIMED = RULE_SET_NAMES.filter((n) => RULE_SETS[n].timing === undefined) as RefRules[];
const key = (cells: readonly (readonly number[])[]) => cellKey(cells);
const find = (list: GamePlacement[], cells: [number, number][]) => list.find((p) => key(p.cells) === key(cells));

function compareWithReference(rows: string[], piece: string, rules: RefRules): string[] {
  const problems: string[] = [];
  const ours = reachablePlacements(rows, piece as never, { rules });
  const refBoard = refBoardFromRows(rows);
  const ref = refReachable(refBoard, piece, rules);
  const sim = new RefSimulator(refBoard, piece, rules);
  // Under guideline a T placement a spin reaches comes with its best spin and the fewest presses that make it.
  const spins = rules === 'guideline' && piece === 'T' ? refSpins(refBoard) : new Map();
  const seen = new Set<string>();
  for (const p of ours) {
    const k = key(p.cells);
    if (seen.has(k)) problems.push(`duplicate ${k}`);
    seen.add(k);
    const spin = spins.get(k);
    if (p.spin !== (spin?.spin ?? 'none')) problems.push(`${k}: spin ${p.spin}, reference ${spin?.spin ?? 'none'}`);
    if (!ref.has(k)) problems.push(`not reachable in the reference: ${k} via ${p.inputs.join(' ')}`);
    else if ((spin?.presses ?? ref.get(k)) !== p.inputs.length)
      problems.push(`${k}: ${p.inputs.length} inputs, reference needs ${spin?.presses ?? ref.get(k)}`);
    if (spin && refReplaySpin(refBoard, p.inputs) !== spin.spin)
      problems.push(
        `${k}: ${p.inputs.join(' ')} replays to a ${refReplaySpin(refBoard, p.inputs)} spin, not ${spin.spin}`,
      );
    const landed = sim.replay(p.inputs);
    if (!landed || key(landed) !== k)
      problems.push(`${p.inputs.join(' ')} replays to ${landed ? key(landed) : 'nothing'}, not ${k}`);
  }
  for (const k of ref.keys()) if (!seen.has(k)) problems.push(`missing ${k}`);
  return problems;
}

describe('reachablePlacements against the reference', () => {
  for (const rules of UNTIMED) {
    it(
      `${rules}: same placements, shortest inputs, inputs replay (${BOARDS} random boards with overhangs)`,
      () => {
        const rng = new Rng(0x5eed + rules.length * 7919 + rules.charCodeAt(0));
        const spins = { none: 0, mini: 0, full: 0 };
        for (let i = 0; i < BOARDS; i++) {
          const board = randomBoard(rng);
          const piece = PIECES[rng.nextInt(7)];
          const problems = compareWithReference(board.rows, piece, rules);
          if (problems.length)
            throw new Error(`${rules} ${piece} on\n${board.rows.join('\n')}\n${problems.slice(0, 5).join('\n')}`);
          for (const p of reachablePlacements(board.rows, piece, { rules })) spins[p.spin]++;
        }
        const placements = spins.none + spins.mini + spins.full;
        expect(placements).toBeGreaterThan(BOARDS * 5); // the boards are not all top-outs
        // guideline's T-spins were checked (both kinds), and no other rule set has any
        if (rules === 'guideline') expect(Math.min(spins.mini, spins.full)).toBeGreaterThan(BOARDS / 40);
        else expect(spins.mini + spins.full).toBe(0);
      },
      Math.max(120_000, BOARDS * 100),
    );
  }

  it('flat boards: every placement takes the fewest presses (widths 4, 7, 10; every rule set and piece)', () => {
    for (const width of [4, 7, 10]) {
      const rows = Array.from({ length: 20 }, () => '.'.repeat(width));
      for (const rules of UNTIMED)
        for (const piece of PIECES) expect(compareWithReference(rows, piece, rules)).toEqual([]);
    }
  });
});

describe('PieceMover replays every placement from its spawn', () => {
  // A game replaying `inputs` key by key starts from `spawn`; under 20G the piece falls as it appears, so a shift as
  // the first key moves the fallen piece (docs/rules.md, "Reachable placements and their keys").
  for (const rules of UNTIMED) {
    it(`${rules}: spawn, each input by apply, then hardDrop lands on the placement's cells`, () => {
      const rng = new Rng(0x0bad + rules.charCodeAt(0) * 31 + rules.length);
      let replayed = 0;
      for (let i = 0; i < 150; i++) {
        const board = randomBoard(rng);
        const piece = PIECES[rng.nextInt(7)];
        const mover = new PieceMover(board.rows, piece, rules);
        for (const p of reachablePlacements(board.rows, piece, { rules })) {
          let state = mover.spawn;
          for (const input of (p.inputs as readonly Input[]).slice(0, -1)) {
            const next = mover.apply(state, input);
            if (!next) throw new Error(`${rules} ${piece}: ${input} does nothing in ${p.inputs.join(' ')}`);
            state = next;
          }
          const landed = { ...state, y: mover.dropY(state.rotation, state.x, state.y) };
          expect(key(mover.cellsOf(landed)), `${rules} ${piece} ${p.inputs.join(' ')}`).toBe(key(p.cells));
          replayed++;
        }
      }
      expect(replayed).toBeGreaterThan(1000);
    });
  }
  it('tgm20g: a first shift moves the piece after it fell, so it cannot pass over a column taller than its spawn', () => {
    // Column 2, beside the T's spawn box (columns 3-5), stands 10 rows high: at spawn height the T would move over
    // it and land on it; it falls first, to the floor beside the column, where neither shift moves it.
    const rows = Array.from({ length: 20 }, (_, i) => (i >= 10 ? '..#.......' : '..........'));
    const mover = new PieceMover(rows, 'T', 'tgm20g');
    expect(mover.apply(mover.spawn, 'left')).toBeNull();
    expect(mover.apply(mover.spawn, 'dasLeft')).toBeNull();
    const right = mover.apply(mover.spawn, 'right')!;
    expect(right).toEqual({ rotation: 0, x: mover.spawn.x + 1, y: mover.dropY(0, mover.spawn.x + 1, 0) });
  });
});

describe('finesse on an empty 10 × 20 board (guideline)', () => {
  const empty = Board.empty();
  const inputsFor = (piece: 'T' | 'I' | 'O' | 'L', cells: [number, number][]) =>
    find(reachablePlacements(empty, piece, { rules: 'guideline' }), cells)?.inputs;
  it('uses DAS to the walls and counts it as one press', () => {
    expect(
      inputsFor('T', [
        [0, 0],
        [1, 0],
        [2, 0],
        [1, 1],
      ]),
    ).toEqual(['dasLeft', 'hardDrop']);
    expect(
      inputsFor('T', [
        [7, 0],
        [8, 0],
        [9, 0],
        [8, 1],
      ]),
    ).toEqual(['dasRight', 'hardDrop']);
    expect(
      inputsFor('O', [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ]),
    ).toEqual(['dasLeft', 'hardDrop']);
    expect(
      inputsFor('I', [
        [3, 0],
        [4, 0],
        [5, 0],
        [6, 0],
      ]),
    ).toEqual(['hardDrop']);
    // vertical I at the left wall: either turn then DAS (two presses); the tie goes to cw
    expect(
      inputsFor('I', [
        [0, 0],
        [0, 1],
        [0, 2],
        [0, 3],
      ]),
    ).toEqual(['cw', 'dasLeft', 'hardDrop']);
    // one column in from the wall: DAS then one tap back beats two taps plus a turn
    expect(
      inputsFor('T', [
        [6, 0],
        [7, 0],
        [8, 0],
        [7, 1],
      ]),
    ).toEqual(['dasRight', 'left', 'hardDrop']);
  });
  it('breaks ties the same way every time: turns before shifts', () => {
    expect(
      inputsFor('T', [
        [3, 0],
        [3, 1],
        [4, 1],
        [3, 2],
      ]),
    ).toEqual(['cw', 'left', 'hardDrop']);
    expect(
      inputsFor('L', [
        [4, 0],
        [4, 1],
        [4, 2],
        [5, 0],
      ]),
    ).toEqual(['cw', 'hardDrop']);
  });
  it('takes the finesse press counts for every column of I, O, T, L and J', () => {
    // Presses before hardDrop, by the piece's leftmost column (DAS counts 1, a turn 1, no 180). Derived by hand from
    // the spawn (I and T/L/J boxes at column 3, O at column 4) and the move set. Flat 3-wide (state 0) from spawn
    // at 3: 0 DAS, 1 DAS+tap, 2 tap, 3 none, 4 tap, 5 two taps, 6 DAS+tap back, 7 DAS. State 2 adds two turns. State R (leftmost = box + 1) after one turn stands at 4; DAS
    // left then turning gives 1, DAS right then turning 8, turning then DAS 0; the rest are taps from these
    // (2 = 3 presses either way, 6 likewise). State L (leftmost = box) stands at 3; DAS then turn gives 0 and 7,
    // turn then DAS 8. Vertical I: cw stands in column 5, ccw in 4; DAS left then ccw / cw gives 1 / 2, DAS right
    // then ccw / cw 7 / 8, a turn then DAS 0 / 9, one tap beside 4 and 5.
    const expected: Record<string, Record<string, string>> = {
      I: { flat: '1210121', vertical: '2222112222' },
      O: { '0': '122101221' },
      T: { '0': '12101221', R: '223212332', '2': '34323443', L: '232123322' },
      L: { '0': '12101221', R: '223212332', '2': '34323443', L: '232123322' },
      J: { '0': '12101221', R: '223212332', '2': '34323443', L: '232123322' },
    };
    for (const [piece, byState] of Object.entries(expected)) {
      const got: Record<string, string[]> = {};
      for (const p of reachablePlacements(empty, piece as never, { rules: 'guideline' })) {
        const flat = p.cells.every((c) => c[1] === p.cells[0][1]);
        const state = piece === 'I' ? (flat ? 'flat' : 'vertical') : p.rotation;
        const left = Math.min(...p.cells.map((c) => c[0]));
        expect(p.inputs.at(-1)).toBe('hardDrop');
        (got[state] ??= [])[left] = String(p.inputs.length - 1);
      }
      const pressed = Object.fromEntries(Object.entries(got).map(([k, v]) => [k, v.join('')]));
      expect(pressed, piece).toEqual(byState);
    }
  });
  it('needs at most four presses before the drop for any placement of any piece', () => {
    for (const piece of PIECES)
      for (const p of reachablePlacements(empty, piece, { rules: 'guideline' }))
        expect(p.inputs.length).toBeLessThanOrEqual(5);
  });
});

describe('SRS kicks (guideline)', () => {
  const mover = (piece: number, rows: string[] = []) =>
    new PieceMover(Board.fromRows(rows.length ? rows : ['..........'], 20), piece, RULE_SETS.guideline);
  it('T kicks off the left wall (R -> 0: one right)', () => {
    expect(mover(2).turn({ rotation: 1, x: -1, y: 5 }, false)).toEqual({ rotation: 0, x: 0, y: 5 });
  });
  it('T kicks off the floor (0 -> R: the third test, one left and one up)', () => {
    expect(mover(2).turn({ rotation: 0, x: 4, y: -1 }, true)).toEqual({ rotation: 1, x: 3, y: 0 });
  });
  it('I kicks off the left wall (R -> 2: the third test, two right)', () => {
    expect(mover(0).turn({ rotation: 1, x: -2, y: 5 }, true)).toEqual({ rotation: 2, x: 0, y: 5 });
  });
  it('I kicks off the floor (0 -> R: the fifth test, one right and two up)', () => {
    expect(mover(0).turn({ rotation: 0, x: 3, y: -2 }, true)).toEqual({ rotation: 1, x: 4, y: 0 });
  });
  it('a turn with every test blocked fails', () => {
    // I lying in a one-row slot under a roof cannot stand up
    const m = mover(0, ['##########', '..........', '##########']);
    expect(m.turn({ rotation: 0, x: 3, y: -1 }, true)).toBeNull();
  });
});

describe('spins reachable only by turning (guideline)', () => {
  const check = (rows: string[], piece: 'T' | 'S' | 'Z', cells: [number, number][], lines: number) => {
    const board = Board.fromRows(rows, 20);
    const hit = find(reachablePlacements(board, piece, { rules: 'guideline' }), cells);
    expect(hit, 'reachable under guideline').toBeDefined();
    const last = hit!.inputs[hit!.inputs.length - 2];
    expect(['cw', 'ccw']).toContain(last); // the last move is a turn
    expect(board.withHeight(40).place(hit!.cells).lines).toBe(lines);
    // hard drop from the top cannot get there
    expect(find(reachablePlacements(board, piece, { rules: 'classic' }), cells)).toBeUndefined();
    expect(find(reachablePlacements(board, piece, { rules: 'nesUntimed' }), cells)).toBeUndefined();
    return hit!;
  };
  it('T-spin double', () => {
    const hit = check(
      ['...#......', '#...######', '##.#######'],
      'T',
      [
        [1, 1],
        [2, 1],
        [3, 1],
        [2, 0],
      ],
      2,
    );
    expect(hit.rotation).toBe('2');
  });
  it('T-spin triple (the fifth kick test)', () => {
    const hit = check(
      ['###.......', '##........', '##.#######', '##..######', '##.#######'],
      'T',
      [
        [2, 0],
        [2, 1],
        [2, 2],
        [3, 1],
      ],
      3,
    );
    expect(hit.inputs).toEqual(['softDrop', 'left', 'cw', 'hardDrop']);
    expect(hit).toMatchObject({ rotation: 'R', x: 1, y: 0 });
  });
  it('S-spin and its mirror Z-spin', () => {
    check(
      ['#....#####', '###..#####', '##...#####'],
      'S',
      [
        [2, 0],
        [3, 0],
        [3, 1],
        [4, 1],
      ],
      1,
    );
    check(
      ['#####....#', '#####..###', '#####...##'],
      'Z',
      [
        [7, 0],
        [6, 0],
        [6, 1],
        [5, 1],
      ],
      1,
    );
  });
});

describe('ARS (tgm)', () => {
  const mover = (piece: number, rows: string[]) => new PieceMover(Board.fromRows(rows, 20), piece, RULE_SETS.tgm);
  const empty = ['..........'];
  it('kicks one right off the left wall', () => {
    // T in L (standing in columns 0-1 of a box that starts at -1) turning to 0 needs columns -1..1
    expect(mover(2, empty).turn({ rotation: 3, x: -1, y: 5 }, true)).toEqual({ rotation: 0, x: 0, y: 5 });
  });
  it('tries right before left', () => {
    // J in R at the right wall: box 8..10 blocked, right (9..11) blocked, left (7..9) fits
    expect(mover(6, empty).turn({ rotation: 1, x: 8, y: 5 }, true)).toEqual({ rotation: 2, x: 7, y: 5 });
    // with room on both sides, a Z blocked at (4,2) goes right
    expect(mover(4, ['....#.....', '..........', '..........']).turn({ rotation: 0, x: 2, y: 0 }, true)).toEqual({
      rotation: 1,
      x: 3,
      y: 0,
    });
  });
  it('the I never kicks', () => {
    expect(mover(0, empty).turn({ rotation: 1, x: -2, y: 5 }, true)).toBeNull();
    expect(mover(0, empty).turn({ rotation: 0, x: 3, y: -2 }, true)).toBeNull(); // not even off the floor
  });
  it('centre-column rule: a T or L blocked first in its centre column does not kick', () => {
    // T in 0 at box (3,0): cells (3,1) (4,1) (5,1) (4,0). Turning to R needs (4,2) (3,1) (4,1) (4,0).
    const centreBlocked = mover(2, ['....#.....', '..........', '..........']);
    expect(centreBlocked.turn({ rotation: 0, x: 3, y: 0 }, true)).toBeNull();
    // The same block for an L (R needs (3,2) (4,2) (4,1) (4,0)): (3,2) comes first in reading order when filled.
    const leftBlocked = mover(5, ['...#......', '..........', '..........']);
    expect(leftBlocked.turn({ rotation: 0, x: 3, y: 0 }, true)).toEqual({ rotation: 1, x: 4, y: 0 });
    const lCentre = mover(5, ['....#.....', '..........', '..........']);
    expect(lCentre.turn({ rotation: 0, x: 3, y: 0 }, true)).toBeNull();
    // An S has no such rule: blocked in its centre column it kicks right.
    const s = mover(3, ['...#......', '..........', '..........']);
    expect(s.turn({ rotation: 0, x: 3, y: 0 }, true)).toEqual({ rotation: 1, x: 4, y: 0 });
  });
});

describe('20G (tgm20g)', () => {
  it('a tall column blocks the slide: nothing right of it is reachable, unlike at low gravity', () => {
    // column 7 is 15 high; every piece appears left of it (the I in columns 3-6) and falls to the floor
    const rows = Array.from({ length: 20 }, (_, i) => (i >= 5 ? '.......#..' : '..........'));
    for (const piece of PIECES) {
      const at20G = reachablePlacements(rows, piece, { rules: 'tgm20g' });
      expect(at20G.length).toBeGreaterThan(0);
      for (const p of at20G) for (const [x] of p.cells) expect(x).toBeLessThan(7);
      const slow = reachablePlacements(rows, piece, { rules: 'tgm' });
      expect(slow.some((p) => p.cells.every(([x]) => x > 7))).toBe(true);
    }
  });
  it('stands the I up only by initial rotation (it cannot turn on the floor)', () => {
    const vertical = reachablePlacements(Board.empty(), 'I', { rules: 'tgm20g' }).filter((p) => p.rotation === 'R');
    expect(vertical.length).toBe(10);
    for (const p of vertical) expect(['cw', 'ccw']).toContain(p.inputs[0]);
    // and with initial rotation switched off it cannot stand up at all
    const noIrs = { ...RULE_SETS.tgm20g, name: 'no-irs', initialRotation: false };
    expect(reachablePlacements(Board.empty(), 'I', { rules: noIrs }).filter((p) => p.rotation === 'R')).toEqual([]);
  });
  it('slides down into a pit and on along the floor with one DAS press', () => {
    const rows = Array.from({ length: 20 }, (_, i) => (i >= 18 ? '##........' : '..........'));
    const o = reachablePlacements(rows, 'O', { rules: 'tgm20g' });
    expect(
      find(o, [
        [2, 0],
        [3, 0],
        [2, 1],
        [3, 1],
      ])?.inputs,
    ).toEqual(['dasLeft', 'hardDrop']);
  });
});

describe('classic is the library game: every orientation and column dropped from above', () => {
  it('matches a direct enumeration of src/pieces.ts orientations on random boards', () => {
    const rng = new Rng(77);
    for (let i = 0; i < 200; i++) {
      const { rows, width, height } = randomBoard(rng);
      const board = Board.fromRows(rows);
      const heights = board.heights();
      for (let pid = 0; pid < 7; pid++) {
        const expected = new Set<string>();
        for (const o of ORIENTATIONS[pid]) {
          for (let c = 0; c + o.width <= width; c++) {
            let base = 0;
            for (let j = 0; j < o.width; j++) base = Math.max(base, heights[c + j] - o.bot[j]);
            const cells: [number, number][] = [];
            for (let j = 0; j < o.width; j++) for (let r = o.bot[j]; r < o.top[j]; r++) cells.push([c + j, base + r]);
            if (cells.every(([, y]) => y < height)) expected.add(key(cells));
          }
        }
        const got = reachablePlacements(board, PIECES[pid], { rules: 'classic' });
        expect(new Set(got.map((p) => key(p.cells)))).toEqual(expected);
        for (const p of got) expect(p.rotation).toMatch(/^[0-3]$/);
      }
    }
  });
});

describe("PieceMover checks the caller's arguments, not the positions its moves try", () => {
  const refusal = (f: () => unknown) => thrownBy(f) as StackRankError;
  it('a turn whose every kick leaves the field is no turn, as spinAfterTurn says', () => {
    // x 17 lies within the 8 cells beyond the wall a state may take; the turn's kick tests (x 19 among them) are the
    // rotation system's own, and one off the field fails like a blocked one.
    const rows = ['...#.#.#.#', '.#......#.', '##..####.#', '###.#.#...'];
    const mover = new PieceMover(rows, 'I', 'guideline');
    const state = { rotation: 0, x: 17, y: 0 };
    expect(mover.turn(state, false)).toBeNull();
    expect(mover.kickedTurn(state, false)).toBeNull();
    expect(mover.spinAfterTurn(state, false)).toBe('none');
    for (const clockwise of [true, false]) expect(mover.turn(state, clockwise)).toBeNull();
    // a state outside that margin is the caller's and is refused, naming it
    expect(refusal(() => mover.turn({ rotation: 0, x: 19, y: 0 }, false))).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/got x 19, y 0$/),
    });
  });
  it("dropY refuses a piece outside the field, naming the caller's x and y and the ones allowed", () => {
    const mover = new PieceMover(Board.empty(), 'T', 'classic');
    const e = refusal(() => mover.dropY(0, 3, -8));
    expect(e).toBeInstanceOf(StackRankError);
    expect(e.code).toBe('BAD_ARGUMENT');
    expect(e.message).toMatch(/^dropY: the piece must lie inside the field, .* y 0\.\.\d+; got x 3, y -8$/);
    expect(e.message).not.toContain('-9');
    // the row below the floor is the drop's own probe, never reported: a piece on the floor rests there
    expect(mover.dropY(0, 3, 0)).toBe(0);
    expect(mover.dropY(0, 3, 10)).toBe(0);
    // past a wall and above the ceiling are outside the field too
    expect(refusal(() => mover.dropY(0, -1, 5)).message).toMatch(/got x -1, y 5$/);
    expect(refusal(() => mover.dropY(0, 3, mover.ceiling)).message).toMatch(new RegExp(`got x 3, y ${mover.ceiling}$`));
    // under 20G settle is the drop, with the same check
    const g20 = new PieceMover(Board.empty(), 'T', 'tgm20g');
    expect(refusal(() => g20.settle({ rotation: 0, x: 3, y: -8 })).message).toMatch(/^settle: .*got x 3, y -8$/);
    expect(g20.settle(g20.spawn).y).toBe(g20.dropY(0, g20.spawn.x, g20.spawn.y));
    // without 20G settle leaves any state in the margin where it is
    expect(mover.settle({ rotation: 0, x: 3, y: -8 })).toEqual({ rotation: 0, x: 3, y: -8 });
  });
});

describe('top-out and bad input', () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof StackRankError ? e.code : `not a StackRankError: ${String(e)}`;
    }
    return 'no error';
  };
  it('a piece overlapping the stack where it appears gets an empty list', () => {
    const rows = Array.from({ length: 20 }, (_, i) => (i < 2 ? '...##.....' : '..........'));
    for (const rules of ['nes', 'tgm', 'tgm20g'] as const)
      expect(reachablePlacements(rows, 'T', { rules })).toEqual([]);
    const guideline = Array.from({ length: 22 }, (_, i) => (i < 2 ? '...##.....' : '..........'));
    expect(reachablePlacements(guideline, 'T', { rules: 'guideline' })).toEqual([]);
    // classic pieces come from above the board: only a piece that fits nowhere is a top-out
    const full = Array.from({ length: 4 }, () => '#########.');
    expect(reachablePlacements(full, 'O', { rules: 'classic' })).toEqual([]);
    expect(reachablePlacements(full, 'I', { rules: 'classic' }).map((p) => p.rotation)).toEqual(['1']);
  });
  it('names the problem with a typed error', () => {
    const b = Board.empty();
    expect(code(() => reachablePlacements(b, 'T', { rules: 'tetris99' as never }))).toBe('BAD_RULES');
    expect(code(() => reachablePlacements(b, 'T', {} as never))).toBe('BAD_RULES');
    expect(code(() => reachablePlacements(b, 'T', undefined as never))).toBe('BAD_RULES');
    // An options value that is no object is a bad argument, as everywhere (docs/errors.md).
    for (const options of [null, 5, 'nes'])
      expect(code(() => countReachablePlacements(b, 'T', options as never))).toBe('BAD_ARGUMENT');
    expect(code(() => reachablePlacements(b, 'T', { rules: { ...RULE_SETS.tgm, gravity: '1G' } as never }))).toBe(
      'BAD_RULES',
    );
    expect(code(() => reachablePlacements(['..........', '.........'], 'T', { rules: 'nes' }))).toBe('BAD_BOARD');
    expect(code(() => reachablePlacements(b, 'X' as never, { rules: 'nes' }))).toBe('BAD_PIECE');
    expect(code(() => reachablePlacements(b, 7 as never, { rules: 'nes' }))).toBe('BAD_PIECE');
    expect(() => reachablePlacements(b, 'T', { rules: 'tetris99' as never })).toThrow(
      expect.objectContaining({
        code: 'BAD_RULES',
        message: expect.stringContaining('rule sets are classic, nes, nesUntimed, guideline, tgm, tgm20g'),
      }),
    );
  });
});
