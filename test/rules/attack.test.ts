/**
 * Attack arithmetic (src/rules/attack.ts) against an independent reference that counts as each game does
 * (test/reference/versus-reference.ts: the guideline with Cold Clear's counters, TETR.IO with its own), on golden
 * chains worked out by hand and on random chains (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTACK_TABLES, CLEAR_KINDS, lockOutcome, type LockResult, type VersusState } from '../../src/rules/index.js';
import { StackRankError } from '../../src/errors.js';
import { refGuidelineLock, refTetrioLock, type RefSpin } from '../reference/versus-reference.js';

const lock = (lines: number, spin: RefSpin = 'none', perfectClear = false): LockResult => ({
  lines,
  spin,
  perfectClear,
});

/** Runs a chain of locks from empty counters; the attacks and the counters after the last. */
function chain(locks: LockResult[], table: 'guideline' | 'tetrio') {
  let state: VersusState = { combo: 0, backToBack: 0 };
  const attacks: number[] = [];
  for (const l of locks) {
    const o = lockOutcome(l, state, table);
    attacks.push(o.attack);
    state = o.state;
  }
  return { attacks, state };
}

/** Every lock a piece can make: lines 0..4 with the spins that can clear that many, perfect clears with lines. */
const anyLock = fc
  .record({
    lines: fc.integer({ min: 0, max: 4 }),
    spin: fc.constantFrom<RefSpin>('none', 'mini', 'full'),
    pc: fc.boolean(),
  })
  .map(({ lines, spin, pc }) => {
    const s: RefSpin = (spin === 'mini' && lines > 2) || (spin === 'full' && lines > 3) ? 'none' : spin;
    return lock(lines, s, pc && lines > 0);
  });

describe('clear kinds and the base attack (no combo, no back-to-back)', () => {
  it('guideline: single 0, double 1, triple 2, Tetris 4, TSS/TSD/TST 2/4/6, mini single/double 0/1, spins without lines 0', () => {
    const cases: [LockResult, string, number][] = [
      [lock(0), 'none', 0],
      [lock(1), 'single', 0],
      [lock(2), 'double', 1],
      [lock(3), 'triple', 2],
      [lock(4), 'tetris', 4],
      [lock(0, 'mini'), 'tSpinMini', 0],
      [lock(1, 'mini'), 'tSpinMiniSingle', 0],
      [lock(2, 'mini'), 'tSpinMiniDouble', 1],
      [lock(0, 'full'), 'tSpin', 0],
      [lock(1, 'full'), 'tSpinSingle', 2],
      [lock(2, 'full'), 'tSpinDouble', 4],
      [lock(3, 'full'), 'tSpinTriple', 6],
    ];
    for (const [l, kind, attack] of cases)
      for (const table of ['guideline', 'tetrio'] as const)
        expect(lockOutcome(l, { combo: 0, backToBack: 0 }, table), `${table} ${kind}`).toMatchObject({ kind, attack });
    expect(cases.map((c) => c[1])).toEqual(CLEAR_KINDS);
  });
  it('a perfect clear sends 10 instead of everything else under guideline, 10 more under tetrio', () => {
    expect(lockOutcome(lock(4, 'none', true), { combo: 5, backToBack: 3 }, 'guideline').attack).toBe(10);
    expect(lockOutcome(lock(1, 'none', true), { combo: 0, backToBack: 0 }, 'guideline').attack).toBe(10);
    expect(lockOutcome(lock(2, 'none', true), { combo: 0, backToBack: 0 }, 'tetrio').attack).toBe(11);
  });
});

describe('golden chains (worked out by hand, docs/rules.md "Versus")', () => {
  const locks = [
    lock(4), //            Tetris: 4                        → combo 1, b2b 1
    lock(2, 'full'), //    TSD + back-to-back: 5            → combo 2, b2b 2
    lock(1), //            single, combo 2 → +1: 1          → combo 3, b2b 0
    lock(0), //            nothing: 0                       → combo 0, b2b 0
    lock(1, 'full'), //    TSS: 2                           → combo 1, b2b 1
    lock(1, 'mini'), //    mini single + b2b: 1             → combo 2, b2b 2
    lock(0, 'full'), //    T-spin without lines: 0          → combo 0, b2b 2 (kept)
    lock(4), //            Tetris + b2b: 5                  → combo 1, b2b 3
    lock(2, 'none', true), // perfect clear double: 10      → combo 2, b2b 0
  ];
  it('guideline', () => {
    expect(chain(locks, 'guideline')).toEqual({
      attacks: [4, 5, 1, 0, 2, 1, 0, 5, 10],
      state: { combo: 2, backToBack: 0 },
    });
  });
  it('guideline: the combo table 0,0,1,1,2,2,3,3,4,4,4,5 and 5 after, on singles', () => {
    expect(
      chain(
        Array.from({ length: 15 }, () => lock(1)),
        'guideline',
      ).attacks,
    ).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5]);
  });
  it('tetrio: back-to-back chaining and the combo multiplier', () => {
    // Tetris 4; TSD 4 + b2b 1 = 5, × 1.25 (combo 1) = 6.25 → 6; TST 6 + b2b (1 + (1 + frac ln 2.6) / 3) = 7.65,
    // × 1.5 = 11.48 → 11; single 0 × 1.75, at least ln(1 + 1.25 × 3) = 1.56 → 1; double 1 × 2 = 2; nothing 0;
    // perfect-clear Tetris 4 + 10 = 14.
    expect(
      chain([lock(4), lock(2, 'full'), lock(3, 'full'), lock(1), lock(2), lock(0), lock(4, 'none', true)], 'tetrio'),
    ).toEqual({ attacks: [4, 6, 11, 1, 2, 0, 14], state: { combo: 1, backToBack: 1 } });
  });
});

describe('against the reference on random chains', () => {
  it('guideline: attack and counters agree with Cold Clear-style counting (combo, a back-to-back flag)', () => {
    fc.assert(
      fc.property(fc.array(anyLock, { maxLength: 40 }), (locks) => {
        let ours: VersusState = { combo: 0, backToBack: 0 };
        let ref = { combo: 0, b2b: false };
        for (const l of locks) {
          const o = lockOutcome(l, ours, 'guideline');
          const r = refGuidelineLock(l.lines, l.spin, l.perfectClear, ref);
          expect(o.attack).toBe(r.sent);
          expect([o.state.combo, o.state.backToBack > 0]).toEqual([r.combo, r.b2b]);
          ours = o.state;
          ref = r;
        }
      }),
      { numRuns: 300, seed: 54 },
    );
  });
  it('tetrio: attack and counters agree with TETR.IO-style counting (counters from -1)', () => {
    fc.assert(
      fc.property(fc.array(anyLock, { maxLength: 40 }), (locks) => {
        let ours: VersusState = { combo: 0, backToBack: 0 };
        let ref = { combo: -1, b2b: -1 };
        for (const l of locks) {
          const o = lockOutcome(l, ours, 'tetrio');
          const r = refTetrioLock(l.lines, l.spin, l.perfectClear, ref);
          expect(o.attack).toBe(r.sent);
          expect([o.state.combo, o.state.backToBack]).toEqual([r.combo + 1, r.b2b + 1]);
          ours = o.state;
          ref = r;
        }
      }),
      { numRuns: 300, seed: 54 },
    );
  });
  it('a spin never sends less or keeps back-to-back less than the same lines without one', () => {
    const counts = fc.integer({ min: 0, max: 30 });
    fc.assert(
      fc.property(counts, counts, fc.integer({ min: 0, max: 3 }), (combo, backToBack, lines) => {
        for (const table of ['guideline', 'tetrio'] as const) {
          const plain = lockOutcome(lock(lines), { combo, backToBack }, table);
          for (const spin of ['mini', 'full'] as const) {
            if (spin === 'mini' && lines > 2) continue;
            const spun = lockOutcome(lock(lines, spin), { combo, backToBack }, table);
            expect(spun.attack).toBeGreaterThanOrEqual(plain.attack);
            expect(spun.state.backToBack).toBeGreaterThanOrEqual(plain.state.backToBack);
          }
        }
      }),
      { numRuns: 200, seed: 54 },
    );
  });
});

describe('bad input', () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof StackRankError ? e.code : `not a StackRankError: ${String(e)}`;
    }
    return 'no error';
  };
  const s = { combo: 0, backToBack: 0 };
  it('names the problem with a typed error', () => {
    expect(code(() => lockOutcome(lock(3, 'mini'), s, 'guideline'))).toBe('BAD_ARGUMENT');
    expect(code(() => lockOutcome(lock(4, 'full'), s, 'guideline'))).toBe('BAD_ARGUMENT');
    expect(code(() => lockOutcome(lock(0, 'none', true), s, 'guideline'))).toBe('BAD_ARGUMENT');
    expect(code(() => lockOutcome(lock(5), s, 'guideline'))).toBe('BAD_ARGUMENT');
    expect(code(() => lockOutcome({ lines: 1, spin: 'tst' } as never, s, 'guideline'))).toBe('BAD_ARGUMENT');
    expect(code(() => lockOutcome(lock(1), { combo: -1, backToBack: 0 }, 'guideline'))).toBe('BAD_ARGUMENT');
    expect(code(() => lockOutcome(lock(1), { combo: 0, backToBack: 1.5 }, 'guideline'))).toBe('BAD_ARGUMENT');
    expect(code(() => lockOutcome(lock(1), null as never, 'guideline'))).toBe('BAD_ARGUMENT');
    expect(code(() => lockOutcome(lock(1), s, 'tetris99' as never))).toBe('BAD_RULES');
    expect(code(() => lockOutcome(lock(1), s, { ...ATTACK_TABLES.guideline } as never))).toBe('BAD_RULES');
  });
});
