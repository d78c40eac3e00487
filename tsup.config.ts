import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import { transform } from 'esbuild';
import { defineConfig } from 'tsup';

// Three library entries (docs/api.md): `stackrank` (src/index.ts), `stackrank/research` (src/research.ts) and
// `stackrank/worker` (src/worker.ts, docs/browser.md), each as ESM and CJS with types; the `stackrank` bin
// (src/cli.ts) is built with the ESM entries so that all of them share one copy of the code (and of the inlined WebAssembly) in dist/ chunks. No source maps: they were over half the
// package, and the code they would map is the TypeScript in the repository. Both builds drop whitespace and simplify
// syntax but keep every name, so stack traces still read; that keeps the tarball within its size budget
// (PACKAGE_BUDGET_BYTES in test/package/package.test.ts).
const entry = { index: 'src/index.ts', research: 'src/research.ts', worker: 'src/worker.ts' };
// Minified code is broken into lines of about this many characters: Node prints the source line of an uncaught
// error's throw site, which was a whole chunk (about 30 kB) on one line.
const LINE_LIMIT = 400;

export default defineConfig([
  {
    // game-worker: the body of playGame's worker threads; versus-worker: playVersus's; ai-worker:
    // createWorkerTetrisAI's worker (a Web Worker or a worker thread). Each is loaded by URL beside the chunk that
    // starts it.
    // tbp-worker: the TBP bot as a worker script (package export stackrank/tbp-worker, docs/tbp.md).
    entry: {
      ...entry,
      cli: 'src/cli.ts',
      'game-worker': 'src/tetris-ai/game-worker.ts',
      'versus-worker': 'src/versus/worker.ts',
      'ai-worker': 'src/tetris-ai/ai-worker.ts',
      'tbp-worker': 'src/tbp/worker.ts',
    },
    format: ['esm'],
    dts: { entry },
    clean: true,
    shims: true,
    target: 'es2022',
    platform: 'neutral',
    external: [/^node:/],
    // The fumen codec is bundled like the rest of the library, so a browser page with only an import map for
    // `stackrank` loads it too (test/package/package.test.ts).
    noExternal: ['tetris-fumen'],
    esbuildOptions(o) {
      o.minifyWhitespace = true;
      o.minifySyntax = true;
      o.lineLimit = LINE_LIMIT;
    },
    async onSuccess() {
      // Splitting with four entries makes esbuild add bare `import"./chunk-X.js";` lines that only keep the
      // evaluation order of modules nothing imports from. Every module is free of side effects (package.json's
      // sideEffects: false), so they are dropped: a bundler would ignore them anyway, and esbuild warns about each.
      for (const file of await readdir('dist')) {
        if (!file.endsWith('.js')) continue;
        const path = `dist/${file}`;
        const code = await readFile(path, 'utf8');
        const kept = code.replace(/import"\.\/chunk-[A-Z0-9]+\.js";/g, '');
        if (kept !== code) await writeFile(path, kept);
      }
      const cli = 'dist/cli.js';
      await writeFile(cli, `#!/usr/bin/env node\n${await readFile(cli, 'utf8')}`);
      await chmod(cli, 0o755);
    },
  },
  {
    entry,
    format: ['cjs'],
    dts: { entry },
    splitting: true,
    clean: false,
    shims: true,
    target: 'es2022',
    platform: 'neutral',
    external: [/^node:/],
    noExternal: ['tetris-fumen'],
    // tsup's CJS interop pass cannot parse minified code, so the CJS chunks are minified after it, the same way
    // as the ESM build (whitespace and syntax, every name kept).
    async onSuccess() {
      for (const file of await readdir('dist')) {
        if (!file.endsWith('.cjs')) continue;
        const path = `dist/${file}`;
        const { code } = await transform(await readFile(path, 'utf8'), {
          minifyWhitespace: true,
          minifySyntax: true,
          lineLimit: LINE_LIMIT,
        });
        await writeFile(path, code);
      }
    },
  },
]);
