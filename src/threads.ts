/** How many worker threads to use by default: the core count where threads can share memory, else 1. */
import { inNode, nodeBuiltin } from './node-builtins.js';
import { sharedMemorySupported } from './kernels/wasm.js';

/** The most worker threads any call accepts. */
export const MAX_THREADS = 256;

export async function defaultThreadCount(): Promise<number> {
  if (!sharedMemorySupported()) return 1;
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  if (nav?.hardwareConcurrency) return nav.hardwareConcurrency;
  if (!inNode) return 1;
  const os = nodeBuiltin('os', 'counting the cores');
  return os.availableParallelism?.() ?? os.cpus().length;
}
