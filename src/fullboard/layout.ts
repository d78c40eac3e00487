/**
 * Memory layouts and codes shared with the full-board kernel: the context block, orientation records, boards,
 * feature ids, move and status codes. They are defined once, in assembly/fullboard/layout.ts (written in the subset
 * of TypeScript that AssemblyScript also compiles); this module re-exports them for src/. The kernel exports the
 * same constants; test/kernel-layout.test.ts checks that every one agrees.
 */
export * from '../../assembly/fullboard/layout.js';
