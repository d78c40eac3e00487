/**
 * createWorkerTetrisAI (`stackrank/worker`, src/tetris-ai/worker-ai.ts) in Node's worker threads: the worker's AI answers what the same AI
 * answers on this thread, the table travels as its file's bytes, progress and errors come back with their codes,
 * and abort and dispose leave no worker behind. The browser side (a Web Worker, IndexedDB) is
 * test/browser/worker-ai.test.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SetupProgress, TetrisAI, createRandomizer } from '../../src/index.js';
import { createWorkerTetrisAI } from '../../src/worker.js';
import { PIECES } from '../../src/pieces.js';
import { buildRankTable, type RankTable } from '../../src/rank/table.js';
import { liveWorkerCount } from '../../src/kernels/pool.js';

const W = 10;
const H = 20;
let table: RankTable;
beforeAll(async () => {
  // A quick 9-column table (3 iterations): the tests check the plumbing, not the strength.
  table = await buildRankTable({ width: 9, iterations: 3, threads: 1 });
}, 120_000);
afterAll(async () => {
  await vi.waitFor(() => expect(liveWorkerCount()).toBe(0), { timeout: 10_000 });
});

/** A board (rows top first) from column heights, with one cell left empty in each row so none is full. */
function board(heights: readonly number[]): string[] {
  return Array.from({ length: H }, (_, r) => {
    const y = H - 1 - r;
    return heights.map((h, x) => (y < h && x !== (y * 3) % W ? '#' : '.')).join('');
  });
}

const stateArb = fc.record({
  heights: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: W, maxLength: W }),
  current: fc.constantFrom(...PIECES),
  queue: fc.array(fc.constantFrom(...PIECES), { maxLength: 3 }).map((q) => q.join('')),
  hold: fc.option(fc.constantFrom(...PIECES), { nil: null }),
});

describe('createWorkerTetrisAI (Node worker threads)', () => {
  it('answers every call as the same AI does on this thread, and reports its setup', async () => {
    const events: SetupProgress[] = [];
    const remote = await createWorkerTetrisAI({
      rules: 'guideline',
      lookahead: 2,
      table,
      onProgress: (p) => events.push(p),
    });
    const local = await TetrisAI.create({ rules: 'guideline', lookahead: 2, table });
    try {
      expect(remote.width).toBe(10);
      expect(remote.lookahead).toBe(2);
      expect(remote.rules.name).toBe('guideline');
      expect(events.at(-1)).toMatchObject({ stage: 'ready', fraction: 1 });
      expect(events.map((e) => e.stage)).toContain('search');
      const states = fc.sample(stateArb, { numRuns: 25, seed: 53 });
      for (const s of states) {
        const state = { board: board(s.heights), current: s.current, queue: s.queue, hold: s.hold, canHold: true };
        expect(await remote.nextMove(state)).toEqual(local.nextMove(state));
      }
      const state = { board: board([3, 4, 4, 2, 1, 1, 2, 3, 2, 0]), current: 'L', queue: 'TS' };
      expect(await remote.rankPlacements(state, { limit: 5 })).toEqual(local.rankPlacements(state, { limit: 5 }));
      // The worker's errors keep their codes and messages.
      await expect(remote.nextMove({ board: board(new Array(W).fill(0)), current: 'Q' })).rejects.toMatchObject({
        name: 'StackRankError',
        code: 'BAD_PIECE',
        message: expect.stringMatching(/current must be a letter of I O T S Z L J/),
      });
      // Calls in flight are answered in order, each with its own answer.
      const many = await Promise.all(
        PIECES.map((current) => remote.nextMove({ board: board(new Array(W).fill(2)), current })),
      );
      expect(many.map((m) => m?.piece)).toEqual([...PIECES]);
    } finally {
      remote.dispose();
    }
  }, 120_000);

  it('a game session in the worker plays the moves of the same session on this thread; options travel', async () => {
    const remote = await createWorkerTetrisAI({ rules: 'guideline', lookahead: 1, table });
    const local = await TetrisAI.create({ rules: 'guideline', lookahead: 1, table });
    try {
      const remoteGame = await remote.newGame({ randomizer: 'bag7' });
      const localGame = local.newGame({ randomizer: 'bag7' });
      const pieces = createRandomizer('bag7', { seed: 53 }).take(40);
      const heights = fc.sample(stateArb, { numRuns: 30, seed: 7 }).map((s) => s.heights);
      for (let turn = 0; turn < 30; turn++) {
        const state = { board: board(heights[turn]), current: pieces[turn], queue: pieces.slice(turn + 1, turn + 6) };
        // The session's own chances (it follows the bag from the pieces) make its answer.
        expect(await remoteGame.nextMove(state)).toEqual(localGame.nextMove(state));
      }
      // A budget travels too (what a budget finds depends on the clock, so only its shape is compared).
      const last = { board: board(heights[0]), current: pieces[30], queue: pieces.slice(31, 36) };
      const budgeted = await remoteGame.nextMove(last, { budgetMs: 20 });
      expect(budgeted?.cells).toHaveLength(4);
      await expect(remoteGame.nextMove(last, { budgetMs: -1 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
      await remoteGame.dispose();
      await expect(remoteGame.nextMove({ board: board(heights[0]), current: 'T' })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(/disposed/),
      });
      // a game still open when the AI is disposed went with it: its dispose resolves, its moves are refused
      const open = await remote.newGame({ randomizer: 'bag7' });
      remote.dispose();
      await expect(open.dispose()).resolves.toBeUndefined();
      await expect(open.nextMove({ board: board(heights[0]), current: 'T' })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
      });
    } finally {
      remote.dispose();
    }
  }, 120_000);

  it("an NES game's level and lines count travel to the worker's AI and its sessions", async () => {
    const remote = await createWorkerTetrisAI({ rules: 'nes', lookahead: 1, table });
    const local = await TetrisAI.create({ rules: 'nes', lookahead: 1, table });
    try {
      // a clean 7-row stack, a notch in column 1, the right well open (test/tetris-ai/nes-timed.test.ts): over the
      // last 5 lines of level 38 (from 325 lines) the AI fills the notch, before them it stacks on the top
      const rows = Array.from({ length: H }, (_, r) => {
        const y = H - 1 - r;
        return [7, 6, 7, 7, 7, 7, 7, 7, 7, 0].map((h) => (y < h ? '#' : '.')).join('');
      });
      const at = (lines: number) => ({ board: rows, current: 'T', queue: 'T', level: 38, lines });
      const before = await remote.nextMove(at(324));
      const last = await remote.nextMove(at(327));
      expect(before).toEqual(local.nextMove(at(324)));
      expect(last).toEqual(local.nextMove(at(327)));
      expect([before?.mode, last?.mode]).toEqual(['stack', 'recover']);
      const game = await remote.newGame();
      expect(await game.nextMove(at(327))).toEqual(local.newGame().nextMove(at(327)));
      await expect(game.nextMove({ ...at(327), lines: -1 })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(/lines must be an integer from 0 to Number.MAX_SAFE_INTEGER/),
      });
    } finally {
      remote.dispose();
    }
  }, 120_000);

  it("table 'smallFirst' plays the small table, then the default one: the AI and a game begun before follow", async () => {
    // The cached tables (the user's cache folder, as the library's other tests use it).
    const small = await TetrisAI.create({ rules: 'guideline', table: 'small' });
    const full = await TetrisAI.create({ rules: 'guideline' });
    // Clean low stacks with the well on the right (stack mode, where the table decides), empty boards among them.
    const states = fc.sample(stateArb, { numRuns: 60, seed: 53 }).map((s, i) => ({
      board: Array.from({ length: H }, (_, r) =>
        s.heights.map((h, x) => (x < W - 1 && H - 1 - r < (i % 3 === 0 ? 0 : h % 4) ? '#' : '.')).join(''),
      ),
      current: s.current,
      queue: s.queue,
      hold: null,
      canHold: true,
    }));
    // States the two tables play differently, so a move says which table answered.
    const telling = states.filter((s) => !isDeepStrictEqual(small.nextMove(s), full.nextMove(s)));
    expect(telling.length).toBeGreaterThan(2);
    const events: SetupProgress[] = [];
    const remote = await createWorkerTetrisAI({
      rules: 'guideline',
      table: 'smallFirst',
      onProgress: (p) => events.push(p),
    });
    try {
      // Asked at once: the worker answers them while it still reads the default table (a 43 MB file, unfolded).
      expect(remote.table).toBe('small');
      const first = remote.nextMove(telling[0]);
      const game = remote.newGame();
      const gameFirst = game.then((g) => g.nextMove(telling[0]));
      expect(await first).toEqual(small.nextMove(telling[0]));
      expect(await gameFirst).toEqual(small.newGame().nextMove(telling[0]));
      const localGame = full.newGame();
      localGame.nextMove(telling[0]); // the same turns as the remote game
      expect(await remote.finalTable).toEqual({ table: 'default' });
      expect(remote.table).toBe('default');
      for (const s of telling) expect(await remote.nextMove(s)).toEqual(full.nextMove(s));
      // The game begun on the small table plays on with the default one (its turns followed the same states).
      for (const s of telling.slice(1)) expect(await (await game).nextMove(s)).toEqual(localGame.nextMove(s));
      // Both setups reported: the small table's to its 'ready', then the default table's, to a second 'ready'.
      expect(events.filter((e) => e.stage === 'ready')).toHaveLength(2);
      expect(events.filter((e) => e.stage === 'load' && e.fraction === 1).map((e) => e.path)).toEqual([
        expect.stringMatching(/rank-article-w9-s3-i15\.srk$/),
        expect.stringMatching(/rank-article-w9-s4-i15\.srk$/),
      ]);
      // An onProgress that throws during the default table's setup stops it: the small table stays, and says why.
      let ready = false;
      const picky = await createWorkerTetrisAI({
        rules: 'guideline',
        table: 'smallFirst',
        onProgress: (p) => {
          if (ready) throw new Error('no more events');
          ready = p.stage === 'ready';
        },
      });
      expect(await picky.finalTable).toEqual({ table: 'small', reason: 'onProgress threw: no more events' });
      expect(picky.table).toBe('small');
      expect(await picky.nextMove(telling[0])).toEqual(small.nextMove(telling[0]));
      picky.dispose();
    } finally {
      remote.dispose();
    }
    // Other tables settle at once; a disposed AI's swap ends with the small table, saying why.
    const given = await createWorkerTetrisAI({ rules: 'guideline', table });
    expect(given.table).toBe('given');
    expect(await given.finalTable).toEqual({ table: 'given' });
    given.dispose();
    const early = await createWorkerTetrisAI({ rules: 'guideline', table: 'smallFirst' });
    early.dispose();
    expect(await early.finalTable).toEqual({ table: 'small', reason: expect.stringMatching(/disposed/) });
    await expect(createWorkerTetrisAI({ rules: 'tgm20g', table: 'smallFirst' })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/smallFirst/),
    });
    await vi.waitFor(() => expect(liveWorkerCount()).toBe(0), { timeout: 10_000 });
  }, 120_000);

  it('dispose stops the worker: calls under way reject with ABORTED, later ones with BAD_ARGUMENT', async () => {
    const remote = await createWorkerTetrisAI({ rules: 'nes', table });
    const pending = remote.nextMove({ board: board(new Array(W).fill(0)), current: 'T', queue: 'SZ' });
    remote.dispose();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(remote.nextMove({ board: board(new Array(W).fill(0)), current: 'T' })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/disposed/),
    });
    await vi.waitFor(() => expect(liveWorkerCount()).toBe(0), { timeout: 10_000 });
  }, 120_000);

  it('an abort stops the setup and the worker; options are checked in the worker, with the library’s errors', async () => {
    // Aborted at the setup's first progress event: the worker is under way with it, not yet done.
    const controller = new AbortController();
    const seen: SetupProgress[] = [];
    const setup = createWorkerTetrisAI({
      rules: 'guideline',
      table,
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p);
        controller.abort();
      },
    });
    await expect(setup).rejects.toMatchObject({
      name: 'StackRankError',
      code: 'ABORTED',
      message: "the AI's setup was aborted",
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].stage).not.toBe('ready');
    // Aborted at once, before the worker has said anything.
    const early = new AbortController();
    const started = createWorkerTetrisAI({ rules: 'guideline', table, signal: early.signal });
    early.abort();
    await expect(started).rejects.toMatchObject({ code: 'ABORTED', message: "the AI's setup was aborted" });
    await expect(createWorkerTetrisAI({ rules: 'guideline', signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    await expect(createWorkerTetrisAI({ rules: 'chess' as never, table })).rejects.toMatchObject({
      code: 'BAD_RULES',
    });
    // An onProgress that throws fails the setup with its error.
    const throwing = () => {
      throw new Error('no progress, thanks');
    };
    await expect(createWorkerTetrisAI({ rules: 'guideline', table, onProgress: throwing })).rejects.toThrow(
      'no progress, thanks',
    );
    await expect(createWorkerTetrisAI({ table: { width: 9 } as never })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/table must be a table from the library .*, 'small' or 'smallFirst'/),
    });
    await expect(createWorkerTetrisAI({ table, lookahead: 1, strategy: () => 1 } as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(/plain data/),
    });
    await vi.waitFor(() => expect(liveWorkerCount()).toBe(0), { timeout: 10_000 });
  }, 120_000);
});
