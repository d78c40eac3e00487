/**
 * The randomizer charts (`stackrank randomizers --plots DIR`), as SVG strings keyed by file name:
 * - drought-histograms.svg: for every generator, how many other pieces come between two deals of a piece;
 * - decay-weights.svg: the decay-randomizer post's picture of decay's piece weights over 100 deals, as stacked bars;
 * - decay-sweep.svg: the decay-randomizer post's sweep of the frequency spread of 100-piece runs against the denominator.
 */
import { PIECES, pieceId } from '../pieces.js';
import { frequencySpread, type RandomizerAnalysis } from './analyze.js';
import { createRandomizer } from './index.js';
import { Plot, legend, niceTicks, svgDocument } from './svg.js';

/** The usual guideline colours, in canonical piece order I O T S Z L J. */
export const PIECE_COLORS = ['#00b4d8', '#e9c46a', '#9b5de5', '#38b000', '#e63946', '#f77f00', '#1d4ed8'];

const percent = (v: number) => `${Math.round(v * 1000) / 10}%`;

/** Longest drought the shared x axis shows; rarer, longer ones are given in each panel's title. */
const DROUGHT_AXIS_MAX = 48;

export function droughtHistogramsSvg(analyses: readonly RandomizerAnalysis[]): string {
  const columns = 2;
  const [panelWidth, panelHeight] = [420, 180];
  const panels = analyses.map((a, i) => {
    const pooled: number[] = [];
    for (const d of a.droughts) {
      for (const [gap, n] of d.histogram.entries()) pooled[gap] = (pooled[gap] ?? 0) + n;
    }
    const total = pooled.reduce((s, n) => s + (n ?? 0), 0);
    const shares = Array.from({ length: DROUGHT_AXIS_MAX + 1 }, (_, gap) => (pooled[gap] ?? 0) / total);
    const peak = Math.max(...shares);
    const plot = new Plot({
      x: (i % columns) * panelWidth,
      y: Math.floor(i / columns) * panelHeight,
      width: panelWidth,
      height: panelHeight,
      title: `${a.name}: longest drought ${a.maxDrought}`,
      xLabel: i >= analyses.length - columns ? 'other pieces between two deals of a piece' : undefined,
      yLabel: i % columns === 0 ? 'share' : undefined,
      xDomain: [-0.5, DROUGHT_AXIS_MAX + 0.5],
      yDomain: [0, peak * 1.1],
      xTicks: niceTicks(0, DROUGHT_AXIS_MAX, 8),
      yTicks: niceTicks(0, peak * 1.05, 3),
      formatY: percent,
    });
    const maxMarker = a.maxDrought <= DROUGHT_AXIS_MAX ? plot.marker(a.maxDrought, `max ${a.maxDrought}`, '#c00') : '';
    return [plot.axes(), plot.bars(shares, '#4a6fa5'), maxMarker].join('\n');
  });
  const rows = Math.ceil(analyses.length / columns);
  return svgDocument(columns * panelWidth, rows * panelHeight, panels.join('\n'));
}

export function decayWeightsSvg(options: { denominator?: number; pieces?: number; seed?: number } = {}): string {
  const { denominator = 1.1, pieces = 100, seed = 0 } = options;
  const decay = createRandomizer('decay', { seed, denominator });
  const stacks: number[][] = [];
  const dealt: string[] = [];
  for (let i = 0; i < pieces; i++) {
    stacks.push(Array.from(decay.distribution()));
    dealt.push(decay.next());
  }
  const [width, height] = [Math.max(640, pieces * 7 + 80), 340];
  const plot = new Plot({
    x: 0,
    y: 0,
    width,
    height: height - 24,
    extraBottom: 12,
    title: `decay: chance of each piece before every deal (denominator ${denominator}, seed ${seed})`,
    xLabel: 'deal (the letter is the piece dealt)',
    yLabel: 'chance of being dealt',
    xDomain: [-0.5, pieces - 0.5],
    yDomain: [0, 1],
    xTicks: niceTicks(0, pieces, 10).filter((t) => t < pieces),
    formatY: percent,
  });
  const letters = dealt
    .map(
      (p, i) =>
        `<text x="${plot.px(i)}" y="${plot.bottom + 26}" text-anchor="middle" font-size="7" fill="${PIECE_COLORS[pieceId(p)]}">${p}</text>`,
    )
    .join('\n');
  const key = legend(
    PIECES.map((p, i) => ({ label: p, color: PIECE_COLORS[i] })),
    plot.left,
    height - 6,
  );
  return svgDocument(width, height, [plot.axes(), plot.stackedBars(stacks, PIECE_COLORS), letters, key].join('\n'));
}

/** Denominators of the sweep: fine steps from 1 to 2 (where the decay-randomizer post finds the knee near 1.1), coarse to 10. */
export function sweepDenominators(): number[] {
  const fine = Array.from({ length: 100 }, (_, i) => 1 + i / 100);
  const coarse = Array.from({ length: 81 }, (_, i) => 2 + i / 10);
  return [...fine, ...coarse];
}

export function decaySweepSvg(
  options: { trials?: number; runLength?: number; seed?: number; denominators?: number[] } = {},
): string {
  const { trials = 100, runLength = 100, seed = 0, denominators = sweepDenominators() } = options;
  const points = denominators.map(
    (d) => [d, frequencySpread('decay', { params: { denominator: d }, trials, runLength, seed })] as const,
  );
  const memoryless = frequencySpread('memoryless', { trials, runLength, seed });
  const top = Math.max(memoryless, ...points.map(([, s]) => s)) * 1.1;
  const plot = new Plot({
    x: 0,
    y: 0,
    width: 640,
    height: 360,
    title: `decay: frequency spread of ${runLength}-piece runs (mean of ${trials} runs)`,
    xLabel: 'denominator (log scale)',
    yLabel: 'std of the 7 piece frequencies',
    xDomain: [denominators[0], denominators[denominators.length - 1]],
    yDomain: [0, top],
    logX: true,
    xTicks: [1, 1.1, 1.2, 1.5, 2, 3, 5, 10].filter(
      (t) => t >= denominators[0] && t <= denominators[denominators.length - 1],
    ),
    formatY: (v) => v.toFixed(3),
  });
  const body = [
    plot.axes(),
    plot.line(
      [
        [denominators[0], memoryless],
        [denominators[denominators.length - 1], memoryless],
      ],
      '#999',
      true,
    ),
    plot.line(points, '#c0392b'),
    legend(
      [
        { label: 'decay', color: '#c0392b' },
        { label: 'memoryless', color: '#999' },
      ],
      plot.right - 150,
      plot.top + 12,
    ),
  ];
  return svgDocument(640, 360, body.join('\n'));
}

export function randomizerPlots(analyses: readonly RandomizerAnalysis[], seed = 0): Record<string, string> {
  return {
    'drought-histograms.svg': droughtHistogramsSvg(analyses),
    'decay-weights.svg': decayWeightsSvg({ seed }),
    'decay-sweep.svg': decaySweepSvg({ seed }),
  };
}
