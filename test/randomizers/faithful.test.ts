/**
 * The two generators that follow a game's own code: `nes` (pickRandomTetrimino of the NES Tetris disassembly) and
 * `tgm3` (TGM3's pool, with the game's pool quirk by default). Exact values come from the independent
 * transcriptions in reference.ts, enumerated over the NES LFSR's whole cycle; the statistics are the figures
 * measured on a faithful port of each game (docs/randomizers.md).
 */
import { describe, expect, it } from 'vitest';
import { pieceId } from '../../src/pieces.js';
import { LFSR_PERIOD, stepLfsr } from '../../src/randomizers/nes.js';
import { analyzeRandomizer } from '../../src/randomizers/analyze.js';
import { createRandomizer, restoreRandomizer, type Randomizer } from '../../src/randomizers/index.js';
import { nesCycle, nesPick, nesSpawnId, nesStep, referenceStream } from './reference.js';

const CYCLE = nesCycle();

/** A nes generator in a given state (the PRNG words do not matter for chances). */
function nesState(spawnCount: number, previous: number, secondPiece = false): Randomizer {
  return restoreRandomizer({ name: 'nes', params: {}, rng: [1, 2, 3, 4], spawnCount, previous, secondPiece });
}

/** P(next piece) by running the reference pick on every LFSR state of the cycle. */
function enumeratedNes(spawnCount: number, previous: number, secondPiece: boolean): number[] {
  const tally = new Array<number>(7).fill(0);
  let total = 0;
  for (const v of CYCLE) {
    let state = v;
    if (secondPiece) {
      const [first, after] = nesPick(v, spawnCount, 0);
      if (first !== previous) continue;
      state = nesStep(after);
    }
    tally[nesPick(state, (spawnCount + 1) % 256, nesSpawnId(previous))[0]]++;
    total++;
  }
  return tally.map((n) => n / total);
}

const averageOverCounts = (previous: number) => {
  const mean = new Array<number>(7).fill(0);
  for (let count = 0; count < 8; count++) {
    for (const [i, p] of nesState(count, previous).distribution().entries()) mean[i] += p / 8;
  }
  return mean;
};

describe('nes: the NES game (pickRandomTetrimino)', () => {
  it('steps the LFSR as generateNextPseudorandomNumber does; from $8988 it cycles through 32,767 states', () => {
    for (let v = 0; v < 65536; v++) expect(stepLfsr(v)).toBe(nesStep(v));
    expect(CYCLE.length).toBe(LFSR_PERIOD);
    expect(stepLfsr(0x8988)).toBe(0x44c4); // bits 9 and 1 of $8988 are 0 and 0: shift in a 0
    expect(stepLfsr(0x0002)).toBe(0x8001); // bit 1 set, bit 9 clear: shift in a 1
  });

  it('distribution() is the exact chance over the LFSR cycle, for every spawn count, previous piece and the second pick', () => {
    for (let count = 0; count < 16; count++) {
      for (let previous = -1; previous < 7; previous++) {
        expect(Array.from(nesState(count, previous).distribution())).toEqual(
          enumeratedNes(count, previous, false).map((p) => expect.closeTo(p, 15)),
        );
        if (previous >= 0) {
          expect(Array.from(nesState(count, previous, true).distribution())).toEqual(
            enumeratedNes(count, previous, true).map((p) => expect.closeTo(p, 15)),
          );
        }
      }
    }
  });

  it('reproduces the faithful port: O after O 1/16, S after I 3/16, first piece T 5/32 (over the start count)', () => {
    const [I, O, T, S] = ['I', 'O', 'T', 'S'].map(pieceId);
    expect(averageOverCounts(O)[O]).toBeCloseTo(1 / 16, 3);
    expect(averageOverCounts(I)[S]).toBeCloseTo(3 / 16, 3);
    expect(averageOverCounts(-1)[T]).toBeCloseTo(5 / 32, 3);
    // The sketch's figures differ: 1/28 for O after O, 9/56 for S after I.
    const sketch = createRandomizer('nesSketch');
    sketch.afterDealing(O);
    expect(sketch.afterDealing(O).distribution()[O]).toBeCloseTo(1 / 28, 12);
    // The game's first two picks are one LFSR step apart: after a first I, a second I never comes.
    for (let count = 0; count < 8; count++) expect(nesState(count, I, true).distribution()[I]).toBe(0);
  });

  it('deals repeats 4.04 % of the time (the sketch: 3.57 %)', () => {
    const nes = analyzeRandomizer('nes', { pieces: 300_000, seed: 5 }).repeatProbability;
    expect(Math.abs(nes - 0.0404)).toBeLessThan(0.0015);
    expect(analyzeRandomizer('nesSketch', { pieces: 300_000, seed: 5 }).repeatProbability).toBeCloseTo(1 / 28, 2);
  });

  it('starts with a spawn count drawn from the seed, and restores the second-pick state exactly', () => {
    const counts = new Set<number>();
    for (let seed = 0; seed < 200; seed++) counts.add(createRandomizer('nes', { seed }).state().spawnCount as number);
    expect(counts.size).toBeGreaterThan(100);
    const r = createRandomizer('nes', { seed: 11 });
    r.nextId();
    expect(r.state().secondPiece).toBe(true);
    const copy = restoreRandomizer(JSON.parse(JSON.stringify(r.state())));
    expect(copy.take(50)).toBe(r.take(50));
    expect(r.state().secondPiece).toBe(false);
    expect(() => restoreRandomizer({ ...r.state(), spawnCount: 256 })).toThrow(/spawnCount must be an integer 0..255/);
    expect(() => restoreRandomizer({ ...r.state(), previous: -1, secondPiece: true })).toThrow(/secondPiece needs/);
  });
});

describe('tgm3: the pool quirk', () => {
  it('deals the documented stream with the quirk (default) and without it', () => {
    for (const seed of [0, 7, 2024]) {
      expect(createRandomizer('tgm3', { seed }).take(3000)).toBe(referenceStream('tgm3', seed, 3000, 1.1, 1));
      expect(createRandomizer('tgm3', { seed, poolQuirk: 0 }).take(3000)).toBe(
        referenceStream('tgm3', seed, 3000, 1.1, 0),
      );
    }
    expect(createRandomizer('tgm3').params).toEqual({ poolQuirk: 1 });
    expect(() => createRandomizer('tgm3', { poolQuirk: 2 as never })).toThrow(/poolQuirk must be 1 .* or 0/);
  });

  it('reproduces the ports: repeats 1.21 % with the quirk, 1.02 % without; droughts of 16+ about 3.9e-4 vs 2.4e-4', () => {
    const stats = (poolQuirk: 0 | 1) => {
      const a = analyzeRandomizer('tgm3', { pieces: 600_000, seed: 1, params: { poolQuirk } });
      let long = 0;
      let all = 0;
      for (const d of a.droughts) {
        for (const [gap, n] of d.histogram.entries()) {
          all += n;
          if (gap >= 16) long += n;
        }
      }
      return { repeat: a.repeatProbability, long: long / all };
    };
    const game = stats(1);
    const ideal = stats(0);
    expect(Math.abs(game.repeat - 0.0121)).toBeLessThan(0.0006);
    expect(Math.abs(ideal.repeat - 0.0102)).toBeLessThan(0.0006);
    expect(game.long).toBeGreaterThan(2.6e-4);
    expect(game.long).toBeLessThan(5.5e-4);
    expect(ideal.long).toBeLessThan(game.long);
    // The ideal pool's own rate, about 2.4e-4 (the port) / 2.5e-4 (docs): here 154 of 599,993 droughts. As a
    // Poisson count of ~150, the band 1.5e-4..3.5e-4 (90..210 droughts) is about ±5 standard deviations.
    expect(ideal.long).toBeGreaterThan(1.5e-4);
    expect(ideal.long).toBeLessThan(3.5e-4);
  });
});
