/**
 * The package as users get it: `npm pack`, install the tarball into a fresh project, then use it the ways people
 * do: ESM import and CJS require in Node (worker threads included), a TypeScript type-check against the published
 * .d.ts files (with a deliberate type error that must be caught), the `stackrank` bin serving the demo, and a tiny
 * page that imports stackrank, built by Vite, esbuild and webpack and loaded without a bundler, each played in
 * Chromium under cross-origin isolation.
 * Needs `npm run build` first (npm test does it).
 */
import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, skipWithoutChromium } from '../browser/chromium.js';
import { startDemoServer } from '../../src/cli/demo.js';

const run = promisify(execFile);
/**
 * The npm tarball's size budget, in bytes: the one place it is stated (docs/architecture.md and tsup.config.ts point
 * here). It catches what would add hundreds of kB (source maps, a second copy of the build or of the kernels), with
 * room for the features still to come; a change of a few bytes can move the compressed size by 1 kB (the chunks'
 * names, and so the order of files in the tarball, follow their content). Raise it on purpose, in a commit that says
 * what the bytes buy and the size measured (`npm pack --dry-run --json`).
 */
const PACKAGE_BUDGET_BYTES = 1_000_000;
const ROOT = resolve(__dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

let tmp: string;
let app: string;
let packed: string[] = [];
let tarballBytes = 0;

function write(rel: string, text: string): string {
  const path = join(app, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** The page the bundler tests build: it plays, and tries what needs Node, in Chromium. */
const PAGE_HTML = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>consumer</title></head>
<body><pre id="out">running</pre><script type="module" src="./main.js"></script></body></html>`;
const PAGE_MAIN = `import { buildRankTable, loadRankTable, loadOrBuildCachedTable, StackingAI, createRandomizer, parseSurface } from 'stackrank';
import { createWorkerTetrisAI } from 'stackrank/worker';
const out = document.getElementById('out');
const codeOf = (p) => p.then(() => 'resolved', (e) => e && e.name === 'StackRankError' ? e.code + ': ' + e.message : 'not a StackRankError: ' + e);
try {
  const threads = crossOriginIsolated ? 2 : 1;
  const table = await buildRankTable({ width: 5, maxStep: 2, iterations: 1, threads });
  const ai = await StackingAI.create({ table, stacking: { boardHeight: 20, tetrisThreshold: 8 } });
  const rnd = createRandomizer('tgm2', { seed: 5 });
  let heights = [0, 0, 0, 0, 0], queue = rnd.take(2), placed = 0;
  for (; placed < 30; placed++) {
    const m = ai.bestPlacement(heights, queue, 1);
    if (!m) break;
    heights = m.heights; queue = queue.slice(1) + rnd.next();
  }
  // What needs Node fails with the library's error, and a table's bytes may be a view of shared memory.
  const nodeOnly = {
    load: await codeOf(loadRankTable('rank.srk')),
    save: await codeOf(table.save('rank.srk')),
  };
  // The table cache is IndexedDB here: built and stored once, then read back.
  const small = { width: 5, maxStep: 2, iterations: 1, threads };
  const built = await loadOrBuildCachedTable(small);
  const again = await loadOrBuildCachedTable(small);
  const cache = { built: built.cached, again: again.cached, path: again.path, same: again.table.rank(parseSurface('2222', { maxStep: 2 })) };
  // The game AI in a Web Worker (the bundler bundles the worker's entry): a 6-wide board for the 5-column table.
  const remote = await createWorkerTetrisAI({ rules: 'classic', table });
  const workerMove = await remote.nextMove({ board: Array(20).fill('......'), current: 'T' });
  remote.dispose();
  const bytes = table.toBytes();
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  shared.set(bytes);
  const fromShared = (await loadRankTable(shared)).rank(parseSurface('2222', { maxStep: 2 }));
  out.textContent = JSON.stringify({ flat: table.rank(parseSurface('2222', { maxStep: 2 })), placed, threads, nodeOnly, fromShared, cache, workerMove: workerMove && workerMove.piece });
} catch (e) {
  out.textContent = 'error: ' + (e && e.stack || e);
}
`;

/** Serves `dir` (with the demo server's COOP/COEP headers), opens it in Chromium and returns what the page wrote. */
// biome-ignore lint/suspicious/noExplicitAny: the page prints its own JSON shape
async function playPage(dir: string, page = ''): Promise<{ result: any; errors: string[] }> {
  const server = await startDemoServer({ port: 0, dir });
  const browser = await launch();
  try {
    const tab = await browser.context.newPage();
    const errors: string[] = [];
    tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(new URL(page, server.url).href);
    await tab.waitForFunction(() => document.getElementById('out')?.textContent !== 'running', undefined, {
      timeout: 60_000,
    });
    const text = (await tab.textContent('#out')) ?? '';
    expect(text).not.toMatch(/^error/);
    return { result: JSON.parse(text), errors };
  } finally {
    await browser.close();
    await server.close();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the page prints its own JSON shape
function expectPagePlayed({ result: r, errors }: { result: any; errors: string[] }): void {
  expect(r.threads).toBe(2);
  expect(r.flat).toBeCloseTo(5 / 7, 4);
  expect(r.fromShared).toBe(r.flat);
  expect(r.placed).toBeGreaterThan(0);
  expect(r.nodeOnly).toEqual({
    load: expect.stringMatching(/^IO: reading rank table rank\.srk needs a file system: in a browser fetch the file/),
    save: expect.stringMatching(/^IO: RankTable\.save writes a file: in a browser keep the table's bytes/),
  });
  expect(r.cache).toEqual({
    built: false,
    again: true,
    path: 'indexeddb:stackrank/files/rank-article-w5-s2-i1.srk',
    same: r.flat,
  });
  expect(r.workerMove).toBe('T');
  expect(errors).toEqual([]);
}

// biome-ignore lint/suspicious/noExplicitAny: each consumer script prints its own JSON shape
async function node(file: string): Promise<any> {
  const { stdout } = await run(process.execPath, [file], { cwd: app, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

beforeAll(async () => {
  for (const f of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/cli.js', 'dist/demo/index.html']) {
    if (!existsSync(join(ROOT, f))) throw new Error(`${f} is missing: run npm run build first`);
  }
  tmp = mkdtempSync(join(tmpdir(), 'stackrank-package-'));
  // --ignore-scripts: pack the dist/ that npm test built; prepack's rebuild would empty dist/ under the other tests.
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], {
    cwd: ROOT,
    timeout: 120_000,
  });
  const info = JSON.parse(stdout.slice(stdout.indexOf('[')))[0];
  packed = info.files.map((f: { path: string }) => f.path);
  tarballBytes = info.size;
  app = join(tmp, 'app');
  mkdirSync(app);
  write(
    'package.json',
    JSON.stringify({ name: 'stackrank-consumer', private: true, version: '1.0.0', type: 'module' }, null, 2),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', join(tmp, info.filename)], {
    cwd: app,
    timeout: 180_000,
  });
}, 240_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the npm package, installed from its tarball into a fresh project', () => {
  it('ships the builds, types, CLI and demo, and nothing from the source tree', () => {
    for (const entry of ['index', 'research', 'worker']) {
      for (const ext of ['js', 'cjs', 'd.ts', 'd.cts']) expect(packed).toContain(`dist/${entry}.${ext}`);
    }
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/cli.js',
      'dist/ai-worker.js',
      'dist/tbp-worker.js',
      'dist/demo/index.html',
    ])
      expect(packed).toContain(f);
    // No source maps, and the tarball within its budget (PACKAGE_BUDGET_BYTES, the fumen codec included).
    expect(packed.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(tarballBytes).toBeGreaterThan(0);
    // Only docs/*.md ship (the screenshots and charts stay in the repository), and not the pages for readers of the
    // repository: the measured figures (results) and the contributors' architecture page; the measurement logs live
    // in bench/notes/, which does not ship.
    expect(packed.filter((f) => f.startsWith('docs/') && !f.endsWith('.md'))).toEqual([]);
    expect(packed).toContain('docs/api.md');
    for (const repositoryOnly of ['results', 'architecture']) expect(packed).not.toContain(`docs/${repositoryOnly}.md`);
    expect(tarballBytes).toBeLessThanOrEqual(PACKAGE_BUDGET_BYTES);
    expect(packed.some((f) => /^dist\/demo\/assets\/index-.*\.js$/.test(f))).toBe(true);
    expect(packed.filter((f) => /^(src|test|assembly|bench|node_modules|demo)\//.test(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/stackrank/package.json'), 'utf8'));
    // Everything the library needs at run time is bundled (the fumen codec too); the one dependency is the CLI's
    // option parser (docs/cli.md), which has none of its own and which the library entry points never import.
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['commander']);
    expect(
      readdirSync(join(app, 'node_modules'))
        .filter((d) => !d.startsWith('.'))
        .sort(),
    ).toEqual(['commander', 'stackrank']);
    for (const entry of ['dist/index.js', 'dist/index.cjs']) {
      expect(readFileSync(join(app, 'node_modules/stackrank', entry), 'utf8')).not.toMatch(/\bcommander\b/);
    }
  });

  it('works with ESM import in Node: tables on worker threads, the AI, randomizers', async () => {
    write(
      'esm.mjs',
      `import { buildRankTable, StackingAI, createRandomizer, parseSurface, RANDOMIZER_NAMES } from 'stackrank';
import * as game from 'stackrank';
import { PIECE_COUNT, analyzeRandomizer } from 'stackrank/research';
import { createWorkerTetrisAI } from 'stackrank/worker';
const table = await buildRankTable({ width: 5, maxStep: 2, iterations: 1, threads: 2 });
// The game AI on a worker thread (dist/ai-worker.js), from the installed package.
const remote = await createWorkerTetrisAI({ rules: 'classic', table });
const workerMove = (await remote.nextMove({ board: Array(20).fill('......'), current: 'T' })).piece;
remote.dispose();
const ai = await StackingAI.create({ table, stacking: { boardHeight: 20, tetrisThreshold: 8 } });
const rnd = createRandomizer('bag7', { seed: 3 });
let heights = [0, 0, 0, 0, 0], queue = rnd.take(2), placed = 0;
while (placed < 30) {
  const m = ai.bestPlacement(heights, queue, 1);
  if (!m) break;
  heights = m.heights; queue = queue.slice(1) + rnd.next(); placed++;
}
const research = { pieces: PIECE_COUNT, predictability: analyzeRandomizer('bag7', { pieces: 7000, seed: 1 }).predictability, inGameEntry: 'PIECE_COUNT' in game };
console.log(JSON.stringify({ flat: table.rank(parseSurface('2222', { maxStep: 2 })), placed, names: RANDOMIZER_NAMES.length, research, workerMove }));
`,
    );
    const r = await node('esm.mjs');
    expect(r.workerMove).toBe('T');
    expect(r.research).toEqual({ pieces: 7, predictability: expect.closeTo(10 / 27, 2), inGameEntry: false });
    expect(r.flat).toBeCloseTo(5 / 7, 4); // r1(flat): I, O, T, L, J fit flat without a hole; S and Z do not
    expect(r.placed).toBeGreaterThan(0);
    expect(r.names).toBe(11);
  });

  it('resolves stackrank/tbp-worker to the shipped TBP worker, which speaks the protocol on a worker thread', async () => {
    write(
      'tbp.mjs',
      `import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
const url = import.meta.resolve('stackrank/tbp-worker');
const worker = new Worker(new URL(url));
const info = await new Promise((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});
const exited = new Promise((resolve) => worker.once('exit', resolve));
worker.postMessage({ type: 'quit' });
console.log(JSON.stringify({ file: fileURLToPath(url), info, code: await exited }));
`,
    );
    const r = await node('tbp.mjs');
    expect(realpathSync(r.file)).toBe(realpathSync(join(app, 'node_modules/stackrank/dist/tbp-worker.js')));
    expect(r.info).toMatchObject({ type: 'info', name: 'stackrank', features: ['randomizer', 'move_info'] });
    expect(r.code).toBe(0);
  });

  it('works with CJS require in Node', async () => {
    write(
      'cjs.cjs',
      `const sr = require('stackrank');
sr.buildRankTable({ width: 5, maxStep: 2, iterations: 2, threads: 1 }).then((t) => {
  let error = null;
  try { sr.parseSurface('29', { maxStep: 2 }); } catch (e) { error = e instanceof sr.StackRankError ? e.code : String(e); }
  const research = require('stackrank/research');
  const { createWorkerTetrisAI } = require('stackrank/worker');
  return createWorkerTetrisAI({ rules: 'classic', table: t }).then(async (remote) => {
    const workerMove = (await remote.nextMove({ board: Array(20).fill('......'), current: 'T' })).piece;
    remote.dispose();
    console.log(JSON.stringify({ flat: t.rank(sr.parseSurface('2222', { maxStep: 2 })), iterations: t.iterations, error, pieces: sr.createRandomizer('tgm1', { seed: 1 }).take(5), features: research.FEATURE_NAMES.includes('holes'), workerMove }));
  });
}).catch((e) => { console.error(e); process.exit(1); });
`,
    );
    const r = await node('cjs.cjs');
    expect(r.workerMove).toBe('T');
    expect(r.iterations).toBe(2);
    expect(r.flat).toBeGreaterThan(0);
    expect(r.flat).toBeLessThan(5 / 7);
    expect(r.error).toBe('BAD_SURFACE');
    expect(r.pieces).toMatch(/^[IOTSZLJ]{5}$/);
    expect(r.features).toBe(true);
  });

  it('type-checks a TS consumer (ESM and CJS, no @types/node, no skipLibCheck) and catches a type error', {
    timeout: 180_000,
  }, async () => {
    write(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['check.ts', 'check.cts'],
      }),
    );
    write(
      'check.ts',
      `import { buildRankTable, StackingAI, createRandomizer, StackRankError, type BestPlacement, type RankTable, type RandomizerName } from 'stackrank';
const table: RankTable = await buildRankTable({ width: 5, maxStep: 2, iterations: 1, onProgress: (p) => void p.fraction });
const ai: StackingAI = await StackingAI.create({ table, stacking: { boardHeight: 20, tetrisThreshold: 8, steep: 'truncate' } });
const name: RandomizerName = 'tgm3';
const move: BestPlacement | null = ai.bestPlacement([0, 0, 0, 0, 0], createRandomizer(name, { seed: 1 }).take(2), 1);
const column: number | null = move ? move.column : null;
const code: string = new StackRankError('BAD_ARGUMENT', 'x').code;
// The README's embedding loop (its 'move' renamed: this file has one already).
const pieces = createRandomizer('tgm1', { seed: 1 });
let heights = [0, 0, 0, 0, 0, 0, 0, 0, 0];
let queue = pieces.take(2);
let move2;
while ((move2 = ai.bestPlacement(heights, queue, 1))) {
  heights = move2.heights;
  queue = queue.slice(1) + pieces.next();
}
export { column, code };
// The research entry has its own types.
import { analyzeRandomizer, type RandomizerAnalysis } from 'stackrank/research';
const stats: RandomizerAnalysis = analyzeRandomizer(name, { pieces: 700 });
export const predictability: number = stats.predictability;
`,
    );
    write(
      'check.cts',
      `import sr = require('stackrank');
import research = require('stackrank/research');
export async function width(): Promise<number> { return (await sr.loadRankTable(new Uint8Array(0))).width; }
export const features: readonly string[] = research.FEATURE_NAMES;
`,
    );
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app, timeout: 120_000 });

    // The published types are real: a misuse is an error, not silently `any`.
    write(
      'bad.ts',
      `import { buildRankTable } from 'stackrank';\nconst w: string = (await buildRankTable()).width;\nexport { w };\n`,
    );
    write('tsconfig.bad.json', JSON.stringify({ extends: './tsconfig.json', files: ['bad.ts'] }));
    const bad = await run(process.execPath, [TSC, '-p', 'tsconfig.bad.json'], { cwd: app }).then(
      () => null,
      (e: { stdout: string }) => e.stdout,
    );
    expect(bad).toMatch(/bad\.ts.*TS2322.*'number' is not assignable to type 'string'/);
  });

  it('installs the stackrank bin, which serves the demo from the package', async () => {
    const bin = join(app, 'node_modules/.bin/stackrank');
    const { stdout } = await run(bin, ['--help'], { cwd: app });
    // npm links the bin as a symlink (node_modules/.bin/stackrank -> ../stackrank/dist/cli.js); the CLI must
    // recognise itself as the entry point through it, or `npx stackrank` silently does nothing.
    expect(stdout, 'the installed stackrank bin printed nothing for --help').toMatch(/demo\s+serve the browser demo/);
    const cache = join(tmp, 'cache');
    const child = spawn(bin, ['demo', '--port', '0', '--json'], {
      cwd: app,
      env: { ...process.env, XDG_CACHE_HOME: cache },
    });
    try {
      const url: string = await new Promise((res, rej) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const line = out.split('\n').find((l) => l.startsWith('{'));
          if (line) res(JSON.parse(line).url);
        });
        child.on('exit', (c) => rej(new Error(`stackrank demo exited with ${c}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /src="\.\/(assets\/index-[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeTruthy();
      const js = await fetch(new URL(script!, url));
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    } finally {
      child.kill('SIGINT');
    }
  });

  const skipBrowser = skipWithoutChromium('Vite page test');

  it('bundles into a page with Vite, and the page plays in Chromium (worker threads under COOP/COEP)', {
    timeout: 180_000,
  }, async () => {
    const { build } = await import('vite');
    const page = join(app, 'vite');
    write('vite/index.html', PAGE_HTML);
    write('vite/main.js', PAGE_MAIN);
    const warnings: string[] = [];
    await build({
      root: page,
      configFile: false,
      logLevel: 'silent',
      customLogger: {
        info() {},
        warn: (m: string) => warnings.push(m),
        warnOnce: (m: string) => warnings.push(m),
        error: (m: string) => warnings.push(m),
        clearScreen() {},
        hasErrorLogged: () => false,
        hasWarned: false,
      },
      build: { outDir: join(page, 'dist'), target: 'es2022', reportCompressedSize: false },
    });
    expect(existsSync(join(page, 'dist/index.html'))).toBe(true);
    // Rolldown's timing note (PLUGIN_TIMINGS) says which plugin took most of the build: here the bundling of the AI's
    // worker (the library with its kernels) inside a page of a few lines. It is about the build's time, not the code.
    const real = warnings.filter((w) => !w.includes('[PLUGIN_TIMINGS]'));
    expect(real, `Vite warned while bundling stackrank:\n${real.join('\n')}`).toEqual([]);
    if (skipBrowser) return;
    expectPagePlayed(await playPage(join(page, 'dist')));
  });

  it('bundles for the browser with esbuild (no Node module to resolve, no warning), and the page plays', {
    timeout: 180_000,
  }, async () => {
    const esbuild = await import('esbuild');
    const page = join(app, 'esbuild');
    write('esbuild/dist/index.html', PAGE_HTML);
    write('esbuild/main.js', PAGE_MAIN);
    // esbuild does not follow new Worker(new URL(...)): the worker's entry is bundled beside the page's, as
    // ai-worker.js (docs/browser.md).
    const result = await esbuild.build({
      entryPoints: [
        { in: join(page, 'main.js'), out: 'main' },
        { in: join(app, 'node_modules/stackrank/dist/ai-worker.js'), out: 'ai-worker' },
      ],
      outdir: join(page, 'dist'),
      absWorkingDir: app,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.text)).toEqual([]);
    if (skipBrowser) return;
    expectPagePlayed(await playPage(join(page, 'dist')));
  });

  it('bundles for the browser with webpack (no configuration beyond the entry), and the page plays', {
    timeout: 180_000,
  }, async () => {
    const { default: webpack } = await import('webpack');
    const page = join(app, 'webpack');
    // webpack's bundle is a classic script; its chunks find their way from the script's own URL.
    write(
      'webpack/dist/index.html',
      PAGE_HTML.replace('<script type="module" src="./main.js">', '<script src="./main.js">'),
    );
    write('webpack/main.mjs', PAGE_MAIN);
    const stats = await new Promise<import('webpack').Stats>((resolve, reject) =>
      webpack(
        {
          mode: 'production',
          target: 'web',
          context: app,
          entry: join(page, 'main.mjs'),
          output: { path: join(page, 'dist'), filename: 'main.js' },
          performance: { hints: false }, // its size advice, not a problem with the package
          infrastructureLogging: { level: 'none' },
        },
        (error, result) => (error || !result ? reject(error) : resolve(result)),
      ),
    );
    const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
    expect(errors?.map((e) => e.message)).toEqual([]);
    expect(warnings?.map((w) => w.message)).toEqual([]);
    if (skipBrowser) return;
    expectPagePlayed(await playPage(join(page, 'dist')));
  });

  it('imports into a plain <script type="module"> page (an import map, no bundler)', { timeout: 120_000 }, async () => {
    write(
      'plain/index.html',
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "stackrank": "/node_modules/stackrank/dist/index.js", "stackrank/worker": "/node_modules/stackrank/dist/worker.js" } }</script></head>
<body><pre id="out">running</pre>
<script type="module">
import { buildRankTable, StackingAI, parseSurface } from 'stackrank';
import { createWorkerTetrisAI } from 'stackrank/worker';
const out = document.getElementById('out');
try {
  const threads = crossOriginIsolated ? 2 : 1;
  const table = await buildRankTable({ width: 5, maxStep: 2, iterations: 1, threads });
  const ai = await StackingAI.create({ table });
  const move = ai.bestPlacement([0, 0, 0, 0, 0], 'OI', 1);
  // The worker's entry is found beside the library's files (dist/ai-worker.js).
  const remote = await createWorkerTetrisAI({ rules: 'classic', table });
  const workerMove = await remote.nextMove({ board: Array(20).fill('......'), current: 'T' });
  remote.dispose();
  out.textContent = JSON.stringify({ flat: table.rank(parseSurface('2222', { maxStep: 2 })), threads, piece: move && move.piece, workerMove: workerMove && workerMove.piece });
} catch (e) {
  out.textContent = 'error: ' + (e && e.stack || e);
}
</script></body></html>`,
    );
    if (skipBrowser) return;
    // The project folder is served, node_modules included.
    const { result, errors } = await playPage(app, 'plain/');
    expect(result).toEqual({ flat: expect.closeTo(5 / 7, 4), threads: 2, piece: 'O', workerMove: 'T' });
    expect(errors).toEqual([]);
  });
});
