/**
 * The demo's play and analyze modes in Debian's Chromium with real keyboard and mouse input (docs/demo.md):
 * 50 pieces played by keys with a grade after each, the hint key, a board drawn by clicks and ranked, a fumen link
 * giving the same list as `stackrank analyze --fumen`, watch mode's counters against its games replayed in Node, bad
 * query values reported, and the page at 390 px wide with nothing outside the viewport. Needs `npm run build` first
 * (npm test does it). The rank table (9 columns, 2 iterations) is built once by the CLI into a temporary cache, which
 * the demo server then serves to the page.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, skipWithoutChromium, type Browser } from './chromium.js';
import { CLI, DEMO, ROOT, replayWatch, startDemo, stopDemo, watchErrors, type Demo } from './demo-server.js';

const ITERATIONS = 2;
/** Screenshots for a person to look at (docs/ has its own, from scripts/demo-screenshots.mjs). */
const SHOTS = join(tmpdir(), 'stackrank-demo-modes');
/** A guideline position with a hole and an overhang; the quiz comment gives T now, then S Z O I. */
const FUMEN = 'v115@9gA8IeB8EeF8AeJ8AeE8JeAgWYAFLDmClcJSAVDEHB?EooRBUoAVBzHDMC';

/** The ranked list as the page shows it: one entry per child of placement-list. */
function pageList(page: Page) {
  return page.$$eval('[data-testid=placement-list] > li', (items) =>
    items.map((li) => {
      const d = (li as HTMLElement).dataset;
      return {
        hold: d.hold === 'true',
        piece: d.piece,
        rotation: d.rotation,
        x: Number(d.x),
        y: Number(d.y),
        value: Number(Number(d.value).toFixed(6)),
        loss: Number(Number(d.loss).toFixed(6)),
      };
    }),
  );
}

/** The keys a person presses for one of the AI's inputs (both bindings of a doubly bound action take turns). */
function keysFor(input: string, turn: number): string[] {
  switch (input) {
    case 'left':
      return ['ArrowLeft'];
    case 'right':
      return ['ArrowRight'];
    case 'dasLeft':
      return new Array(10).fill('ArrowLeft'); // shifting until blocked: taps do what a held key does
    case 'dasRight':
      return new Array(10).fill('ArrowRight');
    case 'cw':
      return [turn % 2 ? 'x' : 'ArrowUp'];
    case 'ccw':
      return ['z'];
    case 'softDrop':
      return ['ArrowDown'];
    case 'hold':
      return [turn % 2 ? 'Shift' : 'c'];
    case 'hardDrop':
      return ['Space'];
    default:
      throw new Error(`no key for input ${input}`);
  }
}

const skip = skipWithoutChromium('browser demo modes test');

describe.skipIf(skip)('demo modes: play, analyze, 390 px (Chromium)', () => {
  let cache: string;
  let demo: Demo;
  let browser: Browser;
  let cliList: { hold: boolean; piece: string; rotation: string; x: number; y: number; value: number; loss: number }[];

  beforeAll(async () => {
    for (const f of [CLI, DEMO]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm run build first`);
    cache = mkdtempSync(join(tmpdir(), 'stackrank-demo-modes-'));
    // The CLI builds the 2-iteration table into the cache (the demo server then serves it) and ranks the fumen.
    const out = execFileSync(
      process.execPath,
      [CLI, 'analyze', '--fumen', FUMEN, '--iterations', String(ITERATIONS), '--json'],
      { env: { ...process.env, XDG_CACHE_HOME: cache }, encoding: 'utf8' },
    );
    cliList = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((o) => !o.summary)
      .map((o) => ({
        hold: o.hold,
        piece: o.piece,
        rotation: o.rotation,
        x: o.x,
        y: o.y,
        value: Number(o.value.toFixed(6)),
        loss: Number(o.loss.toFixed(6)),
      }));
    demo = await startDemo({ XDG_CACHE_HOME: cache });
    browser = await launch();
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stopDemo(demo);
    if (cache) rmSync(cache, { recursive: true, force: true });
  });

  it('plays 50 pieces by keys, the AI grading each; the hint key shows the AI move; Esc shows the accuracy', {
    timeout: 180_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=play&iterations=${ITERATIONS}&seed=11&sdr=0`);
    await page.waitForSelector('body[data-state=playing][data-mode=play]', { timeout: 60_000 });
    expect(await page.evaluate(() => document.body.dataset.tableSource)).toBe('server');
    await page.locator('[data-testid=board]').focus();
    const grades: string[] = [];
    for (let n = 0; n < 50; n++) {
      // The hint key: the AI's move for this turn, shown on the board and as the keys to press.
      await page.keyboard.press('h');
      const hint = await page.waitForSelector(`[data-testid=hint][data-turn="${n}"][data-inputs]`);
      const inputs = ((await hint.getAttribute('data-inputs')) ?? '').split(' ');
      expect(inputs.at(-1)).toBe('hardDrop');
      if (n === 0) expect(await page.textContent('[data-testid=hint-text]')).toMatch(/^AI: .* — keys: /);
      for (const input of inputs) for (const key of keysFor(input, n)) await page.keyboard.press(key);
      const grade = await page.waitForSelector(`[data-testid=grade][data-count="${n + 1}"]`);
      const g = (await grade.getAttribute('data-grade')) ?? '';
      // (a failure shows the keys typed and the page's explanation)
      grades.push(
        g === 'best' ? g : `${g} after ${inputs.join(' ')}: ${await page.textContent('[data-testid=grade-detail]')}`,
      );
    }
    // Typing the AI's keys places exactly the AI's move: every grade is "best".
    expect(grades).toEqual(new Array(50).fill('best'));
    expect(Number(await page.textContent('#n-best'))).toBe(50);
    await page.screenshot({ path: join(SHOTS, 'demo-play.png') });

    // One careless move (a hard drop where the piece appears), graded like any other.
    await page.keyboard.press('Space');
    const last = await page.waitForSelector('[data-testid=grade][data-count="51"]');
    const lastGrade = (await last.getAttribute('data-grade')) ?? '';
    expect(['best', 'good', 'inaccuracy', 'mistake']).toContain(lastGrade);

    await page.keyboard.press('Escape');
    const acc = await page.waitForSelector('[data-testid=accuracy][data-value]');
    const value = Number(await acc.getAttribute('data-value'));
    expect([100, (100 * 50) / 51].map((v) => v.toFixed(1))).toContain(value.toFixed(1));
    // The summary counts the 51 grades, the lines the game cleared and the 50 hints asked for.
    const n = (grade: string) => (grade === 'best' ? 50 : 0) + (lastGrade === grade ? 1 : 0);
    const cleared = Number(await page.textContent('#play-lines'));
    const summary =
      `Accuracy ${value.toFixed(0)} % (best or good): ${n('best')} best, ${n('good')} good, ` +
      `${n('inaccuracy')} inaccurac${n('inaccuracy') === 1 ? 'y' : 'ies'}, ${n('mistake')} mistake` +
      `${n('mistake') === 1 ? '' : 's'}; ${cleared} line${cleared === 1 ? '' : 's'}, `;
    const text = (await acc.textContent()) ?? '';
    expect(text.startsWith(summary), text).toBe(true);
    expect(text.slice(summary.length)).toMatch(/^\d+ Tetris(es)?, 50 hints\.$/);
    // The worst moves: only the careless one can be there, with its position drawn and the AI's move named.
    const worst = await page.$$('[data-testid=worst] > li');
    expect(worst.length).toBe(value === 100 ? 0 : 1);
    if (worst.length) expect(await worst[0].textContent()).toContain('Piece 51');

    // Analyze mode takes the play position: the board, the piece to play and the preview.
    const lines = Number(await page.textContent('#play-lines'));
    await page.selectOption('[data-testid=mode]', 'analyze');
    await page.click('[data-testid=an-take]');
    await page.waitForSelector('[data-testid=placement-list][data-state=ranked] > li');
    const fumen = new URL(page.url()).searchParams.get('fumen');
    const queue = new URL(page.url()).searchParams.get('queue') ?? '';
    expect(fumen).toMatch(/^v115@/);
    expect(queue).toMatch(/^[IOTSZJL]{6}$/); // the current piece and five previews
    expect(await page.inputValue('[data-testid=an-current]')).toBe(queue[0]);
    const lib = await import(join(ROOT, 'dist/index.js'));
    // The board after the 51 pieces: 4 cells each, 10 fewer per line cleared.
    const rows: string[] = lib.boardFromFumen(fumen).board.toRows();
    const filled = rows.join('').replace(/\./g, '').length;
    expect(filled).toBe(4 * 51 - 10 * lines);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('repeats a held key after DAS every ARR ms, and a held soft drop, by the settings', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=play&iterations=${ITERATIONS}&seed=3&das=100&arr=20&sdr=40`);
    await page.waitForSelector('body[data-state=playing][data-mode=play]', { timeout: 60_000 });
    const board = '[data-testid=board]';
    const x0 = Number(await page.getAttribute(board, 'data-piece-x'));
    expect(x0).toBeGreaterThan(1);
    await page.keyboard.press('ArrowRight'); // a tap: one column
    await page.waitForSelector(`${board}[data-piece-x="${x0 + 1}"]`);
    await page.keyboard.down('ArrowLeft'); // held: one column, then after DAS one every ARR until the wall
    await page.waitForSelector(`${board}[data-piece-x="0"]`);
    await page.keyboard.up('ArrowLeft');
    const y0 = Number(await page.getAttribute(board, 'data-piece-y'));
    await page.keyboard.down('ArrowDown'); // held: a row every 40 ms down to rest, no lock
    await page.waitForSelector(`${board}[data-resting=true]`);
    await page.keyboard.up('ArrowDown');
    expect(Number(await page.getAttribute(board, 'data-piece-y'))).toBeLessThan(y0);
    expect(await page.getAttribute('[data-testid=grade]', 'data-count')).toBe('0');
    // The remapped key: click the hard drop's button, press Enter; Enter now locks the piece.
    await page.click('[data-action=hardDrop]');
    await page.keyboard.press('Enter');
    await page.locator(board).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=grade][data-count="1"]');
    await page.click('#keys-reset');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('moves the piece by each rule set’s own model: hint keys give the AI’s placement under every rule set', {
    timeout: 180_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    for (const rules of ['classic', 'nesUntimed', 'tgm', 'tgm20g']) {
      await page.goto(`${demo.url}?mode=play&iterations=${ITERATIONS}&seed=3&sdr=0&rules=${rules}`);
      await page.waitForSelector('body[data-state=playing][data-mode=play]', { timeout: 60_000 });
      const grades: string[] = [];
      for (let n = 0; n < 12; n++) {
        await page.keyboard.press('h');
        const hint = await page.waitForSelector(`[data-testid=hint][data-turn="${n}"][data-inputs]`);
        const inputs = ((await hint.getAttribute('data-inputs')) ?? '').split(' ');
        expect(inputs).not.toContain('hold'); // none of these rule sets has hold
        for (const input of inputs) for (const key of keysFor(input, n)) await page.keyboard.press(key);
        const grade = await page.waitForSelector(`[data-testid=grade][data-count="${n + 1}"]`);
        const g = (await grade.getAttribute('data-grade')) ?? '';
        grades.push(g === 'best' ? g : `${rules} ${g} after ${inputs.join(' ')}`);
      }
      expect(grades).toEqual(new Array(12).fill('best'));
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws a board by clicks (and a cell by keys) in analyze mode and ranks it as the library does', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=analyze&iterations=${ITERATIONS}&queue=LJ`);
    await page.waitForSelector('[data-testid=placement-list][data-state=ranked]', { timeout: 60_000 });
    const board = page.locator('[data-testid=board]');
    const box = (await board.boundingBox())!;
    const size = box.width / 10; // 10 columns; 22 rows drawn, the top two above the field
    const click = (x: number, y: number) => page.mouse.click(box.x + (x + 0.5) * size, box.y + (21 - y + 0.5) * size);
    const filled: [number, number][] = [];
    for (let x = 0; x < 10; x++) if (x !== 4) filled.push([x, 0]);
    for (const x of [0, 1, 2, 6, 7, 8]) filled.push([x, 1]);
    filled.push([0, 2]);
    for (const [x, y] of filled) await click(x, y);
    // Keyboard: the board takes focus, arrows move the cursor (from the last clicked cell), Space toggles.
    await board.focus();
    await page.keyboard.press('ArrowUp'); // (0, 3)
    await page.keyboard.press('Space');
    filled.push([0, 3]);
    const rows: string[] = [];
    for (let y = 3; y >= 0; y--) {
      let s = '';
      for (let x = 0; x < 10; x++) s += filled.some(([a, b]) => a === x && b === y) ? '#' : '.';
      rows.push(s);
    }
    const lib = await import(join(ROOT, 'dist/index.js'));
    const research = await import(join(ROOT, 'dist/research.js'));
    const table = await lib.loadRankTable(
      await research.cachedTablePath({ iterations: ITERATIONS }, { XDG_CACHE_HOME: cache }),
    );
    const ai = await lib.TetrisAI.create({ table, rules: 'guideline', lookahead: 1 });
    const drawn = lib.Board.fromRows(rows, 20);
    // The list is for this board once the page's copy of it has the same fumen.
    await page.waitForSelector(`[data-testid=placement-list][data-fumen="${lib.fumenFromBoard(drawn)}"]`);
    const expected = ai
      .rankPlacements({ board: drawn, current: 'L', queue: 'J', hold: null, canHold: true }, { limit: 10 })
      .placements.map((p: Record<string, unknown>) => ({
        hold: p.hold,
        piece: p.piece,
        rotation: p.rotation,
        x: p.x,
        y: p.y,
        value: Number((p.value as number).toFixed(6)),
        loss: Number((p.loss as number).toFixed(6)),
      }));
    const shown = await pageList(page);
    expect(shown.length).toBe(10);
    expect(shown).toEqual(expected);
    // The URL holds the drawn position: the same board comes back from its fumen.
    const fumen = new URL(page.url()).searchParams.get('fumen')!;
    expect(lib.boardFromFumen(fumen).board.toRows().slice(-4)).toEqual(rows);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('loads ?mode=analyze&fumen=… and lists what `stackrank analyze --fumen … --json` prints', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=analyze&iterations=${ITERATIONS}&fumen=${FUMEN}`);
    await page.waitForSelector('[data-testid=placement-list][data-state=ranked]', { timeout: 60_000 });
    expect(cliList.length).toBe(10);
    expect(await pageList(page)).toEqual(cliList);
    expect(await page.inputValue('[data-testid=an-current]')).toBe('T');
    expect(await page.inputValue('[data-testid=an-queue]')).toBe('SZOI');
    await page.screenshot({ path: join(SHOTS, 'demo-analyze.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('watch: the game AI on a real board shows its mode, recovers from garbage, and counts its Tetris rate', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=watch&iterations=${ITERATIONS}&speed=max&seed=2&garbage=20`);
    await page.waitForSelector('body[data-state=playing][data-player=tetris]', { timeout: 60_000 });
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=lines]')?.textContent) >= 20);
    // Both modes played: stack on the clean board, recover once garbage has filled the well (read in one tick).
    const seen = await page.evaluate(() => {
      const n = (id: string) => Number(document.querySelector(`[data-testid=${id}]`)?.textContent);
      return {
        pieces: n('game-pieces'),
        recover: n('recover-moves'),
        mode: document.querySelector<HTMLElement>('[data-testid=ai-mode]')?.dataset.aiMode,
        tetrises: n('game-tetrises'),
        lines: n('lines'),
        rate: document.querySelector('[data-testid=tetris-rate]')?.textContent,
      };
    });
    expect(seen.recover).toBeGreaterThan(0);
    expect(seen.recover).toBeLessThan(seen.pieces);
    expect(['stack', 'recover']).toContain(seen.mode);
    // The Tetris rate: the share of the game's lines cleared by Tetrises, 4 lines each (docs/demo.md, "Watch").
    expect(seen.tetrises).toBeGreaterThan(0);
    expect(seen.rate).toBe(`${Math.round((100 * 4 * seen.tetrises) / seen.lines)} %`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('watch: games over, the longest and the totals are the games the page played, replayed here', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    // A garbage row after every piece: games end within a few dozen pieces.
    await page.goto(`${demo.url}?mode=watch&iterations=${ITERATIONS}&speed=max&seed=5&garbage=1`);
    await page.waitForSelector('body[data-state=playing][data-player=tetris]', { timeout: 60_000 });
    // Paused from inside the page while a game is under way, once four games are over.
    await page.waitForFunction(
      () => {
        const live =
          Number(document.querySelector('[data-testid=games]')?.textContent) >= 4 &&
          document.getElementById('banner')!.hidden;
        if (live) document.getElementById('pause')!.click();
        return live;
      },
      undefined,
      { timeout: 60_000 },
    );
    await page.waitForTimeout(300); // a frame or two to show the last count
    const shown = await page.evaluate(() => {
      const text = (id: string) => document.querySelector(`[data-testid=${id}]`)?.textContent ?? '';
      const n = (id: string) => Number(text(id));
      return {
        pieces: n('pieces'),
        tetrises: n('tetrises'),
        gamePieces: n('game-pieces'),
        gameTetrises: n('game-tetrises'),
        lines: n('lines'),
        games: n('games'),
        best: text('best'),
      };
    });
    const lib = await import(join(ROOT, 'dist/index.js'));
    const research = await import(join(ROOT, 'dist/research.js'));
    const table = await lib.loadRankTable(
      await research.cachedTablePath({ iterations: ITERATIONS }, { XDG_CACHE_HOME: cache }),
    );
    const ai = await lib.TetrisAI.create({ table, rules: 'guideline', lookahead: 1 });
    // guideline's own randomizer is bag7 (docs/demo.md, "Watch")
    const options = { rules: 'guideline', randomizer: 'bag7', seed: 5, garbage: 1 } as const;
    const { pieces: placed, ...replayed } = replayWatch(ai, options, shown);
    const { pieces, ...rest } = shown;
    expect(rest).toEqual(replayed);
    expect(rest.best).not.toBe('–');
    // Every piece placed counts (docs/demo.md), the last one of a game a garbage row then ended too.
    expect(pieces).toBe(placed);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the URL follows the view: an old mode=full link, and each watch setting as it changes', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=full&iterations=${ITERATIONS}&speed=10`);
    await page.waitForSelector('body[data-state=playing][data-player=full]', { timeout: 60_000 });
    const query = () => new URL(page.url()).searchParams;
    expect(query().get('mode')).toBe('watch');
    expect(query().get('player')).toBe('full'); // a reload opens the full-board player again
    expect(query().get('rules')).toBe('guideline'); // the rule set is always there
    await page.selectOption('[data-testid=player]', 'tetris');
    await page.waitForSelector('body[data-state=playing][data-player=tetris]', { timeout: 60_000 });
    await page.selectOption('#garbage', '8');
    await page.selectOption('#lookahead', '0');
    await page.selectOption('#speed-select', 'max');
    expect(query().get('garbage')).toBe('8');
    expect(query().get('lookahead')).toBe('0');
    expect(query().get('speed')).toBe('max');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("analyze: a link's bad fumen is reported until another position is loaded", { timeout: 120_000 }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=analyze&iterations=${ITERATIONS}&fumen=v115@vh!AgH`);
    await page.waitForSelector('[data-testid=placement-list][data-state=ranked]', { timeout: 60_000 });
    expect(await page.textContent('#message')).toMatch(
      /^Check the link: fumen: .*"!" at character 7 is not fumen data/,
    );
    await page.fill('#an-fumen', 'v115@vhAAgH');
    await page.click('#an-load');
    await page.waitForSelector('#message[hidden]', { state: 'attached' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works with the keyboard alone: the mode list, a placement in play, a cell in analyze', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?iterations=${ITERATIONS}&seed=8&speed=10`);
    await page.waitForSelector('body[data-state=playing][data-mode=watch]', { timeout: 60_000 });
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('mode'); // the first control
    await page.keyboard.press('ArrowDown'); // watch → play; the keys then go to the board
    await page.waitForSelector('body[data-mode=play][data-state=playing]', { timeout: 60_000 });
    expect(await focused()).toBe('board');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Space');
    await page.waitForSelector('[data-testid=grade][data-count="1"]');
    await page.keyboard.press('Shift+Tab'); // board → rules → mode
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('mode');
    await page.keyboard.press('ArrowDown'); // play → analyze
    await page.waitForSelector('[data-testid=placement-list][data-state=ranked]', { timeout: 60_000 });
    expect(await focused()).toBe('board');
    const before = await page.getAttribute('[data-testid=placement-list]', 'data-fumen');
    await page.keyboard.press('Space'); // toggles the cell under the cursor
    await page.waitForFunction(
      (f) => document.querySelector('[data-testid=placement-list]')?.getAttribute('data-fumen') !== f,
      before,
    );
    expect(new URL(page.url()).searchParams.get('mode')).toBe('analyze');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('hard drops where the pieces appear until the stack tops out: "tops out", never the top-out charge', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=play&iterations=${ITERATIONS}&seed=1`);
    await page.waitForSelector('body[data-state=playing][data-mode=play]', { timeout: 60_000 });
    await page.locator('[data-testid=board]').focus();
    await page.keyboard.press('h'); // one hint asked for
    const details: string[] = [];
    for (let n = 1; n <= 40 && !(await page.isVisible('[data-testid=summary]')); n++) {
      await page.keyboard.press('Space');
      await page.waitForSelector(`[data-testid=grade][data-count="${n}"]`);
      details.push((await page.textContent('[data-testid=grade-detail]')) ?? '');
    }
    expect(await page.textContent('#banner')).toMatch(/^Topped out after \d+ pieces$/);
    // The move that topped out says so; no detail prints the recover search's top-out charge (about 1e9 a move).
    expect(details.at(-1)).toMatch(/^Tops out \(the game ends with it/);
    for (const d of details) expect(d).not.toMatch(/\d{7}/);
    const summary = (await page.textContent('[data-testid=summary]')) ?? '';
    expect(summary).not.toMatch(/\d{7}/);
    expect(summary).toMatch(/, 1 hint\./);
    expect(await page.locator('[data-testid=worst] > li').first().textContent()).toMatch(/which tops out/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says which query values are wrong, and still starts', { timeout: 60_000 }, async () => {
    const page = await browser.context.newPage();
    await page.goto(`${demo.url}?mode=dance&rules=tetris99&fumen=nope&queue=TQ&hold=TS&iterations=${ITERATIONS}`);
    const message = await page.waitForSelector('[data-testid=message]:visible');
    const text = (await message.textContent()) ?? '';
    expect(text).toContain('mode="dance" is not one of watch, play, analyze');
    expect(text).toContain('rules="tetris99" is not one of classic, nes, nesUntimed, guideline, tgm, tgm20g');
    expect(text).toContain('fumen: not a readable fumen');
    expect(text).toContain('queue="TQ" must be piece letters');
    expect(text).toContain('hold="TS" must be one piece letter (I O T S Z L J), e.g. T; ignored');
    await page.waitForSelector('body[data-state=playing][data-mode=watch]', { timeout: 60_000 });
    await page.close();
  });

  it('fits a 390 px wide screen in every mode: no element outside the viewport', { timeout: 120_000 }, async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const errors = watchErrors(page);
    for (const mode of ['watch', 'play', 'analyze', 'versus']) {
      await page.goto(`${demo.url}?mode=${mode}&iterations=${ITERATIONS}&seed=3&fumen=${FUMEN}`);
      await page.waitForSelector(`body[data-mode=${mode}][data-state]`, { timeout: 60_000 });
      const outside = await page.evaluate(() => {
        const bad: string[] = [];
        for (const el of document.querySelectorAll<HTMLElement>('body *')) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0 || el.closest('[hidden]')) continue;
          if (r.left < -0.5 || r.right > window.innerWidth + 0.5)
            bad.push(
              `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${r.left.toFixed(0)}..${r.right.toFixed(0)}`,
            );
        }
        return { bad, scroll: document.documentElement.scrollWidth };
      });
      expect(outside.bad).toEqual([]);
      expect(outside.scroll).toBeLessThanOrEqual(390);
      if (mode === 'play') {
        // A phone has no keyboard: the touch buttons play.
        await page.click('[data-act=left]');
        await page.click('[data-act=cw]');
        await page.click('[data-act=hardDrop]');
        await page.waitForSelector('[data-testid=grade][data-count="1"]');
      }
      await page.screenshot({ path: join(SHOTS, `demo-390-${mode}.png`), fullPage: true });
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
