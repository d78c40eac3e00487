/**
 * Memory layout and codes shared with the reachable-placements kernel: the context block, the piece tables, the
 * state index, the output records, flags and move codes. They are defined once, in assembly/reachable/layout.ts
 * (written in the subset of TypeScript that AssemblyScript also compiles); this module re-exports them for src/.
 * The kernel exports the same constants; test/kernel-layout.test.ts checks that every one agrees.
 */
export * from '../../assembly/reachable/layout.js';
