/**
 * Many AIs in one process (a versus server): what the AIs after the first cost, and whether making and dropping AIs
 * for ever keeps memory flat (docs/game.md, "Many AIs in one process").
 *
 *   npx tsx bench/many-ais.ts                 # 3 rounds of 8 AIs, 2,000 AIs made and dropped
 *   npx tsx bench/many-ais.ts --rounds 5 --ais 16 --churn 5000
 *
 * Each measurement runs in a fresh Node process (`--expose-gc`), so no table is loaded before it starts:
 *  - shared: `ais` times `TetrisAI.create({ rules: 'guideline' })`, every AI on the default table, loaded once per
 *    process (the library's way);
 *  - own table (the baseline): the same AIs, each given a table of its own loaded from the cache (`table:
 *    (await loadOrBuildCachedTable()).table`), so each makes its own search image: what every default AI cost
 *    before the default table was shared;
 *  - churn: `churn` AIs over one table, each dropped as soon as it is made, a collection every 250; the growth of
 *    external memory from the first 250 to the last, per AI.
 * The setup time is the wall time of all the creates; memory is read after a collection once the AIs exist.
 * Medians over the rounds, and the baseline's cost over the shared one from the same rounds.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TetrisAI } from '../src/tetris-ai/index.js';
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import { benchArgs, machine, median, printTable, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  rounds: { type: 'string', default: '3' },
  ais: { type: 'string', default: '8' },
  churn: { type: 'string', default: '2000' },
  child: { type: 'string' },
});

interface Measure {
  ms: number;
  rssMB: number;
  externalMB: number;
  /** churn only: external memory growth per AI made and dropped, in kB. */
  growthKBPerAI?: number;
}

const MB = 2 ** 20;

async function collect(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the child runs with --expose-gc');
  gc();
  // Finalizers (an AI's engine given back) run on later turns of the event loop.
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5));
}

async function child(mode: string, ais: number, churn: number): Promise<Measure> {
  if (mode === 'churn') {
    const { table } = await loadOrBuildCachedTable();
    const started = performance.now();
    let first = 0;
    for (let i = 1; i <= churn; i++) {
      await TetrisAI.create({ table, lookahead: 5 });
      if (i % 250 === 0) {
        await collect();
        if (i === 250) first = process.memoryUsage().external;
      }
    }
    const m = process.memoryUsage();
    const growthKBPerAI = (m.external - first) / 1024 / Math.max(1, churn - 250);
    return { ms: performance.now() - started, rssMB: m.rss / MB, externalMB: m.external / MB, growthKBPerAI };
  }
  const kept: TetrisAI[] = [];
  const started = performance.now();
  for (let i = 0; i < ais; i++) {
    const table = mode === 'own' ? (await loadOrBuildCachedTable()).table : undefined;
    kept.push(await TetrisAI.create({ rules: 'guideline', table }));
  }
  const ms = performance.now() - started;
  await collect();
  const m = process.memoryUsage();
  if (kept.length !== ais) throw new Error('lost an AI');
  return { ms, rssMB: m.rss / MB, externalMB: m.external / MB };
}

function inFreshProcess(mode: string, ais: number, churn: number): Measure {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--expose-gc',
      fileURLToPath(import.meta.url),
      '--child',
      mode,
      '--ais',
      String(ais),
      '--churn',
      String(churn),
    ],
    { encoding: 'utf8', maxBuffer: 16 * MB },
  );
  if (run.status !== 0) throw new Error(`the ${mode} process failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '');
}

if (args.child) {
  const result = await child(args.child, Number(args.ais), Number(args.churn));
  console.log(JSON.stringify(result));
} else {
  const rounds = Number(args.rounds);
  const ais = Number(args.ais);
  const churn = Number(args.churn);
  const samples: Record<'shared' | 'own' | 'churn', Measure[]> = { shared: [], own: [], churn: [] };
  for (let r = 0; r < rounds; r++) {
    // The variants take turns within a round, so a change of load touches them alike.
    samples.shared.push(inFreshProcess('shared', ais, churn));
    samples.own.push(inFreshProcess('own', ais, churn));
    samples.churn.push(inFreshProcess('churn', ais, churn));
  }
  const med = (list: Measure[], key: keyof Measure) => median(list.map((m) => m[key] ?? 0));
  const row = (variant: string, list: Measure[], count: number) => ({
    variant,
    AIs: count,
    'setup ms': Math.round(med(list, 'ms')),
    'rss MB': Math.round(med(list, 'rssMB')),
    'external MB': Math.round(med(list, 'externalMB')),
  });
  const rows = [row('shared default table', samples.shared, ais), row('own table each (baseline)', samples.own, ais)];
  printTable(rows);
  const ratio = (key: keyof Measure) => med(samples.own, key) / med(samples.shared, key);
  console.log(
    `baseline / shared, medians of ${rounds} rounds: setup time ${ratio('ms').toFixed(1)}x, rss ${ratio('rssMB').toFixed(1)}x, external ${ratio('externalMB').toFixed(1)}x`,
  );
  console.log(
    `churn: ${churn.toLocaleString('en-US')} AIs made and dropped over one table in ${Math.round(med(samples.churn, 'ms')).toLocaleString('en-US')} ms; external memory ${Math.round(med(samples.churn, 'externalMB'))} MB at the end, growth ${med(samples.churn, 'growthKBPerAI').toFixed(2)} kB per AI after the first 250 (median of ${rounds})`,
  );
  const path = writeResults('many-ais', { machine: machine(), rounds, ais, churn, rows, samples });
  console.log(`wrote ${path}`);
}
