/**
 * Recover-mode speed (docs/game.md, "Recover"): recover moves per second of the game AI's beam search
 * (src/tetris-ai/recover.ts over the recover kernel) and of the TypeScript search it replaced
 * (test/reference/recover-reference.ts), measured in the same run on the same positions, with the defaults
 * TetrisAI uses (depth 2, beam 12). Positions: 10 × 20 boards of garbage rows under a stack with holes, random
 * pieces, queue and hold. Both searches must choose the same move with the same value on every position (checked
 * before timing). Figures are medians over rounds, per second of wall time and of this process's CPU time.
 *
 *   npx tsx bench/recover.ts [--rounds 5] [--ms 500] [--positions 300] [--seed 1] [--rows nes,guideline]
 *                            [--other DIR] [--out recover]
 *
 * --other DIR also times this tree's search against another checkout's (e.g. the commit before a speed-up:
 * `git worktree add --detach /tmp/base <rev>`, node_modules linked, its kernels built) on the same positions, with
 * the search TetrisAI plays under each row's rule set (its beam and chance ply: src/tetris-ai/policy.ts RECOVER_SEARCH,
 * the next piece's chances uniform), the two taking turns in one process (which goes first swaps every round).
 * Both must choose the same move with the same value on every position. It prints this tree's speed over the
 * other's: the ratio of the medians and the median of the round-by-round ratios (steadier on a machine whose speed
 * drifts).
 *
 * Needs the kernels built (npm run build:wasm). Prints a table and writes bench/results/<out>.json (recover.json).
 */
import { RECOVER_WEIGHTS } from '../src/tetris-ai/evaluate.js';
import { resolve } from 'node:path';
import { maxFloorFor, RECOVER_SEARCH, ruleSetKind } from '../src/tetris-ai/policy.js';
import { recoverMove, type RecoverContext, type RecoverState } from '../src/tetris-ai/recover.js';
import { reachableOnRows, ruleFacts } from '../src/tetris-ai/rules-adapter.js';
import { PIECES, type Piece } from '../src/pieces.js';
import { Rng } from '../src/random.js';
import type { GamePlacement, RuleSetName } from '../src/rules/types.js';
import { refRecoverMove } from '../test/reference/recover-reference.js';
import { benchArgs, interleavedThroughput, machine, median, printTable, writeResults } from './common.js';

const { values } = benchArgs(import.meta.url, {
  rounds: { type: 'string', default: '5' },
  ms: { type: 'string', default: '500' },
  positions: { type: 'string', default: '300' },
  seed: { type: 'string', default: '1' },
  rows: { type: 'string', default: 'nes,guideline' },
  other: { type: 'string' },
  out: { type: 'string', default: 'recover' },
});
/** The other checkout's recoverMove (--other), loaded from its own sources. */
const otherRecoverMove = values.other
  ? ((await import(`${resolve(values.other)}/src/tetris-ai/recover.ts`)).recoverMove as typeof recoverMove)
  : null;
const rounds = Number(values.rounds);
const ms = Number(values.ms);
const count = Number(values.positions);
const seed = Number(values.seed);

const ROWS: Record<string, { rules: RuleSetName; lookahead: number }> = {
  nes: { rules: 'nesUntimed', lookahead: 1 },
  classic: { rules: 'classic', lookahead: 1 },
  guideline: { rules: 'guideline', lookahead: 5 },
  tgm20g: { rules: 'tgm20g', lookahead: 1 },
};

const W = 10;
const H = 20;
/** Garbage rows (one gap each), then columns around a random mean with a few holes; no full row. */
function position(rng: Rng, hold: boolean, lookahead: number): RecoverState {
  const rows = new Uint32Array(44);
  const garbage = rng.nextInt(6);
  for (let y = 0; y < garbage; y++) rows[y] = 0x3ff & ~(1 << rng.nextInt(W));
  const mean = rng.nextInt(8);
  for (let x = 0; x < W; x++) {
    const h = Math.max(0, Math.min(12, mean + rng.nextInt(5) - 2));
    for (let y = garbage; y < garbage + h; y++) if (rng.nextInt(8) !== 0) rows[y] |= 1 << x;
  }
  for (let y = 0; y < H; y++) if (rows[y] === 0x3ff) rows[y] &= ~(1 << rng.nextInt(W));
  const piece = () => PIECES[rng.nextInt(7)] as Piece;
  const queue = Array.from({ length: lookahead }, piece);
  return { rows, current: piece(), queue, hold: hold && rng.nextInt(2) ? piece() : null, canHold: hold };
}

const table: Record<string, string | number>[] = [];
const results: Record<string, unknown>[] = [];
const versus: Record<string, string | number>[] = [];
const versusResults: Record<string, unknown>[] = [];
for (const name of values.rows.split(',')) {
  const row = ROWS[name];
  if (!row) throw new Error(`unknown row ${name}; rows: ${Object.keys(ROWS).join(', ')}`);
  const rules = ruleFacts(row.rules);
  const rng = new Rng(seed);
  const states = Array.from({ length: count }, () => position(rng, rules.hold, row.lookahead));
  // Each position's root placements, as TetrisAI passes them (worked out once: both searches share them).
  const roots = states.map((s) => {
    const memo = new Map<Piece, readonly GamePlacement[]>();
    return (p: Piece) => {
      let r = memo.get(p);
      if (!r) memo.set(p, (r = reachableOnRows(s.rows, W, H, p, rules)));
      return r;
    };
  });
  const common = {
    width: W,
    height: H,
    visibleHeight: 20,
    wellColumn: W - 1,
    coverWell: -1,
    maxFloor: maxFloorFor(rules.ruleSet),
    weights: RECOVER_WEIGHTS,
    depth: 2,
    beam: 12,
    holdAllowed: rules.hold,
  };
  const ctx: RecoverContext = { ...common, rules };
  const refCtx = { ...common, reach: (r: Uint32Array, p: Piece) => reachableOnRows(r, W, H, p, rules) };
  const kernel = (i: number) => recoverMove(ctx, states[i], roots[i])?.value ?? 0;
  const reference = (i: number) => refRecoverMove(refCtx, states[i], roots[i])?.value ?? 0;
  for (let i = 0; i < count; i++) {
    const a = recoverMove(ctx, states[i], roots[i]);
    const b = refRecoverMove(refCtx, states[i], roots[i]);
    if (a?.placement !== b?.placement || !Object.is(a?.value, b?.value))
      throw new Error(`${name}: the kernel and the reference disagree on position ${i}`);
  }
  const t = interleavedThroughput({ kernel, reference }, { rounds, count, ms });
  const k = t.kernel.perCpuSecond;
  const ref = t.reference.perCpuSecond;
  table.push({
    row: `${row.rules}, lookahead ${row.lookahead}${rules.hold ? ', hold' : ''}`,
    'kernel moves/s': Math.round(t.kernel.perSecond),
    'kernel moves/CPU-s': Math.round(k),
    'TypeScript moves/s': Math.round(t.reference.perSecond),
    'TypeScript moves/CPU-s': Math.round(ref),
    'kernel / TS (CPU)': Math.round((k / ref) * 10) / 10,
  });
  if (otherRecoverMove) {
    // The search TetrisAI plays under this rule set (away from the field's top): its beam and chance ply.
    const search = RECOVER_SEARCH[ruleSetKind(rules.ruleSet)];
    const played: RecoverContext = {
      ...ctx,
      beam: search.beam,
      chance: search.chance > 0 ? { lines: search.chance, pieces: new Array(7).fill(1 / 7) } : undefined,
    };
    for (let i = 0; i < count; i++) {
      const a = recoverMove(played, states[i], roots[i]);
      const b = otherRecoverMove(played, states[i], roots[i]);
      if (a?.placement !== b?.placement || !Object.is(a?.value, b?.value))
        throw new Error(`${name}: this tree and ${values.other} disagree on position ${i}`);
    }
    const v = interleavedThroughput(
      {
        this: (i: number) => recoverMove(played, states[i], roots[i])?.value ?? 0,
        other: (i: number) => otherRecoverMove(played, states[i], roots[i])?.value ?? 0,
      },
      { rounds, count, ms },
    );
    const pairs = v.this.samples.perCpuSecond.map((x, r) => x / v.other.samples.perCpuSecond[r]);
    versus.push({
      row: `${row.rules}, beam ${search.beam}, chance ${search.chance}`,
      'this moves/CPU-s': Math.round(v.this.perCpuSecond),
      'other moves/CPU-s': Math.round(v.other.perCpuSecond),
      'this / other (CPU)': Math.round((v.this.perCpuSecond / v.other.perCpuSecond) * 1000) / 1000,
      'median of round ratios': Math.round(median(pairs) * 1000) / 1000,
      'same moves': 'yes',
    });
    versusResults.push({
      row: name,
      beam: search.beam,
      chance: search.chance,
      cpu: { this: v.this.samples.perCpuSecond, other: v.other.samples.perCpuSecond },
    });
  }
  results.push({
    row: name,
    ...row,
    hold: rules.hold,
    depth: 2,
    beam: 12,
    maxFloor: common.maxFloor,
    samples: { kernel: t.kernel.samples.perSecond, reference: t.reference.samples.perSecond },
    cpu: { kernel: t.kernel.samples.perCpuSecond, reference: t.reference.samples.perCpuSecond },
  });
}
printTable(table);
if (otherRecoverMove) {
  console.log(`\nthis tree against ${values.other} (TetrisAI's search per rule set, median of ${rounds} rounds):`);
  printTable(versus);
}
const path = writeResults(values.out, {
  bench: 'recover',
  date: new Date().toISOString(),
  machine: machine(),
  rounds,
  msPerSample: ms,
  positions: count,
  seed,
  results,
  ...(otherRecoverMove ? { other: values.other, versus: versusResults } : {}),
});
console.log(`wrote ${path}`);
