/**
 * Game sessions (docs/game.md, "Sessions"): a session follows one game from the states a game shows (no `next`), and
 * plays the same moves as the simulator, which hands the AI its own randomizer's chances; it tells a turn asked
 * again from the next one, starts over after a jump, and falls back to uniform chances when the pieces contradict
 * its randomizer, without throwing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { playOneGame, type PlayedTurn } from '../../src/tetris-ai/game-simulator.js';
import type { Piece } from '../../src/pieces.js';
import { createRandomizer, type RandomizerName } from '../../src/randomizers/index.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import type { RuleSetName } from '../../src/rules/types.js';
import { refused } from '../helpers/refused.js';

let table: RankTable;
beforeAll(async () => {
  // A weak table (3 iterations): its stack fails often, so the games visit recover mode and its chance ply too.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

const board = (rows: Uint32Array) => ({ width: 10, rows: rows.subarray(0, 20) });

/** A seeded game as playGame plays it, every turn recorded. */
async function recordedGame(ai: TetrisAI, randomizer: RandomizerName, hold: boolean, pieces: number, seed: number) {
  const turns: PlayedTurn[] = [];
  await playOneGame(
    ai,
    0,
    { randomizer, lookahead: ai.lookahead, hold, maxPieces: pieces, seed },
    { onTurn: (t) => turns.push(t) },
  );
  return turns;
}

// Seeds whose games press hold (guideline) and visit recover mode.
const GAMES: { rules: RuleSetName; randomizer: RandomizerName; lookahead: number; hold: boolean; seed: number }[] = [
  { rules: 'classic', randomizer: 'tgm1', lookahead: 1, hold: false, seed: 5 },
  { rules: 'guideline', randomizer: 'bag7', lookahead: 1, hold: true, seed: 9 },
  { rules: 'classic', randomizer: 'bag14', lookahead: 0, hold: false, seed: 5 },
];

describe('a session plays the simulator’s game', () => {
  for (const { rules, randomizer, lookahead, hold, seed } of GAMES) {
    it(`${rules}, ${randomizer}, lookahead ${lookahead}${hold ? ', hold' : ''}: the same move on every turn, no next given`, async () => {
      const ai = await TetrisAI.create({ rules, lookahead, randomizer, table });
      const turns = await recordedGame(ai, randomizer, hold, 300, seed);
      const game = ai.newGame();
      const modes = new Set<string>();
      let held = 0;
      for (const t of turns) {
        const move = game.nextMove({
          board: board(t.before),
          current: t.current,
          queue: t.queue,
          hold: t.hold,
          canHold: hold,
          combo: t.combo,
          backToBack: t.backToBack,
        });
        // The simulator skips a recover chance ply that cannot change the move: the move is the same, its value
        // may not be (test/tetris-ai/play-turn.test.ts).
        if (move?.mode === 'recover') expect({ ...move, value: 0 }).toEqual({ ...t.move, value: 0 });
        else expect(move).toEqual(t.move);
        if (move) modes.add(move.mode);
        if (move?.hold) held++;
      }
      expect(game.status).toMatchObject({ randomizer, knowledge: 'exact', resyncs: 0, contradictedAt: null });
      expect(game.status.turns).toBe(turns.length);
      expect([...modes].sort()).toEqual(['recover', 'stack']);
      if (hold) expect(held).toBeGreaterThan(0);
    }, 120_000);
  }

  it('without a randomizer (the AI has none and the session is told none) it plays nextMove without next', async () => {
    const ai = await TetrisAI.create({ rules: 'classic', lookahead: 1, table });
    const rng = createRandomizer('tgm1', { seed: 2 });
    const game = ai.newGame();
    const stream = rng.take(2).split('') as Piece[];
    const rows = new Uint32Array(44);
    for (let n = 0; n < 40; n++) {
      const state = { board: board(rows), current: stream[0], queue: [stream[1]] };
      const move = game.nextMove(state);
      expect(move).toEqual(ai.nextMove(state));
      if (!move) break;
      for (const [x, y] of move.cells) rows[y] |= 1 << x;
      for (let y = 0; y < 20; y++) if (rows[y] === 0x3ff) rows.copyWithin(y, y + 1), (rows[43] = 0), y--;
      stream.shift();
      stream.push(rng.next());
    }
    expect(game.status).toMatchObject({ randomizer: 'unknown', knowledge: 'uniform', turns: 40 });
    expect(game.status.chances).toEqual(new Array(7).fill(1 / 7));
  }, 60_000);
});

describe('following the game', () => {
  let ai: TetrisAI;
  beforeAll(async () => {
    ai = await TetrisAI.create({ rules: 'guideline', lookahead: 1, table });
  });
  const empty = { width: 10, rows: [] as number[] };
  const filled = (n: number) => ({ width: 10, rows: [(1 << n) - 1] });

  it('learns a 7-bag from the pieces and hold: at the bag’s last piece it is certain', () => {
    const game = ai.newGame({ randomizer: 'bag7' });
    // Bag I O T S Z L J dealt in this order: turn 1 shows I, O; hold I (box empty), place O.
    game.nextMove({ board: empty, current: 'I', queue: 'O', hold: null });
    expect(game.status.chances).toEqual([0, 0, 0.2, 0.2, 0.2, 0.2, 0.2]);
    game.nextMove({ board: filled(1), current: 'T', queue: 'S', hold: 'I' });
    game.nextMove({ board: filled(2), current: 'S', queue: 'Z', hold: 'I' });
    game.nextMove({ board: filled(3), current: 'Z', queue: 'L', hold: 'I' });
    expect(game.status.chances).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(game.status).toMatchObject({ knowledge: 'exact', pieces: 6, resyncs: 0 });
  });

  it('a turn asked again adds nothing; a jump starts over as a game under way', () => {
    const game = ai.newGame({ randomizer: 'bag7' });
    const first = { board: empty, current: 'I', queue: 'OTSZ' };
    game.nextMove(first);
    game.nextMove(first);
    expect(game.status).toMatchObject({ pieces: 5, resyncs: 0 });
    expect(game.status.chances).toEqual([0, 0, 0, 0, 0, 0.5, 0.5]);
    // Pieces that cannot follow (the queue did not move up): a jump. Under way, two I seven pieces apart put a bag
    // boundary between them, so the bag of the second I lacks only J (Cold Clear's bag speculation).
    game.nextMove({ board: filled(4), current: 'I', queue: 'IOTSZL' });
    expect(game.status).toMatchObject({ pieces: 7, resyncs: 1, contradictedAt: null, knowledge: 'exact' });
    expect(game.status.chances).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });

  it('a 7-bag game that deals a piece twice in a bag: uniform chances from that turn on, no throw', () => {
    const game = ai.newGame({ randomizer: 'bag7' });
    game.nextMove({ board: empty, current: 'I', queue: 'O' });
    const move = game.nextMove({ board: filled(1), current: 'O', queue: 'I' });
    expect(move).not.toBeNull();
    expect(game.status).toMatchObject({ knowledge: 'uniform', contradictedAt: 1 });
    expect(game.status.chances).toEqual(new Array(7).fill(1 / 7));
    game.nextMove({ board: filled(2), current: 'I', queue: 'I' });
    expect(game.status).toMatchObject({ knowledge: 'uniform', contradictedAt: 1, resyncs: 0 });
  });

  it('fromStart: false joins a game under way; by default the first turn is the game’s first', () => {
    const first = { board: empty, current: 'T', queue: 'Z' };
    for (const options of [{}, { fromStart: true }]) {
      const game = ai.newGame({ randomizer: 'bag7', ...options });
      game.nextMove(first);
      // The first bag dealt T and Z: the next piece is one of the other five.
      expect(game.status).toMatchObject({ knowledge: 'exact', pieces: 2 });
      expect(game.status.chances).toEqual([0.2, 0.2, 0, 0.2, 0, 0.2, 0.2]);
    }
    const joined = ai.newGame({ randomizer: 'bag7', fromStart: false });
    joined.nextMove(first);
    // Under way, T and Z may be a bag's last pieces, so the next bag may deal either again.
    expect(joined.status).toMatchObject({ knowledge: 'mixture', pieces: 2, resyncs: 0 });
    const [, , t, , z] = joined.status.chances;
    expect(t).toBeGreaterThan(0);
    expect(z).toBeGreaterThan(0);
    expect(joined.status.chances.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('a piece in the hold box on the first turn: the game is under way', () => {
    const game = ai.newGame({ randomizer: 'bag7' });
    game.nextMove({ board: empty, current: 'T', queue: 'Z', hold: 'O' });
    // From the start, a bag would hold O T Z; under way, T and Z may come from two bags.
    expect(game.status).toMatchObject({ knowledge: 'mixture', pieces: 2 });
    expect(game.status.chances[1]).toBeGreaterThan(0);
  });

  it('refuses next, unknown options, bad randomizers and parameters, at the edge', () => {
    const game = ai.newGame({ randomizer: 'tgm1' });
    expect(() => game.nextMove({ board: empty, current: 'T', next: new Array(7).fill(1 / 7) } as never)).toThrow(
      refused('BAD_ARGUMENT', /^a session infers the next piece's chances from the game: give next to ai\.nextMove/),
    );
    expect(() => ai.newGame({ randomiser: 'tgm1' } as never)).toThrow(
      refused('BAD_ARGUMENT', /^newGame: unknown option "randomiser"; options are randomizer, /),
    );
    expect(() => ai.newGame({ randomizer: 'bag8' as never })).toThrow(
      refused('BAD_ARGUMENT', /^unknown randomizer "bag8"; randomizers are .* or 'unknown'$/),
    );
    expect(() => ai.newGame({ randomizer: 'tgm1', denominator: 2 })).toThrow(
      refused('BAD_ARGUMENT', /^tgm1 has no parameter "denominator"/),
    );
    expect(() => ai.newGame({ randomizer: 'decay', denominator: 0.5 })).toThrow(
      refused('BAD_ARGUMENT', /^decay: denominator must be a number from 1 to .*; got 0\.5$/),
    );
    expect(() => ai.newGame({ fromStart: 'yes' as never })).toThrow(
      refused('BAD_ARGUMENT', /^fromStart must be true or false; got "yes"$/),
    );
    expect(() => game.nextMove({ board: empty, current: 'X' })).toThrow(
      refused('BAD_PIECE', /^current must be a letter of I O T S Z L J or an id 0\.\.6; got "X"$/),
    );
    // A refused turn changes nothing.
    expect(game.status.turns).toBe(0);
  });
});
