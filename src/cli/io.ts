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
}

/** The signals that stop a command as Ctrl-C does, and the exit code of each: 128 + its number (docs/cli.md). */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** The signal that stopped the command: the abort reason nodeIO gives, else (a caller's own abort) SIGINT. */
export function stoppedBy(signal: AbortSignal): StopSignal {
  const reason: unknown = signal.reason;
  return reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
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
  for (const signal of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(signal, () => stop(signal));
  return {
    signal: controller.signal,
    out: (l) => process.stdout.write(l + '\n'),
    err: (l) => process.stderr.write(l + '\n'),
    status: (l) => {
      if (tty) process.stderr.write('\r\x1b[K' + l);
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
