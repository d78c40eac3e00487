/**
 * Value parsers shared by the CLI's option tables (src/cli/spec.ts) and the demo server's query strings. Errors are
 * UsageError: the entry point prints "stackrank <command>: <reason>" and exits 2.
 */
export class UsageError extends Error {}

export function intOption(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(value)}`);
  }
  return n;
}

/** A comma-separated list of integers, each once: the values a run measures (a repeated one would be a second row
 * of one part). */
export function listOption(name: string, value: string, min: number, max: number): number[] {
  const list = value.split(',').map((v) => intOption(name, v, 0, min, max));
  const repeated = list.find((v, i) => list.indexOf(v) !== i);
  if (repeated !== undefined)
    throw new UsageError(`--${name} lists each value once; got ${repeated} twice in ${JSON.stringify(value)}`);
  return list;
}

type NumberBound =
  | { min: number; max?: number; above?: undefined }
  | { above: number; min?: undefined; max?: undefined };

/** A number bound as --help and the usage error write it: `≥ 1`, `1..1e+300`, `> 0`. */
export function numberRange(bound: NumberBound): string {
  if (bound.min === undefined) return `> ${bound.above}`;
  return bound.max === undefined ? `≥ ${bound.min}` : `${bound.min}..${bound.max}`;
}

/**
 * A finite number at least `min` (the decay randomizer's denominator, at most `max`) or strictly above `above`
 * (seconds).
 */
export function numberOption(name: string, value: string, bound: NumberBound): number {
  const n = Number(value);
  const inRange =
    bound.min === undefined ? n > bound.above : n >= bound.min && (bound.max === undefined || n <= bound.max);
  if (value.trim() === '' || !Number.isFinite(n) || !inRange)
    throw new UsageError(
      `--${name} must be a number ${bound.max === undefined ? numberRange(bound) : `from ${bound.min} to ${bound.max}`}; got ${JSON.stringify(value)}`,
    );
  return n;
}

export function choiceOption<C extends string>(name: string, value: string, choices: readonly C[]): C {
  if ((choices as readonly string[]).includes(value)) return value as C;
  throw new UsageError(`--${name} must be one of ${choices.join(', ')}; got ${JSON.stringify(value)}`);
}
