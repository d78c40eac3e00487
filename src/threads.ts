/** How many worker threads to use by default: the core count where threads can share memory, else 1. */
import { sharedMemorySupported } from './wasm.js';

/** The most worker threads any call accepts. */
export const MAX_THREADS = 256;

export async function defaultThreadCount(): Promise<number> {
  if (!sharedMemorySupported()) return 1;
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  if (nav?.hardwareConcurrency) return nav.hardwareConcurrency;
  try {
    const os = await import('node:os');
    return os.availableParallelism?.() ?? os.cpus().length;
  } catch {
    return 1;
  }
}
