/**
 * TbpClient (src/tbp/client.ts), the front end's side, against small scripted bot programs: what a well-behaved bot
 * says comes back in order, and every way a bot can misbehave (no program, exits, writes what is not a message,
 * answers with an error, says nothing) is a StackRankError('IO') saying which, never a hang.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import { TbpClient } from '../../src/tbp/client.js';

/** The pid the last fakeBot reported on stderr (its first line), once it has. */
let lastPid: Promise<number> = Promise.resolve(-1);

/** A bot program written in JavaScript: `script` runs with `say(object)` and `lines` (an async iterator). */
function fakeBot(script: string, timeoutMs = 3000, signal?: AbortSignal) {
  const prelude = `process.stderr.write('pid ' + process.pid + '\\n');
const say = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const lines = require('node:readline').createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const next = async () => JSON.parse((await lines.next()).value);`;
  let stderr = '';
  let reportPid: (pid: number) => void = () => {};
  lastPid = new Promise((r) => {
    reportPid = r;
  });
  return TbpClient.spawn(process.execPath, ['-e', `${prelude}\n(async () => { ${script} })();`], {
    timeoutMs,
    signal,
    stderr: (text) => {
      stderr += text;
      const m = /pid (\d+)/.exec(stderr);
      if (m) reportPid(Number(m[1]));
    },
  });
}

/** Whether process `pid` is gone (kill(pid, 0) fails with ESRCH) within `ms`, looked at every 20 ms. */
async function goneWithin(pid: number, ms = 2000): Promise<boolean> {
  expect(pid).toBeGreaterThan(0);
  const until = Date.now() + ms;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
      throw e;
    }
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const info = `say({ type: 'info', name: 'fake', version: '1', author: 'test', features: [] });`;

async function ioError(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StackRankError);
  expect((e as StackRankError).code).toBe('IO');
  return (e as StackRankError).message;
}

describe('TbpClient', () => {
  it('follows a well-behaved bot: info, ready, a suggestion; quit ends it', async () => {
    const bot = await fakeBot(`${info}
      for (;;) {
        const m = await next();
        if (m.type === 'rules') say({ type: 'ready' });
        if (m.type === 'suggest') say({ type: 'suggestion', moves: [{ location: { type: 'T', orientation: 'north', x: 4, y: 0 }, spin: 'none' }] });
        if (m.type === 'quit') process.exit(0);
      }`);
    expect(bot.info).toMatchObject({ name: 'fake' });
    await bot.rules({ randomizer: 'seven_bag' });
    bot.start({ board: [], queue: ['T'], hold: null, combo: 0, back_to_back: false });
    expect((await bot.suggest()).moves).toHaveLength(1);
    await bot.quit();
  });

  it('a program that cannot run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stackrank-tbp-'));
    try {
      const missing = join(dir, 'no-such-bot');
      expect(await ioError(TbpClient.spawn(missing, [], { timeoutMs: 3000 }))).toMatch(/could not run/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bot that exits before its info, and one that exits while a suggestion is due', async () => {
    expect(await ioError(fakeBot('process.exit(3);'))).toMatch(/exited \(code 3\)/);
    const bot = await fakeBot(`${info} await next(); process.exit(0);`);
    expect(await ioError(bot.suggest())).toMatch(/exited/);
    expect(() => bot.newPiece('T')).toThrow(StackRankError);
  });

  it('a bot that writes something that is not a message', async () => {
    // It would live on for 30 s: the failed open ends it.
    expect(await ioError(fakeBot(`process.stdout.write('hello\\n'); setTimeout(() => {}, 30000);`))).toMatch(/"hello"/);
    expect(await goneWithin(await lastPid)).toBe(true);
  });

  it('a bot that answers rules with an error names its reason', async () => {
    const bot = await fakeBot(
      `${info} await next(); say({ type: 'error', reason: 'unsupported_rules', message: 'no' }); setTimeout(() => {}, 30000);`,
    );
    const pid = await lastPid;
    expect(await ioError(bot.rules())).toMatch(/error "unsupported_rules": no where ready after rules was due/);
    // It ignores quit (and would live on for 30 s): quit ends it once its 100 ms of grace are over.
    const quitting = bot.quit(100);
    expect(await goneWithin(pid)).toBe(true);
    await quitting;
  });

  it('a folder (cwd) that is not a directory is said to be so, not blamed on the program', async () => {
    const missing = join(tmpdir(), 'stackrank-no-such-folder', 'deeper');
    expect(await ioError(TbpClient.spawn(process.execPath, ['-e', info], { cwd: missing }))).toBe(
      `could not run TBP bot ${process.execPath}: its folder (cwd) ${missing} is not a directory`,
    );
  });

  it('a bot that says nothing: the wait ends after the timeout', async () => {
    expect(await ioError(fakeBot('setTimeout(() => {}, 30000);', 300))).toMatch(/no info within 300 ms/);
    expect(await goneWithin(await lastPid)).toBe(true);
  });

  it('the signal ends a wait at once, long before the timeout: for info, ready and a suggestion', async () => {
    const abortedAfter = async (p: Promise<unknown>, controller: AbortController) => {
      setTimeout(() => controller.abort(), 200);
      const t0 = performance.now();
      const e = (await p.then(
        () => null,
        (err: unknown) => err,
      )) as StackRankError;
      return { code: e?.code, message: e?.message, fast: performance.now() - t0 < 5000 };
    };
    const silent = new AbortController();
    expect(await abortedAfter(fakeBot('setTimeout(() => {}, 30000);', 60_000, silent.signal), silent)).toEqual({
      code: 'ABORTED',
      message: 'waiting for info from TBP bot ' + process.execPath + ' was aborted',
      fast: true,
    });
    expect(await goneWithin(await lastPid)).toBe(true);
    const quiet = new AbortController();
    const bot = await fakeBot(`${info} setTimeout(() => {}, 30000);`, 60_000, quiet.signal);
    expect(await abortedAfter(bot.rules(), quiet)).toMatchObject({ code: 'ABORTED', fast: true });
    // once aborted, every later wait is refused at once
    expect(await abortedAfter(bot.suggest(), quiet)).toMatchObject({ code: 'ABORTED', fast: true });
    const pid = await lastPid;
    await bot.quit(100);
    expect(await goneWithin(pid)).toBe(true);
  });
});
