/**
 * Damage for the fuzz suite's real results and run files (test/fuzz/): which node of a JSON-like value to damage,
 * and a value of another type to put there.
 */

/**
 * Every path into the fields of plain objects and the entries of arrays, the root excluded. Anything else (a typed
 * array, a boxed string, a Map) is a leaf: its entries are not plain fields (a typed array converts what is put there,
 * a boxed string's are read-only), so damage replaces it whole.
 */
export function nodePaths(value: unknown, at: string[] = [], out: string[][] = []): string[][] {
  const proto = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (Array.isArray(value) || proto === Object.prototype || proto === null)
    for (const key of Object.keys(value as object)) {
      const path = [...at, key];
      out.push(path);
      nodePaths((value as Record<string, unknown>)[key], path, out);
    }
  return out;
}

/**
 * One of `paths`, chosen by `pick` depth first: a depth among those the paths have, then a path of that depth. A
 * value's few structural nodes (its parts, their records) are then as likely as its many leaves; picked uniformly, a
 * damaged file's `parts` is one node in a hundred and a check on it is hardly ever reached.
 */
export function pickByDepth<P extends readonly unknown[]>(paths: readonly P[], pick: number): P {
  const depths = [...new Set(paths.map((p) => p.length))];
  const atDepth = paths.filter((p) => p.length === depths[pick % depths.length]);
  return atDepth[Math.floor(pick / depths.length) % atDepth.length];
}

/**
 * A value of another type that keeps what a careless check looks at: an array's length (a string of as many
 * characters), a string's length (an array), a number's digits (a string); a boolean becomes 0 or 1, null an object,
 * an object an array holding it.
 */
export function retyped(value: unknown): unknown {
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return 'x'.repeat((value as { length: number }).length);
  if (typeof value === 'string') return Array.from(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return Number(value);
  if (value === null) return {};
  return [value];
}
