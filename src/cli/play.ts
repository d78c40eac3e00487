/** `stackrank play`: watch the stacking AI play in the terminal until the stack breaks or Ctrl-C. */
import { createRandomizer } from '../randomizers/index.js';
import { StackingAI } from '../stacking/ai.js';
import { intOption, parse } from './args.js';
import type { CliIO } from './io.js';
import { randomizerOption, steepOption } from './survival.js';
import { loadTableForCli, tableOptions } from './table-source.js';

const USAGE = `usage: stackrank play [--lookahead N] [--randomizer tgm1] [--seed S] [--steep truncate|excessFirst|collapse]
                     [--delay MS] [--max-pieces N] [--table FILE] [--table-steep forbid|collapse] [--json]
  Draws the stack (W columns plus the well) after every move with live counters, until the stack breaks.`;

/** The board as text rows, top first: filled stack cells, empty cells and the well column on the right. */
export function drawBoard(heights: readonly number[], rows: number): string[] {
  const lines: string[] = [];
  for (let r = rows - 1; r >= 0; r--) lines.push('|' + heights.map((h) => (h > r ? '[]' : ' .')).join('') + '|  |');
  lines.push('+' + '--'.repeat(heights.length) + '+--+');
  return lines;
}

export async function playCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parse(
    argv,
    {
      lookahead: { type: 'string' },
      randomizer: { type: 'string' },
      seed: { type: 'string' },
      steep: { type: 'string' },
      delay: { type: 'string' },
      'max-pieces': { type: 'string' },
      ...tableOptions,
    },
    false,
  );
  if (values.help) return io.out(USAGE), 0;
  const lookahead = intOption('lookahead', values.lookahead, 1, 0, 6);
  const randomizer = randomizerOption(values.randomizer);
  const seed = intOption('seed', values.seed, 0, 0, 2 ** 32 - 1);
  const delay = intOption('delay', values.delay, io.isTTY ? 30 : 0, 0, 10_000);
  const maxPieces = intOption('max-pieces', values['max-pieces'], Number.MAX_SAFE_INTEGER, 1, Number.MAX_SAFE_INTEGER);
  const steep = steepOption(values.steep);
  const table = await loadTableForCli(values, io);
  const ai = await StackingAI.create({ table, rules: steep ? { steep } : undefined });
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
    if (io.isTTY && !values.json) io.out('\x1b[H\x1b[2J' + drawBoard(heights, ai.rules.boardHeight).join('\n') + '\n' + status);
    else if (final && !values.json) io.out(drawBoard(heights, ai.rules.boardHeight).join('\n') + '\n' + status);
  };
  refill();
  let ended = 'stopped';
  while (pieces < maxPieces) {
    if (io.signal?.aborted) break;
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
  }
  if (pieces >= maxPieces) ended = 'reached --max-pieces';
  draw(true);
  if (values.json) io.out(JSON.stringify({ pieces, tetrises, heights, lookahead, randomizer, seed, ended }));
  else io.out(`game over after ${pieces} pieces (${ended})`);
  return 0;
}
