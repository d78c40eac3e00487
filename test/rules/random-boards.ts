/**
 * Random boards for the rules tests: stacks of random column heights with holes, overhangs (cells hanging over
 * empty ones) and, now and then, a stack reaching the spawn rows.
 */
import type { Rng } from '../../src/random.js';

export interface RandomBoard {
  width: number;
  height: number;
  /** Rows of strings, top row first. */
  rows: string[];
}

export function randomBoard(rng: Rng): RandomBoard {
  const width = rng.nextInt(4) === 0 ? 4 + rng.nextInt(6) : 10;
  const height = rng.nextInt(4) === 0 ? 4 + rng.nextInt(37) : 20;
  const grid: boolean[][] = Array.from({ length: height }, () => new Array<boolean>(width).fill(false));
  const tall = rng.nextInt(10) === 0 ? height : Math.max(2, Math.floor(height * 0.6));
  const density = 0.55 + rng.nextInt(45) / 100;
  for (let x = 0; x < width; x++) {
    const h = rng.nextInt(tall + 1);
    for (let y = 0; y < h; y++) grid[y][x] = rng.nextInt(100) < density * 100;
  }
  // Overhangs: short horizontal bars floating above the surface.
  const bars = rng.nextInt(4);
  for (let b = 0; b < bars; b++) {
    const y = rng.nextInt(Math.max(1, tall));
    const x0 = rng.nextInt(width);
    const len = 1 + rng.nextInt(3);
    for (let x = x0; x < Math.min(width, x0 + len); x++) grid[y][x] = true;
  }
  // Never a full row: a real board has none after line clears.
  for (let y = 0; y < height; y++) if (grid[y].every(Boolean)) grid[y][rng.nextInt(width)] = false;
  const rows: string[] = [];
  for (let y = height - 1; y >= 0; y--) rows.push(grid[y].map((f) => (f ? '#' : '.')).join(''));
  return { width, height, rows };
}
