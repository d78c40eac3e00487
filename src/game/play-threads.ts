/**
 * playGame on worker threads (Node). Each worker runs src/game/game-worker.ts: its own TetrisAI over a search
 * engine made here, on one shared search image (the rank table and leaf rows exist once, in shared WebAssembly
 * memory). Workers take games one at a time from a common list of game indices and post each game's tally; game g
 * is the same game whichever worker plays it (playOneGame), so results do not depend on the thread count.
 */
import { StackRankError, untilAborted } from '../errors.js';
import { inNode, nodeBuiltin } from '../node-builtins.js';
import type { RankTable } from '../rank/table.js';
import { StackingEngine, type EngineParts, type NextPieceValues } from '../stacking/engine.js';
import { countLiveWorker } from '../workers.js';
import { nodeWorkerEntry } from './worker-entry.js';
import type { SetupReport } from '../setup-progress.js';
import { stackSearchSetup } from './policy.js';
import { cpuSeconds } from '../threads.js';
import type { GameAIOptions, GameSettings, GameTally, GameUnderWay } from './play.js';
import { strengthProfile, weakerRoom } from './strength.js';
import { ruleFacts } from './rules-adapter.js';

/** What a game worker is told first: how to make its AI (game-worker.ts). */
export interface GameWorkerInit {
  type: 'init';
  aiOptions: GameAIOptions;
  settings: GameSettings;
  /** The stack search's engine and the table's iterations (null under goal 'versus', which has no stack mode). */
  engine: EngineParts | null;
  iterations: number;
}

/** What a game worker posts back. */
export type GameWorkerReply =
  | { type: 'ready' }
  | ({ type: 'progress' } & GameUnderWay)
  | { type: 'done'; tally: GameTally }
  | { type: 'error'; code?: string; message: string };

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

export async function playOnThreads(
  run: Run,
): Promise<{ tallies: GameTally[]; startedAt: number; startedCpu: number | null }> {
  if (!inNode) throw new StackRankError('BAD_ARGUMENT', 'playGame runs on worker threads only in Node; use threads: 1');
  const { Worker } = nodeBuiltin('worker_threads', 'playGame on threads');
  const { aiOptions, threads } = run;
  // The workers' AIs search under these rules: a weaker level's room too (TetrisAI.create makes the same).
  const profile = strengthProfile(aiOptions.strength);
  const { stackRules, unknownPieces, blockedWell } = stackSearchSetup(
    ruleFacts(aiOptions.rules),
    aiOptions.randomizer,
    aiOptions.policy,
    aiOptions.stackRoom,
    (room) => weakerRoom(room, profile),
  );
  // One engine per worker, made here: the image's allocator lives on this thread. Released once every worker is
  // gone, so the next run over this table takes their blocks again.
  const owners: StackingEngine[] = [];
  const releaseEngines = () => {
    for (const engine of owners.splice(0)) engine.release();
  };
  const engines: EngineParts[] = [];
  const table = run.table;
  try {
    for (let i = 0; table && i < threads; i++) {
      const engine = await untilAborted(
        StackingEngine.create(table, stackRules, {
          shared: true,
          unknownPieces,
          leafValues: run.previewTable,
          blockedWell,
          // the workers score a surface by its rank where a move's search sees no piece after it (game-worker.ts)
          ranks: true,
          signal: run.signal,
          onProgress: run.onSetupProgress,
        }),
        run.signal,
        'the games were aborted',
      );
      owners.push(engine);
      engines.push(engine.parts());
    }
  } catch (e) {
    releaseEngines();
    throw e;
  }
  const { script, eval: isSource } = nodeWorkerEntry(import.meta.url, 'game-worker', 'playGame on threads');
  type NodeWorker = InstanceType<typeof Worker>;
  const workers: NodeWorker[] = [];
  const tallies: GameTally[] = [];
  let nextGame = run.firstGame;
  const end = run.firstGame + run.games;
  let startedAt = performance.now();
  let startedCpu = cpuSeconds();
  let report: ReturnType<NonNullable<Run['onProgress']>> | undefined;

  let settle!: { resolve(): void; reject(e: Error): void };
  const finished = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  finished.catch(() => {}); // awaited below; a failure while workers start is not "unhandled"
  let failure: Error | null = null;
  const fail = (e: Error) => {
    if (failure) return;
    failure = e;
    settle.reject(e);
  };
  const onAbort = () => fail(new StackRankError('ABORTED', 'the games were aborted'));
  run.signal?.addEventListener('abort', onAbort);

  let ready = 0;
  const give = (slot: number) => {
    if (nextGame < end) workers[slot].postMessage({ type: 'game', game: nextGame++ });
  };
  const onReply = (slot: number, m: GameWorkerReply) => {
    if (failure) return;
    if (m.type === 'ready') {
      if (++ready === threads) {
        startedAt = performance.now();
        startedCpu = cpuSeconds();
        report = run.onProgress?.(startedAt);
        for (let s = 0; s < threads; s++) give(s);
      }
    } else if (m.type === 'progress') report?.(slot, m);
    else if (m.type === 'done') {
      tallies.push(m.tally);
      report?.(slot, null, m.tally);
      if (tallies.length === run.games) settle.resolve();
      else give(slot);
    } else if (m.type === 'error') {
      // An input error found while playing (the AI's move refused) keeps its code; anything else is a crash.
      fail(
        m.code && m.code !== 'WORKER_FAILED'
          ? new StackRankError(m.code as never, m.message)
          : new StackRankError('WORKER_FAILED', `a game worker failed: ${m.message}`),
      );
    }
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
          `could not start game worker ${slot + 1} of ${threads}: ${(e as Error)?.message ?? String(e)}`,
          { cause: e },
        );
      }
      countLiveWorker(w);
      workers.push(w);
      w.on('message', (m: GameWorkerReply) => {
        try {
          onReply(slot, m);
        } catch (e) {
          // onProgress threw: the run fails with its error, as on one thread.
          fail(e instanceof Error ? e : new Error(String(e)));
        }
      });
      w.on('error', (e: Error) =>
        fail(new StackRankError('WORKER_FAILED', `a game worker crashed: ${e.message}`, { cause: e })),
      );
      w.on('exit', (code: number) => {
        if (tallies.length < run.games)
          fail(new StackRankError('WORKER_FAILED', `a game worker exited (code ${code}) before its games were done`));
      });
      const init: GameWorkerInit = {
        type: 'init',
        aiOptions,
        settings: run.settings,
        engine: engines[slot] ?? null,
        iterations: table?.iterations ?? 0,
      };
      w.postMessage(init);
    }
    if (run.signal?.aborted) onAbort();
    await finished;
    return { tallies, startedAt, startedCpu };
  } finally {
    run.signal?.removeEventListener('abort', onAbort);
    // Settled either way: every worker is gone before playGame returns or throws.
    failure ??= new StackRankError('ABORTED', 'the games are over');
    await Promise.all(workers.map((w) => w.terminate()));
    releaseEngines();
  }
}
