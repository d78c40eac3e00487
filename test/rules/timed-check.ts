/**
 * The frame-by-frame search (reachablePlacements under a timed rule set) against the independent reference
 * (test/reference/timed-reference.ts) on random boards: the same placements, each returned input sequence replayed
 * by the reference onto its placement on its lock frame, with the fewest presses. Shared by the CI test
 * (test/rules/timed-reachable.test.ts) and the long run behind `npm run fuzz`.
 */
import { expect } from 'vitest';
import { Board, RULE_SETS, reachablePlacements } from '../../src/rules/index.js';
import { nesTiming } from '../../src/rules/timing.js';
import { Rng } from '../../src/random.js';
import { timedRefBoard, timedRefPlacements, timedRefReplay } from '../reference/timed-reference.js';
import { randomBoard } from './random-boards.js';

/** The four levels, then slow gravity (8 frames a row) and the last level of 2 and of 1 frame a row. */
export const LEVELS = [18, 19, 29, 39, 8, 28, 38] as const;
export const TIMELINES = ['X.', 'X..', 'X...', 'X....', 'X.....', 'das', 'dasCharged'] as const;

/** Presses a tap timeline's tokens make (a shift with a turn is two). */
export function tapPresses(tokens: readonly string[]): number {
  return tokens.reduce((n, t) => n + (t === '.' ? 0 : t.length), 0);
}

/**
 * Checks `boards` random boards (seeded) for one level and timeline; returns how many placements were checked.
 * `doubleKillscreen` other than the competition format's 39 (null: the 1989 game's one row a frame from 29 on) is
 * given to both sides: the kernel through `nesTiming`, the reference as its own option.
 */
export function checkTimedBoards(
  level: number,
  timeline: string,
  boards: number,
  seed: number,
  doubleKillscreen: number | null = 39,
): number {
  const rng = new Rng(seed);
  const rules = { ...RULE_SETS.nes, level, timeline, timing: nesTiming(doubleKillscreen) };
  const refRules = { level, timeline, doubleKillscreen };
  let checked = 0;
  for (let i = 0; i < boards; i++) {
    // boards up to 24 rows: the reference follows every DAS state, which grows with the fall
    let b = randomBoard(rng);
    while (b.height > 24) b = randomBoard(rng);
    const pid = rng.nextInt(7);
    const board = Board.fromRows(b.rows);
    const ref = timedRefPlacements(timedRefBoard(b.rows), pid, refRules);
    const got = reachablePlacements(board, pid, { rules });
    const where = `level ${level} ${timeline}, board ${i} (piece ${pid}):\n${b.rows.join('\n')}`;
    expect(new Set(got.map((p) => JSON.stringify(p.cells))), where).toEqual(new Set(ref.keys()));
    expect(got.length, where).toBe(ref.size);
    for (const p of got) {
      const expected = ref.get(JSON.stringify(p.cells))!;
      const tokens = p.inputs as readonly string[];
      expect(tokens.length, `${where}\nframes of ${JSON.stringify(p.cells)}`).toBe(expected.frame + 1);
      const replay = timedRefReplay(timedRefBoard(b.rows), pid, refRules, tokens);
      expect(replay, `${where}\nreplay of ${tokens.join(' ')}`).toEqual({ cells: p.cells, presses: expected.presses });
      if (timeline !== 'das' && timeline !== 'dasCharged') expect(tapPresses(tokens), where).toBe(expected.presses);
      checked++;
    }
  }
  return checked;
}
