/**
 * The demo's query parameters (demo/params.ts; docs/demo.md, "Query parameters"), run in Node: the defaults that
 * table gives, the level and timeline of the timed rules and the links the page makes from them.
 */
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

  it('a link made by rulesQuery opens the same rule set, with no message, for every timeline', () => {
    for (const timeline of TIMELINES) {
      for (const level of [0, 18, 255]) {
        const s = { rules: 'nes' as const, level, timeline };
        const { settings, problems } = parseSettings(`?${rulesQuery(s)}`, 1);
        expect([settings.rules, settings.level, settings.timeline, problems]).toEqual(['nes', level, timeline, []]);
      }
    }
  });
});

describe('the other parameters', () => {
  it("default to docs/demo.md's table, the seed to the one the page drew", () => {
    const { settings, problems } = parseSettings('', 987);
    expect(problems).toEqual([]);
    expect(settings).toEqual({
      mode: 'watch',
      player: 'tetris',
      rules: 'guideline',
      randomizer: null,
      iterations: 15,
      lookahead: 1,
      speed: 60,
      versus: 'person',
      // a person plays a piece a second or two: the AI opposite plays 1 piece/s
      versusSpeed: 1,
      steep: 'excessFirst',
      preset: 'bcts',
      seed: 987,
      garbage: 0,
      das: 133,
      arr: 33,
      sdr: 30,
      level: 18,
      timeline: 'X.',
      fumen: null,
      position: null,
      queue: null,
      hold: null,
    });
  });

  it('mode=stack and mode=full open watch mode with that player; speed applies to versus unless absent', () => {
    expect(parseSettings('?mode=stack', 1).settings).toMatchObject({ mode: 'watch', player: 'surface' });
    expect(parseSettings('?mode=full', 1).settings).toMatchObject({ mode: 'watch', player: 'full' });
    expect(parseSettings('?mode=play&player=full', 1).settings).toMatchObject({ mode: 'play', player: 'full' });
    expect(parseSettings('?versus=ai', 1).settings).toMatchObject({ versus: 'ai', speed: 60, versusSpeed: 5 });
    expect(parseSettings('?versus=ai&speed=max', 1).settings).toMatchObject({ speed: Infinity, versusSpeed: Infinity });
    expect(parseSettings('?speed=7', 1).settings).toMatchObject({ speed: 7, versusSpeed: 7 });
  });

  it('take the pieces of queue= and hold= in either case; report an unknown parameter and a bad value', () => {
    expect(parseSettings('?queue=tSz&hold=i', 1).settings).toMatchObject({ queue: ['T', 'S', 'Z'], hold: 'I' });
    const { settings, problems } = parseSettings('?colour=red&das=-1&lookahead=5&queue=TX', 1);
    expect([settings.das, settings.lookahead, settings.queue]).toEqual([133, 1, null]);
    expect(problems).toEqual([
      { param: 'colour', text: 'unknown parameter "colour" (ignored)' },
      { param: 'queue', text: 'queue="TX" must be piece letters (I O T S Z L J), e.g. TSZO; ignored' },
      { param: 'lookahead', text: 'lookahead="5" must be an integer from 0 to 4; using 1' },
      { param: 'das', text: 'das="-1" must be an integer from 0 to 1000; using 133' },
    ]);
  });
});
