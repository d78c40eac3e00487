/**
 * Every error the library throws on purpose is a StackRankError with a stable `code`, so callers can branch on
 * the code and show the message (which says what was wrong and what is allowed) to a person.
 */
export type StackRankErrorCode =
  | 'BAD_ARGUMENT'
  | 'BAD_SURFACE'
  | 'BAD_PIECE'
  | 'BAD_BOARD'
  | 'BAD_RULES'
  | 'BAD_FUMEN'
  | 'BAD_MAGIC'
  | 'BAD_VERSION'
  | 'BAD_HEADER'
  | 'TRUNCATED'
  | 'CHECKSUM'
  | 'TABLE_MISMATCH'
  | 'ABORTED'
  | 'WORKER_FAILED'
  | 'WASM_FAILED'
  | 'IO';

export class StackRankError extends Error {
  readonly code: StackRankErrorCode;
  constructor(code: StackRankErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StackRankError';
    this.code = code;
  }
}

/** Throws BAD_ARGUMENT unless `value` is an integer in [min, max]. */
export function requireInt(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new StackRankError('BAD_ARGUMENT', `${name} must be an integer from ${min} to ${max}; got ${describe(value)}`);
  }
  return value;
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`;
  return String(value);
}
