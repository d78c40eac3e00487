/**
 * Small argument helpers shared by every CLI command: parse with node:util parseArgs (strict, so a typo is an
 * error), then convert option strings to checked numbers. Errors are UsageError; the entry point prints
 * "stackrank: <reason>" and exits 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

const COMMON = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export function parse<const T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
}

export function intOption(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(value)}`);
  }
  return n;
}

export function listOption(name: string, value: string | undefined, fallback: number[], min: number, max: number): number[] {
  if (value === undefined) return fallback;
  return value.split(',').map((v) => intOption(name, v, 0, min, max));
}
