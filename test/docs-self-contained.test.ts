/**
 * The repository explains itself: code, tests, scripts and docs cite the project's own docs/ pages, never the
 * design notes or source documents that live outside the repository. The forbidden patterns are built from pieces
 * so that this file does not match them itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORIENTATIONS, PIECES } from '../src/pieces.js';

const ROOT = join(__dirname, '..');
const SCANNED = ['src', 'assembly', 'scripts', 'bench', 'demo', 'test', 'docs', 'README.md'];
const SKIPPED_DIRS = new Set(['node_modules', 'generated', 'dist']);
const BINARY = /\.(png|jpe?g|gif|wasm|srk|gz|ico|woff2?)$/i;

const FORBIDDEN: readonly RegExp[] = [
  new RegExp(['DES', 'IGN ', '§'].join(''), 'i'),
  new RegExp(['\\.\\.', '/sha', 'red'].join('')),
  new RegExp(['sha', 'red/', 'seeds'].join('')),
  new RegExp(['se', 'ed 00', '[0-9]'].join(''), 'i'),
];

function listFiles(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) return [];
    return listFiles(join(path, entry.name));
  });
}

const files = SCANNED.flatMap(listFiles).filter((file) => !BINARY.test(file));

describe('docs are self-contained', () => {
  it('scans the project files (this one included)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain(join('test', 'docs-self-contained.test.ts'));
  });

  it('the patterns catch what they are meant to catch', () => {
    const samples = [`see ${'DES'}IGN §2`, `../${'shared'}/DESIGN.md`, `${'shared'}/seeds/002`, `(${'Seed'} 004)`];
    expect(samples.map((sample, i) => FORBIDDEN[i].test(sample))).toEqual([true, true, true, true]);
    expect(FORBIDDEN.some((re) => re.test('the 2009 PageRank stacking article, seed 1'))).toBe(false);
  });

  it('no file cites the design notes or the source documents by their outside names', () => {
    const offences: string[] = [];
    for (const file of files) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const re of FORBIDDEN) if (re.test(line)) offences.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offences).toEqual([]);
  });

  it("docs/rules.md's piece table is exactly src/pieces.ts's geometry, in the same order", () => {
    const rules = readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8');
    PIECES.forEach((piece, id) => {
      const row = rules.split('\n').find((line) => line.startsWith(`| ${piece} | `));
      expect(row, `row for ${piece}`).toBeDefined();
      const documented = row!
        .split('|')[2]
        .split('·')
        .map((s) => s.trim());
      const actual = ORIENTATIONS[id].map((o) => `${o.width}: ${o.bot.join('')}/${o.top.join('')}`);
      expect(documented).toEqual(actual);
    });
  });
});
