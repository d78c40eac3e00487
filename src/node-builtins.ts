/**
 * Node's built-in modules, for the library's Node-only parts: files and the table caches (src/rank/node-io.ts), the
 * core count (src/threads.ts), worker threads (src/kernels/pool.ts, src/tetris-ai/play-threads.ts) and bot programs
 * (src/tbp/client.ts). They come from
 * `process.getBuiltinModule` (Node 20.16 and later, hence package.json's engines), not from an import, so the
 * package's code has no import of a Node module that a bundler would try to resolve: a browser bundle of `stackrank`
 * needs no configuration (docs/api.md, "In a browser"). Outside Node, a call that needs one fails with IO, naming
 * what to use instead.
 */
import { StackRankError } from './errors.js';

interface NodeBuiltins {
  buffer: typeof import('node:buffer');
  child_process: typeof import('node:child_process');
  crypto: typeof import('node:crypto');
  fs: typeof import('node:fs');
  'fs/promises': typeof import('node:fs/promises');
  module: typeof import('node:module');
  os: typeof import('node:os');
  path: typeof import('node:path');
  url: typeof import('node:url');
  worker_threads: typeof import('node:worker_threads');
}

/** True in Node (and runtimes that provide Node's modules); false in a browser or a web worker. */
export const inNode = typeof process === 'object' && typeof process?.versions?.node === 'string';

/**
 * Node's module `name`. `needs` says what the caller was doing and what works outside Node: it is the message of the
 * IO error thrown there, e.g. "reading rank table t.srk needs a file system: in a browser fetch the file and pass
 * its bytes".
 */
export function nodeBuiltin<Name extends keyof NodeBuiltins>(name: Name, needs: string): NodeBuiltins[Name] {
  if (!inNode)
    throw new StackRankError('IO', `${needs} (this needs Node; here there is no file system or Node module)`);
  const load = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof load !== 'function')
    throw new StackRankError('IO', `${needs}: this needs Node 20.16 or later (this is Node ${process.versions.node})`);
  return load(`node:${name}`) as NodeBuiltins[Name];
}
