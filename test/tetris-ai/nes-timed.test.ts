/**
 * TetrisAI under a timed NES rule set (docs/game.md, "NES Tetris: the competition format"): every move it answers
 * is one the frames allow at the turn's level and timeline, its frame inputs replayed by the independent
 * reference (test/reference/timed-reference.ts) onto its cells, on random positions (a fast-check property); NES
 * games of playGame replayed move by move, their score and levels computed again by hand from the clears.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { maxHeight, rowStrings } from '../../src/board-rows.js';
import { PLAY_OUTS } from '../../src/tetris-ai/play-outs.js';
import { playGame } from '../../src/tetris-ai/play.js';
import { playOneGame, type PlayedTurn } from '../../src/tetris-ai/game-simulator.js';
import { PIECES, type Piece } from '../../src/pieces.js';
import type { GameMove, SearchSettings } from '../../src/tetris-ai/decision.js';
import { RECOVER_SEARCH } from '../../src/tetris-ai/policy.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';
import { StackRankError } from '../../src/errors.js';
import {
  FLOOR_RECOVER_WEIGHTS,
  NES_RECOVER_WEIGHTS,
  PLAIN_BCTS_WEIGHTS,
  RECOVER_WEIGHTS,
} from '../../src/tetris-ai/evaluate.js';
import {
  HANDOVER_LINES,
  burnsRows,
  droughtChance,
  piecesUnder,
  recoversWide,
  stackSearchSetup,
  timedPlay,
  wellReachHeight,
} from '../../src/tetris-ai/policy.js';
import { factsAtLevel, ruleFacts } from '../../src/tetris-ai/rules-adapter.js';
import { nesTiming, reactionFall, waitsOutReaction } from '../../src/rules/timing.js';
import { timedRefBoard, timedRefReplay } from '../reference/timed-reference.js';
import { referenceChildren, referenceIndexTruncated } from '../reference/search-reference.js';
import { boardRows } from '../helpers/board-from-heights.js';

let table: RankTable;
beforeAll(async () => {
  // A weak table (3 iterations): its stack fails often, so moves come from recover mode too.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);

const TIMELINES = ['X.', 'X..', 'X...', 'X....', 'X.....', 'das', 'dasCharged'] as const;

/** Every answer's frame inputs replay through the independent reference (tapping at 30 Hz) to its cells. */
function expectReplays(rows: Uint32Array, current: Piece, level: number, answers: (GameMove | null)[]): void {
  const board = timedRefBoard(rowStrings(rows, 10, 20));
  for (const m of answers)
    expect(timedRefReplay(board, current, { level, timeline: 'X.' }, m!.inputs as string[])).toMatchObject({
      cells: m!.cells,
    });
}

describe('TetrisAI under a timed NES rule set', () => {
  it('never answers a placement its frames do not allow (random positions, levels and timelines)', async () => {
    const ais = new Map<string, TetrisAI>();
    for (const timeline of TIMELINES)
      ais.set(timeline, await TetrisAI.create({ rules: { ...RULE_SETS.nes, timeline }, lookahead: 1, table }));
    let moves = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 10, maxLength: 10 }),
        fc.array(fc.integer({ min: -1, max: 12 }), { minLength: 10, maxLength: 10 }),
        fc.constantFrom(...TIMELINES),
        fc.constantFrom(8, 18, 19, 28, 29, 35, 39, 45),
        fc.constantFrom(...PIECES),
        fc.constantFrom(...PIECES),
        (heights, holes, timeline, level, current, next) => {
          const rows = boardRows(heights, holes);
          const ai = ais.get(timeline)!;
          const move = ai.nextMove({ board: rows, current, queue: [next], level });
          if (!move) return;
          moves++;
          const replay = timedRefReplay(timedRefBoard(rows), current, { level, timeline }, move.inputs as string[]);
          expect(
            replay,
            `${timeline} level ${level} ${current}: ${move.inputs.join(' ')}\n${rows.join('\n')}`,
          ).toMatchObject({
            cells: move.cells,
          });
        },
      ),
      { numRuns: Number(process.env.NES_AI_RUNS ?? 120), seed: 52 },
    );
    expect(moves).toBeGreaterThan(50);
  }, 300_000);

  it('takes a preset or a rule set based on one; a level only under time', async () => {
    const code = async (f: () => unknown) => {
      try {
        await f();
      } catch (e) {
        return e instanceof StackRankError ? e.code : 'other';
      }
      return 'none';
    };
    expect(await code(() => TetrisAI.create({ rules: { ...RULE_SETS.nes, previews: 5 }, table }))).toBe('BAD_RULES');
    expect(await code(() => TetrisAI.create({ rules: { ...RULE_SETS.nes, name: 'mine' }, table }))).toBe('BAD_RULES');
    expect(await code(() => TetrisAI.create({ rules: { ...RULE_SETS.nes, level: -1 }, table }))).toBe('BAD_RULES');
    const untimed = await TetrisAI.create({ rules: 'nesUntimed', table });
    expect(
      await code(() => untimed.nextMove({ board: boardRows(Array(10).fill(0), []), current: 'T', level: 18 })),
    ).toBe('BAD_ARGUMENT');
    const timed = await TetrisAI.create({ rules: { ...RULE_SETS.nesUntimed, ...pickTime(RULE_SETS.nes) }, table });
    expect(timed.rules.name).toBe('nesUntimed');
    expect(
      await code(() => timed.nextMove({ board: boardRows(Array(10).fill(0), []), current: 'T', level: 256 })),
    ).toBe('BAD_ARGUMENT');
  });
});

describe("the game's lines count (GameState.lines)", () => {
  const empty = boardRows(Array(10).fill(0), []);
  const error = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof StackRankError ? `${e.code}: ${e.message}` : `other: ${String(e)}`;
    }
    return 'none';
  };

  it('is a non-negative integer, under a timed rule set only, that an NES game shows at the level', async () => {
    const ai = await TetrisAI.create({ rules: 'nes', lookahead: 1, table });
    const at = (lines: unknown, level?: number) =>
      error(() => ai.nextMove({ board: empty, current: 'T', lines: lines as number, level }));
    for (const bad of [-1, 1.5, '10', true, Number.NaN, Infinity, 2 ** 53])
      expect(at(bad)).toMatch(
        /^BAD_ARGUMENT: lines must be an integer from 0 to Number.MAX_SAFE_INTEGER \(the game's LINES counter/,
      );
    expect(at(null)).toMatch(/^BAD_ARGUMENT: nextMove: lines is null; leave it out/);
    expect(at(0)).toBe('none');
    expect(at(129)).toBe('none');
    // the rule set's level (18) unless the state gives one: from start 0 a game leaves 18 at 190 lines
    expect(at(189)).toBe('none');
    expect(at(190)).toBe(
      "BAD_ARGUMENT: lines 190 at level 18 is no NES game's count: a game from any start level 0–31 is at level 18 from 0 to 189 lines (give the LINES counter, lines cleared since the game began, or leave lines out where levels do not follow NES's level-ups)",
    );
    expect(at(325, 38)).toBe('none');
    // a count of the level's own lines is refused where no game shows it
    expect(at(5, 38)).toMatch(/^BAD_ARGUMENT: lines 5 at level 38 is no NES game's count: .* from 260 to 389 lines/);
    const untimed = await TetrisAI.create({ rules: 'nesUntimed', table });
    expect(error(() => untimed.nextMove({ board: empty, current: 'T', lines: 10 }))).toMatch(
      /^BAD_ARGUMENT: lines is a timed rule set's \(nes\), read with the level; the nesUntimed rule set has no time/,
    );
    // sessions and rankPlacements check it as nextMove does
    expect(error(() => ai.newGame().nextMove({ board: empty, current: 'T', lines: -3 }))).toMatch(
      /^BAD_ARGUMENT: lines must/,
    );
    expect(error(() => ai.rankPlacements({ board: empty, current: 'T', lines: 1.5 }))).toMatch(
      /^BAD_ARGUMENT: lines must/,
    );
  });
});

function pickTime(r: typeof RULE_SETS.nes) {
  return { timing: r.timing, level: r.level, timeline: r.timeline, reaction: r.reaction };
}

describe('the well and the stack limit by level', () => {
  const facts = ruleFacts('nes');
  const { limits } = stackSearchSetup(facts, 'nes', 'both');
  const at = (level: number, well: 'auto' | 'right' | 'left', timeline = 'X.') => {
    const f = factsAtLevel(ruleFacts({ ...RULE_SETS.nes, timeline }), level);
    const play = timedPlay(limits, f, 10, well);
    return { sides: play.sides.join('+'), limit: play.limits.tetrisReady.boardHeight };
  };

  it('keeps the well on each side the I reaches within 2 rows of the best; the stack 2 rows under the best reach and 1 under every kept side', () => {
    // X.: the I reaches the right well from 16 / 15 / 12 / 6 rows at 18 / 19–28 / 29–38 / 39+, the left from
    // 16 / 14 / 10 / 2; the untimed limit is 12 rows, and no limit is under 4.
    // At 38 the well is already where level 39 keeps it (below), the limit still 38's own.
    expect([18, 28, 29, 37, 38, 39, 45].map((l) => at(l, 'auto'))).toEqual([
      { sides: 'right+left', limit: 12 },
      { sides: 'right+left', limit: 12 },
      { sides: 'right+left', limit: 9 },
      { sides: 'right+left', limit: 9 },
      { sides: 'right', limit: 9 },
      { sides: 'right', limit: 4 },
      { sides: 'right', limit: 4 },
    ]);
    expect([18, 29, 39].map((l) => at(l, 'right'))).toEqual([
      { sides: 'right', limit: 12 },
      { sides: 'right', limit: 10 },
      { sides: 'right', limit: 4 },
    ]);
    // a side the caller chose stays, with the limit from its own reach
    expect([18, 29, 39].map((l) => at(l, 'left'))).toEqual([
      { sides: 'left', limit: 12 },
      { sides: 'left', limit: 8 },
      { sides: 'left', limit: 4 },
    ]);
    // X....: right 13 / left 12 at 18, right 11 / left 8 at 19
    expect([18, 19].map((l) => at(l, 'auto', 'X....'))).toEqual([
      { sides: 'right+left', limit: 11 },
      { sides: 'right', limit: 9 },
    ]);
  });

  it('weighs an I drought where the piece locks before the next one is known (level 29 on)', () => {
    const drought = (level: number) => timedPlay(limits, factsAtLevel(facts, level), 10, 'auto').droughtReach;
    expect([18, 28, 29, 38, 39].map(drought)).toEqual([
      null,
      null,
      { right: 12, left: 10 },
      { right: 12 },
      { right: 6 },
    ]);
  });

  it('keeps the well a level ahead only where the piece locks before the next one is known', () => {
    // X....: the left well's reach falls under the right's at 19 (above), but at 18 the piece waits out the
    // reaction: both sides stay there.
    expect([18, 28].map((l) => at(l, 'auto', 'X....').sides)).toEqual(['right+left', 'right']);
    // a side the caller chose stays at every level, before the double killscreen too
    expect([38, 39].map((l) => at(l, 'left').sides)).toEqual(['left', 'left']);
  });

  it("plays BCTS's weights in recover mode where the limit is at its floor of 4 rows", () => {
    const atFloor = (level: number, timeline = 'X.') =>
      timedPlay(limits, factsAtLevel(ruleFacts({ ...RULE_SETS.nes, timeline }), level), 10, 'auto').atFloor;
    expect([18, 29, 38, 39, 45].map((l) => atFloor(l))).toEqual([false, false, false, true, true]);
    // X....: the limit is 4 rows from 29
    expect([28, 29].map((l) => atFloor(l, 'X....'))).toEqual([false, true]);
  });

  it("over the last lines of the level before the floor, lowers the limit to the next level's best reach", () => {
    const handover = (level: number, timeline = 'X.') =>
      timedPlay(limits, factsAtLevel(ruleFacts({ ...RULE_SETS.nes, timeline }), level), 10, 'auto').handover;
    // X.: the limit 9 at 38, 4 from 39, where the right well's reach is 6
    expect(handover(38)).toEqual({
      tetrisReady: { ...limits.tetrisReady, boardHeight: 6 },
      building: { ...limits.building, boardHeight: 6 },
    });
    expect([18, 29, 37, 39, 45].map((l) => handover(l))).toEqual([null, null, null, null, null]);
    // X...: the floor from 29, where the right well's reach is 6: at 28
    expect(handover(28, 'X...')?.tetrisReady.boardHeight).toBe(6);
    expect([27, 29].map((l) => handover(l, 'X...'))).toEqual([null, null]);
    // none where the next level's best reach is at or under the floor of 4 rows (X....: 3 at 29; X..: 0 at 39)
    expect([28, 29].map((l) => handover(l, 'X....'))).toEqual([null, null]);
    expect([37, 38].map((l) => handover(l, 'X..'))).toEqual([null, null]);
    expect(HANDOVER_LINES).toBe(5);
  });

  it("at level 38 plays a 7-row stack as tall over the last 5 lines of the game's count, and stacks on it before them", async () => {
    const ai = await TetrisAI.create({ rules: 'nes', lookahead: 1, table });
    // a clean stack of 7 rows, a notch in column 1, the right well open: under 38's limit of 9, tall for 6
    const board = boardRows([7, 6, 7, 7, 7, 7, 7, 7, 7, 0], []);
    const move = (level: number, lines?: number) =>
      ai.nextMove({ board, current: 'T', queue: 'T', level, ...(lines === undefined ? {} : { lines }) })!;
    // the T on the stack's top (its lowest cell on row 7), the notch left for later
    const stacked = move(38);
    expect(stacked.mode).toBe('stack');
    expect(Math.min(...stacked.cells.map(([, y]) => y))).toBe(7);
    // the last lines: recover mode fills the notch (the T's stem in it, its bar on the stack's top row)
    const filled = [
      [1, 6],
      [0, 7],
      [1, 7],
      [2, 7],
    ];
    // level 38 is lines 320–329 from start 18 (the level-up to 39 at 330) and 290–299 from start 29 (at 300)
    for (const lines of [325, 326, 327, 328, 329, 295, 299]) {
      const m = move(38, lines);
      expect({ lines, mode: m.mode, cells: m.cells }).toEqual({ lines, mode: 'recover', cells: filled });
    }
    // before the last 5 lines, and at other levels, the count changes nothing
    for (const [level, lines] of [
      [38, 320],
      [38, 324],
      [38, 290],
      [38, 294],
    ])
      expect(move(level, lines)).toEqual(stacked);
    for (const [level, lines] of [
      [37, 315],
      [37, 319],
      [39, 335],
      [39, 330],
    ])
      expect(move(level, lines)).toEqual(move(level));
    // a session and rankPlacements read the count as nextMove does
    expect(ai.newGame().nextMove({ board, current: 'T', queue: 'T', level: 38, lines: 327 })!.cells).toEqual(filled);
    expect(ai.rankPlacements({ board, current: 'T', queue: 'T', level: 38, lines: 327 }).placements[0].cells).toEqual(
      filled,
    );
  });

  it("plays the simulator's NES games with the count a game's loop gives nextMove (its LINES counter)", async () => {
    const ai = await TetrisAI.create({ rules: { ...RULE_SETS.nes, level: 1 }, lookahead: 1, table, randomizer: 'nes' });
    const asked: { level: number | undefined; lines: number | undefined }[] = [];
    const play = ai.playTurn.bind(ai);
    ai.playTurn = (turn) => {
      asked.push({ level: turn.level, lines: turn.lines });
      return play(turn);
    };
    const cleared: number[] = [];
    await playOneGame(
      ai,
      1,
      { randomizer: 'nes', lookahead: 1, hold: false, maxPieces: 400, seed: 5, maxLevel: 4 },
      { onTurn: (t) => cleared.push(t.lines) },
    );
    // each turn is told the lines cleared before it and the level the game shows with them (start 1: the first
    // level-up at 20 lines, then every 10), as a game's loop would tell nextMove
    let lines = 0;
    const expected = cleared.map((n) => {
      const turn = { level: lines < 20 ? 1 : 2 + Math.floor((lines - 20) / 10), lines };
      lines += n;
      return turn;
    });
    expect(asked).toEqual(expected);
    expect(asked.at(-1)!.level).toBe(3);
  }, 300_000);

  it('at level 39 fills a notch in the middle where, with the recover weights played below 39, it hangs a T over the left edge', async () => {
    const ai = await TetrisAI.create({ rules: 'nes', lookahead: 1, table });
    // the caller's weights, all of them (the timed game's own below 39), stand in for the floor's
    const asBelow = await TetrisAI.create({
      rules: 'nes',
      lookahead: 1,
      table,
      recover: { weights: NES_RECOVER_WEIGHTS },
    });
    // from a game of seed 100 at level 39: the left edge 2 rows under its neighbour, a notch in columns 5–7
    const board = ['...##...##', '..########', '..########', '.#######.#', '#.########', '#######.##'];
    const move = ai.nextMove({ board, current: 'T', queue: 'T', level: 39 })!;
    expect(move.mode).toBe('recover');
    expect(move.cells).toEqual([
      [5, 5],
      [6, 5],
      [7, 5],
      [6, 6],
    ]);
    // the tuned recover weights of the levels below: the T over columns 0–1, two empty cells of the edge under it
    expect(asBelow.nextMove({ board, current: 'T', queue: 'T', level: 39 })!.cells).toEqual([
      [1, 3],
      [0, 4],
      [1, 4],
      [1, 5],
    ]);
  });

  it("at level 39 plays FLOOR_RECOVER_WEIGHTS: an L stacked 6 rows high that BCTS's weights lay low into the middle", async () => {
    const ai = await TetrisAI.create({ rules: 'nes', lookahead: 1, table });
    const given = async (weights: typeof RECOVER_WEIGHTS) =>
      TetrisAI.create({ rules: 'nes', lookahead: 1, table, recover: { weights } });
    // BCTS's own (the floor's weights before they were tuned for the double killscreen), and round 6's play at the
    // floor (the tuned recover weights with cumulativeWells × 3), each given whole
    const bcts = await given(PLAIN_BCTS_WEIGHTS);
    const round6 = await given({ ...RECOVER_WEIGHTS, cumulativeWells: 3 * RECOVER_WEIGHTS.cumulativeWells });
    const board = boardRows([1, 5, 5, 3, 1, 1, 5, 1, 0, 5], []);
    const at = (player: TetrisAI, level: number) => player.nextMove({ board, current: 'L', queue: [], level })!;
    const move = at(ai, 39);
    expect(move.mode).toBe('recover');
    // BCTS's weights: into the two low columns 4–5, the stack's top where it was (5 rows)
    const low = [
      [4, 1],
      [5, 1],
      [4, 2],
      [4, 3],
    ];
    expect(at(bcts, 39).cells).toEqual(low);
    // the floor's (a landing height a third cheaper than BCTS's) and round 6's: over columns 2–3 up to row 5, 6 rows
    // high, columns 4–5 left 4 rows under their neighbours
    const high = [
      [3, 3],
      [3, 4],
      [2, 5],
      [3, 5],
    ];
    expect(move.cells).toEqual(high);
    expect(at(await given(FLOOR_RECOVER_WEIGHTS), 39).cells).toEqual(high);
    expect(at(round6, 39).cells).toEqual(high);
    // at 38 (placed blind, under the floor's limit) the AI plays RECOVER_WEIGHTS, not the floor's: BCTS's L there
    expect(at(ai, 38).cells).toEqual(low);
  });

  it('at level 38 plays toward the right well a stack whose well is on the left, which it keeps at 37', async () => {
    // The untimed weights (round 8b's, when the rule was made): the J fills the left well at 38.
    const ai = await TetrisAI.create({
      rules: 'nes',
      lookahead: 1,
      table,
      recover: { weights: { ...RECOVER_WEIGHTS } },
    });
    // a clean 5-row stack with its well on the left: at 39 the I reaches the left well only from 2 rows
    const board = boardRows([0, 5, 5, 5, 5, 5, 5, 5, 5, 5], []);
    const at37 = ai.nextMove({ board, current: 'J', queue: 'O', level: 37 })!;
    const at38 = ai.nextMove({ board, current: 'J', queue: 'O', level: 38 })!;
    expect(at37.mode).toBe('stack');
    expect(at37.cells.some(([x]) => x === 0)).toBe(false);
    expect(at38.mode).toBe('recover');
    expect(at38.cells.some(([x]) => x === 0)).toBe(true);
    // NES_RECOVER_WEIGHTS (column transitions cost twice as much), given, also leave stack mode at 38 but lay the J
    // flat over the right edge rather than hang it over three holes in the left well; the timed default plays them
    // only where a piece waits out the reaction (to 28 with `X.`), so at 38 it plays RECOVER_WEIGHTS' move
    // (bench/notes/nes.md, "The tuned weights by level").
    const tuned = await TetrisAI.create({
      rules: 'nes',
      lookahead: 1,
      table,
      recover: { weights: NES_RECOVER_WEIGHTS },
    });
    const tunedAt38 = tuned.nextMove({ board, current: 'J', queue: 'O', level: 38 })!;
    expect(tunedAt38.mode).toBe('recover');
    expect(tunedAt38.cells).toEqual([
      [7, 5],
      [8, 5],
      [9, 5],
      [7, 6],
    ]);
    const timed = await TetrisAI.create({ rules: 'nes', lookahead: 1, table });
    expect(timed.nextMove({ board, current: 'J', queue: 'O', level: 38 })!.cells).toEqual(at38.cells);
  });

  it('weighs an I drought by the reaction: none when the next piece is known at once, at 19–28 with a longer one', () => {
    const drought = (level: number, reaction: number) =>
      timedPlay(limits, factsAtLevel(ruleFacts({ ...RULE_SETS.nes, reaction }), level), 10, 'auto').droughtReach;
    // No reaction: the next piece is known as the current one appears. 30 frames at 19–28 (2 frames a row): the
    // piece falls 15 rows, 5 are left, and the lowest stack that burns (11 rows, the limit 12 less 1) is over them;
    // 24 frames at 18 (3 frames a row): 8 rows, and 12 are left.
    expect([drought(29, 0), drought(39, 0), drought(19, 30), drought(18, 24)]).toEqual([
      null,
      null,
      { right: 15, left: 14 },
      null,
    ]);
  });

  it('searches every recover move of a timed game wide, and an untimed one near the top only', () => {
    const nearTop = { rows: 4, beam: 12, chance: 12 };
    expect([
      recoversWide(nearTop, true, 3, 20),
      recoversWide(nearTop, false, 16, 20),
      recoversWide(nearTop, false, 17, 20),
      recoversWide(null, true, 19, 20),
    ]).toEqual([true, false, true, false]);
  });

  it('is the highest flat stack the I reaches the well from (StackRabbit max4TapHeight at 29: 12, 9, 6 rows)', () => {
    const reach = (timeline: string) =>
      wellReachHeight(factsAtLevel(ruleFacts({ ...RULE_SETS.nes, timeline }), 29), 10, 9);
    expect(['X.', 'X..', 'X...'].map(reach)).toEqual([12, 9, 6]);
  });
});

describe('burns by the chance of an I drought', () => {
  /** A clean stack, well on the right: rows of the nine stack columns filled to each column's height. */
  const stackRows = (heights: readonly number[]) => {
    const rows = new Uint32Array(44);
    heights.forEach((h, x) => {
      for (let y = 0; y < h; y++) rows[y] |= 1 << x;
    });
    return rows;
  };
  const surface = (heights: readonly number[], floor = 0) => ({ side: 'right' as const, floor, heights: [...heights] });

  it('droughtChance: the first piece by its chance, each later one I one time in seven', () => {
    expect(droughtChance(0, 0.3)).toBe(1);
    expect(droughtChance(1, 0.2)).toBeCloseTo(0.8, 12);
    expect(droughtChance(3, 0.2)).toBeCloseTo(0.8 * (6 / 7) ** 2, 12);
  });

  it("piecesUnder: the stack columns' empty cells under a height, over the floor, by four", () => {
    expect(piecesUnder(surface(Array(9).fill(8)), 12)).toBe(9);
    expect(piecesUnder(surface([11, 10, 9, 9, 9, 9, 9, 9, 12]), 12)).toBe(5); // 1+2+3·6+0 = 21 cells
    expect(piecesUnder(surface(Array(9).fill(6), 2), 12)).toBe(9);
    expect(piecesUnder(surface(Array(9).fill(13)), 12)).toBe(0);
  });

  it('burnsRows: a tall stack with no I known burns only when no I is likely within the pieces it can take', () => {
    const heights = Array(9).fill(8);
    const rows = stackRows(heights);
    const odds = (reach: number, nextI: number) => ({ surfaces: [surface(heights)], reach: { right: reach }, nextI });
    // limit 9: an 8-row stack is tall
    expect(burnsRows(rows, 9, ['T', null])).toBe(true);
    // 36 cells under a reach of 12: 9 pieces, (6/7)^9 ≈ 0.25 of no I
    expect(burnsRows(rows, 9, ['T', null], odds(12, 1 / 7))).toBe(false);
    // 9 cells under a reach of 9: 2 pieces, (6/7)^2 ≈ 0.73; an I next likely: 0.5 · 6/7 ≈ 0.43
    expect(burnsRows(rows, 9, ['T', null], odds(9, 1 / 7))).toBe(true);
    expect(burnsRows(rows, 9, ['T', null], odds(9, 0.5))).toBe(false);
    // an I known, or no clean stack on a kept side: as without the odds
    expect(burnsRows(rows, 9, ['I', null], odds(9, 1 / 7))).toBe(false);
    expect(burnsRows(rows, 9, ['T', null], { surfaces: [], reach: { right: 12 }, nextI: 0 })).toBe(true);
    expect(burnsRows(rows, 9, ['T', null], { ...odds(12, 0), reach: { left: 10 } })).toBe(true);
  });

  it("TetrisAI at level 29 stacks on a tall clean stack with room under the I's reach, where it burnt before", async () => {
    const ai = await TetrisAI.create({ rules: 'nes', lookahead: 1, table });
    // the right well open; an 8-row column on the left, 6 rows elsewhere: tall for the limit of 9, room under 12
    const board = boardRows([8, 6, 6, 6, 6, 6, 6, 6, 6, 0], []);
    const move = ai.nextMove({ board, current: 'T', level: 29 })!;
    expect(move.mode).toBe('stack');
    expect(move.linesCleared).toBe(0);
    expect(Math.max(...move.cells.map(([, y]) => y))).toBeLessThan(9);
    // the stack is tall for the limit of 9: without the odds it burns, and a T has no clean clear to burn with
    expect(burnsRows(stackRows([8, 6, 6, 6, 6, 6, 6, 6, 6]), 9, ['T', null])).toBe(true);
  });
});

describe('a blind move values a smaller clear over the unknown piece, as its search values a stack move', () => {
  it('at level 29 the clear into the right well is worth the chance-weighted best rank after the next piece', async () => {
    const ai = await TetrisAI.create({ rules: 'nes', lookahead: 1, table, randomizer: 'nes' });
    // The rank of a surface, its steps truncated to the table's (the independent reference's index).
    const rank = (h: number[]) => {
      const low = Math.min(...h);
      return (
        table.searchValue(
          referenceIndexTruncated(
            h.map((v) => v - low),
            table.maxStep,
          ),
        ) * table.searchScale()
      );
    };
    // The stacking game under the 9-row limit: hole-free drops, an I on a Tetris-ready surface down the well only.
    const stacking = { boardHeight: 9, tetrisThreshold: 0, steep: 'truncate' as const, tetris: 'forced' as const };
    // A tall clean stack (limit 9 at 29), the next piece unknown: the L down the right well clears rows 4–6.
    const next = [0.25, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125];
    const move = ai.nextMove({ board: boardRows([8, 8, 8, 8, 8, 8, 8, 7, 6, 0], []), current: 'L', level: 29, next })!;
    expect(move.mode).toBe('stack');
    expect(move.linesCleared).toBe(3);
    expect(move.cells).toEqual([
      [9, 4],
      [9, 5],
      [8, 6],
      [9, 6],
    ]);
    const child = [5, 5, 5, 5, 5, 5, 5, 4, 4];
    let expected = 0;
    PIECES.forEach((_, i) => {
      expected += next[i] * Math.max(0, ...referenceChildren(child, i, stacking).map((c) => rank(c.heights)));
    });
    expect(move.value).toBeCloseTo(expected, 6);
    // the rank of the surface the clear leaves (the value with nothing after it) is another number
    expect(Math.abs(rank(child) - expected)).toBeGreaterThan(1e-3);
  });
});

describe('the reaction: the next piece is known only `reaction` frames after the current one appears', () => {
  it('lasts the reaction rounded up to whole gravity steps and tap periods; the piece waits where the rows it falls leave room', () => {
    const timing = RULE_SETS.nes.timing!;
    const fall = (timeline: string, reaction: number, level: number) => reactionFall(timing, timeline, reaction, level);
    // 18 frames at 3 / 2 / 1 frames a row and 2 rows a frame (levels 18, 19, 29, 39) with X. (period 2); X... has a
    // period of 4, so at level 18 the 18 frames round up to 24 (lcm 12); DAS keeps the gravity's phase alone.
    expect([18, 19, 29, 39].map((level) => fall('X.', 18, level))).toEqual([
      { frames: 18, rows: 6 },
      { frames: 18, rows: 9 },
      { frames: 18, rows: 18 },
      { frames: 18, rows: 36 },
    ]);
    expect([fall('X...', 18, 18), fall('das', 17, 18), fall('X.', 0, 29)]).toEqual([
      { frames: 24, rows: 8 },
      { frames: 18, rows: 6 },
      { frames: 0, rows: 0 },
    ]);
    // 20 rows: after 9 rows, 11 are left; a piece needs 4.
    expect([waitsOutReaction(20, 11, 9), waitsOutReaction(20, 12, 9), waitsOutReaction(20, 0, 17)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  /** The turns of game 1 of `seed` (lookahead 1, the NES randomizer, at most `maxPieces` pieces, capped at
   * `maxLevel`) that placed a piece, and the AI that played them. */
  async function placedTurns(seed: number, maxPieces: number, maxLevel: number) {
    const ai = await TetrisAI.create({ rules: 'nes', lookahead: 1, table, randomizer: 'nes' });
    const turns: PlayedTurn[] = [];
    await playOneGame(
      ai,
      1,
      { randomizer: 'nes', lookahead: 1, hold: false, maxPieces, seed, maxLevel },
      { onTurn: (t) => turns.push(t) },
    );
    return { ai, turns: turns.filter((t) => t.move) };
  }

  /** The AI's move at `level` on turn t's board with each piece as the next one (its chances uniform). */
  function movesForEachNext(ai: TetrisAI, t: PlayedTurn, level: number) {
    const rows = new Uint32Array(44);
    rows.set(t.before.subarray(0, 20));
    const uniform = new Float64Array(7).fill(1 / 7);
    const answers = PIECES.map((q) =>
      ai.playTurn({
        rows,
        height: 20,
        current: t.current,
        queue: [q],
        hold: null,
        canHold: false,
        next: uniform,
        level,
        revealChances: uniform,
      }),
    );
    return { rows, answers };
  }

  it("a move's first frames are the same whatever piece joined the queue; after them it may change", async () => {
    const { ai, turns } = await placedTurns(9, 120, 19);
    const reaction = RULE_SETS.nes.reaction!;
    let changed = 0;
    let waited = 0;
    for (const t of turns.slice(0, 60)) {
      const { rows, answers } = movesForEachNext(ai, t, 18);
      const firstFrames = new Set(answers.map((m) => m!.inputs.slice(0, reaction).join(' ')));
      expect(firstFrames.size).toBe(1);
      if (new Set(answers.map((m) => JSON.stringify(m!.cells))).size > 1) changed++;
      if (answers.some((m) => m!.inputs.slice(0, reaction).every((i) => i === '.') && m!.x !== answers[0]!.x)) waited++;
      expectReplays(rows, t.current, 18, answers);
    }
    // the piece, once known, changes some moves, and some of those the player waited for
    expect(changed).toBeGreaterThan(0);
    expect(waited).toBeGreaterThan(0);
  }, 300_000);

  it('a move the player committed to before the piece was known changes after the reaction where the piece still reaches the new one', async () => {
    const { ai, turns } = await placedTurns(5, 200, 20);
    const reaction = RULE_SETS.nes.reaction!;
    let committed = 0;
    let replanned = 0;
    for (const t of turns) {
      // level 19: 2 frames a row, so a piece falls 9 rows during the reaction and seldom can wait it out
      const { rows, answers } = movesForEachNext(ai, t, 19);
      const first = answers.map((m) => m!.inputs.slice(0, reaction));
      expect(new Set(first.map((f) => f.join(' '))).size).toBe(1);
      if (first[0].every((i) => i === '.') || answers[0]!.inputs.length <= reaction) continue;
      committed++;
      // the moves that differ from the others after the same committed frames
      const cells = answers.map((m) => JSON.stringify(m!.cells));
      if (new Set(cells).size > 1) replanned++;
      expectReplays(rows, t.current, 19, answers);
    }
    // (without the search from where the committed frames leave the piece: 0 of 66 such moves changed)
    expect(committed).toBeGreaterThan(20);
    expect(replanned).toBeGreaterThan(4);
  }, 300_000);
});

describe('play-outs (docs/game.md, "Play-outs")', () => {
  /** A game from level 29 whose first 200 pieces pass tall boards (52 of them 9 rows high or more, 6 burns). */
  const GAME_AT_29 = 3;
  /** A game from level 29 that reaches 39 (290 lines) in about 730 pieces and plays on to the cap. */
  const GAME_TO_39 = 2;
  /**
   * Plays one game of `rules` and asks each position again: the move is the AI's own (the one made with
   * playOuts: false, and a budget the whole search fits in), or at 18–38 a burn where its own stacked on, only on
   * boards PLAY_OUTS.fromHeight rows high or more, or from the double killscreen recover mode's move keeping the
   * well. Asks the positions from level `askFrom` on. Returns the positions play-outs weigh (`weighed`: boards
   * PLAY_OUTS.fromHeight rows high or more, every one from the double killscreen) and the moves played out in place
   * of the AI's own (`changed`).
   */
  async function playedOutOver(
    rules: typeof RULE_SETS.nes,
    game: number,
    maxPieces: number,
    maxLevel: number,
    askFrom = 0,
  ) {
    const options = { rules, lookahead: 1, table, randomizer: 'nes' } as const;
    const ai = await TetrisAI.create(options);
    const twin = await TetrisAI.create(options);
    const without = await TetrisAI.create({ ...options, playOuts: false });
    const turns: PlayedTurn[] = [];
    await playOneGame(
      ai,
      game,
      { randomizer: 'nes', lookahead: 1, hold: false, maxPieces, seed: 11, maxLevel },
      { onTurn: (t) => turns.push(t) },
    );
    let weighed = 0;
    let changed = 0;
    for (const t of turns.filter((t) => t.move && t.nes!.level >= askFrom)) {
      const board = rowStrings(t.before, 10, 20);
      const state = { board, current: t.current, queue: [t.queue[0]], level: t.nes!.level, lines: t.nes!.lines };
      const played = ai.nextMove(state)!;
      // a budget the whole search fits in: the AI's own move, without play-outs (docs/game.md, "Time budget")
      const own = ai.nextMove(state, { budgetMs: 600_000 })!;
      expect(twin.nextMove(state)).toEqual(played);
      // playOuts: false plays the AI's own move
      expect(without.nextMove(state)!.cells).toEqual(own.cells);
      if (maxHeight(t.before) >= PLAY_OUTS.fromHeight || t.nes!.level >= PLAY_OUTS.wellFromLevel) {
        weighed++;
        // rankPlacements lists nextMove's move first, a burn the play-outs chose too
        expect(ai.rankPlacements(state).placements[0].cells).toEqual(played.cells);
      }
      if (JSON.stringify(played.cells) === JSON.stringify(own.cells)) continue;
      changed++;
      if (t.nes!.level >= PLAY_OUTS.wellFromLevel) {
        // the well kept: recover mode's move with the well terms (in these games, its cells out of the right well)
        expect([own.mode, played.mode]).toEqual(['recover', 'recover']);
        expect(played.cells.some(([x]) => x === 9)).toBe(false);
        continue;
      }
      expect(maxHeight(t.before)).toBeGreaterThanOrEqual(PLAY_OUTS.fromHeight);
      expect(t.nes!.level).toBeGreaterThanOrEqual(PLAY_OUTS.fromLevel);
      expect(t.nes!.level).toBeLessThanOrEqual(PLAY_OUTS.toLevel);
      // the burn: a smaller clear that leaves the stack clean, else recover mode's move, where stack mode stacked on
      expect(own.mode).toBe('stack');
      expect(played.linesCleared > 0 || played.mode === 'recover', JSON.stringify(played)).toBe(true);
    }
    return { weighed, changed };
  }

  it("only add a burn to the AI's own stack move, on tall boards at 18–28; the same position, the same move; rankPlacements lists it first", async () => {
    const { weighed, changed } = await playedOutOver(RULE_SETS.nes, 2, 400, 29);
    expect(weighed).toBeGreaterThan(20);
    expect(changed).toBeGreaterThan(0);
  }, 300_000);

  it('and at 29–38, where every piece lands before the next is known', async () => {
    const { weighed, changed } = await playedOutOver({ ...RULE_SETS.nes, level: 29 }, GAME_AT_29, 200, 39);
    expect(weighed).toBeGreaterThan(10);
    expect(changed).toBeGreaterThan(0);
  }, 300_000);

  it('and from the double killscreen, the move keeping the well where its play-outs score PLAY_OUTS.wellMargin more', async () => {
    const level29 = { ...RULE_SETS.nes, level: 29 };
    const { weighed, changed } = await playedOutOver(level29, GAME_TO_39, 900, 49, PLAY_OUTS.wellFromLevel);
    expect(weighed).toBeGreaterThan(100);
    expect(changed).toBeGreaterThan(0);
  }, 300_000);

  it("a play-out's moves search a chance ply of PLAY_OUTS.recoverChance lines; the turn's own moves the AI's full one", async () => {
    const rules = { ...RULE_SETS.nes, level: 29 };
    const ai = await TetrisAI.create({ rules, lookahead: 1, table, randomizer: 'nes' });
    const turns: PlayedTurn[] = [];
    const game = { randomizer: 'nes', lookahead: 1, hold: false, maxPieces: 200, seed: 11, maxLevel: 39 } as const;
    await playOneGame(ai, GAME_AT_29, game, { onTurn: (t) => turns.push(t) });
    const decide = vi.spyOn(ai as unknown as { decide: (...args: unknown[]) => unknown }, 'decide');
    const full = RECOVER_SEARCH.topSpawn.nearTop!.chance;
    let playedOut = 0;
    for (const t of turns.filter((t) => t.move && maxHeight(t.before) >= PLAY_OUTS.fromHeight)) {
      const board = rowStrings(t.before, 10, 20);
      decide.mockClear();
      ai.nextMove({ board, current: t.current, queue: [t.queue[0]], level: t.nes!.level, lines: t.nes!.lines });
      const chances = decide.mock.calls.map((c) => (c[2] as SearchSettings).nearTop!.chance);
      // the AI's own move and its burn, then (where they differ) the play-outs' moves
      expect(chances.slice(0, 2)).toEqual([full, full]);
      for (const c of chances.slice(2)) expect(c).toBe(PLAY_OUTS.recoverChance);
      if (chances.length > 2) playedOut++;
    }
    expect(full).toBeGreaterThan(PLAY_OUTS.recoverChance);
    expect(playedOut).toBeGreaterThan(5);
  }, 300_000);

  it('weigh the well only where the limit is at its floor: without the double killscreen, 39 plays as 38', async () => {
    // a turn at 39: recover mode's move keeping the well is searched (a second search) only where two rows a frame
    // bring the limit to its floor; tapping X. without the double killscreen the turn is searched once
    const board = ['....#....', '#.#####..#', '##.######.', '#########.'].map((r) => r.padEnd(10, '.'));
    const state = { board, current: 'T', queue: 'L', level: 39 } as const;
    const searches = async (rules: typeof RULE_SETS.nes) => {
      const ai = await TetrisAI.create({ rules, lookahead: 1, table, randomizer: 'nes' });
      const own = (await TetrisAI.create({ rules, lookahead: 1, table, randomizer: 'nes', playOuts: false })).nextMove(
        state,
      )!;
      const decide = vi.spyOn(ai as unknown as { decide: () => unknown }, 'decide');
      const move = ai.nextMove(state)!;
      return { calls: decide.mock.calls.length, move, own };
    };
    const double = await searches(RULE_SETS.nes);
    expect(double.calls).toBe(2);
    const single = await searches({ ...RULE_SETS.nes, timing: nesTiming(null) });
    expect(single.calls).toBe(1);
    expect(single.move).toEqual(single.own);
  }, 60_000);
});

describe('NES games', () => {
  it('every move is frame-reachable at the game level; the score and levels are the clears counted by hand', async () => {
    // start 18 (3 frames a row), up to 19 (2) at 130 lines: a move searched at the start's gravity after the
    // level-up would not replay
    const rules = { ...RULE_SETS.nes, level: 18, timeline: 'X..' };
    const ai = await TetrisAI.create({ rules, lookahead: 1, table, randomizer: 'nes' });
    const turns: PlayedTurn[] = [];
    const tally = await playOneGame(
      ai,
      3,
      { randomizer: 'nes', lookahead: 1, hold: false, maxPieces: 400, seed: 5, maxLevel: 20 },
      { onTurn: (t) => turns.push(t) },
    );
    let lines = 0;
    let score = 0;
    let level = 18;
    const bandLines = [0, 0, 0, 0];
    const bandTetrisLines = [0, 0, 0, 0];
    const bandScore = [0, 0, 0, 0];
    for (const t of turns) {
      if (!t.move) break;
      const replay = timedRefReplay(
        timedRefBoard(rowStrings(t.before, 10, 20)),
        t.current,
        { level, timeline: 'X..' },
        t.move.inputs as string[],
      );
      expect(replay).toMatchObject({ cells: t.move.cells });
      if (t.lines > 0) {
        const band = level >= 39 ? 3 : level >= 29 ? 2 : level >= 19 ? 1 : 0;
        bandLines[band] += t.lines;
        if (t.lines === 4) bandTetrisLines[band] += 4;
        lines += t.lines;
        // start 18: the first level-up at 130 lines, then every 10
        level = lines < 130 ? 18 : 19 + Math.floor((lines - 130) / 10);
        const points = [0, 40, 100, 300, 1200][t.lines] * (level + 1);
        score += points;
        bandScore[band] += points;
      }
    }
    expect(tally.lines).toBe(lines);
    expect(bandTetrisLines[0]).toBeGreaterThan(0); // the game has Tetrises to count
    expect(turns.some((t) => t.move && t.nes?.level === 19)).toBe(true); // and moves played at 19's gravity
    expect(tally.nes).toEqual({
      score,
      endLevel: level,
      reachedCap: level >= 20,
      bandLines,
      bandTetrisLines,
      bandScore,
    });
    expect(tally.topOut || tally.nes!.reachedCap || tally.pieces === 400).toBe(true);
  }, 300_000);

  it('playGame: games depend on the seed and game number only; the NES figures pool from the tallies', async () => {
    const run = (threads: number) =>
      playGame({ rules: 'nes', maxLevel: 19, games: 3, seed: 2, table, threads, maxPieces: 150 });
    const one = await run(1);
    const two = await run(2);
    expect(two.tallies).toEqual(one.tallies);
    expect(one.nes).toEqual(two.nes);
    expect(one.format).toEqual({ level: 18, timeline: 'X.', reaction: 18, timing: RULE_SETS.nes.timing, maxLevel: 19 });
    const scores = one.tallies.map((t) => t.nes!.score);
    expect(one.nes!.averageScore).toBe(scores.reduce((a, b) => a + b, 0) / 3);
    expect(Object.values(one.nes!.endLevels).reduce((a, b) => a + b, 0)).toBe(3);
    // each game's points by band add up to its score, and the run's band averages to the average score
    for (const t of one.tallies) expect(t.nes!.bandScore.reduce((a, b) => a + b, 0)).toBe(t.nes!.score);
    expect(one.nes!.bands.map((b) => b.averageScore)).toEqual(
      [0, 1, 2, 3].map((i) => one.tallies.reduce((a, t) => a + t.nes!.bandScore[i], 0) / 3),
    );
    expect(one.nes!.bands[0].averageScore).toBeGreaterThan(0);
  }, 300_000);

  it('a level cap is an NES game option: refused without time, or not above the start level', async () => {
    const codeOf = async (p: Promise<unknown>) =>
      p.then(
        () => 'none',
        (e) => (e as StackRankError).code,
      );
    expect(await codeOf(playGame({ rules: 'nesUntimed', maxLevel: 29, table, threads: 1 }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(playGame({ rules: 'nes', maxLevel: 18, table, threads: 1 }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(playGame({ rules: { ...RULE_SETS.nes, level: 40 }, table, threads: 1 }))).toBe('BAD_RULES');
  });

  it("a given ai at another level or timeline is refused with the rule set's fields that differ", async () => {
    const messageOf = async (p: Promise<unknown>) =>
      p.then(
        () => 'none',
        (e) => `${(e as StackRankError).code}: ${(e as Error).message}`,
      );
    const slow = await TetrisAI.create({ rules: { ...RULE_SETS.nes, timeline: 'X...' }, lookahead: 1, table });
    expect(await messageOf(playGame({ rules: 'nes', ai: slow, games: 1, maxPieces: 5 }))).toBe(
      'BAD_ARGUMENT: the given ai plays nes at lookahead 1 (both, goal survival); these games ask for nes at 1 (both, goal survival); the ai\'s rule set has timeline "X..." where these games have "X."',
    );
    const at19 = await TetrisAI.create({ rules: { ...RULE_SETS.nes, level: 19, reaction: 12 }, lookahead: 1, table });
    expect(await messageOf(playGame({ rules: 'nes', ai: at19, games: 1, maxPieces: 5 }))).toMatch(
      /; the ai's rule set has level 19 where these games have 18, reaction 12 where these games have 18$/,
    );
    const untimed = await TetrisAI.create({ rules: 'nesUntimed', lookahead: 1, table });
    expect(await messageOf(playGame({ rules: 'nes', ai: untimed, games: 1, maxPieces: 5 }))).toMatch(
      /^BAD_ARGUMENT: the given ai plays nesUntimed .*; the ai's rule set has name "nesUntimed" where these games have "nes", timing none where these games have \{/,
    );
  });
});
