/**
 * The demo under a timed rule set (nes) in Debian's Chromium (docs/demo.md): analyze mode at a chosen level and
 * timeline lists what `rankPlacements` lists in Node under the same frames, frame inputs included, and a level
 * change re-ranks the position (an upright I to the right well of a 13-row stack: a Tetris at level 18, no placement
 * at 29 with `X.`); play mode's pieces fall by the level's gravity and lock by themselves, each graded, with the
 * level and timeline kept in the links. Needs `npm run build` first (npm test does it). The 2-iteration table is built
 * once by the CLI into a temporary cache, which the demo server hands the page.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, skipWithoutChromium, type Browser } from './chromium.js';
import { CLI, DEMO, ROOT, startDemo, stopDemo, watchErrors, type Demo } from './demo-server.js';

const ITERATIONS = 2;

/** A stack of 13 rows on columns 0..8 with the right well open: 20 rows, top first. */
const STACK_13 = Array.from({ length: 20 }, (_, r) => (19 - r < 13 ? '#########.' : '..........'));

/** The ranked list as the page shows it, with each entry's frame inputs and text. */
function pageList(page: Page) {
  return page.$$eval('[data-testid=placement-list] > li', (items) =>
    items.map((li) => {
      const d = (li as HTMLElement).dataset;
      return {
        piece: d.piece,
        rotation: d.rotation,
        x: Number(d.x),
        y: Number(d.y),
        inputs: d.inputs,
        value: Number(Number(d.value).toFixed(6)),
        text: li.textContent ?? '',
      };
    }),
  );
}

const skip = skipWithoutChromium('browser demo NES test');

describe.skipIf(skip)('demo under nes: a level and a timeline (Chromium)', () => {
  let cache: string;
  let demo: Demo;
  let browser: Browser;
  // biome-ignore lint/suspicious/noExplicitAny: the built library, imported by path
  let lib: any;
  // biome-ignore lint/suspicious/noExplicitAny: a TetrisAI of the built library
  let aiAt: (level: number) => Promise<any>;

  beforeAll(async () => {
    for (const f of [CLI, DEMO]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm run build first`);
    cache = mkdtempSync(join(tmpdir(), 'stackrank-demo-nes-'));
    execFileSync(process.execPath, [CLI, 'table', 'build', '--iterations', String(ITERATIONS)], {
      env: { ...process.env, XDG_CACHE_HOME: cache },
      encoding: 'utf8',
    });
    lib = await import(join(ROOT, 'dist/index.js'));
    const research = await import(join(ROOT, 'dist/research.js'));
    const table = await lib.loadRankTable(
      await research.cachedTablePath({ iterations: ITERATIONS }, { XDG_CACHE_HOME: cache }),
    );
    aiAt = (level) =>
      lib.TetrisAI.create({ table, rules: { ...lib.RULE_SETS.nes, level, timeline: 'X.' }, lookahead: 1 });
    demo = await startDemo({ XDG_CACHE_HOME: cache });
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stopDemo(demo);
    if (cache) rmSync(cache, { recursive: true, force: true });
  });

  it("analyze: the placements the frames allow at the link's level, with their frames; another level re-ranks", {
    timeout: 60_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    const board = lib.Board.fromRows(STACK_13, 20);
    const fumen = lib.fumenFromBoard(board);
    await page.goto(
      `${demo.url}?mode=analyze&rules=nes&level=29&timeline=X.&iterations=${ITERATIONS}&fumen=${fumen}&queue=IT`,
    );
    await page.waitForSelector('[data-testid=placement-list][data-state=ranked] > li', { timeout: 60_000 });
    expect(await page.isVisible('[data-testid=level]')).toBe(true);
    expect(await page.inputValue('[data-testid=level]')).toBe('29');
    expect(await page.inputValue('[data-testid=timeline]')).toBe('X.');
    const expected = async (level: number) =>
      (await aiAt(level))
        .rankPlacements({ board, current: 'I', queue: 'T' }, { limit: 10 })
        // biome-ignore lint/suspicious/noExplicitAny: a RankedPlacement of the built library
        .placements.map((p: any) => ({
          piece: p.piece,
          rotation: p.rotation,
          x: p.x,
          y: p.y,
          inputs: p.inputs.join(' '),
          value: Number(p.value.toFixed(6)),
          linesCleared: p.linesCleared,
        }));
    const without = (l: { text: string }[]) => l.map(({ text, ...rest }) => rest);
    const at29 = await pageList(page);
    const lib29 = await expected(29);
    expect(without(at29)).toEqual(lib29.map(({ linesCleared, ...rest }: { linesCleared: number }) => rest));
    // Each entry says its presses with their frames; no I reaches the well for a Tetris at 29 with X.
    for (const e of at29) expect(e.text).toMatch(/\(locks on frame \d+\)$/);
    expect(lib29.some((p: { linesCleared: number }) => p.linesCleared === 4)).toBe(false);
    expect(await page.textContent('#an-unit')).toContain('Only placements the frames allow at level 29 with X.');

    // Level 18: the I reaches the well, and the AI takes the Tetris.
    await page.fill('[data-testid=level]', '18');
    await page.dispatchEvent('[data-testid=level]', 'change');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('level') === '18');
    await page.waitForSelector('[data-testid=placement-list][data-state=ranked] > li');
    const lib18 = await expected(18);
    expect(lib18[0].linesCleared).toBe(4);
    await page.waitForFunction(
      (first) => document.querySelector<HTMLElement>('[data-testid=placement-list] > li')?.dataset.inputs === first,
      lib18[0].inputs,
    );
    const at18 = await pageList(page);
    expect(without(at18)).toEqual(lib18.map(({ linesCleared, ...rest }: { linesCleared: number }) => rest));
    expect(at18[0].text).toContain('clears 4');
    expect(new URL(page.url()).searchParams.get('timeline')).toBe('X.');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('play: pieces fall by the level gravity and lock by themselves, each graded; a tap waits for its frame', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=play&rules=nes&level=19&timeline=X..&iterations=${ITERATIONS}&seed=4`);
    await page.waitForSelector('body[data-state=playing][data-mode=play]', { timeout: 60_000 });
    const boardSel = '[data-testid=board]';
    await page.locator(boardSel).focus();
    // Falling by itself: two frames a row at 19, about 30 rows a second. Polled every animation frame: one piece
    // (the same grade count, its row never rising) seen more than two rows under where it was first seen.
    await page.waitForFunction(() => {
      const seen = window as unknown as { fallFrom?: number; fallTurn?: string };
      const y = Number(document.querySelector<HTMLElement>('[data-testid=board]')?.dataset.pieceY);
      const turn = document.querySelector<HTMLElement>('[data-testid=grade]')?.dataset.count;
      if (seen.fallFrom === undefined || seen.fallTurn !== turn || y > seen.fallFrom) {
        seen.fallFrom = y;
        seen.fallTurn = turn;
        return false;
      }
      return y < seen.fallFrom - 2;
    });
    // Three pieces lock with no key pressed (about 0.9 s each), each graded.
    await page.waitForSelector('[data-testid=grade][data-count="3"]', { timeout: 10_000 });
    expect(['best', 'good', 'inaccuracy', 'mistake']).toContain(
      await page.getAttribute('[data-testid=grade]', 'data-grade'),
    );
    // Esc: the summary's links open analyze mode at the same level and timeline.
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=accuracy][data-value]');
    const links = await page.$$eval('[data-testid=worst] a', (as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const href of links) expect(href).toContain('rules=nes&level=19&timeline=X..');
    const query = new URL(page.url()).searchParams;
    expect([query.get('level'), query.get('timeline')]).toEqual(['19', 'X..']);

    // Level 0 (48 frames a row: the piece takes seconds to fall), 10 Hz: the hint gives the AI's frames, and a tap
    // moves the piece one column on the next frame the timeline allows.
    await page.goto(`${demo.url}?mode=play&rules=nes&level=0&timeline=X.....&iterations=${ITERATIONS}&seed=4`);
    await page.waitForSelector('body[data-state=playing][data-mode=play]', { timeout: 60_000 });
    await page.locator(boardSel).focus();
    await page.keyboard.press('h');
    await page.waitForSelector('[data-testid=hint][data-inputs]');
    expect(await page.textContent('[data-testid=hint-text]')).toMatch(/ — frames: .*\(locks on frame \d+\)$/);
    const x0 = Number(await page.getAttribute(boardSel, 'data-piece-x'));
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
      (x) => Number(document.querySelector<HTMLElement>('[data-testid=board]')?.dataset.pieceX) === x - 1,
      x0,
    );
    expect(await page.getAttribute('[data-testid=grade]', 'data-count')).toBe('0');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("play: the piece falls at the link's level, 48 frames a row at level 0 (the page's clock simulated)", {
    timeout: 60_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    // Playwright's clock drives the page's time: no wall-clock timing, the frames are counted.
    await page.clock.install();
    await page.goto(`${demo.url}?mode=play&rules=nes&level=0&timeline=X.....&iterations=${ITERATIONS}&seed=4`);
    await page.waitForSelector('body[data-state=playing][data-mode=play]', { timeout: 60_000 });
    await page.clock.pauseAt(Date.now() + 1000);
    const pieceY = async () => Number(await page.getAttribute('[data-testid=board]', 'data-piece-y'));
    const y0 = await pieceY();
    // 3 s are 180 frames at 60.0988 a second: 3.75 rows at 48 frames a row, so 3 or 4 by where the count began
    // (a faster level, e.g. the preset's 18 at 3 frames a row, would have locked the piece).
    for (let i = 0; i < 30; i++) await page.clock.runFor(100);
    expect(await page.getAttribute('[data-testid=grade]', 'data-count')).toBe('0');
    expect([3, 4]).toContain(y0 - (await pieceY()));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fits a 390 px wide screen with the level and timeline controls', { timeout: 60_000 }, async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=analyze&rules=nes&level=29&timeline=dasCharged&iterations=${ITERATIONS}`);
    await page.waitForSelector('[data-testid=placement-list][data-state=ranked]', { timeout: 60_000 });
    for (const id of ['level', 'timeline']) {
      const box = (await page.locator(`[data-testid=${id}]`).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    expect(await page.inputValue('[data-testid=timeline]')).toBe('dasCharged');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    await page.close();
  });
});
