/**
 * The messages between createWorkerTetrisAI's proxy (src/game/worker-ai.ts) and its worker (src/game/ai-worker.ts).
 * Every value is structured-cloned; tables travel as their file's bytes (transferred, not copied).
 */
import type { TetrisAIOptions } from './ai.js';
import type { SetupProgress } from '../setup-progress.js';

/** The methods a remote AI or game forwards, by name: the worker calls the one its object has. */
export const REMOTE_METHODS: readonly string[] = ['nextMove', 'rankPlacements', 'newGame'];
/** Of those, the ones whose result stays in the worker and comes back as a handle (a game). */
export const HANDLE_METHODS: readonly string[] = ['newGame'];

/** TetrisAIOptions as they cross to the worker: without the signal, callback and table objects ('small' stays). */
export type SentOptions = Omit<TetrisAIOptions, 'signal' | 'onProgress' | 'table' | 'previewTable'> & {
  table?: 'small';
};

export type AIWorkerRequest =
  | { type: 'create'; id: number; options: SentOptions; table?: ArrayBuffer; previewTable?: ArrayBuffer }
  | { type: 'abort'; id: number }
  /** `target`: 0 the AI, else a handle a call returned. */
  | { type: 'call'; id: number; target: number; method: string; args: unknown[] }
  | { type: 'release'; id: number; target: number };

export type AIWorkerReply =
  | { type: 'progress'; id: number; progress: SetupProgress }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; code?: string; message: string };
