/**
 * Memory layout and codes shared with the recover-search kernel (assembly/recover.ts): the context block, the node
 * record and the weight order. Defined once, in assembly/recover/layout.ts (the subset of TypeScript that
 * AssemblyScript also compiles); this module re-exports them for src/. The kernel exports the same constants;
 * test/kernel-layout.test.ts checks that every one agrees.
 */
export * from '../../assembly/recover/layout.js';
