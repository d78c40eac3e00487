/**
 * The board each game of `stackrank bench nes` brings to a level, by the game's fate (bench/notes/nes.md, "Where the
 * games end at 39"): replays the competition format's games (playOneGame, the loop playGame runs: the same seeds and
 * moves), keeps each game's board as the first piece of `--level` appears, and groups the games by whether they
 * ended at that level (and were not cut by the cap) or went past it. Prints a table by fate (games, the board's mean
 * height, holes and the lines the games cleared at that level) and draws the boards of the games that ended there
 * after at most `--draw-lines` lines, top row first ('#' filled, '.' empty). Writes bench/results/nes-arrivals.json.
 *
 *   npx tsx bench/nes-arrivals.ts [--games 100] [--seed 1] [--level 39] [--draw-lines 3]
 */
import { columnHeights, countHoles } from '../src/board-rows.js';
import { drawPlacement } from '../src/cli/analyze.js';
import { BOARD_MAX_HEIGHT, Board } from '../src/rules/board.js';
import { linesToLevel } from '../src/rules/nes-game.js';
import { playOneGame } from '../src/tetris-ai/game-simulator.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import { competitionReplay } from './nes-replay.js';

const { values: args } = benchArgs(import.meta.url, {
  games: { type: 'string', default: '100' },
  seed: { type: 'string', default: '1' },
  level: { type: 'string', default: '39' },
  'draw-lines': { type: 'string', default: '3' },
});
const level = Number(args.level);
const seed = Number(args.seed);
const drawLines = Number(args['draw-lines']);
const { format, ai, settings } = await competitionReplay(seed);
const from = linesToLevel(format.rules.level!, level);
const width = ai.width;

interface Arrival {
  game: number;
  fate: 'ended there' | 'went past';
  heights: number[];
  holes: number;
  linesThere: number;
  piecesThere: number;
}
const arrivals: Arrival[] = [];
for (let game = 0; game < Number(args.games); game++) {
  let board: Uint32Array | null = null;
  let linesThere = 0;
  let piecesThere = 0;
  const tally = await playOneGame(ai, game, settings, {
    onTurn: (turn) => {
      const lines = turn.nes!.lines;
      if (lines >= from && lines < from + 10) {
        board ??= turn.before.slice(0, BOARD_MAX_HEIGHT);
        piecesThere++;
        linesThere = Math.min(10, lines + turn.lines - from);
      }
    },
  });
  if (board === null) continue;
  const rows = board as Uint32Array;
  const ended = tally.nes!.endLevel === level && !tally.nes!.reachedCap;
  const a: Arrival = {
    game,
    fate: ended ? 'ended there' : 'went past',
    heights: columnHeights(rows, width),
    holes: countHoles(rows, width),
    linesThere,
    piecesThere,
  };
  arrivals.push(a);
  if (ended && linesThere <= drawLines)
    console.log(
      `game ${game}: ${linesThere} lines in ${piecesThere} pieces at ${level}, from\n${drawPlacement(Board.fromBits(rows, width), null).join('\n')}\n`,
    );
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const table = (['ended there', 'went past'] as const).map((fate) => {
  const g = arrivals.filter((a) => a.fate === fate);
  return {
    [`fate at ${level}`]: fate,
    games: g.length,
    'mean height': mean(g.map((a) => Math.max(...a.heights))),
    'mean holes': mean(g.map((a) => a.holes)),
    [`mean lines at ${level}`]: mean(g.map((a) => a.linesThere)),
  };
});
console.log(`${arrivals.length} of ${args.games} games reached level ${level} (seed ${seed}); their boards then:`);
printTable(table);
writeResults('nes-arrivals', { machine: machine(), seed, games: Number(args.games), level, table, arrivals });
