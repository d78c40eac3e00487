/**
 * The two entry points (docs/api.md): `stackrank` for games and demos, small enough to read in a minute, and
 * `stackrank/research` for the rest. A name lives in one of them, and every import the docs and the demo show
 * resolves in the entry they import it from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as game from '../src/index.js';
import * as research from '../src/research.js';
import * as worker from '../src/worker.js';

const ROOT = resolve(__dirname, '..');
const ENTRIES: Record<string, Record<string, unknown>> = {
  stackrank: game,
  'stackrank/research': research,
  'stackrank/worker': worker,
};

/** Runtime names imported from a stackrank entry by `import { ... } from 'stackrank...'` statements in `text`. */
function importsIn(text: string): { entry: string; name: string }[] {
  const out: { entry: string; name: string }[] = [];
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(stackrank(?:\/research|\/worker)?)'/g)) {
    for (const part of m[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (name && !name.startsWith('type ')) out.push({ entry: m[2], name });
    }
  }
  return out;
}

describe('entry points', () => {
  it('the game-facing entry has at most 60 runtime exports, and shares none with research', () => {
    const names = Object.keys(game);
    expect(names.length).toBeGreaterThan(20);
    expect(names.length).toBeLessThanOrEqual(60);
    expect(names.filter((n) => n in research)).toEqual([]);
    // The worker entry holds the worker alone, so a page that does not use it bundles no worker.
    expect(Object.keys(worker)).toEqual(['createWorkerTetrisAI']);
    expect(Object.keys(worker).filter((n) => n in game || n in research)).toEqual([]);
  });

  it('game names read without the project history; internals live in research', () => {
    expect(game.ARTICLE_RULES).toMatchObject({ steep: 'truncate', tetris: 'forced' });
    for (const internal of [
      'SEED_RULES',
      'BEST_STRATEGY',
      'expectimaxStrategy',
      'STRATEGIES',
      'distributionWeights',
      'FEATURE_NAMES',
      'trainWeights',
      'weightsModel',
      'FORMAT_VERSION',
    ]) {
      expect(internal in game, internal).toBe(false);
    }
    for (const name of [
      'expectimaxStrategy',
      'STRATEGIES',
      'FEATURE_NAMES',
      'trainWeights',
      'weightsModel',
      'FORMAT_VERSION',
      'DEFAULT_WEIGHTS',
    ]) {
      expect(name in research, name).toBe(true);
    }
  });

  it('every name the README, docs/ and the demo import from an entry is exported by it', () => {
    const sources = [
      join(ROOT, 'README.md'),
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(ROOT, 'docs', f)),
      ...readdirSync(join(ROOT, 'demo'))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(ROOT, 'demo', f)),
    ];
    const missing: string[] = [];
    let checked = 0;
    for (const file of sources) {
      for (const { entry, name } of importsIn(readFileSync(file, 'utf8'))) {
        checked++;
        if (!(name in ENTRIES[entry])) missing.push(`${file.slice(ROOT.length + 1)}: ${name} from '${entry}'`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('docs/api.md marks a research name in the game sections as "(research)"', () => {
    const [gameSections, researchSection] = readFileSync(join(ROOT, 'docs/api.md'), 'utf8').split(
      '## `stackrank/research`',
    );
    expect(researchSection).toBeTruthy();
    const unmarked: string[] = [];
    for (const line of gameSections.split('\n')) {
      for (const m of line.matchAll(/`([A-Za-z_]\w*)/g)) {
        if (m[1] in research && !line.includes('(research)')) unmarked.push(m[1]);
      }
    }
    expect(unmarked).toEqual([]);
  });
});
