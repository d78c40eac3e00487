/**
 * How NES games meet the double killscreen (bench/notes/nes.md, "Policy round 6"): replays `stackrank bench nes`'s
 * games (the competition format, playOneGame's own loop) and, for every game that reaches level 39, prints the board
 * it enters 39 with (highest column, holes, the right well's column), how many pieces and lines it lived there, and
 * for every game that ends at 39–48 its last positions, top row first ('#' filled, the move's piece as its letter).
 *
 *   npx tsx bench/nes-killscreen.ts [--games 100] [--seed 100] [--first-game 0] [--last 6] [--show 10]
 */
import { drawPlacement } from '../src/cli/analyze.js';
import { countHoles, columnHeights, maxHeight } from '../src/board-rows.js';
import { BOARD_MAX_HEIGHT, Board } from '../src/rules/board.js';
import { NES_DOUBLE_KILLSCREEN } from '../src/rules/timing.js';
import { type PlayedTurn, playOneGame } from '../src/tetris-ai/game-simulator.js';
import { benchArgs } from './common.js';
import { competitionReplay } from './nes-replay.js';

const { values: args } = benchArgs(import.meta.url, {
  games: { type: 'string', default: '100' },
  seed: { type: 'string', default: '100' },
  'first-game': { type: 'string', default: '0' },
  last: { type: 'string', default: '6' },
  show: { type: 'string', default: '10' },
});
const seed = Number(args.seed);
const { ai, settings } = await competitionReplay(seed);
const width = ai.width;
const last = Number(args.last);
let shown = 0;

const draw = (rows: Uint32Array, t?: PlayedTurn) =>
  drawPlacement(Board.fromBits(rows.subarray(0, BOARD_MAX_HEIGHT), width), t?.move ?? null)
    .filter((line) => line.includes('#') || /[IOTSZLJ]/.test(line))
    .join('\n');
const boardFacts = (rows: Uint32Array) =>
  `top ${maxHeight(rows)}, holes ${countHoles(rows, width)}, heights ${columnHeights(rows, width).join(' ')}`;

const entered: { game: number; top: number; holes: number; well: number; died39: boolean; pieces: number }[] = [];
const first = Number(args['first-game']);
for (let g = first; g < first + Number(args.games); g++) {
  let enter39: Uint32Array | null = null;
  let pieces39 = 0;
  let lines39 = 0;
  const recent: PlayedTurn[] = [];
  const modes: Record<string, number> = {};
  const tally = await playOneGame(ai, g, settings, {
    onTurn: (t) => {
      if (t.nes!.level >= NES_DOUBLE_KILLSCREEN) {
        if (!enter39) enter39 = t.before.slice();
        pieces39++;
        lines39 += t.lines;
        const mode = t.move ? `${t.move.mode}${t.lines ? `:${t.lines}` : ''}` : 'none';
        modes[mode] = (modes[mode] ?? 0) + 1;
      }
      recent.push(t);
      if (recent.length > last) recent.shift();
    },
  });
  const end = tally.nes!;
  if (!enter39) {
    console.log(`game ${g}: ended at level ${end.endLevel}, score ${end.score}`);
    continue;
  }
  const e = enter39 as Uint32Array;
  const h = columnHeights(e, width);
  entered.push({
    game: g,
    top: maxHeight(e),
    holes: countHoles(e, width),
    well: h[width - 1],
    died39: end.endLevel === NES_DOUBLE_KILLSCREEN && !end.reachedCap,
    pieces: pieces39,
  });
  console.log(
    `game ${g}: ended at level ${end.endLevel}${end.reachedCap ? ' (cap)' : ''}, score ${end.score}; entered 39 with ${boardFacts(e)}; ${pieces39} pieces and ${lines39} lines from 39; moves ${JSON.stringify(modes)}`,
  );
  if (!end.reachedCap && shown < Number(args.show)) {
    shown++;
    console.log(`board entering 39:\n${draw(e)}`);
    for (const t of recent) {
      const m = t.move;
      console.log(
        `level ${t.nes!.level} piece ${t.n}: ${t.current} [${t.queue.join('')}] -> ${m ? `${m.mode} ${m.piece} ${m.rotation} x${m.x} y${m.y}, ${t.lines} lines` : 'no move'}; ${boardFacts(t.before)}\n${draw(t.before, t)}`,
      );
    }
    const lastTurn = recent[recent.length - 1];
    console.log(`after:\n${draw(lastTurn.after)}\n`);
  }
}
const group = (died: boolean) => entered.filter((x) => x.died39 === died);
for (const died of [true, false]) {
  const xs = group(died);
  const withHoles = xs.filter((x) => x.holes > 0).length;
  const tall = xs.filter((x) => x.top >= 8).length;
  const hist: Record<number, number> = {};
  for (const x of xs) hist[x.top] = (hist[x.top] ?? 0) + 1;
  console.log(
    `${died ? 'ended at 39' : 'lived past 39'}: ${xs.length} games; entered with holes ${withHoles}, top >= 8 ${tall}; tops ${JSON.stringify(hist)}; pieces at 39 ${xs.map((x) => x.pieces).join(' ')}`,
  );
}
