/**
 * Reference of the versus search's quick placement list (docs/game.md, "The versus policy"), independent of the
 * kernel's (assembly/versus/drops.ts): the piece moved cell by cell on a board of bit rows. For each rotation state
 * whose cells (as a shape) differ from every earlier state's, columns left to right: the hard drop from the row where
 * the piece appears, then the piece at that resting row one column to the left, then to the right, where it is free
 * and lower than that column's own hard drop, let down to rest. null when the board's top reaches a row some state
 * occupies where the piece appears. Test-only.
 */
import { PIECES, type Piece } from '../../src/pieces.js';
import { ROTATION_SYSTEMS, shapeKey } from '../../src/rules/rotation-systems.js';
import { spawnY, type RuleSet } from '../../src/rules/rule-sets.js';
import type { GamePlacement } from '../../src/rules/types.js';

export function refQuickPlacements(
  rows: ArrayLike<number>,
  width: number,
  height: number,
  piece: Piece,
  rules: RuleSet,
): GamePlacement[] | null {
  const states = ROTATION_SYSTEMS[rules.rotationSystem].pieces[PIECES.indexOf(piece)];
  const dys0 = states.cells[0].map((c) => c[1]);
  const y0 = spawnY(rules, height, Math.min(...dys0), Math.max(...dys0));
  let top = 0;
  for (let y = 0; y < rows.length; y++) if (rows[y] !== 0) top = y + 1;
  if (states.cells.some((cells) => top > y0 + Math.min(...cells.map((c) => c[1])))) return null;
  const filled = (x: number, y: number) =>
    y < 0 || x < 0 || x >= width || (y < rows.length && ((rows[y] >>> x) & 1) === 1);
  const out: GamePlacement[] = [];
  const seen = new Set<string>();
  states.cells.forEach((cells, s) => {
    const shape = shapeKey(cells);
    if (seen.has(shape)) return;
    seen.add(shape);
    const free = (x: number, y: number) => cells.every(([dx, dy]) => !filled(x + dx, y + dy));
    const rest = (x: number, y: number) => {
      while (free(x, y - 1)) y--;
      return y;
    };
    const place = (x: number, y: number) =>
      out.push({
        piece,
        rotation: states.names[s],
        x,
        y,
        cells: cells.map(([dx, dy]) => [x + dx, y + dy] as const),
        spin: 'none',
        inputs: [],
      } as GamePlacement);
    const xs: number[] = [];
    for (let x = -width; x < 2 * width; x++) if (cells.every(([dx]) => x + dx >= 0 && x + dx < width)) xs.push(x);
    for (const x of xs) {
      const y = rest(x, y0);
      place(x, y);
      for (const x2 of [x - 1, x + 1]) {
        if (!xs.includes(x2) || !free(x2, y) || y >= rest(x2, y0)) continue;
        place(x2, rest(x2, y));
      }
    }
  });
  return out;
}
