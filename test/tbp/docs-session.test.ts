/**
 * docs/tbp.md's sample session, replayed through `stackrank tbp` with its default options (the cached table): the
 * bot's info, ready and suggestion are the ones the page shows, but for the milliseconds the search took.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { TbpClient } from '../../src/tbp/client.js';

const ROOT = resolve(__dirname, '../..');

it("docs/tbp.md's session is what the bot answers", async () => {
  const doc = readFileSync(resolve(ROOT, 'docs/tbp.md'), 'utf8');
  const session = doc.split('```text\n')[1].split('```')[0].split('\n');
  const said = (side: '<' | '>') => session.filter((l) => l.startsWith(`${side} {`)).map((l) => l.slice(2));
  const [info, ready, suggestion] = said('<').map((l) => JSON.parse(l));
  const [rules, start] = said('>');
  // the page cuts the board short after its first row: a real start carries all 40
  const empty = JSON.stringify(Array(10).fill(null));
  const fullStart = JSON.parse(start.replace(`[${empty}, ...]`, `[${Array(40).fill(empty).join(',')}]`));
  const bot = await TbpClient.spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'tbp'], { cwd: ROOT });
  try {
    expect(bot.info).toEqual(info);
    bot.send(JSON.parse(rules));
    expect(await bot.next()).toEqual(ready);
    bot.start(fullStart);
    const answer = await bot.suggest();
    const ms = (m: { move_info: { extra: string } }) => m.move_info.extra.replace(/[\d.]+ ms/, 'N ms');
    expect(ms(answer as never)).toBe(ms(suggestion));
    expect({ ...answer, move_info: null }).toEqual({ ...suggestion, move_info: null });
  } finally {
    await bot.quit();
  }
}, 120_000);
