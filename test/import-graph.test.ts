/**
 * The import graph of src/ (docs/architecture.md, "The kernel layer"): no import cycle, type-only and dynamic
 * imports included (a module that needs another's types and is needed by it shares them through a module of its
 * own), and no file outside src/kernels/ reads a kernel's memory layout (assembly/<kernel>/layout.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
      // two files that import each other: the shortest cycle between files
      ['e', ['f']],
      ['f', ['e', 'a']],
    ]);
    expect(importCycles(loop)).toEqual([['a', 'b', 'c'], ['d'], ['e', 'f']]);
  });

  it('reads type-only imports, re-exports and dynamic imports, as repository paths of the .ts files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stackrank-imports-'));
    try {
      mkdirSync(join(dir, 'src', 'sub'), { recursive: true });
      const text = [
        "import type { A } from './a.js';",
        "export * from '../b.js';",
        "export const later = () => import('./c.js');",
        "import { readFileSync } from 'node:fs';",
      ].join('\n');
      writeFileSync(join(dir, 'src', 'sub', 'x.ts'), text);
      expect(importGraph(dir, ['src/sub/x.ts']).get('src/sub/x.ts')).toEqual([
        'src/sub/a.ts',
        'src/b.ts',
        'src/sub/c.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
