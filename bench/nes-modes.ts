/**
 * How the competition format's pieces are played, by level band (bench/notes/nes.md, "Who plays 29–38"): replays
 * `stackrank bench nes`'s games (playOneGame, the loop playGame runs: the same seeds and moves) and counts which mode
 * placed each piece, the board each I piece came to (a clean stack Tetris-ready for its well, one still building,
 * one over a floor of buried rows, or no clean stack) and the Tetrises those made, the boards stack mode handed to
 * recover mode, and how long recover mode kept the game then. Prints two tables; writes
 * bench/results/nes-modes.json.
 *
 *   npx tsx bench/nes-modes.ts [--games 100] [--seed 1]
 */
import { NES_LEVEL_BANDS } from '../src/tetris-ai/nes-stats.js';
import { type PlayedTurn, playOneGame } from '../src/tetris-ai/game-simulator.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import { BOARD_KINDS, emptyTallies, tallyGame } from './nes-modes-tally.js';
import { competitionReplay } from './nes-replay.js';

const { values: args } = benchArgs(import.meta.url, {
  games: { type: 'string', default: '100' },
  seed: { type: 'string', default: '1' },
});
const games = Number(args.games);
const seed = Number(args.seed);
const { ai, settings } = await competitionReplay(seed);
const tallies = emptyTallies();
for (let game = 0; game < games; game++) {
  const turns: PlayedTurn[] = [];
  await playOneGame(ai, game, settings, { onTurn: (turn) => turns.push(turn) });
  tallyGame(tallies, turns, ai.width);
}

const share = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);
const sum = (r: Record<string, number>) => Object.values(r).reduce((s, x) => s + x, 0);
const pieces = tallies.map((t, b) => {
  const iAll = sum(t.iPieces);
  return {
    band: NES_LEVEL_BANDS[b].label,
    pieces: t.pieces,
    'by stack mode': share(t.modes.stack ?? 0, t.pieces),
    'by recover mode': share(t.modes.recover ?? 0, t.pieces),
    'I pieces': iAll,
    ...Object.fromEntries(
      BOARD_KINDS.map((k) => [
        `I to ${k} (Tetrises)`,
        `${share(t.iPieces[k], iAll)} (${t.iTetrises[k].toLocaleString('en-US')})`,
      ]),
    ),
  };
});
const handoffs = tallies.map((t, b) => {
  const runs = t.recoverRuns;
  const all = sum(t.handoffs);
  return {
    band: NES_LEVEL_BANDS[b].label,
    'stack → recover': all,
    ...Object.fromEntries(BOARD_KINDS.map((k) => [`given ${k}`, share(t.handoffs[k], all)])),
    'recover runs': runs.length,
    'mean run (pieces)': runs.length ? runs.reduce((s, x) => s + x, 0) / runs.length : 0,
    'runs of 20+': share(runs.filter((x) => x >= 20).length, runs.length),
  };
});
console.log(`${games} games of the competition format, seed ${seed}: the pieces by level band`);
printTable(pieces);
console.log(
  "\nstack mode handing the game to recover mode, and recover mode's runs (counted in the band they start in)",
);
printTable(handoffs);
// Each band's counts, its recover runs as a histogram (run length: how many).
const counts = tallies.map(({ recoverRuns, ...rest }, b) => {
  const runLengths: Record<number, number> = {};
  for (const length of recoverRuns) runLengths[length] = (runLengths[length] ?? 0) + 1;
  return { band: NES_LEVEL_BANDS[b].label, ...rest, runLengths };
});
writeResults('nes-modes', { machine: machine(), seed, games, pieces, handoffs, counts });
