/**
 * Strength levels (docs/game.md, "Strength"): each level of TetrisAI.create({ strength }) plays the same games
 * (playGame's games, one after another on this thread: the run's seed seeds both the pieces and the level's
 * choices). Per level: lines survived (lines per game, a game ending at its top-out or at --max-pieces), Tetris
 * rate, top-outs, and attack per piece (the lines its clears send under the rule set's attack table, combo and
 * back-to-back counted through the game, docs/rules.md "Versus"; the AI is not told the counters, as in playGame),
 * with 95 % intervals (games as the unit), and whether each level is separated from the one below by its intervals
 * (lines, Tetris rate or attack). Prints the table, writes bench/results/<out>.json.
 *
 *   npx tsx bench/strength.ts [--rules guideline] [--randomizer bag7] [--lookahead 1] [--games 20]
 *                             [--max-pieces 1000] [--seed 1] [--levels 1-10] [--out strength]
 */
import { TetrisAI } from '../src/tetris-ai/ai.js';
import { playOneGame } from '../src/tetris-ai/game-simulator.js';
import { summarize, type PlayGameResult } from '../src/tetris-ai/game-results.js';
import type { GameTally } from '../src/tetris-ai/play-types.js';
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import type { RandomizerName } from '../src/randomizers/index.js';
import { lockOutcome, type VersusState } from '../src/rules/attack.js';
import type { RuleSetName } from '../src/rules/types.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  rules: { type: 'string', default: 'guideline' },
  randomizer: { type: 'string', default: 'bag7' },
  lookahead: { type: 'string', default: '1' },
  games: { type: 'string', default: '20' },
  'max-pieces': { type: 'string', default: '1000' },
  seed: { type: 'string', default: '1' },
  levels: { type: 'string', default: '1-10' },
  out: { type: 'string', default: 'strength' },
});

const [from, to] = args.levels!.split('-').map(Number);
const levels = Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
const rules = args.rules as RuleSetName;
const { table } = await loadOrBuildCachedTable({ gravity: rules === 'tgm20g' ? '20G' : 'drop' });

/** Mean and 95 % interval (normal approximation, games as the unit). */
function meanInterval(xs: number[]): { mean: number; ci95: [number, number] } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, n - 1));
  const half = (1.96 * sd) / Math.sqrt(n);
  return { mean, ci95: [mean - half, mean + half] };
}

interface Row {
  strength: number;
  result: PlayGameResult;
  lines: { mean: number; ci95: [number, number] };
  /** Attack per piece, the games' mean (null under a rule set without an attack table). */
  attack: { mean: number; ci95: [number, number] } | null;
}
const randomizer = args.randomizer as RandomizerName;
const lookahead = Number(args.lookahead);
const games = Number(args.games);
const maxPieces = Number(args['max-pieces']);
const seed = Number(args.seed);
const rows: Row[] = [];
for (const strength of levels) {
  // playGame's AI and settings for these games (src/tetris-ai/play.ts), so the games are its games.
  const ai = await TetrisAI.create({ rules, lookahead, randomizer, strength, seed, table });
  const attackTable = ai.rules.ruleSet.attack;
  const settings = { randomizer, lookahead, hold: ai.rules.hold, maxPieces, seed };
  const tallies: GameTally[] = [];
  const attacks: number[] = [];
  const t0 = performance.now();
  for (let g = 0; g < games; g++) {
    let versus: VersusState = { combo: 0, backToBack: 0 };
    let sent = 0;
    const tally = await playOneGame(ai, g, settings, {
      onTurn: ({ move }) => {
        if (!move || !attackTable) return;
        const lock = { lines: move.linesCleared, spin: move.spin, perfectClear: move.perfectClear };
        const outcome = lockOutcome(lock, versus, attackTable);
        sent += outcome.attack;
        versus = outcome.state;
      },
    });
    tallies.push(tally);
    attacks.push(tally.pieces > 0 ? sent / tally.pieces : 0);
  }
  const result = summarize(
    tallies,
    {
      rules,
      format: null,
      goal: 'survival',
      garbage: null,
      randomizer,
      lookahead,
      hold: settings.hold,
      policy: 'both',
      well: ai.well,
      stackRoom: null,
      holdPlies: ai.holdPlies,
      strength,
      playOuts: ai.playOuts,
      firstGame: 0,
      seed,
      threads: 1,
      maxPieces,
    },
    t0,
    null,
  );
  const lines = meanInterval(result.tallies.map((t) => t.lines));
  const attack = attackTable ? meanInterval(attacks) : null;
  rows.push({ strength, result, lines, attack });
  console.error(
    `strength ${strength}: ${lines.mean.toFixed(1)} lines/game, ${(100 * result.tetrisRate).toFixed(1)} % Tetris, ${result.topOuts} top-outs${attack ? `, ${attack.mean.toFixed(3)} attack/piece` : ''}`,
  );
}

const pct = (x: number) => (100 * x).toFixed(1);
/** Whether interval a lies wholly above interval b. */
const above = (a: [number, number] | null, b: [number, number] | null) => a !== null && b !== null && a[0] > b[1];
printTable(
  rows.map((r, i) => {
    const below = rows[i - 1];
    const separated =
      below === undefined
        ? '-'
        : [
            above(r.lines.ci95, below.lines.ci95) ? 'lines' : '',
            above(r.result.tetrisRateCi95, below.result.tetrisRateCi95) ? 'Tetris rate' : '',
            above(r.attack?.ci95 ?? null, below.attack?.ci95 ?? null) ? 'attack' : '',
          ]
            .filter(Boolean)
            .join(', ') || 'no';
    return {
      strength: r.strength,
      'lines / game (95 %)': `${r.lines.mean.toFixed(0)} (${r.lines.ci95.map((x) => x.toFixed(0)).join('–')})`,
      'Tetris rate (95 %)': `${pct(r.result.tetrisRate)} % (${r.result.tetrisRateCi95?.map(pct).join('–') ?? '-'})`,
      'top-outs': `${r.result.topOuts} / ${r.result.games}`,
      'attack / piece (95 %)': r.attack
        ? `${r.attack.mean.toFixed(3)} (${r.attack.ci95.map((x) => x.toFixed(3)).join('–')})`
        : '-',
      pieces: r.result.pieces,
      'pieces/s': Math.round(r.result.piecesPerSecond),
      'above the level below': separated,
    };
  }),
);
console.log(
  `results: ${writeResults(args.out!, {
    machine: machine(),
    args,
    levels: rows.map((r) => ({ linesPerGame: r.lines, attackPerPiece: r.attack, ...r.result })),
  })}`,
);
