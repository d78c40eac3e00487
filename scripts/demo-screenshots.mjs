// The screenshots of docs/demo.md: `node scripts/demo-screenshots.mjs` after `npm run build`, with the default
// 15-iteration table in the user's cache (`stackrank table build`). Starts `stackrank demo`, opens each mode in
// Debian's Chromium (STACKRANK_CHROMIUM for another binary) and writes docs/demo-watch.png, docs/demo-play.png,
// docs/demo-play-summary.png (also at 390 px wide: docs/demo-390.png) and docs/demo-analyze.png. Play mode is played by keys: the AI's hint typed in, except every third piece dropped
// where it appears, so that the grades and the summary have something to show.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (name) => fileURLToPath(new URL(`../docs/${name}`, import.meta.url));
const FUMEN = 'v115@9gA8IeB8EeF8AeJ8AeE8JeAgWYAFLDmClcJSAVDEHB?EooRBUoAVBzHDMC';
const KEYS = {
  left: ['ArrowLeft'],
  right: ['ArrowRight'],
  dasLeft: new Array(10).fill('ArrowLeft'),
  dasRight: new Array(10).fill('ArrowRight'),
  cw: ['ArrowUp'],
  ccw: ['z'],
  softDrop: ['ArrowDown'],
  hold: ['c'],
  hardDrop: ['Space'],
};

const server = spawn(process.execPath, ['dist/cli.js', 'demo', '--port', '0', '--json'], { cwd: root });
const url = await new Promise((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (d) => {
    text += d;
    const line = text.split('\n').find((l) => l.startsWith('{'));
    if (line) resolve(JSON.parse(line).url);
  });
  server.on('exit', (code) => reject(new Error(`stackrank demo exited with ${code}`)));
});
const browser = await chromium.launch({
  executablePath: process.env.STACKRANK_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1010, height: 690 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));

  await page.goto(`${url}?mode=watch&seed=4&garbage=20&speed=30`);
  await page.waitForSelector('body[data-state=playing]', { timeout: 300_000 });
  // A moment with garbage holes on the board and the AI recovering.
  await page.waitForFunction(
    () =>
      Number(document.getElementById('game-pieces').textContent) >= 100 &&
      Number(document.getElementById('holes').textContent) >= 2,
    null,
    { timeout: 120_000 },
  );
  await page.click('#pause');
  await page.waitForTimeout(300);
  await page.screenshot({ path: out('demo-watch.png') });

  await page.goto(`${url}?mode=play&seed=5&sdr=0`);
  await page.waitForSelector('body[data-state=playing][data-mode=play]', { timeout: 300_000 });
  for (let n = 0; n < 24; n++) {
    if (n % 3 === 2) {
      await page.keyboard.press('Space');
    } else {
      await page.keyboard.press('h');
      const hint = await page.waitForSelector(`[data-testid=hint][data-turn="${n}"][data-inputs]`);
      for (const input of (await hint.getAttribute('data-inputs')).split(' '))
        for (const key of KEYS[input]) await page.keyboard.press(key);
    }
    await page.waitForSelector(`[data-testid=grade][data-count="${n + 1}"]`);
  }
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('h');
  await page.waitForSelector('[data-testid=hint][data-inputs]');
  await page.screenshot({ path: out('demo-play.png') });
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=accuracy][data-value]');
  await page.screenshot({ path: out('demo-play-summary.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: out('demo-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1010, height: 690 });

  await page.goto(`${url}?mode=analyze&fumen=${FUMEN}`);
  await page.waitForSelector('[data-testid=placement-list][data-state=ranked]', { timeout: 300_000 });
  await page.screenshot({ path: out('demo-analyze.png') });
  console.log(
    'wrote docs/demo-watch.png, docs/demo-play.png, docs/demo-play-summary.png, docs/demo-390.png, docs/demo-analyze.png',
  );
} finally {
  await browser.close();
  server.kill('SIGINT');
}
