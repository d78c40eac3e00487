/**
 * The mean stack profile of the stacking game (bench/notes/results.md, "20G: pyramid stacking"): how high each column
 * stands above the lowest one, averaged over every position the AI leaves, and an SVG bar chart of it (drawn by
 * src/randomizers/svg.ts, no plotting dependency) for bench/stack-profile.ts; not exported, so the package stays
 * small. Under 20G it shows the pyramid: the columns where the piece
 * appears stand highest, so the piece can slide down to either side.
 */
import { StackRankError, checkSignal, optionNames, optionsObject, requireInt } from '../errors.js';
import { checkSeed } from '../random.js';
import { createRandomizer, checkRandomizerName, type RandomizerName } from '../randomizers/index.js';
import { Plot, escapeXml, svgDocument } from '../randomizers/svg.js';
import { requireRankTable, type RankTable } from '../rank/table.js';
import { StackingAI } from './ai.js';
import { MAX_LOOKAHEAD } from './input.js';
import type { RuleSet } from '../rules/rule-sets.js';
import type { RuleSetName } from '../rules/types.js';

export interface StackProfileOptions {
  table: RankTable;
  /** The rule set the AI plays (default 'classic'). */
  rules?: RuleSetName | RuleSet;
  lookahead?: number;
  randomizer?: RandomizerName;
  /** Pieces to play in all (games restart from the empty stack when one dies). Default 20,000. */
  pieces?: number;
  seed?: number;
  signal?: AbortSignal;
}

const STACK_PROFILE_OPTIONS = optionNames<StackProfileOptions>({
  table: true,
  rules: true,
  lookahead: true,
  randomizer: true,
  pieces: true,
  seed: true,
  signal: true,
});

export interface StackProfile {
  /** Mean of (column height - lowest column height) per column, over every position after a move. */
  meanAboveLowest: number[];
  /** Positions averaged (= pieces placed). */
  positions: number;
  deaths: number;
}

/** Plays `pieces` pieces with StackingAI (rank strategy) and averages the stack's shape after every move. */
export async function stackProfile(options: StackProfileOptions): Promise<StackProfile> {
  const opts = optionsObject('stackProfile', options, STACK_PROFILE_OPTIONS) as StackProfileOptions;
  const table = requireRankTable(opts.table, 'stackProfile: table');
  const lookahead = requireInt('lookahead', opts.lookahead ?? 1, 0, MAX_LOOKAHEAD);
  const pieces = requireInt('pieces', opts.pieces ?? 20_000, 1, 100_000_000);
  const randomizer = checkRandomizerName(opts.randomizer ?? 'tgm1');
  const signal = checkSignal(opts.signal, 'stackProfile: signal');
  const ai = await StackingAI.create({ table, rules: opts.rules });
  const rng = createRandomizer(randomizer, { seed: checkSeed(opts.seed ?? 0) });
  const queue: string[] = [];
  const sums = new Array<number>(table.width).fill(0);
  let heights = new Array<number>(table.width).fill(0);
  let deaths = 0;
  for (let placed = 0; placed < pieces; ) {
    if (signal?.aborted) throw new StackRankError('ABORTED', 'the profile was cancelled');
    while (queue.length < lookahead + 1) queue.push(rng.next());
    const move = ai.bestPlacement(heights, queue, lookahead);
    queue.shift();
    if (!move) {
      deaths++;
      heights = heights.map(() => 0);
      continue;
    }
    heights = move.heights;
    const low = Math.min(...heights);
    for (let i = 0; i < heights.length; i++) sums[i] += heights[i] - low;
    placed++;
    // Yield now and then so a signal can arrive.
    if (placed % 4096 === 0) await new Promise<void>((r) => setTimeout(r, 0));
  }
  return { meanAboveLowest: sums.map((s) => s / pieces), positions: pieces, deaths };
}

const COLORS = ['#1d4ed8', '#f77f00', '#38b000', '#e63946'];

/**
 * A grouped bar chart of mean profiles: one group per column (the well, empty, is the last), one bar per profile.
 * `title` heads the chart; each profile has a legend label.
 */
export function stackProfileSvg(title: string, profiles: readonly { label: string; profile: StackProfile }[]): string {
  if (!Array.isArray(profiles) || profiles.length === 0 || profiles.length > COLORS.length)
    throw new StackRankError('BAD_ARGUMENT', `give 1 to ${COLORS.length} profiles to draw`);
  const width = profiles[0].profile.meanAboveLowest.length;
  if (profiles.some((p) => p.profile.meanAboveLowest.length !== width))
    throw new StackRankError('BAD_ARGUMENT', 'every profile must have the same number of columns');
  const top = Math.max(1, ...profiles.flatMap((p) => p.profile.meanAboveLowest));
  const plot = new Plot({
    x: 0,
    y: 0,
    width: 560,
    height: 300,
    title,
    xLabel: 'column (0 = left; the well is right of the last)',
    yLabel: 'mean height above the lowest column',
    xDomain: [-0.5, width - 0.5],
    yDomain: [0, Math.ceil(top)],
    xTicks: Array.from({ length: width }, (_, i) => i),
    formatY: (v) => v.toFixed(0),
  });
  const slot = (plot.px(1) - plot.px(0)) * 0.8;
  const bar = slot / profiles.length;
  const parts = [plot.axes()];
  profiles.forEach(({ profile }, k) => {
    profile.meanAboveLowest.forEach((v: number, i: number) => {
      const x = plot.px(i) - slot / 2 + k * bar;
      const y = plot.py(v);
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y}" width="${bar.toFixed(1)}" height="${(plot.py(0) - y).toFixed(1)}" fill="${COLORS[k]}"><title>${escapeXml(`column ${i}: ${v.toFixed(2)}`)}</title></rect>`,
      );
    });
  });
  profiles.forEach((p, k) => {
    const x = 60 + k * 170;
    parts.push(
      `<rect x="${x}" y="${309}" width="10" height="10" fill="${COLORS[k]}"/><text x="${x + 14}" y="318" font-size="11">${escapeXml(p.label)}</text>`,
    );
  });
  return svgDocument(560, 330, parts.join('\n'));
}
