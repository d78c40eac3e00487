/**
 * The body of playVersus's worker threads (src/versus/run.ts): makes each side's player (TetrisAI over the search
 * engine the main thread made for it, or a TBP bot program it starts), then plays the matches it is given one at a
 * time and posts each one's tally. On `close` it ends its bot programs.
 */
import { parentPort } from 'node:worker_threads';
import { TetrisAI } from '../tetris-ai/ai.js';
import { attachSearch, serveJobs } from '../tetris-ai/play-threads.js';
import { playMatch, type MatchSettings, type MatchTally, type VersusPlayer } from './match.js';
import { closePlayers, makePlayers, type VersusWorkerInit } from './run.js';

const port = parentPort;
if (!port) throw new Error('src/versus/worker.ts runs as a worker thread of playVersus');

let players: [VersusPlayer, VersusPlayer] | null = null;
let settings: MatchSettings | null = null;

serveJobs<VersusWorkerInit, MatchTally>(
  port,
  async (init) => {
    const ais: (TetrisAI | null)[] = [];
    for (let s = 0; s < 2; s++) {
      const side = init.sides[s];
      const engine = init.engines[s];
      ais.push('ai' in side && engine ? await TetrisAI.create(side.ai, attachSearch(engine)) : null);
    }
    players = await makePlayers(init.sides, (s) => ais[s]!, init.cwd);
    settings = init.settings;
  },
  async (match) => {
    if (!players || !settings) throw new Error('a match arrived before the worker was set up');
    return playMatch(players, match, settings);
  },
  async () => {
    if (players) await closePlayers(players);
    players = null;
  },
);
