/** Both library entries in one namespace (`stackrank` and `stackrank/research`; a name lives in only one of them). */
export * from '../../src/index.js';
export * from '../../src/research.js';
