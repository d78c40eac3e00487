/**
 * The rank kernel's plan layout and codes. Defined once, in assembly/rank/layout.ts (written in the subset of
 * TypeScript that AssemblyScript also compiles); this module re-exports them for src/. The kernel exports the same
 * constants; test/kernel-layout.test.ts checks that every one agrees.
 */
export * from '../../assembly/rank/layout.js';
