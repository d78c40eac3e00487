/**
 * The body of playGame's worker threads (src/game/play-threads.ts): makes a TetrisAI over the search engine the
 * main thread made for it (shared memory), then plays the games it is given one at a time and posts each one's
 * tally, with its pieces and lines so far while it plays.
 */
import { parentPort } from 'node:worker_threads';
import { StackRankError } from '../errors.js';
import { StackingEngine } from '../stacking/engine.js';
import { surfaceCount } from '../surface.js';
import { TetrisAI, type StackTable } from './ai.js';
import type { GameWorkerInit, GameWorkerReply } from './play-threads.js';
import { aiCreateOptions, playOneGame, type GameSettings } from './play.js';

const port = parentPort;
if (!port) throw new Error('src/game/game-worker.ts runs as a worker thread of playGame');
const post = (m: GameWorkerReply) => port.postMessage(m);

let ai: TetrisAI | null = null;
let settings: GameSettings | null = null;

async function start(init: GameWorkerInit): Promise<void> {
  const { engine: parts } = init;
  settings = init.settings;
  if (!parts) {
    // goal 'versus': no stack mode, so no engine to attach
    ai = await TetrisAI.create(aiCreateOptions(init.aiOptions, undefined, undefined, undefined));
    post({ type: 'ready' });
    return;
  }
  const engine = StackingEngine.attach(parts);
  const size = surfaceCount(parts.width, parts.maxStep);
  // play-threads.ts asks for the ranks in the search image under every strategy.
  if (parts.tablePtr === 0) throw new Error('the search image the worker was given holds no ranks');
  // The table's ranks, read where the owner thread wrote them (the same values as RankTable.searchValues).
  const values = new Uint16Array(parts.memory.buffer, parts.tablePtr, size);
  const table: StackTable = {
    width: parts.width,
    maxStep: parts.maxStep,
    iterations: init.iterations,
    searchValue: (index) => values[index],
    searchScale: () => parts.rankScale,
  };
  ai = await TetrisAI.create(aiCreateOptions(init.aiOptions, undefined, undefined, undefined), { engine, table });
  settings = init.settings;
  post({ type: 'ready' });
}

async function play(game: number): Promise<void> {
  if (!ai || !settings) throw new Error('a game arrived before the worker was set up');
  const tally = await playOneGame(ai, game, settings, {
    onPieces: (p) => post({ type: 'progress', pieces: p.pieces, lines: p.lines }),
  });
  post({ type: 'done', tally });
}

port.on('message', (m: GameWorkerInit | { type: 'game'; game: number }) => {
  const job = m.type === 'init' ? start(m) : play(m.game);
  job.catch((e: unknown) =>
    post({
      type: 'error',
      code: e instanceof StackRankError ? e.code : undefined,
      // A StackRankError's message is for the caller as it is; anything else is a crash, reported with its stack.
      message: e instanceof StackRankError ? e.message : String((e as Error)?.stack ?? e),
    }),
  );
});
