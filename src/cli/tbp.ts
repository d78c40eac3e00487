/** `stackrank tbp`: the Tetris Bot Protocol on stdin/stdout (docs/tbp.md), TetrisAI behind it. */
import { createInterface } from 'node:readline';
import { MAX_STACK_ROOM, MIN_STACK_ROOM } from '../tetris-ai/policy.js';
import { MAX_SUGGESTED_MOVES, TetrisAIEngine } from '../tbp/ai-engine.js';
import { TbpBot } from '../tbp/bot.js';
import { UsageError } from './args.js';
import type { CliIO } from './io.js';
import { TABLE_SOURCE, lookaheadOption } from './options.js';
import { defineCommand } from './spec.js';
import { loadTableForCli } from './table-source.js';

export const tbpCommand = defineCommand({
  path: 'tbp',
  summary: 'a Tetris Bot Protocol bot on stdin/stdout (TetrisAI under guideline rules)',
  description: `Speaks the Tetris Bot Protocol (tbp-spec, with its randomizer and move_info extensions) on standard
input and output, one JSON message per line: info at once, then ready after rules, a suggestion for each suggest,
and the position followed through play and new_piece (docs/tbp.md). Nothing else is written to stdout; diagnostics
go to stderr. Exits 0 on quit or at the end of the input. The AI is TetrisAI under the guideline rule set, set up
once at the first rules (the cached rank table unless --table names one); --expectimax (the default) averages over
the piece after the queue with the chances of the bag the bot follows (about 400 MB more memory).`,
  options: {
    lookahead: lookaheadOption(5),
    expectimax: {
      type: 'flag',
      help: 'average over the piece after the queue, with the chances of the bag the bot follows (default)',
      negation: 'search the known pieces only (less memory)',
    },
    moves: {
      type: 'int',
      min: 1,
      max: MAX_SUGGESTED_MOVES,
      default: 1,
      help: "moves per suggestion, best first (more than 1 ranks every placement: TetrisAI's rankPlacements)",
    },
    stackRoom: {
      type: 'int',
      min: MIN_STACK_ROOM,
      max: MAX_STACK_ROOM,
      arg: 'ROWS',
      help: 'rows the stack keeps free under the top of the field (docs/game.md)',
      defaultHelp: 'the guideline default',
    },
    ...TABLE_SOURCE,
  },
  async run({ values, given }, io) {
    // The table loads (or is found in the cache) while the protocol starts; a bad option combination is a usage
    // error before the first message, since loadTableForCli refuses it before its first await.
    const table = loadTableForCli(values, given, io);
    table.catch(() => {});
    const early = await Promise.race([table.then(() => null), new Promise<null>((r) => setImmediate(r, null))]).catch(
      (e: unknown) => e,
    );
    if (early instanceof UsageError) throw early;
    const engine = new TetrisAIEngine({
      lookahead: values.lookahead,
      randomizerAware: values.expectimax ?? true,
      moves: values.moves,
      loadTable: () => table,
      stackRoom: values.stackRoom,
      signal: io.signal,
    });
    const bot = new TbpBot({ engine, send: (m) => io.out(JSON.stringify(m)), log: (l) => io.err(l) });
    bot.open();
    for await (const line of linesUntilAborted(io)) if (await bot.receiveLine(line)) break;
    return io.signal?.aborted ? 130 : 0;
  },
});

/** Standard input's lines (io.input, else the process's stdin) until it ends or the command is interrupted. */
async function* linesUntilAborted(io: CliIO): AsyncGenerator<string> {
  const rl = io.input ? null : createInterface({ input: process.stdin, crlfDelay: Infinity });
  const source = (io.input ?? rl!)[Symbol.asyncIterator]();
  const signal = io.signal;
  const aborted = new Promise<IteratorResult<string>>((resolve) => {
    if (!signal) return;
    const stop = () => resolve({ done: true, value: undefined });
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([source.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    rl?.close();
  }
}
