/**
 * The body of playGame's worker threads (src/tetris-ai/play-threads.ts): makes a TetrisAI over the search engine the
 * main thread made for it (shared memory), then plays the games it is given one at a time and posts each one's
 * tally, with its pieces and lines so far while it plays.
 */
import { parentPort } from 'node:worker_threads';
import { TetrisAI } from './ai.js';
import { attachSearch, serveJobs, type GameWorkerInit } from './play-threads.js';
import { playOneGame } from './game-simulator.js';
import { aiCreateOptions, type GameSettings, type GameTally, type GameUnderWay } from './play-types.js';

const port = parentPort;
if (!port) throw new Error('src/tetris-ai/game-worker.ts runs as a worker thread of playGame');

let ai: TetrisAI | null = null;
let settings: GameSettings | null = null;

serveJobs<GameWorkerInit, GameTally, GameUnderWay>(
  port,
  async (init) => {
    // goal 'versus' has no stack mode, so no engine to attach
    const attached = init.engine ? attachSearch(init.engine) : undefined;
    ai = await TetrisAI.create(aiCreateOptions(init.aiOptions), attached);
    settings = init.settings;
  },
  (game, progress) => {
    if (!ai || !settings) throw new Error('a game arrived before the worker was set up');
    return playOneGame(ai, game, settings, { onPieces: (p) => progress({ pieces: p.pieces, lines: p.lines }) });
  },
);
