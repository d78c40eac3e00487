/**
 * The registry (src/randomizers/registry.ts): every randomizer is one definition in its own module, and the names,
 * the parameters createRandomizer accepts and the facts other parts read all come from that definition
 * (docs/architecture.md, "Adding a randomizer").
 */
import { describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import {
  RANDOMIZERS,
  RANDOMIZER_NAMES,
  createRandomizer,
  isRandomizerName,
  randomizerDefaults,
  randomizerDefinition,
  restoreRandomizer,
} from '../../src/randomizers/index.js';

describe('the randomizer registry', () => {
  it('names the randomizers of its list, in its order, each once', () => {
    expect(RANDOMIZER_NAMES).toEqual(RANDOMIZERS.map((r) => r.name));
    expect(new Set(RANDOMIZER_NAMES).size).toBe(RANDOMIZERS.length);
    // The order the command line's table and docs/randomizers.md show.
    expect(RANDOMIZER_NAMES).toEqual([
      'memoryless',
      'nes',
      'nesSketch',
      'tgm1',
      'tgm2',
      'tgm3',
      'bag7',
      'bag14',
      'twoBag',
      'redBlue',
      'decay',
    ]);
    for (const name of RANDOMIZER_NAMES) {
      expect(isRandomizerName(name)).toBe(true);
      expect(randomizerDefinition(name).name).toBe(name);
    }
    for (const other of ['bag8', 'Bag7', '', 'toString', '__proto__', 7, null, undefined])
      expect(isRandomizerName(other)).toBe(false);
  });

  it.each(RANDOMIZER_NAMES)('%s: its definition builds and restores its own generator with its parameters', (name) => {
    const definition = randomizerDefinition(name);
    const r = createRandomizer(name, { seed: 4 });
    expect(r.name).toBe(name);
    expect(r.params).toEqual(definition.defaults);
    expect(randomizerDefaults(name)).toEqual(definition.defaults);
    r.take(9);
    const state = r.state();
    expect(state.name).toBe(name);
    const restored = restoreRandomizer(JSON.parse(JSON.stringify(state)));
    expect(restored.name).toBe(name);
    expect(restored.take(50)).toBe(r.take(50));
  });

  it('createRandomizer accepts exactly the parameters a definition declares', () => {
    const withParams = RANDOMIZERS.filter((r) => Object.keys(r.defaults).length > 0).map((r) => r.name);
    expect(withParams).toEqual(['tgm3', 'decay']);
    for (const name of RANDOMIZER_NAMES) {
      const own = Object.keys(randomizerDefinition(name).defaults);
      for (const other of ['denominator', 'poolQuirk']) {
        if (own.includes(other)) continue;
        // Another randomizer's parameter left undefined is no parameter; given a value it is refused.
        expect(createRandomizer(name, { [other]: undefined }).name).toBe(name);
        expect(() => createRandomizer(name, { [other]: 1 })).toThrow(StackRankError);
        expect(() => createRandomizer(name, { [other]: 1 })).toThrow(`${name} has no parameter "${other}"`);
      }
    }
  });
});
