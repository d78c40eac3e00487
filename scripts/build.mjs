// `npm run build`: the WebAssembly kernels, the library and CLI bundles (tsup), then the browser demo (vite). Each
// step runs only when its inputs changed since its last successful run (scripts/stamp.mjs), so a second
// `npm start` or `npm test` without edits spends well under a second here instead of rebuilding everything.
// STACKRANK_FORCE_BUILD=1 rebuilds everything.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { filesUnder, inputsHash, root, upToDate, versionOf, writeStamp } from './stamp.mjs';

const require = createRequire(import.meta.url);
const node = (...args) => execFileSync(process.execPath, args, { stdio: 'inherit', cwd: root });
const ts = (name) => /\.(ts|mts|cts|js|mjs|json|css|html)$/.test(name);

// 1. kernels: build-wasm keeps its own stamp per kernel and rewrites src/generated/wasm.ts only when it changes.
node(join(root, 'scripts', 'build-wasm.mjs'));

// 2. library + CLI bundles; tsup's clean step empties dist/, so the demo below is rebuilt whenever this runs.
// package-lock.json: the bundled runtime code of dependencies (@assemblyscript/loader) comes from the locked versions.
const libInputs = [...filesUnder('src', ts), 'tsup.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const libHash = inputsHash(libInputs, [`tsup ${versionOf('tsup')}`, `typescript ${versionOf('typescript')}`]);
const libOutputs = [
  'dist/index.js',
  'dist/index.cjs',
  'dist/index.d.ts',
  'dist/research.js',
  'dist/research.cjs',
  'dist/worker.js',
  'dist/ai-worker.js',
  'dist/cli.js',
];
let libBuilt = false;
if (!upToDate('tsup', libHash, libOutputs)) {
  node(join(require.resolve('tsup/package.json'), '..', 'dist', 'cli-default.js'), '--silent');
  writeStamp('tsup', libHash);
  libBuilt = true;
}

// 3. the demo bundles the library's sources (src/) with demo/.
const demoInputs = [...filesUnder('src', ts), ...filesUnder('demo'), 'scripts/build-demo.mjs', 'package-lock.json'];
const demoHash = inputsHash(demoInputs, [`vite ${versionOf('vite')}`]);
if (libBuilt || !upToDate('demo', demoHash, ['dist/demo/index.html'])) {
  node(join(root, 'scripts', 'build-demo.mjs'));
  writeStamp('demo', demoHash);
}
