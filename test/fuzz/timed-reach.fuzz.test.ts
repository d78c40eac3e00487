/**
 * The long run of the frame-by-frame search against the independent reference (test/rules/timed-check.ts): FUZZ_RUNS
 * / 100 boards per level and timeline (default 100; `npm run fuzz` runs 10,000 / 100 = 100 per pair, 4,900 boards),
 * seed FUZZ_SEED (default 52).
 */
import { describe, expect, it } from 'vitest';
import { LEVELS, TIMELINES, checkTimedBoards } from '../rules/timed-check.js';

const BOARDS = Math.max(1, Math.round(Number(process.env.FUZZ_RUNS ?? 10_000) / 100));
const SEED = Number(process.env.FUZZ_SEED ?? 52);

describe('frame-by-frame search against the reference (fuzz)', () => {
  LEVELS.forEach((level, li) => {
    TIMELINES.forEach((timeline, ti) => {
      it(`level ${level}, ${timeline}: ${BOARDS} boards`, () => {
        expect(checkTimedBoards(level, timeline, BOARDS, SEED * 1000 + li * 100 + ti)).toBeGreaterThan(0);
      }, 3_600_000);
    });
  });
});
