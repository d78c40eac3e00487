/**
 * A pool of worker threads, each running its own instance of one kernel over the caller's shared memory. The
 * worker body is a small inline script (Node: worker_threads with eval; browsers: a Blob URL), so neither Node,
 * bundlers nor pages need to resolve a worker file. Workers receive the compiled module and the memory, never
 * allocate, and run exported functions on request.
 *
 * Workers instantiate with the plain WebAssembly API: the loader's helpers read managed AssemblyScript objects,
 * and our kernels (stub runtime, raw pointers) have none.
 */
import { StackRankError } from '../errors.js';
import { inNode, nodeBuiltin } from '../node-builtins.js';

const WORKER_SOURCE = `
const node = typeof self === 'undefined';
// CommonJS in Node workers (they get their own empty execArgv); getBuiltinModule where a host forces ES modules.
const port = node
  ? (typeof require === 'function' ? require('node:worker_threads') : process.getBuiltinModule('node:worker_threads')).parentPort
  : self;
let kernel = null;
let memory = null;
function onMessage(msg) {
  try {
    if (msg.type === 'init') {
      memory = msg.memory;
      const env = { memory, abort(m, f, line, col) { throw new Error('kernel aborted at ' + line + ':' + col); } };
      kernel = new WebAssembly.Instance(msg.module, { env }).exports;
      port.postMessage({ type: 'ready' });
    } else if (msg.type === 'call') {
      // The owner thread may have grown the shared memory since this instance was made (its allocations go on while
      // workers start). Engines let another thread see a grow lazily: a kernel reading the new pages could trap
      // (memory access out of bounds: seen twice in a few hundred 9x4 builds). grow(0) shows this thread the size.
      memory.grow(0);
      let result = 0;
      for (const call of msg.calls) result = kernel[call.fn](...call.args);
      port.postMessage({ type: 'done', id: msg.id, result });
    }
  } catch (e) {
    port.postMessage({ type: 'error', id: msg.id, message: String((e && e.stack) || e) });
  }
}
if (node) port.on('message', onMessage); else self.onmessage = (e) => onMessage(e.data);
`;

export interface KernelCall {
  fn: string;
  args: number[];
}

interface Pending {
  resolve(v: number): void;
  reject(e: Error): void;
}

/** What a worker posts back: `{ type: 'ready' }` once its kernel is instantiated, then `done` or `error` for a call id. */
interface WorkerReply {
  type: string;
  id: number;
  result?: number;
  message?: string;
}

interface PortLike {
  postMessage(msg: unknown): void;
  terminate(): unknown;
}

// Node's worker threads, unless a page polyfills `process` (a window means Web Workers).
const nodeThreads = inNode && typeof (globalThis as { window?: unknown }).window === 'undefined';

/** Workers started and not yet exited (Node); tests use it to prove that cancelling leaves none behind. */
let liveWorkers = 0;
export function liveWorkerCount(): number {
  return liveWorkers;
}

/** Counts a Node worker started elsewhere (playGame's game workers) in liveWorkerCount until it exits. */
export function countLiveWorker(worker: { on(event: 'exit', listener: () => void): unknown }): void {
  liveWorkers++;
  worker.on('exit', () => liveWorkers--);
}

async function spawn(onMessage: (m: WorkerReply) => void, onError: (e: Error) => void): Promise<PortLike> {
  if (nodeThreads) {
    const { Worker } = nodeBuiltin('worker_threads', 'starting a worker thread');
    // execArgv: [] so the worker does not inherit flags meant for the parent's entry script (--input-type=module
    // would make this CommonJS source fail; loaders such as tsx are not needed by it either).
    const w = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    liveWorkers++;
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', (code) => {
      liveWorkers--;
      if (code !== 0) onError(new Error(`worker exited with code ${code}`));
    });
    return w;
  }
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  const w = new Worker(url);
  URL.revokeObjectURL(url);
  w.onmessage = (e) => onMessage(e.data);
  // A worker that a Content-Security-Policy blocks fails with an error event that has no message.
  w.onerror = (e) =>
    onError(
      new Error(
        e.message || 'the worker failed to start (a page must allow workers from blob: URLs: worker-src blob:)',
      ),
    );
  return w;
}

export class KernelPool {
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private failed: Error | null = null;
  private terminated = false;

  private constructor(private readonly workers: PortLike[]) {}

  /** Starts `threads` workers over `memory` and waits until each has instantiated the kernel. */
  static async create(module: WebAssembly.Module, memory: WebAssembly.Memory, threads: number): Promise<KernelPool> {
    const ready: Promise<void>[] = [];
    const workers: PortLike[] = [];
    let pool: KernelPool | null = null;
    for (let i = 0; i < threads; i++) {
      let markReady!: () => void;
      let failReady!: (e: Error) => void;
      const readyOne = new Promise<void>((res, rej) => ((markReady = res), (failReady = rej)));
      readyOne.catch(() => {}); // handled by Promise.all below; a failure during the spawn loop is not "unhandled"
      ready.push(readyOne);
      const onMessage = (m: WorkerReply) => {
        if (m.type === 'ready') markReady();
        else if (m.type === 'error' && m.id === undefined) failReady(new Error(m.message));
        else pool?.settle(m);
      };
      // Before every worker is ready a failure rejects create() (failReady); after, it fails the running calls.
      // Both, always: a worker may die after the pool object exists but before it reported ready.
      const onError = (e: Error) => {
        failReady(e);
        pool?.fail(e);
      };
      try {
        workers.push(await spawn(onMessage, onError));
      } catch (e) {
        for (const w of workers) void w.terminate();
        throw new StackRankError(
          'WORKER_FAILED',
          `could not start worker ${i + 1} of ${threads}: ${(e as Error)?.message ?? String(e)}`,
          { cause: e },
        );
      }
    }
    pool = new KernelPool(workers);
    for (const w of workers) w.postMessage({ type: 'init', module, memory });
    try {
      await Promise.all(ready);
    } catch (e) {
      pool.terminate();
      const reason = e instanceof StackRankError ? e.message : ((e as Error)?.message ?? String(e));
      throw new StackRankError('WORKER_FAILED', `a worker could not start its kernel: ${reason}`, { cause: e });
    }
    return pool;
  }

  get size(): number {
    return this.workers.length;
  }

  /** Runs one list of calls on each worker (calls[i] on worker i) and resolves when all are done. */
  runEach(calls: KernelCall[][]): Promise<number[]> {
    return Promise.all(calls.map((list, i) => this.run(i, list)));
  }

  /** Runs a list of calls on one worker; resolves with the last call's result. */
  run(worker: number, calls: KernelCall[]): Promise<number> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.terminated) return Promise.reject(new StackRankError('ABORTED', 'the worker pool was stopped'));
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[worker].postMessage({ type: 'call', id, calls });
    });
  }

  terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    for (const w of this.workers) void w.terminate();
    const err = new StackRankError('ABORTED', 'the worker pool was stopped');
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private settle(m: WorkerReply): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.type === 'done') {
      this.pending.delete(m.id);
      p.resolve(m.result ?? 0);
    } else {
      // fail() rejects every pending call, this one included, and stops the pool.
      this.fail(new StackRankError('WORKER_FAILED', `a worker failed: ${m.message}`));
    }
  }

  private fail(e: Error): void {
    if (this.terminated) return;
    const err =
      e instanceof StackRankError
        ? e
        : new StackRankError('WORKER_FAILED', `a worker crashed: ${e.message}`, { cause: e });
    this.failed = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.terminate();
  }
}
