/**
 * The versus simulator's match (src/versus/match.ts) against the independent reference
 * (test/reference/versus-match-reference.ts) with scripted players: turn by turn the same view for each side (board
 * with its garbage holes, pieces, hold, combo, back-to-back, incoming garbage), the same winner, rounds and per-side
 * counts (pieces, lines, attack, sent, cancelled, garbage received, clears by kind, longest combo, how a side lost)
 * over many seeded matches under several garbage delays, messiness and stream settings, back-to-back chains
 * included; and the rules the reference alone would not pin: the tie at the cap, both seats out in one round, an
 * external player's illegal move, its unreachable move (played, no spin, counted) and judged spin (capped at the best
 * reachable one).
 */
import { describe, expect, it } from 'vitest';
import { ORIENTATIONS, PIECES, orientationCells, type Piece } from '../../src/pieces.js';
import { Board } from '../../src/rules/board.js';
import { CLEAR_KINDS } from '../../src/rules/attack.js';
import { DEFAULT_MESSINESS } from '../../src/rules/garbage.js';
import { reachablePlacements } from '../../src/rules/reachable.js';
import type { GamePlacement, Spin } from '../../src/rules/types.js';
import {
  judgeSpin,
  playMatch,
  type LockReport,
  type MatchSettings,
  type PlayerMove,
  type SeatView,
  type VersusPlayer,
} from '../../src/versus/match.js';
import { type RefMove, type RefPlayer, type RefView, refMatch } from '../reference/versus-match-reference.js';
import { cellKey as refCellKey, refBoardFromRows } from '../reference/rules-reference.js';
import { refSpins } from '../reference/versus-reference.js';

type Style = 'well' | 'tetris' | 'low' | 'tower';

/**
 * A scripted player: each turn the placement (of the current piece, or of the piece hold gives) with the least
 * score. 'well' stacks low and leaves column 9 to I pieces standing up (Tetrises: attack); 'low' fills the lowest
 * cells (singles, doubles, combos); 'tower' builds up in the middle and soon tops out; 'tetris' is 'well' that puts
 * an I in the well only when it clears four lines (Tetris after Tetris: back-to-back chains). Holds an S or Z
 * ('well', 'tetris').
 */
function choose(style: Style, rows: ArrayLike<number>, current: string, queue: readonly string[], hold: string | null) {
  const board = Board.fromBits(Array.from(rows).slice(0, 40), 10, 40);
  const options: { hold: boolean; piece: string }[] = [{ hold: false, piece: current }];
  const well = style === 'well' || style === 'tetris';
  if (well && (current === 'S' || current === 'Z')) options.unshift({ hold: true, piece: hold ?? queue[0] });
  let best: { hold: boolean; p: GamePlacement; score: number } | null = null;
  for (const o of options) {
    for (const p of reachablePlacements(board, o.piece as Piece, { rules: 'guideline' })) {
      const ys = p.cells.map(([, y]) => y);
      const inWell = p.cells.filter(([x]) => x === 9).length;
      let score = ys.reduce((a, y) => a + y, 0) * 10 + p.cells[0][0];
      if (well) score += inWell > 0 && !(p.piece === 'I' && inWell === 4) ? 1000 : 0;
      if (style === 'tetris') score = shape(board, p.cells) + (inWell > 0 && cleared(board, p.cells) < 4 ? 1000 : 0);
      if (style === 'tower') score = -Math.max(...ys) * 100 + Math.abs(p.cells[0][0] - 4);
      if (!best || score < best.score) best = { hold: o.hold, p, score };
    }
  }
  return best && { hold: best.hold, piece: best.p.piece, cells: best.p.cells, spin: best.p.spin };
}

/** What a player was shown on one turn, in the reference's form (the simulator's view is copied into it). */
type Shown = RefView;

/** Lines the cells would clear on the board. */
function cleared(board: Board, cells: readonly (readonly [number, number])[]): number {
  const full = (1 << board.width) - 1;
  const rows = new Map<number, number>();
  for (const [x, y] of cells) rows.set(y, (rows.get(y) ?? board.rows[y]) | (1 << x));
  return [...rows.values()].filter((r) => r === full).length;
}

/** A stacking score for 'tetris' (less is better): holes, bumps and height of columns 0-8 after the lock. */
function shape(board: Board, cells: readonly (readonly [number, number])[]): number {
  const full = (1 << board.width) - 1;
  const rows = Array.from(board.rows);
  for (const [x, y] of cells) rows[y] |= 1 << x;
  const kept = rows.filter((r) => r !== full);
  const heights = Array.from({ length: board.width - 1 }, (_, x) => {
    let h = kept.length;
    while (h > 0 && !((kept[h - 1] >> x) & 1)) h--;
    return h;
  });
  let holes = 0;
  heights.forEach((h, x) => {
    for (let y = 0; y < h; y++) if (!((kept[y] >> x) & 1)) holes++;
  });
  let bumps = 0;
  for (let x = 1; x < heights.length; x++) bumps += Math.abs(heights[x] - heights[x - 1]);
  return holes * 100 + bumps * 5 + heights.reduce((a, h) => a + h, 0);
}

/** A copy of what the simulator shows a seat (its rows are the seat's own, changed by later locks). */
const show = (v: SeatView): Shown => ({
  rows: Array.from(v.rows.subarray(0, 40)),
  current: v.current,
  queue: [...v.queue],
  hold: v.hold,
  combo: v.combo,
  backToBack: v.backToBack,
  incoming: v.incoming.map((e) => ({ lines: e.lines, delay: e.delay })),
});

function scripted(style: Style, external = false, shown?: Shown[]): VersusPlayer {
  return {
    name: style,
    external,
    begin() {},
    move: (v: SeatView) => {
      shown?.push(show(v));
      return choose(style, v.rows, v.current, v.queue, v.hold) as PlayerMove | null;
    },
    locked() {},
    end() {},
  };
}

const refPlayer =
  (style: Style, shown?: Shown[]): RefPlayer =>
  (v) => {
    shown?.push(structuredClone(v));
    return choose(style, v.rows, v.current, v.queue, v.hold) as RefMove | null;
  };

const cellKey = (cells: readonly (readonly [number, number])[]) =>
  cells
    .map(([x, y]) => y * 64 + x)
    .sort((a, b) => a - b)
    .join(' ');

/**
 * The legal placements of `piece` (four cells of one of its shapes, on empty cells of the visible rows, resting on
 * the floor or the stack: what the match checks) that reachablePlacements does not reach from the guideline spawn,
 * such as a hook under an overhang no key sequence gets round.
 */
function unreachableMoves(rows: ArrayLike<number>, piece: Piece): [number, number][][] {
  const board = Board.fromBits(Array.from(rows).slice(0, 40), 10, 40);
  const reached = new Set(reachablePlacements(board, piece, { rules: 'guideline' }).map((p) => cellKey(p.cells)));
  const out: [number, number][][] = [];
  for (const o of ORIENTATIONS[PIECES.indexOf(piece)]) {
    const shape = orientationCells(o);
    for (let y = 0; y < 20; y++)
      for (let x = 0; x + o.width <= 10; x++) {
        const cells = shape.map(([a, b]) => [a + x, b + y] as [number, number]);
        if (cells.some(([cx, cy]) => (rows[cy] >> cx) & 1)) continue;
        if (!cells.some(([cx, cy]) => cy === 0 || (rows[cy - 1] >> cx) & 1)) continue;
        if (!reached.has(cellKey(cells))) out.push(cells);
      }
  }
  return out;
}

/** A tally's clears by kind, keyed by name through CLEAR_KINDS (the tally counts by CLEAR_KINDS index). */
const kindsByName = (kinds: readonly number[]) => Object.fromEntries(CLEAR_KINDS.map((k, i) => [k, kinds[i]]));

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
    ['Tetris after Tetris', { seed: 3, garbageDelay: 1 }, ['tetris', 'low']],
  ];
  const totals = {
    cancelled: 0,
    received: 0,
    sent: 0,
    decided: 0,
    capped: 0,
    backToBack: 0,
    combo3: 0,
    kinds: new Set<string>(),
    garbageTurns: 0,
  };
  for (const [name, over, styles] of cases) {
    it(name, async () => {
      const s = settings(over);
      for (let m = 0; m < 6; m++) {
        const gotShown: [Shown[], Shown[]] = [[], []];
        const wantShown: [Shown[], Shown[]] = [[], []];
        const got = await playMatch(
          [scripted(styles[0], false, gotShown[0]), scripted(styles[1], false, gotShown[1])],
          m,
          s,
        );
        const want = refMatch([refPlayer(styles[0], wantShown[0]), refPlayer(styles[1], wantShown[1])], m, {
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
          // Turn by turn, each side was shown the reference's board (garbage holes included), pieces, hold,
          // counters and incoming garbage.
          expect(gotShown[k].length, `match ${m}, side ${k}: turns`).toBe(wantShown[k].length);
          for (let t = 0; t < wantShown[k].length; t++)
            expect(gotShown[k][t], `match ${m}, side ${k}, turn ${t + 1}`).toEqual(wantShown[k][t]);
          const { pieces, lines, attack, sent, cancelled, received, out, kinds, maxCombo } = got.sides[k];
          const { backToBackBonuses, ...wantSide } = want.sides[k];
          expect(
            { pieces, lines, attack, sent, cancelled, received, out, kinds: kindsByName(kinds), maxCombo },
            `match ${m}, side ${k}`,
          ).toEqual(wantSide);
          totals.cancelled += cancelled;
          totals.received += received;
          totals.sent += sent;
          totals.backToBack += backToBackBonuses;
          if (maxCombo >= 3) totals.combo3++;
          for (const [kind, n] of Object.entries(wantSide.kinds)) if (n > 0) totals.kinds.add(kind);
          totals.garbageTurns += wantShown[k].filter((v) => v.incoming.length > 0).length;
        }
        if (got.winner === 'draw') totals.capped++;
        else totals.decided++;
      }
    });
  }

  it('the cases exercised garbage both ways, cancelling, wins and draws, back-to-back chains and combos', () => {
    // Not vacuous: lines were sent, cancelled and received, matches were won and drawn; the reference paid
    // back-to-back bonuses (clears continuing a chain, counted apart from combo bonuses) and saw combos of 3 or more,
    // and the simulator's attack, maxCombo and kinds equalled it.
    expect(totals.sent).toBeGreaterThan(50);
    expect(totals.cancelled).toBeGreaterThan(0);
    expect(totals.received).toBeGreaterThan(20);
    expect(totals.garbageTurns).toBeGreaterThan(0);
    expect(totals.decided).toBeGreaterThan(3);
    expect(totals.capped).toBeGreaterThan(0);
    expect(totals.backToBack).toBeGreaterThan(0);
    expect(totals.combo3).toBeGreaterThan(0);
    expect([...totals.kinds].sort()).toEqual(expect.arrayContaining(['double', 'single', 'tetris', 'triple']));
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

  it("an external player's unreachable move is played, with no spin, and counted as unreachable", async () => {
    // Plays, where one exists, a legal placement the rules layer does not reach (claiming a full spin for it), else
    // the 'well' move; the reference plays the same moves with no spin, as the match should judge them.
    const pockets: [number, number][][] = [];
    const reports: LockReport[] = [];
    let seen = 0;
    const shown: Shown[] = [];
    const pocket: VersusPlayer = {
      ...scripted('well', true),
      move(v) {
        shown.push(show(v));
        const u = unreachableMoves(v.rows, v.current);
        if (u.length === 0) return choose('well', v.rows, v.current, v.queue, v.hold) as PlayerMove | null;
        pockets.push(u[0]);
        return { hold: false, piece: v.current, cells: u[0], spin: 'full' };
      },
      locked(report, v) {
        reports.push(report);
        const last = pockets[pockets.length - 1];
        if (last && cellKey(report.move.cells) === cellKey(last) && report.lines === 0 && report.garbageRows === 0)
          for (const [x, y] of last) {
            expect((v.rows[y] >> x) & 1, `[${x}, ${y}] placed`).toBe(1);
            seen++;
          }
      },
    };
    const refShown: Shown[] = [];
    const refPocket: RefPlayer = (v) => {
      refShown.push(structuredClone(v));
      const u = unreachableMoves(v.rows, v.current as Piece);
      if (u.length > 0) return { hold: false, piece: v.current, cells: u[0], spin: 'none' };
      return choose('well', v.rows, v.current, v.queue, v.hold) as RefMove | null;
    };
    const s = settings({ seed: 3 });
    const t = await playMatch([pocket, scripted('well')], 0, s);
    const want = refMatch([refPocket, refPlayer('well')], 0, {
      maxPieces: s.maxPieces,
      garbageDelay: s.garbageDelay,
      withinAttack: s.messiness.withinAttack,
      betweenAttacks: s.messiness.betweenAttacks,
      sameStream: true,
      seed: s.seed,
    });
    expect(pockets.length).toBeGreaterThan(0);
    expect(seen).toBeGreaterThan(0); // a pocket move that cleared nothing was seen on the board after it
    expect(t.sides[0].unreachable).toBe(pockets.length);
    expect(t.sides[1].unreachable).toBe(0);
    expect(t.sides[0].out).not.toBe('illegal');
    // Each was played as given, its claimed spin judged 'none'.
    const played = reports.filter((r) => pockets.some((c) => cellKey(c) === cellKey(r.move.cells)));
    expect(played.length).toBe(pockets.length);
    for (const r of played) expect(r.move.spin).toBe('none');
    // The match went on as the reference's, which plays the same moves: the same boards turn by turn and totals.
    expect(shown.map((v) => v.rows)).toEqual(refShown.map((v) => v.rows));
    expect({ winner: t.winner, rounds: t.rounds }).toEqual({ winner: want.winner, rounds: want.rounds });
    for (let k = 0; k < 2; k++) {
      const { pieces, lines, attack, sent, cancelled, received, out } = t.sides[k];
      expect({ pieces, lines, attack, sent, cancelled, received, out }).toEqual({
        pieces: want.sides[k].pieces,
        lines: want.sides[k].lines,
        attack: want.sides[k].attack,
        sent: want.sides[k].sent,
        cancelled: want.sides[k].cancelled,
        received: want.sides[k].received,
        out: want.sides[k].out,
      });
    }
    // A library player's same moves are played as well, and not counted.
    const library = await playMatch([{ ...pocket, external: false, locked() {} }, scripted('well')], 0, s);
    expect(library.sides[0].unreachable).toBe(0);
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
    // A mini slot: the T turns into state L against the right wall, one front corner ([8, 4]) open. Its best spin
    // is a mini, so a claimed full spin is paid as a mini; a claimed mini or none as claimed.
    const miniRows = Uint32Array.from(Board.fromRows(['#########.', '.#########', '.########.'], 40).rows);
    const mini = (spin: Spin): PlayerMove => ({
      hold: false,
      piece: 'T',
      cells: [
        [9, 2],
        [8, 3],
        [9, 3],
        [9, 4],
      ],
      spin,
    });
    // The independent reference's best spin for those cells (a breadth-first search over its own simulator).
    const refMini = refSpins(refBoardFromRows(Board.fromBits(miniRows, 10, 40).toRows()));
    expect(refMini.get(refCellKey(mini('full').cells as [number, number][]))?.spin).toBe('mini');
    expect(judgeSpin(miniRows, 10, mini('full'))).toEqual({ spin: 'mini', reached: true });
    expect(judgeSpin(miniRows, 10, mini('mini'))).toEqual({ spin: 'mini', reached: true });
    expect(judgeSpin(miniRows, 10, mini('none'))).toEqual({ spin: 'none', reached: true });
  });
});
