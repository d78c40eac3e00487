/**
 * The recover search (src/tetris-ai/recover.ts over the recover kernel) against the independent TypeScript reference
 * (test/reference/recover-reference.ts, the search it replaced): on random boards (garbage, holes, tall stacks,
 * blocked wells), rule sets, pieces, queues, hold boxes, depths, beams, wells and weights, both choose the same
 * placement object with the same hold and the same value, to the last bit; every root move's value agrees too; and
 * the kernel's board features equal the reference's, well column included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PIECES, type Piece } from '../../src/pieces.js';
import { RULE_SET_NAMES } from '../../src/rules/rule-sets.js';
import type { GamePlacement } from '../../src/rules/types.js';
import { boardFeatures, RECOVER_WEIGHTS } from '../../src/tetris-ai/evaluate.js';
import type { RecoverWeights } from '../../src/kernels/recover.js';
import { recoverMove, recoverRootValues, type RecoverContext } from '../../src/tetris-ai/recover.js';
import { RecoverKernel } from '../../src/kernels/recover.js';
import { rowsFilled } from '../../src/tetris-ai/grid.js';
import { LANDINGS_WORDS, reachableLandings, reachableOnRows, ruleFacts } from '../../src/tetris-ai/rules-adapter.js';
import { refBoardFeatures, refRecoverMove, refRecoverRootValues } from '../reference/recover-reference.js';

const W = 10;
const H = 20;
const FULL = (1 << W) - 1;
const PLAIN: RecoverWeights = { ...RECOVER_WEIGHTS, wellCells: 0, clean: 0, floorRows: 0 };

/**
 * A board of 44 bit rows (the AI's working rows) under a 20-row field: some garbage rows (one gap each), then a
 * stack of random column heights with random holes punched in it; no row full.
 */
const boardArb = fc
  .record({
    garbage: fc.integer({ min: 0, max: 8 }),
    gaps: fc.array(fc.integer({ min: 0, max: W - 1 }), { minLength: 8, maxLength: 8 }),
    heights: fc.array(fc.integer({ min: 0, max: 18 }), { minLength: W, maxLength: W }),
    holes: fc.array(fc.tuple(fc.integer({ min: 0, max: W - 1 }), fc.integer({ min: 0, max: 19 })), { maxLength: 12 }),
    tall: fc.boolean(),
    wellOpen: fc.boolean(),
  })
  .map(({ garbage, gaps, heights, holes, tall, wellOpen }) => {
    const rows = new Uint32Array(44);
    for (let y = 0; y < garbage; y++) rows[y] = FULL & ~(1 << gaps[y]);
    for (let x = 0; x < W; x++) {
      // short stacks mostly; `tall` lets them reach near the top
      const h = Math.min(tall ? heights[x] : heights[x] >> 1, H - 1);
      if (wellOpen && x === W - 1) continue;
      for (let y = garbage; y < garbage + h && y < H; y++) rows[y] |= 1 << x;
    }
    for (const [x, y] of holes) rows[y] &= ~(1 << x);
    for (let y = 0; y < H; y++) if (rows[y] === FULL) rows[y] &= ~(1 << (y % W));
    return rows;
  });

const pieceArb = fc.constantFrom(...PIECES);

const caseArb = fc.record({
  rows: boardArb,
  rules: fc.constantFrom(...RULE_SET_NAMES),
  current: pieceArb,
  queue: fc.array(pieceArb, { maxLength: 5 }),
  hold: fc.option(pieceArb, { nil: null }),
  canHold: fc.boolean(),
  depth: fc.integer({ min: 1, max: 3 }),
  beam: fc.integer({ min: 1, max: 12 }),
  // The AI's wells are edge columns; the kernel takes any column, and one beside a wall (1 or W - 2) is where a
  // column between two cells read as filled (wall and well) gains well cells as the top rises.
  wellColumn: fc.oneof(fc.constantFrom(-1, 0, W - 1), fc.integer({ min: 1, max: W - 2 })),
  // a well a piece may cover, where the well is forgotten (wellColumn -1)
  coverWell: fc.oneof(fc.constantFrom(-1, 0, W - 1), fc.integer({ min: 1, max: W - 2 })),
  // the highest floor a clean stack may stand on (TetrisAI's: 2 or 4 by rule set)
  maxFloor: fc.integer({ min: 0, max: 4 }),
  plain: fc.boolean(),
  // The chance ply: lines valued over the next piece, whose chances may leave pieces out (0) or be uniform.
  chance: fc.option(
    fc.record({
      lines: fc.integer({ min: 1, max: 12 }),
      weights: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 7, maxLength: 7 }),
    }),
    { nil: undefined },
  ),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** Chances in proportion to the weights (uniform when all are 0). */
function chancesOf(weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (sum === 0 ? 1 / 7 : w / sum));
}

function contexts(c: Case) {
  const rules = ruleFacts(c.rules);
  const reach = (r: Uint32Array, p: Piece) => reachableOnRows(r, W, H, p, rules);
  const memo = new Map<Piece, readonly GamePlacement[]>();
  const rootReach = (p: Piece) => {
    let r = memo.get(p);
    if (!r) memo.set(p, (r = reach(c.rows, p)));
    return r;
  };
  const common = {
    width: W,
    height: H,
    visibleHeight: 20,
    wellColumn: c.wellColumn,
    coverWell: c.wellColumn === -1 ? c.coverWell : -1,
    maxFloor: c.maxFloor,
    weights: c.plain ? PLAIN : RECOVER_WEIGHTS,
    depth: c.depth,
    beam: c.beam,
    holdAllowed: rules.hold,
    chance: c.chance && { lines: c.chance.lines, pieces: chancesOf(c.chance.weights) },
  };
  const ctx: RecoverContext = { ...common, rules };
  const state = {
    rows: c.rows,
    current: c.current,
    queue: c.queue,
    hold: rules.hold ? c.hold : null,
    canHold: rules.hold && c.canHold,
  };
  return { ctx, refCtx: { ...common, reach }, state, rootReach };
}

describe('recover search: the kernel-based search chooses as the reference does', () => {
  it('the same move, hold and value on random positions (property)', () => {
    let moves = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const { ctx, refCtx, state, rootReach } = contexts(c);
        const want = refRecoverMove(refCtx, state, rootReach);
        const got = recoverMove(ctx, state, rootReach);
        if (want === null) {
          expect(got).toBeNull();
          return;
        }
        moves++;
        expect(got).not.toBeNull();
        expect(got!.placement).toBe(want.placement); // the same object: the same place in the same list
        expect(got!.hold).toBe(want.hold);
        expect(Object.is(got!.value, want.value)).toBe(true);
      }),
      { seed: 1, numRuns: 400 },
    );
    expect(moves).toBeGreaterThan(300);
  }, 300_000);

  it('the same value for every root move, in the same order (property)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { ctx, refCtx, state, rootReach } = contexts(c);
        const want = refRecoverRootValues(refCtx, state, rootReach);
        const got = recoverRootValues(ctx, state, rootReach);
        expect(got.length).toBe(want.length);
        for (let i = 0; i < want.length; i++) {
          expect(got[i].placement).toBe(want[i].placement);
          expect(got[i].hold).toBe(want[i].hold);
          expect(Object.is(got[i].value, want[i].value)).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  }, 300_000);

  it('wide beams (the buffers grow in the middle of a level) choose as the reference does', () => {
    // Beams of hundreds of lines over three pieces with hold make tens of thousands of children per level: the
    // kernel's child and node buffers grow (and keep what they hold) while a level is being expanded.
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 200, max: 1000 }), (c, beam) => {
        const { ctx, refCtx, state, rootReach } = contexts({ ...c, rules: 'guideline', depth: 3, canHold: true });
        ctx.beam = refCtx.beam = beam;
        const want = refRecoverMove(refCtx, state, rootReach);
        const got = recoverMove(ctx, state, rootReach);
        expect(got?.placement).toBe(want?.placement);
        expect(got?.hold).toBe(want?.hold);
        expect(Object.is(got?.value, want?.value)).toBe(true);
      }),
      { numRuns: 4 },
    );
  }, 300_000);

  it('a search without the caller’s root placements finds the same move', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { ctx, state, rootReach } = contexts(c);
        const a = recoverMove(ctx, state, rootReach);
        const b = recoverMove(ctx, state);
        expect(b === null).toBe(a === null);
        if (a && b) {
          expect(b.placement.cells).toEqual(a.placement.cells);
          expect(b.placement.inputs).toEqual(a.placement.inputs);
          expect([b.hold, b.value]).toEqual([a.hold, a.value]);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('recover search: the chance ply for a caller that reads only the move (moveOnly)', () => {
  it('the same move and hold; the value is the full search’s, or where the ply was skipped the value without it', () => {
    let skipped = 0;
    let ran = 0;
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 12 }), (c, lines) => {
        const { ctx, state, rootReach } = contexts({ ...c, chance: { lines, weights: [0, 0, 0, 0, 0, 0, 0] } });
        const full = recoverMove(ctx, state, rootReach);
        const moveOnly = recoverMove({ ...ctx, chance: { ...ctx.chance!, moveOnly: true } }, state, rootReach);
        const withoutPly = recoverMove({ ...ctx, chance: undefined }, state, rootReach);
        expect(moveOnly === null).toBe(full === null);
        if (!full || !moveOnly || !withoutPly) return;
        expect(moveOnly.placement).toBe(full.placement);
        expect(moveOnly.hold).toBe(full.hold);
        if (Object.is(moveOnly.value, full.value)) ran++;
        else {
          // skipped: every line the ply would value began with this move, so the value is the best line's
          expect(Object.is(moveOnly.value, withoutPly.value)).toBe(true);
          expect(withoutPly.placement).toBe(full.placement);
          skipped++;
        }
      }),
      { numRuns: 200 },
    );
    // Both paths are taken: lines that share their first move, and lines that do not.
    expect(skipped).toBeGreaterThan(10);
    expect(ran).toBeGreaterThan(10);
  }, 300_000);
});

describe('recover kernel: a piece it drops itself lands where the reachable kernel puts it', () => {
  it('dropLandings lists reachableLandings’s placements in its order, or leaves the board to it (property)', () => {
    const taken = new Map<string, { dropped: number; searched: number }>();
    fc.assert(
      fc.property(
        boardArb,
        fc.constantFrom(...RULE_SET_NAMES),
        pieceArb,
        fc.constantFrom(20, 40),
        (rows, name, piece, height) => {
          const rules = ruleFacts(name);
          const k = RecoverKernel.get();
          k.configure({
            width: W,
            height,
            visibleHeight: 20,
            wellColumn: -1,
            coverWell: -1,
            rowCount: rows.length,
            maxFloor: 2,
            weights: RECOVER_WEIGHTS,
          });
          k.useRules(rules.ruleSet);
          k.ensureNodes(0, 1);
          k.writeNode(0, 0, rows, 0);
          const pid = PIECES.indexOf(piece);
          const n = k.dropLandings(0, 0, pid);
          const dropped = Array.from(k.landings.subarray(0, 3 * Math.max(n, 0)));
          const searched = new Int32Array(LANDINGS_WORDS);
          const m = reachableLandings(rows, W, height, pid, rules, searched);
          const t = taken.get(name) ?? { dropped: 0, searched: 0 };
          taken.set(name, t);
          if (n < 0) {
            t.searched++;
            return;
          }
          t.dropped++;
          expect(n).toBe(m);
          expect(dropped).toEqual(Array.from(searched.subarray(0, 3 * m)));
        },
      ),
      { numRuns: 800 },
    );
    // Classic and nesUntimed drop most pieces themselves; nesUntimed leaves a board reaching its top rows to the
    // reachable kernel. The other rule sets (time, kicks, soft drop, 20G) always leave it.
    expect(taken.get('classic')?.dropped).toBeGreaterThan(0);
    expect(taken.get('nesUntimed')?.dropped).toBeGreaterThan(0);
    expect(taken.get('nesUntimed')?.searched).toBeGreaterThan(0);
    for (const name of ['nes', 'guideline', 'tgm', 'tgm20g']) expect(taken.get(name)?.dropped ?? 0).toBe(0);
  });

  it('a piece valued again on the same node gives the first valuation, also after boardFeatures used the kernel (property)', () => {
    // Between the placements of a node the kernel keeps that node's columns, putting back what each placement
    // changed; a later piece on the same node (the chance ply's `again`) reads them without measuring the node.
    let cleared = 0;
    fc.assert(
      fc.property(boardArb, boardArb, pieceArb, pieceArb, (rows, other, first, second) => {
        const rules = ruleFacts('classic');
        const k = RecoverKernel.get();
        const configure = () =>
          k.configure({
            width: W,
            height: 20,
            visibleHeight: 20,
            wellColumn: W - 1,
            coverWell: -1,
            rowCount: rows.length,
            maxFloor: 2,
            weights: RECOVER_WEIGHTS,
          });
        configure();
        k.useRules(rules.ruleSet);
        k.ensureNodes(0, 1);
        k.writeNode(0, 0, rows, 0);
        const values = (pid: number, again: boolean) => {
          const n = reachableLandings(rows, W, 20, pid, rules, k.landings);
          k.ensureChildren(n, 0);
          k.expandLandings(0, 0, 0, n, pid, again);
          return Array.from({ length: n }, (_, c) => k.childValue(c));
        };
        const a = PIECES.indexOf(first);
        const b = PIECES.indexOf(second);
        const alone = values(b, false);
        values(a, false);
        if (reachableOnRows(rows, W, 20, first, rules).some((p) => rowsFilled(rows, W, p.cells) > 0)) cleared++;
        expect(values(b, true)).toEqual(alone);
        boardFeatures(other, W, 20, { lines: 0, erodedCells: 0, landingRow: 0, pieceHeight: 1 }, W - 1, -1, 2);
        configure();
        expect(values(b, true)).toEqual(alone);
      }),
      { seed: 1, numRuns: 300 },
    );
    expect(cleared).toBeGreaterThan(0);
  });
});

describe('recover features: the kernel equals the reference', () => {
  it('every feature on random boards, with and without a well, and with a well a piece may cover (property)', () => {
    fc.assert(
      fc.property(
        boardArb,
        fc.constantFrom(-1, 0, W - 1),
        fc.constantFrom(-1, 0, W - 1),
        fc.integer({ min: 20, max: 40 }),
        fc.record({
          lines: fc.integer({ min: 0, max: 4 }),
          erodedCells: fc.integer({ min: 0, max: 4 }),
          landingRow: fc.integer({ min: 0, max: 19 }),
          pieceHeight: fc.integer({ min: 1, max: 4 }),
        }),
        fc.integer({ min: 0, max: 4 }),
        (rows, well, cover, height, move, maxFloor) => {
          const coverWell = well === -1 ? cover : -1;
          expect(boardFeatures(rows, W, height, move, well, coverWell, maxFloor)).toEqual(
            refBoardFeatures(rows, W, height, move, well, coverWell, maxFloor),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a board the kernel has no room for is refused with a typed error, not measured wrongly', () => {
    const none = { lines: 0, erodedCells: 0, landingRow: 0, pieceHeight: 1 };
    expect(() => boardFeatures(new Uint32Array(49), W, H, none, -1)).toThrow(
      expect.objectContaining({ code: 'BAD_BOARD', message: expect.stringContaining('at most 48 rows') }),
    );
    expect(() => boardFeatures(new Uint32Array(20), 17, H, none, -1)).toThrow(
      expect.objectContaining({ code: 'BAD_BOARD', message: expect.stringContaining('1 to 16 columns') }),
    );
    expect(() => boardFeatures(new Uint32Array(48), W, H, none, -1)).not.toThrow();
  });

  it('a covered well: its cells under the cover are no holes when it may be covered, and the cover is counted', () => {
    const none = { lines: 0, erodedCells: 0, landingRow: 0, pieceHeight: 1 };
    const rows = new Uint32Array(44);
    for (let y = 0; y < 5; y++) rows[y] = FULL >> 1; // a flat stack, the right well open 5 rows deep
    rows[5] = rows[6] = 1 << (W - 1); // two cells over it (a piece hanging in the well)
    const plain = boardFeatures(rows, W, H, none, -1);
    expect([plain.holes, plain.rowsWithHoles, plain.holeDepth, plain.wellCover]).toEqual([5, 5, 2, 0]);
    const covered = boardFeatures(rows, W, H, none, -1, W - 1);
    expect([covered.holes, covered.rowsWithHoles, covered.holeDepth, covered.wellCover]).toEqual([0, 0, 0, 2]);
    // the other features are the plain ones
    expect({ ...covered, holes: 5, rowsWithHoles: 5, holeDepth: 2, wellCover: 0 }).toEqual(plain);
    expect(covered).toEqual(refBoardFeatures(rows, W, H, none, -1, W - 1));
  });

  it('a clean stack over a floor of at most maxFloor buried rows counts as clean, a higher floor does not', () => {
    const none = { lines: 0, erodedCells: 0, landingRow: 0, pieceHeight: 1 };
    for (const maxFloor of [0, 2, 4])
      for (let floor = 0; floor <= 5; floor++) {
        const rows = new Uint32Array(44);
        for (let y = 0; y < floor; y++) rows[y] = FULL & ~(1 << (y % (W - 1))); // buried: the well column filled
        for (let y = floor; y < floor + 3; y++) rows[y] = FULL >> 1; // a flat stack, the right well open
        const f = boardFeatures(rows, W, H, none, W - 1, -1, maxFloor);
        expect([f.clean, f.floorRows]).toEqual(floor <= maxFloor ? [1, floor] : [0, 0]);
        expect(f).toEqual(refBoardFeatures(rows, W, H, none, W - 1, -1, maxFloor));
      }
  });
});

describe('recover kernel: the best drop of a piece without valuing every placement (the chance ply)', () => {
  // bestDrop bounds each straight drop's value from the node's terms and values only the placements whose bound
  // can beat the best found; its answer must be expandLandings's largest child value over dropLandings' list.
  const weightsArb = fc.oneof(
    fc.constant(RECOVER_WEIGHTS),
    fc.constant(PLAIN),
    // any weights of the usual signs (the bound's case), and some of the other sign (valued in full)
    fc
      .record({
        sizes: fc.array(fc.double({ min: 0, max: 60, noNaN: true }), { minLength: 12, maxLength: 12 }),
        flip: fc.integer({ min: -1, max: 11 }),
      })
      .map(({ sizes, flip }) => {
        const names = Object.keys(RECOVER_WEIGHTS) as (keyof RecoverWeights)[];
        const out: Record<string, number> = {};
        names.forEach((name, i) => {
          const usual = Math.sign(RECOVER_WEIGHTS[name]) || 1;
          out[name] = (i === flip ? -usual : usual) * sizes[i];
        });
        return out as unknown as RecoverWeights;
      }),
  );
  it('equals the largest value expandLandings gives its placements, to the last bit (property)', () => {
    let placements = 0;
    let valued = 0;
    fc.assert(
      fc.property(
        boardArb,
        fc.constantFrom('classic', 'nesUntimed'),
        pieceArb,
        weightsArb,
        fc.oneof(fc.constantFrom(-1, 0, W - 1), fc.integer({ min: 1, max: W - 2 })),
        fc.oneof(fc.constantFrom(-1, 0, W - 1), fc.integer({ min: 1, max: W - 2 })),
        fc.integer({ min: 0, max: 4 }),
        fc.oneof(fc.constant(0), fc.double({ min: -2000, max: 2000, noNaN: true }), fc.constant(-1e9)),
        (rows, name, piece, weights, wellColumn, coverWell, maxFloor, acc) => {
          const rules = ruleFacts(name);
          const k = RecoverKernel.get();
          k.configure({
            width: W,
            height: 40,
            visibleHeight: 20,
            wellColumn,
            coverWell: wellColumn === -1 ? coverWell : -1,
            rowCount: rows.length,
            maxFloor,
            weights,
          });
          k.useRules(rules.ruleSet);
          k.ensureNodes(0, 1);
          k.writeNode(0, 0, rows, acc);
          const pid = PIECES.indexOf(piece);
          const n = k.dropLandings(0, 0, pid);
          const best = k.bestDrop(0, 0, pid);
          if (n < 0) {
            expect(best).toBeNaN();
            return;
          }
          k.ensureChildren(n, 0);
          k.expandLandings(0, 0, 0, n, pid);
          let max = -Infinity;
          for (let c = 0; c < n; c++) max = Math.max(max, k.childValue(c));
          expect(Object.is(best, max)).toBe(true);
          // again on the same node, after expandLandings used the kernel's columns
          expect(Object.is(k.bestDrop(0, 0, pid, true), max)).toBe(true);
          const counts = k.bestDropCounts();
          placements += counts.placements;
          valued += counts.valued;
        },
      ),
      { numRuns: 1500 },
    );
    // The bound leaves most placements unvalued (the point of it).
    expect(valued).toBeLessThan(placements * 0.6);
    expect(valued).toBeGreaterThan(0);
  }, 120_000);
});
