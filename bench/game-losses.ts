/**
 * Where TetrisAI's Tetris rate is lost (bench/notes/results.md, "Where the Tetris rate is lost"): plays the same games as
 * playGame (same seeds, same queue and next-piece chances) and labels every clear that is not a Tetris by the mode
 * that made it and, in recover mode, by what started the recovery: the stack had no move for the piece
 * (`stack had no move`), a tall stack with no I in sight (`burn`), or a stack move that opened a buried hole or left
 * a floor higher than the AI stacks over (`stack move`). Prints a table, the mean cells on the board before each
 * Tetris and when a burn starts a recovery (the stack's room before it burns), the moves made on a clean stack by the
 * floor it stood on, the non-Tetris lines each burn's recovery cost, what each I piece made, and the cells on the
 * board when a stack turns Tetris-ready; writes bench/results/game-losses.json.
 *
 *   npx tsx bench/game-losses.ts [--rules classic] [--randomizer tgm1] [--lookahead 1] [--games 20]
 *                                [--max-pieces 5000] [--seed 1]
 */
import { burnsRows, maxFloorFor, stackSearchSetup, wellSides } from '../src/tetris-ai/policy.js';
import { popcount } from '../src/board-rows.js';
import { stackFloor } from '../src/tetris-ai/grid.js';
import { isTetrisReady, stackSurfaces } from '../src/tetris-ai/stack.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import { REPLAY_OPTIONS, replayGame, replaySetup } from './replay.js';

const { values: args } = benchArgs(import.meta.url, {
  ...REPLAY_OPTIONS,
  'max-pieces': { type: 'string', default: '5000' },
});
const { rules, randomizer, lookahead, hold, ai } = await replaySetup(args);
const width = ai.width;
// The AI's stack limit, read only to label burns as ai.ts decides them (a tall stack, no I known).
const stackLimit = stackSearchSetup(ai.rules, randomizer, 'both').stacking.boardHeight;

/** A board stack mode plays: a clean stack over a floor it takes, with the well on a side the AI plays. */
const maxFloor = maxFloorFor(ai.rules.ruleSet);
const wellColumns = wellSides(ai.well).map((side) => (side === 'right' ? width - 1 : 0));
const stackable = (rows: Uint32Array) => floorOf(rows) >= 0;
/** The lowest floor stack mode plays this board over (on a side it plays), or -1 when it plays none. */
function floorOf(rows: Uint32Array): number {
  let lowest = -1;
  for (const column of wellColumns) {
    const floor = stackFloor(rows, width, column);
    if (floor >= 0 && floor <= maxFloor && (lowest < 0 || floor < lowest)) lowest = floor;
  }
  return lowest;
}

const lost = new Map<string, number>();
const add = (key: string, n: number) => lost.set(key, (lost.get(key) ?? 0) + n);
let pieces = 0;
let lines = 0;
let topOuts = 0;
let recoveries = 0;
let recoveryPieces = 0;
// Cells on the board before each Tetris and when a burn starts a recovery: how much room the stack had left
// (bench/notes/results.md, "The strength targets with 95 % intervals, and what the I droughts allow").
const cellsOf = (rows: Uint32Array) => rows.reduce((n, m) => n + popcount(m), 0);
let tetrises = 0;
let cellsBeforeTetrises = 0;
let burnStarts = 0;
let cellsAtBurnStarts = 0;
// Moves made on a clean stack, by the floor it stood on (bench/notes/results.md, "Floors of at most 2 rows"), and the
// non-Tetris lines of each burn's recovery, from the burn to the clean stack it hands back.
const movesByFloor = new Array<number>(maxFloor + 1).fill(0);
const burnCosts: number[] = [];
// What each I piece placed did (the one piece that makes a Tetris), and the cells on the board when a stack turns
// Tetris-ready (its lowest column reaches four rows; a flat stack would hold flatReady cells): how much of the room the
// stack's unevenness takes before it can wait for an I at all.
const sides = wellSides(ai.well);
const tetrisReady = (rows: Uint32Array) =>
  stackSurfaces(rows, width, sides).some((s) => s.floor <= maxFloor && isTetrisReady(s));
const flatReady = (width - 1) * 4;
const iPieces = new Map<string, number>();
let readyTurns = 0;
let cellsAtReady = 0;
for (let g = 0; g < Number(args.games); g++) {
  let start = '';
  let burnCost = -1;
  const game = await replayGame(
    { ai, randomizer, lookahead, hold, seed: Number(args.seed), game: g, maxPieces: Number(args['max-pieces']) },
    ({ before: rows, after, current, queue, hold: held, move, lines: cleared }) => {
      if (!move) return;
      const floor = floorOf(rows);
      const wasStack = floor >= 0;
      if (wasStack) movesByFloor[floor]++;
      const burning = burnsRows(rows, stackLimit, [current, ...queue, held]);
      const cellsBefore = cellsOf(rows);
      if (cleared === 4) {
        tetrises++;
        cellsBeforeTetrises += cellsBefore;
      }
      pieces++;
      lines += cleared;
      if (wasStack && !stackable(after)) {
        recoveries++;
        start = move.mode === 'stack' ? 'stack move' : burning ? 'burn' : 'stack had no move';
        if (start === 'burn') {
          burnStarts++;
          cellsAtBurnStarts += cellsBefore;
          burnCost = 0;
        }
      }
      if (burnCost >= 0 && cleared < 4) burnCost += cleared;
      if (burnCost >= 0 && stackable(after)) {
        burnCosts.push(burnCost);
        burnCost = -1;
      }
      if (!wasStack) recoveryPieces++;
      if (move.piece === 'I') {
        const what =
          cleared === 4
            ? 'a Tetris'
            : cleared > 0
              ? `a smaller clear, ${move.mode} mode`
              : move.mode === 'recover'
                ? 'no clear, recover mode'
                : tetrisReady(rows)
                  ? 'no clear, stack Tetris-ready'
                  : 'no clear, stack not yet Tetris-ready';
        iPieces.set(what, (iPieces.get(what) ?? 0) + 1);
      }
      if (tetrisReady(after) && !tetrisReady(rows)) {
        readyTurns++;
        cellsAtReady += cellsOf(after);
      }
      if (cleared > 0 && cleared < 4) {
        add(
          move.mode === 'stack'
            ? 'stack mode (smaller clears)'
            : wasStack
              ? // a recover move on a clean stack: a burn, or the stack had no move for the piece
                `recover, ${burning ? 'burn' : 'stack had no move'}`
              : `recovery after: ${start}`,
          cleared,
        );
      }
    },
  );
  if (game.topOut) topOuts++;
}

const table = [...lost]
  .sort((a, b) => b[1] - a[1])
  .map(([where, n]) => ({
    'non-Tetris lines made in': where,
    lines: n,
    'share of all lines': `${((100 * n) / lines).toFixed(2)} %`,
  }));
console.log(
  `${rules}/${randomizer}, lookahead ${lookahead}: ${pieces.toLocaleString('en-US')} pieces, ${lines.toLocaleString('en-US')} lines, ${topOuts} top-outs, ${recoveries} recoveries (${recoveryPieces.toLocaleString('en-US')} pieces in recover mode)`,
);
printTable(table);
console.log(
  `board cells before a Tetris: ${(cellsBeforeTetrises / tetrises).toFixed(1)} (${tetrises} Tetrises); when a burn starts a recovery: ${(cellsAtBurnStarts / burnStarts).toFixed(1)} (${burnStarts} burns)`,
);
const iCount = [...iPieces.values()].reduce((a, b) => a + b, 0);
printTable(
  [...iPieces]
    .sort((a, b) => b[1] - a[1])
    .map(([what, n]) => ({
      'I pieces made': what,
      pieces: n,
      'share of I pieces': `${((100 * n) / iCount).toFixed(1)} %`,
    })),
);
console.log(
  `board cells when a stack turns Tetris-ready: ${(cellsAtReady / readyTurns).toFixed(1)} (${readyTurns} times; a flat stack: ${flatReady})`,
);
burnCosts.sort((a, b) => a - b);
const cheapBurns = burnCosts.filter((n) => n <= 4).length;
console.log(
  `moves on a clean stack by its floor (0..${maxFloor} rows): ${movesByFloor.map((n) => n.toLocaleString('en-US')).join(' / ')}; on other boards: ${(pieces - movesByFloor.reduce((a, b) => a + b, 0)).toLocaleString('en-US')}`,
);
console.log(
  `non-Tetris lines per burn's recovery (${burnCosts.length} ended): mean ${(burnCosts.reduce((a, b) => a + b, 0) / burnCosts.length).toFixed(1)}, median ${burnCosts[burnCosts.length >> 1]}, at most 4 in ${cheapBurns}, most ${burnCosts.at(-1)}`,
);
writeResults('game-losses', {
  machine: machine(),
  rules,
  randomizer,
  lookahead,
  games: Number(args.games),
  maxPieces: Number(args['max-pieces']),
  seed: Number(args.seed),
  pieces,
  lines,
  topOuts,
  recoveries,
  recoveryPieces,
  meanCellsBeforeTetris: cellsBeforeTetrises / tetrises,
  burnRecoveries: burnStarts,
  meanCellsAtBurn: cellsAtBurnStarts / burnStarts,
  lost: Object.fromEntries(lost),
  movesByFloor,
  burnCosts,
  iPieces: Object.fromEntries(iPieces),
  meanCellsWhenTetrisReady: cellsAtReady / readyTurns,
});
