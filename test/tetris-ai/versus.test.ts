/**
 * The versus policy (docs/game.md, "The versus policy"): its search (assembly/versus/ through
 * src/kernels/versus.ts) against the independent reference (test/reference/versus-search-reference.ts) — the
 * same root move and value to the last bit on random positions, counters, garbage, beams and weights, every root
 * move's value too, and the evaluator's board terms on random boards; the moves TetrisAI plays are reachable and
 * report the attack the reference counts; hand-built positions with an open T-spin double slot and a T in hand are
 * played as T-spin doubles; the placement lists the search keeps by board are the reachable search's.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { playGame } from '../../src/tetris-ai/play.js';
import { reachableOnRows, ruleFacts } from '../../src/tetris-ai/rules-adapter.js';
import {
  VERSUS_TERMS,
  VERSUS_WEIGHTS,
  versusDepth,
  versusMove,
  versusRootValues,
  weightVector,
  type VersusContext,
  type VersusPlacements,
  type VersusWeights,
} from '../../src/tetris-ai/versus.js';
import { VersusKernel } from '../../src/kernels/versus.js';
import { PIECES, type Piece } from '../../src/pieces.js';
import { ATTACK_TABLES } from '../../src/rules/attack.js';
import { SPINS } from '../../src/rules/spins.js';
import { Board, reachablePlacements } from '../../src/rules/index.js';
import type { GamePlacement } from '../../src/rules/types.js';
import { cellKey } from '../reference/rules-reference.js';
import { refGuidelineLock, type RefSpin } from '../reference/versus-reference.js';
import { refQuickPlacements } from '../reference/versus-quick-reference.js';
import {
  REF_TERMS,
  refBoardTerms,
  refBoardValue,
  refHoldValue,
  refVersusSearch,
  type RefWeights,
} from '../reference/versus-search-reference.js';

const W = 10;
const H = 20;
const FULL = (1 << W) - 1;
const rules = ruleFacts('guideline');

it('the reference names the terms in the kernel order', () => {
  expect([...REF_TERMS]).toEqual([...VERSUS_TERMS]);
});

/**
 * A board of 44 bit rows under a 20-row field: garbage rows (one gap each), a stack of random column heights with
 * holes punched in it, and now and then a carved T-spin double or triple slot (so that the T-slot terms see both
 * kinds); no row full.
 */
const boardArb = fc
  .record({
    garbage: fc.integer({ min: 0, max: 6 }),
    gaps: fc.array(fc.integer({ min: 0, max: W - 1 }), { minLength: 6, maxLength: 6 }),
    heights: fc.array(fc.integer({ min: 0, max: 16 }), { minLength: W, maxLength: W }),
    holes: fc.array(fc.tuple(fc.integer({ min: 0, max: W - 1 }), fc.integer({ min: 0, max: 19 })), { maxLength: 6 }),
    tall: fc.boolean(),
    slot: fc.option(
      fc.record({
        kind: fc.constantFrom('tsd', 'tst'),
        x: fc.integer({ min: 1, max: W - 2 }),
        y: fc.integer({ min: 1, max: 10 }),
        side: fc.constantFrom(-1, 1),
        deep: fc.integer({ min: 0, max: 2 }),
      }),
      { nil: undefined },
    ),
  })
  .map(({ garbage, gaps, heights, holes, tall, slot }) => {
    const rows = new Uint32Array(44);
    for (let y = 0; y < garbage; y++) rows[y] = FULL & ~(1 << gaps[y]);
    for (let x = 0; x < W; x++) {
      const h = Math.min(tall ? heights[x] : heights[x] >> 1, H - 2);
      for (let y = garbage; y < garbage + h && y < H; y++) rows[y] |= 1 << x;
    }
    for (const [x, y] of holes) rows[y] &= ~(1 << x);
    if (slot) carve(rows, slot);
    for (let y = 0; y < H; y++) if (rows[y] === FULL) rows[y] &= ~(1 << (y % W));
    return rows;
  });

/** Carves a T-slot's shape into the rows: filled rows around it, its cells empty (a double's stem column maybe deeper),
 * its overhang filled. */
function carve(rows: Uint32Array, s: { kind: string; x: number; y: number; side: number; deep: number }): void {
  const set = (x: number, y: number, on: boolean) => {
    if (x < 0 || x >= W || y < 0 || y >= H) return;
    if (on) rows[y] |= 1 << x;
    else rows[y] &= ~(1 << x);
  };
  const { x, y, side } = s;
  if (s.kind === 'tsd') {
    for (let r = 0; r < y + 2; r++) rows[r] = FULL;
    // the stem's column emptied `deep` cells further down: the T hangs over a hole
    for (let r = y - s.deep; r <= y; r++) set(x, r, false);
    for (const dx of [-1, 0, 1]) set(x + dx, y + 1, false);
    for (let r = y + 2; r < H; r++) for (let c = 0; c < W; c++) set(c, r, false);
    set(x + side, y + 2, true);
    for (let r = y + 1; r < y + 3; r++) set(x - side, r, false);
  } else {
    // the shaft in column x, the notch at x + side in row y, the cell over the shaft at y + 3
    for (let r = 0; r < y + 2; r++) rows[r] = FULL;
    for (let r = y - 1; r <= y + 2; r++) set(x, r, false);
    set(x + side, y, false);
    for (let r = y + 2; r < H; r++) for (let c = 0; c < W; c++) if (c !== x) set(c, r, false);
    set(x, y + 3, true);
    set(x - side, y + 3, true);
  }
}

/** A one-piece search's settings under the default weights, for measuring a board's terms. */
const MEASURE_SETTINGS = {
  width: W,
  visibleHeight: 20,
  height: H,
  rules: rules.ruleSet,
  holdAllowed: true,
  depth: 1,
  beam: 1,
  quick: true,
  tSlotCuts: 0,
  weights: weightVector(VERSUS_WEIGHTS),
  attack: ATTACK_TABLES.guideline,
};

const pieceArb = fc.constantFrom(...PIECES);
const weightsArb = fc.oneof(
  fc.constant(VERSUS_WEIGHTS),
  fc
    .array(fc.integer({ min: -400, max: 400 }), { minLength: VERSUS_TERMS.length, maxLength: VERSUS_TERMS.length })
    .map((ws) => Object.fromEntries(VERSUS_TERMS.map((t, i) => [t, ws[i]])) as unknown as VersusWeights),
);
const caseArb = fc.record({
  rows: boardArb,
  current: pieceArb,
  queue: fc.array(pieceArb, { maxLength: 3 }),
  hold: fc.option(pieceArb, { nil: null }),
  canHold: fc.boolean(),
  combo: fc.integer({ min: 0, max: 14 }),
  backToBack: fc.integer({ min: 0, max: 3 }),
  incoming: fc.array(fc.record({ lines: fc.integer({ min: 1, max: 5 }), delay: fc.integer({ min: 0, max: 3 }) }), {
    maxLength: 3,
  }),
  beam: fc.integer({ min: 1, max: 6 }),
  placements: fc.constantFrom<VersusPlacements>('quick', 'full'),
  tSlotCuts: fc.constantFrom(0, 1, 2),
  weights: weightsArb,
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

const reach = (r: Uint32Array, p: Piece) => reachableOnRows(r, W, H, p, rules);
/** The quick list below the first ply: every piece but the T (the guideline's only spinning piece), where the board
 * is low enough for it. */
const reachQuick = (r: Uint32Array, p: Piece) =>
  (p !== 'T' && refQuickPlacements(r, W, H, p, rules.ruleSet)) || reach(r, p);

function setup(c: Case) {
  const memo = new Map<Piece, readonly GamePlacement[]>();
  const rootReach = (p: Piece) => {
    let r = memo.get(p);
    if (!r) memo.set(p, (r = reach(c.rows, p)));
    return r;
  };
  const ctx: VersusContext = {
    width: W,
    height: H,
    visibleHeight: 20,
    rules,
    beam: c.beam,
    placements: c.placements,
    weights: weightVector(c.weights),
    tSlotCuts: c.tSlotCuts,
  };
  const state = {
    rows: c.rows,
    current: c.current,
    queue: c.queue,
    hold: c.hold,
    canHold: c.canHold,
    combo: c.combo,
    backToBack: c.backToBack,
    incoming: c.incoming,
  };
  const refCtx = {
    width: W,
    visible: 20,
    depth: versusDepth(1 + c.queue.length, c.hold, true),
    beam: c.beam,
    holdAllowed: true,
    weights: c.weights as unknown as RefWeights,
    reach,
    reachBelow: c.placements === 'quick' ? reachQuick : undefined,
    tSlotCuts: c.tSlotCuts,
  };
  const refState = { ...state, sequence: [c.current, ...c.queue] };
  return { ctx, state, rootReach, refCtx, refState };
}

/** A kernel position of one T on `rows` (bit rows), nothing held, no counters, no garbage. */
const position = (rows: ArrayLike<number>) => ({
  rows,
  sequence: [0],
  hold: -1,
  canHold: true,
  combo: 0,
  backToBack: 0,
  incoming: [],
});

describe('the versus search chooses as the reference does', () => {
  it('the same root move and value on random positions (property)', () => {
    let moves = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const { ctx, state, rootReach, refCtx, refState } = setup(c);
        const want = refVersusSearch(refCtx, refState);
        const got = versusMove(ctx, state, rootReach);
        if (want.root === null) {
          expect(got).toBeNull();
          return;
        }
        moves++;
        expect(got).not.toBeNull();
        expect(got!.hold).toBe(want.root.hold);
        const piece = want.root.hold ? (c.hold ?? c.queue[0]) : c.current;
        expect(got!.placement).toBe(rootReach(piece)[want.root.index]);
        expect(Object.is(got!.value, want.value)).toBe(true);
      }),
      { seed: 1, numRuns: 150 },
    );
    expect(moves).toBeGreaterThan(100);
  }, 120_000);

  it('with the bound on the children that cannot enter a full level: the same line, value, attack and counts as without it (property)', () => {
    const kernel = VersusKernel.get();
    // whole and fractional weights of either sign (a positive weight on the covered cells turns the bound off)
    const anyWeightsArb = fc.oneof(
      weightsArb.map((w) => weightVector(w)),
      fc.array(fc.double({ min: -500, max: 500, noNaN: true }), {
        minLength: VERSUS_TERMS.length,
        maxLength: VERSUS_TERMS.length,
      }),
    );
    let bounded = 0;
    fc.assert(
      fc.property(caseArb, anyWeightsArb, (c, weights) => {
        const settings = {
          ...MEASURE_SETTINGS,
          depth: versusDepth(1 + c.queue.length, c.hold, true),
          beam: c.beam,
          quick: c.placements === 'quick',
          tSlotCuts: c.tSlotCuts,
          weights,
        };
        const position = {
          rows: c.rows,
          sequence: [c.current, ...c.queue].map((p) => PIECES.indexOf(p)),
          hold: c.hold === null ? -1 : PIECES.indexOf(c.hold),
          canHold: c.canHold,
          combo: c.combo,
          backToBack: c.backToBack,
          incoming: c.incoming,
        };
        const full = kernel.search({ ...settings, bound: false }, position);
        const got = kernel.search(settings, position);
        expect(full.bounded).toBe(0);
        bounded += got.bounded;
        expect({ ...got, value: Object.is(got.value, full.value), bounded: 0 }).toEqual({
          ...full,
          value: true,
          bounded: 0,
        });
      }),
      { numRuns: 150, seed: 54 },
    );
    // the bound was taken, often
    expect(bounded).toBeGreaterThan(1000);
  }, 120_000);

  it('every root move is valued as the reference values it when forced (property)', () => {
    let valued = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const { ctx, state, rootReach, refCtx, refState } = setup(c);
        const values = versusRootValues(ctx, state, rootReach);
        for (const v of values) {
          const piece = v.hold ? (c.hold ?? c.queue[0]) : c.current;
          const index = rootReach(piece).indexOf(v.placement);
          const want = refVersusSearch(refCtx, refState, { hold: v.hold, index });
          expect(Object.is(v.value, want.value)).toBe(true);
          valued++;
        }
      }),
      { numRuns: 25, seed: 52 },
    );
    // some 30 root moves a case (a case with no move has none): the loop ran
    expect(valued).toBeGreaterThan(250);
  }, 120_000);

  it('reads more than 32 incoming entries with the tail folded into the 32nd: the 34-entry queue as the reference plays it', () => {
    // kernels/versus.ts writes at most MAX_INCOMING = 32 entries and adds the lines of the rest to the last one
    // written (it keeps that entry's delay): 34 one-line entries are 31 of them and one of 3 lines. The line waits
    // or rises as the reference's 34 entries do, so its value is the reference's; cut at 32 entries it is not.
    const rows = Uint32Array.from({ length: 44 });
    rows.set(Board.fromRows(['##........', '#...######', '##.#######', '####.#####']).rows);
    const one = (n: number, delay: number) => Array.from({ length: n }, () => ({ lines: 1, delay }));
    for (const delay of [0, 2, 9]) {
      const search = (incoming: Case['incoming']) => {
        const c: Case = {
          rows,
          current: 'T',
          queue: ['I', 'O', 'L'],
          hold: null,
          canHold: true,
          combo: 0,
          backToBack: 0,
          incoming,
          beam: 4,
          placements: 'quick',
          tSlotCuts: 0,
          weights: VERSUS_WEIGHTS,
        };
        const { ctx, state, rootReach, refCtx, refState } = setup(c);
        const got = versusMove(ctx, state, rootReach)!;
        const want = refVersusSearch(refCtx, refState);
        return {
          got: { hold: got.hold, index: rootReach(got.hold ? 'I' : 'T').indexOf(got.placement), value: got.value },
          want: { ...want.root, value: want.value },
        };
      };
      const long = search(one(34, delay));
      expect(long.got).toEqual(search([...one(31, delay), { lines: 3, delay }]).got);
      expect(long.got).toEqual(long.want);
      // the two lines past the 32nd entry count: the queue cut at 32 entries is valued otherwise
      expect(search(one(32, delay)).got.value).not.toBe(long.want.value);
    }
  });

  it("the kernel's board terms are the reference's on random boards (property)", () => {
    const kernel = VersusKernel.get();
    fc.assert(
      fc.property(
        boardArb,
        fc.array(fc.record({ lines: fc.integer({ min: 1, max: 6 }), delay: fc.integer({ min: 0, max: 3 }) }), {
          maxLength: 3,
        }),
        fc.integer({ min: 0, max: 2 }),
        (rows, incoming, backToBack) => {
          const { terms, value } = kernel.measure(MEASURE_SETTINGS, {
            rows,
            sequence: [0],
            hold: -1,
            canHold: true,
            combo: 0,
            backToBack,
            incoming,
          });
          const waiting = incoming.reduce((a, e) => a + e.lines, 0);
          const trimmed = Array.from(rows);
          const want = refBoardTerms(trimmed, W, 20, 0, waiting, backToBack > 0);
          const got = Object.fromEntries(VERSUS_TERMS.slice(0, 16).map((t, i) => [t, terms[i]]));
          expect(got).toEqual(want);
          expect(Number.isFinite(value)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('with imagined T-spins, the board value is the reference one on random boards (property)', () => {
    const kernel = VersusKernel.get();
    fc.assert(
      fc.property(
        boardArb,
        fc.integer({ min: 1, max: 3 }),
        fc.option(pieceArb, { nil: null }),
        weightsArb,
        (rows, tSlotCuts, hold, weights) => {
          const { value } = kernel.measure(
            { ...MEASURE_SETTINGS, tSlotCuts, weights: weightVector(weights) },
            { ...position(rows), hold: hold === null ? -1 : PIECES.indexOf(hold) },
          );
          const trimmed = Array.from(rows);
          while (trimmed.length > 0 && trimmed[trimmed.length - 1] === 0) trimmed.pop();
          const ref = weights as unknown as RefWeights;
          const want = refBoardValue(trimmed, W, 20, 0, 0, false, ref, tSlotCuts) + refHoldValue(trimmed, W, hold, ref);
          expect(Object.is(value, want)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('an imagined T-spin double values the board its T leaves (hand-computed)', () => {
    const kernel = VersusKernel.get();
    const rows = Board.fromRows([...Array(17).fill('..........'), '##........', '#...######', '##.#######']).rows;
    const { terms, value } = kernel.measure({ ...MEASURE_SETTINGS, tSlotCuts: 1 }, position(rows));
    // the T fills the slot, its two rows clear: '##........' is left, one row high
    const byName = Object.fromEntries(VERSUS_TERMS.slice(0, 16).map((t, i) => [t, terms[i]]));
    expect(byName).toEqual({
      height: 1,
      overHalf: 0,
      overQuarter: 0,
      bumpiness: 1, // heights 1 1 0 … 0, the well the rightmost lowest column (9): |1 - 1| + |1 - 0| + 0 …
      bumpinessSq: 1,
      rowTransitions: 2 + 19 * 2, // the row '##........': filled wall, ##, empty to the wall; 19 empty rows
      holes: 0,
      overhangs: 0,
      covered: 0,
      coveredSq: 0,
      wellDepth: 0,
      tSlot0: 0,
      tSlot1: 0,
      tSlot2: 1,
      tSlot3: 0,
      backToBack: 0,
    });
    const w = VERSUS_WEIGHTS;
    const rest = w.height * 1 + w.bumpiness * 1 + w.bumpinessSq * 1 + w.rowTransitions * 40;
    expect(value).toBe(w.tSlot2 + rest);
    // without imagined spins the slot is valued as it stands, over the board with its slot open
    expect(kernel.measure(MEASURE_SETTINGS, position(rows)).terms[13]).toBe(1);
  });

  it('the hold box counts: a T held, and more over a board with a T-slot (hand-computed and the reference)', () => {
    const kernel = VersusKernel.get();
    const board = (b: string[]) => Board.fromRows([...Array(20 - b.length).fill('..........'), ...b]).rows;
    const slotted = board(['##........', '#...######', '##.#######']);
    const plain = board(['#...######', '##.#######']);
    expect([VERSUS_TERMS.indexOf('holdT'), VERSUS_TERMS.indexOf('holdTSlot')]).toEqual([16, 17]);
    const measure = (rows: ArrayLike<number>, held: Piece | null) =>
      kernel.measure(MEASURE_SETTINGS, { ...position(rows), hold: held === null ? -1 : PIECES.indexOf(held) });
    const held = (t: number[]) => [t[16], t[17]];
    expect(held(measure(slotted, 'T').terms)).toEqual([1, 1]);
    expect(held(measure(plain, 'T').terms)).toEqual([1, 0]);
    for (const other of [null, 'I', 'O'] as const) expect(held(measure(slotted, other).terms)).toEqual([0, 0]);
    // the value: the board's as it stands plus the hold box's terms (no T-spin imagined under MEASURE_SETTINGS)
    const w = VERSUS_WEIGHTS;
    expect(measure(slotted, 'T').value).toBe(measure(slotted, null).value + (w.holdT + w.holdTSlot));
    expect(measure(plain, 'T').value).toBe(measure(plain, null).value + w.holdT);
    expect(measure(slotted, 'I').value).toBe(measure(slotted, null).value);
    for (const rows of [slotted, plain]) {
      const trimmed = Array.from(rows);
      while (trimmed.length > 0 && trimmed[trimmed.length - 1] === 0) trimmed.pop();
      const ref = w as unknown as RefWeights;
      const want = refBoardValue(trimmed, W, 20, 0, 0, false, ref, -1) + refHoldValue(trimmed, W, 'T', ref);
      expect(measure(rows, 'T').value).toBe(want);
    }
  });

  it('carved T-slots are found: a T-spin double slot ready clears 2 (its stem column may be deeper), a triple slot 3', () => {
    const kernel = VersusKernel.get();
    const termsOf = (board: string[]) =>
      kernel.measure(
        MEASURE_SETTINGS,
        position(Board.fromRows([...Array(20 - board.length).fill('..........'), ...board]).rows),
      ).terms;
    const slot = (t: number[]) => [11, 12, 13, 14].findIndex((i) => t[i] === 1);
    // T-spin double, the overhang on the left
    expect(slot(termsOf(['##........', '#...######', '##.#######']))).toBe(2);
    // the same over a deeper stem column: the T hangs on the cells under its wings, over a hole
    expect(slot(termsOf(['##........', '#...######', '##.#######', '##.#######']))).toBe(2);
    // the same, one row short on the right: clears one
    expect(slot(termsOf(['##........', '#...######', '##.######.']))).toBe(1);
    // T-spin triple: the shaft in column 2 under the cell at its top, the notch on the right
    expect(slot(termsOf(['.##.......', '.##.......', '.#........', '##.#######', '##..######', '##.#######']))).toBe(3);
    // no overhang: no slot
    expect(slot(termsOf(['#...######', '##.#######']))).toBe(-1);
  });
});

describe('the quick placement list below the first ply', () => {
  const cellsOf = (list: readonly { cells: readonly (readonly [number, number])[] }[]) =>
    new Set(list.map((p) => cellKey(p.cells)));
  /** A board without overhangs: columns filled from the floor to random heights (no row full). */
  const stackArb = fc.array(fc.integer({ min: 0, max: 18 }), { minLength: W, maxLength: W }).map((heights) => {
    const rows = new Uint32Array(44);
    heights.forEach((h, x) => {
      for (let y = 0; y < h; y++) rows[y] |= 1 << x;
    });
    for (let y = 0; y < H; y++) if (rows[y] === FULL) rows[y] &= ~(1 << (y % W));
    return rows;
  });

  it("is the reference's, in its order, on random boards (property)", () => {
    const kernel = VersusKernel.get();
    let listed = 0;
    fc.assert(
      fc.property(fc.oneof(boardArb, stackArb), pieceArb, (rows, piece) => {
        const got = kernel.quickPlacements(MEASURE_SETTINGS, position(rows), PIECES.indexOf(piece));
        const want = refQuickPlacements(rows, W, H, piece, rules.ruleSet);
        if (want === null) {
          expect(got).toBeNull();
          return;
        }
        listed++;
        const names = rules.ruleSet.rotationSystem === 'SRS' ? ['0', 'R', '2', 'L'] : [];
        expect(got!.map((p) => `${names[p.state]} ${p.x} ${p.y}`)).toEqual(
          want.map((p) => `${p.rotation} ${p.x} ${p.y}`),
        );
      }),
      { numRuns: 400, seed: 4 },
    );
    expect(listed).toBeGreaterThan(150);
  }, 60_000);

  it('lists reachable placements only, and every one on a board without overhangs (property)', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.oneof(boardArb, stackArb), pieceArb, (rows, piece) => {
        const quick = refQuickPlacements(rows, W, H, piece, rules.ruleSet);
        if (quick === null) return;
        const all = cellsOf(reach(rows, piece));
        for (const key of cellsOf(quick)) expect(all.has(key)).toBe(true);
        let overhangs = false;
        for (let y = 1; y < rows.length; y++) if (rows[y] & ~rows[y - 1] & FULL) overhangs = true;
        if (!overhangs) {
          compared++;
          expect(cellsOf(quick)).toEqual(all);
        }
      }),
      { numRuns: 600, seed: 4 },
    );
    expect(compared).toBeGreaterThan(100);
  }, 60_000);

  it('tucks a piece under an overhang one column aside, which a hard drop cannot reach', () => {
    // the overhang covers columns 0 and 1 at row 2: a J gets under it flat, upside down and upright, each one column
    // left of a hard drop
    const rows = Uint32Array.from(Board.fromRows(['##........', '..........', '#.......##'], 40).rows);
    const quick = refQuickPlacements(rows, W, H, 'J', rules.ruleSet)!;
    const under = quick.filter((p) => p.cells.some(([x, y]) => x <= 1 && y <= 1)).map((p) => cellKey(p.cells));
    expect(under).toEqual(['1,0 1,1 2,0 3,0', '1,1 2,1 3,0 3,1', '1,0 2,0 2,1 2,2']);
    const all = cellsOf(reach(rows, 'J'));
    for (const key of under) expect(all.has(key)).toBe(true);
    const kernel = VersusKernel.get().quickPlacements(MEASURE_SETTINGS, position(rows), PIECES.indexOf('J'))!;
    expect(kernel.length).toBe(quick.length);
  });
});

describe('the placement lists kept by board (assembly/versus/reach-cache.ts)', () => {
  const other = ruleFacts('tgm');
  const under = (facts: typeof rules) => ({ ...MEASURE_SETTINGS, rules: facts.ruleSet });
  const words = (list: readonly { x: number; y: number; spin: number }[]) => list.map((p) => `${p.x} ${p.y} ${p.spin}`);
  const wanted = (list: readonly GamePlacement[]) => list.map((p) => `${p.x} ${p.y} ${SPINS.indexOf(p.spin)}`);

  it("are the reachable search's lists, read again, and a rule set's own after a change of rules (property)", () => {
    const kernel = VersusKernel.get();
    fc.assert(
      fc.property(boardArb, pieceArb, (rows, piece) => {
        const pid = PIECES.indexOf(piece);
        // guideline, then another rule set on the same board (the table must not answer with the guideline's
        // list), then the guideline again; each asked twice, the second time from the table
        for (const facts of [rules, other, rules]) {
          const want = wanted(reachableOnRows(rows, W, H, piece, facts));
          for (let pass = 0; pass < 2; pass++) {
            const got = kernel.listedPlacements(under(facts), position(rows), pid, false)!;
            expect(words(got)).toEqual(want);
          }
        }
        const quick = refQuickPlacements(rows, W, H, piece, rules.ruleSet);
        for (let pass = 0; pass < 2; pass++) {
          const got = kernel.listedPlacements(MEASURE_SETTINGS, position(rows), pid, true);
          if (quick === null) expect(got).toBeNull();
          else expect(words(got!)).toEqual(quick.map((p) => `${p.x} ${p.y} 0`));
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});

describe('TetrisAI under goal versus', () => {
  let ai: TetrisAI;
  beforeAll(async () => {
    ai = await TetrisAI.create({ rules: 'guideline', goal: 'versus' });
  });

  it('its moves are reachable and report the attack the reference counts (property)', () => {
    let moves = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const board = Board.fromBits(c.rows.slice(0, 40), W, 40);
        const move = ai.nextMove({
          board,
          current: c.current,
          queue: c.queue,
          hold: c.hold,
          canHold: c.canHold,
          combo: c.combo,
          backToBack: c.backToBack,
          incoming: c.incoming,
        });
        if (!move) return;
        moves++;
        expect(move.mode).toBe('versus');
        const piece = move.hold ? (c.hold ?? c.queue[0]) : c.current;
        expect(move.piece).toBe(piece);
        const listed = reachablePlacements(board.withHeight(40), piece, { rules: 'guideline' }).find(
          (p) => cellKey(p.cells) === cellKey(move.cells),
        );
        expect(listed).toBeDefined();
        expect(move.spin).toBe(listed!.spin);
        // the reference's count of the lock
        const placed = board.withHeight(40).place(move.cells);
        const perfect = placed.lines > 0 && placed.board.rows.every((r) => r === 0);
        const want = refGuidelineLock(placed.lines, move.spin as RefSpin, perfect, {
          combo: c.combo,
          b2b: c.backToBack > 0,
        });
        expect(move.attack).toBe(want.sent);
        expect(move.perfectClear).toBe(perfect);
      }),
      { numRuns: 60 },
    );
    // a case without a move is rare (no piece the turn allows has a placement): the checks ran
    expect(moves).toBeGreaterThan(50);
  }, 120_000);

  it('makes the T-spin double an open slot offers with the known pieces when a T is in hand', () => {
    // Garbage under each slot keeps a perfect clear out of reach of the known pieces. The AI may place another piece
    // first (holding the T), so the known pieces are played out: one of the locks is a full T-spin double.
    const garbage = ['####.#####', '.#########'];
    const positions: { board: string[]; queue: string; hold: Piece | null }[] = [
      { board: ['##........', '#...######', '##.#######', ...garbage], queue: 'IOLJS', hold: null },
      { board: ['........##', '######...#', '#######.##', ...garbage], queue: 'OIZSL', hold: 'I' },
      {
        board: ['###.......', '##...#####', '###.######', '#####.####', '####.#####', ...garbage],
        queue: 'JLOSZ',
        hold: null,
      },
    ];
    for (const position of positions) {
      let board = Board.fromRows(position.board, 40);
      let pieces = ['T', ...position.queue] as Piece[];
      let hold = position.hold;
      const kinds: string[] = [];
      while (pieces.length > 0 && !kinds.includes('tSpinDouble')) {
        const move = ai.nextMove({ board, current: pieces[0], queue: pieces.slice(1), hold, canHold: true });
        if (!move) break;
        // hold puts the current piece in the box and plays the one there (the queue's first when it was empty)
        const played = !move.hold ? pieces[0] : (hold ?? pieces[1]);
        expect(move.piece).toBe(played);
        if (move.hold) {
          if (hold === null) pieces = [pieces[0], ...pieces.slice(2)];
          hold = pieces[0];
        }
        pieces = pieces.slice(1);
        kinds.push(move.spin === 'full' ? move.clearKind : `${move.clearKind}/${move.spin}`);
        board = board.place(move.cells).board;
      }
      expect([position.board, kinds.includes('tSpinDouble')]).toEqual([position.board, true]);
    }
  });

  it("plays docs/game.md's example: a T-spin double with back-to-back, 5 lines", () => {
    const move = ai.nextMove({
      board: ['##........', '#...######', '##.#######', '####.#####'],
      current: 'T',
      queue: 'IOLJS',
      combo: 0,
      backToBack: 1,
      incoming: [{ lines: 2, delay: 0 }],
    });
    expect([move?.clearKind, move?.spin, move?.attack, move?.mode]).toEqual(['tSpinDouble', 'full', 5, 'versus']);
  });

  it('refuses the survival policy options and rule sets without an attack table', async () => {
    await expect(TetrisAI.create({ rules: 'nes', goal: 'versus' })).rejects.toThrow(/attack table/);
    await expect(TetrisAI.create({ goal: 'versus', well: 'left' })).rejects.toThrow(/option of the survival policy/);
    await expect(TetrisAI.create({ goal: 'versus', versus: { beam: 0 } })).rejects.toThrow(StackRankError);
    await expect(TetrisAI.create({ goal: 'versus', versus: { weights: { holes: 'x' as never } } })).rejects.toThrow(
      /versus.weights.holes/,
    );
    await expect(TetrisAI.create({ goal: 'versus', versus: { weights: { nope: 1 } as never } })).rejects.toThrow(
      /unknown term/,
    );
    await expect(TetrisAI.create({ versus: { beam: 4 } })).rejects.toThrow(/goal 'versus'/);
    // playGame refuses it the same way: its games would not play it
    await expect(playGame({ rules: 'guideline', versus: { beam: 4 }, games: 1, maxPieces: 5 })).rejects.toThrow(
      "the versus option is the versus search's: give it with goal 'versus'",
    );
    // `table` is unused under goal 'versus', but a value that is no table is still refused
    for (const table of [42, { width: 9 }])
      await expect(TetrisAI.create({ goal: 'versus', table: table as never })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(/^table must be a RankTable from buildRankTable or loadRankTable; got /),
      });
    await expect(TetrisAI.create({ goal: 'versus', versus: { placements: 'all' as never } })).rejects.toThrow(
      /versus.placements must be one of quick, full; got "all"/,
    );
    await expect(TetrisAI.create({ goal: 'versus', strength: 5 })).rejects.toThrow(/option of the survival policy/);
    await expect(TetrisAI.create({ goal: 'attack' as never })).rejects.toThrow(/goal must be one of/);
  });

  it('rankPlacements lists the versus move first, valued in evaluator points', () => {
    const board = ['##........', '#...######', '##.#######', '####.#####', '.#########'];
    const r = ai.rankPlacements({ board, current: 'T', queue: 'IOLJS' });
    expect(r.mode).toBe('versus');
    expect(r.unit).toBe('evaluatorScore');
    expect(r.placements[0].clearKind).toBe('tSpinDouble');
    expect(r.placements[0].loss).toBe(0);
    // every root move with and without hold is listed once
    const keys = r.placements.map((p) => `${p.hold}${cellKey(p.cells)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps a T in the hold box over a ready slot when no other T is known (a golden position)', async () => {
    // a line that ends with a T held over a T-slot counts (VERSUS_WEIGHTS holdT, holdTSlot; docs/game.md, "The hold
    // box"): the O goes on the left and the slot waits; with both weights 0 the held T makes the T-spin double now
    const board = ['#.........', '#....#...#', '######..##', '#####...##', '######.###'];
    const position = { board, current: 'O' as const, queue: 'OILZS', hold: 'T' as const };
    const first = ai.rankPlacements(position).placements[0];
    expect([first.hold, first.piece, first.clearKind]).toEqual([false, 'O', 'none']);
    expect(first.cells).toEqual([
      [1, 3],
      [2, 3],
      [1, 4],
      [2, 4],
    ]);
    const weights = { holdT: 0, holdTSlot: 0 };
    const zero = await TetrisAI.create({ rules: 'guideline', goal: 'versus', versus: { weights } });
    const now = zero.rankPlacements(position).placements[0];
    expect([now.hold, now.piece, now.clearKind]).toEqual([true, 'T', 'tSpinDouble']);
  });
});
