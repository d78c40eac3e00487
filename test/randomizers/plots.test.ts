import { describe, expect, it } from 'vitest';
import { decayWeightsSvg, sweepDenominators } from '../../src/randomizers/plots.js';
import { createRandomizer } from '../../src/randomizers/index.js';
import { Plot, escapeXml, niceTicks } from '../../src/randomizers/svg.js';

describe('SVG helpers', () => {
  it('niceTicks gives round, evenly spaced values inside the range', () => {
    expect(niceTicks(0, 48, 8)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(0, 0.037, 3)).toEqual([0, 0.02]);
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('escapes text and maps data to pixels (log scale included)', () => {
    expect(escapeXml('a < b & "c"')).toBe('a &lt; b &amp; &quot;c&quot;');
    const plot = new Plot({
      x: 0,
      y: 0,
      width: 164,
      height: 164,
      title: '',
      xDomain: [1, 100],
      yDomain: [0, 1],
      logX: true,
    });
    expect(plot.px(1)).toBe(plot.left);
    expect(plot.px(10)).toBe((plot.left + plot.right) / 2);
    expect(plot.py(0)).toBe(plot.bottom);
    expect(plot.py(1)).toBe(plot.top);
  });
});

describe('randomizer plots', () => {
  it('decay-weights shows one full-height stacked bar per deal, labelled with the piece dealt', () => {
    const svg = decayWeightsSvg({ denominator: 1.1, pieces: 40, seed: 9 });
    const bars = svg.slice(svg.indexOf('<g class="stacked-bars">'), svg.indexOf('</g>'));
    const rects = [...bars.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g)];
    expect(rects).toHaveLength(40 * 7);
    const heightByBar = new Map<string, number>();
    for (const [, x, , h] of rects) heightByBar.set(x, (heightByBar.get(x) ?? 0) + Number(h));
    expect(heightByBar.size).toBe(40);
    const heights = [...heightByBar.values()];
    for (const h of heights) expect(Math.abs(h - heights[0])).toBeLessThan(1);
    const letters = [...svg.matchAll(/font-size="7" fill="#[0-9a-f]+">([IOTSZLJ])</g)].map((m) => m[1]).join('');
    expect(letters).toBe(createRandomizer('decay', { seed: 9, denominator: 1.1 }).take(40));
  });

  it('the sweep is fine near 1 and spans 1 to 10', () => {
    const d = sweepDenominators();
    expect(d[0]).toBe(1);
    expect(d[d.length - 1]).toBe(10);
    expect(d).toContain(1.1);
    for (let i = 1; i < d.length; i++) expect(d[i]).toBeGreaterThan(d[i - 1]);
  });
});
