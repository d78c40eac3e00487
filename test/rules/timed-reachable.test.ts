/**
 * Reachable placements under a timed rule set (docs/rules.md, "Time: NES Tetris as it is played"): the kernel's
 * frame-by-frame search against the independent reference on random boards at levels 18, 19, 29 and 39 with every
 * timeline and DAS, and at 8, 28 and 38 (TIMED_BOARDS boards per level and timeline, default 8; `npm run fuzz` runs
 * more), golden
 * positions from StackRabbit's tap-speed rule, and the tokens' form.
 */
import { describe, expect, it } from 'vitest';
import {
  Board,
  RULE_SETS,
  reachablePlacements,
  countReachablePlacements,
  resolveRules,
} from '../../src/rules/index.js';
import { StackRankError } from '../../src/errors.js';
import { LEVELS, TIMELINES, checkTimedBoards } from './timed-check.js';

const BOARDS = Number(process.env.TIMED_BOARDS ?? 8);

describe('frame-by-frame search against the independent reference', () => {
  LEVELS.forEach((level, li) => {
    TIMELINES.forEach((timeline, ti) => {
      it(`level ${level}, ${timeline}: the same placements; every input sequence replays onto its placement`, () => {
        expect(checkTimedBoards(level, timeline, BOARDS, 1000 + li * 100 + ti)).toBeGreaterThan(0);
      });
    });
  });
  // the 1989 game: one row a frame from 29 on, so level 39 falls as 29 does
  for (const timeline of ['X.', 'das'])
    it(`level 39 without the double killscreen, ${timeline}: the same placements as the reference`, () => {
      expect(checkTimedBoards(39, timeline, BOARDS, 5000, null)).toBeGreaterThan(0);
    });
});

/** A board of `height` full-but-one rows under `rows` empty ones, the well in column 9. */
function stack(filled: number, rows = 20): Board {
  const lines: string[] = [];
  for (let y = rows - 1; y >= 0; y--) lines.push(y < filled ? '#########.' : '..........');
  return Board.fromRows(lines);
}

/** Whether an upright I reaches the right well (column 9) on a stack `height` rows high, every column that high. */
function iReachesWell(height: number, level: number, timeline: string): boolean {
  const placements = reachablePlacements(stack(height), 'I', { rules: { ...RULE_SETS.nes, level, timeline } });
  return placements.some((p) => p.cells.every(([x]) => x === 9));
}

describe('golden positions', () => {
  // StackRabbit's max4TapHeight (piece_ranges): the 4th tap comes on frame 6 (X.), 9 (X..) or 12 (X...), and the I
  // must still be above the 9th column's stack on the frame before; one row per frame at level 29.
  for (const [timeline, highest] of [
    ['X.', 12],
    ['X..', 9],
    ['X...', 6],
  ] as const) {
    it(`level 29, ${timeline}: an upright I reaches the right well from a stack ${highest} rows high, not ${highest + 1}`, () => {
      expect(iReachesWell(highest, 29, timeline)).toBe(true);
      expect(iReachesWell(highest + 1, 29, timeline)).toBe(false);
    });
  }

  // An O that drops into a slot two rows high beside a roof, then slides under the roof: the shifts must come while
  // it rests on the slot's floor (rows 6-7), before the gravity step that locks it. At level 18 its centre falls
  // from row 19 to row 7 on frames 2, 5, …, 35, rests there on frames 36-38, and locks on frame 38: X. gives two
  // input frames among them (36, 38), X.. one (36).
  const roofed = Board.fromRows([
    ...Array.from({ length: 11 }, () => '..........'),
    '######....',
    '..........',
    '..........',
    ...Array.from({ length: 6 }, () => '#########.'),
  ]);
  const tucked = (timeline: string, columns: number[]) =>
    reachablePlacements(roofed, 'O', { rules: { ...RULE_SETS.nes, level: 18, timeline } }).some((p) =>
      p.cells.every(([x, y]) => (y === 6 || y === 7) && columns.includes(x)),
    );
  it('level 18: an O tucked twice under an overhang needs X.; tucked once it works with X..', () => {
    expect(tucked('X.', [4, 5])).toBe(true);
    expect(tucked('X..', [4, 5])).toBe(false);
    expect(tucked('X..', [5, 6])).toBe(true);
  });
  it('the double tuck: two shifts right at the top, two left on the slot floor', () => {
    const p = reachablePlacements(roofed, 'O', { rules: { ...RULE_SETS.nes, level: 18, timeline: 'X.' } }).find((q) =>
      q.cells.every(([x, y]) => (y === 6 || y === 7) && (x === 4 || x === 5)),
    )!;
    const tokens = p.inputs as readonly string[];
    expect(tokens.length).toBe(39);
    expect(tokens.map((t, f) => (t === '.' ? '' : `${f}${t}`)).filter(Boolean)).toEqual(['0R', '2R', '36L', '38L']);
  });
});

describe('golden positions under DAS (16 frames, then every 6)', () => {
  // Level 29 on an empty board: the O's cells start in the top two rows and fall one row a frame (frames 0-17) to the
  // floor; its gravity step on frame 18 is blocked and it locks. From rest the held direction shifts on frame 0, then
  // 16 frames later: two columns either way of the spawn's 4-5. Charged, it shifts on frames 0, 6, 12 and 18 (the
  // last before the blocked step): four columns, to either wall.
  const shifts = (timeline: string) =>
    reachablePlacements(Board.empty(), 'O', { rules: { ...RULE_SETS.nes, level: 29, timeline } }).map((p) => ({
      left: Math.min(...p.cells.map(([x]) => x)),
      frames: p.inputs.length,
      at: (p.inputs as readonly string[]).map((t, f) => (t === '.' ? '' : `${f}${t}`)).filter(Boolean),
    }));
  it('from rest the O reaches columns 2-7, shifting on frames 0 and 16', () => {
    const got = shifts('das').sort((a, b) => a.left - b.left);
    expect(got.map((p) => p.left)).toEqual([2, 3, 4, 5, 6]);
    expect(got.every((p) => p.frames === 19)).toBe(true);
    expect(got[0].at).toEqual(['0L', '16L']);
    expect(got[4].at).toEqual(['0R', '16R']);
  });
  it('charged it reaches either wall, shifting on frames 0, 6, 12 and 18', () => {
    const got = shifts('dasCharged').sort((a, b) => a.left - b.left);
    expect(got.map((p) => p.left)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(got[0].at).toEqual(['0L', '6L', '12L', '18L']);
    expect(got[8].at).toEqual(['0R', '6R', '12R', '18R']);
  });
});

describe('frame inputs', () => {
  it('one token per frame from the first to the lock; X. presses only on even frames', () => {
    const placements = reachablePlacements(Board.empty(), 'T', { rules: 'nes' });
    expect(placements.length).toBeGreaterThan(20);
    for (const p of placements) {
      const tokens = p.inputs as readonly string[];
      tokens.forEach((t, f) => {
        expect(['.', 'L', 'R', 'A', 'B', 'LA', 'LB', 'RA', 'RB']).toContain(t);
        if (f % 2 === 1) expect(t).toBe('.');
      });
    }
  });
  it('the spawn column with no input falls straight: all dots, locking on the frame its gravity is blocked', () => {
    // level 18: gravity on frames 2, 5, 8, …; the T's centre starts in row 19 (top row) and rests in row 1: 18 rows
    // fall on frames 2 … 53, and the blocked step is frame 56
    const straight = reachablePlacements(Board.empty(), 'T', { rules: 'nes' }).find(
      (p) => p.rotation === '0' && p.x === 5,
    )!;
    expect(straight.y).toBe(1);
    expect(straight.inputs).toEqual(Array(57).fill('.'));
  });
  it('a piece that cannot appear has no placement (a top-out)', () => {
    const full = Board.fromRows(Array.from({ length: 20 }, () => '####.#####'));
    expect(reachablePlacements(full, 'T', { rules: 'nes' })).toEqual([]);
    expect(countReachablePlacements(full, 'T', { rules: 'nes' })).toBe(0);
  });
  it('fresh timed rule-set objects on every call share the prepared search: kernel memory stays put', async () => {
    const { reachableMemoryBytes: kernelMemoryBytes } = await import('../../src/kernels/reachable.js');
    const board = stack(4);
    for (const timeline of ['X.', 'das'])
      countReachablePlacements(board, 'T', { rules: { ...RULE_SETS.nes, timeline } });
    const before = kernelMemoryBytes();
    for (let i = 0; i < 2_000; i++)
      countReachablePlacements(board, i % 7, {
        rules: { ...RULE_SETS.nes, level: [18, 19, 29, 39][i % 4], timeline: i % 100 === 0 ? 'das' : 'X.' },
      });
    expect(kernelMemoryBytes()).toBe(before);
  });
  it('placements are listed by the frame they lock on', () => {
    const frames = reachablePlacements(stack(6), 'L', { rules: 'nes' }).map((p) => p.inputs.length);
    expect(frames).toEqual([...frames].sort((a, b) => a - b));
  });
});

describe('timed rule sets are checked', () => {
  const message = (rules: unknown) => {
    try {
      resolveRules(rules);
    } catch (e) {
      return e instanceof StackRankError ? `${e.code}: ${e.message}` : `not a StackRankError: ${String(e)}`;
    }
    return 'no error';
  };
  it('names the field and what is allowed (BAD_RULES)', () => {
    const nes = RULE_SETS.nes;
    expect(message({ ...nes, level: 256 })).toMatch(/^BAD_RULES: rules.level must be an integer from 0 to 255/);
    expect(message({ ...nes, timeline: 'X' })).toMatch(
      /^BAD_RULES: rules.timeline must be .*X\. X\.\. X\.\.\. .*das or dasCharged/,
    );
    expect(message({ ...nes, timeline: 'XX..' })).toMatch(/^BAD_RULES: rules.timeline/);
    expect(message({ ...nes, reaction: -1 })).toMatch(/^BAD_RULES: rules.reaction must be an integer from 0 to 600/);
    expect(message({ ...nes, timing: { ...nes.timing, lockDelay: 2 } })).toMatch(
      /^BAD_RULES: rules.timing.lockDelay must be 0/,
    );
    expect(message({ ...nes, timing: { ...nes.timing, gravity: [{ frames: 2, rows: 2 }] } })).toMatch(
      /^BAD_RULES: rules.timing.gravity\[0\] must be/,
    );
    expect(message({ ...nes, timing: { ...nes.timing, dasRepeat: 20 } })).toMatch(/^BAD_RULES: rules.timing.dasRepeat/);
    expect(message({ ...nes, timing: { ...nes.timing, extra: 1 } })).toMatch(
      /^BAD_RULES: unknown timing field "extra"/,
    );
    const { timing: _t, ...noTiming } = nes;
    expect(message(noTiming)).toMatch(
      /^BAD_RULES: a timed rule set has all of timing, level, timeline, reaction; this one lacks timing/,
    );
    expect(message({ ...RULE_SETS.nesUntimed, level: 18 })).toMatch(/lacks timing, timeline, reaction/);
    expect(message({ ...RULE_SETS.guideline, ...pick(nes) })).toMatch(/gravity normal, softDrop false/);
    expect(
      message({ ...RULE_SETS.tgm20g, softDrop: false, gravity: 'normal', initialRotation: false, ...pick(nes) }),
    ).toMatch(/rotation system without kicks/);
    expect(message({ ...nes, level: 29, timeline: 'X..' })).toBe('no error');
  });
  it('a checked rule set passes through unchanged; the presets are the same objects', () => {
    const r = resolveRules({ ...RULE_SETS.nes, level: 29 });
    expect(resolveRules(r)).toBe(r);
    expect(resolveRules(RULE_SETS.nes)).toBe(RULE_SETS.nes);
    expect(r).toEqual({ ...RULE_SETS.nes, level: 29 });
  });
});

function pick(r: typeof RULE_SETS.nes) {
  return { timing: r.timing, level: r.level, timeline: r.timeline, reaction: r.reaction };
}
