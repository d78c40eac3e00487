/** docs/rules.md draws every rotation state; the pictures must be the ones the code uses. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { statePictures } from './pictures.js';

const doc = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');

describe('docs/rules.md state pictures', () => {
  for (const system of ['SRS', 'ARS', 'NRS', 'classic'] as const) {
    it(`${system} pictures match src/rules/rotation-systems.ts`, () => {
      const at = doc.indexOf(`<!-- pictures:${system} -->`);
      expect(at).toBeGreaterThan(0);
      const block = doc.slice(at).split('```')[1];
      expect(block).toBe(`text\n${statePictures(system)}\n`);
    });
  }
});
