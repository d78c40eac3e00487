/**
 * The exported rotation systems' methods check their arguments (docs/errors.md): a bad piece is BAD_PIECE, a bad
 * width or rotation state BAD_ARGUMENT, and valid calls answer as before.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/random.js';
import { ARS, CLASSIC, NRS, PieceMover, ROTATION_SYSTEMS, RULE_SETS, SRS, StackRankError } from '../helpers/api.js';
import { RefSimulator, cellKey, refBoardFromRows, type RefPiece } from '../reference/rules-reference.js';

const SYSTEMS = [SRS, ARS, NRS, CLASSIC];
const BAD_PIECES: unknown[] = [undefined, null, -1, 'x', Number.NaN, 7, 1.5, '0', {}];

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(StackRankError);
    return (e as StackRankError).code;
  }
  return 'none';
}

describe('rotation systems check their arguments', () => {
  it('are the systems ROTATION_SYSTEMS lists', () => {
    expect(Object.values(ROTATION_SYSTEMS)).toEqual(expect.arrayContaining(SYSTEMS));
  });

  for (const system of SYSTEMS) {
    it(`${system.name}: a bad piece is BAD_PIECE in every method`, () => {
      for (const piece of BAD_PIECES) {
        expect(codeOf(() => system.spawnX(piece as never, 10))).toBe('BAD_PIECE');
        expect(codeOf(() => system.kicks(piece as never, 0, 1))).toBe('BAD_PIECE');
        expect(codeOf(() => system.centreColumnRule(piece as never, 0, 1))).toBe('BAD_PIECE');
      }
    });

    it(`${system.name}: a bad width or state is BAD_ARGUMENT, naming what is allowed`, () => {
      for (const width of [undefined, 3, 11, 9.5, Number.NaN, '10'])
        expect(codeOf(() => system.spawnX(0, width as never))).toBe('BAD_ARGUMENT');
      expect(() => system.spawnX(0, 11)).toThrow(/board width must be an integer from 4 to 10; got 11/);
      for (const [pieceId, states] of system.pieces.map((p, id) => [id, p.names.length] as const)) {
        for (const state of [-1, states, 0.5, undefined, '0']) {
          expect(codeOf(() => system.kicks(pieceId, state as never, 0))).toBe('BAD_ARGUMENT');
          expect(codeOf(() => system.kicks(pieceId, 0, state as never))).toBe('BAD_ARGUMENT');
          expect(codeOf(() => system.centreColumnRule(pieceId, state as never, 0))).toBe('BAD_ARGUMENT');
          expect(codeOf(() => system.centreColumnRule(pieceId, 0, state as never))).toBe('BAD_ARGUMENT');
        }
      }
    });
  }

  it('valid calls answer as the systems define them (docs/rules.md)', () => {
    expect(SRS.spawnX(0, 10)).toBe(3); // the I's 4-wide box centred
    expect(SRS.spawnX('T' as never, 10)).toBe(3);
    expect(ARS.spawnX(1, 10)).toBe(4);
    expect(NRS.spawnX(6, 10)).toBe(5);
    expect(SRS.kicks(2, 0, 1)).toEqual([
      [0, 0],
      [-1, 0],
      [-1, 1],
      [0, -2],
      [-1, -2],
    ]);
    expect(ARS.kicks(0, 0, 1)).toEqual([[0, 0]]);
    expect(ARS.centreColumnRule(2, 0, 1)).toBe(true);
    expect(ARS.centreColumnRule(3, 0, 1)).toBe(false);
    for (const system of SYSTEMS)
      for (const [id, p] of system.pieces.entries())
        for (let s = 0; s < p.names.length; s++) {
          expect(system.kicks(id, s, p.cw[s])[0]).toEqual([0, 0]);
          expect(typeof system.centreColumnRule(id, s, p.ccw[s])).toBe('boolean');
        }
  });
});

type Kick = [number, number];
type Table = Record<string, Kick[]>;
const at = (name: string) => ['0', 'R', '2', 'L'].indexOf(name);

// The Tetris wiki's SRS wall-kick data (tetris.wiki/Super_Rotation_System, "Wall Kicks"), y up, as (x, y) offsets
// added to the piece's position: the same convention as SRS.kicks (a kick [1, 2] moves one right and two up; the
// "I kicks off the floor" test in reachable.test.ts turns with it).
const WIKI_JLSTZ: Table = {
  '0>R': [
    [0, 0],
    [-1, 0],
    [-1, 1],
    [0, -2],
    [-1, -2],
  ],
  'R>0': [
    [0, 0],
    [1, 0],
    [1, -1],
    [0, 2],
    [1, 2],
  ],
  'R>2': [
    [0, 0],
    [1, 0],
    [1, -1],
    [0, 2],
    [1, 2],
  ],
  '2>R': [
    [0, 0],
    [-1, 0],
    [-1, 1],
    [0, -2],
    [-1, -2],
  ],
  '2>L': [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, -2],
    [1, -2],
  ],
  'L>2': [
    [0, 0],
    [-1, 0],
    [-1, -1],
    [0, 2],
    [-1, 2],
  ],
  'L>0': [
    [0, 0],
    [-1, 0],
    [-1, -1],
    [0, 2],
    [-1, 2],
  ],
  '0>L': [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, -2],
    [1, -2],
  ],
};
const WIKI_I: Table = {
  '0>R': [
    [0, 0],
    [-2, 0],
    [1, 0],
    [-2, -1],
    [1, 2],
  ],
  'R>0': [
    [0, 0],
    [2, 0],
    [-1, 0],
    [2, 1],
    [-1, -2],
  ],
  'R>2': [
    [0, 0],
    [-1, 0],
    [2, 0],
    [-1, 2],
    [2, -1],
  ],
  '2>R': [
    [0, 0],
    [1, 0],
    [-2, 0],
    [1, -2],
    [-2, 1],
  ],
  '2>L': [
    [0, 0],
    [2, 0],
    [-1, 0],
    [2, 1],
    [-1, -2],
  ],
  'L>2': [
    [0, 0],
    [-2, 0],
    [1, 0],
    [-2, -1],
    [1, 2],
  ],
  'L>0': [
    [0, 0],
    [1, 0],
    [-2, 0],
    [1, -2],
    [-2, 1],
  ],
  '0>L': [
    [0, 0],
    [-1, 0],
    [2, 0],
    [-1, 2],
    [2, -1],
  ],
};

describe('SRS kick tables', () => {
  it('are the Tetris wiki tables exactly: I, and J L S T Z (each of the eight turns); O never kicks', () => {
    for (const [pieceId, table] of [[0, WIKI_I], ...[2, 3, 4, 5, 6].map((id) => [id, WIKI_JLSTZ] as const)] as const)
      for (const [turn, kicks] of Object.entries(table)) {
        const [from, to] = turn.split('>').map(at);
        expect(SRS.kicks(pieceId, from, to), `${SRS.pieces[pieceId].piece} ${turn}`).toEqual(kicks);
      }
    for (let s = 0; s < 4; s++) expect(SRS.kicks(1, s, (s + 1) % 4)).toEqual([[0, 0]]);
  });

  it('turn every piece from random positions on dense random boards as the reference offset tables do', () => {
    // The reference turns by true rotation about a pivot and the SRS offset tables, independently of the kick
    // tables above; both are compared by the cells the turned piece covers.
    const rng = new Rng(1);
    for (const piece of ['I', 'T', 'S', 'Z', 'L', 'J']) {
      const probe = new PieceMover(Array(12).fill('..........'), piece as never, RULE_SETS.guideline);
      const sim0 = new RefSimulator(refBoardFromRows(Array(12).fill('..........')), piece, 'guideline');
      // where the reference's anchor stands for each state, relative to the mover's reference point
      const anchor = [0, 1, 2, 3].map((rot) => {
        const cells = cellKey(probe.cellsOf({ rotation: rot, x: 3, y: 3 }));
        for (let ax = -2; ax <= 10; ax++)
          for (let ay = -2; ay <= 10; ay++) {
            const p = sim0.game.system.turns({ cells: [], rot: (rot + 3) % 4, ax, ay }, piece, true, () => false)[0];
            if (cellKey(p.cells) === cells) return [p.ax - 3, p.ay - 3];
          }
        throw new Error(`no reference state for ${piece} ${rot}`);
      });
      const used = [0, 0, 0, 0, 0]; // turns that took kick test k (0: the plain turn)
      for (let t = 0; t < 400; t++) {
        const rows = Array.from({ length: 12 }, () =>
          Array.from({ length: 10 }, () => (rng.nextInt(100) < 30 ? '#' : '.')).join(''),
        );
        const sim = new RefSimulator(refBoardFromRows(rows), piece, 'guideline');
        const mover = new PieceMover(rows, piece as never, RULE_SETS.guideline);
        for (let k = 0; k < 10; k++) {
          const rot = rng.nextInt(4);
          const x = rng.nextInt(12) - 2;
          const y = rng.nextInt(12) - 2;
          if (mover.collides(rot, x, y)) continue;
          const cells = mover.cellsOf({ rotation: rot, x, y });
          const ref: RefPiece = {
            cells: cells.map(([cx, cy]): [number, number] => [cx, cy]),
            rot,
            ax: x + anchor[rot][0],
            ay: y + anchor[rot][1],
          };
          for (const cw of [true, false]) {
            const want = sim.game.system.turns(ref, piece, cw, sim.blocked).find((c) => sim.fits(c));
            const got = mover.kickedTurn({ rotation: rot, x, y }, cw);
            expect(got ? cellKey(mover.cellsOf(got.state)) : null).toBe(want ? cellKey(want.cells) : null);
            if (got) used[got.kick]++;
          }
        }
      }
      // every kick test is exercised, not only the plain turn
      for (const n of used) expect(n, `${piece} kick tests used ${used}`).toBeGreaterThan(10);
    }
  });
});
