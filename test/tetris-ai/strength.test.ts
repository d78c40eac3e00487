/**
 * Strength levels and time budgets (docs/game.md, "Strength" and "Time budget"). Level 10 is the AI's own play to
 * the bit; a weaker level's moves are legal, reproducible for a seed on any thread count, and differ with the seed.
 * A budget large enough plays the full search's move; a budget of 0 plays the cheapest step's, which is the move of
 * an AI made with no lookahead and a one-piece recover search. A slip (a weaker level settling for another move) is
 * one of the eight best moves, never one that tops out while the AI's own does not, and a costly one more rarely the
 * colder the level: a weaker player's mistake, not a random move.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import type { GameMove } from '../../src/tetris-ai/decision.js';
import { searchLadder } from '../../src/tetris-ai/budget.js';
import { playGame } from '../../src/tetris-ai/play.js';
import { playOneGame, type PlayedTurn } from '../../src/tetris-ai/game-simulator.js';
import { STRENGTH_PROFILES, slipChoice, type SlipCandidate } from '../../src/tetris-ai/strength.js';
import { Rng } from '../../src/random.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { cellsKey } from '../../src/tetris-ai/grid.js';

let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

const board = (rows: Uint32Array) => ({ width: 10, rows: rows.subarray(0, 20) });
const AI = { rules: 'guideline', randomizer: 'bag7', lookahead: 1 } as const;
const RUN = { ...AI, hold: true } as const;

async function turnsOf(ai: TetrisAI, seed: number, pieces = 200): Promise<PlayedTurn[]> {
  const turns: PlayedTurn[] = [];
  await playOneGame(
    ai,
    0,
    { randomizer: RUN.randomizer, lookahead: ai.lookahead, hold: RUN.hold, maxPieces: pieces, seed },
    { onTurn: (t) => turns.push(t) },
  );
  return turns;
}

const moveKey = (m: GameMove | null) => (m ? `${m.hold ? 'h' : '-'}${m.piece}${cellsKey(m.cells)}` : 'none');

/** The state a game showed the AI before a played turn. */
const stateOf = (t: PlayedTurn) => ({
  board: board(t.before),
  current: t.current,
  queue: t.queue,
  hold: t.hold,
  canHold: true,
  combo: t.combo,
  backToBack: t.backToBack,
});

describe('strength', () => {
  it('level 10 (the default) plays the AI’s own moves, whatever the seed', async () => {
    const own = await TetrisAI.create({ ...AI, table });
    const ten = await TetrisAI.create({ ...AI, table, strength: 10, seed: 99 });
    for (const t of await turnsOf(own, 3)) {
      const state = stateOf(t);
      expect(ten.nextMove(state)).toEqual(own.nextMove(state));
      expect(ten.newGame().nextMove(state)).toEqual(own.newGame().nextMove(state));
    }
  }, 60_000);

  it('a weaker level: legal moves, the same for a seed, other moves for another seed, some of them slips', async () => {
    const level3 = await TetrisAI.create({ ...AI, table, strength: 3, seed: 1 });
    const again = await TetrisAI.create({ ...AI, table, strength: 3, seed: 1 });
    const other = await TetrisAI.create({ ...AI, table, strength: 3, seed: 2 });
    const own = await TetrisAI.create({ ...AI, table, lookahead: 0 });
    const turns = await turnsOf(level3, 4);
    let differs = 0;
    let notOwn = 0;
    for (const t of turns) {
      const state = stateOf(t);
      expect(again.nextMove(state)).toEqual(t.move);
      if (moveKey(other.nextMove(state)) !== moveKey(t.move)) differs++;
      // Every move is one the rules reach for the piece the turn allows (rankPlacements lists them all).
      const listed = level3.rankPlacements(state).placements.map(moveKey);
      expect(listed).toContain(moveKey(t.move));
      if (moveKey(own.nextMove(state)) !== moveKey(t.move)) notOwn++;
    }
    expect(differs).toBeGreaterThan(5);
    expect(notOwn).toBeGreaterThan(5);
  }, 120_000);

  it('playGame at a level: the same games on 1 and 2 threads; a given ai must be at that level', async () => {
    const run = { ...RUN, games: 2, maxPieces: 150, seed: 6, strength: 4, table };
    const one = await playGame({ ...run, threads: 1 });
    const two = await playGame({ ...run, threads: 2 });
    expect(two.tallies).toEqual(one.tallies);
    const ten = await playGame({ ...run, strength: 10, threads: 1 });
    expect(ten.tallies).not.toEqual(one.tallies);
    const ai = await TetrisAI.create({ ...AI, table, strength: 5 });
    await expect(playGame({ ...run, ai })).rejects.toThrow(/strength 5; these games ask for 4/);
  }, 120_000);

  it('levels weaken step by step: no profile looks further, trusts more or recovers wider than the one above', () => {
    for (let i = 1; i < STRENGTH_PROFILES.length; i++) {
      const [lower, upper] = [STRENGTH_PROFILES[i - 1], STRENGTH_PROFILES[i]];
      expect(upper.lookahead).toBeGreaterThanOrEqual(lower.lookahead);
      expect(upper.roomLess).toBeLessThanOrEqual(lower.roomLess);
      expect(upper.recover.depth).toBeGreaterThanOrEqual(lower.recover.depth);
      expect(upper.recover.beam).toBeGreaterThanOrEqual(lower.recover.beam);
      expect(upper.holdMissed).toBeLessThanOrEqual(lower.holdMissed);
      expect(upper.slip).toBeLessThanOrEqual(lower.slip);
      expect(upper.temperature).toBeLessThanOrEqual(lower.temperature);
      expect(Number(upper.chances)).toBeGreaterThanOrEqual(Number(lower.chances));
    }
  });

  it('refuses a strength outside 1..10 and a seed that is not a safe integer', async () => {
    for (const strength of [0, 11, 2.5, '5'])
      await expect(TetrisAI.create({ table, strength: strength as number })).rejects.toThrow(
        /strength must be an integer from 1 to 10/,
      );
    await expect(TetrisAI.create({ table, seed: 0.5 })).rejects.toThrow(/seed must be a safe integer/);
    await expect(playGame({ ...RUN, table, strength: 0 })).rejects.toThrow(/strength/);
  });
});

describe('time budget', () => {
  it('a budget large enough plays the full search’s move; a budget of 0 the cheapest step’s', async () => {
    let recover = 0;
    for (const { rules, randomizer, lookahead } of [
      { rules: 'classic', randomizer: 'tgm1', lookahead: 1 },
      { rules: 'guideline', randomizer: 'bag7', lookahead: 3 },
    ] as const) {
      const ai = await TetrisAI.create({ rules, randomizer, lookahead, table });
      // The ladder's first step: no lookahead, a one-piece recover search without the chance ply.
      const cheapest = await TetrisAI.create({
        rules,
        randomizer,
        lookahead: 0,
        recover: { depth: 1, chance: 0 },
        table,
      });
      const hold = ai.rules.hold;
      const turns: PlayedTurn[] = [];
      await playOneGame(
        ai,
        0,
        { randomizer, lookahead, hold, maxPieces: 250, seed: 5 },
        { onTurn: (t) => turns.push(t) },
      );
      for (const t of turns) {
        const state = { board: board(t.before), current: t.current, queue: t.queue, hold: t.hold, canHold: hold };
        const full = ai.nextMove(state);
        expect(ai.nextMove(state, { budgetMs: 1e9 })).toEqual(full);
        expect(ai.nextMove(state, { budgetMs: 0 })).toEqual(cheapest.nextMove(state));
        if (full?.mode === 'recover') recover++;
      }
    }
    expect(recover).toBeGreaterThan(0);
  }, 120_000);

  it('the ladder deepens one piece at a time and ends with the full settings', () => {
    const full = {
      lookahead: 3,
      recoverDepth: 2,
      search: { beam: 4, chance: 3 },
      nearTop: { rows: 4, beam: 12, chance: 12 },
    };
    expect(searchLadder(full).map((s) => [s.lookahead, s.recoverDepth, s.search.chance, s.nearTop !== null])).toEqual([
      [0, 1, 0, false],
      [1, 2, 0, false],
      [2, 2, 0, false],
      [3, 2, 0, false],
      [3, 2, 3, true],
    ]);
    const plain = { lookahead: 0, recoverDepth: 1, search: { beam: 12, chance: 0 }, nearTop: null };
    expect(searchLadder(plain)).toEqual([plain]);
  });

  it('refuses a budget that is not a finite number of milliseconds ≥ 0, and unknown move options', async () => {
    const ai = await TetrisAI.create({ rules: 'classic', table });
    const state = { board: [] as string[], current: 'T' };
    for (const budgetMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5'])
      expect(() => ai.nextMove(state, { budgetMs: budgetMs as number })).toThrow(/budgetMs must be a finite number/);
    expect(() => ai.nextMove(state, { budget: 5 } as never)).toThrow(/budget/);
    expect(() => ai.newGame().nextMove(state, { budgetMs: -1 })).toThrow(/budgetMs/);
  });
});

describe('a slip settles for a nearly-best move, not a random one', () => {
  const candidates = fc.array(
    fc.record({ value: fc.double({ min: -1000, max: 1000, noNaN: true }), topsOut: fc.boolean() }),
    { minLength: 2, maxLength: 40 },
  );
  /** The indices of the eight best candidates by value (the first listed first among equals). */
  const bestEight = (cs: readonly SlipCandidate[], allowTopOut: boolean) =>
    cs
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => allowTopOut || !c.topsOut)
      .sort((a, b) => b.c.value - a.c.value || a.i - b.i)
      .slice(0, 8)
      .map(({ i }) => i);

  it('one of the eight best; none that tops out unless the own move does; the same choice for the same seed', () => {
    fc.assert(
      fc.property(
        candidates,
        fc.constantFrom('stack', 'recover'),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (cs, mode, temperature, seed) => {
          const k = slipChoice(cs, mode as 'stack' | 'recover', temperature, new Rng(seed));
          expect(bestEight(cs, cs[0].topsOut)).toContain(k);
          if (!cs[0].topsOut) expect(cs[k].topsOut).toBe(false);
          expect(slipChoice(cs, mode as 'stack' | 'recover', temperature, new Rng(seed))).toBe(k);
        },
      ),
      { seed: 53, numRuns: 300 },
    );
  });

  it('a costly move is rarely chosen, and more rarely at a lower temperature', () => {
    // The own move 0, a near one (1 point of 100) and a costly one (50 points): recover mode's unit is 100 points.
    const cs: SlipCandidate[] = [
      { value: 0, topsOut: false },
      { value: -1, topsOut: false },
      { value: -50, topsOut: false },
    ];
    const counts = (temperature: number) => {
      const rng = new Rng(7);
      const n = [0, 0, 0];
      for (let i = 0; i < 4000; i++) n[slipChoice(cs, 'recover', temperature, rng)]++;
      return n;
    };
    const warm = counts(1);
    const cold = counts(0.1);
    // Weights exp(-loss / 100 / T): at T = 1 about 0.38 / 0.38 / 0.23; at T = 0.1 about 0.52 / 0.47 / 0.003.
    expect(warm[2] / 4000).toBeGreaterThan(0.18);
    expect(warm[2] / 4000).toBeLessThan(0.28);
    expect(cold[2]).toBeLessThan(40);
    expect(cold[0] + cold[1]).toBeGreaterThan(3900);
  });
});
