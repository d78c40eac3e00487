import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GameMove } from '../../src/tetris-ai/decision.js';
import { NES_END_VALUES } from '../../src/tetris-ai/nes-end-values.js';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { playGame } from '../../src/tetris-ai/play.js';
import {
  PLAY_OUTS,
  checkPlayOuts,
  endValue,
  playOutChances,
  playOutSequences,
  playOutValue,
  type PlayOutStart,
} from '../../src/tetris-ai/play-outs.js';
import { Rng } from '../../src/random.js';
import { PIECES, type Piece } from '../../src/pieces.js';
import { RECOVER_SEARCH } from '../../src/tetris-ai/policy.js';

const WIDTH = 10;
const FULL = (1 << WIDTH) - 1;

/** A board of `rows.length` filled rows given as bit masks, in a 44-row work array. */
function board(...rows: number[]): Uint32Array {
  const out = new Uint32Array(44);
  rows.forEach((r, y) => {
    out[y] = r;
  });
  return out;
}

/** A move of the given cells (the play-outs read only the cells). */
const cellsMove = (cells: [number, number][]): GameMove => ({ cells }) as unknown as GameMove;
/** An upright I in the right column from row 0: on four rows full but for it, a Tetris. */
const RIGHT_WELL_I = cellsMove([
  [9, 0],
  [9, 1],
  [9, 2],
  [9, 3],
]);
const noMore = () => null;

function start(rows: Uint32Array, level: number, lines: number | undefined): PlayOutStart {
  return { rows, width: WIDTH, visibleHeight: 20, next: 'O', level, lines, nesPieces: true };
}

/** The table's value for a competition-format LINES count (start 18), read from the table itself. */
function tableValue(lines: number, height: number, holes: number): number {
  const t = NES_END_VALUES;
  const band = Math.floor(lines / 10);
  return t.byLines[lines] + t.byBoard[(band * t.heights + height) * t.holes + Math.min(holes, t.holes - 1)];
}

describe('play-outs: the end value', () => {
  it('reads the table at the LINES count a start-18 game shows at that level and point of it', () => {
    // level 18 with 5 lines to its level-up at 130: 125 lines; level 19 with 10 to go: 130; level 24, 3 to go: 187
    expect(endValue(18, 5, 7, 0)).toBe(tableValue(125, 7, 0));
    expect(endValue(19, 10, 12, 2)).toBe(tableValue(130, 12, 2));
    expect(endValue(24, 3, 3, 9)).toBe(tableValue(187, 3, 4));
    // a game started at 19 (first level-up at 140 lines) reads level 19's first count
    expect(endValue(19, 140, 5, 1)).toBe(tableValue(130, 5, 1));
    // no lines count: the level's first
    expect(endValue(20, null, 5, 0)).toBe(tableValue(140, 5, 0));
    // level 33 with 4 to go: 276, and level 38's last lines, the table's last counts (the play-outs stop at 38)
    expect(endValue(33, 4, 5, 0)).toBe(tableValue(276, 5, 0));
    expect(NES_END_VALUES.lines).toBe(330);
    expect(endValue(PLAY_OUTS.toLevel, 1, 8, 1)).toBe(tableValue(329, 8, 1));
    // past the table's counts: its last
    expect(endValue(45, 4, 5, 0)).toBe(tableValue(NES_END_VALUES.lines - 1, 5, 0));
  });

  it('the table has every cell it declares, and a taller board expects fewer points at level 28', () => {
    const t = NES_END_VALUES;
    expect(t.byLines).toHaveLength(t.lines);
    expect(t.byBoard).toHaveLength((t.lines / 10) * t.heights * t.holes);
    // the points to the end fall as the game goes on
    expect(t.byLines[0]).toBeGreaterThan(t.byLines[129]);
    expect(t.byLines[129]).toBeGreaterThan(t.byLines[229]);
    // at 220–229 lines (level 28) a clean board 16 rows high expects far less than one 4 rows high
    expect(tableValue(225, 16, 0)).toBeLessThan(tableValue(225, 4, 0) - 50_000);
  });
});

describe('play-outs: the value of a move played on', () => {
  const tetrisReady = () => board(FULL >> 1, FULL >> 1, FULL >> 1, FULL >> 1);

  it("a Tetris scores 1,200 × (level + 1) at the level after its level-up, by the NES rule, plus the board's end value", () => {
    // level 18 at 125 lines (start 18): 129 after it, still 18; at 127: 131, over the level-up at 130, so 19
    expect(playOutValue(start(tetrisReady(), 18, 125), [['O']], () => RIGHT_WELL_I, noMore)).toBe(
      1200 * 19 + tableValue(129, 0, 0),
    );
    expect(playOutValue(start(tetrisReady(), 18, 127), [['O']], () => RIGHT_WELL_I, noMore)).toBe(
      1200 * 20 + tableValue(131, 0, 0),
    );
    // no lines count: the level stays, and the end value is its first count's
    expect(playOutValue(start(tetrisReady(), 18, undefined), [['O']], () => RIGHT_WELL_I, noMore)).toBe(
      1200 * 19 + tableValue(0, 0, 0),
    );
  });

  it('holes and height are read from the board left; a top-out counts the points made and nothing after', () => {
    // four cells over an empty bottom row: four holes, height 2
    const cover = cellsMove([
      [0, 1],
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    expect(playOutValue(start(board(), 18, 0), [['O']], () => cover, noMore)).toBe(tableValue(0, 2, 4));
    // the Tetris, then the next piece cannot be placed
    expect(playOutValue(start(tetrisReady(), 18, 125), [['O', 'T']], () => RIGHT_WELL_I, noMore)).toBe(1200 * 19);
    // no move at all
    expect(playOutValue(start(tetrisReady(), 18, 125), [['O']], () => null, noMore)).toBe(0);
  });

  it('the policy plays each later piece knowing the one after it; a second clear scores at the level the first reached', () => {
    const seen: [Piece, Piece, number, number | undefined][] = [];
    // a single on the bottom row after the Tetris at 127 lines (131: level 19), then 132 lines
    const single = cellsMove([
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    const rows = board(FULL >> 1, FULL >> 1, FULL >> 1, FULL >> 1, FULL & ~0b1111);
    const value = playOutValue(
      start(rows, 18, 127),
      [
        ['O', 'T'],
        ['O', 'S'],
      ],
      () => RIGHT_WELL_I,
      (b, current, next, level, lines, nextChances) => {
        seen.push([current, next, level, lines]);
        // the chances are the NES generator's after the piece they follow
        expect(nextChances[PIECES.indexOf(next)]).toBeCloseTo(2 / 56);
        expect(b[0]).toBe(FULL & ~0b1111);
        return single;
      },
    );
    expect(seen).toEqual([
      ['O', 'T', 19, 131],
      ['O', 'S', 19, 131],
    ]);
    // each sequence: the Tetris (level 19 after it), the single at 19, an empty board at 132 lines
    expect(value).toBe(1200 * 20 + 40 * 20 + tableValue(132, 0, 0));
  });

  it("a play-out's piece sees the sequence's piece after its next one; the sequence's last piece, the generator's chances", () => {
    const asked: number[][] = [];
    playOutValue(
      start(board(), 18, 0),
      [['T', 'S', 'Z', 'L']],
      () => cellsMove([[0, 0]]),
      (_b, _current, _next, _level, _lines, nextChances) => {
        asked.push(Array.from(nextChances));
        return cellsMove([[asked.length, 0]]);
      },
    );
    const certain = (p: Piece) => PIECES.map((q) => (q === p ? 1 : 0));
    // the moves of T (next S: Z is certain), S (next Z: L is certain) and Z (next L: the piece after L is drawn)
    expect(asked.slice(0, 2)).toEqual([certain('Z'), certain('L')]);
    expect(asked[2].map((c) => Math.round(c * 56))).toEqual(PIECES.map((p) => (p === 'L' ? 2 : 9)));
  });
});

describe('play-outs: the piece sequences', () => {
  const s: PlayOutStart = {
    rows: board(),
    width: WIDTH,
    visibleHeight: 20,
    next: 'T',
    level: 18,
    lines: 0,
    nesPieces: true,
  };

  it('start with the queue piece, or one drawn from its chances where it is not known; the same seed, the same pieces', () => {
    const a = playOutSequences(s, new Rng(5));
    expect(a).toHaveLength(PLAY_OUTS.samples);
    for (const seq of a) {
      expect(seq).toHaveLength(PLAY_OUTS.pieces + 1);
      expect(seq[0]).toBe('T');
    }
    expect(playOutSequences(s, new Rng(5))).toEqual(a);
    expect(playOutSequences(s, new Rng(6))).not.toEqual(a);
    const onlyI = playOutSequences(s, new Rng(5), [1, 0, 0, 0, 0, 0, 0]);
    for (const seq of onlyI) expect(seq[0]).toBe('I');
  });

  it("follow the NES generator's chances: a repeat 1 time in 28, each other piece 9 in 56", () => {
    const repeats = { nes: 0, even: 0 };
    let pairs = 0;
    for (let seed = 1; seed <= 1500; seed++)
      for (const nesPieces of [true, false])
        for (const seq of playOutSequences({ ...s, nesPieces }, new Rng(seed)))
          for (let i = 1; i < seq.length; i++) {
            if (seq[i] === seq[i - 1]) repeats[nesPieces ? 'nes' : 'even']++;
            if (nesPieces) pairs++;
          }
    // 54,000 pairs each: standard errors about 0.0008 and 0.0015
    expect(repeats.nes / pairs).toBeGreaterThan(1 / 28 - 0.004);
    expect(repeats.nes / pairs).toBeLessThan(1 / 28 + 0.004);
    expect(repeats.even / pairs).toBeGreaterThan(1 / 7 - 0.007);
    expect(repeats.even / pairs).toBeLessThan(1 / 7 + 0.007);
    const chances = playOutChances('S', true);
    for (const [i, p] of PIECES.entries()) expect(chances[i]).toBeCloseTo(p === 'S' ? 2 / 56 : 9 / 56, 12);
  });
});

describe('play-outs: the settings docs/game.md gives', () => {
  it('levels, board height, sequences, the chance ply of their recover moves and the well margin', () => {
    const doc = readFileSync(new URL('../../docs/game.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const read = (pattern: RegExp) => {
      const m = pattern.exec(doc);
      expect(m, String(pattern)).not.toBeNull();
      return m!.slice(1).map((v) => Number(v.replace(/,/g, '')));
    };
    expect(read(/At levels (\d+)–(\d+), on a board (\d+) rows high or more/)).toEqual([
      PLAY_OUTS.fromLevel,
      PLAY_OUTS.toLevel,
      PLAY_OUTS.fromHeight,
    ]);
    expect(read(/the same (\d+) sampled sequences of (\d+) more pieces/)).toEqual([
      PLAY_OUTS.samples,
      PLAY_OUTS.pieces,
    ]);
    expect(read(/keep (\d+) lines of their beam for the chance ply, not the (\d+) of the turn's own moves/)).toEqual([
      PLAY_OUTS.recoverChance,
      RECOVER_SEARCH.topSpawn.nearTop!.chance,
    ]);
    expect(read(/From level (\d+) every move is recover mode's/)).toEqual([PLAY_OUTS.wellFromLevel]);
    expect(read(/its average is over ([\d,]+) points higher \(`PLAY_OUTS.wellMargin`\)/)).toEqual([
      PLAY_OUTS.wellMargin,
    ]);
  });
});

describe('the playOuts option', () => {
  it('is on by default, true or false, refused otherwise and under goal versus', async () => {
    expect([checkPlayOuts(undefined), checkPlayOuts(true), checkPlayOuts(false)]).toEqual([true, true, false]);
    for (const bad of ['no', 0, 1, null]) {
      // (checked before the setup loads a table)
      await expect(TetrisAI.create({ rules: 'nes', playOuts: bad as unknown as boolean })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(/playOuts (must be true or false|is null)/),
      });
    }
    await expect(TetrisAI.create({ goal: 'versus', playOuts: false })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/playOuts is an option of the survival policy/),
    });
  });

  it('a versus run records the default, with its own AI or one given', async () => {
    const ai = await TetrisAI.create({ goal: 'versus', lookahead: 1 });
    expect(ai.playOuts).toBe(true);
    const run = { rules: 'guideline', goal: 'versus', lookahead: 1, games: 1, maxPieces: 3, threads: 1 } as const;
    expect((await playGame(run)).playOuts).toBe(true);
    expect((await playGame({ ...run, ai })).playOuts).toBe(true);
  });
});
