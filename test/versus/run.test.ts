/**
 * playVersus (src/versus/run.ts): the same seed plays the same matches on any thread count and in any range of
 * match indices; matches 2k and 2k + 1 are one deal with the sides swapped; the summary is the sum of the tallies;
 * a Tetris Bot Protocol side (stackrank's own `stackrank tbp`) plays whole matches with legal moves; options are
 * checked at the edge and nothing is left running after a failure.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { CLEAR_KINDS } from '../../src/rules/attack.js';
import type { MatchTally } from '../../src/versus/match.js';
import { playVersus, type PlayVersusOptions, type VersusResult } from '../../src/versus/run.js';
import { liveWorkerCount } from '../../src/kernels/pool.js';

// A small table (7 columns: an 8-wide board) keeps the search small; these tests check the simulator's plumbing.
let table7: RankTable;
// A small 9-column table for the TBP side (TBP boards are 10 wide).
let table9: RankTable;
let table9File: string;
beforeAll(async () => {
  table7 = await buildRankTable({ width: 7, iterations: 3, threads: 1 });
  table9 = await buildRankTable({ width: 9, maxStep: 3, iterations: 2, threads: 1 });
  table9File = join(mkdtempSync(join(tmpdir(), 'stackrank-versus-')), 't9.srk');
  await table9.save(table9File);
}, 180_000);

/** The figures of a run, without its timing and thread count. */
function played({ seconds, piecesPerSecond, threads, ...rest }: VersusResult) {
  return (void seconds, void piecesPerSecond, void threads, rest);
}

const RUN: PlayVersusOptions = {
  a: { ai: { lookahead: 1 } },
  b: { ai: { lookahead: 0 } },
  maxPieces: 80,
  seed: 3,
  garbageDelay: 1,
};

describe('playVersus with two TetrisAI sides', () => {
  it('plays the same matches on 1 and 2 threads', async () => {
    const one = await playVersus({ ...RUN, matches: 4, table: table7, threads: 1 });
    const two = await playVersus({ ...RUN, matches: 4, table: table7, threads: 2 });
    expect([one.threads, two.threads]).toEqual([1, 2]);
    expect(one.width).toBe(8);
    expect(played(two)).toEqual(played(one));
    // Not vacuous: garbage went both ways.
    expect(one.sides.every((s) => s.sent > 0 && s.received > 0)).toBe(true);
    expect(liveWorkerCount()).toBe(0);
  }, 120_000);

  it('a range of match indices plays exactly those matches of the whole run', async () => {
    const whole = await playVersus({ ...RUN, matches: 4, table: table7, threads: 1 });
    const tail = await playVersus({ ...RUN, matches: 2, firstMatch: 2, table: table7, threads: 1 });
    expect(tail.tallies.map((t) => t.match)).toEqual([2, 3]);
    expect(tail.tallies).toEqual(whole.tallies.slice(2));
  }, 120_000);

  it('matches 2k and 2k + 1 are one deal with the sides swapped: equal sides mirror each other', async () => {
    const r = await playVersus({ ...RUN, b: RUN.a, matches: 2, table: table7, threads: 1 });
    const [even, odd] = r.tallies;
    expect([even.seatA, odd.seatA]).toEqual([0, 1]);
    expect(odd.rounds).toBe(even.rounds);
    expect(odd.sides).toEqual([even.sides[1], even.sides[0]]);
    const swapped = { A: 'B', B: 'A', draw: 'draw' } as const;
    expect(odd.winner).toBe(swapped[even.winner]);
    // The two seats of one match play different games: the opponent's garbage differs.
    expect(even.sides[0]).not.toEqual(even.sides[1]);
  }, 120_000);

  it('the summary is the sum of the tallies; the score counts a draw as half a win', async () => {
    const r = await playVersus({ ...RUN, matches: 4, maxPieces: 40, table: table7, threads: 1 });
    const sum = (k: 0 | 1, f: (t: MatchTally['sides'][0]) => number) =>
      r.tallies.reduce((a, t) => a + f(t.sides[k]), 0);
    for (const k of [0, 1] as const) {
      const s = r.sides[k];
      expect(s.pieces).toBe(sum(k, (t) => t.pieces));
      expect(s.attack).toBe(sum(k, (t) => t.attack));
      expect(s.sent).toBe(sum(k, (t) => t.sent));
      expect(s.cancelled).toBe(sum(k, (t) => t.cancelled));
      expect(s.received).toBe(sum(k, (t) => t.received));
      expect(s.attackPerPiece).toBeCloseTo(s.attack / s.pieces, 12);
      for (const [kind, n] of Object.entries(s.clears))
        expect(n).toBe(sum(k, (t) => t.kinds[CLEAR_KINDS.indexOf(kind as (typeof CLEAR_KINDS)[number])]));
      expect(s.wins).toBe(r.tallies.filter((t) => t.winner === (k === 0 ? 'A' : 'B')).length);
    }
    const draws = r.tallies.filter((t) => t.winner === 'draw').length;
    expect([r.wins, r.losses, r.draws]).toEqual([r.sides[0].wins, r.sides[1].wins, draws]);
    expect(r.winRate).toBeCloseTo((r.wins + draws / 2) / 4, 12);
    expect(r.winRateCi95[0]).toBeLessThanOrEqual(r.winRate);
    expect(r.winRateCi95[1]).toBeGreaterThanOrEqual(r.winRate);
    expect(r.capped).toBe(r.tallies.filter((t) => t.sides.every((s) => s.out === null)).length);
  }, 120_000);
});

describe('aborting playVersus', () => {
  it.each([1, 2])(
    'an abort after the first match rejects with ABORTED and leaves no worker (%i threads)',
    async (threads) => {
      const controller = new AbortController();
      let ended = 0;
      const run = playVersus({
        ...RUN,
        matches: 6,
        table: table7,
        threads,
        signal: controller.signal,
        onMatch: () => {
          ended++;
          controller.abort();
        },
      });
      await expect(run).rejects.toMatchObject({ name: 'StackRankError', code: 'ABORTED' });
      expect(ended).toBeGreaterThanOrEqual(1);
      expect(ended).toBeLessThan(6);
      expect(liveWorkerCount()).toBe(0);
    },
    60_000,
  );
});

describe('playVersus with a TBP side', () => {
  const root = resolve(__dirname, '../..');
  const bot = [process.execPath, '--import', 'tsx', 'src/cli.ts', 'tbp', '--lookahead', '1', '--no-expectimax'];

  it("plays whole matches against stackrank's own TBP bot: every move legal and reached", async () => {
    const r = await playVersus({
      a: { ai: { lookahead: 1 } },
      b: { tbp: [...bot, '--table', table9File] },
      matches: 2,
      maxPieces: 40,
      seed: 2,
      table: table9,
      threads: 1,
      cwd: root,
    });
    expect(r.width).toBe(10);
    expect(r.sides[1].player).toMatch(/^TBP: /);
    for (const t of r.tallies) expect(t.sides.map((s) => s.out)).not.toContain('illegal');
    expect(r.sides[1].pieces).toBeGreaterThan(30);
    expect(r.sides[1].unreachable).toBe(0);
    // The bot was told the position again after garbage entered its board.
    expect(r.sides[1].received > 0).toBe(r.sides[1].restarts > 0);
  }, 120_000);

  it('an abort ends a wait for a bot that says nothing, on this thread and on workers, at once', async () => {
    // a bot that sends info, then never answers (ready, a suggestion): only the abort ends the 10-minute wait
    const quiet = `require('node:readline').createInterface({ input: process.stdin }); console.log(JSON.stringify({ type: 'info', name: 'quiet', version: '1', author: 'test', features: [] }));`;
    for (const threads of [1, 2]) {
      const controller = new AbortController();
      const run = playVersus({
        b: { tbp: [process.execPath, '-e', quiet] },
        matches: 2,
        table: table9,
        threads,
        maxPieces: 5,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 500);
      const t0 = performance.now();
      await expect(run).rejects.toMatchObject({ name: 'StackRankError', code: 'ABORTED' });
      expect(performance.now() - t0).toBeLessThan(20_000);
      expect(liveWorkerCount()).toBe(0);
    }
  }, 60_000);

  it('a bot program that cannot run is an IO error, on this thread and on workers; nothing is left running', async () => {
    for (const threads of [1, 2]) {
      await expect(
        playVersus({
          b: { tbp: join(dirname(table9File), 'no-such-bot') },
          matches: 2,
          table: table9,
          threads,
          maxPieces: 5,
        }),
      ).rejects.toMatchObject({ name: 'StackRankError', code: 'IO' });
      expect(liveWorkerCount()).toBe(0);
    }
  }, 60_000);
});

describe('playVersus checks its options', () => {
  const refused = (options: unknown, pattern: RegExp) =>
    expect(playVersus(options as PlayVersusOptions)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(pattern),
    });

  it('refuses bad sides, unknown options and out-of-range numbers, saying what is allowed', async () => {
    await refused({ colour: 'red' }, /colour/);
    await refused({ a: { ai: {}, tbp: 'x' } }, /side a must be/);
    await refused({ b: { ai: { rules: 'nes' } } }, /guideline/);
    await refused({ a: { ai: { table: table7 } } }, /the run's table/);
    // a run's table that is no table is said to be so, whatever its sides play
    for (const goal of ['survival', 'versus'])
      for (const table of [5, 'small'])
        await refused(
          { a: { ai: { goal } }, table },
          /^playVersus: table must be a RankTable from buildRankTable or loadRankTable; got /,
        );
    await refused({ b: { tbp: '' } }, /command line/);
    await refused({ b: { tbp: 'bot', thinkMs: -1 } }, /0 to 60000/);
    await refused({ matches: 0 }, /matches/);
    await refused({ garbageDelay: 1.5 }, /garbageDelay/);
    await refused({ streams: 'mixed' }, /"same" or "independent"/);
    await refused({ messiness: { withinAttack: 2 } }, /withinAttack/);
  });

  it('a TBP side needs a 10-wide board (a 9-column table)', async () => {
    await refused({ b: { tbp: 'bot' }, table: table7 }, /10-wide board/);
  });
  it("goal 'versus' needs a 10-wide board too: it plays the guideline's board whatever table it is given", async () => {
    await refused({ a: { ai: { goal: 'versus', lookahead: 1 } }, table: table7 }, /goal 'versus' plays a 10-wide/);
  });
});

describe("playVersus with goal 'versus'", () => {
  it('the versus policy against the survival policy: legal matches, its attack counted, the same on any thread count', async () => {
    const run: PlayVersusOptions = {
      a: { ai: { goal: 'versus', lookahead: 1, versus: { beam: 4 } } },
      b: { ai: { lookahead: 1 } },
      matches: 2,
      maxPieces: 40,
      seed: 5,
      table: table9,
    };
    const one = await playVersus({ ...run, threads: 1 });
    const two = await playVersus({ ...run, threads: 2 });
    expect(played(two)).toEqual(played(one));
    expect(one.sides[0].player).toMatch(/goal versus/);
    for (const t of one.tallies) expect(t.sides.map((x) => x.out)).not.toContain('illegal');
    expect(one.sides[0].pieces).toBeGreaterThan(40);
    expect(one.sides[0].attack).toBeGreaterThan(0);
  }, 120_000);
});
