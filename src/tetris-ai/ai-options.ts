/**
 * TetrisAI.create's options (docs/game.md, "Options"; docs/api.md): their shape, and each checked once at the edge
 * into the values the AI plays with, a StackRankError naming the option and what it allows otherwise. The survival
 * policy's options and the versus search's are read apart: each goal refuses the other's.
 */
import { StackRankError, describe, firstUnknownKey, optionNames, optionsObject, requireInt } from '../errors.js';
import { checkRandomizerName, type RandomizerName } from '../randomizers/index.js';
import type { RuleSet } from '../rules/rule-sets.js';
import type { RuleSetName } from '../rules/types.js';
import { requireRankTable, type RankTable } from '../rank/table.js';
import type { RecoverWeights } from '../kernels/recover.js';
import type { SetupProgress } from '../setup-progress.js';
import { MAX_LOOKAHEAD } from '../stacking-ai/input.js';
import type { NextPieceValues } from '../stacking-ai/strategy.js';
import type { SearchSettings } from './decision.js';
import {
  checkRecoverWeights,
  defaultRecoverWeightSet,
  PLAIN_BCTS_WEIGHTS,
  type RecoverWeightSet,
  withRecoverWeights,
} from './evaluate.js';
import { checkPlayOuts } from './play-outs.js';
import {
  GAME_POLICIES,
  PLAIN_RECOVER_SEARCH,
  RECOVER_SEARCH,
  checkHoldPlies,
  checkStackRoom,
  checkWell,
  ruleSetKind,
  type GamePolicy,
  type HoldPlies,
  type WellSide,
} from './policy.js';
import type { GameRuleFacts } from './rules-adapter.js';
import { checkStrength, checkStrengthSeed, strengthProfile, weakerSearch, type StrengthProfile } from './strength.js';
import {
  MAX_VERSUS_BEAM,
  MAX_VERSUS_PERFECT_CLEAR_ROWS,
  VERSUS_BEAM,
  VERSUS_PERFECT_CLEAR_ROWS,
  VERSUS_PLACEMENTS,
  VERSUS_WEIGHTS,
  weightVector,
  withVersusWeights,
  type VersusPlacements,
  type VersusWeights,
} from './versus.js';

/** What the AI plays for: 'survival' (the stack and recover modes: Tetrises, a clean stack, no top-out) or 'versus'
 * (attack: T-spins, back-to-back, combos, perfect clears, and garbage; rule sets with an attack table). */
export type GameGoal = 'survival' | 'versus';
export const GAME_GOALS: readonly GameGoal[] = Object.freeze(['survival', 'versus']);

export interface TetrisAIOptions {
  /** Rule-set preset (docs/rules.md): 'classic', 'nes', 'nesUntimed', 'guideline' (default), 'tgm', 'tgm20g'; or a
   * RuleSet based on one with its time changed (`{ ...RULE_SETS.nes, level: 29, timeline: 'X..' }`; docs/game.md). */
  rules?: RuleSetName | RuleSet;
  /** 'survival' (default) or 'versus' (rule sets with an attack table: guideline; docs/game.md, "The versus
   * policy"). The survival options (randomizer, well, table, recover, previewTable, policy, stackRoom) are
   * refused under 'versus', which has its own (`versus`). */
  goal?: GameGoal;
  /** Queue pieces the search uses after the current one (0..6, default 1; under goal 'versus' the rule set's
   * previews); fewer when the queue is shorter. */
  lookahead?: number;
  /** The versus search (goal 'versus'): lines kept per ply (default VERSUS_BEAM), the placements tried below the
   * first ply ('quick', the default, or 'full') and weights of the evaluator's terms by name in place of the
   * defaults (VERSUS_WEIGHTS; docs/game.md, "The versus policy"), and the tallest perfect clear in rows the finder
   * looks for before the search (0..6, default VERSUS_PERFECT_CLEAR_ROWS; 0: no finder). */
  versus?: {
    beam?: number;
    placements?: VersusPlacements;
    weights?: Partial<VersusWeights>;
    perfectClearRows?: number;
  };
  /** The randomizer the game draws from: stack mode then averages over the unknown piece after the queue
   * (expectimax; nextMove's `next` gives its chances, default uniform). About 400 MB more memory (Node). */
  randomizer?: RandomizerName;
  /** Which side the well is on; 'auto' plays whichever side is open (both: the better). Default: by rule set
   * (DEFAULT_WELL; docs/game.md, "Options"). */
  well?: WellSide;
  /**
   * A rank table whose width is the board width − 1; default the cached 9-column table (10-wide boards: from the
   * cache folder in Node, IndexedDB in a browser, built there the first time). 'small': the cached 9-column table of
   * steps within ±3 (SMALL_TABLE: 5.8 MB instead of 43, built about 7 times faster), for a page that cannot wait
   * for the default's first build; its strength is in docs/game.md ("The small table"). Not under tgm20g.
   */
  table?: RankTable | 'small';
  /** Recover search: pieces searched (default min(lookahead + 1, 2)), lines kept per level (default 4 under nes,
   * tgm and tgm20g, else 12), lines the chance ply values over the next piece (0: none; default 12 under classic, 3
   * under nes, tgm and tgm20g, 0 under guideline), and weights of the
   * evaluator's terms by name in place of the defaults (defaultRecoverWeightSet: RECOVER_WEIGHTS; NES_RECOVER_WEIGHTS
   * under a timed rule set tapping X. where a piece waits out the reaction; FLOOR_RECOVER_WEIGHTS where a timed game's
   * stack limit is at its floor; PLAIN_BCTS_WEIGHTS under 'fullBoardOnly'; docs/game.md, "Recover mode"). */
  recover?: { depth?: number; beam?: number; chance?: number; weights?: Partial<RecoverWeights> };
  /** The randomizer's preview table (loadOrBuildCachedPreviewTable, docs/api.md) to score the randomizer-aware
   * search's leaves instead of the rank table's best rank per piece; needs `randomizer`. */
  previewTable?: NextPieceValues;
  /** For benchmarks: 'stackOnly' answers null where the stack has no move; 'fullBoardOnly' always plays the
   * full-board search with the plain BCTS weights. Default 'both'. */
  policy?: GamePolicy;
  /** Rows stack mode keeps free under the top of the 20-row field, MIN_STACK_ROOM..MAX_STACK_ROOM: fewer make more
   * Tetrises and more top-outs. Default by rule set and randomizer (defaultStackRoom; docs/game.md, "Options"). */
  stackRoom?: number;
  /** Where stack mode's search may press hold (rule sets with hold): 'auto' (default) at every ply up to lookahead 2
   * and at the first move beyond, 'all' at every ply (slower: about 8 times at lookahead 5), 'first' at the first
   * move only (docs/game.md, "Hold"). */
  holdPlies?: HoldPlies;
  /** Cancels the setup (loading or building the cached table, laying out the search's tables: about a second the
   * first time in a process): create then rejects with ABORTED within about 100 ms (docs/errors.md). */
  signal?: AbortSignal;
  /** How well it plays, 1..10 (default 10, its best): a weaker level makes a weaker player's mistakes (docs/game.md,
   * "Strength"). */
  strength?: number;
  /** Seeds a weaker level's choices (default 0): the same seed and position, the same move. */
  seed?: number;
  /**
   * Whether a timed NES game's tall stack may weigh a burn, and from the double killscreen keeping the well, by
   * playing on (default true; docs/game.md, "Play-outs"). false plays the policy's move alone, several times faster
   * over a competition game (docs/game.md, "Play-outs").
   */
  playOuts?: boolean;
  /**
   * Hears the setup's progress: what it loads, builds and writes to the cache folder (each file with its size), then
   * `ready` (SetupProgress; docs/game.md, "Setup: progress, abort and the cache").
   */
  onProgress?: (p: SetupProgress) => void;
}

/** The keys of TetrisAIOptions. */
export const TETRIS_AI_OPTIONS = optionNames<TetrisAIOptions>({
  rules: true,
  goal: true,
  versus: true,
  lookahead: true,
  randomizer: true,
  well: true,
  table: true,
  recover: true,
  policy: true,
  previewTable: true,
  stackRoom: true,
  holdPlies: true,
  signal: true,
  strength: true,
  seed: true,
  playOuts: true,
  onProgress: true,
});

/** The keys of TetrisAIOptions.recover. */
const RECOVER_OPTIONS = ['depth', 'beam', 'chance', 'weights'];
/** The keys of TetrisAIOptions.versus. */
const VERSUS_SEARCH_OPTIONS = optionNames<NonNullable<TetrisAIOptions['versus']>>({
  beam: true,
  placements: true,
  weights: true,
  perfectClearRows: true,
});
/** The survival policy's options, refused under goal 'versus'; and the options it takes. */
// (`table` is taken and unused: a caller such as the versus simulator may give every AI the same options.)
const VERSUS_REFUSED = [
  'randomizer',
  'well',
  'recover',
  'previewTable',
  'policy',
  'stackRoom',
  'holdPlies',
  'strength',
  'seed',
  'playOuts',
] as const satisfies readonly (keyof TetrisAIOptions)[];
const VERSUS_OPTIONS = TETRIS_AI_OPTIONS.filter((o) => !(VERSUS_REFUSED as readonly string[]).includes(o));

/** Checks TetrisAIOptions.goal: 'survival' when not given. */
export function checkGoal(goal: unknown): GameGoal {
  const g = goal ?? 'survival';
  if (!GAME_GOALS.includes(g as GameGoal))
    throw new StackRankError('BAD_ARGUMENT', `goal must be one of ${GAME_GOALS.join(', ')}; got ${describe(g)}`);
  return g as GameGoal;
}

/** The survival policy's settings from TetrisAI.create's options (goal 'survival'). */
export interface SurvivalOptions {
  lookahead: number;
  well: WellSide;
  policy: GamePolicy;
  randomizer: RandomizerName | undefined;
  stackRoom: number | undefined;
  holdPlies: HoldPlies;
  strength: number;
  seed: number;
  playOuts: boolean;
  /** A weaker level's profile (strengthProfile), null at full strength. */
  profile: StrengthProfile | null;
  /** How deep a turn searches (a weaker level's, if lower). */
  settings: SearchSettings;
  recoverWeights: RecoverWeightSet;
}

/** Checks the survival policy's options (goal 'survival'). */
export function readSurvivalOptions(opts: TetrisAIOptions, rules: GameRuleFacts): SurvivalOptions {
  if (opts.versus !== undefined)
    throw new StackRankError('BAD_ARGUMENT', "the versus option is the versus search's: give it with goal 'versus'");
  const lookahead = requireInt('lookahead', opts.lookahead ?? 1, 0, MAX_LOOKAHEAD);
  const well = checkWell(opts.well, rules.ruleSet);
  const policy = opts.policy ?? 'both';
  if (!GAME_POLICIES.includes(policy)) {
    throw new StackRankError(
      'BAD_ARGUMENT',
      `policy must be one of ${GAME_POLICIES.join(', ')}; got ${describe(policy)}`,
    );
  }
  if (opts.randomizer !== undefined) checkRandomizerName(opts.randomizer);
  const stackRoom = checkStackRoom(opts.stackRoom);
  const holdPlies = checkHoldPlies(opts.holdPlies);
  const strength = checkStrength(opts.strength);
  const seed = checkStrengthSeed(opts.seed);
  const playOuts = checkPlayOuts(opts.playOuts);
  const profile = strengthProfile(strength);
  const recover = optionsObject('recover', opts.recover);
  const unknownRecover = firstUnknownKey(recover, RECOVER_OPTIONS);
  if (unknownRecover !== undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `unknown recover option ${describe(unknownRecover)}; recover options are ${RECOVER_OPTIONS.join(', ')}`,
    );
  const recoverDepth = requireInt('recover.depth', recover.depth ?? Math.min(lookahead + 1, 2), 1, 4);
  // The full-board baseline is the plain BCTS player: beam 12, no chance ply, whatever the rule set.
  const search = policy === 'fullBoardOnly' ? PLAIN_RECOVER_SEARCH : RECOVER_SEARCH[ruleSetKind(rules.ruleSet)];
  const beam = requireInt('recover.beam', recover.beam ?? search.beam, 1, 1000);
  const chanceLines = requireInt('recover.chance', recover.chance ?? search.chance, 0, 1000);
  // A beam or chance ply the caller gives is the search of every recover move.
  const nearTop = recover.beam === undefined && recover.chance === undefined ? (search.nearTop ?? null) : null;
  // read once: the defaults and a timed game's other weights are built from the same copy
  const givenWeights = checkRecoverWeights(recover.weights, 'recover.weights');
  const defaults = defaultRecoverWeightSet(rules.ruleSet);
  const withGiven = (weights: RecoverWeights) => withRecoverWeights(weights, givenWeights, 'recover.weights');
  const recoverWeights: RecoverWeightSet = {
    usual: withGiven(policy === 'fullBoardOnly' ? PLAIN_BCTS_WEIGHTS : defaults.usual),
    floor: withGiven(defaults.floor),
    blind: withGiven(defaults.blind),
  };
  const settings = weakerSearch({ lookahead, recoverDepth, search: { beam, chance: chanceLines }, nearTop }, profile);
  const randomizer = opts.randomizer;
  return {
    lookahead,
    well,
    policy,
    randomizer,
    stackRoom,
    holdPlies,
    strength,
    seed,
    playOuts,
    profile,
    settings,
    recoverWeights,
  };
}

/** The versus search's settings from TetrisAI.create's options (goal 'versus'). */
export interface VersusOptions {
  lookahead: number;
  beam: number;
  placements: VersusPlacements;
  /** The evaluator's weights in the kernel's order. */
  weights: Float64Array;
  perfectClearRows: number;
}

/** Checks the versus search's options (goal 'versus': a rule set with an attack table), refusing the survival
 * policy's. */
export function readVersusOptions(opts: TetrisAIOptions, rules: GameRuleFacts): VersusOptions {
  if (!rules.ruleSet.attack)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `goal 'versus' plays for attack: it needs a rule set with an attack table (guideline); ${rules.name} has none`,
    );
  const refused = VERSUS_REFUSED.find((name) => opts[name] !== undefined);
  if (refused !== undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${refused} is an option of the survival policy; under goal 'versus' the options are ${VERSUS_OPTIONS.join(', ')}`,
    );
  // taken and unused (VERSUS_REFUSED), but still a table: a value that is none is refused as under goal 'survival'
  if (opts.table !== undefined && opts.table !== 'small') requireRankTable(opts.table);
  const lookahead = requireInt('lookahead', opts.lookahead ?? rules.previews, 0, MAX_LOOKAHEAD);
  const versus = optionsObject('versus', opts.versus, VERSUS_SEARCH_OPTIONS);
  const beam = requireInt('versus.beam', versus.beam ?? VERSUS_BEAM, 1, MAX_VERSUS_BEAM);
  const placements = versus.placements ?? 'quick';
  if (!VERSUS_PLACEMENTS.includes(placements))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `versus.placements must be one of ${VERSUS_PLACEMENTS.join(', ')}; got ${describe(placements)}`,
    );
  const weights = weightVector(withVersusWeights(VERSUS_WEIGHTS, versus.weights, 'versus.weights'));
  const perfectClearRows = requireInt(
    'versus.perfectClearRows',
    versus.perfectClearRows ?? VERSUS_PERFECT_CLEAR_ROWS,
    0,
    MAX_VERSUS_PERFECT_CLEAR_ROWS,
  );
  return { lookahead, beam, placements, weights, perfectClearRows };
}
