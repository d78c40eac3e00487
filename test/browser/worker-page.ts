/**
 * The worker-AI page (test/browser/worker-page/): bundled by Vite from the library's source as a game bundles the
 * package, served with the demo server's cross-origin isolation headers, and opened in headless Chromium. Shared by
 * test/browser/worker-ai.test.ts and bench/browser-first-move.ts.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { build } from 'vite';
import type { SetupProgress } from '../../src/setup-progress.js';

export { PROBE_STATE } from './worker-page/probe.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerPageResult {
  /** ms since the page's navigation began: script (the page's module ran), ready (the AI), firstMove, secondMove. */
  marks: Record<string, number>;
  /** The setup's progress events, each with `at`: the page's time it arrived (ms since navigation began). */
  events: (SetupProgress & { at: number })[];
  /** The longest stretch the page's own thread was busy while the AI got ready and moved. */
  longestPageStallMs: number;
  isolated: boolean;
  move: BriefMove | null;
  secondMove: BriefMove | null;
  /** The AI's `table` once ready and once its `finalTable` resolved, and what that resolved to. */
  tables: { atReady: string; final?: { table: string; reason?: string }; afterFinal?: string };
  /** PROBE_STATE's move: before the final table, after it, and from a game session begun before it. */
  probes: { before: BriefMove | null; after?: BriefMove | null; session?: BriefMove | null };
}

export interface BriefMove {
  piece: string;
  x: number;
  rotation: string;
}

/** Bundles the worker page (and the worker it starts) into `outDir`. */
export function bundleWorkerPage(outDir: string): Promise<void> {
  return bundlePage(join(ROOT, 'test/browser/worker-page'), outDir);
}

/**
 * Bundles the page at `root` (its index.html) into `outDir` with Vite, `stackrank` and `stackrank/worker` taken from
 * the library's source, as the demo's build does (bench/cold-start.ts bundles its page with it too).
 */
export async function bundlePage(root: string, outDir: string): Promise<void> {
  await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'warn',
    resolve: {
      alias: { 'stackrank/worker': join(ROOT, 'src/worker.ts'), stackrank: join(ROOT, 'src/index.ts') },
    },
    worker: { format: 'es' },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      chunkSizeWarningLimit: 4096,
      rollupOptions: {
        external: [/^node:/],
        onwarn(warning, warn) {
          if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
        },
      },
    },
  });
}

/** Opens the page at `url` in a new tab of `context` and waits for its result (or throws its error). */
export async function runWorkerPage(context: BrowserContext, url: string): Promise<WorkerPageResult> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  try {
    await page.goto(url);
    await page.waitForFunction(
      () => {
        const w = window as unknown as { pageResult?: unknown; pageError?: string };
        return w.pageResult !== undefined || w.pageError !== undefined;
      },
      undefined,
      { timeout: 120_000, polling: 20 },
    );
    const out = await page.evaluate(() => {
      const w = window as unknown as { pageResult?: unknown; pageError?: string };
      return { result: w.pageResult as WorkerPageResult | undefined, error: w.pageError };
    });
    if (!out.result) throw new Error(`the worker page failed: ${out.error}; console: ${errors.join(' | ')}`);
    if (errors.length) throw new Error(`the worker page logged errors: ${errors.join(' | ')}`);
    return out.result;
  } finally {
    await page.close();
  }
}
