/**
 * A caller's object is read once (issue 50, defect 6): the library copies options objects, rule sets, game states,
 * weights, ranges and placements field by field (fieldsOnce in src/errors.ts), checks the copy and uses the copy. A
 * getter (or Proxy) that answers one value to the check and another to the use cannot slip an unchecked value
 * past the check.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Board,
  dropPiece,
  kernelFeatures,
  PieceMover,
  RULE_SETS,
  StackingAI,
  TetrisAI,
  boardFromFumen,
  buildPreviewTable,
  buildRankTable,
  createRandomizer,
  fumenFromBoard,
  parseSurface,
  playFullGames,
  reachablePlacements,
  resolveRules,
  restoreRandomizer,
  surfaceFromSteps,
  surfaceIndex,
  type RankTable,
} from '../helpers/api.js';

/** `value` behind a Proxy that counts the reads of each field. */
function counted<T extends object>(value: T): { value: T; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      if (typeof key === 'string') reads.set(key, (reads.get(key) ?? 0) + 1);
      return Reflect.get(target, key, receiver);
    },
  });
  return { value: proxy, reads };
}

/** The fields read more than once. */
const readTwice = (reads: Map<string, number>) => [...reads].filter(([, n]) => n > 1).map(([k, n]) => `${k}: ${n}`);

/** A rule set whose rotationSystem is 'SRS' the first time it is read and 'nope' after. */
function switchingRules() {
  let n = 0;
  return {
    ...RULE_SETS.guideline,
    get rotationSystem() {
      return n++ ? 'nope' : 'SRS';
    },
  };
}

let table9: RankTable;
let table4: RankTable;
beforeAll(async () => {
  table9 = await buildRankTable({ width: 9, maxStep: 3, iterations: 1, threads: 1 });
  table4 = await buildRankTable({ width: 4, maxStep: 1, iterations: 1, threads: 1 });
});

describe('a rule set is read once', () => {
  it('a rotationSystem getter that passes the check then changes reaches neither the search nor the mover', () => {
    const expected = reachablePlacements(Board.empty(), 'T', { rules: 'guideline' });
    expect(reachablePlacements(Board.empty(), 'T', { rules: switchingRules() as never })).toEqual(expected);
    const mover = new PieceMover(Board.empty(), 'T', switchingRules() as never);
    expect(mover.rules.rotationSystem).toBe('SRS');
    expect(mover.apply(mover.spawn, 'cw')).not.toBeNull();
    expect(resolveRules(switchingRules())).toEqual(RULE_SETS.guideline);
  });

  it('every field of a rule set is read once', () => {
    const { value, reads } = counted({ ...RULE_SETS.tgm20g });
    resolveRules(value);
    expect(readTwice(reads)).toEqual([]);
    expect(reads.get('rotationSystem')).toBe(1);
  });

  it('a getter that throws is the rule set error, not the caller exception', () => {
    const throwing = {
      ...RULE_SETS.nes,
      get hold(): boolean {
        throw new Error('no');
      },
    };
    expect(() => resolveRules(throwing)).toThrow(
      expect.objectContaining({ name: 'StackRankError', code: 'BAD_RULES' }),
    );
    expect(() => reachablePlacements(Board.empty(), 'I', { rules: throwing as never })).toThrow(
      expect.objectContaining({ code: 'BAD_RULES' }),
    );
  });
});

describe('a surface given to a table is read once', () => {
  it('RankTable.rank and PreviewTable.row read each field of a foreign surface once and rank it as the library one', async () => {
    const preview = await buildPreviewTable({ width: 4, maxStep: 1, iterations: 1, threads: 1, samples: 200 });
    // A steep step (3 > ±1) is truncated, as for the library's own surface.
    const own = surfaceFromSteps([1, 3, -1], { maxStep: 1 });
    for (const [name, call, expected] of [
      ['RankTable.rank', (s: never) => table4.rank(s), table4.rank(own)],
      ['PreviewTable.row', (s: never) => preview.row(s), preview.row(own)],
    ] as const) {
      const { value, reads } = counted({ width: 4, maxStep: 1, steps: [1, 3, -1] });
      expect(call(value as never), name).toEqual(expected);
      expect(readTwice(reads), name).toEqual([]);
      expect([...reads.keys()].sort(), name).toEqual(['maxStep', 'steps', 'width']);
    }
    expect(table4.get(surfaceIndex(own, { truncate: true }))).toBe(table4.rank(own));
  });

  it('a width getter that answers 4 to the check and 5 after is ranked as a 4-column surface', () => {
    let n = 0;
    const switching = {
      maxStep: 1,
      steps: [0, 1, -1],
      get width() {
        return n++ ? 5 : 4;
      },
    };
    expect(table4.rank(switching as never)).toBe(table4.rank(surfaceFromSteps([0, 1, -1], { maxStep: 1 })));
    expect(n).toBe(1);
  });
});

describe('every options object is read once', () => {
  it('the synchronous functions', () => {
    const cases: [string, object, (o: never) => unknown][] = [
      ['surfaceFromSteps', { maxStep: 2 }, (o) => surfaceFromSteps([0, 1, -1], o)],
      ['parseSurface', { maxStep: 1 }, (o) => parseSurface('012', o)],
      ['createRandomizer', { seed: 3, denominator: 2 }, (o) => createRandomizer('decay', o)],
      ['boardFromFumen', { page: 0 }, (o) => boardFromFumen('v115@vhAAgH', o)],
      ['fumenFromBoard', { comment: 'TSZ' }, (o) => fumenFromBoard(Board.empty(), o)],
      ['reachablePlacements', { rules: 'nes' }, (o) => reachablePlacements(Board.empty(), 'L', o)],
      ['restoreRandomizer', createRandomizer('bag7', { seed: 2 }).state(), (o) => restoreRandomizer(o)],
    ];
    for (const [name, options, call] of cases) {
      const { value, reads } = counted(options);
      call(value as never);
      expect(readTwice(reads), name).toEqual([]);
      expect(reads.size, name).toBeGreaterThan(0);
    }
  });

  it('a fumen placement and its cells', () => {
    const cells = [
      [0, 0],
      [1, 0],
      [2, 0],
      [1, 1],
    ];
    const placement = counted({ piece: 'T', cells });
    const fumen = fumenFromBoard(Board.empty(), { placement: placement.value as never });
    expect(readTwice(placement.reads)).toEqual([]);
    expect(boardFromFumen(fumen).board.equals(Board.empty().withCells(cells as never))).toBe(true);
    // A piece getter that answers T to the check, then something else, draws a T or nothing.
    let n = 0;
    const switching = {
      cells,
      get piece() {
        return n++ ? 'Q' : 'T';
      },
    };
    expect(fumenFromBoard(Board.empty(), { placement: switching as never })).toBe(fumen);
  });

  it('the game AI: create options, recover weights, the game state and rankPlacements options', async () => {
    const weights = counted({ holes: 2 });
    const recover = counted({ depth: 1, weights: weights.value });
    const create = counted({ rules: 'classic', lookahead: 0, table: table9, recover: recover.value });
    const ai = await TetrisAI.create(create.value as never);
    const state = counted({ board: Board.empty(), current: 'T', queue: 'SZ', hold: null });
    ai.nextMove(state.value as never);
    const ranked = counted({ limit: 3 });
    ai.rankPlacements({ board: Board.empty(), current: 'I' }, ranked.value as never);
    for (const { reads } of [weights, recover, create, state, ranked]) expect(readTwice(reads)).toEqual([]);
    // A current piece that is T for the check and not a piece after: the move is a T's.
    let n = 0;
    const switching = {
      board: Board.empty(),
      get current() {
        return n++ ? 'nope' : 'T';
      },
    };
    expect(ai.nextMove(switching as never)?.piece).toBe('T');
  });

  it('the stacking AI with its stacking rules, and a game range', async () => {
    const stacking = counted({ boardHeight: 12, tetris: 'choice' });
    const create = counted({ table: table4, stacking: stacking.value });
    await StackingAI.create(create.value as never);
    const range = counted({ start: 1, end: 2 });
    await playFullGames({ games: 3, maxPieces: 10, height: 10, range: range.value as never });
    for (const { reads } of [stacking, create, range]) expect(readTwice(reads)).toEqual([]);
  });

  it("a drop's fields are read once: a column that changes on a later read reaches no kernel", async () => {
    const board = Board.fromRows(['#...#.....', '##.####.#.', '#.########'], 20);
    let reads = 0;
    const drop = {
      piece: 'I',
      rotation: '0',
      get x() {
        reads++;
        return reads === 1 ? 0 : 1e9; // the check's read answers 0; any later read, far outside the board
      },
    };
    const features = await kernelFeatures(board, drop as never);
    expect(reads).toBe(1);
    expect(features).toEqual(await kernelFeatures(board, { piece: 'I', rotation: '0', x: 0 }));
    // a field that throws when read is the library's refusal, not the caller's exception
    const throwing = {
      piece: 'T',
      x: 0,
      get rotation(): string {
        throw new Error('x');
      },
    };
    for (const call of [() => dropPiece(board, throwing as never), () => kernelFeatures(board, throwing as never)])
      await expect((async () => call())()).rejects.toMatchObject({ name: 'StackRankError', code: 'BAD_ARGUMENT' });
  });
});
