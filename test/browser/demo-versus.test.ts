/**
 * The demo's versus mode in Debian's Chromium (docs/demo.md, "Versus"): the AI plays both boards for a while, and
 * every lock the page logged is replayed here through the rules layer — `lockOutcome` for the clear kind, the
 * back-to-back bonus and the attack, `garbageAfterLock` for what is sent, cancelled and let in — with a garbage
 * queue per side kept by this test. The page's meters, readouts and sent totals must be that replay's; the AI's own
 * figure for each move (GameMove.attack) must agree, which it does only when the page gave it the right counters.
 * Then a person's side: hard drops by the keyboard lock pieces on the left board. Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockOutcome, type ClearKind, type GarbageEntry, type VersusState } from '../../src/index.js';
import { garbageAfterLock } from '../../src/rules/garbage.js';
import type { LockReport } from '../../demo/versus.js';
import { launch, skipWithoutChromium, type Browser } from './chromium.js';
import { CLI, DEMO, startDemo, stopDemo, watchErrors, type Demo } from './demo-server.js';

const ITERATIONS = 2;
/** Locks (both sides) the AI against AI game must reach, unless a side tops out first. */
const LOCKS = 120;

/** The page's log of locks (demo/versus-page.ts). */
type PageWindow = Window & { versusLog?: unknown[] };

/** The log and what the page shows, read in one go (the page plays between two reads). */
function snapshot(page: Page) {
  return page.evaluate(() => {
    const side = (i: number) => {
      const last = document.getElementById(`vs-last-${i}`)!;
      return {
        meter: Number(document.getElementById(`vs-meter-${i}`)!.dataset.lines),
        incomingText: document.getElementById(`vs-meter-text-${i}`)!.textContent,
        lastText: last.textContent,
        lastKind: last.dataset.kind,
        lastAttack: last.dataset.attack,
        pieces: Number(document.getElementById(`vs-pieces-${i}`)!.textContent),
        sent: Number(document.getElementById(`vs-sent-${i}`)!.textContent),
      };
    };
    return {
      log: structuredClone((window as PageWindow).versusLog ?? []),
      sides: [side(0), side(1)],
      state: document.body.dataset.state,
      winner: document.body.dataset.winner,
      result: document.getElementById('vs-result')!.textContent,
    };
  });
}

const lines = (q: readonly GarbageEntry[]) => q.reduce((n, e) => n + e.lines, 0);

const skip = skipWithoutChromium('browser demo versus test');

describe.skipIf(skip)('demo versus mode (Chromium)', () => {
  let cache: string;
  let demo: Demo;
  let browser: Browser;

  beforeAll(async () => {
    for (const f of [CLI, DEMO]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm run build first`);
    cache = mkdtempSync(join(tmpdir(), 'stackrank-demo-versus-'));
    execFileSync(process.execPath, [CLI, 'table', 'build', '--iterations', String(ITERATIONS)], {
      env: { ...process.env, XDG_CACHE_HOME: cache },
      stdio: 'ignore',
    });
    demo = await startDemo({ XDG_CACHE_HOME: cache });
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stopDemo(demo);
    if (cache) rmSync(cache, { recursive: true, force: true });
  });

  it('AI against AI: every attack, cancel, meter and readout is the rules layer’s', { timeout: 180_000 }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=versus&versus=ai&iterations=${ITERATIONS}&seed=3&speed=max`);
    await page.waitForSelector('body[data-mode=versus][data-versus=ai]', { timeout: 60_000 });
    expect(await page.inputValue('[data-testid=vs-speed]')).toBe('max'); // the link's speed is the select's
    // Play on until garbage has entered a board as well (how soon depends on the AI's play), or the game is over.
    await page.waitForFunction(
      (n) => {
        const log = ((window as PageWindow).versusLog ?? []) as { entered: number }[];
        return (log.length >= n && log.some((r) => r.entered > 0)) || document.body.dataset.state === 'over';
      },
      LOCKS,
      { timeout: 120_000 },
    );
    await page.click('[data-testid=vs-pause]');
    const shot = await snapshot(page);
    const log = shot.log as LockReport[];
    expect(log.length).toBeGreaterThanOrEqual(shot.state === 'over' ? 10 : LOCKS);

    // The replay: each side's counters and garbage queue, kept here from the logged locks alone.
    const state: VersusState[] = [
      { combo: 0, backToBack: 0 },
      { combo: 0, backToBack: 0 },
    ];
    const queue: GarbageEntry[][] = [[], []];
    const sent = [0, 0];
    const pieces = [0, 0];
    const last: (LockReport | null)[] = [null, null];
    for (const [i, r] of log.entries()) {
      const at = `lock ${i} (side ${r.side}, piece ${r.piece})`;
      const other = r.side === 0 ? 1 : 0;
      // AI against AI: the sides take turns.
      expect(r.side, at).toBe(i % 2);
      expect(r.piece, at).toBe(++pieces[r.side]);
      // Only a game's last lock may be the one whose garbage topped its side out.
      expect(r.toppedOut, at).toBe(shot.state === 'over' && i === log.length - 1 && r.toppedOut);
      expect(r.before, at).toEqual(state[r.side]);
      const out = lockOutcome({ lines: r.lines, spin: r.spin, perfectClear: r.perfectClear }, r.before, 'guideline');
      expect({ kind: r.kind, attack: r.attack, b2b: r.backToBackBonus }, at).toEqual({
        kind: out.kind,
        attack: out.attack,
        b2b: out.backToBackBonus,
      });
      expect(r.aiAttack, at).toBe(out.attack);
      state[r.side] = out.state;
      const step = garbageAfterLock(queue[r.side], out.attack, r.lines);
      expect({ sent: r.sent, cancelled: r.cancelled, entered: r.entered }, at).toEqual({
        sent: step.sent,
        cancelled: step.cancelled,
        entered: step.entering.reduce((a, b) => a + b, 0),
      });
      queue[r.side] = [...step.queue];
      if (step.sent > 0) queue[other].push({ lines: step.sent, delay: 0 });
      sent[r.side] += step.sent;
      expect({ incoming: r.incoming, opponent: r.opponentIncoming }, at).toEqual({
        incoming: lines(queue[r.side]),
        opponent: lines(queue[other]),
      });
      // The readout names the clear kind, B2B when the bonus applies, and the attack in lines.
      if (out.kind === 'none') expect(r.text, at).toBe('');
      else {
        expect(r.text.startsWith(`${readout(out.kind)},`), `${at}: ${r.text}`).toBe(true);
        expect(r.text.includes('B2B'), at).toBe(out.backToBackBonus);
        expect(r.text, at).toContain(`, ${out.attack} line${out.attack === 1 ? '' : 's'}`);
        last[r.side] = r;
      }
    }
    // The game exchanged garbage: lines were sent, and some entered a board.
    expect(sent[0] + sent[1]).toBeGreaterThan(0);
    expect(log.some((r) => r.entered > 0)).toBe(true);
    // What the page shows now is the replay's end.
    for (const side of [0, 1] as const) {
      const s = shot.sides[side];
      expect(s.meter, `meter ${side}`).toBe(lines(queue[side]));
      expect(s.incomingText).toBe(String(lines(queue[side])));
      expect(s.pieces).toBe(pieces[side]);
      expect(s.sent).toBe(sent[side]);
      expect(s.lastText).toBe(last[side]?.text ?? '–');
      expect(s.lastKind).toBe(last[side]?.kind ?? '');
      expect(s.lastAttack).toBe(last[side] ? String(last[side].attack) : '');
    }
    if (shot.state === 'over') expect(shot.result).toMatch(/^The (left|right) AI won: the (left|right) AI topped out/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a person against the AI: hard drops lock pieces on the left board, and topping out loses', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${demo.url}?mode=versus&versus=person&iterations=${ITERATIONS}&seed=4&speed=1`);
    await page.waitForSelector('body[data-mode=versus][data-versus=person][data-state=playing]', { timeout: 60_000 });
    for (let n = 1; n <= 3; n++) {
      await page.keyboard.press('Space');
      await page.waitForFunction((k) => document.getElementById('vs-pieces-0')!.textContent === String(k), n);
    }
    const log = (await snapshot(page)).log as LockReport[];
    const mine = log.filter((r) => r.side === 0);
    expect(mine.map((r) => r.piece)).toEqual([1, 2, 3]);
    // Nothing cleared on an empty board from three drops: no attack, no readout, the person's meter as the AI sent.
    for (const r of mine)
      expect({ kind: r.kind, attack: r.attack, aiAttack: r.aiAttack }).toEqual({
        kind: 'none',
        attack: 0,
        aiAttack: undefined,
      });
    // Hard drops where the pieces appear stack up to the top: the AI wins.
    for (let n = 0; n < 60 && (await page.getAttribute('body', 'data-state')) !== 'over'; n++) {
      await page.keyboard.press('Space');
      await page.waitForTimeout(20);
    }
    expect(await page.getAttribute('body', 'data-winner')).toBe('1');
    expect(await page.textContent('[data-testid=vs-result]')).toMatch(
      /^The AI won: you topped out after \d+ pieces\.$/,
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The readout's words for a clear kind (docs/demo.md, "Versus"). */
function readout(kind: ClearKind): string {
  const words: Record<ClearKind, string> = {
    none: '',
    single: 'Single',
    double: 'Double',
    triple: 'Triple',
    tetris: 'Tetris',
    tSpinMini: 'T-spin mini',
    tSpinMiniSingle: 'T-spin mini single',
    tSpinMiniDouble: 'T-spin mini double',
    tSpin: 'T-spin',
    tSpinSingle: 'T-spin single',
    tSpinDouble: 'T-spin double',
    tSpinTriple: 'T-spin triple',
  };
  return words[kind];
}
