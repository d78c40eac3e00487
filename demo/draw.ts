/**
 * Drawing the board and small piece boxes on canvases. One picture type for every mode: the cells (row 0 at the
 * bottom), plus what a mode lays over them (the falling piece, its ghost, the AI's hint, numbered placements,
 * hole marks). The canvas shows the 20 visible rows and, above a dashed line, the 2 rows where pieces appear.
 */
import { ORIENTATIONS, PIECES, orientationCells, type Cell, type Piece } from 'stackrank';

/** A drawn cell: a piece's colour, 'X' for garbage or a cell of unknown piece, null for empty. */
export type Paint = Piece | 'X' | null;

export const COLORS: Record<Piece | 'X', string> = {
  I: '#20c8e0',
  O: '#e8c820',
  T: '#a050e0',
  S: '#40c060',
  Z: '#e04848',
  L: '#f08c28',
  J: '#3c6cf0',
  X: '#7a7f8c',
};
export const CELL = 25;
export const VISIBLE_ROWS = 20;
/** Rows drawn above the visible field: where guideline pieces appear. */
export const SPAWN_ROWS = 2;
export const DRAWN_ROWS = VISIBLE_ROWS + SPAWN_ROWS;
const MARK_COLORS = ['#ffffff', '#7fe07f', '#f0c040', '#c080ff', '#80c0ff'];

export interface Overlay {
  piece: Piece;
  cells: readonly Cell[];
  /** A numbered placement's number (default: its place in the list). */
  label?: string;
}

export interface Picture {
  columns: number;
  /** cells[row][column], row 0 at the bottom; rows beyond DRAWN_ROWS are not drawn. */
  cells: readonly (readonly Paint[])[];
  /** The surface game: shade the last column (the well) and draw the Tetris threshold at `threshold` rows. */
  well?: { threshold: number; flash: number } | null;
  /** Outline these cells (the last placement). */
  lastCells?: readonly Cell[];
  /** Mark every hole: an empty cell under a filled one in its column. */
  holes?: boolean;
  /** The falling piece, drawn solid, and its ghost (where a hard drop puts it), drawn faint. */
  active?: Overlay | null;
  ghost?: Overlay | null;
  /** The AI's placement, drawn as a dashed outline. */
  hint?: Overlay | null;
  /** Ranked placements, drawn as numbered outlines (1 = best); `selected` is drawn filled. */
  marks?: readonly Overlay[];
  selected?: number;
  /** Keyboard cursor of the analyze editor. */
  cursor?: Cell | null;
}

const top = (y: number) => (DRAWN_ROWS - 1 - y) * CELL;

export function drawBoard(canvas: HTMLCanvasElement, pic: Picture): void {
  const g = canvas.getContext('2d')!;
  const W = pic.columns * CELL;
  g.fillStyle = '#0b0c10';
  g.fillRect(0, 0, canvas.width, canvas.height);
  if (pic.well) {
    g.fillStyle = '#161922';
    g.fillRect(W - CELL, top(VISIBLE_ROWS - 1), CELL, VISIBLE_ROWS * CELL);
  }
  g.strokeStyle = '#1c1f2a';
  g.lineWidth = 1;
  for (let c = 1; c < pic.columns; c++) line(g, c * CELL, top(VISIBLE_ROWS - 1), c * CELL, DRAWN_ROWS * CELL);
  for (let r = 1; r < VISIBLE_ROWS; r++) line(g, 0, top(r - 1), W, top(r - 1));
  // The top of the visible field.
  g.strokeStyle = 'rgba(255,255,255,0.35)';
  g.setLineDash([6, 4]);
  line(g, 0, top(VISIBLE_ROWS), W, top(VISIBLE_ROWS));
  g.setLineDash([]);

  const rows = Math.min(pic.cells.length, DRAWN_ROWS);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < pic.columns; c++) {
      const p = pic.cells[r][c];
      if (p) fillCell(g, c, r, COLORS[p], 1);
    }
  }
  if (pic.holes) {
    g.strokeStyle = '#ff5060';
    g.lineWidth = 2;
    for (let c = 0; c < pic.columns; c++) {
      let covered = false;
      for (let r = rows - 1; r >= 0; r--) {
        if (pic.cells[r][c]) covered = true;
        else if (covered) {
          const x = c * CELL;
          const y = top(r);
          line(g, x + 7, y + 7, x + CELL - 7, y + CELL - 7);
          line(g, x + CELL - 7, y + 7, x + 7, y + CELL - 7);
        }
      }
    }
    g.lineWidth = 1;
  }
  if (pic.lastCells?.length) {
    g.strokeStyle = '#ffffff';
    g.lineWidth = 2;
    for (const [c, r] of pic.lastCells) if (r < DRAWN_ROWS) g.strokeRect(c * CELL + 2, top(r) + 2, CELL - 4, CELL - 4);
    g.lineWidth = 1;
  }
  if (pic.well) {
    if (pic.well.flash > 0) {
      g.fillStyle = `rgba(32, 200, 224, ${pic.well.flash})`;
      g.fillRect(W - CELL, top(3), CELL, 4 * CELL);
    }
    g.strokeStyle = 'rgba(255,255,255,0.25)';
    g.setLineDash([4, 4]);
    line(g, 0, top(pic.well.threshold - 1), W - CELL, top(pic.well.threshold - 1));
    g.setLineDash([]);
  }
  if (pic.ghost) for (const [c, r] of pic.ghost.cells) fillCell(g, c, r, COLORS[pic.ghost.piece], 0.28);
  if (pic.active) for (const [c, r] of pic.active.cells) fillCell(g, c, r, COLORS[pic.active.piece], 1);
  if (pic.marks) {
    // Worst first, so that the best is on top.
    for (let i = pic.marks.length - 1; i >= 0; i--) {
      const m = pic.marks[i];
      const color = MARK_COLORS[Math.min(i, MARK_COLORS.length - 1)];
      if (i === pic.selected) for (const [c, r] of m.cells) fillCell(g, c, r, COLORS[m.piece], 0.85);
      g.strokeStyle = color;
      g.lineWidth = i === pic.selected ? 3 : 2;
      for (const [c, r] of m.cells) g.strokeRect(c * CELL + 3, top(r) + 3, CELL - 6, CELL - 6);
      {
        const [c, r] = m.cells[m.cells.length - 1];
        g.fillStyle = color;
        g.font = 'bold 13px system-ui, sans-serif';
        g.textAlign = 'center';
        g.textBaseline = 'middle';
        g.fillText(m.label ?? String(i + 1), c * CELL + CELL / 2, top(r) + CELL / 2);
      }
    }
    g.lineWidth = 1;
  }
  if (pic.hint) {
    g.strokeStyle = '#00f0ff';
    g.lineWidth = 3;
    g.setLineDash([5, 3]);
    for (const [c, r] of pic.hint.cells) g.strokeRect(c * CELL + 2, top(r) + 2, CELL - 4, CELL - 4);
    g.setLineDash([]);
    g.lineWidth = 1;
  }
  if (pic.cursor) {
    const [c, r] = pic.cursor;
    g.strokeStyle = '#ffe060';
    g.lineWidth = 2;
    g.strokeRect(c * CELL + 1, top(r) + 1, CELL - 2, CELL - 2);
    g.lineWidth = 1;
  }
}

function fillCell(g: CanvasRenderingContext2D, c: number, r: number, color: string, alpha: number): void {
  if (r >= DRAWN_ROWS || r < 0) return;
  g.globalAlpha = alpha;
  g.fillStyle = color;
  g.fillRect(c * CELL + 1, top(r) + 1, CELL - 2, CELL - 2);
  g.globalAlpha = 1;
}

export function line(g: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  g.beginPath();
  g.moveTo(x0 + 0.5, y0 + 0.5);
  g.lineTo(x1 + 0.5, y1 + 0.5);
  g.stroke();
}

/** The board cell under a point of the canvas (CSS pixels), or null outside the drawn rows. */
export function cellAt(canvas: HTMLCanvasElement, columns: number, clientX: number, clientY: number): Cell | null {
  const box = canvas.getBoundingClientRect();
  const x = Math.floor(((clientX - box.left) / box.width) * (canvas.width / CELL));
  const yFromTop = Math.floor(((clientY - box.top) / box.height) * (canvas.height / CELL));
  const y = DRAWN_ROWS - 1 - yFromTop;
  if (x < 0 || x >= columns || y < 0 || y >= VISIBLE_ROWS) return null;
  return [x, y];
}

/**
 * A row of small piece boxes: `label` over each (e.g. "hold", "now", "+1"), pieces drawn in their spawn
 * orientation; `dim` boxes are drawn faded (hold used this turn). Null slots draw an empty box.
 */
export function drawPieces(
  canvas: HTMLCanvasElement,
  slots: readonly { piece: Piece | null; label: string; highlight?: boolean; dim?: boolean }[],
): void {
  const g = canvas.getContext('2d')!;
  g.clearRect(0, 0, canvas.width, canvas.height);
  const n = Math.max(1, slots.length);
  const slot = canvas.width / n;
  const s = Math.min(12, (slot - 8) / 4);
  slots.forEach((sl, i) => {
    const x0 = i * slot;
    g.fillStyle = sl.highlight ? '#2c3346' : '#191c25';
    g.fillRect(x0 + 2, 2, slot - 4, canvas.height - 4);
    g.fillStyle = '#9aa0b4';
    g.font = '10px system-ui, sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(sl.label, x0 + slot / 2, canvas.height - 9);
    if (!sl.piece) return;
    const o = ORIENTATIONS[PIECES.indexOf(sl.piece)][0];
    const cells = orientationCells(o);
    const cx = x0 + slot / 2 - (o.width * s) / 2;
    const h = Math.max(...cells.map(([, r]) => r)) + 1;
    const cy = (canvas.height - 16) / 2 + (h * s) / 2;
    g.globalAlpha = sl.dim ? 0.35 : 1;
    g.fillStyle = COLORS[sl.piece];
    for (const [j, r] of cells) g.fillRect(cx + j * s, cy - (r + 1) * s, s - 1, s - 1);
    g.globalAlpha = 1;
  });
}
