/**
 * The built TBP worker (dist/tbp-worker.js, the package's stackrank/tbp-worker) in Chromium, as a page starts a bot
 * on the web: `new Worker(url, { type: 'module' })`, its rank table named in the URL's query and fetched by the
 * worker, the protocol's messages as objects. The page plays 20 pieces and reports what the bot said: the moves the
 * same worker suggests in Node given those settings (workerData) and those messages.
 * Needs `npm run build` first (npm test does it).
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../src/cli/demo.js';
import { buildRankTable } from '../../src/rank/table.js';
import { launch, skipWithoutChromium } from './chromium.js';

const ROOT = resolve(__dirname, '../..');
const DIST = join(ROOT, 'dist');

/** The page: a front end that sends rules, start and 20 rounds of suggest / play / new_piece, collecting the answers. */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body><pre id="out">running</pre><script type="module">
const out = document.getElementById('out');
const bot = new Worker('./tbp-worker.js?table=t9.srk&lookahead=2&expectimax=0', { type: 'module' });
const inbox = [];
let wake = null;
bot.onmessage = (e) => { inbox.push(e.data); wake?.(); };
bot.onerror = (e) => { out.textContent = 'error: worker ' + e.message; };
const next = async () => { while (!inbox.length) await new Promise((r) => (wake = r)); return inbox.shift(); };
try {
  const info = await next();
  bot.postMessage({ type: 'rules', randomizer: 'seven_bag' });
  const ready = await next();
  const pieces = 'TSZOILJ'.repeat(5).split('');
  const board = Array.from({ length: 40 }, () => Array(10).fill(null));
  bot.postMessage({ type: 'start', board, queue: pieces.splice(0, 6), hold: null, combo: 0, back_to_back: false,
    randomizer: { type: 'seven_bag', bag_state: ['J'] } });
  const moves = [];
  for (let n = 0; n < 20; n++) {
    bot.postMessage({ type: 'suggest' });
    const s = await next();
    if (s.type !== 'suggestion') throw new Error(JSON.stringify(s));
    moves.push(s.moves[0]);
    bot.postMessage({ type: 'play', move: s.moves[0] });
    bot.postMessage({ type: 'new_piece', piece: pieces.shift() });
  }
  bot.postMessage({ type: 'play', move: { location: { type: 'T' }, spin: 'none' } });
  const error = await next();
  bot.postMessage({ type: 'quit' });
  out.textContent = JSON.stringify({ info, ready, moves, error });
} catch (e) {
  out.textContent = 'error: ' + (e && e.stack || e);
}
</script></body></html>`;

/**
 * The page's session (PAGE) with the worker in Node, settings in workerData: the moves it suggests. The page's
 * query (lookahead=2&expectimax=0) gives the same settings, so the same moves are expected there.
 */
async function nodeMoves(settings: { table: string; lookahead: number; expectimax: boolean }): Promise<unknown[]> {
  const bot = new Worker(join(DIST, 'tbp-worker.js'), { workerData: settings });
  const inbox: { type: string; moves?: unknown[] }[] = [];
  let wake: (() => void) | null = null;
  bot.on('message', (m) => {
    inbox.push(m);
    wake?.();
  });
  const next = async () => {
    while (!inbox.length) await new Promise<void>((r) => (wake = r));
    return inbox.shift()!;
  };
  try {
    await next(); // info
    bot.postMessage({ type: 'rules', randomizer: 'seven_bag' });
    await next(); // ready
    const pieces = 'TSZOILJ'.repeat(5).split('');
    const board = Array.from({ length: 40 }, () => Array(10).fill(null));
    bot.postMessage({
      type: 'start',
      board,
      queue: pieces.splice(0, 6),
      hold: null,
      combo: 0,
      back_to_back: false,
      randomizer: { type: 'seven_bag', bag_state: ['J'] },
    });
    const moves: unknown[] = [];
    for (let n = 0; n < 20; n++) {
      bot.postMessage({ type: 'suggest' });
      const s = await next();
      moves.push(s.moves![0]);
      bot.postMessage({ type: 'play', move: s.moves![0] });
      bot.postMessage({ type: 'new_piece', piece: pieces.shift() });
    }
    return moves;
  } finally {
    await bot.terminate();
  }
}

const skip = skipWithoutChromium('TBP worker browser test');
let dir: string;

beforeAll(async () => {
  if (skip) return;
  if (!existsSync(join(DIST, 'tbp-worker.js')))
    throw new Error('dist/tbp-worker.js is missing: run npm run build first');
  dir = mkdtempSync(join(tmpdir(), 'stackrank-tbp-page-'));
  // The worker and the chunks it imports, as a site serves the package's dist/.
  for (const f of readdirSync(DIST)) if (f.endsWith('.js')) copyFileSync(join(DIST, f), join(dir, f));
  await (await buildRankTable({ width: 9, maxStep: 3, iterations: 2, threads: 1 })).save(join(dir, 't9.srk'));
  writeFileSync(join(dir, 'index.html'), PAGE);
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('the TBP worker in Chromium', () => {
  it('speaks the protocol through postMessage, with the table it fetched', { timeout: 120_000 }, async () => {
    const server = await startDemoServer({ port: 0, dir });
    const browser = await launch();
    try {
      const tab = await browser.context.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(new URL('index.html', server.url).href);
      await tab.waitForFunction(() => document.getElementById('out')?.textContent !== 'running', undefined, {
        timeout: 90_000,
      });
      const text = (await tab.textContent('#out')) ?? '';
      expect(text).not.toMatch(/^error/);
      const r = JSON.parse(text);
      expect(r.info).toMatchObject({ type: 'info', name: 'stackrank', features: ['randomizer', 'move_info'] });
      expect(r.ready).toEqual({ type: 'ready' });
      expect(r.moves).toHaveLength(20);
      for (const m of r.moves) expect(m.location.type).toMatch(/^[IOTSZLJ]$/);
      // The settings in the worker's URL took: other settings play other moves, so these are the same bot's.
      const settings = { table: join(dir, 't9.srk'), lookahead: 2, expectimax: false };
      expect(r.moves).toEqual(await nodeMoves(settings));
      expect(r.moves).not.toEqual(await nodeMoves({ ...settings, lookahead: 1 }));
      expect(r.moves).not.toEqual(await nodeMoves({ ...settings, expectimax: true }));
      expect(r.error).toMatchObject({ type: 'error', reason: 'invalid_message' });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
