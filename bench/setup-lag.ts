/**
 * Event-loop lag of every setup: how long each takes to be ready and the longest stretch it keeps the event loop
 * from running (bench/lag.ts), with an empty cache folder (cold: a fresh XDG_CACHE_HOME) and again with the files
 * the cold run left (warm), and the bytes it wrote there. Each measurement runs in a fresh Node process, since
 * tables, search memory and reach records are kept once per process. With --abort it also aborts each setup at a
 * few points and measures how long it takes to stop.
 *
 *   npx tsx bench/setup-lag.ts                         # every setup, cold and warm
 *   npx tsx bench/setup-lag.ts --setups tetris-ai:tgm20g,build:20g --abort 200,1000,3000
 *   npx tsx bench/setup-lag.ts --modes none --abort 500,3000   # aborts only
 *
 * Setups: tetris-ai:<rules> (TetrisAI.create with the default table, rules classic, nes, guideline, tgm, tgm20g),
 * stacking-ai:tgm20g (StackingAI.create under tgm20g: the 20G reach records), play-game:guideline (playGame's
 * setup on 2 threads, 2 games of 10 pieces; from the built package, dist/, so run `npm run build` first), build:article
 * and build:20g (buildRankTable, 9x4, 2 threads, no cache).
 * Writes bench/results/<out>.json. Run it on a quiet machine for figures to quote; the JSON records the load.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, machine, printTable, writeResults } from './common.js';
import { type AbortMeasure, measureAbort, measureLag } from './lag.js';

const { values: args } = benchArgs(import.meta.url, {
  setups: {
    type: 'string',
    default:
      'tetris-ai:classic,tetris-ai:nes,tetris-ai:guideline,tetris-ai:tgm,tetris-ai:tgm20g,stacking-ai:tgm20g,play-game:guideline,build:article,build:20g',
  },
  abort: { type: 'string', default: '' },
  modes: { type: 'string', default: 'cold,warm' },
  out: { type: 'string', default: 'setup-lag' },
  child: { type: 'string' },
  'abort-at': { type: 'string' },
});

interface SetupEvent {
  atMs: number;
  [key: string]: unknown;
}

type Setup = (signal: AbortSignal | undefined, onProgress: (e: object) => void) => Promise<unknown>;

/**
 * The setups, each as a game or tool starts it. A setup's modules are loaded before it is timed (the loader's
 * promise), so a child loads only what it runs and the figures are the setup's own.
 */
const SETUPS: Record<string, () => Promise<Setup>> = {
  'stacking-ai:tgm20g': async () => {
    const { StackingAI } = await import('../src/index.js');
    return (signal, onProgress) => StackingAI.create({ rules: 'tgm20g', signal, ...progressOption(onProgress) });
  },
  'play-game:guideline': async () => {
    // The built package (npm run build first): from source, each worker thread compiles the library's TypeScript
    // itself (src/tetris-ai/play-threads.ts), which would be most of what is measured.
    const { playGame } = (await import('../dist/index.js' as string)) as typeof import('../src/index.js');
    return (signal, onProgress) =>
      playGame({ rules: 'guideline', games: 2, maxPieces: 10, threads: 2, signal, ...setupProgress(onProgress) });
  },
  'build:article': async () => {
    const { buildRankTable } = await import('../src/index.js');
    return (signal, onProgress) => buildRankTable({ threads: 2, signal, onProgress });
  },
  'build:20g': async () => {
    const { buildRankTable } = await import('../src/index.js');
    return (signal, onProgress) => buildRankTable({ gravity: '20G', threads: 2, signal, onProgress });
  },
};
for (const rules of ['classic', 'nes', 'guideline', 'tgm', 'tgm20g'] as const) {
  SETUPS[`tetris-ai:${rules}`] = async () => {
    const { TetrisAI } = await import('../src/index.js');
    return (signal, onProgress) => TetrisAI.create({ rules, signal, ...progressOption(onProgress) });
  };
}

/** The setup-progress option where the library takes one (STACKRANK_BENCH_PROGRESS=0 leaves it out: older trees). */
function progressOption(onProgress: (e: object) => void): { onProgress?: (e: object) => void } {
  return process.env.STACKRANK_BENCH_PROGRESS === '0' ? {} : { onProgress };
}
function setupProgress(onProgress: (e: object) => void): { onSetupProgress?: (e: object) => void } {
  return process.env.STACKRANK_BENCH_PROGRESS === '0' ? {} : { onSetupProgress: onProgress };
}

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

async function child(name: string): Promise<void> {
  const load = SETUPS[name];
  if (!load) throw new Error(`unknown setup ${name}; setups are ${Object.keys(SETUPS).join(', ')}`);
  const setup = await load();
  const events: SetupEvent[] = [];
  const t0 = performance.now();
  const onProgress = (e: object) => events.push({ atMs: performance.now() - t0, ...e });
  if (args['abort-at'] !== undefined) {
    const m = await measureAbort((signal) => setup(signal, onProgress), Number(args['abort-at']));
    console.log(JSON.stringify(m));
    return;
  }
  const m = await measureLag(() => setup(undefined, onProgress));
  const { value: _, ...measure } = m;
  // What the setup said it wrote (progress events naming a file).
  const writes = events.filter((e) => typeof e.path === 'string' && typeof e.bytes === 'number');
  console.log(JSON.stringify({ ...measure, progressEvents: events.length, writes }));
}

interface ChildResult {
  readyMs: number;
  longestStallMs: number;
  longestBusyStallMs?: number;
  stallEndedAtMs: number;
  histogramMaxMs: number;
  cpuMs: number;
  progressEvents: number;
  writes: { path: string; bytes: number }[];
}

function runChild(name: string, cache: string, extra: string[] = []): unknown {
  const script = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, '--child', name, ...extra], {
    env: { ...process.env, XDG_CACHE_HOME: cache },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${name} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

async function main(): Promise<void> {
  const names = args.setups!.split(',').filter(Boolean);
  const aborts = args.abort!.split(',').filter(Boolean).map(Number);
  const rows: Record<string, string | number>[] = [];
  const abortRows: Record<string, string | number>[] = [];
  const results: Record<string, unknown> = {};
  for (const name of names) {
    const cache = mkdtempSync(join(tmpdir(), 'stackrank-setup-lag-'));
    try {
      const modes = args.modes!.split(',');
      const cold = modes.includes('cold') ? (runChild(name, cache) as ChildResult) : null;
      const written = bytesUnder(cache);
      const warm = modes.includes('warm') ? (runChild(name, cache) as ChildResult) : null;
      const abortRuns = aborts.map((at) => {
        const fresh = mkdtempSync(join(tmpdir(), 'stackrank-setup-abort-'));
        try {
          return runChild(name, fresh, ['--abort-at', String(at)]);
        } finally {
          rmSync(fresh, { recursive: true, force: true });
        }
      });
      results[name] = { cold, warm, writtenBytes: written, aborts: abortRuns };
      for (const [mode, m] of [
        ['cold', cold],
        ['warm', warm],
      ] as const) {
        if (!m) continue;
        rows.push({
          setup: name,
          cache: mode,
          'ready s': (m.readyMs / 1000).toFixed(2),
          'longest stall ms': Math.round(m.longestStallMs),
          'busy ms': Math.round(m.longestBusyStallMs ?? m.longestStallMs),
          'histogram max ms': Math.round(m.histogramMaxMs),
          'CPU s': (m.cpuMs / 1000).toFixed(1),
          'progress events': m.progressEvents,
          'MB written': mode === 'cold' ? (written / 1e6).toFixed(1) : '-',
          'writes said': m.writes.length,
        });
      }
      for (const a of abortRuns as AbortMeasure[])
        abortRows.push({
          setup: name,
          'abort at ms': a.abortAtMs,
          outcome: a.outcome,
          'stopped after ms': a.stopMs === null ? '-' : Math.round(a.stopMs),
          'CPU ms in the next s': a.cpuAfterMs === null ? '-' : Math.round(a.cpuAfterMs),
          'stall in the next s, ms': a.stallAfterMs === null ? '-' : Math.round(a.stallAfterMs),
        });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }
  printTable(rows);
  if (abortRows.length) {
    console.log();
    printTable(abortRows);
  }
  const path = writeResults(args.out!, {
    date: new Date().toISOString(),
    machine: machine(),
    rows,
    abortRows,
    results,
  });
  console.log(`wrote ${path}`);
}

if (args.child) await child(args.child);
else await main();
