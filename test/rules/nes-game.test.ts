/**
 * The NES game's levels and score (src/rules/nes-game.ts) against games computed by hand from the rules docs/rules.md
 * states (TetrisWiki's level-up rule, the score table of the NES disassembly, BetaTetris's cap).
 */
import { describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import {
  NesGame,
  firstLevelUpLines,
  linesToLevel,
  nesClearPoints,
  nesFormat,
  nesLevel,
  nesLinesRange,
  nesLinesToLevelUp,
  rulesAtLevel,
} from '../../src/rules/nes-game.js';
import { MAX_LEVEL, gravityAt, nesTiming } from '../../src/rules/timing.js';
import { refGravity } from '../reference/timed-reference.js';
import { thrownBy } from '../helpers/refused.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof StackRankError ? e.code : 'other';
  }
  return 'none';
};

describe('levels', () => {
  it('the first level-up: 10 S + 10 up to 9, 100 for 10-15, 10 S - 50 for 16-25, 200 for 26-31', () => {
    expect([0, 5, 9, 10, 15, 16, 18, 19, 25, 26, 29, 31].map(firstLevelUpLines)).toEqual([
      10, 60, 100, 100, 100, 110, 130, 140, 200, 200, 200, 200,
    ]);
  });
  it('then one level every 10 lines (start 18: 19 at 130, 29 at 230, 39 at 330, 49 at 430)', () => {
    expect([0, 129, 130, 139, 140, 229, 230, 330, 430].map((l) => nesLevel(18, l))).toEqual([
      18, 18, 19, 19, 20, 28, 29, 39, 49,
    ]);
    expect([linesToLevel(18, 19), linesToLevel(18, 29), linesToLevel(18, 49), linesToLevel(29, 39)]).toEqual([
      130, 230, 430, 290,
    ]);
    expect([nesLevel(5, 59), nesLevel(5, 60), nesLevel(5, 70), nesLevel(12, 100), nesLevel(12, 110)]).toEqual([
      5, 6, 7, 13, 14,
    ]);
  });
  it('a level is scored after the clear that reaches it: 40 / 100 / 300 / 1200 × (level + 1)', () => {
    expect([1, 2, 3, 4].map((n) => nesClearPoints(n, 18))).toEqual([760, 1900, 5700, 22800]);
    expect(nesClearPoints(4, 29)).toBe(36000);
    expect(nesClearPoints(0, 29)).toBe(0);
  });
});

describe("the lines to the next level-up from the level and the game's lines count", () => {
  it('are the same for every start level that puts a game at that level after those lines', () => {
    // every game from every start level, line by line, to level 60, against the pair it shows; the level-ups
    // counted here from the rule as docs/rules.md states it (first at min(10 S + 10, max(100, 10 S - 50)) for
    // S <= 25, at 200 for 26-31, then every 10 lines)
    for (let start = 0; start <= 31; start++) {
      let levelUpAt = start <= 25 ? Math.min(10 * start + 10, Math.max(100, 10 * start - 50)) : 200;
      let level = start;
      for (let lines = 0; level <= 60; lines++) {
        if (lines === levelUpAt) {
          level++;
          levelUpAt += 10;
          if (level > 60) break;
        }
        const left = levelUpAt - lines;
        if (nesLinesToLevelUp(level, lines) !== left)
          expect({ start, level, lines, got: nesLinesToLevelUp(level, lines) }).toEqual({
            start,
            level,
            lines,
            got: left,
          });
      }
    }
  });

  it('at hand-counted points: start 18 and start 29 at level 38, start 12 at 12 and 13', () => {
    // start 18: 38 from 320, 39 at 330; start 29 (first level-up at 200): 38 from 280, 39 at 290; start 28: 38
    // from 290, 39 at 300
    expect([320, 324, 325, 329].map((n) => nesLinesToLevelUp(38, n))).toEqual([10, 6, 5, 1]);
    expect([280, 285, 289].map((n) => nesLinesToLevelUp(38, n))).toEqual([10, 5, 1]);
    expect([290, 295, 299].map((n) => nesLinesToLevelUp(38, n))).toEqual([10, 5, 1]);
    // start 12: its first level-up at 100 lines (not the next multiple of 10), then every 10
    expect([0, 55, 99].map((n) => nesLinesToLevelUp(12, n))).toEqual([100, 45, 1]);
    expect([100, 105].map((n) => nesLinesToLevelUp(13, n))).toEqual([10, 5]);
    // start 18 at 18 with 125 lines, or start 17 (18 at 120): both level up at 130
    expect(nesLinesToLevelUp(18, 125)).toBe(5);
    expect(nesLinesToLevelUp(18, 95)).toBe(35);
  });

  it('null where no game shows the pair; the counts a level shows are one range', () => {
    expect(nesLinesToLevelUp(18, 190)).toBeNull();
    expect(nesLinesToLevelUp(38, 259)).toBeNull();
    expect(nesLinesToLevelUp(38, 390)).toBeNull();
    expect(nesLinesRange(38)).toEqual({ min: 260, max: 389 });
    expect(nesLinesRange(18)).toEqual({ min: 0, max: 189 });
    expect(nesLinesRange(0)).toEqual({ min: 0, max: 9 });
    for (let level = 0; level <= MAX_LEVEL; level++) {
      const { min, max } = nesLinesRange(level);
      const shown: number[] = [];
      for (let n = Math.max(0, min - 20); n <= max + 20; n++) if (nesLinesToLevelUp(level, n) !== null) shown.push(n);
      expect(shown[0]).toBe(min);
      expect(shown.at(-1)).toBe(max);
      expect(shown).toHaveLength(max - min + 1);
    }
    expect(code(() => nesLinesToLevelUp(-1, 0))).toBe('BAD_ARGUMENT');
    expect(code(() => nesLinesToLevelUp(18, -1))).toBe('BAD_ARGUMENT');
    expect(code(() => nesLinesToLevelUp(18, 0.5))).toBe('BAD_ARGUMENT');
  });
});

describe('a game by hand', () => {
  it('start 18, cap 29: Tetrises to 128 lines, then one across the level-up, then to the cap', () => {
    const game = new NesGame(nesFormat({ maxLevel: 29 }));
    expect(game.rules.level).toBe(18);
    let score = 0;
    for (let i = 0; i < 32; i++) score += game.clear(4); // 128 lines at level 18: 32 × 22,800
    expect(score).toBe(32 * 22800);
    expect(game.level).toBe(18);
    expect(game.clear(0)).toBe(0);
    expect(game.clear(4)).toBe(1200 * 20); // 132 lines: level 19, scored at 19
    expect(game.level).toBe(19);
    expect(game.rules.level).toBe(19);
    expect(game.rules.timing).toEqual(RULE_SETS.nes.timing);
    game.clear(2); // 134
    game.clear(3); // 137
    expect(game.score).toBe(32 * 22800 + 24000 + 100 * 20 + 300 * 20);
    for (let i = 0; i < 200 && !game.end; i++) game.clear(1);
    expect(game.lines).toBe(230);
    expect(game.level).toBe(29);
    expect(game.end).toBe('maxLevel');
    expect(code(() => game.clear(1))).toBe('BAD_ARGUMENT');
  });
  it('a top-out ends it where it is; no cap plays on', () => {
    const game = new NesGame(nesFormat({ maxLevel: null, startLevel: 29 }));
    for (let i = 0; i < 50; i++) game.clear(4);
    expect(game.level).toBe(30); // 200 lines: the first level-up from 29
    expect(game.end).toBeNull();
    game.topOut();
    expect(game.end).toBe('topOut');
    expect(code(() => game.clear(4))).toBe('BAD_ARGUMENT');
    expect([game.end, game.lines, game.level]).toEqual(['topOut', 200, 30]);
  });
  it("a game's count changes only by clear and topOut; its format has no other field", () => {
    const game = new NesGame(nesFormat({ maxLevel: 29 }));
    game.clear(4);
    for (const field of ['lines', 'score', 'level', 'end'] as const) {
      expect(() => Object.assign(game, { [field]: -5 })).toThrow(TypeError); // no setter
      expect(Object.keys(game)).toEqual(['format']);
    }
    expect([game.lines, game.score, game.level, game.end]).toEqual([4, 22800, 18, null]);
    const error = thrownBy(() => new NesGame({ ...nesFormat(), startLevel: 19 } as never)) as StackRankError;
    expect(`${error.code}: ${error.message}`).toBe(
      'BAD_ARGUMENT: NesGame: the format: unknown option "startLevel"; options are rules, maxLevel',
    );
  });
  it("each level's gravity is the reference's, with the double killscreen at 39, at 30 and never", () => {
    for (const dks of [39, 30, null])
      for (let level = 0; level <= MAX_LEVEL; level++)
        expect({ dks, level, g: gravityAt(nesTiming(dks), level) }).toEqual({
          dks,
          level,
          g: refGravity({ level, timeline: 'X.', doubleKillscreen: dks }),
        });
  });
  it('the rule set of each level is made once and keeps the start rule set but its level', () => {
    const f = nesFormat({ timeline: 'X..' });
    expect(rulesAtLevel(f.rules, 29)).toBe(rulesAtLevel(f.rules, 29));
    expect(rulesAtLevel(f.rules, 29)).toEqual({ ...f.rules, level: 29 });
    expect(rulesAtLevel(f.rules, 18)).toBe(f.rules);
  });
  it('the format: double killscreen and cap checked', () => {
    expect(nesFormat().rules.timing!.gravity.at(-1)).toEqual({ frames: 1, rows: 2 });
    expect(nesFormat({ doubleKillscreen: null }).rules.timing!.gravity.at(-1)).toEqual({ frames: 1, rows: 1 });
    expect(gravityAt(nesFormat().rules.timing!, 38)).toEqual({ frames: 1, rows: 1 });
    expect(gravityAt(nesFormat().rules.timing!, 39)).toEqual({ frames: 1, rows: 2 });
    expect(code(() => nesFormat({ maxLevel: 18 }))).toBe('BAD_ARGUMENT');
    expect(code(() => nesFormat({ startLevel: 40 }))).toBe('BAD_ARGUMENT');
    expect(code(() => nesFormat({ timeline: 'XX' }))).toBe('BAD_RULES');
    expect(thrownBy(() => nesFormat({ doubleKillscreen: 0 })).message).toBe(
      'doubleKillscreen must be null or an integer from 1 to 255; got 0',
    );
  });
});
