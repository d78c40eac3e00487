/**
 * The TBP engine over TetrisAI (src/tbp/ai-engine.ts, TetrisAIEngine) against TetrisAI itself on the same table and
 * settings: one move per suggestion is nextMove's, several (`--moves N`, the worker's `moves`) are rankPlacements'
 * in its order, best first, distinct and legal on the position; move_info's depth is the plies the search saw.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Piece } from '../../src/pieces.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { TetrisAIEngine } from '../../src/tbp/ai-engine.js';
import type { TbpPosition } from '../../src/tbp/engine.js';
import { tbpFromSrs } from '../../src/tbp/location.js';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { FrontendGame, type Location } from '../helpers/tbp-frontend.js';

let table: RankTable;

beforeAll(async () => {
  table = await buildRankTable({ width: 9, maxStep: 3, iterations: 2, threads: 1 });
}, 60_000);

/** A ragged stack: bottom rows with holes and steps, as a game would leave them. */
const ROWS: string[] = ['##.####.##', '#.#.###..#', '...#.##...', '......#...'];

function position(queue: Piece[], hold: Piece | null): { position: TbpPosition; front: FrontendGame } {
  const rows = new Uint32Array(40);
  const front = new FrontendGame();
  ROWS.forEach((row, y) => {
    for (let x = 0; x < 10; x++)
      if (row[x] === '#') {
        rows[y] |= 1 << x;
        front.filled[y][x] = true;
      }
  });
  front.queue = [...queue];
  front.hold = hold;
  return { position: { rows, queue, hold, combo: 0, backToBack: false }, front };
}

const key = (m: { hold: boolean; piece: string; rotation: string; x: number; y: number }) =>
  `${m.hold ? 'hold ' : ''}${m.piece} ${m.rotation} ${m.x},${m.y}`;

async function engineWith(moves: number, lookahead = 2): Promise<TetrisAIEngine> {
  const engine = new TetrisAIEngine({ lookahead, randomizerAware: false, moves, loadTable: async () => table });
  await engine.setup('seven_bag');
  return engine;
}

describe('TetrisAIEngine', { timeout: 60_000 }, () => {
  it('moves: 3 gives three distinct legal moves, rankPlacements’ order, nextMove’s first', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', lookahead: 2, table });
    const queue: Piece[] = ['T', 'S', 'Z', 'O', 'I', 'L'];
    const { position: p, front } = position(queue, null);
    const engine = await engineWith(3);
    engine.start(p, { name: 'seven_bag' });
    const { moves, info } = await engine.suggest(p);
    expect(moves).toHaveLength(3);
    expect(new Set(moves.map(key)).size).toBe(3);
    const state = {
      board: { width: 10, rows: p.rows },
      current: 'T',
      queue: queue.slice(1),
      hold: null,
      canHold: true,
    };
    const ranked = ai.rankPlacements(state, { limit: 3 }).placements;
    expect(moves.map(key)).toEqual(ranked.map(key));
    expect(key(moves[0])).toBe(key(ai.nextMove(state)!));
    for (const m of moves) {
      const location = tbpFromSrs(m) as Location;
      // The test front end (from the spec alone) takes each one: the current piece or hold's, resting, reachable.
      expect(front.problem({ location, spin: m.spin }), key(m)).toBeNull();
    }
    // The plies searched: the current piece and `lookahead` of the queue.
    expect(info?.depth).toBe(3);
  });

  it('moves: 1 gives nextMove’s move alone; depth counts only the queue there is', async () => {
    const ai = await TetrisAI.create({ rules: 'guideline', lookahead: 2, table });
    const engine = await engineWith(1);
    const { position: p } = position(['J', 'I'], 'O');
    engine.start(p, { name: 'seven_bag' });
    const { moves, info } = await engine.suggest(p);
    const best = ai.nextMove({
      board: { width: 10, rows: p.rows },
      current: 'J',
      queue: ['I'],
      hold: 'O',
      canHold: true,
    });
    expect(moves.map(key)).toEqual([key(best!)]);
    expect(info?.depth).toBe(2);
  });

  it('moves past the limit are refused at setup', async () => {
    const engine = new TetrisAIEngine({
      lookahead: 2,
      randomizerAware: false,
      moves: 21,
      loadTable: async () => table,
    });
    await expect(engine.setup('unknown')).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});
