/**
 * End to end: the built CLI serves the built demo (`stackrank demo`), Debian's Chromium opens it, the page builds a
 * cheap rank table of the demo's width (9 columns, 2 iterations instead of 15) on worker threads, and the AI plays.
 * Then the same table comes back from IndexedDB on a reload, and from the demo server once it is in the user's cache.
 * Needs `npm run build` first (npm test does it).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, skipWithoutChromium, type Browser } from './chromium.js';
import { CLI, DEMO, ROOT, replayWatch, startDemo, watchErrors, type Demo } from './demo-server.js';

const ITERATIONS = 2;
/** For a person to look at; docs/ has its own screenshots (scripts/demo-screenshots.mjs). */
const SCREENSHOT = join(tmpdir(), 'stackrank-demo-test.png');

function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((res) => {
    child.once('exit', (code) => res(code));
    child.kill('SIGINT');
  });
}

async function counters(page: Page) {
  const read = async (id: string) => (await page.textContent(`[data-testid=${id}]`))?.trim() ?? '';
  return {
    pieces: Number(await read('pieces')),
    tetrises: Number(await read('tetrises')),
    gamePieces: Number(await read('game-pieces')),
    gameTetrises: Number(await read('game-tetrises')),
    lines: Number(await read('lines')),
    games: Number(await read('games')),
    best: await read('best'),
    speed: Number(await read('speed')),
    rank: Number(await read('rank')),
  };
}

/** Waits until the page has its rank table and the AI plays; returns where the table came from. */
async function waitForTable(page: Page): Promise<string> {
  await page.waitForSelector('body[data-table-source]', { timeout: 150_000 });
  await page.waitForSelector('body[data-state=playing]', { timeout: 30_000 });
  return page.evaluate(() => document.body.dataset.tableSource ?? '');
}

const atLeast = (page: Page, id: string, n: number, timeout = 60_000) =>
  page.waitForFunction(
    ([id, n]) => Number(document.querySelector(`[data-testid=${id}]`)?.textContent) >= Number(n),
    [id, n] as const,
    { timeout },
  );

const skip = skipWithoutChromium('browser demo test');

describe.skipIf(skip)('browser demo (stackrank demo + Chromium)', () => {
  let cache: string;
  let demo: Demo;
  let browser: Browser;
  const query = `?iterations=${ITERATIONS}&speed=max&seed=7&lookahead=1&randomizer=tgm1`;
  /** The counters while the first page was paused, replayed once the page's table is at hand. */
  let pausedAt: Awaited<ReturnType<typeof counters>> | undefined;
  /** The table the page built, from its IndexedDB. */
  let pageTable: unknown;

  beforeAll(async () => {
    for (const f of [CLI, DEMO]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm run build first`);
    cache = mkdtempSync(join(tmpdir(), 'stackrank-demo-cache-'));
    demo = await startDemo({ XDG_CACHE_HOME: cache });
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    if (demo) await stop(demo.child);
    if (cache) rmSync(cache, { recursive: true, force: true });
  });

  it('serves the page cross-origin isolated and answers 204 for a table it does not have', async () => {
    const res = await fetch(demo.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(res.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(await res.text()).toContain('data-testid="pieces"');
    expect((await fetch(new URL(`api/table?iterations=${ITERATIONS}`, demo.url))).status).toBe(204);
    expect((await fetch(new URL('api/table?iterations=nope', demo.url))).status).toBe(400);
    expect((await fetch(new URL('no-such-file.js', demo.url))).status).toBe(404);
    // Nothing outside dist/demo is served, however the path is spelled.
    for (const p of ['/..%2fcli.js', '/%2e%2e/cli.js', '/assets/..%2f..%2fcli.js']) {
      expect([403, 404]).toContain((await fetch(new URL(p, demo.url))).status);
    }
  });

  it('builds the table in the page on worker threads, then the AI plays 200+ pieces with live counters', {
    timeout: 240_000,
  }, async () => {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors = watchErrors(page);
    await page.goto(demo.url + query);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await waitForTable(page)).toBe('built');
    // The progress bar moved through the build: a report before the first iteration, one after each.
    const reports = (await page.evaluate(() => document.body.dataset.progress ?? '')).split(' ').map(Number);
    expect(reports).toEqual([0, 0.5, 1]);
    const status = (await page.textContent('[data-testid=table-status]')) ?? '';
    const threads = Number(/built in this page in [\d.]+ s on (\d+) threads?/.exec(status)?.[1]);
    expect(status).toContain('9x4, 2 iterations');
    expect(threads).toBeGreaterThanOrEqual(2);

    await atLeast(page, 'pieces', 200);
    const a = await counters(page);
    await page.waitForTimeout(1500);
    const b = await counters(page);
    expect(a.pieces).toBeGreaterThanOrEqual(200);
    expect(b.pieces).toBeGreaterThan(a.pieces);
    expect(b.tetrises).toBeGreaterThan(0);
    expect(b.speed).toBeGreaterThan(0);
    // The rank of the current surface (shown as '–' for the instant between a new game and its first piece).
    // Read it in the same tick as the check: a new game may reset it to '–' right after.
    const shown = await page.waitForFunction(() => {
      const text = document.querySelector('[data-testid=rank]')?.textContent ?? '';
      return /^[01]\.\d{4}$/.test(text) ? text : null;
    });
    const rank = Number(await shown.jsonValue());
    expect(rank).toBeGreaterThan(0);
    expect(rank).toBeLessThanOrEqual(1);
    // The board is drawn: the canvas has coloured cells, not just the background.
    const coloured = await page.evaluate(() => {
      const c = document.getElementById('board') as HTMLCanvasElement;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 150) n++;
      return n;
    });
    expect(coloured).toBeGreaterThan(1000);

    // The speed control: at 60 pieces/s the measured speed follows (game-over pauses only slow it down).
    await page.selectOption('#speed-select', '60');
    await page.waitForTimeout(1500);
    const slow = await counters(page);
    expect(slow.speed).toBeGreaterThan(0);
    expect(slow.speed).toBeLessThanOrEqual(66);

    // Pause stops play; the screenshot shows a game under way. (Pressed from inside the page at the moment a live
    // game has 30 pieces, so that it is not pressed while a finished game waits for the next one.)
    await page.waitForFunction(() => {
      const live =
        Number(document.querySelector('[data-testid=game-pieces]')?.textContent) >= 30 &&
        document.getElementById('banner')!.hidden;
      if (live) document.getElementById('pause')!.click();
      return live;
    });
    await page.waitForTimeout(500); // a frame or two to show the last count
    const paused = await counters(page);
    pausedAt = paused;
    await page.waitForTimeout(1000);
    expect((await counters(page)).pieces).toBe(paused.pieces);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect(paused.gamePieces).toBeGreaterThanOrEqual(30);
    await page.click('#pause'); // resume
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid=pieces]')?.textContent) > n,
      paused.pieces,
      { timeout: 10_000 },
    );
    expect(errors).toEqual([]);
  });

  it('keeps the built table in IndexedDB: a reload plays without building, and the bytes are a valid table', {
    timeout: 240_000,
  }, async () => {
    const page = browser.context.pages()[0];
    const errors = watchErrors(page);
    await page.reload();
    expect(await waitForTable(page)).toBe('indexeddb');
    await atLeast(page, 'pieces', 20, 30_000);

    // The stored bytes are a table file the library loads, with the ranks the iteration must give: after two
    // iterations the flat surface's rank is 33/49 (docs/rules.md, "The rank iteration").
    const b64 = await page.evaluate(
      () =>
        new Promise<string>((res, rej) => {
          // The library's table cache in a browser (src/rank/idb-cache.ts): the cache file's name and bytes.
          const open = indexedDB.open('stackrank');
          open.onerror = () => rej(open.error);
          open.onsuccess = () => {
            const get = open.result.transaction('files').objectStore('files').get('rank-article-w9-s4-i2.srk');
            get.onerror = () => rej(get.error);
            get.onsuccess = async () => {
              const blob = new Blob([get.result as ArrayBuffer]);
              const url: string = await new Promise((r) => {
                const fr = new FileReader();
                fr.onload = () => r(fr.result as string);
                fr.readAsDataURL(blob);
              });
              open.result.close();
              res(url.slice(url.indexOf(',') + 1));
            };
          };
        }),
    );
    const bytes = Buffer.from(b64, 'base64');
    const lib = await import(join(ROOT, 'dist/index.js'));
    const table = await lib.loadRankTable(new Uint8Array(bytes));
    expect([table.width, table.maxStep, table.iterations]).toEqual([9, 4, ITERATIONS]);
    expect(table.rank(lib.parseSurface('44444444'))).toBeCloseTo(33 / 49, 4);
    expect(errors).toEqual([]);

    // Put it where `stackrank table build` would cache it: the demo server now serves it to a fresh browser.
    const research = await import(join(ROOT, 'dist/research.js'));
    const path: string = await research.cachedTablePath({ iterations: ITERATIONS }, { XDG_CACHE_HOME: cache });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    pageTable = table;
  });

  it("the paused page's counters are its games played again with its table", { timeout: 120_000 }, async () => {
    // Pieces and Tetrises in all and in the game under way, its lines, the games over and the longest.
    const { speed: _speed, rank: _rank, ...shown } = pausedAt!;
    const lib = await import(join(ROOT, 'dist/index.js'));
    const ai = await lib.TetrisAI.create({ table: pageTable, rules: 'guideline', lookahead: 1 });
    const options = { rules: 'guideline', randomizer: 'tgm1', seed: 7, garbage: 0 } as const;
    expect(shown).toEqual(replayWatch(ai, options, shown));
    expect(shown.gameTetrises).toBeGreaterThan(0);
  });

  it('switches to the full-board player, which clears lines', { timeout: 120_000 }, async () => {
    const page = browser.context.pages()[0];
    const errors = watchErrors(page);
    const before = await counters(page);
    await page.selectOption('#player', 'full');
    await page.waitForSelector('body[data-player=full]');
    await atLeast(page, 'game-pieces', 60);
    await atLeast(page, 'lines', 10);
    const after = await counters(page);
    // The page's total keeps counting across the switch: it holds every piece of the new game on top of the old total
    // (the old game may have placed more between the reads, never fewer).
    expect(after.gamePieces).toBeGreaterThanOrEqual(60);
    expect(after.pieces).toBeGreaterThanOrEqual(before.pieces + after.gamePieces);
    expect(await page.textContent('[data-testid=rank]')).toBe('–'); // no rank table in this mode
    // The full board is 10 plain columns: no well shading in the top right cell (the stacking board has one there).
    const topRight = await page.evaluate(() => {
      const c = document.getElementById('board') as HTMLCanvasElement;
      return Array.from(
        c
          .getContext('2d')!
          .getImageData(9 * 25 + 12, 12, 1, 1)
          .data.slice(0, 3),
      );
    });
    expect(topRight).toEqual([11, 12, 16]);
    expect(errors).toEqual([]);
  });

  it('opens straight in full-board mode without touching the rank table', { timeout: 120_000 }, async () => {
    const fresh = await launch();
    try {
      const page = await fresh.context.newPage();
      const errors = watchErrors(page);
      // mode=full: the link of the watch-only demo, still the full-board player in watch mode.
      await page.goto(demo.url + '?mode=full&speed=max&seed=3&lookahead=0');
      await page.waitForSelector('body[data-state=playing][data-mode=watch][data-player=full]', { timeout: 60_000 });
      await atLeast(page, 'pieces', 200);
      expect(Number(await page.textContent('[data-testid=lines]'))).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.body.dataset.tableSource ?? null)).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('loads the table from the demo server when the user has it cached', { timeout: 240_000 }, async () => {
    const res = await fetch(new URL(`api/table?iterations=${ITERATIONS}`, demo.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    await res.arrayBuffer();

    const fresh = await launch(); // an empty profile: nothing in IndexedDB
    try {
      const page = await fresh.context.newPage();
      const errors = watchErrors(page);
      await page.goto(demo.url + query);
      expect(await waitForTable(page)).toBe('server');
      await atLeast(page, 'pieces', 20, 30_000);
      expect(errors).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('says why it cannot start: a port in use (exit 1), a bad --port (exit 2)', async () => {
    const port = new URL(demo.url).port;
    const runCli = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((res) => {
        const child = spawn(process.execPath, [CLI, 'demo', ...args], {
          env: { ...process.env, XDG_CACHE_HOME: cache },
        });
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        const timer = setTimeout(() => child.kill('SIGINT'), 10_000);
        child.on('exit', (code) => (clearTimeout(timer), res({ code, err })));
      });
    const busy = await runCli(['--port', port]);
    expect(busy.code).toBe(1);
    expect(busy.err).toContain(`port ${port} is in use`);
    const bad = await runCli(['--port', '70000']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--port must be an integer from 0 to 65535');
  });

  it('stops cleanly on Ctrl-C (SIGINT) with exit code 130, the interrupt convention', async () => {
    const other = await startDemo({ XDG_CACHE_HOME: cache });
    expect((await fetch(other.url)).status).toBe(200);
    expect(await stop(other.child)).toBe(130);
    await expect(fetch(other.url)).rejects.toThrow();
  });
});
