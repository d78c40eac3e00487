/**
 * Play mode's frame-timed piece (demo/frames.ts) and its game under a timed rule set (demo/play.ts), run in Node:
 * - random presses on random boards at levels 18, 19, 29 and 39 under every timeline: the frames the piece played
 *   replay through the independent reference (test/reference/timed-reference.ts) onto the cells it locked in, which
 *   `reachablePlacements` lists;
 * - the frame inputs of every placement `reachablePlacements` gives, pressed frame by frame (tap timelines), play
 *   exactly those frames and lock in its cells;
 * - a whole game at level 19 with random presses and by gravity alone: every placement the person makes is in the
 *   AI's ranking of its turn (graded against it, never "not in the list"), and with no key pressed each piece locks
 *   on the frame the reference says, after the entry delay.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FramePiece, frameMs, type Press } from '../../demo/frames.js';
import { PlaySession, type GradedMove } from '../../demo/play.js';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import {
  Board,
  PieceMover,
  RULE_SETS,
  reachablePlacements,
  type Cell,
  type Piece,
  type RuleSet,
} from '../../src/index.js';
import { Rng } from '../../src/random.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { timedRefBoard, timedRefPlacements, timedRefReplay } from '../reference/timed-reference.js';
import { randomBoard } from '../rules/random-boards.js';

const LEVELS = [18, 19, 29, 39];
const TIMELINES = ['X.', 'X..', 'X...', 'X....', 'X.....', 'das', 'dasCharged'];
const TAPS = TIMELINES.filter((t) => t.startsWith('X'));

const sorted = (cells: readonly Cell[]) => [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
const key = (cells: readonly Cell[]) => JSON.stringify(sorted(cells));
const timed = (level: number, timeline: string): RuleSet => ({ ...RULE_SETS.nes, level, timeline });

/** Boards of at most 24 rows (the reference follows every DAS state, which grows with the fall). */
function boardOf(rng: Rng) {
  let b = randomBoard(rng);
  while (b.height > 24) b = randomBoard(rng);
  return b;
}

describe('FramePiece: a person at the frames of a timed rule set', () => {
  it('plays frames the reference replays onto the cells it locks in, a placement the search lists', () => {
    const rng = new Rng(6);
    let locks = 0;
    for (const level of LEVELS)
      for (const timeline of TIMELINES)
        for (let i = 0; i < 6; i++) {
          const b = boardOf(rng);
          const board = Board.fromRows(b.rows);
          const pid = rng.nextInt(7);
          const rules = timed(level, timeline);
          const mover = new PieceMover(board, pid, rules);
          if (mover.collides(mover.spawn.rotation, mover.spawn.x, mover.spawn.y)) continue;
          const heldAtStart = timeline.startsWith('das') && rng.nextInt(3) === 0 ? (rng.nextInt(2) ? 'L' : 'R') : '';
          const piece = new FramePiece(mover, rules, heldAtStart);
          while (!piece.step()) {
            // a press on about one frame in three, a let-go now and then
            const r = rng.nextInt(12);
            if (r < 4) piece.press((['L', 'R', 'A', 'B'] as Press[])[r]);
            else if (r === 4) piece.release(rng.nextInt(2) ? 'L' : 'R');
          }
          const cells = sorted(mover.cellsOf(piece.state));
          const where = `level ${level} ${timeline} piece ${pid}: ${piece.tokens.join(' ')}\n${b.rows.join('\n')}`;
          const replay = timedRefReplay(timedRefBoard(b.rows), pid, { level, timeline }, piece.tokens);
          expect(replay, where).toMatchObject({ cells });
          if (cells.every(([, y]) => y < b.height)) {
            const listed = reachablePlacements(board, pid, { rules }).map((p) => key(p.cells));
            expect(listed, where).toContain(key(cells));
          }
          locks++;
        }
    expect(locks).toBeGreaterThan(150);
  });

  it("pressing a placement's frame inputs on their frames plays those frames and locks in its cells", () => {
    const rng = new Rng(8);
    let played = 0;
    for (const level of LEVELS)
      for (const timeline of TAPS)
        for (let i = 0; i < 3; i++) {
          const b = boardOf(rng);
          const board = Board.fromRows(b.rows);
          const pid = rng.nextInt(7);
          const rules = timed(level, timeline);
          for (const p of reachablePlacements(board, pid, { rules })) {
            const piece = new FramePiece(new PieceMover(board, pid, rules), rules);
            const tokens = p.inputs as string[];
            for (const t of tokens) {
              for (const c of t === '.' ? [] : t) piece.press(c as Press);
              piece.step();
            }
            expect(piece.locked).toBe(true);
            expect(piece.tokens).toEqual(tokens);
            expect(sorted(new PieceMover(board, pid, rules).cellsOf(piece.state))).toEqual(p.cells);
            played++;
          }
        }
    expect(played).toBeGreaterThan(300);
  });

  it('keeps a tap made between input frames; drops the waiting shifts of a let-go key that repeated', () => {
    const board = Board.empty(10, 20);
    const rules = timed(0, 'X.....');
    const run = (release: (p: FramePiece) => void) => {
      const piece = new FramePiece(new PieceMover(board, 'T', rules), rules);
      piece.step(); // frame 0 (an input frame) passes with nothing pressed
      for (let i = 0; i < 3; i++) piece.press('L');
      release(piece);
      for (let f = 1; f < 24; f++) piece.step();
      return piece.tokens.join('');
    };
    // X..... takes one press every 6 frames: the three taps on frames 6, 12 and 18
    expect(run((p) => p.release('L'))).toBe(`${'.'.repeat(6)}L.....L.....L.....`);
    expect(run((p) => p.release('L', true))).toBe('.'.repeat(24));
    // Letting go of the arrow drops only its own repeats: a turn pressed meanwhile still comes on frame 6.
    const turned = run((p) => {
      p.press('A');
      p.release('L', true);
    });
    expect(turned).toBe(`${'.'.repeat(6)}A${'.'.repeat(17)}`);
  });

  it('falls by the gravity table: 3 frames a row at 18, 2 at 19, 1 at 29, two rows a frame from 39', () => {
    // an untouched piece on an empty board: the frames between its first two falls, and the rows of one fall
    const fallOf = (level: number) => {
      const rules = timed(level, 'X.');
      const piece = new FramePiece(new PieceMover(Board.empty(10, 22), 0, rules), rules);
      const falls: { frame: number; rows: number }[] = [];
      for (let y = piece.state.y; falls.length < 2 && !piece.step(); y = piece.state.y)
        if (piece.state.y !== y) falls.push({ frame: piece.frame, rows: y - piece.state.y });
      return { frames: falls[1].frame - falls[0].frame, rows: falls[0].rows };
    };
    expect([0, 9, 18, 19, 28, 29, 38, 39, 255].map(fallOf)).toEqual([
      { frames: 48, rows: 1 },
      { frames: 6, rows: 1 },
      { frames: 3, rows: 1 },
      { frames: 2, rows: 1 },
      { frames: 2, rows: 1 },
      { frames: 1, rows: 1 },
      { frames: 1, rows: 1 },
      { frames: 1, rows: 2 },
      { frames: 1, rows: 2 },
    ]);
    expect(frameMs(RULE_SETS.nes)).toBeCloseTo(1000 / 60.0988, 9);
  });
});

describe('PlaySession under a timed rule set', () => {
  let table: RankTable;
  beforeAll(async () => {
    table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
  }, 120_000);

  /** Plays a game by the clock: `press` chooses the keys before each frame; returns the graded moves. */
  function play(ai: TetrisAI, rules: RuleSet, pieces: number, press: (s: PlaySession) => void, seed = 5) {
    const s = new PlaySession(ai, rules, 'nes', seed);
    const graded: { move: GradedMove; frames: number; board: string[]; piece: Piece }[] = [];
    // a hair over a frame per tick, so rounding never leaves a tick one frame short
    const ms = frameMs(rules) * (1 + 1e-9);
    let now = 0;
    let frames = 0;
    let before = { board: s.board.toRows(), piece: s.piece };
    s.tick(now);
    while (!s.over && graded.length < pieces) {
      press(s);
      now += ms;
      frames++;
      const move = s.tick(now);
      if (move) {
        graded.push({ move, frames, ...before });
        before = { board: s.board.toRows(), piece: s.piece };
        frames = 0;
      }
    }
    return graded;
  }

  it("grades every placement a person's presses make against the AI's ranking, which lists it", async () => {
    for (const timeline of ['X..', 'das']) {
      const rules = timed(19, timeline);
      const ai = await TetrisAI.create({ rules, lookahead: 1, table });
      const rng = new Rng(timeline.length);
      const keys = ['left', 'right', 'cw', 'ccw'] as const;
      // games until enough placements (random presses top out soon; fewer under DAS, whose recover-mode ranking takes
      // longer); a top-out's lock, over the field, is no placement
      const wanted = timeline === 'das' ? 6 : 16;
      const inside: ReturnType<typeof play> = [];
      for (let seed = 0; inside.length < wanted && seed < 20; seed++) {
        const graded = play(
          ai,
          rules,
          wanted,
          (s) => {
            const r = rng.nextInt(10);
            if (r < 4) s.act(keys[r]);
            else if (r === 4) s.release(rng.nextInt(2) ? 'left' : 'right');
          },
          seed,
        );
        inside.push(...graded.filter((g) => g.move.played.cells.every(([, y]) => y < 20)));
      }
      expect(inside.length).toBeGreaterThanOrEqual(wanted);
      for (const g of inside) {
        expect(g.move.entry, `${timeline}: ${g.piece}\n${g.board.join('\n')}`).not.toBeNull();
        expect(key(g.move.entry!.cells)).toBe(key(g.move.played.cells));
      }
    }
  }, 120_000);

  it('with no key pressed, each piece locks by gravity on the frame the reference gives, after the entry delay', async () => {
    const rules = timed(29, 'X.');
    const ai = await TetrisAI.create({ rules, lookahead: 1, table });
    const graded = play(ai, rules, 12, () => {});
    const entry = rules.timing!.entryDelay.min;
    // the pieces pile up in the middle until one locks over the field (no placement): the ones before it
    const inside = graded.filter((g) => g.move.played.cells.every(([, y]) => y < 20));
    expect(inside.length).toBeGreaterThan(3);
    inside.forEach((g, i) => {
      const drop = [
        ...timedRefPlacements(timedRefBoard(g.board), g.piece, { level: 29, timeline: 'X.' }).values(),
      ].filter((p) => p.presses === 0);
      expect(drop.length).toBe(1);
      expect(g.move.played.cells).toEqual(drop[0].cells);
      // frame 0 is the tick after the lock; the first piece starts at once
      expect(g.frames).toBe(drop[0].frame + 1 + (i === 0 ? 0 : entry));
    });
  }, 120_000);
});
