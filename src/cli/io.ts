import { StackRankError } from '../errors.js';

/** What a CLI command needs from the outside world; tests pass their own. */
export interface CliIO {
  out(line: string): void;
  err(line: string): void;
  /** Rewrites the current status line (progress bars); a no-op when not a TTY. */
  status(line: string): void;
  isTTY: boolean;
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C: commands pass it to every long library call, which then stops within about 100 ms. */
  signal?: AbortSignal;
  /** Resolves once every line written so far has reached its stream or failed (the process exits after it). */
  flush?(): Promise<void>;
  /** The lines of standard input, for commands that read it (`tbp`); default: the process's stdin. */
  input?: AsyncIterable<string>;
}

/**
 * What stops a command from outside, and the exit code of each: 128 + the signal's number, as a shell reports a
 * process the signal killed (docs/cli.md, "Exit codes"). SIGPIPE stands for a reader that went away: Node ignores
 * the signal itself, and a write to the closed pipe fails with EPIPE instead.
 */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGPIPE: 141 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** The signal that stopped the command: the abort reason nodeIO gives, else (a caller's own abort) SIGINT. */
export function stoppedBy(signal: AbortSignal): StopSignal {
  const reason: unknown = signal.reason;
  return reason === 'SIGTERM' || reason === 'SIGPIPE' ? reason : 'SIGINT';
}

export function nodeIO(): CliIO {
  const tty = !!process.stderr.isTTY;
  // Ctrl-C (SIGINT) cancels long jobs cleanly (workers stopped, checkpoint saved, no half-written file) and the
  // command exits 130; SIGTERM, which Kubernetes and Slurm send before SIGKILL, does the same and exits 143
  // (docs/distributed.md). A second signal of either kind exits at once.
  const controller = new AbortController();
  const stop = (signal: StopSignal) => {
    if (controller.signal.aborted) process.exit(STOP_SIGNALS[signal]);
    controller.abort(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // The reader of stdout (or stderr) went away (`stackrank ... | head -1`): nothing more can be shown, so the work
  // stops as on Ctrl-C, quietly, and the command exits 141 as if killed by SIGPIPE (docs/cli.md). Without a
  // listener the stream's EPIPE error would end the process with a stack trace.
  const closed = { stdout: false, stderr: false };
  const readerGone = (name: 'stdout' | 'stderr') => {
    closed[name] = true;
    if (!controller.signal.aborted) controller.abort('SIGPIPE' satisfies StopSignal);
  };
  for (const name of ['stdout', 'stderr'] as const)
    process[name].on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      readerGone(name);
    });
  // A write's failure is reported after the write returns: the command's last line can fail after the command has
  // finished, so the process waits for every write's outcome (flush) before it picks its exit code.
  let pending = 0;
  let settled: (() => void) | null = null;
  const write = (name: 'stdout' | 'stderr', text: string) => {
    if (closed[name]) return;
    pending++;
    process[name].write(text, (e?: NodeJS.ErrnoException | null) => {
      if (e?.code === 'EPIPE') readerGone(name);
      if (--pending === 0) settled?.();
    });
  };
  return {
    flush: () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => (settled = resolve))),
    signal: controller.signal,
    out: (l) => write('stdout', l + '\n'),
    err: (l) => write('stderr', l + '\n'),
    status: (l) => {
      if (tty) write('stderr', '\r\x1b[K' + l);
    },
    isTTY: tty,
    env: process.env,
  };
}

/** The CLIs (their io) whose command has started writing its result files. */
const writing = new WeakSet<CliIO>();

/**
 * The work is done and the command is about to write its result files (docs/cli.md, "Ctrl-C"): an interrupt that
 * came before leaves no file (this throws ABORTED, exit 130); from here on an interrupt is ignored, the files are
 * written and the command reports its outcome as if there had been none (a second Ctrl-C still exits at once).
 * Never both a complete file and exit 130.
 */
export function startWriting(io: CliIO): void {
  if (io.signal?.aborted) throw new StackRankError('ABORTED', 'interrupted before the results were written');
  writing.add(io);
}

/**
 * The result files were written by a library call that looked at the signal itself before writing (the table
 * cache): an interrupt after it returned is ignored, as after startWriting.
 */
export function wroteResults(io: CliIO): void {
  writing.add(io);
}

/** Whether the command has started writing its result files (an interrupt since then is ignored). */
export function isWriting(io: CliIO): boolean {
  return writing.has(io);
}
