/**
 * Fits the end-value table the play-outs end on (docs/game.md, "Play-outs") from the games
 * bench/nes-end-values-collect.ts recorded, and writes it as src/tetris-ai/nes-end-values.ts.
 *
 *   npx tsx bench/nes-end-values-collect.ts --seed 1000 --from 0 --to 500 --no-play-outs --out d1.jsonl
 *   npx tsx bench/nes-end-values-collect.ts --seed 1000 --from 500 --to 1000 --no-play-outs --out d2.jsonl
 *   node bench/nes-end-values-fit.mjs d1.jsonl d2.jsonl src/tetris-ai/nes-end-values.ts
 *
 * V(lines, height, holes), the points a turn expects from there to the game's end, is a mean by LINES (smoothed over
 * ±3 lines) plus a residual by (LINES / 10, height, holes up to 4). The residual is fitted by 40-step temporal
 * differences (the points of the next 40 turns plus V where they end; whole-game returns in the first round) over 5
 * rounds, each cell's mean shrunk toward its height's with a weight of 10 games, its height's toward 0 the same way.
 * The module keeps the LINES counts the play-outs can reach (below KEPT_LINES: a start-18 game's count at the end
 * of level 38, PLAY_OUTS.toLevel).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const STEPS = 40;
const ROUNDS = 5;
const SHRINK = 10;
const LINES = 440;
const KEPT_LINES = 330;
const HEIGHTS = 22;
const HOLES = 5;
const BANDS = LINES / 10;

const files = process.argv.slice(2, -1);
const out = process.argv.at(-1);
if (files.length === 0 || !out?.endsWith('.ts')) {
  console.error('usage: node bench/nes-end-values-fit.mjs games.jsonl [more.jsonl …] out.ts');
  process.exit(2);
}
const games = files.flatMap((f) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l)),
);

// the mean points to the game's end by LINES, smoothed over ±3 lines
const sum = new Float64Array(LINES);
const count = new Float64Array(LINES);
for (const g of games) {
  let rest = 0;
  const toEnd = [];
  for (let i = g.length - 1; i >= 0; i--) toEnd[i] = rest += g[i][3];
  for (let i = 0; i < g.length; i++) {
    const l = Math.min(LINES - 1, g[i][0]);
    sum[l] += toEnd[i];
    count[l]++;
  }
}
const byLines = new Float64Array(LINES);
for (let l = 0; l < LINES; l++) {
  let s = 0;
  let n = 0;
  for (let k = Math.max(0, l - 3); k <= Math.min(LINES - 1, l + 3); k++) {
    s += sum[k];
    n += count[k];
  }
  byLines[l] = n ? s / n : 0;
}

/** A turn's [cell, height cell, LINES]. */
function cellOf([lines, height, holes]) {
  const l = Math.min(LINES - 1, lines);
  const h = Math.floor(l / 10) * HEIGHTS + Math.min(HEIGHTS - 1, height);
  return [h * HOLES + Math.min(HOLES - 1, holes), h, l];
}
let byBoard = new Float64Array(BANDS * HEIGHTS * HOLES);
const value = (turn) => {
  const [c, , l] = cellOf(turn);
  return byLines[l] + byBoard[c];
};
for (let round = 0; round <= ROUNDS; round++) {
  const cellSum = new Float64Array(byBoard.length);
  const cellTurns = new Float64Array(byBoard.length);
  const cellGames = new Float64Array(byBoard.length);
  const heightSum = new Float64Array(BANDS * HEIGHTS);
  const heightTurns = new Float64Array(BANDS * HEIGHTS);
  const heightGames = new Float64Array(BANDS * HEIGHTS);
  for (const g of games) {
    const before = new Float64Array(g.length + 1);
    for (let i = 0; i < g.length; i++) before[i + 1] = before[i] + g[i][3];
    const cellsSeen = new Set();
    const heightsSeen = new Set();
    for (let i = 0; i < g.length; i++) {
      const target =
        round === 0 || i + STEPS >= g.length
          ? before[g.length] - before[i]
          : before[i + STEPS] - before[i] + value(g[i + STEPS]);
      const [c, h, l] = cellOf(g[i]);
      const residual = target - byLines[l];
      cellSum[c] += residual;
      cellTurns[c]++;
      if (!cellsSeen.has(c)) cellsSeen.add(c), cellGames[c]++;
      heightSum[h] += residual;
      heightTurns[h]++;
      if (!heightsSeen.has(h)) heightsSeen.add(h), heightGames[h]++;
    }
  }
  const next = new Float64Array(byBoard.length);
  for (let c = 0; c < next.length; c++) {
    const h = Math.floor(c / HOLES);
    const heightMean = heightTurns[h] ? heightSum[h] / heightTurns[h] : 0;
    const parent = (heightGames[h] * heightMean) / (heightGames[h] + SHRINK);
    const mean = cellTurns[c] ? cellSum[c] / cellTurns[c] : parent;
    next[c] = (cellGames[c] * mean + SHRINK * parent) / (cellGames[c] + SHRINK);
  }
  byBoard = next;
}

const keptBands = KEPT_LINES / 10;
const rowsOf = (values, per) => {
  const lines = [];
  for (let i = 0; i < values.length; i += per) lines.push('    ' + values.slice(i, i + per).join(', ') + ',');
  return lines.join('\n');
};
const lines = Array.from(byLines.subarray(0, KEPT_LINES), Math.round);
const board = Array.from(byBoard.subarray(0, keptBands * HEIGHTS * HOLES), Math.round);
writeFileSync(
  out,
  `/**
 * The end values the play-outs end on (docs/game.md, "Play-outs"): the points a competition-format game expects
 * from a turn to its end, by its LINES counter, board height and holes. Made by bench/nes-end-values-fit.mjs from
 * ${games.length.toLocaleString('en-US')} games bench/nes-end-values-collect.ts recorded; do not edit by hand.
 */
export const NES_END_VALUES = {
  /** LINES counts kept (0 to lines - 1); a count over them reads the last. */
  lines: ${KEPT_LINES},
  heights: ${HEIGHTS},
  holes: ${HOLES},
  /** The mean points to the game's end at each LINES count. */
  byLines: [
${rowsOf(lines, 10)}
  ],
  /** What a board adds to byLines: by LINES / 10, then height (0..heights - 1), then holes (0..holes - 1). */
  byBoard: [
${rowsOf(board, HOLES * 2)}
  ],
} as const;
`,
);
// in the repository's format, so lint passes on it as written
execFileSync('npx', ['biome', 'format', '--write', out], { stdio: 'inherit' });
console.error(`wrote ${out}: ${games.length} games, ${KEPT_LINES} LINES counts`);
