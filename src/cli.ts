/**
 * `stackrank` command line. Each command lives in src/cli/<name>.ts and is registered here; every command takes
 * --json and exits non-zero with a one-line reason on bad arguments.
 */
import { StackRankError } from './errors.js';
import { UsageError } from './cli/args.js';
import { nodeIO, type CliCommand } from './cli/io.js';
import { tableCommand } from './cli/table.js';

const COMMANDS: Record<string, { run: CliCommand; summary: string }> = {
  table: { run: tableCommand, summary: 'build, inspect and query rank tables' },
};

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return ['usage: stackrank <command> [options]   (stackrank <command> --help for details)', '', 'commands:', ...rows].join('\n');
}

export async function main(argv: string[], io = nodeIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`stackrank: unknown command ${JSON.stringify(name)}; commands are ${Object.keys(COMMANDS).join(', ')}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`stackrank ${name}: ${e.message}`);
      return 2;
    }
    if (e instanceof StackRankError) {
      io.err(`stackrank ${name}: ${e.message} [${e.code}]`);
      return 1;
    }
    throw e;
  }
}

const isEntry = typeof process !== 'undefined' && process.argv[1] && /cli\.(js|ts|mjs)$/.test(process.argv[1]);
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`stackrank: internal error: ${(e as Error).stack ?? String(e)}\n`);
      process.exit(70);
    },
  );
}
