import fc from 'fast-check';

/**
 * Surfaces a search has moves on: `width` column heights, a base height plus steps of at most ±(maxStep + 1) (a few
 * steeper than the table's ±S; mostly -1, 0 or 1, which the pieces' feet fit), shifted to stand on the floor and cut
 * at `max`. Uniform heights (each column drawn on its own) leave the current piece without a legal placement in
 * about half the cases and give it three or more about half as often as these do, so a property over them compares
 * mostly empty or one-move searches. What these seldom draw is a column far above its neighbours or far above the
 * lowest one: a property about such stacks keeps uniform heights.
 */
export function stackArb(width: number, maxStep: number, max: number): fc.Arbitrary<number[]> {
  return fc
    .tuple(
      fc.array(
        fc.oneof(
          { arbitrary: fc.integer({ min: -1, max: 1 }), weight: 3 },
          { arbitrary: fc.integer({ min: -maxStep - 1, max: maxStep + 1 }), weight: 1 },
        ),
        { minLength: width - 1, maxLength: width - 1 },
      ),
      fc.integer({ min: 0, max }),
    )
    .map(([steps, base]) => {
      const h = [0];
      for (const d of steps) h.push(h[h.length - 1] + d);
      const low = Math.min(...h);
      const span = Math.max(...h) - low;
      const lift = Math.max(0, Math.min(base, max - span));
      return h.map((x) => Math.min(max, x - low + lift));
    });
}
