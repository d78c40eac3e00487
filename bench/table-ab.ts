/**
 * A/B of the u16 table-build kernel against another checkout, in one process: one iteration of each, alternating
 * (which goes first swaps every pair), single-threaded, timed as CPU time (process.cpuUsage), on the same inputs.
 * The ratio of each pair is taken in the same few hundred milliseconds, so it says something even on a loaded
 * machine, where whole builds in separate processes do not. Both sides start from r0 = 1 and use the same factor
 * each iteration; their outputs are compared value for value (a change that is meant to be exact must print 0).
 *
 *   npx tsx bench/table-ab.ts --other /path/to/checkout [--pairs 12] [--width 9] [--max-step 4]
 *
 * The other checkout needs its kernels built (`npm run build:wasm` there) and the rank kernel's driver in either
 * place: src/kernels/ (rank.ts writePlan, rank-mirror-plan.ts makeMirrorPlan, wasm.ts loadKernel) or, before the
 * kernel layer, src/rank/build.ts, src/rank/mirror-plan.ts and src/wasm.ts. A checkout from before
 * rankBlocksU16Ones fills its first buffer instead.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { benchArgs, median, printTable } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  other: { type: 'string' },
  pairs: { type: 'string', default: '12' },
  width: { type: 'string', default: '9' },
  'max-step': { type: 'string', default: '4' },
});
if (!args.other) throw new Error('--other <checkout> is required');
const WIDTH = Number(args.width);
const MAX_STEP = Number(args['max-step']);
const TOP = 65535;

interface Side {
  name: string;
  /** One iteration from the current buffer into the other; CPU ms and the largest sum. */
  iterate(factor: number): { ms: number; best: number };
  /** The values of the last iteration, in build order. */
  out(): Uint16Array;
}

async function side(name: string, root: string): Promise<Side> {
  const layered = existsSync(`${root}/src/kernels/rank.ts`);
  const wasm = await import(layered ? `${root}/src/kernels/wasm.ts` : `${root}/src/wasm.ts`);
  const { makeMirrorPlan } = await import(
    layered ? `${root}/src/kernels/rank-mirror-plan.ts` : `${root}/src/rank/mirror-plan.ts`
  );
  const { rankMoves } = await import(`${root}/src/rank/moves.ts`);
  const { writePlan } = await import(layered ? `${root}/src/kernels/rank.ts` : `${root}/src/rank/build.ts`);
  const layout = await import(layered ? `${root}/assembly/rank/layout.ts` : `${root}/src/rank/layout.ts`);
  const { surfaceCount } = await import(`${root}/src/surface.ts`);
  const load = layered ? wasm.loadKernel : wasm.instantiateKernel;
  const instance = await load('rank', { shared: false, simd: true });
  // biome-ignore lint/suspicious/noExplicitAny: either checkout's kernel exports
  const kernel = instance.exports as any;
  const memory = instance.memory as WebAssembly.Memory;
  const plan = makeMirrorPlan(rankMoves(WIDTH, MAX_STEP), WIDTH, MAX_STEP);
  const planPtr = writePlan(kernel, memory, plan);
  const size = surfaceCount(WIDTH, MAX_STEP);
  const bytes = Math.ceil((size * 2) / 16) * 16 + layout.U16_SLACK_BYTES;
  const buffers = [kernel.alloc(bytes), kernel.alloc(bytes)];
  const extra = 4 * (layout.U16_EXTENT_WORDS ?? 0);
  const scratch = kernel.alloc(plan.lo * 2 * layout.U16_SCRATCH_ARRAYS + layout.U16_SLACK_BYTES + extra);
  const control = kernel.alloc(8);
  const ones = typeof kernel.rankBlocksU16Ones === 'function';
  if (!ones) kernel.fillBytes(buffers[0], size * 2, 0xff);
  let current = 0;
  let calls = 0;
  return {
    name,
    iterate(factor) {
      new Int32Array(memory.buffer, control, 2).fill(0);
      const run = ones && calls++ === 0 ? kernel.rankBlocksU16Ones : kernel.rankBlocksU16;
      const before = process.cpuUsage();
      const best = run(
        planPtr,
        buffers[current],
        buffers[1 - current],
        control,
        4,
        plan.blocks.length,
        scratch,
        factor,
        control + 4,
      );
      const used = process.cpuUsage(before);
      current = 1 - current;
      return { ms: (used.user + used.system) / 1000, best };
    },
    out: () => new Uint16Array(memory.buffer, buffers[current], size),
  };
}

const here = await side('this checkout', resolve('.'));
const other = await side('other', resolve(args.other));
const pairs = Number(args.pairs);
const ours: number[] = [];
const theirs: number[] = [];
let differing = 0;
let top = TOP;
for (let i = 0; i < pairs; i++) {
  const factor = Math.fround(TOP / (7 * top));
  const [first, second] = i % 2 === 0 ? [other, here] : [here, other];
  const a = first.iterate(factor);
  const b = second.iterate(factor);
  const [mine, base] = i % 2 === 0 ? [b, a] : [a, b];
  top = Math.min(TOP, Math.round(Math.fround(base.best * factor)));
  const x = here.out();
  const y = other.out();
  for (let s = 0; s < x.length; s++) if (x[s] !== y[s]) differing++;
  // The first two pairs run partly in the engine's baseline compiler.
  if (i >= 2) {
    ours.push(mine.ms);
    theirs.push(base.ms);
  }
}
const ratios = ours.map((ms, i) => ms / theirs[i]);
printTable([
  {
    kernel: `u16 iteration ${WIDTH}x${MAX_STEP}, 1 thread, CPU ms (median of ${ours.length})`,
    'this checkout': median(ours),
    other: median(theirs),
    'this / other': median(ratios),
    'lowest pair': Math.min(...ratios),
    'highest pair': Math.max(...ratios),
    'values differing': differing,
  },
]);
