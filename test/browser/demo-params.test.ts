/** The demo's level and timeline parameters (demo/params.ts; docs/demo.md, "Query parameters"), run in Node. */
import { describe, expect, it } from 'vitest';
import { parseSettings, rulesOf, rulesQuery, TIMELINES } from '../../demo/params.js';
import { RULE_SETS } from '../../src/index.js';

describe('level= and timeline=', () => {
  it('default to the nes preset level 18 and X., take every timeline and levels 0..255', () => {
    const { settings, problems } = parseSettings('?rules=nes', 1);
    expect([settings.level, settings.timeline, problems]).toEqual([18, 'X.', []]);
    for (const timeline of TIMELINES) {
      const q = `?rules=nes&level=29&timeline=${encodeURIComponent(timeline)}`;
      expect(parseSettings(q, 1).settings).toMatchObject({ level: 29, timeline });
    }
    expect(parseSettings('?level=0', 1).settings.level).toBe(0);
    expect(parseSettings('?level=255', 1).settings.level).toBe(255);
  });

  it('report a bad value and go on with the default', () => {
    const { settings, problems } = parseSettings('?rules=nes&level=256&timeline=XX', 1);
    expect([settings.level, settings.timeline]).toEqual([18, 'X.']);
    expect(problems.map((p) => p.text)).toEqual([
      'level="256" must be an integer from 0 to 255; using 18',
      'timeline="XX" is not one of X., X.., X..., X...., X....., das, dasCharged; using X.',
    ]);
  });

  it('make the timed rule set under nes, and leave every other preset as it is', () => {
    const s = { rules: 'nes' as const, level: 29, timeline: 'X..' };
    expect(rulesOf(s)).toEqual({ ...RULE_SETS.nes, level: 29, timeline: 'X..' });
    expect(rulesQuery(s)).toBe('rules=nes&level=29&timeline=X..');
    expect(rulesOf({ ...s, rules: 'nesUntimed' })).toBe('nesUntimed');
    expect(rulesQuery({ ...s, rules: 'guideline' })).toBe('rules=guideline');
  });
});
