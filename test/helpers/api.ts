/**
 * Every library entry in one namespace (`stackrank`, `stackrank/research` and `stackrank/worker`; a name lives in
 * only one of them).
 */
export * from '../../src/index.js';
export * from '../../src/research.js';
export * from '../../src/worker.js';
