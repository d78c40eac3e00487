/**
 * A game's own loop (docs/game.md, "Sessions"): the AI plays the pieces of the game's own randomizer stream from the
 * board, current piece, queue and hold a game shows, the README's loop (Board.place, a top-out when nothing fits or a
 * cell stays over the 20-row field), and never gets `next`. Three players over the same pieces:
 *   session    game.nextMove through ai.newGame(): the session infers the randomizer's chances from the pieces
 *   stateless  ai.nextMove without next: uniform chances (what a game loop played before sessions)
 *   simulator  playGame, which hands the AI its own randomizer's distribution() (the benchmark's figure)
 * Game g's pieces come from gameRandomizer(randomizer, seed, g), playGame's stream, so
 * the session and the simulator play the same games. Prints the table, writes bench/results/<out>.json.
 *
 *   npx tsx bench/session-loop.ts [--rules classic] [--randomizer tgm1] [--lookahead 1] [--games 10]
 *                                 [--max-pieces 10000] [--seed 1] [--players session,stateless,simulator]
 *                                 [--out session-loop]
 */
import { TetrisAI } from '../src/tetris-ai/ai.js';
import { tetrisRateInterval } from '../src/tetris-ai/intervals.js';
import { playGame } from '../src/tetris-ai/play.js';
import { gameRandomizer } from '../src/tetris-ai/game-simulator.js';
import type { Piece } from '../src/pieces.js';
import type { RandomizerName } from '../src/randomizers/index.js';
import { Board } from '../src/rules/board.js';
import type { RuleSetName } from '../src/rules/types.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  rules: { type: 'string', default: 'classic' },
  randomizer: { type: 'string', default: 'tgm1' },
  lookahead: { type: 'string', default: '1' },
  games: { type: 'string', default: '10' },
  'max-pieces': { type: 'string', default: '10000' },
  seed: { type: 'string', default: '1' },
  players: { type: 'string', default: 'session,stateless,simulator' },
  out: { type: 'string', default: 'session-loop' },
});

const rules = args.rules as RuleSetName;
const randomizer = args.randomizer as RandomizerName;
const lookahead = Number(args.lookahead);
const games = Number(args.games);
const maxPieces = Number(args['max-pieces']);
const seed = Number(args.seed);

interface Tally {
  pieces: number;
  lines: number;
  clears: [number, number, number, number];
  topOut: boolean;
}

const ai = await TetrisAI.create({ rules, lookahead, randomizer });
const hold = ai.rules.hold;

/** One game as a game's own loop plays it: its board, its queue of `lookahead` pieces, its hold box. */
function loopGame(g: number, move: (state: Parameters<TetrisAI['nextMove']>[0]) => ReturnType<TetrisAI['nextMove']>) {
  const pieces = gameRandomizer(randomizer, seed, g);
  let board = Board.empty(10, 40);
  const queue = pieces.take(lookahead + 1).split('') as Piece[];
  let current = queue.shift()!;
  let held: Piece | null = null;
  const t: Tally = { pieces: 0, lines: 0, clears: [0, 0, 0, 0], topOut: false };
  while (t.pieces < maxPieces) {
    const m = move({ board, current, queue, hold: held, canHold: hold });
    if (!m) {
      t.topOut = true;
      break;
    }
    if (m.hold) {
      const box = held;
      held = current;
      current = box ?? queue.shift()!;
      while (queue.length < lookahead) queue.push(pieces.next());
    }
    const placed = board.place(m.cells);
    board = placed.board;
    t.pieces++;
    if (placed.lines > 0) {
      t.lines += placed.lines;
      t.clears[placed.lines - 1]++;
    }
    if (Math.max(...board.heights()) > 20) {
      t.topOut = true;
      break;
    }
    queue.push(pieces.next());
    current = queue.shift()!;
  }
  return t;
}

function summary(player: string, tallies: Tally[], seconds: number) {
  const sum = (f: (t: Tally) => number) => tallies.reduce((s, t) => s + f(t), 0);
  const pieces = sum((t) => t.pieces);
  const lines = sum((t) => t.lines);
  const tetrises = sum((t) => t.clears[3]);
  const ci = tetrisRateInterval(tallies.map((t) => ({ lines: t.lines, tetrisLines: 4 * t.clears[3] })));
  return {
    player,
    pieces,
    lines,
    tetrisRate: lines > 0 ? (4 * tetrises) / lines : 0,
    tetrisRateCi95: ci,
    clears: [0, 1, 2, 3].map((k) => sum((t) => t.clears[k])),
    topOuts: sum((t) => (t.topOut ? 1 : 0)),
    piecesPerSecond: pieces / seconds,
    gamePieces: tallies.map((t) => t.pieces),
  };
}

const results: ReturnType<typeof summary>[] = [];
for (const player of args.players!.split(',')) {
  const t0 = performance.now();
  let tallies: Tally[];
  if (player === 'simulator') {
    const r = await playGame({ rules, randomizer, lookahead, hold, games, maxPieces, seed, threads: 1, ai });
    tallies = r.tallies.map((t) => ({ pieces: t.pieces, lines: t.lines, clears: t.clears, topOut: t.topOut }));
  } else if (player === 'session' || player === 'stateless') {
    tallies = [];
    for (let g = 0; g < games; g++) {
      const game = ai.newGame();
      tallies.push(loopGame(g, player === 'session' ? (s) => game.nextMove(s) : (s) => ai.nextMove(s)));
      console.error(`${player} game ${g}: ${tallies[g].pieces} pieces${tallies[g].topOut ? ', top-out' : ''}`);
    }
  } else throw new Error(`unknown player ${player}; players are session, stateless, simulator`);
  results.push(summary(player, tallies, (performance.now() - t0) / 1000));
}

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
printTable(
  results.map((r) => ({
    player: r.player,
    pieces: r.pieces,
    lines: r.lines,
    'Tetris rate (95 % interval)': `${pct(r.tetrisRate)} (${r.tetrisRateCi95 ? r.tetrisRateCi95.map(pct).join('–') : '-'})`,
    'clears 1/2/3/4': r.clears.join('/'),
    'top-outs': r.topOuts,
    'pieces/s': Math.round(r.piecesPerSecond),
  })),
);
console.log(`results: ${writeResults(args.out!, { machine: machine(), args, rules, randomizer, lookahead, results })}`);
