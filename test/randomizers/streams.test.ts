import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PIECES } from '../../src/pieces.js';
import { Rng } from '../../src/random.js';
import {
  RANDOMIZER_NAMES,
  createRandomizer,
  restoreRandomizer,
  type RandomizerState,
} from '../../src/randomizers/index.js';
import { referenceStream } from './reference.js';

describe('randomizer streams', () => {
  it('memoryless is exactly PIECES[rng.nextInt(7)] from new Rng(seed)', () => {
    for (const seed of [0, 1, 7, 123456789, 2 ** 32 - 1]) {
      const rng = new Rng(seed);
      const expected = Array.from({ length: 500 }, () => PIECES[rng.nextInt(7)]).join('');
      expect(createRandomizer('memoryless', { seed }).take(500)).toBe(expected);
    }
  });

  it.each(RANDOMIZER_NAMES)('%s deals exactly the stream docs/randomizers.md describes', (name) => {
    for (const seed of [0, 1, 99, 4_000_000_000]) {
      expect(createRandomizer(name, { seed }).take(3000)).toBe(referenceStream(name, seed, 3000));
    }
  });

  it('decay follows the documented algorithm for other denominators too', () => {
    for (const denominator of [1, 1.5, 100]) {
      const decay = createRandomizer('decay', { seed: 5, denominator, onWarning: () => {} });
      expect(decay.take(2000)).toBe(referenceStream('decay', 5, 2000, denominator));
    }
  });

  // Pinned prefixes: a change to any generator's PRNG call order would silently change every published result.
  it('keeps the first pieces of seed 1 stable', () => {
    const prefixes = Object.fromEntries(
      RANDOMIZER_NAMES.map((name) => [name, createRandomizer(name, { seed: 1 }).take(28)]),
    );
    expect(prefixes).toMatchInlineSnapshot(`
      {
        "bag14": "JSLTJISIOZTOLZLSTZTOIOSIJJLZ",
        "bag7": "JLOZITSOSITZLJZIJTSOLTOJLSZI",
        "decay": "SLJSSJTSTLSLZTOLZZLITJJSTTJZ",
        "memoryless": "JLITLIOTLSOIZLITTTTLOSJTTTSO",
        "nes": "ZJOTZTSJTIOTLJOLZISZTOZOJSZI",
        "nesSketch": "JILTITOSTJILJOJTOOJOTOJITLIL",
        "redBlue": "JSLTSIILOTOZOZITLJJZJTIZLOSL",
        "tgm1": "LITOSZLITLOSJTOZILTSIJIOZIJS",
        "tgm2": "LITOSZLITOSJJZILOTZSLIJOZOSJ",
        "tgm3": "LITJOLSIZTOSJLZITSLJIZOSJLIZ",
        "twoBag": "LTIZJJOLSZIJSLOTSTZTISOLJOZI",
      }
    `);
  });

  it('is deterministic per seed and different across seeds', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RANDOMIZER_NAMES), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (name, seed) => {
        const a = createRandomizer(name, { seed }).take(200);
        expect(createRandomizer(name, { seed }).take(200)).toBe(a);
        expect(createRandomizer(name, { seed: (seed + 1) % 2 ** 32 }).take(200)).not.toBe(a);
      }),
      { numRuns: 100 },
    );
  });

  it('next, nextId, take, fillIds and iteration all deal from the same stream', () => {
    for (const name of RANDOMIZER_NAMES) {
      const expected = createRandomizer(name, { seed: 3 }).take(40);
      const viaNext = createRandomizer(name, { seed: 3 });
      const viaIds = createRandomizer(name, { seed: 3 });
      const viaFill = createRandomizer(name, { seed: 3 });
      const viaIterator = createRandomizer(name, { seed: 3 });
      const fill = new Uint8Array(40).fill(255);
      viaFill.fillIds(fill, 25);
      expect(fill[25]).toBe(255);
      viaFill.fillIds(fill.subarray(25));
      const iterated: string[] = [];
      for (const piece of viaIterator) {
        iterated.push(piece);
        if (iterated.length === 40) break;
      }
      expect(Array.from({ length: 40 }, () => viaNext.next()).join('')).toBe(expected);
      expect(Array.from({ length: 40 }, () => PIECES[viaIds.nextId()]).join('')).toBe(expected);
      expect(Array.from(fill, (i) => PIECES[i]).join('')).toBe(expected);
      expect(iterated.join('')).toBe(expected);
    }
  });

  it('clone and state/restore (through JSON) continue the same stream independently', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RANDOMIZER_NAMES),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.nat(60),
        (name, seed, dealt) => {
          const original = createRandomizer(name, { seed });
          original.take(dealt);
          const copy = original.clone();
          const snapshot = JSON.parse(JSON.stringify(original.state())) as RandomizerState;
          const restored = restoreRandomizer(snapshot);
          const ahead = original.take(100);
          expect(copy.take(100)).toBe(ahead);
          expect(restored.take(100)).toBe(ahead);
          expect(restored.name).toBe(name);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('randomizer argument checking', () => {
  it('rejects unknown names, unknown parameters and bad seeds with StackRankError BAD_ARGUMENT', () => {
    const cases: (() => unknown)[] = [
      () => createRandomizer('tgm4' as never),
      () => createRandomizer('bag7', { seed: 1, denominator: 2 }),
      () => createRandomizer('decay', { denominater: 2 } as never),
      () => createRandomizer('memoryless', { seed: 1.5 }),
      () => createRandomizer('memoryless', { seed: Number.NaN }),
      () => createRandomizer('nes').take(-1),
      () => createRandomizer('nes').fillIds(new Uint8Array(3), 4),
      () => createRandomizer('nes').fillIds([0, 0] as never),
      () => createRandomizer('nes').distribution(new Float64Array(6)),
    ];
    for (const attempt of cases)
      expect(attempt).toThrow(expect.objectContaining({ name: 'StackRankError', code: 'BAD_ARGUMENT' }));
  });

  it('rejects a decay denominator that is not a number from 1 to 1e300 (below 1 one piece takes over and the weights break)', () => {
    // Past about 2.6e307 the weights overflowed to NaN and dealing never ended.
    for (const denominator of [0, -1, 0.8, 0.999, Number.NaN, Infinity, -Infinity, '2' as never, 2n as never, 1e308]) {
      expect(() => createRandomizer('decay', { denominator, onWarning: () => {} })).toThrow(
        expect.objectContaining({ code: 'BAD_ARGUMENT' }),
      );
    }
    const warnings: string[] = [];
    const collect = (m: string) => warnings.push(m);
    createRandomizer('decay', { denominator: 1, onWarning: collect });
    createRandomizer('decay', { denominator: 1e100, onWarning: collect });
    // The largest allowed deals as an infinite denominator does: the dealt piece gives up all its weight.
    const huge = createRandomizer('decay', { denominator: 1e300, seed: 3 });
    expect(huge.take(40)).toBe(createRandomizer('decay', { denominator: 2 ** 60, seed: 3 }).take(40));
    expect(warnings).toEqual([]);
  });

  it('rejects corrupted snapshots with a message naming the field', () => {
    const good = createRandomizer('tgm3', { seed: 2 });
    good.take(5);
    const state = good.state();
    const broken: [Partial<RandomizerState>, RegExp][] = [
      [{ name: 'nope' as never }, /unknown randomizer/],
      [{ rng: [0, 0, 1] as never }, /rng must be/],
      [{ pool: [...(state.pool as number[]).slice(1), 9] }, /pool must be/],
      [{ droughtOrder: [0, 0, 1, 2, 3, 4, 5] }, /droughtOrder must list each piece once/],
      [{ started: 'yes' as never }, /started must be/],
      // A missing or damaged params once restored the default poolQuirk: another piece stream, silently.
      [{ params: undefined }, /tgm3 state: params must be \{ poolQuirk \} as state\(\) gives them; got undefined/],
      [{ params: { junk: 1 } as never }, /params must be \{ poolQuirk \}/],
      [{ params: { poolQuirk: 0, extra: 1 } as never }, /params must be \{ poolQuirk \}/],
    ];
    for (const [change, message] of broken) {
      expect(() => restoreRandomizer({ ...state, ...change } as RandomizerState)).toThrow(message);
    }
    const bag = createRandomizer('bag7').state();
    expect(() => restoreRandomizer({ ...bag, bags: [[0, 0, 1]] })).toThrow(/at most 1 of each/);
    expect(() => restoreRandomizer({ ...bag, bags: [[]] })).toThrow(/bag 0 must hold/);
    const decay = createRandomizer('decay').state();
    expect(() => restoreRandomizer({ ...decay, weights: [0, 0, 0, 0, 0, 0, 0] })).toThrow(/weights must sum to 7/);
    expect(() => restoreRandomizer({ ...decay, weights: [1e308, 1e308, 0, 0, 0, 0, 0] })).toThrow(
      /weights must sum to 7/,
    );
    expect(() => restoreRandomizer({ ...decay, params: { denominator: -1 } })).toThrow(/denominator/);
    expect(() => restoreRandomizer({ ...bag, params: { denominator: 2 } as never })).toThrow(
      /bag7 state: params must be \{\} as state/,
    );
  });
});
