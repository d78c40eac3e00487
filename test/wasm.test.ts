/**
 * Kernel variants: the build ships a SIMD variant only where its bytes differ from the scalar one, and asking for
 * a SIMD variant that was left out gets the scalar module (src/wasm.ts).
 */
import { describe, expect, it } from 'vitest';
import { WASM_BASE64 } from '../src/generated/wasm.js';
import { kernelModule, type KernelName } from '../src/wasm.js';

const KERNELS = Object.keys(WASM_BASE64) as KernelName[];

describe('shipped kernel variants', () => {
  it('every kernel ships both scalar variants; a shipped SIMD variant differs from its scalar one', () => {
    expect(KERNELS.sort()).toEqual(['fullboard', 'rank', 'reachable', 'recover', 'search']);
    for (const k of KERNELS) {
      const builds = WASM_BASE64[k];
      for (const memory of ['shared', 'local']) {
        expect(builds[`${memory}-scalar`], `${k} ${memory}-scalar`).toBeTruthy();
        const simd = builds[`${memory}-simd`];
        if (simd !== undefined) expect(simd, `${k} ${memory}-simd`).not.toBe(builds[`${memory}-scalar`]);
      }
    }
    // The rank kernel's inner loops vectorise, so its SIMD build is real and kept.
    expect(WASM_BASE64.rank['local-simd']).toBeTruthy();
  });

  it('a SIMD request compiles its own module when shipped, the scalar one when not', async () => {
    for (const k of KERNELS) {
      for (const shared of [false, true]) {
        const simd = await kernelModule(k, { shared, simd: true });
        const scalar = await kernelModule(k, { shared, simd: false });
        expect(simd).toBeInstanceOf(WebAssembly.Module);
        const shipped = WASM_BASE64[k][`${shared ? 'shared' : 'local'}-simd`] !== undefined;
        if (shipped) expect(simd).not.toBe(scalar);
        else expect(simd).toBe(scalar);
      }
    }
  });
});
