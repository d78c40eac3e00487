/**
 * Garbage (src/rules/garbage.ts): cancelling against an independent reference on plain arrays, insertion against one
 * on rows of strings (test/reference/versus-reference.ts), hole columns by messiness, and the queue's bookkeeping:
 * lines are conserved, the same seed gives the same holes. Property tests with fast-check.
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
    .record({ width: fc.integer({ min: 4, max: 10 }), height: fc.integer({ min: 4, max: 12 }), seed: fc.integer() })
    .map(({ width, height, seed }) => {
      const rng = new Rng(seed);
      return Array.from({ length: height }, (_, i) =>
        i < height / 3 ? '.'.repeat(width) : [...Array(width)].map(() => (rng.nextInt(3) ? '#' : '.')).join(''),
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
