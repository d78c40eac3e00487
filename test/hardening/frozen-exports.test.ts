/**
 * Every table the entries export (piece letters, names, rotation systems, presets, feature lists, rule sets) is
 * frozen to its last level: the library reads them live, so an edit by a caller would change how it plays (a
 * feature pushed onto FEATURE_SETS.bcts once made bestMove's value NaN).
 */
import { describe, expect, it } from 'vitest';
import * as api from '../helpers/api.js';
import { Board } from '../../src/rules/board.js';

/** The paths under `value` (to 5 levels) of objects and arrays that are not frozen; typed arrays are data. */
function unfrozen(value: unknown, path: string, depth = 0): string[] {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return [];
  const here = Object.isFrozen(value) ? [] : [path];
  if (depth === 5) return here;
  return [...here, ...Object.entries(value).flatMap(([k, v]) => unfrozen(v, `${path}.${k}`, depth + 1))];
}

describe('exported tables', () => {
  it('are frozen to the last level', () => {
    const tables = Object.entries(api).filter(([, v]) => v !== null && typeof v === 'object');
    expect(tables.length).toBeGreaterThan(20);
    expect(tables.flatMap(([name, v]) => unfrozen(v, name))).toEqual([]);
  });

  it("cannot be edited into the players' play", async () => {
    const board = Board.fromRows(['#...#.....', '##.####.#.', '#.########'], 20);
    const before = (await api.bestMove(board, 'T'))?.value;
    expect(() => (api.FEATURE_SETS.bcts as string[]).push('holes')).toThrow(TypeError);
    expect(() => {
      (api.PRESETS.cs3243.weights as number[])[0] = -100;
    }).toThrow(TypeError);
    expect(() => {
      (api.resolveWeights('cs3243').weights as number[])[1] = 50;
    }).toThrow(TypeError);
    expect(() => (api.PIECES as unknown as string[]).reverse()).toThrow(TypeError);
    expect((await api.bestMove(board, 'T'))?.value).toBe(before);
  });
});
