/**
 * The one place where WebAssembly kernels are compiled and instantiated (the worker pool's inline script aside:
 * ./pool.ts). The kernel drivers beside this file ask it for a kernel by name, so the instantiation strategy
 * (today @assemblyscript/loader on the main thread) can be swapped for asc's generated bindings or plain
 * WebAssembly calls without touching the rest (docs/architecture.md). Loading is asynchronous (loadKernel) or
 * synchronous (loadKernelSync), never both behind one name.
 *
 * Kernels are built in four variants: memory shared between threads or local, SIMD or scalar. The shared variants
 * need SharedArrayBuffer (browsers: crossOriginIsolated); SIMD is picked when the engine validates it. The build
 * leaves out a SIMD variant that is byte-identical to the scalar one; asking for it then gets the scalar bytes. It
 * also leaves out a local variant that differs from the shared one only in the memory's shared flag
 * (WASM_LOCAL_PATCH, scripts/build-wasm.mjs): that one is the shared bytes with the flag cleared.
 */
import { instantiate } from '@assemblyscript/loader';
import { StackRankError } from '../errors.js';
import { WASM_BASE64, WASM_LOCAL_PATCH } from '../generated/wasm.js';

export type KernelName = 'rank' | 'search' | 'fullboard' | 'reachable' | 'recover' | 'versus';
export interface KernelVariant {
  shared: boolean;
  simd: boolean;
}

const WASM_PAGE = 65536;
/** Must match "maximumMemory" in asconfig.json (pages of 64 KiB): 2 GiB. */
export const MAX_MEMORY_PAGES = 32768;

const bytesCache = new Map<string, Uint8Array<ArrayBuffer>>();
const moduleCache = new Map<string, Promise<WebAssembly.Module>>();

function variantName(v: KernelVariant): string {
  return `${v.shared ? 'shared' : 'local'}-${v.simd ? 'simd' : 'scalar'}`;
}

/** The variant whose bytes serve `v`: itself, or the scalar one when the build found SIMD changed nothing. */
function shippedVariant(name: KernelName, v: KernelVariant): string {
  const exact = variantName(v);
  if (isShipped(name, exact) || !v.simd) return exact;
  return variantName({ shared: v.shared, simd: false });
}

/** Whether the build has this variant: its own bytes, or the shared variant's with the flag patch. */
function isShipped(name: KernelName, variant: string): boolean {
  return WASM_BASE64[name]?.[variant] !== undefined || WASM_LOCAL_PATCH[name]?.[variant] !== undefined;
}

function decodeBase64(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const bytes = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** Limits flag of a memory that is shared (cleared: a local memory with the same limits). */
const MEMORY_SHARED_FLAG = 0x02;

/** The bytes of a kernel variant as shipped (exported for the variant tests). */
export function kernelBytes(name: KernelName, v: KernelVariant): Uint8Array<ArrayBuffer> {
  const key = `${name}.${shippedVariant(name, v)}`;
  let bytes = bytesCache.get(key);
  if (!bytes) {
    const variant = shippedVariant(name, v);
    const b64 = WASM_BASE64[name]?.[variant];
    const patch = WASM_LOCAL_PATCH[name]?.[variant];
    if (b64 !== undefined) bytes = decodeBase64(b64);
    else if (patch !== undefined) {
      // A copy: the shared variant's cached bytes stay as they are.
      bytes = kernelBytes(name, { shared: true, simd: variant.endsWith('simd') }).slice();
      bytes[patch] &= ~MEMORY_SHARED_FLAG;
    } else throw new StackRankError('WASM_FAILED', `kernel ${key} is missing from this build; run npm run build`);
    bytesCache.set(key, bytes);
  }
  return bytes;
}

let simdSupport: boolean | undefined;
/** Whether this engine runs WebAssembly SIMD (checked once by validating a SIMD kernel; none shipped: false). */
export function simdSupported(): boolean {
  if (simdSupport === undefined) {
    const withSimd = (Object.keys(WASM_BASE64) as KernelName[]).find((k) => isShipped(k, 'local-simd'));
    simdSupport = withSimd !== undefined && WebAssembly.validate(kernelBytes(withSimd, { shared: false, simd: true }));
  }
  return simdSupport;
}

/** Whether shared WebAssembly memory (and so worker threads over one memory) is available here. */
export function sharedMemorySupported(): boolean {
  if (typeof SharedArrayBuffer === 'undefined') return false;
  if (typeof (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === 'boolean') {
    return (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  }
  return true;
}

/** The best variant for this engine; `shared` asks for the thread-capable one. */
export function pickVariant(shared: boolean, simd = simdSupported()): KernelVariant {
  if (shared && !sharedMemorySupported()) {
    throw new StackRankError(
      'WASM_FAILED',
      'shared WebAssembly memory is not available here (browsers need cross-origin isolation); use threads: 1',
    );
  }
  return { shared, simd };
}

/** Compiles a kernel once per variant and caches the promise. */
export function compileKernel(name: KernelName, v: KernelVariant): Promise<WebAssembly.Module> {
  const key = `${name}.${shippedVariant(name, v)}`;
  let p = moduleCache.get(key);
  if (!p) {
    p = WebAssembly.compile(kernelBytes(name, v)).catch((e) => {
      moduleCache.delete(key);
      throw new StackRankError('WASM_FAILED', `could not compile kernel ${key}: ${String(e)}`, { cause: e });
    });
    moduleCache.set(key, p);
  }
  return p;
}

export function createMemory(shared: boolean, initialPages = 1): WebAssembly.Memory {
  try {
    return new WebAssembly.Memory({ initial: initialPages, maximum: MAX_MEMORY_PAGES, shared });
  } catch (e) {
    throw new StackRankError('WASM_FAILED', `could not reserve WebAssembly memory: ${String(e)}`, { cause: e });
  }
}

/** Import object every kernel expects: the memory and an abort hook that turns a trap into a typed error. */
function kernelImports(memory: WebAssembly.Memory) {
  return {
    env: {
      memory,
      abort(_msg: number, _file: number, line: number, column: number) {
        throw new StackRankError('WASM_FAILED', `kernel aborted at ${line}:${column}`);
      },
    },
  };
}

export interface KernelInstance<T> {
  exports: T;
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  variant: KernelVariant;
}

/**
 * The asynchronous path: compiles (once per variant) and instantiates a kernel on this thread over a fresh memory,
 * whose owner this instance is (it alone allocates in it). The rank, search and full-board kernels load this way.
 */
export async function loadKernel<T>(name: KernelName, variant: KernelVariant): Promise<KernelInstance<T>> {
  const module = await compileKernel(name, variant);
  const memory = createMemory(variant.shared);
  const { exports } = await instantiate<Record<string, unknown>>(module, kernelImports(memory));
  return { exports: exports as unknown as T, memory, module, variant };
}

/**
 * The synchronous path: compiles and instantiates a small kernel at once, for calls that must not be async (the
 * rules layer's reachable placements, the game AI's recover search). Local memory only; engines accept
 * synchronous compiles of a few KB. The reachable and recover kernels load this way.
 */
export function loadKernelSync<T>(name: KernelName, simd = simdSupported()): KernelInstance<T> {
  const variant = { shared: false, simd };
  try {
    const module = new WebAssembly.Module(kernelBytes(name, variant));
    const memory = createMemory(false);
    const instance = new WebAssembly.Instance(module, kernelImports(memory));
    return { exports: instance.exports as unknown as T, memory, module, variant };
  } catch (e) {
    if (e instanceof StackRankError) throw e;
    throw new StackRankError('WASM_FAILED', `could not instantiate kernel ${name}: ${String(e)}`, { cause: e });
  }
}

/**
 * Another instance of a compiled kernel over a memory that already exists (asynchronous): its exports. It must
 * not allocate; the memory's owner does (the search image's engines, the full-board trainer's contexts).
 */
export async function instantiateOver<T>(module: WebAssembly.Module, memory: WebAssembly.Memory): Promise<T> {
  const instance = (await WebAssembly.instantiate(module, kernelImports(memory))) as unknown as WebAssembly.Instance;
  return instance.exports as unknown as T;
}

/** The same, synchronously: for a worker thread attaching to memory posted to it (a search engine's parts). */
export function attachKernel<T>(module: WebAssembly.Module, memory: WebAssembly.Memory): T {
  return new WebAssembly.Instance(module, kernelImports(memory)).exports as unknown as T;
}
export { WASM_PAGE };
