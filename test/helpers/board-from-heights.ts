/**
 * Rows (top first) of a 10 × 20 board from column heights: column x filled up to heights[x], with a hole at row
 * holes[x] where that row is under the column's top cell. Never a full row (its last cell is left empty), so the
 * board is one a game can show: random boards from drawn heights and holes, and positions written by hand.
 */
export function boardRows(heights: readonly number[], holes: readonly number[]): string[] {
  const rows: string[] = [];
  for (let y = 19; y >= 0; y--) {
    let row = '';
    for (let x = 0; x < 10; x++) row += y < heights[x] && !(holes[x] === y && y < heights[x] - 1) ? '#' : '.';
    rows.push(row === '##########' ? `${row.slice(0, 9)}.` : row);
  }
  return rows;
}
