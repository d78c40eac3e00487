/**
 * Memory layouts and codes shared with the search kernel: config, placement records, step lookup, search contexts,
 * game records, move and status codes. They are defined once, in assembly/search/layout.ts (written in the subset
 * of TypeScript that AssemblyScript also compiles); this module re-exports them for src/. The kernel exports the
 * same constants; test/stacking/layout.test.ts checks that every one agrees.
 */
export * from '../../assembly/search/layout.js';
