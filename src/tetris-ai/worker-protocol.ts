/**
 * The messages between createWorkerTetrisAI's proxy (src/tetris-ai/worker-ai.ts) and its worker (src/tetris-ai/ai-worker.ts).
 * Every value is structured-cloned; tables travel as their file's bytes (transferred, not copied).
 */
import type { TetrisAIOptions } from './ai-options.js';
import type { SetupProgress } from '../setup-progress.js';

/** The methods a remote AI or game forwards, by name: the worker calls the one its object has. */
export const REMOTE_METHODS: readonly string[] = ['nextMove', 'rankPlacements', 'newGame'];
/** Of those, the ones whose result stays in the worker and comes back as a handle (a game). */
export const HANDLE_METHODS: readonly string[] = ['newGame'];

/** The tables a worker finds itself (from its cache): the small one, or the small one until the default is ready. */
export type NamedTable = 'small' | 'smallFirst';

/** TetrisAIOptions as they cross to the worker: without the signal, callback and table objects (a name stays). */
export type SentOptions = Omit<TetrisAIOptions, 'signal' | 'onProgress' | 'table' | 'previewTable'> & {
  table?: NamedTable;
};

/** Which table a worker's AI plays: the rule set's default, the small one, or the one the caller gave. */
export type TableInUse = 'default' | 'small' | 'given';

export type AIWorkerRequest =
  | { type: 'create'; id: number; options: SentOptions; table?: ArrayBuffer; previewTable?: ArrayBuffer }
  | { type: 'abort'; id: number }
  /** `target`: 0 the AI, else a handle a call returned. */
  | { type: 'call'; id: number; target: number; method: string; args: unknown[] }
  | { type: 'release'; id: number; target: number };

export type AIWorkerReply =
  | { type: 'progress'; id: number; progress: SetupProgress }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; code?: string; message: string }
  /**
   * Under 'smallFirst', after the create's result (and the default table's setup progress, under the create's id):
   * the default table is in use, or (`reason`) could not be had and the small one stays.
   */
  | { type: 'table'; id: number; table: TableInUse; reason?: string };
