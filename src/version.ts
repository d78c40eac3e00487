/**
 * The library's version, as `stackrank --version` and the TBP bot's `info` report it. A constant, not a read of
 * package.json, so that it holds in a browser bundle too; test/tbp/bot.test.ts holds it to package.json's.
 */
export const STACKRANK_VERSION = '0.1.0';
