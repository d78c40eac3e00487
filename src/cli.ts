/**
 * `stackrank` command line. Each command lives in src/cli/<name>.ts and is registered here; every command takes
 * --json and exits non-zero with a one-line reason on bad arguments.
 */
import { realpathSync } from 'node:fs';
import { StackRankError } from './errors.js';
import { UsageError } from './cli/args.js';
import { nodeIO, type CliCommand } from './cli/io.js';
import { tableCommand } from './cli/table.js';
import { benchCommand } from './cli/survival.js';
import { playCommand } from './cli/play.js';
import { fullCommand } from './cli/full.js';
import { queueCommand, randomizersCommand } from './cli/randomizers.js';
import { demoCommand } from './cli/demo.js';

const COMMANDS: Record<string, { run: CliCommand; summary: string }> = {
  table: { run: tableCommand, summary: 'build, inspect and query rank tables' },
  bench: { run: benchCommand, summary: 'benchmarks: survival (the article\'s table, measured)' },
  play: { run: playCommand, summary: 'watch the stacking AI play in the terminal' },
  full: { run: fullCommand, summary: 'full-board player: play games with weight presets, train weights (GA)' },
  randomizers: { run: randomizersCommand, summary: 'compare every piece generator: predictability, droughts, floods; SVG plots' },
  queue: { run: queueCommand, summary: 'print the pieces a generator deals from a seed' },
  demo: { run: demoCommand, summary: 'serve the browser demo (the AI playing live) on 127.0.0.1' },
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
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`stackrank: internal error: ${(e as Error).stack ?? String(e)}\n`);
      process.exit(70);
    },
  );
}
