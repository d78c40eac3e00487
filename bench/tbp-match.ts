/**
 * stackrank and another Tetris Bot Protocol bot side by side, solo: each bot plays the same bag7 pieces (game g of
 * --seed S draws from bag7 seeded S + g; 5 previews, hold, no garbage), driven through the protocol by TbpClient
 * (src/tbp/client.ts). This script keeps each game itself: it checks every first suggestion (the piece, four empty
 * cells on the 10 x 40 board, resting), locks it, clears rows and follows hold; a cell left over row 20 is a top-out.
 * It counts moves the library's guideline rules would not reach from their spawn (a bot may model another spawn),
 * but plays them. Prints pieces, lines, clears by size, spins the bot reported with its clears, top-outs and the
 * time per suggestion; writes bench/results/tbp-match.json. The versus match (garbage, win rate) belongs to the
 * versus simulator; this proves both bots speak the protocol on the same pieces.
 *
 *   npx tsx bench/tbp-match.ts --bot /path/to/cold-clear-2 --games 2 --pieces 300
 *
 * --bot CMD         the other bot's command line (words split on spaces; required)
 * --stackrank CMD   stackrank's bot (default: this checkout's CLI under tsx, `stackrank tbp` with its defaults)
 * --games N         games per bot (default 1)
 * --pieces N        pieces per game at most (default 300)
 * --seed S          first game's bag7 seed (default 1)
 * --think-ms MS     wait this long after the last new_piece before asking for a suggestion, for bots that search
 *                   until asked (default 50; stackrank's bot searches when asked and gains nothing from it). An
 *                   empty suggestion (the spec's forfeit) is asked again after as long, up to 20 times, since such a
 *                   bot may not have expanded its first node yet on a loaded machine; the retries are counted.
 */
import { resolve } from 'node:path';
import { PIECES } from '../src/pieces.js';
import { createRandomizer } from '../src/randomizers/index.js';
import { Board } from '../src/rules/board.js';
import { reachablePlacements } from '../src/rules/reachable.js';
import { TbpClient } from '../src/tbp/client.js';
import { tbpCells, type TbpLocation } from '../src/tbp/location.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values } = benchArgs(import.meta.url, {
  bot: { type: 'string' },
  stackrank: { type: 'string' },
  games: { type: 'string', default: '1' },
  pieces: { type: 'string', default: '300' },
  seed: { type: 'string', default: '1' },
  'think-ms': { type: 'string', default: '50' },
});
if (!values.bot) {
  console.error('--bot CMD is required (the other TBP bot program)');
  process.exit(2);
}
const GAMES = Number(values.games);
const PIECES_PER_GAME = Number(values.pieces);
const SEED = Number(values.seed);
const THINK_MS = Number(values['think-ms']);
const PREVIEWS = 5;
const EMPTY_RETRIES = 20;
const ROOT = resolve(import.meta.dirname, '..');
const STACKRANK = values.stackrank ?? `${process.execPath} --import tsx src/cli.ts tbp`;

interface Tally {
  bot: string;
  games: number;
  pieces: number;
  lines: number;
  clears: number[];
  /** Clears the bot reported as spins: mini, full. */
  spinClears: { mini: number; full: number };
  topOuts: number;
  illegal: number;
  /** Moves the library's guideline rules do not reach from their spawn. */
  unreachable: number;
  suggestMs: number[];
  /** Empty suggestions asked again (see --think-ms). */
  retries: number;
}

/** One solo game as this script keeps it. */
class Game {
  rows = new Uint32Array(40);
  queue: string[] = [];
  hold: string | null = null;
  combo = 0;
  backToBack = false;

  start(extra: Record<string, unknown>) {
    return {
      board: Array.from({ length: 40 }, (_, y) =>
        Array.from({ length: 10 }, (_, x) => ((this.rows[y] >> x) & 1 ? 'G' : null)),
      ),
      queue: [...this.queue],
      hold: this.hold,
      combo: this.combo,
      back_to_back: this.backToBack,
      ...extra,
    };
  }

  /** Plays a suggested move; its lines, or a reason it is not legal. */
  play(location: TbpLocation, spin: string): { lines: number; unreachable: boolean } | string {
    const usable = [this.queue[0], this.hold ?? this.queue[1]];
    if (!usable.includes(location.type)) return `piece ${location.type} is not one of ${usable.join(' ')}`;
    const cells = tbpCells(location);
    for (const [x, y] of cells) {
      if (x < 0 || x > 9 || y < 0 || y > 39) return `cell (${x}, ${y}) off the board`;
      if ((this.rows[y] >> x) & 1) return `cell (${x}, ${y}) filled`;
    }
    if (!cells.some(([x, y]) => y === 0 || (this.rows[y - 1] >> x) & 1)) return 'it does not rest';
    const key = (cs: readonly (readonly number[])[]) =>
      cs
        .map(([x, y]) => `${x},${y}`)
        .sort()
        .join(' ');
    const board = Board.fromBits(this.rows, 10, 40);
    const unreachable = !reachablePlacements(board, location.type, { rules: 'guideline' }).some(
      (p) => key(p.cells) === key(cells),
    );
    for (const [x, y] of cells) this.rows[y] |= 1 << x;
    const kept = [...this.rows].filter((r) => r !== 0x3ff);
    const lines = 40 - kept.length;
    this.rows = new Uint32Array(40);
    this.rows.set(kept);
    if (location.type === this.queue[0]) this.queue.shift();
    else if (this.hold !== null) this.hold = this.queue.shift()!;
    else {
      this.hold = this.queue[0];
      this.queue.splice(0, 2);
    }
    if (lines > 0) {
      this.combo++;
      this.backToBack = lines === 4 || spin !== 'none';
    } else this.combo = 0;
    return { lines, unreachable };
  }

  toppedOut(): boolean {
    return this.rows.slice(20).some((r) => r !== 0);
  }
}

async function runBot(command: string): Promise<Tally> {
  const [program, ...args] = command.split(' ').filter(Boolean);
  const stderr: string[] = [];
  const bot = await TbpClient.spawn(program, args, { cwd: ROOT, stderr: (t) => stderr.push(t), timeoutMs: 600_000 });
  const name = `${String(bot.info.name)} ${String(bot.info.version)}`;
  console.error(`${name}: features ${JSON.stringify(bot.info.features)}`);
  await bot.rules({ randomizer: 'seven_bag' });
  const tally: Tally = {
    bot: name,
    games: GAMES,
    pieces: 0,
    lines: 0,
    clears: [0, 0, 0, 0, 0],
    spinClears: { mini: 0, full: 0 },
    topOuts: 0,
    illegal: 0,
    unreachable: 0,
    suggestMs: [],
    retries: 0,
  };
  for (let g = 0; g < GAMES; g++) {
    const rng = createRandomizer('bag7', { seed: SEED + g });
    const game = new Game();
    game.queue = [...rng.take(PREVIEWS + 1)];
    const bag = Array.from(rng.distribution(), (p, i) => (p > 0 ? PIECES[i] : null)).filter((p) => p !== null);
    bot.start(game.start({ randomizer: { type: 'seven_bag', bag_state: bag } }));
    for (let n = 0; n < PIECES_PER_GAME; n++) {
      let move: { location: TbpLocation; spin: string } | undefined;
      for (let attempt = 0; attempt <= EMPTY_RETRIES && !move; attempt++) {
        if (attempt > 0) tally.retries++;
        if (THINK_MS > 0) await new Promise((r) => setTimeout(r, THINK_MS));
        const t0 = performance.now();
        const suggestion = await bot.suggest();
        tally.suggestMs.push(performance.now() - t0);
        move = (suggestion.moves as { location: TbpLocation; spin: string }[])[0];
      }
      if (!move) {
        console.error(`${name}, game ${g}, piece ${n}: no move (forfeit)`);
        tally.topOuts++;
        break;
      }
      const played = game.play(move.location, move.spin);
      if (typeof played === 'string') {
        console.error(`${name}, game ${g}, piece ${n}: illegal move ${JSON.stringify(move)}: ${played}`);
        tally.illegal++;
        break;
      }
      tally.pieces++;
      tally.lines += played.lines;
      tally.clears[played.lines]++;
      if (played.unreachable) tally.unreachable++;
      if (played.lines > 0 && (move.spin === 'mini' || move.spin === 'full')) tally.spinClears[move.spin]++;
      bot.play(move);
      if (game.toppedOut()) {
        tally.topOuts++;
        break;
      }
      while (game.queue.length < PREVIEWS + 1) {
        const p = rng.next();
        game.queue.push(p);
        bot.newPiece(p);
      }
    }
    bot.stop();
    console.error(`${name}: game ${g} done, ${tally.pieces} pieces, ${tally.lines} lines so far`);
  }
  await bot.quit(5000);
  const warnings = stderr.join('').trim();
  if (warnings) console.error(`${name} stderr:\n${warnings.slice(0, 2000)}`);
  return tally;
}

const tallies: Tally[] = [];
for (const command of [values.bot, STACKRANK]) tallies.push(await runBot(command));

printTable(
  tallies.map((t) => ({
    bot: t.bot,
    games: t.games,
    pieces: t.pieces,
    lines: t.lines,
    'S/D/T/Q': t.clears.slice(1).join('/'),
    'spin clears mini/full': `${t.spinClears.mini}/${t.spinClears.full}`,
    'top-outs': t.topOuts,
    illegal: t.illegal,
    'unreachable here': t.unreachable,
    'ms per suggest (median)': median(t.suggestMs),
    'empty, asked again': t.retries,
  })),
);
const path = writeResults('tbp-match', {
  command: `npx tsx bench/tbp-match.ts ${process.argv.slice(2).join(' ')}`,
  date: new Date().toISOString(),
  machine: machine(),
  settings: { games: GAMES, pieces: PIECES_PER_GAME, seed: SEED, thinkMs: THINK_MS, previews: PREVIEWS },
  bots: tallies.map(({ suggestMs, ...t }) => ({ ...t, suggestMsMedian: median(suggestMs) })),
});
console.error(`wrote ${path}`);
