/**
 * The import graph of src/ (docs/architecture.md, "The kernel layer"): no import cycle, type-only and dynamic
 * imports included (a module that needs another's types and is needed by it shares them through a module of its
 * own), and no file outside src/kernels/ reads a kernel's memory layout (assembly/<kernel>/layout.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

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

/** The files each file imports by a relative path (imports, re-exports, `import()`), as repository paths. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const targets = info.importedFiles
      .map((r) => r.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)).replace(/\.js$/, '.ts'));
    graph.set(file, targets);
  }
  return graph;
}

/** The import cycles of a graph: each strongly connected set of two or more files (or one importing itself). */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(set.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('the import graph of src/', () => {
  const graph = importGraph(sources('src'));

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
