/**
 * The import graph of src/ (docs/architecture.md, "The kernel layer"): no import cycle, type-only and dynamic
 * imports included (a module that needs another's types and is needed by it shares them through a module of its
 * own), and no file outside src/kernels/ reads a kernel's memory layout (assembly/<kernel>/layout.ts).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './helpers/import-graph.js';

const ROOT = resolve(__dirname, '..');

/** Every .ts file under `dir`, as paths relative to the repository, generated code left out. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (e.name !== 'generated') out.push(...sources(path));
    } else if (e.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('the import graph of src/', () => {
  const graph = importGraph(ROOT, sources('src'));

  it('reads the imports it checks (a file of src/ imports others)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('src/index.ts')).toContain('src/tetris-ai/index.ts');
  });

  it('finds a cycle where there is one, of any length, and none in a chain', () => {
    const chain = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', []],
    ]);
    expect(importCycles(chain)).toEqual([]);
    const loop = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
    ]);
    expect(importCycles(loop)).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('has no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('reads the kernels’ memory layouts in src/kernels/ only', () => {
    const readers = [...graph]
      .filter(([, targets]) => targets.some((t) => /^assembly\/.*layout\.ts$/.test(t)))
      .map(([file]) => file);
    expect(readers.length).toBeGreaterThan(0);
    expect(readers.filter((file) => !file.startsWith('src/kernels/'))).toEqual([]);
  });
});
