/**
 * How Node starts one of the library's own worker entries (playGame's game workers, createWorkerTetrisAI's AI
 * worker): the built package runs dist/<name>.js beside the chunk holding the caller's code; from source (tests,
 * benchmarks under tsx) the worker loads the TypeScript file through tsx's ESM API (a dev dependency), since Node
 * 20's module hooks do not reach worker threads. (tsx's require hook also loads it, as CommonJS, but measured 2 to 3
 * times slower per piece there than the same code as ESM: bench/notes/benchmarks.md.)
 */
import { nodeBuiltin } from '../node-builtins.js';

/**
 * `here`: the caller's import.meta.url (a module of src/tetris-ai/, or a chunk of dist/); `source`: the entry's
 * TypeScript file from `here` (default ./<name>.ts).
 */
export function nodeWorkerEntry(
  here: string,
  name: string,
  what: string,
  source = `./${name}.ts`,
): { script: string | URL; eval: boolean } {
  if (!here.endsWith('.ts')) return { script: new URL(`./${name}.js`, here), eval: false };
  const { createRequire } = nodeBuiltin('module', what);
  const { pathToFileURL } = nodeBuiltin('url', what);
  const api = pathToFileURL(createRequire(here).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const file = new URL(source, here).href;
  const load = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(file)}, ${JSON.stringify(here)}))`;
  // A failure to load is the worker's 'error' event, as with the built file.
  return { script: `${load}.catch((e) => { setImmediate(() => { throw e; }); });`, eval: true };
}
