/**
 * How close nextMove(state, { budgetMs }) stays to its budget (docs/game.md, "Time budget"). Positions are recorded
 * from games a weaker level plays (strength 4: untidy boards, so recover mode has its share), then the AI at its own
 * strength moves on each of them once per budget; each call is timed around nextMove, in wall time and in the
 * process's CPU time (process.cpuUsage: on a shared machine a call that waits for a core counts only what it ran).
 * Per rule set and budget: p50, p99 and worst time, the overshoot past the budget at p50, p99 and worst, and the
 * share of moves equal to the full search's (no budget). Prints the table, writes bench/results/<out>.json.
 *
 *   npx tsx bench/budget.ts [--rows guideline,classic,nes,tgm20g] [--positions 1000] [--budgets 0,0.5,1,2,5]
 *                           [--seed 1] [--out budget]
 */
import { TetrisAI } from '../src/tetris-ai/ai.js';
import type { GameMove, GameState } from '../src/tetris-ai/decision.js';
import { playOneGame } from '../src/tetris-ai/game-simulator.js';
import type { RandomizerName } from '../src/randomizers/index.js';
import type { RuleSetName } from '../src/rules/types.js';
import { benchArgs, machine, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  rows: { type: 'string', default: 'guideline,classic,nes,tgm20g' },
  positions: { type: 'string', default: '1000' },
  budgets: { type: 'string', default: '0,0.5,1,2,5' },
  seed: { type: 'string', default: '1' },
  out: { type: 'string', default: 'budget' },
});

const ROWS: Record<string, { rules: RuleSetName; randomizer: RandomizerName; lookahead: number }> = {
  guideline: { rules: 'guideline', randomizer: 'bag7', lookahead: 5 },
  classic: { rules: 'classic', randomizer: 'tgm1', lookahead: 1 },
  nes: { rules: 'nes', randomizer: 'nes', lookahead: 1 },
  tgm20g: { rules: 'tgm20g', randomizer: 'tgm1', lookahead: 1 },
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const key = (m: GameMove | null) => (m ? `${m.hold}${JSON.stringify(m.cells)}` : 'none');

const out: Record<string, unknown>[] = [];
const printed: Record<string, string | number>[] = [];
for (const name of args.rows!.split(',')) {
  const row = ROWS[name];
  if (!row) throw new Error(`unknown row ${name}; rows are ${Object.keys(ROWS).join(', ')}`);
  const ai = await TetrisAI.create(row);
  const untidy = await TetrisAI.create({ ...row, strength: 4 });
  const hold = ai.rules.hold;
  const positions: GameState[] = [];
  for (let g = 0; positions.length < Number(args.positions); g++) {
    await playOneGame(
      untidy,
      g,
      { randomizer: row.randomizer, lookahead: row.lookahead, hold, maxPieces: 400, seed: Number(args.seed) },
      {
        onTurn: (t) => {
          const rows = Array.from(t.before.subarray(0, 20));
          positions.push({
            board: { width: 10, rows },
            current: t.current,
            queue: t.queue,
            hold: t.hold,
            canHold: hold,
          });
        },
      },
    );
  }
  positions.length = Number(args.positions);
  const full = positions.map((p) => key(ai.nextMove(p)));
  for (const budget of args.budgets!.split(',').map(Number)) {
    const wall: number[] = [];
    const cpu: number[] = [];
    let same = 0;
    positions.forEach((p, i) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const move = ai.nextMove(p, { budgetMs: budget });
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (key(move) === full[i]) same++;
    });
    const ms = (x: number) => x.toFixed(2);
    const spread = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return `${ms(quantile(sorted, 0.5))} / ${ms(quantile(sorted, 0.99))} / ${ms(sorted[sorted.length - 1])}`;
    };
    const overshoot = (xs: number[]) => xs.map((t) => Math.max(0, t - budget));
    printed.push({
      rules: `${row.rules}, ${row.randomizer}, ${row.lookahead}`,
      'budget ms': budget,
      'wall p50 / p99 / worst': spread(wall),
      'wall overshoot': spread(overshoot(wall)),
      'CPU p50 / p99 / worst': spread(cpu),
      'CPU overshoot': spread(overshoot(cpu)),
      'full search’s move': `${((100 * same) / positions.length).toFixed(1)} %`,
    });
    const summary = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const worst = sorted[sorted.length - 1];
      const p99 = quantile(sorted, 0.99);
      return {
        p50: quantile(sorted, 0.5),
        p99,
        worst,
        overshootP99: Math.max(0, p99 - budget),
        overshootWorst: Math.max(0, worst - budget),
      };
    };
    out.push({ row: name, ...row, budget, positions: positions.length, same, wall: summary(wall), cpu: summary(cpu) });
    console.error(`${name} ${budget} ms done`);
  }
}
printTable(printed);
console.log(`results: ${writeResults(args.out!, { machine: machine(), args, rows: out })}`);
