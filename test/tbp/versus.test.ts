/**
 * The TBP bot's combo and back-to-back counters as TBP counts them, from the rules layer's versus arithmetic (the
 * spins themselves are the rules layer's: test/rules/spins.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { countersAfter } from '../../src/tbp/bot.js';

describe('countersAfter', () => {
  it('a clear adds to the combo; no clear resets it and keeps back-to-back', () => {
    expect(countersAfter({ combo: 0, backToBack: false }, 1, 'none')).toEqual({ combo: 1, backToBack: false });
    expect(countersAfter({ combo: 3, backToBack: true }, 0, 'full')).toEqual({ combo: 0, backToBack: true });
    expect(countersAfter({ combo: 3, backToBack: false }, 0, 'none')).toEqual({ combo: 0, backToBack: false });
  });

  it('a Tetris or a spin that clears makes back-to-back; any other clear ends it', () => {
    expect(countersAfter({ combo: 0, backToBack: false }, 4, 'none').backToBack).toBe(true);
    expect(countersAfter({ combo: 0, backToBack: false }, 2, 'full').backToBack).toBe(true);
    expect(countersAfter({ combo: 0, backToBack: false }, 1, 'mini').backToBack).toBe(true);
    expect(countersAfter({ combo: 2, backToBack: true }, 3, 'none')).toEqual({ combo: 3, backToBack: false });
  });
});
