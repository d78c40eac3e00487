/**
 * What a randomizer's I droughts alone allow (bench/notes/results.md, "The strength targets with 95 % intervals, and what
 * the I droughts allow"): a piece-count model of Tetris stacking with no board. Every non-I piece adds 4 cells to
 * the stack; an I takes a Tetris (removes 36 cells: its own 4 and 4 rows of 9 stack cells) when the stack holds at
 * least 36 cells, else it adds 4 cells too; when the stack holds more than the burn point, rows are burnt (one
 * non-Tetris line per 9 cells) until it fits. Burns cost exactly the overflow and nothing else, so the Tetris rate
 * printed is an upper bound for an AI with that much room between its stack before a Tetris (the mean cells it
 * holds when an I takes one) and the burn point, under that randomizer's pieces.
 * Also prints the gaps between I pieces (mean and percentiles, from analyzeRandomizer's droughts: only gaps between
 * two I pieces count, not the wait before the first). Prints two tables.
 *
 * --ready-cells lists the cells from which an I makes a Tetris (default 36, a flat stack); --capacities the burn
 * points.
 *
 *   npx tsx bench/drought-bound.ts [--randomizers nes,tgm1] [--pieces 300000] [--seed 9] [--ready-cells 36]
 *                                  [--capacities 45,54,…,144]
 */
import { pieceId } from '../src/pieces.js';
import { analyzeRandomizer } from '../src/randomizers/analyze.js';
import { createRandomizer, type RandomizerName } from '../src/randomizers/index.js';
import { benchArgs, printTable } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  randomizers: { type: 'string', default: 'nes,tgm1' },
  pieces: { type: 'string', default: '300000' },
  seed: { type: 'string', default: '9' },
  // The cells a stack holds when it turns Tetris-ready: 36 for a flat one; an uneven one holds more (the real AI's
  // are measured by bench/game-losses.ts), and an I then makes a Tetris only from that many cells.
  'ready-cells': { type: 'string', default: '36' },
  capacities: { type: 'string', default: '45,54,63,72,81,90,108,126,144' },
});
/** Burn points: the stack burns when it holds more than this many cells (default 5 to 16 rows of 9). */
const CAPACITIES = (args.capacities as string).split(',').map(Number);
const READY_CELLS = (args['ready-cells'] as string).split(',').map(Number);
const names = (args.randomizers as string).split(',') as RandomizerName[];
const pieces = Number(args.pieces);
const seed = Number(args.seed);

const bounds = names.flatMap((name) =>
  READY_CELLS.flatMap((ready) =>
    CAPACITIES.map((capacity) => {
      const rng = createRandomizer(name, { seed });
      let cells = 0;
      let tetrisLines = 0;
      let burnt = 0;
      let cellsBeforeTetrises = 0;
      for (let i = 0; i < pieces; i++) {
        if (rng.next() === 'I' && cells >= ready) {
          cellsBeforeTetrises += cells;
          cells -= 36;
          tetrisLines += 4;
          continue;
        }
        cells += 4;
        while (cells > capacity) {
          cells -= 9;
          burnt++;
        }
      }
      const before = cellsBeforeTetrises / (tetrisLines / 4);
      return {
        randomizer: name,
        'ready from (cells)': ready,
        'burns above (cells)': capacity,
        'cells before a Tetris (mean)': before.toFixed(1),
        'room (cells)': (capacity - before).toFixed(1),
        'Tetris rate': `${((100 * tetrisLines) / (tetrisLines + burnt)).toFixed(1)} %`,
      };
    }),
  ),
);
console.log('Tetris rate with burns costing exactly the overflow, by where the stack burns:');
printTable(bounds);

const I = pieceId('I');
const gaps = names.map((name) => {
  // droughts[I].histogram[d] counts the gaps with d other pieces between two I pieces; a gap here is d + 1 pieces.
  const { histogram, mean } = analyzeRandomizer(name, { pieces, seed }).droughts[I];
  const total = histogram.reduce((a, b) => a + b, 0);
  const at = (q: number) => {
    const rank = Math.min(total - 1, Math.floor(q * total));
    let seen = 0;
    for (let d = 0; d < histogram.length; d++) {
      seen += histogram[d];
      if (seen > rank) return d + 1;
    }
    return histogram.length;
  };
  return {
    randomizer: name,
    'mean gap': (mean + 1).toFixed(1),
    median: at(0.5),
    '90th': at(0.9),
    '99th': at(0.99),
    '99.9th': at(0.999),
    longest: histogram.length,
  };
});
console.log('Pieces from one I to the next (1 = two I pieces in a row):');
printTable(gaps);
