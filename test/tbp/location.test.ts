/**
 * TBP piece locations against the library's SRS moves: every piece and orientation gives the cells the spec defines
 * (test/helpers/tbp-frontend.ts draws them from the spec's text, apart from src/), both ways, on every reachable
 * placement of random boards, and the spec's spawn column.
 */
import { describe, expect, it } from 'vitest';
import { PIECES } from '../../src/pieces.js';
import { Rng } from '../../src/random.js';
import { Board } from '../../src/rules/board.js';
import { reachablePlacements } from '../../src/rules/reachable.js';
import { SRS } from '../../src/rules/rotation-systems.js';
import { TbpBot } from '../../src/tbp/bot.js';
import type { TbpEngine } from '../../src/tbp/engine.js';
import { TBP_ORIENTATIONS, srsFromTbp, tbpCells, tbpFromSrs } from '../../src/tbp/location.js';
import type { BotMessage } from '../../src/tbp/messages.js';
import { ORIENTATION_NAMES, specCells, type Location } from '../helpers/tbp-frontend.js';
import { randomBoard } from '../rules/random-boards.js';

const sorted = (cells: readonly (readonly number[])[]) =>
  [...cells].map(([x, y]) => [x, y]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);

/** The cells `location` fills when played through TbpBot on an empty board (the piece current in the queue). */
async function playedCells(location: Location): Promise<number[][]> {
  let rows: number[] = [];
  const noop = () => {};
  const engine: TbpEngine = {
    setup: async () => {},
    start: noop,
    suggest: async () => ({ moves: [] }),
    play: (_move, after) => {
      rows = Array.from(after.rows);
    },
    newPiece: noop,
    stop: noop,
  };
  const out: BotMessage[] = [];
  const bot = new TbpBot({ engine, send: (m) => out.push(m) });
  const board = Array.from({ length: 40 }, () => new Array(10).fill(null));
  for (const m of [
    { type: 'rules' },
    { type: 'start', board, queue: [location.type, 'T'], hold: null, combo: 0, back_to_back: false },
    { type: 'play', move: { location, spin: 'none' } },
  ])
    await bot.receive(m);
  expect(out).toEqual([{ type: 'ready' }]);
  const cells: number[][] = [];
  rows.forEach((bits, y) => {
    for (let x = 0; x < 10; x++) if ((bits >> x) & 1) cells.push([x, y]);
  });
  return cells;
}

describe('TBP locations', () => {
  it('orientations are north, east, south, west: SRS 0, R, 2, L', () => {
    expect(TBP_ORIENTATIONS).toEqual(ORIENTATION_NAMES);
    for (const [i, o] of TBP_ORIENTATIONS.entries())
      expect(srsFromTbp({ type: 'T', orientation: o, x: 4, y: 10 }).rotation).toBe(['0', 'R', '2', 'L'][i]);
  });

  it.each(PIECES)('%s: every orientation covers the cells the spec defines around its centre, both ways', (type) => {
    for (const orientation of TBP_ORIENTATIONS)
      for (const [x, y] of [
        [4, 19],
        [0, 0],
        [9, 39],
        [-3, 2],
      ]) {
        const loc: Location = { type, orientation, x, y };
        expect(sorted(tbpCells(loc as never)), `${type} ${orientation} ${x},${y}`).toEqual(sorted(specCells(loc)));
        const srs = srsFromTbp(loc as never);
        const s = SRS.pieces[PIECES.indexOf(type)].names.indexOf(srs.rotation);
        const libraryCells = SRS.pieces[PIECES.indexOf(type)].cells[s].map(([dx, dy]) => [srs.x + dx, srs.y + dy]);
        expect(sorted(libraryCells)).toEqual(sorted(specCells(loc)));
        expect(tbpFromSrs(srs)).toEqual(loc);
      }
  });

  it('the O in any orientation and the I and S/Z in opposite ones fill the same cells from other centres, played through TbpBot', async () => {
    // The spec's centres differ by orientation where the shapes coincide: one placement, several locations. Each is
    // played on an empty board through the bot (src/tbp/bot.ts and location.ts), and the cells it locks are read from
    // the position it shows its engine.
    const groups: [string, Location[]][] = [
      [
        'O',
        TBP_ORIENTATIONS.map((orientation, i) => ({
          type: 'O',
          orientation,
          x: 4 + [0, 0, 1, 1][i],
          y: [0, 1, 1, 0][i],
        })),
      ],
      [
        'I flat',
        [
          { type: 'I', orientation: 'north', x: 4, y: 0 },
          { type: 'I', orientation: 'south', x: 5, y: 0 },
        ],
      ],
      [
        'I upright',
        [
          { type: 'I', orientation: 'east', x: 2, y: 2 },
          { type: 'I', orientation: 'west', x: 2, y: 1 },
        ],
      ],
      [
        'S flat',
        [
          { type: 'S', orientation: 'north', x: 4, y: 0 },
          { type: 'S', orientation: 'south', x: 4, y: 1 },
        ],
      ],
      [
        'S upright',
        [
          { type: 'S', orientation: 'east', x: 6, y: 1 },
          { type: 'S', orientation: 'west', x: 7, y: 1 },
        ],
      ],
      [
        'Z flat',
        [
          { type: 'Z', orientation: 'north', x: 4, y: 0 },
          { type: 'Z', orientation: 'south', x: 4, y: 1 },
        ],
      ],
      [
        'Z upright',
        [
          { type: 'Z', orientation: 'east', x: 0, y: 1 },
          { type: 'Z', orientation: 'west', x: 1, y: 1 },
        ],
      ],
    ];
    for (const [name, locations] of groups) {
      const first = sorted(specCells(locations[0]));
      for (const loc of locations) {
        const what = `${name}: ${loc.orientation} at ${loc.x},${loc.y}`;
        expect(sorted(specCells(loc)), what).toEqual(first);
        expect(sorted(await playedCells(loc)), what).toEqual(first);
      }
    }
  });

  it("pieces appear centred on x = 4 (the spec's default spawn column), north", () => {
    for (const type of PIECES) {
      const id = PIECES.indexOf(type);
      const spawn = tbpFromSrs({ piece: type, rotation: '0', x: SRS.spawnX(id, 10), y: 20 });
      expect(spawn.x, type).toBe(4);
      expect(spawn.orientation).toBe('north');
    }
  });

  it('every reachable placement on random boards maps to a location with the same cells, and back', () => {
    const rng = new Rng(54);
    let checked = 0;
    for (let b = 0; b < 12; b++) {
      const { rows } = randomBoard(rng);
      const width = rows[0].length;
      if (width !== 10) continue;
      const board = Board.fromRows(rows).withHeight(40);
      for (const piece of PIECES)
        for (const p of reachablePlacements(board, piece, { rules: 'guideline' })) {
          const loc = tbpFromSrs(p);
          expect(sorted(specCells(loc as Location))).toEqual(sorted(p.cells));
          expect(srsFromTbp(loc)).toEqual({ piece: p.piece, rotation: p.rotation, x: p.x, y: p.y });
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(500);
  });
});
