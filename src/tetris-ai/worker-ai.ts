/**
 * createWorkerTetrisAI (the `stackrank/worker` entry): a TetrisAI that lives in a worker (a Web Worker in a browser, a worker thread in Node) and
 * answers through promises, so the calling thread (a page's) does none of the AI's work: not the table's load or
 * build, not the search's setup, not a move's search (docs/browser.md). The worker's code is the library's entry
 * dist/ai-worker.js, found beside the library's own files (bundlers that follow `new Worker(new URL(...))`, such as
 * Vite and webpack, bundle it); the messages are src/tetris-ai/worker-protocol.ts.
 */
import { StackRankError, checkCallback, checkSignal, describe, optionsObject } from '../errors.js';
import { inNode, nodeBuiltin } from '../node-builtins.js';
import type { RankTable } from '../rank/table.js';
import type { SetupProgress } from '../setup-progress.js';
import { countLiveWorker } from '../kernels/pool.js';
import type { TetrisAI } from './ai.js';
import type { TetrisAIOptions } from './ai-options.js';
import type { GameMove, GameState } from './decision.js';
import type { PlacementRanking } from './rank-placements.js';
import { nodeWorkerEntry } from './worker-entry.js';
import type { AIWorkerReply, AIWorkerRequest, SentOptions, TableInUse } from './worker-protocol.js';

/** What a remote AI knows of its AI without asking: TetrisAI's own facts, as the worker's AI has them. */
export type WorkerAIFacts = Pick<TetrisAI, 'rules' | 'lookahead' | 'well' | 'width' | 'policy' | 'randomizer'>;

/**
 * A game followed in the worker (TetrisAI's newGame there): its calls go to that game. `dispose` drops it in the
 * worker; the AI's `dispose` drops every game.
 */
export interface WorkerGame {
  nextMove(state: GameState, ...rest: unknown[]): Promise<GameMove | null>;
  dispose(): Promise<void>;
}

/** createWorkerTetrisAI's options: TetrisAI.create's, and one more table name, 'smallFirst' (docs/browser.md). */
export type WorkerTetrisAIOptions = Omit<TetrisAIOptions, 'table'> & {
  table?: TetrisAIOptions['table'] | 'smallFirst';
};

/** The table a worker's AI plays for the rest of its life, or why the default one could not replace the small one. */
export interface FinalTable {
  table: TableInUse;
  /** Under 'smallFirst', when the default table could not be had (or the AI was disposed first). */
  reason?: string;
}

/** createWorkerTetrisAI's AI: TetrisAI's calls, answered by the worker. */
export interface WorkerTetrisAI extends WorkerAIFacts {
  /**
   * The table the moves come from now: 'default' (the rule set's cached table), 'small', or 'given' (`table` was a
   * table object). Under 'smallFirst' it is 'small' until the default table is swapped in, then 'default'.
   */
  readonly table: TableInUse;
  /**
   * Resolves once the table is the one the AI keeps: at once, except under 'smallFirst', where it resolves when the
   * default table is in use, or, if it could not be had, to 'small' with the reason. Never rejects.
   */
  readonly finalTable: Promise<FinalTable>;
  nextMove(state: GameState, ...rest: unknown[]): Promise<GameMove | null>;
  rankPlacements(state: GameState, options?: { limit?: number }): Promise<PlacementRanking>;
  /** A game the worker follows (TetrisAI's newGame, where the library has it). */
  newGame(...args: unknown[]): Promise<WorkerGame>;
  /** Stops the worker: calls under way reject with ABORTED, later ones with BAD_ARGUMENT. */
  dispose(): void;
}

interface WorkerLike {
  post(message: AIWorkerRequest, transfer?: ArrayBuffer[]): void;
  terminate(): void;
  /** Node: whether the worker keeps the process alive (while answers are awaited), else not. */
  hold(busy: boolean): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  progress?: (p: SetupProgress) => void;
}

/** A setup that goes on after its result ('smallFirst': the default table's): its progress, and how it ends. */
interface Follower {
  progress?: (p: SetupProgress) => void;
  settle(final: FinalTable): void;
}

/** Node's worker threads, unless a page polyfills `process` (a window means Web Workers). */
const nodeThreads = () => inNode && typeof (globalThis as { window?: unknown }).window === 'undefined';

/** Starts the worker; its replies and its failure go to the callbacks. */
function startWorker(onReply: (m: AIWorkerReply) => void, onFailure: (e: Error) => void): WorkerLike {
  if (nodeThreads()) {
    const { Worker } = nodeBuiltin('worker_threads', 'createWorkerTetrisAI');
    const { script, eval: isSource } = nodeWorkerEntry(import.meta.url, 'ai-worker', 'createWorkerTetrisAI');
    // execArgv: [] so the worker does not inherit flags meant for the parent's entry script.
    const w = new Worker(script, { eval: isSource, execArgv: [] });
    countLiveWorker(w);
    w.on('message', onReply);
    w.on('error', onFailure);
    w.on('exit', (code: number) => onFailure(new Error(`the worker exited (code ${code})`)));
    return {
      post: (m, transfer) => w.postMessage(m, transfer),
      terminate: () => void w.terminate(),
      hold: (busy) => (busy ? w.ref() : w.unref()),
    };
  }
  if (typeof Worker === 'undefined')
    throw new StackRankError('IO', 'createWorkerTetrisAI needs Web Workers (a browser) or worker threads (Node)');
  // The literal form bundlers follow to bundle the worker's entry with the page.
  const w = new Worker(new URL('./ai-worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<AIWorkerReply>) => onReply(e.data);
  // A worker that a Content-Security-Policy blocks fails with an error event that has no message.
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault?.();
    onFailure(new Error(e.message || 'the worker failed to start (is dist/ai-worker.js served beside the library?)'));
  };
  return {
    post: (m, transfer) => w.postMessage(m, transfer ?? []),
    terminate: () => w.terminate(),
    hold: () => {},
  };
}

/** A table's file bytes in a buffer of their own, to transfer to the worker. */
function tableBuffer(table: { toBytes(): Uint8Array }): ArrayBuffer {
  const bytes = table.toBytes();
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? bytes.buffer
    : (bytes.slice().buffer as ArrayBuffer);
}

/** A request before it gets its id (Omit over each member of the union). */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** The connection to one worker: requests by id, and what happens when it fails or is disposed. */
class Connection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly followers = new Map<number, Follower>();
  private failure: StackRankError | null = null;
  private readonly worker: WorkerLike;

  /** Whether the worker is gone (disposed, or failed): its games went with it. */
  get closed(): boolean {
    return this.failure !== null;
  }

  constructor() {
    this.worker = startWorker(
      (m) => this.reply(m),
      (e) => this.fail(new StackRankError('WORKER_FAILED', `the AI's worker failed: ${e.message}`, { cause: e }), true),
    );
  }

  request(
    message: WithoutId<AIWorkerRequest>,
    transfer?: ArrayBuffer[],
    progress?: (p: SetupProgress) => void,
  ): { id: number; result: Promise<unknown> } {
    const id = this.nextId++;
    if (this.failure) return { id, result: Promise.reject(this.failure) };
    try {
      this.worker.post({ ...message, id } as AIWorkerRequest, transfer);
    } catch (e) {
      // Something that cannot be structured-cloned (a function, a class instance the worker could not rebuild).
      const why = (e as Error)?.message ?? String(e);
      return {
        id,
        result: Promise.reject(
          new StackRankError('BAD_ARGUMENT', `what is sent to the AI's worker must be plain data: ${why}`),
        ),
      };
    }
    const result = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject, progress }));
    this.worker.hold(true);
    return { id, result };
  }

  /**
   * Hears the setup `id` on after its result: its progress, then the 'table' message. The worker keeps the process
   * alive (Node) until then.
   */
  follow(id: number, follower: Follower): void {
    if (this.failure) {
      follower.settle({ table: 'small', reason: this.failure.message });
      return;
    }
    this.followers.set(id, follower);
    this.worker.hold(true);
  }

  /** Whether nothing is awaited from the worker any more (Node lets the process end then). */
  private idle(): void {
    if (this.pending.size === 0 && this.followers.size === 0) this.worker.hold(false);
  }

  /** Tells the worker (not waiting for it) to stop the setup `id`. */
  abort(id: number): void {
    if (!this.failure) this.worker.post({ type: 'abort', id });
  }

  /** Stops the worker; pending requests and later ones reject with `error`. */
  fail(error: StackRankError, crashed = false): void {
    if (this.failure) return;
    this.failure = crashed ? error : new StackRankError('BAD_ARGUMENT', 'this AI was disposed (dispose())');
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    for (const f of this.followers.values()) f.settle({ table: 'small', reason: error.message });
    this.followers.clear();
  }

  private reply(m: AIWorkerReply): void {
    const p = this.pending.get(m.id);
    if (!p) {
      this.followUp(m);
      return;
    }
    if (m.type === 'progress') {
      // The caller's onProgress threw: its setup fails with that error.
      this.deliver(m, p.progress, (e) => {
        this.pending.delete(m.id);
        this.idle();
        p.reject(e instanceof Error ? e : new Error(String(e)));
      });
      return;
    }
    if (m.type === 'table') return;
    this.pending.delete(m.id);
    this.idle();
    if (m.type === 'result') p.resolve(m.value);
    else
      p.reject(
        m.code
          ? new StackRankError(m.code as StackRankError['code'], m.message)
          : new StackRankError('WORKER_FAILED', `the AI's worker failed: ${m.message}`),
      );
  }

  /** Hands a setup's progress to the caller's `listener`; if that throws, the worker stops the setup and `threw` is told. */
  private deliver(
    m: { id: number; progress: SetupProgress },
    listener: ((p: SetupProgress) => void) | undefined,
    threw: (e: unknown) => void,
  ): void {
    try {
      listener?.(m.progress);
    } catch (e) {
      this.abort(m.id);
      threw(e);
    }
  }

  /** A message of a setup that goes on after its result (Follower). */
  private followUp(m: AIWorkerReply): void {
    const f = this.followers.get(m.id);
    if (!f) return;
    if (m.type === 'progress') {
      // The caller's onProgress threw: the default table's setup stops, and the small table stays.
      this.deliver(m, f.progress, (e) => {
        this.followers.delete(m.id);
        this.idle();
        f.settle({ table: 'small', reason: `onProgress threw: ${String((e as Error)?.message ?? e)}` });
      });
      return;
    }
    if (m.type !== 'table') return;
    this.followers.delete(m.id);
    this.idle();
    f.settle(m.reason === undefined ? { table: m.table } : { table: m.table, reason: m.reason });
  }
}

/**
 * A TetrisAI in a worker of its own (a Web Worker in a browser, a worker thread in Node): TetrisAI.create's options
 * (a `table` is sent to the worker as its file's bytes; without one the worker loads the cached table, from IndexedDB
 * in a browser), the same calls answered through promises, so the calling thread does none of the AI's work
 * (docs/browser.md). `dispose()` stops the worker.
 */
export async function createWorkerTetrisAI(options: WorkerTetrisAIOptions = {}): Promise<WorkerTetrisAI> {
  const opts = optionsObject('createWorkerTetrisAI', options);
  const signal = checkSignal(opts.signal, 'createWorkerTetrisAI: signal');
  const onProgress = checkCallback<(p: SetupProgress) => void>('onProgress', opts.onProgress);
  if (signal?.aborted) throw new StackRankError('ABORTED', "the AI's setup was aborted");
  const { signal: _s, onProgress: _p, table, previewTable, ...sent } = opts;
  const transfer: ArrayBuffer[] = [];
  const bytesOf = (value: unknown, what: string): ArrayBuffer | undefined => {
    if (value === undefined) return undefined;
    if (value === null || typeof (value as RankTable).toBytes !== 'function')
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${what} must be a table from the library (loadRankTable, buildRankTable, loadPreviewTable)${what === 'table' ? ", 'small' or 'smallFirst'" : ''}; got ${describe(value)}`,
      );
    const buffer = tableBuffer(value as RankTable);
    transfer.push(buffer);
    return buffer;
  };
  // A name is a cached table the worker loads itself.
  const named = table === 'small' || table === 'smallFirst';
  if (named) (sent as SentOptions).table = table;
  const tableBytes = named ? undefined : bytesOf(table, 'table');
  const previewBytes = bytesOf(previewTable, 'previewTable');
  const connection = new Connection();
  const { id, result } = connection.request(
    { type: 'create', options: sent as SentOptions, table: tableBytes, previewTable: previewBytes },
    transfer,
    onProgress,
  );
  const onAbort = () => {
    connection.fail(new StackRankError('ABORTED', "the AI's setup was aborted"));
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const { table: inUse, ...facts } = (await result) as WorkerAIFacts & { table: TableInUse };
    const ai = remoteAI(connection, facts, inUse);
    if (table !== 'smallFirst') ai.settle({ table: inUse });
    else connection.follow(id, { progress: onProgress, settle: ai.settle });
    return ai.remote;
  } catch (e) {
    connection.abort(id);
    connection.fail(e instanceof StackRankError ? e : new StackRankError('WORKER_FAILED', String(e)));
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The AI's proxy, and how its table's final state is told to it. */
function remoteAI(
  connection: Connection,
  facts: WorkerAIFacts,
  inUse: TableInUse,
): { remote: WorkerTetrisAI; settle(final: FinalTable): void } {
  const call = (target: number, method: string, args: unknown[]) =>
    connection.request({ type: 'call', target, method, args }).result;
  let table = inUse;
  let settle!: (final: FinalTable) => void;
  const finalTable = new Promise<FinalTable>((resolve) => {
    settle = (final) => {
      table = final.table;
      resolve(final);
    };
  });
  const remote: WorkerTetrisAI = {
    ...facts,
    get table() {
      return table;
    },
    finalTable,
    nextMove: (...args) => call(0, 'nextMove', args) as Promise<GameMove | null>,
    rankPlacements: (...args) => call(0, 'rankPlacements', args) as Promise<PlacementRanking>,
    async newGame(...args) {
      const handle = (await call(0, 'newGame', args)) as number;
      return {
        nextMove: (...a) => call(handle, 'nextMove', a) as Promise<GameMove | null>,
        // a game of a disposed (or failed) AI is gone already: its dispose has nothing left to do
        dispose: async () => {
          if (!connection.closed) await connection.request({ type: 'release', target: handle }).result;
        },
      };
    },
    dispose: () => connection.fail(new StackRankError('ABORTED', 'the AI was disposed')),
  };
  return { remote, settle };
}
