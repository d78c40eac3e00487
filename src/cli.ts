/**
 * `stackrank` command line. The commands are declared as option tables (src/cli/commands.ts, src/cli/spec.ts);
 * this entry point runs one and turns its outcome into an exit code (docs/cli.md): 0 done, 1 runtime error,
 * 2 usage error, 130 interrupted (Ctrl-C), 141 its reader went away (a closed pipe), 143 terminated (SIGTERM).
 */
import { realpathSync } from 'node:fs';
import { StackRankError } from './errors.js';
import { UsageError } from './cli/args.js';
import { COMMANDS, GROUPS } from './cli/commands.js';
import { STOP_SIGNALS, isWriting, nodeIO, stoppedBy, type CliIO } from './cli/io.js';
import { CommandUsageError, HelpShown, buildProgram } from './cli/spec.js';
import { STACKRANK_VERSION } from './version.js';

export const EXIT = {
  ok: 0,
  runtime: 1,
  usage: 2,
  interrupted: STOP_SIGNALS.SIGINT,
  terminated: STOP_SIGNALS.SIGTERM,
  closedPipe: STOP_SIGNALS.SIGPIPE,
} as const;

const DESCRIPTION = `Tetris AI tools: rank tables, the stacking AI, randomizers, the full-board player and the browser demo.
Every command takes --json (JSON Lines on stdout) and --help. Exit codes: 0 done, 1 runtime error, 2 usage error,
130 interrupted (Ctrl-C), 141 stdout closed (| head), 143 terminated (SIGTERM).`;

/** A system error from Node's fs or net (ENOENT, EACCES, ENOSPC...): a runtime error with a message, not a crash. */
function isSystemError(e: unknown): e is NodeJS.ErrnoException {
  return (
    e instanceof Error &&
    typeof (e as NodeJS.ErrnoException).code === 'string' &&
    typeof (e as NodeJS.ErrnoException).syscall === 'string'
  );
}

/**
 * Reports a command stopped from outside: `interrupted` (Ctrl-C, 130), `terminated (SIGTERM)` (143), or nothing
 * when its reader went away (141, as a process killed by SIGPIPE: there is no one to tell).
 */
function interrupted(io: CliIO, command: string): number {
  const by = io.signal ? stoppedBy(io.signal) : 'SIGINT';
  if (by === 'SIGPIPE') return STOP_SIGNALS.SIGPIPE;
  io.err(
    `${command ? `stackrank ${command}` : 'stackrank'}: ${by === 'SIGTERM' ? 'terminated (SIGTERM)' : 'interrupted'}`,
  );
  return STOP_SIGNALS[by];
}

/** A message on one line (docs/cli.md): a parser's message may quote a file's lines. */
const oneLine = (message: string) => message.replace(/\s*[\r\n]+\s*/g, ' ');

export async function main(argv: string[], io: CliIO = nodeIO()): Promise<number> {
  const cli = buildProgram(COMMANDS, GROUPS, io, DESCRIPTION, STACKRANK_VERSION);
  const prefix = (path: string) => (path ? `stackrank ${path}` : 'stackrank');
  try {
    const code = await cli.run(argv);
    // An interrupt once the results were being written is ignored: they are complete (docs/cli.md, "Ctrl-C").
    if (!io.signal?.aborted || isWriting(io)) return code;
    // The command stopped early on its own (play, demo): still an interrupt.
    return interrupted(io, cli.running());
  } catch (e) {
    if (e instanceof HelpShown) return EXIT.ok;
    if (e instanceof CommandUsageError) {
      io.err(`${prefix(e.path)}: ${oneLine(e.message)}`);
      return EXIT.usage;
    }
    if (e instanceof UsageError) {
      io.err(`${prefix(cli.running())}: ${oneLine(e.message)}`);
      return EXIT.usage;
    }
    if ((io.signal?.aborted && !isWriting(io)) || (e instanceof StackRankError && e.code === 'ABORTED')) {
      io.status('');
      return interrupted(io, cli.running());
    }
    if (e instanceof StackRankError) {
      io.err(`${prefix(cli.running())}: ${oneLine(e.message)} [${e.code}]`);
      return EXIT.runtime;
    }
    if (isSystemError(e)) {
      io.err(`${prefix(cli.running())}: ${oneLine(e.message)} [IO]`);
      return EXIT.runtime;
    }
    throw e;
  }
}

/** The script path behind argv[1]: npm's bin is a symlink named `stackrank`, so resolve it before matching. */
function entryPath(): string {
  try {
    return realpathSync(process.argv[1]);
  } catch {
    return process.argv[1];
  }
}

const isEntry = typeof process !== 'undefined' && !!process.argv[1] && /cli\.(js|ts|mjs)$/.test(entryPath());
if (isEntry) {
  const io = nodeIO();
  main(process.argv.slice(2), io).then(
    async (code) => {
      await io.flush?.();
      // The reader went away, maybe at the last line, after the command had finished: 141 all the same.
      process.exit(io.signal?.aborted && stoppedBy(io.signal) === 'SIGPIPE' ? STOP_SIGNALS.SIGPIPE : code);
    },
    (e) => {
      process.stderr.write(`stackrank: internal error: ${(e as Error).stack ?? String(e)}\n`);
      process.exit(70);
    },
  );
}
