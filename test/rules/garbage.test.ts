/**
 * Garbage (src/rules/garbage.ts): cancelling against an independent reference on plain arrays, insertion against one
 * on rows of strings (test/reference/versus-reference.ts), hole columns against golden values worked by hand from the
 * raw draws and an in-file re-implementation of the documented draws (which draws, and when), and the queue's
 * bookkeeping: lines are conserved, its holes are the documented draws from its seed. Property tests with fast-check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Board,
  GarbageQueue,
  garbageAfterLock,
  garbageHoles,
  insertGarbage,
  insertGarbageRows,
  type GarbageEntry,
} from '../../src/rules/index.js';
import { Rng } from '../../src/random.js';
import { StackRankError } from '../../src/errors.js';
import { refCancel, refInsertGarbage } from '../reference/versus-reference.js';
import { refGarbageHole } from '../reference/versus-match-reference.js';

const entry = fc.record({ lines: fc.integer({ min: 1, max: 8 }), delay: fc.integer({ min: 0, max: 3 }) });
const total = (q: readonly GarbageEntry[]) => q.reduce((s, e) => s + e.lines, 0);

describe('garbageAfterLock', () => {
  it('a clearing lock cancels oldest first and sends the rest, as the reference does; delays tick', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.integer({ min: 0, max: 30 }), (queue, attack) => {
        const step = garbageAfterLock(queue, attack, 1);
        const ref = refCancel(
          queue.map((e) => e.lines),
          attack,
        );
        expect(step.sent).toBe(ref.sent);
        expect(step.queue.map((e) => e.lines)).toEqual(ref.queued);
        expect(step.entering).toEqual([]);
        // the entries left keep their order; each delay is one less (never below 0)
        const kept = queue.slice(queue.length - ref.queued.length);
        expect(step.queue.map((e) => e.delay)).toEqual(kept.map((e) => Math.max(0, e.delay - 1)));
        // lines are conserved: queued = left + cancelled, attack = cancelled + sent
        expect(total(queue)).toBe(total(step.queue) + step.cancelled);
        expect(attack).toBe(step.cancelled + step.sent);
      }),
      { numRuns: 500, seed: 54 },
    );
  });
  it('a lock that clears nothing lets in the due entries at the head of the queue, whole', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), (queue) => {
        const step = garbageAfterLock(queue, 0, 0);
        let due = 0;
        while (due < queue.length && queue[due].delay === 0) due++;
        expect(step.entering).toEqual(queue.slice(0, due).map((e) => e.lines));
        expect(step.queue).toEqual(queue.slice(due).map((e) => ({ lines: e.lines, delay: Math.max(0, e.delay - 1) })));
        expect([step.sent, step.cancelled]).toEqual([0, 0]);
        expect(total(queue)).toBe(total(step.queue) + total(step.entering.map((lines) => ({ lines, delay: 0 }))));
      }),
      { numRuns: 300, seed: 54 },
    );
  });
  it('worked example', () => {
    expect(
      garbageAfterLock(
        [
          { lines: 3, delay: 0 },
          { lines: 2, delay: 1 },
        ],
        4,
        2,
      ),
    ).toEqual({ sent: 0, cancelled: 4, entering: [], queue: [{ lines: 1, delay: 0 }] });
  });
});

describe('inserting garbage rows', () => {
  const boardArb = fc
    .record({
      width: fc.integer({ min: 4, max: 10 }),
      height: fc.integer({ min: 4, max: 12 }),
      seed: fc.integer(),
      // an empty board too: then only more garbage rows than the board's height can top it out
      empty: fc.boolean(),
    })
    .map(({ width, height, seed, empty }) => {
      const rng = new Rng(seed);
      return Array.from({ length: height }, (_, i) =>
        empty || i < height / 3
          ? '.'.repeat(width)
          : [...Array(width)].map(() => (rng.nextInt(3) ? '#' : '.')).join(''),
      ).map((row) => (row.includes('.') ? row : `.${row.slice(1)}`));
    });
  it('pushes the board up and adds rows with exactly one hole, as the reference does', () => {
    fc.assert(
      fc.property(boardArb, fc.array(fc.nat(), { maxLength: 14 }), (rows, seeds) => {
        const width = rows[0].length;
        const holes = seeds.map((s) => s % width);
        const { board, toppedOut } = insertGarbage(rows, holes);
        const ref = refInsertGarbage(rows, holes);
        expect(board.toRows()).toEqual(ref.rows.map((r) => r.replace(/G/g, '#')));
        expect(toppedOut).toBe(ref.lost.some((r) => /[^.]/.test(r)));
        // every garbage row still on the board has one hole, where it was asked for (the last hole lowest)
        const bottom = board.toRows().reverse();
        for (let i = 0; i < Math.min(holes.length, rows.length); i++) {
          expect(bottom[i].split('.').length - 1).toBe(1);
          expect(bottom[i][holes[holes.length - 1 - i]]).toBe('.');
        }
      }),
      { numRuns: 300, seed: 54 },
    );
  });
  it('on bit rows in place, the same as on a Board', () => {
    const b = Board.fromRows(['....', '....', '..#.', '##.#']);
    const rows = Uint32Array.from(b.rows);
    expect(insertGarbageRows(rows, 4, 4, [0, 3])).toBe(false);
    expect(Board.fromBits(rows, 4).toRows()).toEqual(insertGarbage(b, [0, 3]).board.toRows());
    expect(Board.fromBits(rows, 4).toRows()).toEqual(['..#.', '##.#', '.###', '###.']);
    expect(insertGarbageRows(rows, 4, 4, [1])).toBe(true); // '..#.' goes over the top
    // an empty board under more garbage rows than it is tall: the first garbage row goes over the top
    expect(insertGarbageRows(new Uint32Array(4), 4, 4, [0, 1, 2, 3])).toBe(false);
    expect(insertGarbageRows(new Uint32Array(4), 4, 4, [0, 1, 2, 3, 0])).toBe(true);
    expect(insertGarbage(Board.empty(10, 40), Array(41).fill(0)).toppedOut).toBe(true);
  });
});

describe('hole columns by messiness', () => {
  const changes = (holes: number[], starts: Set<number>) => {
    let within = 0;
    let between = 0;
    for (let i = 1; i < holes.length; i++) if (holes[i] !== holes[i - 1]) starts.has(i) ? between++ : within++;
    return { within, between };
  };
  const attacks = Array.from({ length: 400 }, (_, i) => 1 + (i % 4)); // 1000 rows
  const starts = new Set<number>();
  attacks.reduce((row, lines) => (starts.add(row), row + lines), 0);
  const withinRows = 1000 - attacks.length;
  const betweenRows = attacks.length - 1;
  it('clean (0, 0): one column for good; default (0, 1): a new column every attack, none inside one', () => {
    expect(new Set(garbageHoles(new Rng(1), attacks, 10, { withinAttack: 0, betweenAttacks: 0 }, undefined)).size).toBe(
      1,
    );
    expect(
      changes(garbageHoles(new Rng(1), attacks, 10, { withinAttack: 0, betweenAttacks: 1 }, undefined), starts),
    ).toEqual({
      within: 0,
      between: betweenRows,
    });
    expect(changes(garbageHoles(new Rng(1), attacks, 10, { withinAttack: 1, betweenAttacks: 0 }, 3), starts)).toEqual({
      within: withinRows,
      between: 0,
    });
  });
  it('a chance between 0 and 1 moves the hole about that often (seeded, 1000 rows)', () => {
    const holes = garbageHoles(new Rng(54), attacks, 10, { withinAttack: 0.3, betweenAttacks: 0.7 }, undefined);
    const c = changes(holes, starts);
    expect(c.within / withinRows).toBeGreaterThan(0.22);
    expect(c.within / withinRows).toBeLessThan(0.38);
    expect(c.between / betweenRows).toBeGreaterThan(0.6);
    expect(c.between / betweenRows).toBeLessThan(0.8);
    for (const h of holes) expect(h >= 0 && h < 10).toBe(true);
    expect(new Set(holes).size).toBe(10); // every column comes up
  });
});

/**
 * The documented draws, written apart from src/rules/garbage.ts (refGarbageHole): chance betweenAttacks at an
 * attack's first row, withinAttack at the others.
 */
function refHoles(
  rng: Rng,
  entering: readonly number[],
  width: number,
  m: { withinAttack: number; betweenAttacks: number },
  last: number | undefined,
): number[] {
  const out: number[] = [];
  let hole = last ?? null;
  for (const lines of entering)
    for (let r = 0; r < lines; r++) {
      hole = refGarbageHole(rng, hole, r === 0 ? m.betweenAttacks : m.withinAttack, width);
      out.push(hole);
    }
  return out;
}

describe('hole columns: the documented draws', () => {
  it('golden: Rng(7), attacks of 2 and 3 lines, width 10, worked by hand from the raw draws', () => {
    // Rng(7)'s first nextU32 values: 1004282400, 2200021487, 1928073449, 741806228, 2429532727, 2033801169,
    // 2204226377 (as floats 0.234, 0.512, 0.449, 0.173, 0.566, 0.474, 0.513; mod 10: 0 …; mod 9: 3, 8, 2, 2, 7, 6, 8).
    // Default (0, 1): nextInt(10) = 0; row 2 draws nothing; attack 2 draws nextInt(9) = 8 → 9, then nothing.
    expect(garbageHoles(new Rng(7), [2, 3], 10, {}, undefined)).toEqual([0, 0, 9, 9, 9]);
    // (1, 0): 0; row 2 moves with no float, nextInt(9) = 8 → 9; attack 2 keeps 9 with no draw; then
    // nextInt(9) = 2 → 2, nextInt(9) = 2 → 5.
    expect(garbageHoles(new Rng(7), [2, 3], 10, { withinAttack: 1, betweenAttacks: 0 }, undefined)).toEqual([
      0, 9, 9, 2, 5,
    ]);
    // (0.5, 0.5): 0; float 0.512 stays; float 0.449 moves, nextInt(9) = 2 → 3; float 0.566 stays; float 0.474
    // moves, nextInt(9) = 8 → 2.
    expect(garbageHoles(new Rng(7), [2, 3], 10, { withinAttack: 0.5, betweenAttacks: 0.5 }, undefined)).toEqual([
      0, 0, 3, 3, 2,
    ]);
    // A known last hole draws no nextInt(width): (0, 1) from column 4 moves by nextInt(9) = 3 → 8.
    expect(garbageHoles(new Rng(7), [1, 1], 10, {}, 4)).toEqual([8, 7]);
    // Chances 0 and 1 draw no float: the generator is left where the two moves' nextInt(9) alone leave it.
    const rng = new Rng(7);
    garbageHoles(rng, [3, 2], 10, { withinAttack: 0, betweenAttacks: 1 }, 4);
    const alone = new Rng(7);
    alone.nextInt(9);
    alone.nextInt(9);
    expect(rng.state()).toEqual(alone.state());
  });

  const chance = fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0.01, max: 0.99, noNaN: true }));
  it('equals the reference on any attacks, width, messiness and last hole, leaving the generator in the same state', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 6 }),
        fc.integer({ min: 4, max: 10 }),
        chance,
        chance,
        fc.option(fc.nat(), { nil: undefined }),
        (seed, entering, width, withinAttack, betweenAttacks, last) => {
          const m = { withinAttack, betweenAttacks };
          const start = last === undefined ? undefined : last % width;
          const got = new Rng(seed);
          const want = new Rng(seed);
          expect(garbageHoles(got, entering, width, m, start)).toEqual(refHoles(want, entering, width, m, start));
          expect(got.state()).toEqual(want.state());
        },
      ),
      { numRuns: 400, seed: 54 },
    );
  });

  it("GarbageQueue's holes are the documented draws from its seed, the last hole carried from lock to lock", () => {
    const op = fc.oneof(
      fc.record({ receive: fc.integer({ min: 1, max: 4 }), delay: fc.integer({ min: 0, max: 2 }) }),
      fc.constant({ receive: 0, delay: 0 }),
    );
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 4, max: 10 }),
        chance,
        chance,
        (ops, seed, width, withinAttack, betweenAttacks) => {
          const messiness = { withinAttack, betweenAttacks };
          const q = new GarbageQueue({ seed, width, messiness });
          const rng = new Rng(seed);
          let queue: { lines: number; delay: number }[] = [];
          let last: number | undefined;
          for (const o of ops) {
            if (o.receive > 0) {
              q.receive(o.receive, o.delay);
              queue.push({ lines: o.receive, delay: o.delay });
              continue;
            }
            const entering: number[] = [];
            while (queue.length > 0 && queue[0].delay === 0) entering.push(queue.shift()!.lines);
            queue = queue.map((e) => ({ lines: e.lines, delay: Math.max(0, e.delay - 1) }));
            const want = refHoles(rng, entering, width, messiness, last);
            if (want.length > 0) last = want[want.length - 1];
            expect(q.lock(0, 0).holes).toEqual(want);
          }
        },
      ),
      { numRuns: 200, seed: 54 },
    );
  });
});

describe('GarbageQueue', () => {
  it('conserves lines: received = waiting + cancelled + entered; the same seed gives the same holes', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('receive' as const),
        lines: fc.integer({ min: 1, max: 6 }),
        delay: fc.integer({ min: 0, max: 2 }),
      }),
      fc.record({
        kind: fc.constant('lock' as const),
        lines: fc.integer({ min: 0, max: 4 }),
        attack: fc.integer({ min: 0, max: 10 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.integer(), (ops, seed) => {
        const a = new GarbageQueue({ seed, messiness: { withinAttack: 0.5 } });
        const b = new GarbageQueue({ seed, messiness: { withinAttack: 0.5 } });
        let received = 0;
        let cancelled = 0;
        let entered = 0;
        let sent = 0;
        let attacked = 0;
        for (const o of ops) {
          if (o.kind === 'receive') {
            a.receive(o.lines, o.delay);
            b.receive(o.lines, o.delay);
            received += o.lines;
          } else {
            const attack = o.lines > 0 ? o.attack : 0;
            const r = a.lock(attack, o.lines);
            expect(b.lock(attack, o.lines)).toEqual(r);
            cancelled += r.cancelled;
            entered += r.holes.length;
            sent += r.sent;
            attacked += attack;
          }
        }
        expect(received).toBe(a.lines + cancelled + entered);
        expect(attacked).toBe(sent + cancelled);
      }),
      { numRuns: 300, seed: 54 },
    );
  });
  it('its entries are frozen: a caller cannot empty the queue or damage an entry', () => {
    const q = new GarbageQueue({ seed: 1 });
    q.receive(2);
    q.receive(3, 1);
    const entries = q.entries;
    expect(Object.isFrozen(entries) && entries.every((e) => Object.isFrozen(e))).toBe(true);
    expect(() => {
      (entries as GarbageEntry[]).length = 0;
    }).toThrow(TypeError);
    expect(() => {
      (entries[0] as { lines: number }).lines = -5;
    }).toThrow(TypeError);
    expect([q.lines, q.entries]).toEqual([
      5,
      [
        { lines: 2, delay: 0 },
        { lines: 3, delay: 1 },
      ],
    ]);
    q.lock(0, 0); // the first attack enters; the second's delay counts down
    expect(Object.isFrozen(q.entries) && q.entries.every((e) => Object.isFrozen(e))).toBe(true);
    expect(q.entries).toEqual([{ lines: 3, delay: 0 }]);
  });
  it('a clone goes on exactly as the original', () => {
    const q = new GarbageQueue({ seed: 3, messiness: { withinAttack: 0.5, betweenAttacks: 0.5 } });
    q.receive(3);
    q.lock(0, 0);
    q.receive(4);
    q.receive(2, 1);
    const c = q.clone();
    for (const g of [q, c]) g.receive(5);
    expect(c.entries).toEqual(q.entries);
    expect(c.lock(0, 0)).toEqual(q.lock(0, 0));
    expect(c.lock(0, 0)).toEqual(q.lock(0, 0));
  });
  it('bad input is a typed error', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof StackRankError ? e.code : String(e);
      }
      return 'no error';
    };
    const q = new GarbageQueue();
    expect(code(() => q.receive(0))).toBe('BAD_ARGUMENT');
    expect(code(() => q.receive(2, -1))).toBe('BAD_ARGUMENT');
    expect(code(() => q.lock(2, 0))).toBe('BAD_ARGUMENT'); // no lines cleared, yet an attack
    expect(code(() => q.lock(-1, 1))).toBe('BAD_ARGUMENT');
    expect(code(() => new GarbageQueue({ messiness: { withinAttack: 2 } }))).toBe('BAD_ARGUMENT');
    expect(code(() => new GarbageQueue({ width: 11 }))).toBe('BAD_ARGUMENT');
    expect(code(() => new GarbageQueue({ sead: 1 } as never))).toBe('BAD_ARGUMENT');
    expect(code(() => garbageAfterLock([{ lines: 0, delay: 0 }], 0, 0))).toBe('BAD_ARGUMENT');
    // an entry's delay defaults to 0; a field it does not have (a misspelt delay) is refused, not dropped
    expect(garbageAfterLock([{ lines: 2 } as never], 0, 0).entering).toEqual([2]);
    expect(() => garbageAfterLock([{ lines: 2, dealy: 3 } as never], 0, 0)).toThrow(
      'queue[0] has an unknown field "dealy"; an entry is { lines, delay } (delay default 0)',
    );
    expect(code(() => garbageHoles({} as never, [1], 10, {}, undefined))).toBe('BAD_ARGUMENT');
    expect(code(() => garbageHoles(new Rng(1), [0], 10, {}, undefined))).toBe('BAD_ARGUMENT');
    expect(code(() => garbageHoles(new Rng(1), [1], 10, { betweenAttacks: -0.5 }, undefined))).toBe('BAD_ARGUMENT');
    expect(code(() => garbageHoles(new Rng(1), [1], 10, {}, 10))).toBe('BAD_ARGUMENT');
    expect(code(() => insertGarbageRows([0, 0, 0, 0] as never, 4, 4, [0]))).toBe('BAD_ARGUMENT');
    expect(code(() => insertGarbageRows(new Uint16Array(4), 4, 5, [0]))).toBe('BAD_ARGUMENT');
    expect(code(() => insertGarbageRows(Uint16Array.of(16, 0, 0, 0), 4, 4, [0]))).toBe('BAD_BOARD');
    const empty = Board.empty(4, 4);
    expect(code(() => insertGarbage(empty, [4]))).toBe('BAD_ARGUMENT');
    expect(code(() => insertGarbage(empty, [1.5]))).toBe('BAD_ARGUMENT');
  });
});
