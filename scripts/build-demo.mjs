// Bundles the browser demo (demo/) with the library's TypeScript sources into dist/demo, which ships in the npm
// package and is what `stackrank demo` serves. Runs after tsup (tsup's clean step would delete it otherwise).
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../demo/', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/demo/', import.meta.url));

await build({
  configFile: false,
  root,
  base: './',
  logLevel: process.env.STACKRANK_BUILD_VERBOSE ? 'info' : 'warn',
  resolve: {
    alias: {
      'stackrank/research': fileURLToPath(new URL('../src/research.ts', import.meta.url)),
      'stackrank/worker': fileURLToPath(new URL('../src/worker.ts', import.meta.url)),
      stackrank: fileURLToPath(new URL('../src/index.ts', import.meta.url)),
    },
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false, // the package ships no maps (tsup.config.ts)
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4096,
    rollupOptions: {
      // Node-only branches of the library (worker_threads, fs for table files) are never reached in a page.
      external: [/^node:/],
      onwarn(warning, warn) {
        // The library imports its Node table cache lazily for StackingAI.create() without a table; harmless here.
        if (warning.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
        warn(warning);
      },
    },
  },
});
