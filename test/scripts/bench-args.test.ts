/**
 * A benchmark script's command line (bench/common.ts benchArgs): --help prints the usage its file opens with, and
 * a bad option prints what was wrong and that usage with exit code 2, not a stack trace.
 */
import { describe, expect, it } from 'vitest';
import { runBenchScript } from '../helpers/bench-script.js';

const USAGE = 'npx tsx bench/drought-bound.ts [--randomizers nes,tgm1] [--pieces 300000] [--seed 9]';

const run = (...args: string[]) => runBenchScript('drought-bound.ts', args);

describe('bench scripts: command line', () => {
  it('--help and -h print the usage from the file’s opening comment and exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = run(flag);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(USAGE);
      expect(r.stdout).toMatch(/^What a randomizer's I droughts alone allow/);
      expect(r.stdout).not.toContain('/**');
    }
  });

  it('an unknown option or a missing value: the problem and the usage, exit 2, no stack trace', () => {
    for (const [args, problem] of [
      [['--bogus'], "Unknown option '--bogus'"],
      [['--pieces'], "Option '--pieces <value>' argument missing"],
    ] as const) {
      const r = run(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(problem);
      expect(r.stderr).toContain(USAGE);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
