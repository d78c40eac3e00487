/**
 * The TBP bot as a worker (src/tbp/worker.ts, the package's stackrank/tbp-worker) on Node's worker_threads: the
 * protocol's messages as objects through postMessage, a game played through it and checked by the test front end,
 * its settings from workerData, a refused setting answered at `rules`, and `quit` ending the worker.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRankTable, loadRankTable } from '../../src/rank/table.js';
import { TbpClient } from '../../src/tbp/client.js';
import { tbpFromSrs } from '../../src/tbp/location.js';
import { TetrisAI } from '../../src/tetris-ai/ai.js';
import { FrontendGame, type Location } from '../helpers/tbp-frontend.js';

const ROOT = resolve(__dirname, '../..');
let table: string;

beforeAll(async () => {
  table = join(mkdtempSync(join(tmpdir(), 'stackrank-tbp-worker-')), 't9.srk');
  await (await buildRankTable({ width: 9, maxStep: 3, iterations: 2, threads: 1 })).save(table);
}, 60_000);

/** The worker from source: src/tbp/worker.ts loaded through tsx's ESM API (worker threads do not inherit loaders). */
function startWorker(workerData: Record<string, unknown>): Worker {
  const api = pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('tsx/esm/api')).href.replace(
    /\.cjs$/,
    '.mjs',
  );
  const file = pathToFileURL(join(ROOT, 'src/tbp/worker.ts')).href;
  const script = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(file)}, ${JSON.stringify(file)}))`;
  return new Worker(script, { eval: true, workerData, execArgv: [] });
}

const exited = (w: Worker) => new Promise<number>((r) => w.once('exit', r));

describe('the TBP worker', { timeout: 120_000 }, () => {
  it('plays a game over postMessage and ends on quit', async () => {
    // expectimax: false, so every move is nextMove's of a TetrisAI without a randomizer on the same table (one with
    // the bag's chances values the same positions otherwise, and often moves otherwise: 0.997 for 1 here at first).
    const plain = await TetrisAI.create({ rules: 'guideline', lookahead: 3, table: await loadRankTable(table) });
    const worker = startWorker({ table, lookahead: 3, expectimax: false });
    const gone = exited(worker);
    const bot = await TbpClient.overPort(worker, 'tbp-worker');
    expect(bot.info).toMatchObject({ type: 'info', name: 'stackrank', features: ['randomizer', 'move_info'] });
    await bot.rules({ randomizer: 'seven_bag' });
    const game = new FrontendGame();
    const pieces = 'TSZOILJ'.repeat(6).split('');
    game.queue = pieces.splice(0, 6);
    bot.start(game.startMessage({ randomizer: { type: 'seven_bag', bag_state: ['J'] } }));
    for (let n = 0; n < 30; n++) {
      const s = await bot.suggest();
      const move = (s.moves as { location: Location; spin: string }[])[0];
      expect(game.problem(move), `piece ${n}`).toBeNull();
      const rows = Uint32Array.from(game.filled, (row) => row.reduce((bits, f, x) => bits | (f ? 1 << x : 0), 0));
      const [current, ...queue] = game.queue;
      const best = plain.nextMove({ board: { width: 10, rows }, current, queue, hold: game.hold, canHold: true })!;
      expect(move.location, `piece ${n}`).toEqual(tbpFromSrs(best));
      const info = s.move_info as { depth: number; extra: string };
      expect(info.extra).toMatch(new RegExp(`^${best.mode} mode, value ${best.value.toPrecision(6)}, `));
      // The plies searched: the current piece and the lookahead's 3 of the queue.
      expect(info.depth).toBe(4);
      game.play(move);
      bot.play(move);
      while (game.queue.length < 6) {
        const p = pieces.shift()!;
        game.queue.push(p);
        bot.newPiece(p);
      }
    }
    expect(game.toppedOut()).toBe(false);
    // Bad messages get their answers here too.
    bot.send({ type: 'play', move: { location: { type: 'Q' }, spin: 'none' } });
    expect(await bot.next()).toMatchObject({ type: 'error', reason: 'invalid_message' });
    bot.send({ type: 'quit' });
    expect(await gone).toBe(0);
  });

  it('a setting the AI refuses answers rules with unsupported_rules, saying why', async () => {
    const worker = startWorker({ table, lookahead: 99 });
    const bot = await TbpClient.overPort(worker, 'tbp-worker');
    bot.send({ type: 'rules' });
    const answer = await bot.next();
    expect(answer).toMatchObject({ type: 'error', reason: 'unsupported_rules' });
    expect(String(answer.message)).toMatch(/lookahead/);
    await bot.quit();
  });
});
