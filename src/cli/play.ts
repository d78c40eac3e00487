/** `stackrank play`: watch the stacking AI play in the terminal until the stack breaks or Ctrl-C. */
import { sliceClock, yieldToEventLoop } from '../errors.js';
import { createRandomizer } from '../randomizers/index.js';
import { YIELD_EVERY_MS } from '../slices.js';
import { StackingAI } from '../stacking-ai/ai.js';
import { STEEP_RULES } from '../stacking-ai/rules.js';
import { TABLE_SOURCE, lookaheadOption, randomizerOption, seedOption } from './options.js';
import { defineCommand } from './spec.js';
import { loadTableForCli } from './table-source.js';

/** Frame delay on a terminal; elsewhere (pipes, tests) the game runs flat out. */
const TTY_DELAY_MS = 30;

/** The board as text rows, top first: filled stack cells, empty cells and the well column on the right. */
export function drawBoard(heights: readonly number[], rows: number): string[] {
  const lines: string[] = [];
  for (let r = rows - 1; r >= 0; r--) lines.push('|' + heights.map((h) => (h > r ? '[]' : ' .')).join('') + '|  |');
  lines.push('+' + '--'.repeat(heights.length) + '+--+');
  return lines;
}

export const playCommand = defineCommand({
  path: 'play',
  summary: 'watch the stacking AI play in the terminal',
  description: `Draws the stack (W columns plus the well) after every move with live counters, until the stack breaks,
--max-pieces or Ctrl-C (exit code 130).`,
  options: {
    lookahead: lookaheadOption(1),
    randomizer: randomizerOption('tgm1'),
    seed: seedOption(0),
    steep: {
      type: 'choice',
      choices: STEEP_RULES,
      help: 'how steps steeper than the max step are judged',
      defaultHelp: "the AI's default rules",
    },
    delay: {
      type: 'int',
      min: 0,
      max: 10_000,
      arg: 'MS',
      help: 'pause after each move',
      defaultHelp: `${TTY_DELAY_MS} on a terminal, else 0`,
    },
    maxPieces: {
      type: 'int',
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
      help: 'stop after this many pieces',
      defaultHelp: 'no limit',
    },
    ...TABLE_SOURCE,
  },
  async run({ values, given }, io) {
    const { lookahead, randomizer, seed, steep } = values;
    const delay = values.delay ?? (io.isTTY ? TTY_DELAY_MS : 0);
    const maxPieces = values.maxPieces ?? Number.MAX_SAFE_INTEGER;
    const table = await loadTableForCli(values, given, io);
    const ai = await StackingAI.create({ table, stacking: steep ? { steep } : undefined, signal: io.signal });
    const rng = createRandomizer(randomizer, { seed });
    const queue: string[] = [];
    const refill = () => {
      while (queue.length < lookahead + 6) queue.push(rng.next());
    };
    let heights = new Array<number>(table.width).fill(0);
    let pieces = 0;
    let tetrises = 0;
    let rank = 0;
    const started = performance.now();
    const draw = (final: boolean) => {
      const rate = pieces / Math.max(1e-3, (performance.now() - started) / 1000);
      const status = `pieces ${pieces}  tetrises ${tetrises}  rank ${rank.toFixed(4)}  ${Math.round(rate)} pieces/s  next ${queue.slice(1, 6).join('')}`;
      if (io.isTTY && !values.json)
        io.out('\x1b[H\x1b[2J' + drawBoard(heights, ai.stacking.boardHeight).join('\n') + '\n' + status);
      else if (final && !values.json) io.out(drawBoard(heights, ai.stacking.boardHeight).join('\n') + '\n' + status);
    };
    refill();
    let ended = 'stopped';
    const due = sliceClock(YIELD_EVERY_MS);
    while (pieces < maxPieces) {
      if (io.signal?.aborted) {
        ended = 'interrupted';
        break;
      }
      const move = ai.bestPlacement(heights, queue.slice(0, lookahead + 1), lookahead);
      if (!move) {
        ended = `no hole-free place for ${queue[0]}: the perfect stack breaks`;
        break;
      }
      heights = move.heights;
      rank = move.rank;
      pieces++;
      if (move.tetris) tetrises++;
      queue.shift();
      refill();
      draw(false);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      // Give the event loop a turn so Ctrl-C is seen even when the game runs flat out.
      else if (due()) await yieldToEventLoop();
    }
    if (pieces >= maxPieces) ended = 'reached --max-pieces';
    draw(true);
    if (values.json) io.out(JSON.stringify({ pieces, tetrises, heights, lookahead, randomizer, seed, ended }));
    else io.out(`game over after ${pieces} pieces (${ended})`);
    return io.signal?.aborted ? 130 : 0;
  },
});
