/**
 * Regression tests for input validation at the public entry points: each throws one StackRankError with a code,
 * leaves no promise rejection unhandled and no worker thread behind (docs/errors.md).
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { thrownBy } from '../helpers/refused.js';
import {
  StackRankError,
  StackingAI,
  buildRankTable,
  benchGame,
  createRandomizer,
  restoreRandomizer,
  parseSurface,
  playFullGame,
  simulateStacking,
  surfaceFromHeights,
  surfaceFromSteps,
  surfaceIndex,
  trainWeights,
  RankTable,
  checkGeometry,
  mergeFullGames,
  mergeGameResults,
  mergeSimulations,
  playFullGames,
  playGame,
} from '../helpers/api.js';
import { liveWorkerCount } from '../../src/kernels/pool.js';

let table: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 4, maxStep: 1, iterations: 2, threads: 1 });
});

const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);
process.on('unhandledRejection', onUnhandled);
afterEach(() => {
  unhandled.length = 0;
});

const settle = () => new Promise((r) => setTimeout(r, 150));

async function workersGone(): Promise<number> {
  for (let i = 0; i < 100 && liveWorkerCount() > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return liveWorkerCount();
}

const typed = (code: string) => expect.objectContaining({ name: 'StackRankError', code });

describe('a table that is not a table (defect 1)', () => {
  it('StackingAI.create rejects it with BAD_ARGUMENT and leaves no rejection unhandled', async () => {
    for (const strategy of [{}, { strategy: 'expectimax' }, { strategy: 'expectimax', unknownPieces: 2 }] as const) {
      await expect(StackingAI.create({ table: 'x' as never, ...strategy })).rejects.toEqual(typed('BAD_ARGUMENT'));
      await expect(StackingAI.create({ table: {} as never, ...strategy })).rejects.toEqual(typed('BAD_ARGUMENT'));
    }
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('simulateStacking rejects it with BAD_ARGUMENT and leaves no rejection unhandled', async () => {
    await expect(
      simulateStacking({ table: 'x' as never, lookahead: 0, strategy: 'expectimax', unknownPieces: 2, threads: 1 }),
    ).rejects.toEqual(typed('BAD_ARGUMENT'));
    await expect(simulateStacking({ table: { width: 4 } as never, lookahead: 0, threads: 1 })).rejects.toEqual(
      typed('BAD_ARGUMENT'),
    );
    await settle();
    expect(unhandled).toEqual([]);
  });
});

describe('a signal that is not an AbortSignal (defect 3)', () => {
  it('simulateStacking refuses it before starting threads, and none is left', async () => {
    await expect(simulateStacking({ table, lookahead: 0, games: 4, threads: 2, signal: {} as never })).rejects.toEqual(
      typed('BAD_ARGUMENT'),
    );
    expect(await workersGone()).toBe(0);
  });

  it('buildRankTable, playFullGame and trainWeights refuse it too', async () => {
    await expect(buildRankTable({ width: 4, maxStep: 1, threads: 2, signal: 'stop' as never })).rejects.toEqual(
      typed('BAD_ARGUMENT'),
    );
    await expect(playFullGame({ weights: 'bcts', maxPieces: 10, signal: 1 as never })).rejects.toEqual(
      typed('BAD_ARGUMENT'),
    );
    await expect(trainWeights({ generations: 1, population: 8, threads: 2, signal: {} as never })).rejects.toEqual(
      typed('BAD_ARGUMENT'),
    );
    expect(await workersGone()).toBe(0);
  });
});

describe('other values that slipped past validation (defect 10)', () => {
  const bare = () => Object.create(null);

  it('objects without a prototype give typed errors, not "Cannot convert object to primitive value"', async () => {
    expect(() => parseSurface(bare())).toThrow(typed('BAD_SURFACE'));
    expect(() => surfaceFromSteps(bare())).toThrow(typed('BAD_SURFACE'));
    expect(() => createRandomizer(bare())).toThrow(typed('BAD_ARGUMENT'));
    expect(() => createRandomizer('tgm1', { seed: bare() })).toThrow(typed('BAD_ARGUMENT'));
    const ai = await StackingAI.create({ table });
    expect(() => ai.bestPlacement(bare(), 'T')).toThrow(typed('BAD_SURFACE'));
    expect(() => ai.bestPlacement([0, 0, 0, 0], bare())).toThrow(typed('BAD_PIECE'));
    expect(() => ai.bestPlacement([0, 0, 0, 0], 'T', bare())).toThrow(typed('BAD_ARGUMENT'));
    await expect(simulateStacking({ table, lookahead: bare(), threads: 1 })).rejects.toEqual(typed('BAD_ARGUMENT'));
    await expect(simulateStacking({ table, lookahead: 0, randomizer: bare(), threads: 1 })).rejects.toEqual(
      typed('BAD_ARGUMENT'),
    );
  });

  it('null options are a typed error (createRandomizer keeps reading null as none)', () => {
    expect(() => surfaceFromHeights([0, 1, 2, 3], null as never)).toThrow(typed('BAD_ARGUMENT'));
    expect(() => surfaceIndex(parseSurface('111', { maxStep: 1 }), null as never)).toThrow(typed('BAD_ARGUMENT'));
    expect(createRandomizer('bag7', null as never).take(7)).toHaveLength(7);
  });

  it('simulateStacking checks onProgress and a BigInt randomizer before playing', async () => {
    await expect(
      simulateStacking({ table, lookahead: 0, games: 1, threads: 1, onProgress: 5 as never }),
    ).rejects.toEqual(typed('BAD_ARGUMENT'));
    await expect(
      simulateStacking({ table, lookahead: 0, games: 1, threads: 1, randomizer: 7n as never }),
    ).rejects.toEqual(typed('BAD_ARGUMENT'));
    await expect(simulateStacking({ table, lookahead: 0, games: 1, threads: 1, seed: 7n as never })).rejects.toEqual(
      typed('BAD_ARGUMENT'),
    );
  });
});

describe('sparse arrays (defect 11)', () => {
  it('surfaceFromHeights and surfaceFromSteps reject holes instead of returning NaN steps', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(() => surfaceFromHeights([0, , 0, 0, 0, 0, 0, 0, 0] as never)).toThrow(typed('BAD_SURFACE'));
    // eslint-disable-next-line no-sparse-arrays
    expect(() => surfaceFromSteps([0, , 0] as never)).toThrow(typed('BAD_SURFACE'));
  });

  it('bestPlacement rejects a queue with holes instead of reading them as I pieces', async () => {
    const ai = await StackingAI.create({ table });
    expect(() => ai.bestPlacement([0, 0, 0, 0], new Array(3), 2)).toThrow(typed('BAD_PIECE'));
    // eslint-disable-next-line no-sparse-arrays
    expect(() => ai.bestPlacement([0, , 0, 0], 'T')).toThrow(typed('BAD_SURFACE'));
  });
});

it('only StackRankError escapes (sanity: the class is the exported one)', () => {
  expect(new StackRankError('IO', 'x')).toBeInstanceOf(Error);
});

describe('docs/errors.md', () => {
  it('explains every error code the library has', () => {
    const root = new URL('../../', import.meta.url);
    const codes = [...readFileSync(new URL('src/errors.ts', root), 'utf8').matchAll(/\| '([A-Z_]+)'/g)].map(
      (m) => m[1],
    );
    const doc = readFileSync(new URL('docs/errors.md', root), 'utf8');
    expect(codes.length).toBeGreaterThan(10);
    expect(codes.filter((c) => !doc.includes(`| \`${c}\` |`))).toEqual([]);
  });
});

describe('sparse arrays', () => {
  it("a hole in a caller's array is a bad element, not a skipped one", async () => {
    const r = createRandomizer('tgm1', { seed: 3 });
    const state = r.state();
    const rng = [...(state.rng as number[])];
    delete rng[2];
    expect(() => restoreRandomizer({ ...state, rng } as never)).toThrow(
      expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining('rng must be four') }),
    );
    await expect(
      benchGame({ rules: 'classic', lookahead: 1, players: ['both', , 'stackOnly'] as never }),
    ).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining('players must be') }),
    );
  });
});

describe('table parameters the loader would refuse', () => {
  it('RankTable.fromValues refuses a randomizer parameter that is not a finite number >= 0, as loading does', () => {
    const model = new Float64Array(7).fill(1 / 7);
    const meta = { width: 4, maxStep: 1, iterations: 2, variant: 'weighted' };
    const made = (parameter: number) =>
      RankTable.fromValues(table.toFloat32(), {
        ...meta,
        params: { randomizer: 'custom', samples: 0, seed: 0, parameter, model },
      });
    expect(made(0).params?.parameter).toBe(0);
    for (const parameter of [Number.NaN, -1, Infinity])
      expect(() => made(parameter)).toThrow(
        expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining('randomizer parameter') }),
      );
  });
});

describe('typed errors in research functions (issue 50, defect 8)', () => {
  it('checkGeometry with a caller name that is not a string is BAD_ARGUMENT, not a TypeError', () => {
    for (const what of [Symbol('x'), { toString: () => 1 / 0 }, Object.create(null), 7])
      for (const geometry of [{ width: 99 }, 5, { width: 5 }])
        expect(() => checkGeometry(geometry as never, what as never)).toThrow(
          expect.objectContaining({ name: 'StackRankError', code: 'BAD_ARGUMENT' }),
        );
    expect(checkGeometry({ width: 5 }, 'mine')).toEqual({ width: 5, maxStep: 4 });
  });

  it('the merges given a result with a BigInt field are BAD_ARGUMENT naming it, not a TypeError', async () => {
    const table9 = await buildRankTable({ width: 9, maxStep: 3, iterations: 1, threads: 1 });
    const game = await playGame({ table: table9, rules: 'classic', games: 2, maxPieces: 20, seed: 1, threads: 1 });
    const sim = await simulateStacking({ table, lookahead: 0, games: 2, maxPieces: 50, threads: 1 });
    const full = await playFullGames({ games: 2, maxPieces: 20, height: 10 });
    const cases: [string, (rs: never[]) => unknown, object, string][] = [
      ['mergeGameResults', mergeGameResults, game, 'seed'],
      ['mergeGameResults', mergeGameResults, game, 'maxPieces'],
      ['mergeSimulations', mergeSimulations, sim, 'seed'],
      ['mergeSimulations', mergeSimulations, sim, 'lookahead'],
      ['mergeFullGames', mergeFullGames, full, 'seed'],
      ['mergeFullGames', mergeFullGames, full, 'gameCount'],
    ];
    for (const [name, merge, result, field] of cases) {
      expect(() => merge([result] as never[]), name).not.toThrow();
      for (const at of [0, 1]) {
        const parts = [result, { ...result, [field]: 12n }];
        if (at === 0) parts.reverse();
        const error = thrownBy(() => merge(parts as never[]));
        expect(error, `${name} ${field}`).toEqual(
          expect.objectContaining({ name: 'StackRankError', code: 'BAD_ARGUMENT' }),
        );
        expect(error.message).toMatch(new RegExp(`${field} is a BigInt \\(12n\\)`));
      }
    }
    // Nested deeper than any run's data, or referring to itself: refused the same way, not a RangeError.
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const odd of [deep, cyclic])
      expect(() => mergeSimulations([sim, { ...sim, randomizer: odd } as never])).toThrow(
        expect.objectContaining({ name: 'StackRankError', code: 'BAD_ARGUMENT' }),
      );
  });
});
