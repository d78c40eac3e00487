/**
 * The real-game table for bench/notes/results.md: TetrisAI beside its two baselines (the stacking-only AI, ending at its
 * first null, and the full-board BCTS player with the same preview and hold), per target row of rules,
 * randomizer, lookahead and hold. Writes bench/results/game.json.
 *
 *   npx tsx bench/game.ts [--rows all|classic,nes,guideline,tgm20g] [--games 2] [--max-pieces 2000]
 *                         [--baseline-pieces 1000] [--seed 1] [--players both,stackOnly,fullBoardOnly] [--out game]
 */
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import { RULE_SETS } from '../src/rules/rule-sets.js';
import type { RandomizerName } from '../src/randomizers/index.js';
import type { RuleSetName } from '../src/rules/types.js';
import { benchGame } from '../src/tetris-ai/bench.js';
import type { GamePolicy } from '../src/tetris-ai/ai.js';
import type { PlayGameResult } from '../src/tetris-ai/game-results.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  rows: { type: 'string', default: 'classic,nes,guideline,tgm20g' },
  games: { type: 'string', default: '2' },
  'max-pieces': { type: 'string', default: '2000' },
  'baseline-pieces': { type: 'string', default: '1000' },
  seed: { type: 'string', default: '1' },
  players: { type: 'string', default: 'both,stackOnly,fullBoardOnly' },
  out: { type: 'string', default: 'game' },
});

/** The target rows of bench/notes/results.md ("Real games"): rules, randomizer, lookahead, hold, and what each aims at. */
const TARGETS: Record<
  string,
  { rules: RuleSetName; randomizer: RandomizerName; lookahead: number; hold: boolean; target: string }
> = {
  classic: {
    rules: 'classic',
    randomizer: 'tgm1',
    lookahead: 1,
    hold: false,
    target: 'Tetris rate >= 95 %, 0 top-outs in 10 M',
  },
  // the nes row plays the timing-free model its targets were set for (NES with time: stackrank bench nes)
  nes: {
    rules: 'nesUntimed',
    randomizer: 'nes',
    lookahead: 1,
    hold: false,
    target: 'Tetris rate >= 90 %, 0 top-outs in 10 M',
  },
  guideline: {
    rules: 'guideline',
    randomizer: 'bag7',
    lookahead: 5,
    hold: true,
    target: 'Tetris rate >= 98 %, 0 top-outs in 10 M',
  },
  tgm20g: { rules: 'tgm20g', randomizer: 'tgm1', lookahead: 1, hold: false, target: 'report' },
};
const NAMES: Record<GamePolicy, string> = {
  both: 'TetrisAI',
  stackOnly: 'stacking only',
  fullBoardOnly: 'full-board bcts',
};

const { table } = await loadOrBuildCachedTable();
// A 20G rule set ranks its stack with the 20G table (TetrisAI's default there, docs/game.md), loaded when a row needs it.
let table20G: typeof table | undefined;
const tableFor = async (rules: RuleSetName) =>
  RULE_SETS[rules].gravity === '20G' ? (table20G ??= (await loadOrBuildCachedTable({ gravity: '20G' })).table) : table;
const players = args.players!.split(',') as GamePolicy[];
const printed: Record<string, string | number>[] = [];
const raw: unknown[] = [];
for (const key of args.rows!.split(',')) {
  const t = TARGETS[key];
  if (!t) throw new Error(`unknown row ${key}; rows are ${Object.keys(TARGETS).join(', ')}`);
  for (const player of players) {
    // Baselines get their own (smaller) budget: the full-board player runs a TypeScript search on every move.
    const maxPieces = Number(player === 'both' ? args['max-pieces'] : args['baseline-pieces']);
    const r = (
      await benchGame({
        ...t,
        games: Number(args.games),
        maxPieces,
        seed: Number(args.seed),
        table: await tableFor(t.rules),
        players: [player],
      })
    )[player] as PlayGameResult;
    printed.push({
      'rules, randomizer, lookahead, hold': `${t.rules}, ${t.randomizer}, ${t.lookahead}, ${t.hold ? 'hold' : 'no'}`,
      player: NAMES[player],
      pieces: r.pieces,
      lines: r.lines,
      'Tetris rate': `${(100 * r.tetrisRate).toFixed(1)} %`,
      'clears 1/2/3/4': `${r.clears.single}/${r.clears.double}/${r.clears.triple}/${r.clears.tetris}`,
      'top-outs': r.topOuts,
      'stack share': `${(100 * r.stackShare).toFixed(1)} %`,
      'holes / 1000': Math.round(r.holesPer1000 * 10) / 10,
      'pieces/s (1 thread)': Math.round(r.piecesPerSecond),
    });
    raw.push({ row: key, target: t.target, player, ...r });
    console.error(
      `${key} ${NAMES[player]}: ${r.pieces} pieces, ${r.topOuts} top-outs, ${(100 * r.tetrisRate).toFixed(1)} % Tetris`,
    );
  }
}
printTable(printed);
console.log(`results: ${writeResults(args.out!, { machine: machine(), args, rows: raw })}`);
