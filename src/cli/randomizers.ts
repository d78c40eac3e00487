/**
 * `stackrank randomizers`: one comparison table of every generator (DESIGN §4), optionally as JSON and with SVG
 * charts. `stackrank queue NAME`: print a generator's queue. Both are thin: the work is in src/randomizers/.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyzeRandomizer, type RandomizerAnalysis } from '../randomizers/analyze.js';
import { RANDOMIZER_NAMES, createRandomizer, isRandomizerName, type RandomizerName } from '../randomizers/index.js';
import { randomizerPlots } from '../randomizers/plots.js';
import { UsageError, intOption, parse } from './args.js';
import type { CliIO } from './io.js';
import { formatDuration } from './progress.js';

const RANDOMIZERS_USAGE = `usage: stackrank randomizers [--pieces N] [--seed S] [--denominator D] [--json] [--plots DIR]
  Deals N pieces (default 1000000) from every generator, seeded with S (default 0), and prints one comparison
  table: predictability (hit rate of the best guess of the next piece, against the published figure),
  conditional entropy, longest drought, repeat chance, longest run, longest S/Z run and the frequency spread
  of 100-piece windows. --denominator sets decay's (default 1.1). --json prints a JSON array, one object per
  generator. --plots DIR also writes SVG charts there.`;

const QUEUE_USAGE = `usage: stackrank queue NAME [--seed S] [--count N] [--denominator D] [--json]
  Prints the first N pieces (default 100) that generator NAME deals from seed S (default 0).
  Generators: ${RANDOMIZER_NAMES.join(', ')}.`;

/** Predictability reported by the articles the project compares against (DESIGN §4). */
const PUBLISHED_PREDICTABILITY: Partial<Record<RandomizerName, number>> = { memoryless: 0.1429, tgm1: 0.2896, tgm2: 0.318, bag7: 0.3704 };

const MAX_SEED = 2 ** 32 - 1;

function denominatorOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--denominator must be a number > 0; got ${JSON.stringify(value)}`);
  return n;
}

function paramsFor(name: RandomizerName, denominator: number | undefined): Record<string, number> {
  return name === 'decay' && denominator !== undefined ? { denominator } : {};
}

/** The summary the CLI prints per generator; field names are part of the CLI's contract. */
export function summarizeAnalysis(a: RandomizerAnalysis) {
  return {
    name: a.name,
    params: a.params,
    predictability: a.predictability,
    publishedPredictability: PUBLISHED_PREDICTABILITY[a.name] ?? null,
    hitRate: a.hitRate,
    entropy: a.entropy,
    maxDrought: a.maxDrought,
    repeatProbability: a.repeatProbability,
    longestRun: a.longestRun,
    longestSZRun: a.longestSZRun,
    frequencyStd: a.frequencyStd,
  };
}

const pct = (v: number) => `${(v * 100).toFixed(2)} %`;

export function comparisonTable(analyses: readonly RandomizerAnalysis[]): string {
  const header = ['generator', 'predictability', 'published', 'entropy (bits)', 'max drought', 'repeat', 'longest run', 'longest S/Z run', 'freq std (100)'];
  const rows = analyses.map((a) => {
    const published = PUBLISHED_PREDICTABILITY[a.name];
    const label = a.name === 'decay' ? `decay ${a.params.denominator}` : a.name;
    return [label, pct(a.predictability), published === undefined ? '-' : pct(published), a.entropy.toFixed(3), String(a.maxDrought), pct(a.repeatProbability), String(a.longestRun), String(a.longestSZRun), a.frequencyStd.toFixed(4)];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const format = (cells: string[]) => '| ' + cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ') + ' |';
  const rule = '|' + widths.map((w, c) => (c === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  return [format(header), rule, ...rows.map(format)].join('\n');
}

export async function randomizersCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, { pieces: { type: 'string' }, seed: { type: 'string' }, denominator: { type: 'string' }, plots: { type: 'string' } });
  if (values.help) return io.out(RANDOMIZERS_USAGE), 0;
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const pieces = intOption('pieces', values.pieces, 1_000_000, 100, 1_000_000_000);
  const seed = intOption('seed', values.seed, 0, 0, MAX_SEED);
  const denominator = denominatorOption(values.denominator);
  if (values.plots === '') throw new UsageError('--plots needs a directory');

  const started = performance.now();
  const analyses: RandomizerAnalysis[] = [];
  for (const [i, name] of RANDOMIZER_NAMES.entries()) {
    io.status(`analysing ${name} (${i + 1}/${RANDOMIZER_NAMES.length}), ${formatDuration(performance.now() - started)} elapsed`);
    analyses.push(analyzeRandomizer(name, { pieces, seed, params: paramsFor(name, denominator), onWarning: (m) => io.err(`stackrank randomizers: warning: ${m}`) }));
  }
  io.status('');
  if (values.json) io.out(JSON.stringify(analyses.map(summarizeAnalysis), null, 2));
  else {
    io.out(`${pieces} pieces per generator, seed ${seed}`);
    io.out(comparisonTable(analyses));
  }

  if (values.plots !== undefined) {
    io.status('drawing plots');
    const files = randomizerPlots(analyses, seed);
    await mkdir(values.plots, { recursive: true });
    for (const [file, svg] of Object.entries(files)) {
      const path = join(values.plots, file);
      await writeFile(path, svg);
      // Keep stdout pure JSON under --json.
      if (values.json) io.err(`wrote ${path}`);
      else io.out(`wrote ${path}`);
    }
    io.status('');
  }
  return 0;
}

export async function queueCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, { seed: { type: 'string' }, count: { type: 'string' }, denominator: { type: 'string' } });
  if (values.help) return io.out(QUEUE_USAGE), 0;
  const [name, extra] = positionals;
  if (name === undefined) throw new UsageError(`missing generator name; one of ${RANDOMIZER_NAMES.join(', ')}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  if (!isRandomizerName(name)) throw new UsageError(`unknown generator ${JSON.stringify(name)}; one of ${RANDOMIZER_NAMES.join(', ')}`);
  const seed = intOption('seed', values.seed, 0, 0, MAX_SEED);
  const count = intOption('count', values.count, 100, 0, 10_000_000);
  const denominator = denominatorOption(values.denominator);
  if (denominator !== undefined && name !== 'decay') throw new UsageError(`--denominator only applies to decay`);
  const randomizer = createRandomizer(name, { seed, ...paramsFor(name, denominator), onWarning: (m) => io.err(`stackrank queue: warning: ${m}`) });
  const queue = randomizer.take(count);
  if (values.json) io.out(JSON.stringify({ name, seed, params: randomizer.params, count, queue }));
  else io.out(queue);
  return 0;
}
