/**
 * The versus simulator's match (src/versus/match.ts) against the independent reference
 * (test/reference/versus-match-reference.ts) with scripted players: the same winner, rounds and per-side counts
 * (pieces, lines, attack, sent, cancelled, garbage received, how a side lost) over many seeded matches under several
 * garbage delays, messiness and stream settings; and the rules the reference alone would not pin: the tie at the
 * cap, both seats out in one round, an external player's illegal move, unreachable move and judged spin.
 */
import { describe, expect, it } from 'vitest';
import type { Piece } from '../../src/pieces.js';
import { Board } from '../../src/rules/board.js';
import { DEFAULT_MESSINESS } from '../../src/rules/garbage.js';
import { reachablePlacements } from '../../src/rules/reachable.js';
import type { GamePlacement, Spin } from '../../src/rules/types.js';
import {
  judgeSpin,
  playMatch,
  type MatchSettings,
  type PlayerMove,
  type SeatView,
  type VersusPlayer,
} from '../../src/versus/match.js';
import { type RefMove, type RefPlayer, refMatch } from '../reference/versus-match-reference.js';

type Style = 'well' | 'low' | 'tower';

/**
 * A scripted player: each turn the placement (of the current piece, or of the piece hold gives) with the least
 * score. 'well' stacks low and leaves column 9 to I pieces standing up (Tetrises: attack); 'low' fills the lowest
 * cells (singles, doubles, combos); 'tower' builds up in the middle and soon tops out. Holds an S or Z ('well').
 */
function choose(style: Style, rows: ArrayLike<number>, current: string, queue: readonly string[], hold: string | null) {
  const board = Board.fromBits(Array.from(rows).slice(0, 40), 10, 40);
  const options: { hold: boolean; piece: string }[] = [{ hold: false, piece: current }];
  if (style === 'well' && (current === 'S' || current === 'Z'))
    options.unshift({ hold: true, piece: hold ?? queue[0] });
  let best: { hold: boolean; p: GamePlacement; score: number } | null = null;
  for (const o of options) {
    for (const p of reachablePlacements(board, o.piece as Piece, { rules: 'guideline' })) {
      const ys = p.cells.map(([, y]) => y);
      const inWell = p.cells.filter(([x]) => x === 9).length;
      let score = ys.reduce((a, y) => a + y, 0) * 10 + p.cells[0][0];
      if (style === 'well') score += inWell > 0 && !(p.piece === 'I' && inWell === 4) ? 1000 : 0;
      if (style === 'tower') score = -Math.max(...ys) * 100 + Math.abs(p.cells[0][0] - 4);
      if (!best || score < best.score) best = { hold: o.hold, p, score };
    }
  }
  return best && { hold: best.hold, piece: best.p.piece, cells: best.p.cells, spin: best.p.spin };
}

function scripted(style: Style, external = false): VersusPlayer {
  return {
    name: style,
    external,
    begin() {},
    move: (v: SeatView) => choose(style, v.rows, v.current, v.queue, v.hold) as PlayerMove | null,
    locked() {},
    end() {},
  };
}

const refPlayer =
  (style: Style): RefPlayer =>
  (v) =>
    choose(style, v.rows, v.current, v.queue, v.hold) as RefMove | null;

function settings(over: Partial<MatchSettings> = {}): MatchSettings {
  return {
    width: 10,
    previews: 5,
    maxPieces: 150,
    garbageDelay: 0,
    messiness: DEFAULT_MESSINESS,
    streams: 'same',
    seed: 5,
    ...over,
  };
}

describe('a versus match against the reference', { timeout: 120_000 }, () => {
  const cases: [string, Partial<MatchSettings>, [Style, Style]][] = [
    ['same stream, delay 0', {}, ['well', 'low']],
    [
      'delay 2, messy holes',
      { garbageDelay: 2, messiness: { withinAttack: 0.3, betweenAttacks: 0.5 } },
      ['well', 'well'],
    ],
    [
      'independent streams, one hole column',
      { streams: 'independent', messiness: { withinAttack: 0, betweenAttacks: 0 } },
      ['low', 'well'],
    ],
    ['a tower against a stacker', { seed: 11, garbageDelay: 1 }, ['tower', 'well']],
  ];
  const totals = { cancelled: 0, received: 0, sent: 0, decided: 0, capped: 0, bonus: 0 };
  for (const [name, over, styles] of cases) {
    it(name, async () => {
      const s = settings(over);
      for (let m = 0; m < 6; m++) {
        const got = await playMatch([scripted(styles[0]), scripted(styles[1])], m, s);
        const want = refMatch([refPlayer(styles[0]), refPlayer(styles[1])], m, {
          maxPieces: s.maxPieces,
          garbageDelay: s.garbageDelay,
          withinAttack: s.messiness.withinAttack,
          betweenAttacks: s.messiness.betweenAttacks,
          sameStream: s.streams === 'same',
          seed: s.seed,
        });
        expect(got.seatA).toBe(m % 2);
        expect({ winner: got.winner, rounds: got.rounds }, `match ${m}`).toEqual({
          winner: want.winner,
          rounds: want.rounds,
        });
        for (let k = 0; k < 2; k++) {
          const { pieces, lines, attack, sent, cancelled, received, out } = got.sides[k];
          expect({ pieces, lines, attack, sent, cancelled, received, out }, `match ${m}, side ${k}`).toEqual(
            want.sides[k],
          );
          totals.cancelled += cancelled;
          totals.received += received;
          totals.sent += sent;
          // Tetrises with a back-to-back chain send more than 4 lines each: the chain is counted.
          if (attack > 4 * got.sides[k].kinds[4] + got.sides[k].kinds[2] + 2 * got.sides[k].kinds[3]) totals.bonus++;
        }
        if (got.winner === 'draw') totals.capped++;
        else totals.decided++;
      }
    });
  }

  it('the cases exercised garbage both ways, cancelling, wins and draws', () => {
    // Not vacuous: lines were sent, cancelled and received, matches were won and drawn, bonuses counted.
    expect(totals.sent).toBeGreaterThan(50);
    expect(totals.cancelled).toBeGreaterThan(0);
    expect(totals.received).toBeGreaterThan(20);
    expect(totals.decided).toBeGreaterThan(3);
    expect(totals.capped).toBeGreaterThan(0);
    expect(totals.bonus).toBeGreaterThan(0);
  });
});

describe('match rules', () => {
  it('a match still on at the cap is a draw after exactly maxPieces rounds', async () => {
    const t = await playMatch([scripted('well'), scripted('well')], 0, settings({ maxPieces: 7 }));
    expect(t).toMatchObject({ winner: 'draw', rounds: 7 });
    expect(t.sides.map((s) => [s.pieces, s.out])).toEqual([
      [7, null],
      [7, null],
    ]);
  });

  it('two towers on the same pieces top out in the same round: a draw', async () => {
    const t = await playMatch([scripted('tower'), scripted('tower')], 0, settings());
    expect(t.winner).toBe('draw');
    expect(t.sides[0].out).not.toBeNull();
    expect(t.sides[0].out).toBe(t.sides[1].out);
    expect(t.rounds).toBeLessThan(40);
  });

  it('side A sits in seat match % 2, and the winner is named by side, not seat', async () => {
    const even = await playMatch([scripted('well'), scripted('tower')], 0, settings());
    const odd = await playMatch([scripted('well'), scripted('tower')], 1, settings());
    expect([even.winner, odd.winner]).toEqual(['A', 'A']);
    expect(odd.seatA).toBe(1);
    expect(odd.sides[1].out).not.toBeNull();
  });

  it("a library player's illegal move throws; an external player's forfeits", async () => {
    const bad = (external: boolean): VersusPlayer => ({
      ...scripted('well', external),
      name: 'bad',
      move: (v) => ({
        hold: false,
        piece: v.current,
        cells: [
          [0, 5],
          [1, 5],
          [2, 5],
          [3, 5],
        ],
        spin: 'none',
      }),
    });
    await expect(playMatch([bad(false), scripted('well')], 0, settings())).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringContaining('does not'),
    });
    const t = await playMatch([bad(true), scripted('well')], 0, settings());
    expect(t).toMatchObject({ winner: 'B', rounds: 1 });
    expect(t.sides[0].out).toBe('illegal');
    // Four free cells resting on the floor, but no piece's shape (one of them apart from the others).
    const scattered = (external: boolean): VersusPlayer => ({
      ...scripted('well', external),
      move: (v) => ({
        hold: false,
        piece: v.current,
        cells: [
          [0, 0],
          [1, 0],
          [2, 0],
          [0, 2],
        ],
        spin: 'none',
      }),
    });
    const shape = await playMatch([scattered(true), scripted('well')], 0, settings());
    expect(shape).toMatchObject({ winner: 'B', rounds: 1 });
    expect(shape.sides[0].out).toBe('illegal');
    await expect(playMatch([scattered(false), scripted('well')], 0, settings())).rejects.toMatchObject({
      message: expect.stringContaining('does not have the shape'),
    });
  });

  it("an external player's spin is judged by the rules layer: claimed spins it cannot make are not paid", async () => {
    // Claims a full spin for every move: the rules layer gives none of them one (a 'well' game has no T slots),
    // so the attack equals the same game's without the claims.
    const liar: VersusPlayer = {
      ...scripted('well', true),
      move: (v) => ({ ...(choose('well', v.rows, v.current, v.queue, v.hold) as PlayerMove), spin: 'full' }),
    };
    const honest = await playMatch([scripted('well', true), scripted('low')], 0, settings({ maxPieces: 60 }));
    const claimed = await playMatch([liar, scripted('low')], 0, settings({ maxPieces: 60 }));
    expect(claimed.sides[0].attack).toBe(honest.sides[0].attack);
    expect(claimed.sides[0].unreachable).toBe(0);
  });

  it('judgeSpin: a sealed pocket is not reached (no spin); a T slot pays the spin claimed, at most the best', () => {
    // Rows bottom first: a 2 × 2 pocket in the corner under a roof.
    const sealed = Uint32Array.from([0b1111111100, 0b1111111100, 0b0111111111]);
    const o: PlayerMove = {
      hold: false,
      piece: 'O',
      cells: [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ],
      spin: 'full',
    };
    expect(judgeSpin(sealed, 10, o)).toEqual({ spin: 'none', reached: false });
    // docs/rules.md's T-spin double: the T turns into state 2 in the slot.
    const tsd = Board.fromRows(['...#......', '#...######', '##.#######'], 40);
    const rows = Uint32Array.from(tsd.rows);
    const t = (spin: Spin): PlayerMove => ({
      hold: false,
      piece: 'T',
      cells: [
        [1, 1],
        [2, 1],
        [3, 1],
        [2, 0],
      ],
      spin,
    });
    expect(judgeSpin(rows, 10, t('full'))).toEqual({ spin: 'full', reached: true });
    expect(judgeSpin(rows, 10, t('mini'))).toEqual({ spin: 'mini', reached: true });
    expect(judgeSpin(rows, 10, t('none'))).toEqual({ spin: 'none', reached: true });
  });
});
