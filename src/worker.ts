/**
 * The `stackrank/worker` entry (docs/browser.md): the game AI in a worker of its own, so a page's thread (or a
 * server's event loop) does none of its work. An entry of its own so that a page that does not use it bundles no
 * worker.
 */
export {
  createWorkerTetrisAI,
  type WorkerTetrisAI,
  type WorkerGame,
  type WorkerAIFacts,
  type WorkerTetrisAIOptions,
  type FinalTable,
} from './tetris-ai/worker-ai.js';
export type { TableInUse } from './tetris-ai/worker-protocol.js';
export type { SetupProgress, SetupStage } from './setup-progress.js';
