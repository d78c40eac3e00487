/**
 * What play-outs (docs/game.md, "Play-outs") cost a game's loop: nextMove's time on the competition format's own
 * positions at the play-outs' levels, the burn's at 18–38 and the well's from 39 (the turns `bench nes` plays to the
 * cap, with their level and LINES count), against the same AI made with `playOuts: false` (the policy's move
 * alone), timed in turn on each position.
 * Each position is timed `--repeats` times and its median kept; the table gives p50 / p90 / p99 / worst over the
 * positions, all of them and those played out (where the move may change), and the ratio of the means. Prints the
 * table, writes bench/results/<out>.json.
 *
 *   npx tsx bench/nes-move-time.ts [--games 10] [--seed 1] [--repeats 3] [--out nes-move-time]
 */
import { maxHeight } from '../src/board-rows.js';
import type { GameState } from '../src/tetris-ai/decision.js';
import { type PlayedTurn, playOneGame } from '../src/tetris-ai/game-simulator.js';
import { PLAY_OUTS } from '../src/tetris-ai/play-outs.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';
import { competitionReplay } from './nes-replay.js';

const { values: args } = benchArgs(import.meta.url, {
  games: { type: 'string', default: '10' },
  seed: { type: 'string', default: '1' },
  repeats: { type: 'string', default: '3' },
  out: { type: 'string', default: 'nes-move-time' },
});

const { ai, settings } = await competitionReplay(Number(args.seed));
const { ai: without } = await competitionReplay(Number(args.seed), false);
const positions: { state: GameState; level: number; tall: boolean }[] = [];
for (let game = 0; game < Number(args.games); game++) {
  const turns: PlayedTurn[] = [];
  await playOneGame(ai, game, settings, { onTurn: (t) => turns.push(t) });
  for (const t of turns) {
    if (!t.move || t.nes!.level < PLAY_OUTS.fromLevel) continue;
    const state = {
      board: { width: 10, rows: Array.from(t.before.subarray(0, 20)) },
      current: t.current,
      queue: t.queue,
      level: t.nes!.level,
      lines: t.nes!.lines,
    };
    positions.push({ state, level: t.nes!.level, tall: maxHeight(t.before) >= PLAY_OUTS.fromHeight });
  }
}

const timed = { with: [] as number[], without: [] as number[] };
for (const { state } of positions) {
  const w: number[] = [];
  const wo: number[] = [];
  for (let r = 0; r < Number(args.repeats); r++) {
    let t0 = performance.now();
    ai.nextMove(state);
    w.push(performance.now() - t0);
    t0 = performance.now();
    without.nextMove(state);
    wo.push(performance.now() - t0);
  }
  timed.with.push(median(w));
  timed.without.push(median(wo));
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), worst: s[s.length - 1] };
};
const rows: Record<string, unknown>[] = [];
const printed: Record<string, string | number>[] = [];
const burnLevels = (i: number) => positions[i].level <= PLAY_OUTS.toLevel;
for (const [name, keep] of [
  [`levels ${PLAY_OUTS.fromLevel}–${PLAY_OUTS.toLevel}`, burnLevels],
  [`boards ${PLAY_OUTS.fromHeight} rows or more there`, (i: number) => burnLevels(i) && positions[i].tall],
  [`levels ${PLAY_OUTS.wellFromLevel} and over`, (i: number) => positions[i].level >= PLAY_OUTS.wellFromLevel],
] as const) {
  const idx = positions.map((_, i) => i).filter(keep);
  const withOuts = summary(idx.map((i) => timed.with[i]));
  const withoutOuts = summary(idx.map((i) => timed.without[i]));
  const f = (s: ReturnType<typeof summary>) =>
    `${s.p50.toFixed(2)} / ${s.p90.toFixed(2)} / ${s.p99.toFixed(2)} / ${s.worst.toFixed(1)}`;
  printed.push({
    positions: name,
    count: idx.length,
    'nextMove ms p50 / p90 / p99 / worst': f(withOuts),
    'without play-outs ms p50 / p90 / p99 / worst': f(withoutOuts),
    'mean ratio': (withOuts.mean / withoutOuts.mean).toFixed(2),
  });
  rows.push({ positions: name, count: idx.length, nextMove: withOuts, withoutPlayOuts: withoutOuts });
}
printTable(printed);
console.log(`results: ${writeResults(args.out!, { machine: machine(), args, rows })}`);
