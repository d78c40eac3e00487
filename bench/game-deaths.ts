/**
 * How TetrisAI's games top out (bench/notes/results.md, "Classic: a lower stack against top-outs"): replays playGame's
 * games (bench/replay.ts: the same seeds and moves) and, for every game that tops out, prints its last positions:
 * the piece, the preview, the move (mode, piece, rotation, x, y, lines) and the board before it with the move's
 * piece drawn in as its letter, top row first ('#' filled, '.' empty). Writes bench/results/game-deaths.json (each
 * top-out's game, piece count and last moves).
 *
 *   npx tsx bench/game-deaths.ts [--rules classic] [--randomizer tgm1] [--lookahead 1] [--games 20]
 *                                [--first-game 0] [--max-pieces 500000] [--seed 1] [--last 30]
 *
 * Games are independent: split a long run over processes with --first-game and --games.
 */
import { drawPlacement } from '../src/cli/analyze.js';
import type { GameMove } from '../src/tetris-ai/decision.js';
import { BOARD_MAX_HEIGHT, Board } from '../src/rules/board.js';
import { benchArgs, machine, writeResults } from './common.js';
import { type PlayedTurn, REPLAY_OPTIONS, replayGame, replaySetup } from './replay.js';

const { values: args } = benchArgs(import.meta.url, {
  ...REPLAY_OPTIONS,
  'first-game': { type: 'string', default: '0' },
  'max-pieces': { type: 'string', default: '500000' },
  last: { type: 'string', default: '30' },
});
const { rules, randomizer, lookahead, hold, ai } = await replaySetup(args);
const last = Number(args.last);
const width = ai.width;

/** The board before a move with the move's piece drawn in (its letter), as `stackrank analyze` draws placements. */
function drawBoard(rows: Uint32Array, move: GameMove | null = null): string {
  // The game's work rows reach above any board; a game ends before a cell passes BOARD_MAX_HEIGHT.
  return drawPlacement(Board.fromBits(rows.subarray(0, BOARD_MAX_HEIGHT), width), move).join('\n');
}

function describeTurn(t: PlayedTurn): string {
  const m = t.move;
  const move = m
    ? `${m.mode} ${m.hold ? 'hold, ' : ''}${m.piece} ${m.rotation} x${m.x} y${m.y}, ${m.linesCleared} lines`
    : 'no move (top-out)';
  return `piece ${t.n}: ${t.current} [${t.queue.join('')}]${t.hold ? ` hold ${t.hold}` : ''} -> ${move}`;
}

const deaths: { game: number; pieces: number; lastMoves: string[] }[] = [];
const first = Number(args['first-game']);
for (let g = first; g < first + Number(args.games); g++) {
  const recent: PlayedTurn[] = [];
  const game = await replayGame(
    { ai, randomizer, lookahead, hold, seed: Number(args.seed), game: g, maxPieces: Number(args['max-pieces']) },
    (turn) => {
      recent.push(turn);
      if (recent.length > last) recent.shift();
    },
  );
  console.log(`game ${g}: ${game.pieces.toLocaleString('en-US')} pieces${game.topOut ? ', topped out' : ''}`);
  if (!game.topOut) continue;
  for (const t of recent) console.log(`${describeTurn(t)}\n${drawBoard(t.before, t.move)}\n`);
  const end = recent[recent.length - 1];
  if (end.move) console.log(`after the last move:\n${drawBoard(end.after)}\n`);
  deaths.push({ game: g, pieces: game.pieces, lastMoves: recent.map(describeTurn) });
}
console.log(`${deaths.length} top-outs in ${args.games} games`);
writeResults('game-deaths', {
  machine: machine(),
  rules,
  randomizer,
  lookahead,
  seed: Number(args.seed),
  firstGame: first,
  games: Number(args.games),
  maxPieces: Number(args['max-pieces']),
  deaths,
});
