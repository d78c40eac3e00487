/**
 * Memory layout and codes shared with the versus-search kernel (assembly/versus.ts): the context block, the node and
 * candidate records, the attack table's words and the order of the evaluator's terms. Defined once, in
 * assembly/versus/layout.ts (the subset of TypeScript that AssemblyScript also compiles); this module re-exports
 * them for src/. The kernel exports the same constants; test/kernel-layout.test.ts checks that every one agrees.
 */
export * from '../../assembly/versus/layout.js';
