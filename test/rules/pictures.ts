/**
 * The state pictures of docs/rules.md ("Rotation systems"), drawn from src/rules/rotation-systems.ts, so a test
 * can check the page still shows what the code does.
 *
 * `#` a cell, `.` an empty cell of the box, `@` the reference point (x, y) when it is a cell, `+` when it is not.
 * Under each state: its name and the library orientation (src/pieces.ts) with the same shape.
 */
import { ORIENTATIONS, PIECES, orientationCells } from '../../src/pieces.js';
import { ROTATION_SYSTEMS, type RotationSystemName } from '../../src/rules/rotation-systems.js';

type XY = readonly [number, number];
const shape = (cells: readonly XY[]) => {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells
    .map(([x, y]) => `${x - mx},${y - my}`)
    .sort()
    .join(' ');
};

export function statePictures(system: RotationSystemName): string {
  const rs = ROTATION_SYSTEMS[system];
  const lines: string[] = [];
  rs.pieces.forEach((ps, pid) => {
    const orientationOf = (cells: readonly XY[]) =>
      ORIENTATIONS[pid].findIndex((o) => shape(orientationCells(o)) === shape(cells));
    const blocks = ps.cells.map((cells, s) => {
      const boxed = system === 'SRS' || system === 'ARS';
      const xs = cells.map((c) => c[0]).concat(0);
      const ys = cells.map((c) => c[1]).concat(0);
      const x0 = boxed ? 0 : Math.min(...xs);
      const y0 = boxed ? 0 : Math.min(...ys);
      const x1 = boxed ? ps.spawnBox - 1 : Math.max(...xs);
      const y1 = boxed ? ps.spawnBox - 1 : Math.max(...ys);
      const rows: string[] = [];
      for (let y = y1; y >= y0; y--) {
        let row = '';
        for (let x = x0; x <= x1; x++) {
          const cell = cells.some((c) => c[0] === x && c[1] === y);
          row += x === 0 && y === 0 ? (cell ? '@' : '+') : cell ? '#' : '.';
        }
        rows.push(row);
      }
      return { rows, label: `${ps.names[s]}=o${orientationOf(cells)}` };
    });
    const height = Math.max(...blocks.map((b) => b.rows.length));
    const width = Math.max(...blocks.map((b) => Math.max(b.rows[0].length, b.label.length)));
    lines.push(`${PIECES[pid]}:`);
    for (let r = 0; r < height; r++) {
      lines.push(
        '  ' +
          blocks
            .map((b) => (b.rows[r - (height - b.rows.length)] ?? '').padEnd(width))
            .join('   ')
            .trimEnd(),
      );
    }
    lines.push(
      '  ' +
        blocks
          .map((b) => b.label.padEnd(width))
          .join('   ')
          .trimEnd(),
    );
  });
  return lines.join('\n');
}
