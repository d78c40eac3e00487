/**
 * Runs on worker threads (Node): playGame's games (src/tetris-ai/game-worker.ts) and playVersus's matches
 * (src/versus/worker.ts). Each worker makes its own TetrisAIs over search engines made here, on one shared search
 * image (the rank table and leaf rows exist once, in shared WebAssembly memory). Workers take jobs (a game or a
 * match index) one at a time from a common list and post each one's result; job i is the same whichever worker
 * plays it, so results do not depend on the thread count.
 */
import { StackRankError, untilAborted } from '../errors.js';
import { inNode, nodeBuiltin } from '../node-builtins.js';
import type { RankTable } from '../rank/table.js';
import { StackingEngine, type EngineParts } from '../kernels/search.js';
import type { NextPieceValues } from '../stacking-ai/strategy.js';
import { countLiveWorker } from '../kernels/pool.js';
import type { SetupReport } from '../setup-progress.js';
import type { AttachedSearch, StackTable } from './ai.js';
import type { TetrisAIOptions } from './ai-options.js';
import { stackSearchSetup } from './policy.js';
import { cpuSeconds } from '../threads.js';
import type { GameAIOptions, GameSettings, GameTally, GameUnderWay, PlayedGames } from './play-types.js';
import { ruleFacts } from './rules-adapter.js';
import { checkStrength, strengthProfile, weakerRoom } from './strength.js';
import { nodeWorkerEntry } from './worker-entry.js';

/** What a game worker is told first: how to make its AI (game-worker.ts). */
export interface GameWorkerInit {
  type: 'init';
  aiOptions: GameAIOptions;
  settings: GameSettings;
  /** The stack search's engine (null under goal 'versus', which has no stack mode). */
  engine: WorkerEngine | null;
}

/** A search engine made on this thread for a worker's TetrisAI, and the table's iterations (TetrisAI reports them). */
export interface WorkerEngine {
  parts: EngineParts;
  iterations: number;
}

/** What a worker posts back: ready once set up, then per job progress and its result, or an error. */
export type WorkerReply<R, P = never> =
  | { type: 'ready' }
  | ({ type: 'progress' } & P)
  | { type: 'done'; result: R }
  | { type: 'closed' }
  | { type: 'error'; code?: string; message: string };

/** What the pool sends a worker after its init: the index of the next job, and (with `close`) the end. */
export interface WorkerJob {
  type: 'job';
  index: number;
}
interface WorkerClose {
  type: 'close';
}

/** How long workers that hold resources of their own (bot programs) get to let them go before they are ended. */
const CLOSE_GRACE_MS = 10_000;

export type GameWorkerReply = WorkerReply<GameTally, GameUnderWay>;

interface Run {
  aiOptions: GameAIOptions;
  settings: GameSettings;
  /** The rank table (null under goal 'versus'). */
  table: RankTable | null;
  previewTable: NextPieceValues | undefined;
  firstGame: number;
  games: number;
  threads: number;
  signal: AbortSignal | undefined;
  /** Hears the search image's setup (the engines'). */
  onSetupProgress?: SetupReport;
  /** Made once every worker is ready (the start of play): slot, game under way, game finished. */
  onProgress?: (startedAt: number) => (slot: number, current: GameUnderWay | null, finished?: GameTally) => void;
}

/** The worker modules: built as dist/NAME.js (tsup.config.ts), from source these files (beside src/tetris-ai/). */
export type WorkerModule = 'game-worker' | 'versus-worker';
const SOURCES: Record<WorkerModule, string> = {
  'game-worker': './game-worker.ts',
  'versus-worker': '../versus/worker.ts',
};

/**
 * A search engine for a worker's TetrisAI made with `options` (TetrisAI.create's, as the worker passes them), on
 * the table's shared search image: the image's allocator lives on this thread. `release()` it once the worker is
 * gone, so the next run over this table takes its blocks again.
 */
export async function workerEngine(
  table: RankTable,
  options: Pick<TetrisAIOptions, 'rules' | 'randomizer' | 'policy' | 'stackRoom' | 'strength'>,
  previewTable: NextPieceValues | undefined,
  signal: AbortSignal | undefined,
  onSetupProgress?: SetupReport,
): Promise<{ engine: WorkerEngine; owner: StackingEngine }> {
  // The worker's AI searches under these rules: a weaker level's room too (TetrisAI.create makes the same).
  const profile = strengthProfile(checkStrength(options.strength));
  const { stacking, unknownPieces, blockedWell } = stackSearchSetup(
    ruleFacts(options.rules ?? 'guideline'),
    options.randomizer,
    options.policy ?? 'both',
    options.stackRoom,
    (room) => weakerRoom(room, profile),
  );
  const owner = await untilAborted(
    StackingEngine.create(table, stacking, {
      shared: true,
      unknownPieces,
      leafValues: previewTable,
      blockedWell,
      // the workers score a surface by its rank where a move's search sees no piece after it (attachSearch)
      ranks: true,
      signal,
      onProgress: onSetupProgress,
    }),
    signal,
    'the run was aborted',
  );
  return { engine: { parts: owner.parts(), iterations: table.iterations }, owner };
}

/** On a worker: TetrisAI.create's `attached` for an engine workerEngine made. */
export function attachSearch({ parts, iterations }: WorkerEngine): AttachedSearch {
  const engine = StackingEngine.attach(parts);
  // workerEngine asks for the ranks in the search image under every strategy: the table's ranks, read where the
  // owner thread wrote them (the same values as RankTable.searchValue).
  const table: StackTable = {
    width: engine.width,
    maxStep: engine.maxStep,
    iterations,
    searchValue: (index) => engine.rankValue(index),
    searchScale: () => engine.rankScale,
  };
  return { engine, table };
}

export async function playOnThreads(run: Run): Promise<PlayedGames> {
  if (!inNode) throw new StackRankError('BAD_ARGUMENT', 'playGame runs on worker threads only in Node; use threads: 1');
  // One engine per worker, made here. Released once every worker is gone.
  const owners: StackingEngine[] = [];
  try {
    const inits: GameWorkerInit[] = [];
    for (let i = 0; i < run.threads; i++) {
      if (!run.table) {
        inits.push({ type: 'init', aiOptions: run.aiOptions, settings: run.settings, engine: null });
        continue;
      }
      const { engine, owner } = await workerEngine(
        run.table,
        run.aiOptions,
        run.previewTable,
        run.signal,
        run.onSetupProgress,
      );
      owners.push(owner);
      inits.push({ type: 'init', aiOptions: run.aiOptions, settings: run.settings, engine });
    }
    let startedCpu = cpuSeconds();
    let report: ReturnType<NonNullable<Run['onProgress']>> | undefined;
    const { results, startedAt } = await runOnWorkers<GameTally, GameUnderWay>({
      module: 'game-worker',
      what: 'game',
      inits,
      first: run.firstGame,
      count: run.games,
      signal: run.signal,
      onStart: (startedAt) => {
        startedCpu = cpuSeconds();
        report = run.onProgress?.(startedAt);
      },
      onProgress: (slot, m) => report?.(slot, m),
      onDone: (slot, tally) => report?.(slot, null, tally),
    });
    return { tallies: results, startedAt, startedCpu };
  } finally {
    for (const engine of owners) engine.release();
  }
}

/**
 * Jobs first .. first + count - 1 on one worker per init message (`module`'s script): each worker gets its init,
 * answers ready, then takes the next job index whenever it finishes one. Resolves with every job's result (in the
 * order they finished) once all are done, and the time every worker was ready; rejects on an abort (ABORTED), a
 * worker's error (its StackRankError code, else WORKER_FAILED) or a worker that exits early. Every worker has
 * exited before it settles. `what` names a job in messages ("game", "match"). With `close`, each worker is first
 * asked to let its own resources go (serveJobs' `close`: bot programs it started) and given CLOSE_GRACE_MS.
 */
export async function runOnWorkers<R, P = never>(pool: {
  module: WorkerModule;
  /** What one job plays, as messages name it. */
  what: 'game' | 'match';
  inits: readonly unknown[];
  first: number;
  count: number;
  signal: AbortSignal | undefined;
  onStart?: (startedAt: number) => void;
  onProgress?: (slot: number, progress: P) => void;
  onDone?: (slot: number, result: R) => void;
  close?: boolean;
}): Promise<{ results: R[]; startedAt: number }> {
  if (!inNode) throw new StackRankError('BAD_ARGUMENT', 'worker threads run only in Node; use threads: 1');
  const { Worker } = nodeBuiltin('worker_threads', 'running on worker threads');
  const threads = pool.inits.length;
  const { script, eval: isSource } = nodeWorkerEntry(
    import.meta.url,
    pool.module,
    'running on worker threads',
    SOURCES[pool.module],
  );
  type NodeWorker = InstanceType<typeof Worker>;
  const workers: NodeWorker[] = [];
  const results: R[] = [];
  let next = pool.first;
  const end = pool.first + pool.count;
  let startedAt = performance.now();
  const plural = pool.what === 'match' ? 'matches' : 'games';
  const aborted = `the ${plural} were aborted`;

  let settle!: { resolve(): void; reject(e: Error): void };
  const finished = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  finished.catch(() => {}); // awaited below; a failure while workers start is not "unhandled"
  let failure: Error | null = null;
  const fail = (e: Error) => {
    if (failure) return;
    failure = e;
    settle.reject(e);
  };
  const onAbort = () => fail(new StackRankError('ABORTED', aborted));
  pool.signal?.addEventListener('abort', onAbort);

  let ready = 0;
  const give = (slot: number) => {
    if (next < end) workers[slot].postMessage({ type: 'job', index: next++ } satisfies WorkerJob);
  };
  const closed: (() => void)[] = [];
  const exited = new Set<number>();
  const onReply = (slot: number, m: WorkerReply<R, P>) => {
    if (m.type === 'closed') closed[slot]?.();
    if (failure) return;
    if (m.type === 'ready') {
      if (++ready === threads) {
        startedAt = performance.now();
        pool.onStart?.(startedAt);
        for (let s = 0; s < threads; s++) give(s);
      }
    } else if (m.type === 'progress') pool.onProgress?.(slot, m);
    else if (m.type === 'done') {
      results.push(m.result);
      pool.onDone?.(slot, m.result);
      if (results.length === pool.count) settle.resolve();
      else give(slot);
    } else if (m.type === 'error') fail(workerFailure(m, pool.what));
  };
  try {
    for (let slot = 0; slot < threads; slot++) {
      let w: NodeWorker;
      try {
        // execArgv: [] so the worker does not inherit flags meant for the parent's entry script.
        w = new Worker(script, { eval: isSource, execArgv: [] });
      } catch (e) {
        throw new StackRankError(
          'WORKER_FAILED',
          `could not start ${pool.what} worker ${slot + 1} of ${threads}: ${(e as Error)?.message ?? String(e)}`,
          { cause: e },
        );
      }
      countLiveWorker(w);
      workers.push(w);
      w.on('message', (m: WorkerReply<R, P>) => {
        try {
          onReply(slot, m);
        } catch (e) {
          // A callback threw: the run fails with its error, as on one thread.
          fail(e instanceof Error ? e : new Error(String(e)));
        }
      });
      w.on('error', (e: Error) =>
        fail(new StackRankError('WORKER_FAILED', `a ${pool.what} worker crashed: ${e.message}`, { cause: e })),
      );
      w.on('exit', (code: number) => {
        exited.add(slot);
        if (results.length < pool.count)
          fail(
            new StackRankError(
              'WORKER_FAILED',
              `a ${pool.what} worker exited (code ${code}) before its ${plural} were done`,
            ),
          );
      });
      w.postMessage(pool.inits[slot]);
    }
    if (pool.signal?.aborted) onAbort();
    await finished;
    return { results, startedAt };
  } finally {
    pool.signal?.removeEventListener('abort', onAbort);
    // Settled either way: every worker is gone before the run returns or throws.
    failure ??= new StackRankError('ABORTED', `the ${plural} are over`);
    if (pool.close) await closeGracefully(workers, exited, closed);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** A worker's error reply as the run's error: an input error found while playing (a move refused) keeps its code;
 * anything else is a crash. */
function workerFailure(m: { code?: string; message: string }, what: string): StackRankError {
  return m.code && m.code !== 'WORKER_FAILED'
    ? new StackRankError(m.code as never, m.message)
    : new StackRankError('WORKER_FAILED', `a ${what} worker failed: ${m.message}`);
}

/**
 * Asks every worker still running to let its own resources go (serveJobs' `close`), and waits until each has
 * answered `closed` (its slot in `closed` is called) or exited, or CLOSE_GRACE_MS has passed.
 */
function closeGracefully(
  workers: readonly { once(event: 'exit', listener: () => void): unknown; postMessage(m: unknown): void }[],
  exited: ReadonlySet<number>,
  closed: (() => void)[],
): Promise<unknown> {
  return Promise.all(
    workers.map(
      (w, slot) =>
        new Promise<void>((resolve) => {
          if (exited.has(slot)) return resolve();
          const timer = setTimeout(resolve, CLOSE_GRACE_MS);
          closed[slot] = () => {
            clearTimeout(timer);
            resolve();
          };
          w.once('exit', closed[slot]);
          w.postMessage({ type: 'close' } satisfies WorkerClose);
        }),
    ),
  );
}

/**
 * The message loop of a worker (game-worker.ts, versus/worker.ts): `init` on the first message, `job` on each job
 * index, `progress` to post progress of the job under way, `close` when the pool is done (runOnWorkers' `close`);
 * the result or the error of each is posted back.
 */
export function serveJobs<I, R, P = never>(
  port: { postMessage(m: unknown): void; on(event: 'message', listener: (m: I | WorkerJob) => void): unknown },
  init: (m: I) => Promise<void>,
  job: (index: number, progress: (p: P) => void) => Promise<R>,
  close?: () => Promise<void>,
): void {
  const post = (m: WorkerReply<R, P>) => port.postMessage(m);
  port.on('message', (m) => {
    const work = (async () => {
      if ((m as unknown as WorkerClose).type === 'close') {
        await close?.();
        post({ type: 'closed' });
      } else if ((m as WorkerJob).type !== 'job') {
        await init(m as I);
        post({ type: 'ready' });
      } else post({ type: 'done', result: await job((m as WorkerJob).index, (p) => post({ type: 'progress', ...p })) });
    })();
    work.catch((e: unknown) =>
      post({
        type: 'error',
        code: e instanceof StackRankError ? e.code : undefined,
        // A StackRankError's message is for the caller as it is; anything else is a crash, reported with its stack.
        message: e instanceof StackRankError ? e.message : String((e as Error)?.stack ?? e),
      }),
    );
  });
}
