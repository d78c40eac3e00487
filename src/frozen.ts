/**
 * The library's exported tables (piece letters, rotation systems, presets, names): frozen to the last level, since
 * the library reads them live and a caller's edit would change how it plays. A level frozen already is still
 * walked: what it holds may not be.
 */
export function deepFreeze<T>(value: T, seen = new WeakSet<object>()): T {
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !seen.has(value)) {
    seen.add(value);
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field, seen);
  }
  return value;
}
