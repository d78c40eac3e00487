/**
 * Options that several commands share, declared once so that the same option has the same range, placeholder and
 * wording everywhere. Ranges and defaults are the library's own constants.
 */
import { RANDOMIZER_NAMES, type RandomizerName } from '../randomizers/index.js';
import { DEFAULT_DENOMINATOR, MAX_DENOMINATOR, MIN_DENOMINATOR } from '../randomizers/decay.js';
import { DEFAULT_ITERATIONS, MAX_ITERATIONS } from '../rank/build.js';
import { TABLE_STEEP, type TableSteep } from '../rank/moves.js';
import { MAX_SEED } from '../random.js';
import { MAX_LOOKAHEAD } from '../stacking-ai/input.js';
import { MAX_THREADS } from '../threads.js';
import { RULE_SETS, RULE_SET_NAMES } from '../rules/rule-sets.js';
import { DAS_MODES, TAP_TIMELINES, TIMELINE_RULE, isDasMode, isTapTimeline } from '../rules/timing.js';
import type { RuleSetName } from '../rules/types.js';
import { UsageError } from './args.js';
import type { ChoiceSpec, Defaulted, IntSpec, NumberSpec, TextSpec } from './spec.js';

/** The rule sets with a hold box, for --hold's help and errors. */
export const RULE_SETS_WITH_HOLD = RULE_SET_NAMES.filter((n) => RULE_SETS[n].hold).join(', ');

/** `--hold` under a rule set without hold: a usage error (the options do not go together; docs/cli.md). */
export function refuseHoldWithout(rules: RuleSetName): void {
  if (!RULE_SETS[rules].hold)
    throw new UsageError(`--hold needs a rule set with hold (${RULE_SETS_WITH_HOLD}); ${rules} has none`);
}

export function seedOption(defaultSeed: number, help = 'random seed'): Defaulted<IntSpec, number> {
  return { type: 'int', min: 0, max: MAX_SEED, default: defaultSeed, arg: 'S', help };
}

/** --threads where the library defaults to the core count. */
export const THREADS: IntSpec = {
  type: 'int',
  min: 1,
  max: MAX_THREADS,
  arg: 'T',
  help: 'worker threads',
  defaultHelp: 'the number of cores',
};

export function randomizerOption(
  defaultName: RandomizerName,
  help = 'piece generator (docs/randomizers.md)',
): Defaulted<ChoiceSpec<RandomizerName>, RandomizerName> {
  return {
    type: 'choice',
    choices: RANDOMIZER_NAMES,
    default: defaultName,
    arg: 'NAME',
    help: `${help}: ${RANDOMIZER_NAMES.join(', ')}`,
  };
}

/** decay's parameter, from the randomizer's own lower bound; the randomizer applies its own default when not given. */
export const DENOMINATOR: NumberSpec = {
  type: 'number',
  min: MIN_DENOMINATOR,
  max: MAX_DENOMINATOR,
  arg: 'D',
  help: "the decay generator's denominator",
  defaultHelp: String(DEFAULT_DENOMINATOR),
};

export function lookaheadOption(defaultLookahead: number): Defaulted<IntSpec, number> {
  return {
    type: 'int',
    min: 0,
    max: MAX_LOOKAHEAD,
    default: defaultLookahead,
    help: 'preview pieces the search sees beyond the current one',
  };
}

export const ITERATIONS: Defaulted<IntSpec, number> = {
  type: 'int',
  min: 1,
  max: MAX_ITERATIONS,
  default: DEFAULT_ITERATIONS,
  help: 'rank iterations of the table',
};

/** A timed rule set's input timeline (docs/rules.md, "Time"): `bench nes` and `analyze --rules nes`. */
export const TIMELINE: Defaulted<TextSpec, string> = {
  type: 'text',
  arg: 'T',
  default: RULE_SETS.nes.timeline!,
  help: `input timeline: ${TAP_TIMELINES.join(' ')} (X a frame with input, . one without) or ${DAS_MODES.join(', ')}`,
};

/** --timeline's value checked: a tap timeline or a DAS mode, else a usage error naming them. */
export function checkTimelineOption(timeline: string): string {
  if (!isTapTimeline(timeline) && !isDasMode(timeline))
    throw new UsageError(`--timeline must be ${TIMELINE_RULE}; got ${JSON.stringify(timeline)}`);
  return timeline;
}

/** How commands that need a rank table get one (src/cli/table-source.ts). */
export const TABLE_SOURCE = {
  table: {
    type: 'text',
    arg: 'FILE',
    help: 'rank table file to use instead of the cached one (stackrank table build)',
  } satisfies TextSpec,
  iterations: { ...ITERATIONS, help: 'iterations of the cached rank table (built on first use)' },
  tableSteep: {
    type: 'choice',
    choices: TABLE_STEEP,
    default: TABLE_STEEP[0],
    help: 'which cached rank table: iterated forbidding steep placements (the article) or collapsing them',
  } as Defaulted<ChoiceSpec<TableSteep>, TableSteep>,
} as const;
