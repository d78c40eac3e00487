/**
 * `stackrank randomizers`: one comparison table of every generator (docs/randomizers.md, "Comparison"), optionally as JSON and with SVG
 * charts. `stackrank queue NAME`: print a generator's queue. Both are thin: the work is in src/randomizers/.
 */
import {
  DEFAULT_ANALYZED_PIECES,
  MAX_ANALYZED_PIECES,
  analyzeRandomizerAsync,
  type RandomizerAnalysis,
} from '../randomizers/analyze.js';
import {
  RANDOMIZERS,
  RANDOMIZER_NAMES,
  createRandomizer,
  randomizerDefinition,
  type RandomizerName,
} from '../randomizers/index.js';
import { randomizerPlots } from '../randomizers/plots.js';
import { UsageError } from './args.js';
import { writeFilesKeepingResult } from './files.js';
import { startWriting } from './io.js';
import { DENOMINATOR, seedOption } from './options.js';
import { formatDuration } from './progress.js';
import { defineCommand } from './spec.js';

/** The frequency window of the analysis: fewer pieces than this give no statistics. */
const MIN_ANALYZED_PIECES = 100;
/** `queue` prints one line; ten million letters is already more than a terminal or a pipe reader wants. */
const MAX_QUEUE_COUNT = 10_000_000;

/** The randomizers `--denominator` applies to (those with a `denominator` parameter). */
const WITH_DENOMINATOR = RANDOMIZERS.filter((r) => 'denominator' in r.defaults).map((r) => r.name);

function paramsFor(name: RandomizerName, denominator: number | undefined): Record<string, number> {
  return WITH_DENOMINATOR.includes(name) && denominator !== undefined ? { denominator } : {};
}

/** The summary the CLI prints per generator; field names are part of the CLI's contract. */
export function summarizeAnalysis(a: RandomizerAnalysis) {
  return {
    name: a.name,
    params: a.params,
    predictability: a.predictability,
    publishedPredictability: randomizerDefinition(a.name).publishedPredictability ?? null,
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
  const header = [
    'generator',
    'predictability',
    'published',
    'entropy (bits)',
    'max drought',
    'repeat',
    'longest run',
    'longest S/Z run',
    'freq std (100)',
  ];
  const rows = analyses.map((a) => {
    const published = randomizerDefinition(a.name).publishedPredictability;
    const label = 'denominator' in a.params ? `${a.name} ${a.params.denominator}` : a.name;
    return [
      label,
      pct(a.predictability),
      published === undefined ? '-' : pct(published),
      a.entropy.toFixed(3),
      String(a.maxDrought),
      pct(a.repeatProbability),
      String(a.longestRun),
      String(a.longestSZRun),
      a.frequencyStd.toFixed(4),
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const format = (cells: string[]) =>
    '| ' + cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ') + ' |';
  const rule = '|' + widths.map((w, c) => (c === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  return [format(header), rule, ...rows.map(format)].join('\n');
}

export const randomizersCommand = defineCommand({
  path: 'randomizers',
  summary: 'compare every piece generator: predictability, droughts, floods; SVG plots',
  description: `Deals N pieces from every generator, seeded with S, and prints one comparison table: predictability
(hit rate of the best guess of the next piece, against the published figure), conditional entropy, longest
drought, repeat chance, longest run, longest S/Z run and the frequency spread of 100-piece windows. --json prints
one object per generator per line. --plots DIR also writes SVG charts there (created if missing).`,
  options: {
    pieces: {
      type: 'int',
      min: MIN_ANALYZED_PIECES,
      max: MAX_ANALYZED_PIECES,
      default: DEFAULT_ANALYZED_PIECES,
      help: 'pieces dealt per generator',
    },
    seed: seedOption(0),
    denominator: DENOMINATOR,
    plots: { type: 'outDir', help: 'also write the SVG charts into this directory' },
  },
  async run({ values }, io) {
    const { pieces, seed, denominator } = values;
    const started = performance.now();
    const analyses: RandomizerAnalysis[] = [];
    for (const [i, name] of RANDOMIZER_NAMES.entries()) {
      io.status(
        `analysing ${name} (${i + 1}/${RANDOMIZER_NAMES.length}), ${formatDuration(performance.now() - started)} elapsed`,
      );
      const onWarning = (m: string) => io.err(`stackrank randomizers: warning: ${m}`);
      analyses.push(
        await analyzeRandomizerAsync(name, {
          pieces,
          seed,
          params: paramsFor(name, denominator),
          onWarning,
          signal: io.signal,
        }),
      );
    }
    io.status('');
    if (values.json) for (const a of analyses) io.out(JSON.stringify(summarizeAnalysis(a)));
    else {
      io.out(`${pieces} pieces per generator, seed ${seed}`);
      io.out(comparisonTable(analyses));
    }

    if (values.plots !== undefined) {
      io.status('drawing plots');
      startWriting(io);
      const written = await writeFilesKeepingResult(values.plots, randomizerPlots(analyses, seed), 'plots');
      io.status('');
      // Keep stdout pure JSON under --json.
      for (const path of written) (values.json ? io.err : io.out)(`wrote ${path}`);
    }
    return 0;
  },
});

export const queueCommand = defineCommand({
  path: 'queue',
  summary: 'print the pieces a generator deals from a seed',
  description: [
    'Prints the first N pieces that generator NAME deals from seed S (docs/randomizers.md). Generators:',
    ...RANDOMIZERS.map((r) => `${r.name}: ${r.description}.`),
  ].join('\n\n'),
  args: [{ name: 'name', help: `generator: ${RANDOMIZER_NAMES.join(', ')}` }],
  options: {
    seed: seedOption(0),
    count: { type: 'int', min: 0, max: MAX_QUEUE_COUNT, default: 100, help: 'pieces to print' },
    denominator: DENOMINATOR,
  },
  async run({ values, args }, io) {
    const name = args[0];
    if (!(RANDOMIZER_NAMES as readonly string[]).includes(name))
      throw new UsageError(`unknown generator ${JSON.stringify(name)}; one of ${RANDOMIZER_NAMES.join(', ')}`);
    const generator = name as RandomizerName;
    const { seed, count, denominator } = values;
    if (denominator !== undefined && !WITH_DENOMINATOR.includes(generator))
      throw new UsageError(`--denominator only applies to ${WITH_DENOMINATOR.join(', ')}`);
    const randomizer = createRandomizer(generator, {
      seed,
      ...paramsFor(generator, denominator),
      onWarning: (m) => io.err(`stackrank queue: warning: ${m}`),
    });
    const queue = randomizer.take(count);
    if (values.json) io.out(JSON.stringify({ name, seed, params: randomizer.params, count, queue }));
    else io.out(queue);
    return 0;
  },
});
