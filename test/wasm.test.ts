/**
 * Kernel variants: the build ships a SIMD variant only where its bytes differ from the scalar one, and asking for
 * a SIMD variant that was left out gets the scalar module; a local variant that differs from the shared one only in
 * the memory's shared flag ships as a patch of the shared bytes (src/kernels/wasm.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WASM_BASE64, WASM_LOCAL_PATCH } from '../src/generated/wasm.js';
import { kernelBytes, compileKernel, type KernelName } from '../src/kernels/wasm.js';

const shipped = (k: string, variant: string) =>
  WASM_BASE64[k][variant] !== undefined || WASM_LOCAL_PATCH[k]?.[variant] !== undefined;

const KERNELS = Object.keys(WASM_BASE64) as KernelName[];

describe('shipped kernel variants', () => {
  it('every kernel ships both scalar variants; a shipped SIMD variant differs from its scalar one', () => {
    expect(KERNELS.sort()).toEqual(['fullboard', 'rank', 'reachable', 'recover', 'search', 'versus']);
    for (const k of KERNELS) {
      const builds = WASM_BASE64[k];
      expect(builds['shared-scalar'], `${k} shared-scalar`).toBeTruthy();
      expect(shipped(k, 'local-scalar'), `${k} local-scalar`).toBe(true);
      const simd = builds['shared-simd'];
      if (simd !== undefined) expect(simd, `${k} shared-simd`).not.toBe(builds['shared-scalar']);
      expect(shipped(k, 'local-simd')).toBe(simd !== undefined);
    }
    // The rank kernel's inner loops vectorise, so its SIMD build is real and kept.
    expect(shipped('rank', 'local-simd')).toBe(true);
  });

  it("a local variant shipped as a patch is byte for byte the compiler's local build, and one byte of the shared", () => {
    let patched = 0;
    for (const k of KERNELS) {
      for (const [variant, offset] of Object.entries(WASM_LOCAL_PATCH[k] ?? {})) {
        const simd = variant.endsWith('simd');
        const local = kernelBytes(k, { shared: false, simd });
        const shared = kernelBytes(k, { shared: true, simd });
        expect(Buffer.from(local).equals(readFileSync(`build/${k}.${variant}.wasm`)), `${k} ${variant}`).toBe(true);
        expect([shared[offset], local[offset]]).toEqual([0x03, 0x01]);
        expect(Buffer.from(local).compare(Buffer.from(shared), 0, offset, 0, offset)).toBe(0);
        // The shared bytes were not patched in place.
        expect(Buffer.from(shared).equals(readFileSync(`build/${k}.shared-${simd ? 'simd' : 'scalar'}.wasm`))).toBe(
          true,
        );
        patched++;
      }
    }
    expect(patched).toBeGreaterThan(0);
  });

  it('a SIMD request compiles its own module when shipped, the scalar one when not', async () => {
    for (const k of KERNELS) {
      for (const shared of [false, true]) {
        const simd = await compileKernel(k, { shared, simd: true });
        const scalar = await compileKernel(k, { shared, simd: false });
        expect(simd).toBeInstanceOf(WebAssembly.Module);
        if (shipped(k, `${shared ? 'shared' : 'local'}-simd`)) expect(simd).not.toBe(scalar);
        else expect(simd).toBe(scalar);
      }
    }
  });
});
