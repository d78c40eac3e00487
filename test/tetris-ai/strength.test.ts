/**
 * Strength levels and time budgets (docs/game.md, "Strength" and "Time budget"). Level 10 is the AI's own play to
 * the bit; a weaker level's moves are legal, reproducible for a seed on any thread count, and differ with the seed.
 * A budget large enough plays the full search's move; a budget of 0 plays the cheapest step's, which is the move of
 * an AI made with no lookahead and a one-piece recover search. A slip (a weaker level settling for another move) is
 * one of the eight best moves, never one that tops out while the AI's own does not, and a costly one more rarely the
 * colder the level: a weaker player's mistake, not a random move.
 */
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import type { GameMove } from '../../src/tetris-ai/decision.js';
import { deepening, searchLadder } from '../../src/tetris-ai/budget.js';
import type { Decision, SearchSettings } from '../../src/tetris-ai/decision.js';
import { playGame } from '../../src/tetris-ai/play.js';
import { playOneGame, type PlayedTurn } from '../../src/tetris-ai/game-simulator.js';
import { STRENGTH_PROFILES, slipChoice, weakerRoom, type SlipCandidate } from '../../src/tetris-ai/strength.js';
import { Rng } from '../../src/random.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { cellsKey } from '../../src/tetris-ai/grid.js';
import { refused } from '../helpers/refused.js';

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

/** A StackRankError with this code and a message matching `message` (toMatchObject / objectContaining). */
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

/**
 * A level-10 AI with the search a level 1 or 2 plays under guideline/bag7 (STRENGTH_PROFILES): no lookahead, a
 * one-piece recover search of one line without the chance ply, and the stack room the level misjudges (the
 * guideline's 4 rows, less 4 or 3, at least 2). A weak level's move without a mistake is this AI's move.
 */
const OWN_SEARCH_OF_LEVEL_1_2 = { lookahead: 0, stackRoom: 2, recover: { depth: 1, beam: 1, chance: 0 } } as const;

/** Makes performance.now() read `clock()` (the budget's and the slips' clock) until the test ends. */
function fakeClock(clock: () => number) {
  vi.spyOn(performance, 'now').mockImplementation(clock);
}
afterEach(() => {
  vi.restoreAllMocks();
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

  it('a slip happens in play: a move that is neither the level’s own best nor level 10’s, one of the best eight', async () => {
    const level1 = await TetrisAI.create({ ...AI, table, strength: 1, seed: 3 });
    const own = await TetrisAI.create({ ...AI, ...OWN_SEARCH_OF_LEVEL_1_2, table });
    const ten = await TetrisAI.create({ ...AI, table });
    let slips = 0;
    for (const t of (await turnsOf(level1, 8, 120)).slice(0, 60)) {
      // Without hold the level forgets nothing: a move other than its own search's is a slip.
      const state = { ...stateOf(t), canHold: false };
      const move = moveKey(level1.nextMove(state));
      if (move === moveKey(own.nextMove(state)) || move === moveKey(ten.nextMove(state))) continue;
      slips++;
      expect(level1.rankPlacements(state, { limit: 8 }).placements.map(moveKey)).toContain(move);
    }
    // Level 1 slips on 65 % of turns, often to another move than its own.
    expect(slips).toBeGreaterThan(5);
  }, 60_000);

  it('a weak level forgets hold now and then: its own search’s move without hold where that one holds', async () => {
    const level2 = await TetrisAI.create({ ...AI, table, strength: 2, seed: 5 });
    const own = await TetrisAI.create({ ...AI, ...OWN_SEARCH_OF_LEVEL_1_2, table });
    // Each call's clock runs on, so the budget (0 ms, which the level's one-step search keeps to) is spent before a
    // slip and every slip is skipped: the move is the level's own search's, with or without hold.
    let now = 0;
    fakeClock(() => now++);
    let holdAvailable = 0;
    let forgot = 0;
    for (const t of await turnsOf(level2, 4, 150)) {
      const state = stateOf(t);
      const withHold = own.nextMove(state);
      const withoutHold = own.nextMove({ ...state, canHold: false });
      const move = level2.nextMove(state, { budgetMs: 0 });
      expect([moveKey(withHold), moveKey(withoutHold)]).toContain(moveKey(move));
      if (!withHold?.hold) continue;
      holdAvailable++;
      if (!move?.hold) forgot++;
    }
    // Level 2 forgets hold on 40 % of turns.
    expect(holdAvailable).toBeGreaterThan(10);
    expect(forgot).toBeGreaterThan(0);
    expect(forgot).toBeLessThan(holdAvailable);
  }, 60_000);

  it('a session’s turn seeds the choices too: one position asked on later turns may play other moves', async () => {
    const ai = await TetrisAI.create({ ...AI, table, strength: 3 });
    const turns = await turnsOf(ai, 2, 40);
    const states = [10, 20, 30].map((i) => stateOf(turns[i]));
    let differs = 0;
    for (const state of states) {
      // The same turn asked again (the same board, hold and pieces) adds nothing to what the session knows, but it
      // is the session's next turn.
      const game = ai.newGame();
      const asked = Array.from({ length: 6 }, () => moveKey(game.nextMove(state)));
      expect(game.status).toMatchObject({ turns: 6, resyncs: 0 });
      // Turn 0 is nextMove's move (the same seed and position); a fresh session fed the same turns plays them again.
      expect(asked[0]).toBe(moveKey(ai.nextMove(state)));
      const again = ai.newGame();
      expect(asked.map(() => moveKey(again.nextMove(state)))).toEqual(asked);
      if (new Set(asked).size > 1) differs++;
    }
    expect(differs).toBeGreaterThan(0);
  }, 60_000);

  it('weakerRoom: the AI’s own room less the level’s, kept within 2..12 rows; level 10 keeps it', () => {
    const [level1, level2, , level4, , , level7] = STRENGTH_PROFILES;
    expect(weakerRoom(8, level1)).toBe(4);
    expect(weakerRoom(6, level1)).toBe(2);
    expect(weakerRoom(4, level1)).toBe(2);
    expect(weakerRoom(6, level2)).toBe(3);
    expect(weakerRoom(2, level2)).toBe(2);
    expect(weakerRoom(8, level4)).toBe(7);
    expect(weakerRoom(12, level7)).toBe(12);
    expect(weakerRoom(13, level7)).toBe(12);
    expect(weakerRoom(6, null)).toBe(6);
    expect(weakerRoom(13, null)).toBe(13);
  });

  it('playGame at a level: the same games on 1 and 2 threads; a given ai must be at that level', async () => {
    const run = { ...RUN, games: 2, maxPieces: 150, seed: 6, strength: 4, table };
    const one = await playGame({ ...run, threads: 1 });
    const two = await playGame({ ...run, threads: 2 });
    expect(two.tallies).toEqual(one.tallies);
    const ten = await playGame({ ...run, strength: 10, threads: 1 });
    expect(ten.tallies).not.toEqual(one.tallies);
    const ai = await TetrisAI.create({ ...AI, table, strength: 5 });
    await expect(playGame({ ...run, ai })).rejects.toMatchObject(
      refused('BAD_ARGUMENT', /^the given ai plays at strength 5; these games ask for 4$/),
    );
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
      await expect(TetrisAI.create({ table, strength: strength as number })).rejects.toMatchObject(
        refused('BAD_ARGUMENT', /^strength must be an integer from 1 to 10; got /),
      );
    for (const seed of [0.5, 2 ** 53, '1'])
      await expect(TetrisAI.create({ table, seed: seed as number })).rejects.toMatchObject(
        refused('BAD_ARGUMENT', /^seed must be a safe integer; got /),
      );
    await expect(playGame({ ...RUN, table, strength: 0 })).rejects.toMatchObject(
      refused('BAD_ARGUMENT', /^strength must be an integer from 1 to 10; got 0$/),
    );
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

  it('a weaker level settles for a nearly-best move only while less than half the budget is spent', async () => {
    const level1 = await TetrisAI.create({ ...AI, table, strength: 1, seed: 3 });
    const own = await TetrisAI.create({ ...AI, ...OWN_SEARCH_OF_LEVEL_1_2, table });
    // Without hold (nothing to forget) the level's move is its own search's unless it slips.
    const states = (await turnsOf(level1, 8, 60)).map((t) => ({ ...stateOf(t), canHold: false }));
    const unbudgeted = states.map((s) => moveKey(level1.nextMove(s)));
    const ownMoves = states.map((s) => moveKey(own.nextMove(s)));
    expect(unbudgeted.filter((m, i) => m !== ownMoves[i]).length).toBeGreaterThan(5);
    // A clock that stands still: no time is spent, so the level slips as it does without a budget (its search is one
    // step, the whole ladder).
    let now = 1000;
    fakeClock(() => now);
    expect(states.map((s) => moveKey(level1.nextMove(s, { budgetMs: 10 })))).toEqual(unbudgeted);
    // A clock that runs 3 ms a reading: more than 5 of the 10 ms are spent by the time the search is done.
    fakeClock(() => (now += 3));
    expect(states.map((s) => moveKey(level1.nextMove(s, { budgetMs: 10 })))).toEqual(ownMoves);
  }, 60_000);

  it('deepening starts a step only while the time spent plus its expected cost stays within the budget', () => {
    // Four steps (lookahead 0..3); each fake step costs its time on a fake clock and says which step it was.
    const full: SearchSettings = { lookahead: 3, recoverDepth: 2, search: { beam: 4, chance: 0 }, nearTop: null };
    expect(searchLadder(full)).toHaveLength(4);
    const run = (costs: readonly number[], budgetMs: number) => {
      let now = 0;
      fakeClock(() => now);
      const ran: number[] = [];
      const d = deepening(full, budgetMs, (settings) => {
        const step = settings.lookahead;
        ran.push(step);
        now += costs[step];
        return { step } as unknown as Decision;
      });
      expect((d as unknown as { step: number }).step).toBe(ran.at(-1));
      return ran;
    };
    // Step 1 is expected to cost 5 times step 0 (1 + 1 * 5 = 6 <= 10); step 2 the last growth (5 / 1) times step 1's
    // 5 ms, 6 + 25 > 10: stop after step 1.
    expect(run([1, 5, 20, 20], 10)).toEqual([0, 1]);
    // Exactly at the budget still runs: 1 + 1 * 5 = 6.
    expect(run([1, 5, 20, 20], 6)).toEqual([0, 1]);
    expect(run([1, 5, 20, 20], 5.99)).toEqual([0]);
    // Steps doubling in cost: each is expected at twice the last (3 + 2 * 2 = 7 <= 10; then 7 + 4 * 2 = 15).
    expect(run([1, 2, 4, 8], 10)).toEqual([0, 1, 2]);
    expect(run([1, 2, 4, 8], 15)).toEqual([0, 1, 2, 3]);
    expect(run([1, 2, 4, 8], 14.99)).toEqual([0, 1, 2]);
    // The cheapest step always runs; a budget large enough runs them all.
    expect(run([1, 1, 1, 1], 0)).toEqual([0]);
    expect(run([1, 5, 20, 80], 1e9)).toEqual([0, 1, 2, 3]);
  });

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
    const budgetRefused = refused('BAD_ARGUMENT', /^budgetMs must be a finite number of milliseconds, 0 or more; got /);
    for (const budgetMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5'])
      expect(() => ai.nextMove(state, { budgetMs: budgetMs as number })).toThrow(budgetRefused);
    expect(() => ai.nextMove(state, { budget: 5 } as never)).toThrow(
      refused('BAD_ARGUMENT', /^nextMove: unknown option "budget"; options are budgetMs$/),
    );
    expect(() => ai.newGame().nextMove(state, { budgetMs: -1 })).toThrow(budgetRefused);
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
