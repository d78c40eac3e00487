/** Worker threads: how many to use by default, and the CPU time they and the main thread spend. */
import { inNode, nodeBuiltin } from './node-builtins.js';
import { sharedMemorySupported } from './kernels/wasm.js';

/** The most worker threads any call accepts. */
export const MAX_THREADS = 256;

/** How many worker threads to use by default: the core count where threads can share memory, else 1. */
export async function defaultThreadCount(): Promise<number> {
  if (!sharedMemorySupported()) return 1;
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  if (nav?.hardwareConcurrency) return nav.hardwareConcurrency;
  if (!inNode) return 1;
  const os = nodeBuiltin('os', 'counting the cores');
  return os.availableParallelism?.() ?? os.cpus().length;
}

/** CPU seconds this process has spent so far, every thread's (Node), or null where there is no such clock. */
export function cpuSeconds(): number | null {
  if (typeof process === 'undefined' || typeof process.cpuUsage !== 'function') return null;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
