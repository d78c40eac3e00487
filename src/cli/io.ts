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

export function nodeIO(): CliIO {
  const tty = !!process.stderr.isTTY;
  // Ctrl-C cancels long jobs cleanly (workers stopped, no half-written file) and the command exits 130; a second
  // Ctrl-C exits at once.
  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
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
