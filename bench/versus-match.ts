/**
 * stackrank's TetrisAI against another Tetris Bot Protocol bot in versus matches (docs/versus.md): playVersus with
 * side A TetrisAI and side B the bot driven through TbpClient, matches 2k and 2k + 1 on the same pieces and garbage
 * holes with the sides swapped. Prints the table `stackrank bench versus` prints, a table per side in Markdown, and
 * writes bench/results/versus-match.json (every match's tally, the machine). Without the bot program (--bot not
 * given, or its first word a path that does not exist) it says so and exits 0: nothing else needs the bot.
 *
 *   nice -n 10 npx tsx bench/versus-match.ts --bot /path/to/cold-clear-2 --matches 200
 *
 * --bot CMD         the other bot's command line (words split on spaces; default $TBP_BOT)
 * --matches N       matches (default 200; even, so that every deal is played both ways)
 * --pieces N        pieces per side at most; a match still on then is a draw (default 500)
 * --think-ms MS     the bot's time before each suggest, for bots that search until asked (default 50)
 * --lookahead N     TetrisAI's preview pieces searched (default 5)
 * --no-expectimax   TetrisAI searches the known pieces only (default: averages over the piece after the queue)
 * --threads T       worker threads, each with its own bot process (default 2)
 * --seed S          the matches' seed (default 1)
 * --garbage-delay L the receiver's locks before garbage may enter (default 0)
 */
import { existsSync } from 'node:fs';
import { versusJson, versusTable } from '../src/cli/versus.js';
import { playVersus } from '../src/versus/run.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values } = benchArgs(import.meta.url, {
  bot: { type: 'string' },
  matches: { type: 'string', default: '200' },
  pieces: { type: 'string', default: '500' },
  'think-ms': { type: 'string', default: '50' },
  lookahead: { type: 'string', default: '5' },
  'no-expectimax': { type: 'boolean', default: false },
  threads: { type: 'string', default: '2' },
  seed: { type: 'string', default: '1' },
  'garbage-delay': { type: 'string', default: '0' },
});

const bot = values.bot ?? process.env.TBP_BOT;
const program = bot?.split(/\s+/).find(Boolean);
if (!program || (program.includes('/') && !existsSync(program))) {
  console.log(
    `versus-match: skipped, no bot program (${program ? `${program} does not exist` : 'give --bot CMD or set TBP_BOT'})`,
  );
  process.exit(0);
}

const lookahead = Number(values.lookahead);
const thinkMs = Number(values['think-ms']);
let done = 0;
const result = await playVersus({
  a: { ai: { lookahead, ...(values['no-expectimax'] ? {} : { randomizer: 'bag7' as const }) } },
  b: { tbp: bot!, thinkMs },
  matches: Number(values.matches),
  maxPieces: Number(values.pieces),
  threads: Number(values.threads),
  seed: Number(values.seed),
  garbageDelay: Number(values['garbage-delay']),
  onMatch: (t) => {
    done++;
    if (done % 10 === 0) console.error(`${done} matches, last: ${t.winner} after ${t.rounds} pieces`);
  },
});

for (const line of versusTable(result)) console.log(line);
console.log();
printTable(
  result.sides.map((s, k) => ({
    side: k === 0 ? 'A' : 'B',
    player: s.player,
    wins: s.wins,
    'attack/piece': s.attackPerPiece,
    'sent/piece': s.sentPerPiece,
    pieces: s.pieces,
    cancelled: s.cancelled,
    received: s.received,
    'T-spin doubles': s.clears.tSpinDouble ?? 0,
    Tetrises: s.clears.tetris ?? 0,
    'lost by': Object.entries(s.losses)
      .map(([how, n]) => `${how} ${n}`)
      .join(', '),
  })),
);
const file = writeResults('versus-match', {
  machine: machine(),
  command: process.argv.slice(2).join(' '),
  ...versusJson(result),
  tallies: result.tallies,
});
console.log(`\nwrote ${file}`);
