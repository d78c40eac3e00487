import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PIECES } from '../../src/pieces.js';
import { buildRankTable, loadRankTable, type RankTable } from '../../src/rank/table.js';
import { StackingAI } from '../../src/stacking-ai/ai.js';
import { computePieceMax } from '../../src/rank/piece-max.js';
import { recyclingAllocator, searchImage } from '../../src/kernels/search-image.js';
import { stackArb } from '../helpers/stack-arb.js';

const engineOf = (ai: StackingAI) => (ai as unknown as { engine: { memory: WebAssembly.Memory } }).engine;

let table: RankTable;
let copy: RankTable;
beforeAll(async () => {
  table = await buildRankTable({ width: 6, maxStep: 4, iterations: 6, threads: 1 });
  copy = await loadRankTable(table.toBytes()); // same values, another table object: its own search image
}, 60_000);

const heightsArb = stackArb(6, 4, 16);
const queueArb = fc
  .array(fc.integer({ min: 0, max: 6 }), { minLength: 3, maxLength: 3 })
  .map((q) => q.map((p) => PIECES[p]).join(''));

describe('AIs over one table share one search image', () => {
  it.each([
    ['rank', 0],
    ['expectimax', 1],
    ['expectimax', 2],
  ] as const)(
    '%s over %i unknown pieces: instances share memory and pick the same moves as an unshared one',
    async (strategy, unknown) => {
      const options = strategy === 'rank' ? {} : { strategy, unknownPieces: unknown as 1 | 2 };
      const a = await StackingAI.create({ table, ...options });
      const b = await StackingAI.create({ table, ...options });
      const alone = await StackingAI.create({ table: copy, ...options });
      expect(engineOf(a).memory).toBe(engineOf(b).memory);
      expect(engineOf(alone).memory).not.toBe(engineOf(a).memory);
      fc.assert(
        fc.property(heightsArb, queueArb, fc.integer({ min: 0, max: 1 }), (heights, queue, lookahead) => {
          // Interleaved calls: each instance keeps its own search state inside the shared memory.
          const fromA = a.bestPlacement(heights, queue, lookahead);
          const fromAlone = alone.bestPlacement(heights, queue, lookahead);
          const fromB = b.bestPlacement(heights, queue, lookahead);
          expect(fromA).toEqual(fromAlone);
          expect(fromB).toEqual(fromAlone);
        }),
        { numRuns: 150 },
      );
    },
  );

  it('the rank strategy and an expectimax strategy over one table get separate images (one holds leaf rows)', async () => {
    const rank = await StackingAI.create({ table });
    const expect1 = await StackingAI.create({ table, strategy: 'expectimax' });
    const expect2 = await StackingAI.create({ table, strategy: 'expectimax', unknownPieces: 2 });
    expect(engineOf(rank).memory).not.toBe(engineOf(expect1).memory);
    // One and two unknown pieces read the same piece-max rows.
    expect(engineOf(expect1).memory).toBe(engineOf(expect2).memory);
  });

  it('an expectimax image holds the leaf rows but no copy of the ranks (its search never reads them)', async () => {
    const rankImage = await searchImage(table, null, false);
    const rowsImage = await searchImage(table, 'pieceMax', false);
    expect(rankImage.tablePtr).toBeGreaterThan(0);
    expect(rankImage.rowsPtr).toBe(0);
    expect(rowsImage.tablePtr).toBe(0);
    expect(rowsImage.rowsPtr).toBeGreaterThan(0);
    expect(rowsImage.scale).toBe(rankImage.scale);
  });
});

describe('an aborted setup', () => {
  it('the piece-max rows stop at the next chunk once their signal aborts', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(computePieceMax(table, undefined, stop.signal)).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('rejects the caller that aborted at once; a caller still waiting gets the image, and it is kept', async () => {
    const fresh = await loadRankTable(table.toBytes()); // no image made for this table object yet
    const impatient = new AbortController();
    const aborted = searchImage(fresh, 'pieceMax', false, impatient.signal);
    const patient = searchImage(fresh, 'pieceMax', false);
    impatient.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'StackRankError', code: 'ABORTED' });
    const image = await patient;
    expect(image.rowsPtr).toBeGreaterThan(0);
    expect(await searchImage(fresh, 'pieceMax', false)).toBe(image);
  });

  it('a lone caller that aborts stops the image; the next caller makes it again and plays as before', async () => {
    const fresh = await loadRankTable(table.toBytes());
    const stop = new AbortController();
    const lone = searchImage(fresh, 'pieceMax', false, stop.signal);
    stop.abort();
    await expect(lone).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(searchImage(fresh, 'pieceMax', false, stop.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    const again = await StackingAI.create({ table: fresh, strategy: 'expectimax' });
    const reference = await StackingAI.create({ table, strategy: 'expectimax' });
    for (const queue of ['TSZ', 'IOL', 'JJT'])
      expect(again.bestPlacement([0, 1, 1, 0, 2, 2], queue, 1)).toEqual(
        reference.bestPlacement([0, 1, 1, 0, 2, 2], queue, 1),
      );
  });
});

describe('blocks of the shared image are given back', () => {
  const engineMemory = (ai: StackingAI) => engineOf(ai).memory.buffer.byteLength;
  const release = (ai: StackingAI) => (ai as unknown as { engine: { release(): void } }).engine.release();

  it('an engine released gives its blocks to the next: 300 AIs made and released leave the memory as one did', async () => {
    const fresh = await loadRankTable(table.toBytes());
    const first = await StackingAI.create({ table: fresh, strategy: 'expectimax' });
    release(first);
    const after = engineMemory(first);
    for (let i = 0; i < 300; i++) release(await StackingAI.create({ table: fresh, strategy: 'expectimax' }));
    // Each AI's own state is about 33 kB (its search context): 300 kept would take about 10 MB more.
    expect(engineMemory(first)).toBe(after);
  });

  it('an AI on reused blocks (zeroed) plays as an AI on fresh ones', async () => {
    const fresh = await loadRankTable(table.toBytes());
    const used = await StackingAI.create({ table: fresh, strategy: 'expectimax' });
    fc.assert(
      fc.property(heightsArb, queueArb, (heights, queue) => {
        used.bestPlacement(heights, queue, 1); // leaves its context full of this search's state
      }),
      { numRuns: 30 },
    );
    release(used);
    const reused = await StackingAI.create({ table: fresh, strategy: 'expectimax' });
    const alone = await StackingAI.create({ table: copy, strategy: 'expectimax' });
    fc.assert(
      fc.property(heightsArb, queueArb, fc.integer({ min: 0, max: 1 }), (heights, queue, lookahead) => {
        expect(reused.bestPlacement(heights, queue, lookahead)).toEqual(alone.bestPlacement(heights, queue, lookahead));
      }),
      { numRuns: 100 },
    );
  });

  it('an AI nobody holds gives its blocks back once collected', async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error('run the tests with --expose-gc (vitest.config.ts)');
    const fresh = await loadRankTable(table.toBytes());
    const keep = await StackingAI.create({ table: fresh, strategy: 'expectimax' });
    const round = async () => {
      for (let i = 0; i < 100; i++) await StackingAI.create({ table: fresh, strategy: 'expectimax' });
      gc();
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5)); // finalizers run after the collection
    };
    await round();
    const after = engineMemory(keep);
    for (let r = 0; r < 4; r++) await round();
    expect(engineMemory(keep)).toBe(after);
  });

  it('a bump that cannot grow the memory is WASM_FAILED, not the kernel trap', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const { alloc, free } = recyclingAllocator(memory, () => {
      throw new WebAssembly.RuntimeError('unreachable');
    });
    expect(() => alloc(64)).toThrow(expect.objectContaining({ name: 'StackRankError', code: 'WASM_FAILED' }));
    // A freed block of the same size is served without the bump, zeroed.
    new Uint8Array(memory.buffer, 128, 64).fill(7);
    free(128, 64);
    expect(alloc(64)).toBe(128);
    expect(new Uint8Array(memory.buffer, 128, 64).every((b) => b === 0)).toBe(true);
  });
});
