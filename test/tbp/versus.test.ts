/**
 * The TBP bot's stand-in versus rules (src/tbp/versus.ts): the spin of a T placed by a key sequence on golden
 * positions (each sequence replayed through PieceMover first, so it is a real path to the cells named), and the
 * combo and back-to-back counters as TBP counts them.
 */
import { describe, expect, it } from 'vitest';
import { Board } from '../../src/rules/board.js';
import { PieceMover } from '../../src/rules/reachable.js';
import type { Input } from '../../src/rules/types.js';
import { countersAfter, tSpinOf } from '../../src/tbp/versus.js';

interface Golden {
  name: string;
  /** Bottom rows, top first. */
  rows: string[];
  inputs: Input[];
  cells: [number, number][];
  spin: 'none' | 'mini' | 'full';
}

/** The T pointing down into a slot at column 4, its flat side on row 1. */
const SLOT: [number, number][] = [
  [4, 0],
  [3, 1],
  [4, 1],
  [5, 1],
];

const GOLDEN: Golden[] = [
  {
    name: 'T-spin double: dropped upright, turned into the slot under the overhang',
    rows: ['####......', '###...####', '####.#####'],
    inputs: ['cw', 'softDrop', 'cw', 'hardDrop'],
    cells: SLOT,
    spin: 'full',
  },
  {
    name: 'the same cells reached without a turn last are no spin (no overhang: dropped pointing down)',
    rows: ['..........', '###...####', '####.#####'],
    inputs: ['cw', 'cw', 'hardDrop'],
    cells: SLOT,
    spin: 'none',
  },
  {
    name: 'mini: kicked against the right wall with one front corner filled',
    rows: ['#########.'],
    inputs: ['dasRight', 'softDrop', 'ccw', 'hardDrop'],
    cells: [
      [9, 0],
      [8, 1],
      [9, 1],
      [9, 2],
    ],
    spin: 'mini',
  },
  {
    name: 'fifth kick test (0 -> R by (-1, -2)): one front corner, upgraded to full',
    rows: ['....#.....', '..........', '####.#####', '####..####', '####..####'],
    inputs: ['right', 'right', 'softDrop', 'left', 'cw', 'hardDrop'],
    cells: [
      [4, 0],
      [4, 1],
      [5, 1],
      [4, 2],
    ],
    spin: 'full',
  },
  {
    name: 'a turn in the air, then the hard drop moves the piece: no spin',
    rows: ['###...####', '####.#####'],
    inputs: ['cw', 'cw', 'hardDrop'],
    cells: SLOT,
    spin: 'none',
  },
];

const sorted = (cells: readonly (readonly number[])[]) =>
  [...cells].map(([x, y]) => [x, y]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);

describe('tSpinOf', () => {
  it.each(GOLDEN)('$name', ({ rows, inputs, cells, spin }) => {
    const board = Board.fromRows(rows, 40);
    const mover = new PieceMover(board, 'T', 'guideline');
    let p = mover.spawn;
    for (const key of inputs.slice(0, -1)) {
      const next = mover.apply(p, key);
      expect(next, key).not.toBeNull();
      p = next!;
    }
    p = { ...p, y: mover.dropY(p.rotation, p.x, p.y) };
    expect(sorted(mover.cellsOf(p))).toEqual(sorted(cells));
    expect(tSpinOf(board.rows, 'T', inputs)).toBe(spin);
  });

  it('only the T spins', () => {
    const board = Board.fromRows(['####......', '###...####', '####.#####'], 40);
    for (const piece of ['I', 'O', 'S', 'Z', 'L', 'J'])
      expect(tSpinOf(board.rows, piece, ['cw', 'softDrop', 'cw'])).toBe('none');
  });
});

describe('countersAfter', () => {
  it('a clear adds to the combo; no clear resets it and keeps back-to-back', () => {
    expect(countersAfter({ combo: 0, backToBack: false }, 1, 'none')).toEqual({ combo: 1, backToBack: false });
    expect(countersAfter({ combo: 3, backToBack: true }, 0, 'full')).toEqual({ combo: 0, backToBack: true });
    expect(countersAfter({ combo: 3, backToBack: false }, 0, 'none')).toEqual({ combo: 0, backToBack: false });
  });

  it('a Tetris or a spin that clears makes back-to-back; any other clear ends it', () => {
    expect(countersAfter({ combo: 0, backToBack: false }, 4, 'none').backToBack).toBe(true);
    expect(countersAfter({ combo: 0, backToBack: false }, 2, 'full').backToBack).toBe(true);
    expect(countersAfter({ combo: 0, backToBack: false }, 1, 'mini').backToBack).toBe(true);
    expect(countersAfter({ combo: 2, backToBack: true }, 3, 'none')).toEqual({ combo: 3, backToBack: false });
  });
});
