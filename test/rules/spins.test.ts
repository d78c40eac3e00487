/**
 * Golden T-spin positions (docs/rules.md, "Versus"): each checked against the independent reference
 * (test/reference/versus-reference.ts: spin and fewest presses), replayed key by key through PieceMover (the last
 * turn makes the spin), and pinned: spin, lines, rotation and keys.
 */
import { describe, expect, it } from 'vitest';
import { Board, PieceMover, RULE_SETS, reachablePlacements, type Spin } from '../../src/rules/index.js';
import { cellKey, refBoardFromRows } from '../reference/rules-reference.js';
import { refSpins } from '../reference/versus-reference.js';

interface Golden {
  name: string;
  /** Bottom rows, top first (a 10 × 20 board). */
  rows: string[];
  cells: [number, number][];
  spin: Spin;
  lines: number;
  rotation: string;
  inputs: string[];
}

const GOLDEN: Golden[] = [
  {
    name: 'T-spin double',
    rows: ['...#......', '#...######', '##.#######'],
    cells: [
      [2, 0],
      [1, 1],
      [2, 1],
      [3, 1],
    ],
    spin: 'full',
    lines: 2,
    rotation: '2',
    inputs: ['ccw', 'left', 'left', 'softDrop', 'ccw', 'hardDrop'],
  },
  {
    name: 'T-spin single (the same slot, its upper row left open)',
    rows: ['...#......', '#...#####.', '##.#######'],
    cells: [
      [2, 0],
      [1, 1],
      [2, 1],
      [3, 1],
    ],
    spin: 'full',
    lines: 1,
    rotation: '2',
    inputs: ['ccw', 'left', 'left', 'softDrop', 'ccw', 'hardDrop'],
  },
  {
    name: 'T-spin (no lines)',
    rows: ['...#......', '#...#####.', '##.######.'],
    cells: [
      [2, 0],
      [1, 1],
      [2, 1],
      [3, 1],
    ],
    spin: 'full',
    lines: 0,
    rotation: '2',
    inputs: ['ccw', 'left', 'left', 'softDrop', 'ccw', 'hardDrop'],
  },
  {
    name: 'T-spin triple (four corners)',
    rows: ['###.......', '##........', '##.#######', '##..######', '##.#######'],
    cells: [
      [2, 0],
      [2, 1],
      [3, 1],
      [2, 2],
    ],
    spin: 'full',
    lines: 3,
    rotation: 'R',
    inputs: ['softDrop', 'left', 'cw', 'hardDrop'],
  },
  {
    name: 'fifth-kick T-spin double: one front corner, upgraded by the turn 0 → L with kick (+1, -2)',
    rows: ['.....#....', '..........', '#####.####', '####..####', '####..####'],
    cells: [
      [5, 0],
      [4, 1],
      [5, 1],
      [5, 2],
    ],
    spin: 'full',
    lines: 2,
    rotation: 'L',
    inputs: ['left', 'softDrop', 'right', 'ccw', 'hardDrop'],
  },
  {
    name: 'mini T-spin single at the right wall (a key more than the plain drop)',
    rows: ['#########.', '.#########', '.########.'],
    cells: [
      [9, 2],
      [8, 3],
      [9, 3],
      [9, 4],
    ],
    spin: 'mini',
    lines: 1,
    rotation: 'L',
    inputs: ['dasRight', 'softDrop', 'ccw', 'hardDrop'],
  },
  {
    name: 'mini T-spin (no lines)',
    rows: ['#######.#.', '.#########', '.########.'],
    cells: [
      [9, 2],
      [8, 3],
      [9, 3],
      [9, 4],
    ],
    spin: 'mini',
    lines: 0,
    rotation: 'L',
    inputs: ['dasRight', 'softDrop', 'ccw', 'hardDrop'],
  },
  {
    name: 'mini T-spin double',
    rows: ['...#......', '..........', '###...####', '###..#####', '###.######'],
    cells: [
      [3, 0],
      [3, 1],
      [4, 1],
      [3, 2],
    ],
    spin: 'mini',
    lines: 2,
    rotation: 'R',
    inputs: ['cw', 'cw', 'right', 'softDrop', 'dasLeft', 'ccw', 'hardDrop'],
  },
];

describe('golden T-spins (guideline)', () => {
  for (const g of GOLDEN) {
    it(g.name, () => {
      const board = Board.fromRows(g.rows, 20);
      const hit = reachablePlacements(board, 'T', { rules: 'guideline' }).find(
        (p) => cellKey(p.cells) === cellKey(g.cells),
      )!;
      expect(hit).toBeDefined();
      expect({ spin: hit.spin, rotation: hit.rotation, inputs: hit.inputs }).toEqual({
        spin: g.spin,
        rotation: g.rotation,
        inputs: g.inputs,
      });
      expect(board.withHeight(40).place(hit.cells).lines).toBe(g.lines);
      // the reference finds the same spin with as few presses
      const ref = refSpins(refBoardFromRows(board.toRows())).get(cellKey(g.cells));
      expect(ref).toEqual({ spin: g.spin, presses: g.inputs.length });
      // key by key through PieceMover: the last turn leaves the piece at rest with this spin
      const mover = new PieceMover(board, 'T', 'guideline');
      let state = mover.spawn;
      const turns = g.inputs.slice(0, -1);
      for (const input of turns.slice(0, -1)) state = mover.apply(state, input as never)!;
      const last = turns[turns.length - 1];
      expect(mover.spinAfterTurn(state, last === 'cw')).toBe(g.spin);
      const turned = mover.apply(state, last as never)!;
      expect(cellKey(mover.cellsOf(turned))).toBe(cellKey(g.cells));
    });
  }
  it("the fifth-kick position's turn takes kick test 5 (index 4), which makes its one-front-corner spin full", () => {
    const g = GOLDEN[4];
    const mover = new PieceMover(Board.fromRows(g.rows, 20), 'T', 'guideline');
    let state = mover.spawn;
    for (const input of ['left', 'softDrop', 'right'] as const) state = mover.apply(state, input)!;
    expect(mover.kickedTurn(state, false)).toEqual({ state: { rotation: 3, x: 4, y: 0 }, kick: 4 });
  });
  it('no spins under rule sets without them, on the same positions and turns', () => {
    const noSpins = { ...RULE_SETS.guideline, name: 'no-spins', spins: 'none' as const };
    for (const g of GOLDEN) {
      const board = Board.fromRows(g.rows, 20);
      for (const rules of [noSpins, RULE_SETS.tgm])
        for (const p of reachablePlacements(board, 'T', { rules })) expect(p.spin).toBe('none');
      const mover = new PieceMover(board, 'T', noSpins);
      let state = mover.spawn;
      const turns = g.inputs.slice(0, -1);
      for (const input of turns.slice(0, -1)) state = mover.apply(state, input as never)!;
      expect(mover.spinAfterTurn(state, turns[turns.length - 1] === 'cw')).toBe('none');
    }
  });
});
