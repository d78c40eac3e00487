/**
 * Statistics of a randomizer's stream (docs/randomizers.md, "Statistics"): frequencies and their spread (the decay-randomizer post), droughts, floods,
 * predictability and conditional entropy. Predictability and entropy are read off `distribution()` at every
 * step, so they describe an observer who knows the generator's full state (for bags, NES and TGM1/2 the state
 * follows from the pieces seen; for twoBag, redBlue and tgm3 part of it is hidden, so the figure is an upper
 * bound on what a player can guess).
 */
import {
  StackRankError,
  checkCallback,
  checkSignal,
  describe,
  optionNames,
  optionsObject,
  requireInt,
  sliceClock,
  yieldToEventLoop,
} from '../errors.js';
import { checkSeed } from '../random.js';
import { PIECE_COUNT, pieceId } from '../pieces.js';
import { createRandomizer, type RandomizerName } from './index.js';

/** Pieces analyzeRandomizer deals by default, and at most. */
export const DEFAULT_ANALYZED_PIECES = 1_000_000;
export const MAX_ANALYZED_PIECES = 1_000_000_000;

export interface AnalyzeOptions {
  /** Pieces to deal, default 1e6 (at least one frequency window). */
  pieces?: number;
  seed?: number;
  /** Family parameters, e.g. `{ denominator: 1.5 }` for decay. */
  params?: Record<string, number>;
  /** Window for the frequency spread, default 100 (the decay-randomizer post's run length). */
  frequencyWindow?: number;
  /** Receives advisory messages; default console.warn. */
  onWarning?: (message: string) => void;
}

export interface DroughtStats {
  /** histogram[g] = how often exactly g other pieces came between two consecutive deals of this piece. */
  histogram: number[];
  max: number;
  mean: number;
}

export interface RandomizerAnalysis {
  name: RandomizerName;
  params: Record<string, number>;
  seed: number;
  pieces: number;
  /** Share of each piece in the whole stream (canonical order I O T S Z L J). */
  frequencies: number[];
  /**
   * The decay-randomizer post's spread: the sample standard deviation (n - 1) of the seven piece frequencies within a window of
   * `frequencyWindow` consecutive pieces, averaged over the stream's whole windows.
   */
  frequencyStd: number;
  frequencyWindow: number;
  /** Per piece (canonical order). Only gaps between two deals count, not the wait before the first one. */
  droughts: DroughtStats[];
  maxDrought: number;
  /** Chance that a piece equals the one before it. */
  repeatProbability: number;
  /** runLengths[n] = number of maximal runs of one piece of length n. */
  runLengths: number[];
  longestRun: number;
  /** Runs made only of S and Z pieces (in any mix): their length histogram and the longest. */
  szRunLengths: number[];
  longestSZRun: number;
  /** Expected hit rate of guessing the most likely next piece: the mean of max(distribution()). */
  predictability: number;
  /** The same guess scored against the pieces actually dealt (agrees with predictability up to sampling noise). */
  hitRate: number;
  /** Conditional entropy of the next piece in bits: the mean entropy of distribution(). */
  entropy: number;
}

/** A count per non-negative integer that grows as larger values turn up. */
class Histogram {
  private counts = new Float64Array(64);
  max = -1;

  add(value: number): void {
    if (value >= this.counts.length) {
      const grown = new Float64Array(Math.max(value + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[value]++;
    if (value > this.max) this.max = value;
  }

  toArray(): number[] {
    return Array.from(this.counts.subarray(0, this.max + 1));
  }

  mean(): number {
    let n = 0;
    let sum = 0;
    for (let v = 0; v <= this.max; v++) {
      n += this.counts[v];
      sum += v * this.counts[v];
    }
    return n ? sum / n : 0;
  }
}

function sampleStd(values: ArrayLike<number>): number {
  let mean = 0;
  for (let i = 0; i < values.length; i++) mean += values[i] / values.length;
  let squares = 0;
  for (let i = 0; i < values.length; i++) squares += (values[i] - mean) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

const SZ_MASK = (1 << pieceId('S')) | (1 << pieceId('Z'));

/** Deals and measures; yields the pieces done about every 16 ms, returns the analysis. */
function* analysisSteps(name: RandomizerName, options: AnalyzeOptions): Generator<number, RandomizerAnalysis> {
  const {
    pieces = DEFAULT_ANALYZED_PIECES,
    seed = 0,
    params = {},
    frequencyWindow = 100,
    onWarning,
  } = optionsObject('analyzeRandomizer', options);
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `params must be an object such as { denominator: 1.5 }; got ${describe(params)}`,
    );
  requireInt('frequencyWindow', frequencyWindow, 2, 1e9);
  requireInt('pieces', pieces, frequencyWindow, MAX_ANALYZED_PIECES);
  const randomizer = createRandomizer(name, { ...params, seed, onWarning });

  const counts = new Float64Array(PIECE_COUNT);
  const windowCounts = new Float64Array(PIECE_COUNT);
  const windowFrequencies = new Float64Array(PIECE_COUNT);
  let frequencyStdSum = 0;
  let windows = 0;
  const lastSeen = new Float64Array(PIECE_COUNT).fill(-1);
  const droughts = Array.from({ length: PIECE_COUNT }, () => new Histogram());
  const runs = new Histogram();
  const szRuns = new Histogram();
  let repeats = 0;
  let previous = -1;
  let run = 0;
  let szRun = 0;
  let expectedHits = 0;
  let hits = 0;
  let entropySum = 0;
  const next = new Float64Array(PIECE_COUNT);
  const due = sliceClock();

  for (let i = 0; i < pieces; i++) {
    randomizer.distribution(next);
    let guess = 0;
    let entropy = 0;
    for (let p = 0; p < PIECE_COUNT; p++) {
      if (next[p] > next[guess]) guess = p;
      if (next[p] > 0) entropy -= next[p] * Math.log2(next[p]);
    }
    expectedHits += next[guess];
    entropySum += entropy;

    const id = randomizer.nextId();
    if (id === guess) hits++;
    counts[id]++;

    if (lastSeen[id] >= 0) droughts[id].add(i - lastSeen[id] - 1);
    lastSeen[id] = i;

    if (id === previous) {
      repeats++;
      run++;
    } else {
      if (run > 0) runs.add(run);
      run = 1;
    }
    if (SZ_MASK & (1 << id)) szRun++;
    else if (szRun > 0) {
      szRuns.add(szRun);
      szRun = 0;
    }
    previous = id;

    if ((i & 255) === 255 && due()) yield i + 1;
    windowCounts[id]++;
    if ((i + 1) % frequencyWindow === 0) {
      for (let p = 0; p < PIECE_COUNT; p++) windowFrequencies[p] = windowCounts[p] / frequencyWindow;
      frequencyStdSum += sampleStd(windowFrequencies);
      windows++;
      windowCounts.fill(0);
    }
  }
  runs.add(run);
  if (szRun > 0) szRuns.add(szRun);

  return {
    name,
    params: randomizer.params as Record<string, number>,
    seed,
    pieces,
    frequencies: Array.from(counts, (c) => c / pieces),
    frequencyStd: frequencyStdSum / windows,
    frequencyWindow,
    droughts: droughts.map((h) => ({ histogram: h.toArray(), max: Math.max(h.max, 0), mean: h.mean() })),
    maxDrought: Math.max(0, ...droughts.map((h) => h.max)),
    repeatProbability: repeats / (pieces - 1),
    runLengths: runs.toArray(),
    longestRun: runs.max,
    szRunLengths: szRuns.toArray(),
    longestSZRun: Math.max(szRuns.max, 0),
    predictability: expectedHits / pieces,
    hitRate: hits / pieces,
    entropy: entropySum / pieces,
  };
}

const ANALYZE_OPTIONS = optionNames<AnalyzeOptions>({
  pieces: true,
  seed: true,
  params: true,
  frequencyWindow: true,
  onWarning: true,
});

export function analyzeRandomizer(name: RandomizerName, options: AnalyzeOptions = {}): RandomizerAnalysis {
  const opts = optionsObject('analyzeRandomizer', options, ANALYZE_OPTIONS);
  const steps = analysisSteps(name, opts);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export interface AnalyzeAsyncOptions extends AnalyzeOptions {
  /** Stops the analysis (rejects with ABORTED) within a few milliseconds. */
  signal?: AbortSignal;
  /** Called about every 16 ms with the pieces dealt so far, and last with `pieces` equal to `total`. */
  onProgress?: (p: { pieces: number; total: number }) => void;
}

const ANALYZE_ASYNC_OPTIONS = optionNames<AnalyzeAsyncOptions>({
  pieces: true,
  seed: true,
  params: true,
  frequencyWindow: true,
  onWarning: true,
  signal: true,
  onProgress: true,
});

/**
 * analyzeRandomizer in slices of about 16 ms with the event loop run between them, so a long analysis can be
 * cancelled (`signal`) and reports progress; the result is the same as analyzeRandomizer's.
 */
export async function analyzeRandomizerAsync(
  name: RandomizerName,
  options: AnalyzeAsyncOptions = {},
): Promise<RandomizerAnalysis> {
  const opts = optionsObject('analyzeRandomizerAsync', options, ANALYZE_ASYNC_OPTIONS);
  const signal = checkSignal(opts.signal, 'analyzeRandomizerAsync: signal');
  const onProgress = checkCallback<NonNullable<AnalyzeAsyncOptions['onProgress']>>(
    'analyzeRandomizerAsync: onProgress',
    opts.onProgress,
  );
  const steps = analysisSteps(name, opts);
  const total = (opts.pieces as number | undefined) ?? DEFAULT_ANALYZED_PIECES;
  let reported = -1;
  for (;;) {
    if (signal?.aborted) throw new StackRankError('ABORTED', 'the randomizer analysis was cancelled');
    const step = steps.next();
    if (step.done) {
      // The last event has the total: the slices report the pieces dealt before each pause.
      if (reported !== total) onProgress?.({ pieces: total, total });
      return step.value;
    }
    reported = step.value;
    onProgress?.({ pieces: step.value, total });
    await yieldToEventLoop();
  }
}

export interface FrequencySpreadOptions {
  params?: Record<string, number>;
  /** Independent runs, each from a fresh generator (seeds seed, seed + 1, ...); default 100. */
  trials?: number;
  /** Pieces per run; default 100. */
  runLength?: number;
  seed?: number;
}

const FREQUENCY_SPREAD_OPTIONS = optionNames<FrequencySpreadOptions>({
  params: true,
  trials: true,
  runLength: true,
  seed: true,
});

/**
 * The decay-randomizer post's experiment: the frequency spread (sample standard deviation of the seven piece frequencies) of a
 * short run, averaged over independent runs that each start from the generator's initial state. This is what
 * the denominator sweep plots; analyzeRandomizer's frequencyStd measures windows of one long stream instead.
 */
export function frequencySpread(name: RandomizerName, options: FrequencySpreadOptions = {}): number {
  const opts = optionsObject('frequencySpread', options, FREQUENCY_SPREAD_OPTIONS);
  const { params = {}, trials = 100, runLength = 100, seed = 0 } = opts;
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `params must be an object such as { denominator: 1.5 }; got ${describe(params)}`,
    );
  checkSeed(seed);
  requireInt('trials', trials, 1, 1e9);
  requireInt('runLength', runLength, 1, 1e9);
  const ids = new Uint8Array(runLength);
  const frequencies = new Float64Array(PIECE_COUNT);
  let sum = 0;
  for (let t = 0; t < trials; t++) {
    createRandomizer(name, { ...params, seed: seed + t }).fillIds(ids);
    frequencies.fill(0);
    for (const id of ids) frequencies[id] += 1 / runLength;
    sum += sampleStd(frequencies);
  }
  return sum / trials;
}
