/**
 * The policy's settings by kind of rule set (docs/game.md, "The policy"): the rows stack mode keeps free, the floors
 * it stacks over, the well's side, recover mode's search, and when a tall stack burns rows or covers its well. Each
 * setting names the measurement that chose it (bench/notes/results.md). TetrisAI (ai.ts) reads them; nothing here plays.
 */
import { maxHeight } from '../board-rows.js';
import { StackRankError, describe, requireInt } from '../errors.js';
import { randomizerDefinition, type RandomizerName } from '../randomizers/index.js';
import { DEFAULT_STACKING, MIN_BOARD_HEIGHT, TETRIS_ROWS, type StackingSettings } from '../stacking-ai/rules.js';
import type { UnknownPieces } from '../kernels/search-format.js';
import type { Piece } from '../pieces.js';
import { MAX_LEVEL, reactionFall, waitsOutReaction } from '../rules/timing.js';
import { nesLinesToLevelUp } from '../rules/nes-game.js';
import { defaultGameRandomizer, factsAtLevel, reachableOnRows, type GameRuleFacts } from './rules-adapter.js';
import type { StackSurface } from './stack.js';

export type WellSide = 'right' | 'left' | 'auto';
/** Which modes play: both (the AI), or one alone (the benchmark baselines, docs/game.md). */
export const GAME_POLICIES = ['both', 'stackOnly', 'fullBoardOnly'] as const;
export type GamePolicy = (typeof GAME_POLICIES)[number];

/**
 * The stacking rules of a turn, by whether the stack is Tetris-ready: they differ only in `boardHeight`, the highest
 * row the stack may fill (its limit; docs/game.md, "The policy").
 */
export interface StackLimits {
  tetrisReady: StackingSettings;
  building: StackingSettings;
}

/**
 * The stacking rules and search strategy stack mode plays with, for a rule set, randomizer and policy. The stack
 * stays defaultStackRoom's rows under the top of the field (rule sets that spawn in the top rows need that room to
 * turn the I upright over the stack; a Tetris-ready stack may have less; long I droughts need more), and the I goes
 * down the well as soon as the stack is Tetris-ready (lowest column at least TETRIS_ROWS): a real game keeps its
 * stack low (docs/game.md). `stacking` (the search engine's) has the higher of the two limits; each turn searches
 * under its own. A `stackRoom` given (checked: checkStackRoom) is both limits' room.
 */
export function stackSearchSetup(
  rules: GameRuleFacts,
  randomizer: RandomizerName | undefined,
  policy: GamePolicy,
  stackRoom?: number,
  /** The room as a weaker level misjudges it (src/tetris-ai/strength.ts): the rows free under the top, from the room. */
  judgeRoom: (room: number) => number = (room) => room,
): {
  stacking: StackingSettings;
  limits: StackLimits;
  unknownPieces: UnknownPieces;
  blockedWell?: { ruleSet: GameRuleFacts['ruleSet']; factor: number };
} {
  const own =
    stackRoom === undefined
      ? defaultStackRoom(ruleSetKind(rules.ruleSet), randomizer ?? defaultGameRandomizer(rules.name))
      : { building: stackRoom, tetrisReady: stackRoom };
  const room = { building: judgeRoom(own.building), tetrisReady: judgeRoom(own.tetrisReady) };
  const withLimit = (free: number): StackingSettings => ({
    ...DEFAULT_STACKING,
    boardHeight: rules.visibleHeight - free,
    tetrisThreshold: TETRIS_ROWS,
  });
  const limits: StackLimits = { tetrisReady: withLimit(room.tetrisReady), building: withLimit(room.building) };
  const stacking = room.tetrisReady <= room.building ? limits.tetrisReady : limits.building;
  // With a randomizer, stack mode averages over the one unknown piece after the queue (expectimax).
  const unknownPieces = randomizer && policy !== 'fullBoardOnly' ? 1 : 0;
  const factor = BLOCKED_WELL_FACTOR[ruleSetKind(rules.ruleSet)];
  if (factor === 1 || policy === 'fullBoardOnly') return { stacking, limits, unknownPieces };
  return { stacking, limits, unknownPieces, blockedWell: { ruleSet: rules.ruleSet, factor } };
}

/**
 * What stack mode's search makes of a leaf surface whose shape keeps the I from the well: this fraction of its
 * value, by kind of rule set (1: nothing). At 20G the I slides over the stack from where it appears and cannot climb
 * a step in its way (docs/rules.md, "The 20G table"), and the 20G table ranks a surface by the pieces it takes
 * without a hole, not by whether the I still reaches the well: under tgm20g/tgm1 a third of the I pieces that came
 * to a Tetris-ready stack could not reach its well. A factor of 0.8 gains 1.9 points of Tetris rate there, with a
 * third of the top-outs per piece (20 games of 500,000 pieces, seed 7); 0.9 about as much rate with top-outs in a
 * short screen, 0.6–0.75 less (bench/notes/results.md, "20G: a way to the well for the I").
 */
const BLOCKED_WELL_FACTOR: Readonly<Record<RuleSetKind, number>> = {
  previews: 1,
  onePiece: 1,
  topSpawn: 1,
  '20G': 0.8,
};

/**
 * The kinds of rule set the policy plays differently (docs/game.md, "The policy"): at 20G; pieces appearing in the
 * field's top rows (nes, tgm); hold or more than one preview (guideline); one piece shown and no hold (classic).
 */
type RuleSetKind = '20G' | 'topSpawn' | 'previews' | 'onePiece';

export function ruleSetKind(ruleSet: GameRuleFacts['ruleSet']): RuleSetKind {
  if (ruleSet.gravity === '20G') return '20G';
  if (ruleSet.spawn === 'topRow') return 'topSpawn';
  if (ruleSet.hold || ruleSet.previews > 1) return 'previews';
  return 'onePiece';
}

/** Rows stack mode keeps free above the stack: while it is still building, and once it is Tetris-ready. */
interface StackRoom {
  building: number;
  tetrisReady: number;
}

/**
 * The stack's room under each kind of rule set: while it is still building, and once it is Tetris-ready (an I down
 * the well clears four rows now). A ready stack only waits for its I, which lowers it by four rows, so its room is
 * spent only on a drought and every row of it is a burn put off. `longDroughts`, where given, is the room under a
 * randomizer with long I droughts (LONG_I_DROUGHTS).
 */
const STACK_ROOM: Readonly<Record<RuleSetKind, StackRoom & { longDroughts?: StackRoom }>> = {
  /** Guideline (hold and 5 previews): room to stand the I upright over the stack. */
  previews: { building: 4, tetrisReady: 4 },
  /** Classic: an I drought is seen one piece ahead, and the stacks that top out are the ones that grow tall before
   * they are Tetris-ready (an uneven stack, a column far behind), so a stack still building stays 6 rows under the
   * top and a ready one 4: 95.0–95.2 % Tetris rate and one top-out in 60 M pieces, where one limit of 5 rows gave
   * 94.7 % and none (classic/tgm1; bench/notes/results.md, "Classic: two limits"). */
  onePiece: { building: 6, tetrisReady: 4 },
  /** nes, tgm: a deep well beside a tall stack takes only an I, so the stack stays lower (nes/nes over 2 x 3,000
   * pieces: 2 top-outs with 4 rows, none with 6); letting a ready stack stand higher gained Tetrises only with more
   * top-outs (bench/notes/results.md, "Classic: two limits"). Under long droughts the top-outs are ready stacks beside a
   * deep well that wait through a drought until the I can no longer reach the well: under nes/nes, 8 rows top out
   * once per 11.1 M pieces (7 in 77.5 M, seeds 1–8) at a 71.0–71.2 % Tetris rate, where 6 rows top out once per
   * 829,000 at 75.2–75.3 % and 7 rows once per 3.4 M at 73.5–73.6 % (bench/notes/results.md, "nes: room for the droughts"
   * and "Where each target stands"). */
  topSpawn: { building: 6, tetrisReady: 6, longDroughts: { building: 8, tetrisReady: 8 } },
  /** At 20G the piece slides over the stack from where it appears: a stack this close to the top blocks it. */
  '20G': { building: 8, tetrisReady: 8 },
};

/**
 * The rows stack mode keeps free under a kind of rule set and the game's randomizer. A randomizer has long I droughts
 * (its definition's `longIDroughts`) when one gap between I pieces in a thousand is 38–44 pieces long, where under the
 * others (the TGM randomizers, the bags, red/blue) it is at most 24 (bench/notes/results.md, "nes: room for the
 * droughts").
 */
function defaultStackRoom(kind: RuleSetKind, randomizer: RandomizerName): StackRoom {
  const room = STACK_ROOM[kind];
  return (randomizerDefinition(randomizer).longIDroughts && room.longDroughts) || room;
}

/**
 * The highest flat stack (every column but the well that high) from which an upright I still reaches the well in
 * column `well` under a rule set: under a timed one, the game's gravity at its level and the player's timeline decide
 * it (docs/rules.md, "Time"); untimed, the field's height less the rows the I needs to appear and turn.
 */
export function wellReachHeight(rules: GameRuleFacts, width: number, well: number): number {
  const rows = new Uint32Array(rules.boardRows + 4);
  const stackRow = ((1 << width) - 1) & ~(1 << well);
  let highest = -1;
  for (let h = 0; h < rules.visibleHeight; h++) {
    const reaches = reachableOnRows(rows, width, rules.boardRows, 'I', rules).some((p) =>
      p.cells.every(([x]) => x === well),
    );
    if (!reaches) break;
    highest = h;
    rows[h] = stackRow;
  }
  return highest;
}

/**
 * A timed rule set's play at one level: the sides stack mode keeps its well on, the stack's limits there, and, where
 * the piece locks before the next one is known, each side's reach, by which a tall stack burns only when an I
 * drought is likely (burnsRows). Every recover move of a timed game searches wide (recoversWide).
 */
export interface LevelPlay {
  sides: ('right' | 'left')[];
  limits: StackLimits;
  /** The highest flat stack from which an upright I reaches each kept side's well (wellReachHeight); null where
   * a tall stack burns whenever no I is known. */
  droughtReach: Partial<Record<'right' | 'left', number>> | null;
  /** Whether the limit is at its floor (MIN_BOARD_HEIGHT): there recover mode plays
   * FLOOR_RECOVER_WEIGHTS, BCTS's tuned for the double killscreen (defaultRecoverWeightSet's `floor`). */
  atFloor: boolean;
  /** The limits over the last HANDOVER_LINES lines of a level whose next level's limit is at its floor (this one's
   * not) and whose best reach is above that floor: lowered to that reach; null at other levels. */
  handover: StackLimits | null;
}

/**
 * A timed rule set's play at one level (docs/game.md, "NES Tetris: the competition format"). Each side `well` allows
 * has a reach (wellReachHeight: the highest flat stack from which an upright I still reaches that well, by the
 * game's gravity at the level and the player's timeline). The well stays on every side whose reach is within
 * REACH_MARGIN rows of the best side's (under NES the right: the piece appears right of centre), and the limits are
 * the untimed ones lowered to REACH_MARGIN rows under the best reach and KEPT_REACH_MARGIN under every kept side's
 * reach, never under MIN_BOARD_HEIGHT. With `X.` from start 18: either side and the untimed 12 rows to level 28,
 * either side and 9 rows at 29–38 (one under the left well's reach), the right well alone and 4 rows from the
 * double killscreen, where the left well's reach is 2. Where a piece over the lowest stack that burns (stackIsTall)
 * cannot fall untouched through the reaction (waitsOutReaction; with `X.` and 18 frames from level 29 on), it is
 * placed before the next piece is known, a tall stack burns only when an I drought is likely (burnsRows), and the
 * well stays only on the sides the next level keeps too (with `X.`: the right alone at 38, the limit still 9), so
 * the stack meets the next level with a well its I reaches. Where the limit is at its floor (MIN_BOARD_HEIGHT),
 * recover mode plays FLOOR_RECOVER_WEIGHTS (defaultRecoverWeightSet's `floor`). Over the last HANDOVER_LINES lines
 * before the level-up into a level whose limit is at its floor, the limits are `handover` (see HANDOVER_LINES).
 */
export function timedPlay(limits: StackLimits, rules: GameRuleFacts, width: number, well: WellSide): LevelPlay {
  const sidesHere = keptSides(rules, width, well);
  const { kept, reach } = sidesHere;
  const highest = highestLimit(sidesHere);
  const played = { tetrisReady: lowerTo(limits.tetrisReady, highest), building: lowerTo(limits.building, highest) };
  const r = rules.ruleSet;
  const fall = reactionFall(r.timing!, r.timeline!, r.reaction ?? 0, r.level!);
  const lowestTall = Math.min(played.tetrisReady.boardHeight, played.building.boardHeight) - BURN_ROOM + 1;
  const atFloor = Math.max(played.tetrisReady.boardHeight, played.building.boardHeight) <= MIN_BOARD_HEIGHT;
  const following = r.level! < MAX_LEVEL ? keptSides(factsAtLevel(rules, r.level! + 1), width, well) : null;
  const handover =
    following && !atFloor && highestLimit(following) <= MIN_BOARD_HEIGHT && following.best > MIN_BOARD_HEIGHT
      ? { tetrisReady: lowerTo(played.tetrisReady, following.best), building: lowerTo(played.building, following.best) }
      : null;
  if (waitsOutReaction(rules.boardRows, lowestTall, fall.rows))
    return { sides: kept, limits: played, droughtReach: null, atFloor, handover };
  const next = following ? following.kept : kept;
  const ahead = kept.filter((side) => next.includes(side));
  const sides = ahead.length > 0 ? ahead : kept;
  const droughtReach = Object.fromEntries(sides.map((side) => [side, reach[side]!]));
  return { sides, limits: played, droughtReach, atFloor, handover };
}

/** A level's highest limit (timedPlay): REACH_MARGIN rows under its best reach and KEPT_REACH_MARGIN under every
 * kept side's, never under MIN_BOARD_HEIGHT. */
function highestLimit({ kept, reach, best }: ReturnType<typeof keptSides>): number {
  const reachKept = Math.min(...kept.map((side) => reach[side]!));
  return Math.max(MIN_BOARD_HEIGHT, Math.min(best - REACH_MARGIN, reachKept - KEPT_REACH_MARGIN));
}

function lowerTo(r: StackingSettings, height: number): StackingSettings {
  return r.boardHeight <= height ? r : { ...r, boardHeight: height };
}

/**
 * Lines before the level-up into a level whose limit is at its floor (with `X.` the double killscreen) over which
 * the stack's limit is LevelPlay.handover: the next level's best reach (with `X.` the right well's 6 rows at 39),
 * so the stack meets that level low enough for the I to reach its well, and with fewer rows to bury holes under.
 * The lines left come from the game's lines count with its level (GameState.lines; handoverDue). Over the last 5
 * lines of level 38 with a limit of 6 (not 9), on the report's 1,000 games (seed 1): 1,714,798 against 1,711,188
 * in the competition format, 1,401,715 against 1,388,571 from start 29. Where the next level's reach is at or
 * under the floor (X....: 3 rows at 29) there is none: 3 rows over 28's last lines made 825,313 against 836,517
 * with a cap at 29 (bench/notes/nes.md, "Policy round 8b" and "Policy round 8b with round 8").
 */
export const HANDOVER_LINES = 5;

/** Whether a game at `level` with `lines` lines (its LINES counter) is within HANDOVER_LINES of its next level-up. */
export function handoverDue(level: number, lines: number): boolean {
  const left = nesLinesToLevelUp(level, lines);
  return left !== null && left <= HANDOVER_LINES;
}

/** The sides `well` allows at a level, each with its reach (wellReachHeight), the best of them, and the sides
 * within REACH_MARGIN rows of it. */
function keptSides(
  rules: GameRuleFacts,
  width: number,
  well: WellSide,
): { kept: ('right' | 'left')[]; reach: Partial<Record<'right' | 'left', number>>; best: number } {
  const sides = wellSides(well);
  const reach: Partial<Record<'right' | 'left', number>> = {};
  for (const side of sides) reach[side] = wellReachHeight(rules, width, side === 'right' ? width - 1 : 0);
  const best = Math.max(...Object.values(reach));
  return { kept: sides.filter((side) => reach[side]! >= best - REACH_MARGIN), reach, best };
}

/**
 * Whether a recover move searches as near the top (RecoverSearch.nearTop: a beam of 12 and a chance ply of 12 lines
 * under nes): on a board with a cell in the field's top nearTop.rows rows, and on every board of a timed game. There
 * two thirds of the lines that are not Tetrises are cleared in recover mode on boards with holes, and a game is a
 * few hundred pieces, so the search's cost is small (bench/notes/nes.md, "Policy round 4").
 */
export function recoversWide(
  nearTop: NearTopSearch | null,
  timed: boolean,
  boardTop: number,
  visibleHeight: number,
): nearTop is NearTopSearch {
  return nearTop !== null && (timed || boardTop > visibleHeight - nearTop.rows);
}

/**
 * Rows a timed rule set's stack stays under the best well's reach, and how far under it another side's may be for
 * the well to stay there too. From level 29 the piece locks before the next one is known, and a stack standing where
 * the I only just reaches the well tops out: in the competition format (100 games, seed 100) the right well alone
 * at its reach (12 rows at 29–38, 6 from 39) made 1,536,746, one row under it 1,598,623, two rows under it (10 / 4)
 * 1,622,225, against 1,610,979 with both wells at 10 / 4 rows. From the double killscreen the left well's reach
 * (2 rows) is more than 2 rows under the right's (6), and the right well alone there made 1,655,041 against
 * 1,639,763 on 300 games (seed 300) that are the same games up to level 39 (bench/notes/nes.md, "Policy round 2").
 */
const REACH_MARGIN = 2;

/**
 * Rows a timed rule set's stack stays under every kept side's reach: with the drought rule of burnsRows, one row
 * under the left well's reach at 29–38 kept more games alive than the reach itself (bench/notes/nes.md, "Policy
 * round 4").
 */
const KEPT_REACH_MARGIN = 1;

/**
 * The range of TetrisAIOptions.stackRoom: at least the 2 top rows, where nes and tgm pieces appear and turn, and at
 * most 12, which leaves the stack 8 rows: a Tetris-ready stack and a row or two on it.
 */
export const MIN_STACK_ROOM = 2;
export const MAX_STACK_ROOM = 12;

/** TetrisAIOptions.stackRoom checked (undefined: the default room). */
export function checkStackRoom(stackRoom: unknown): number | undefined {
  return stackRoom === undefined ? undefined : requireInt('stackRoom', stackRoom, MIN_STACK_ROOM, MAX_STACK_ROOM);
}

/**
 * Highest floor (rows buried under a clean stack: garbage, covered holes, a filled well; grid.ts stackFloor) the AI
 * stacks over, by kind of rule set: stack mode plays the surface above it with its limit lowered by the floor, and
 * recover mode counts a clean stack over it as clean; a higher floor is dug out. Stacking over floors of up to 4
 * rows raised classic/tgm1's Tetris rate from 92.1 % to 94.2 % (20 games of 5,000 pieces, seed 1). But a floor's rows
 * are room the stack no longer has, and few floors go away by themselves: digging floors of 3 and 4 rows out gains
 * 1.1 points under nes/nes and 3.9 under tgm20g; under classic/tgm1, whose stack has more room than its I droughts
 * need, the rate stays the same, and floors of 4 rows have no top-out in 60 M pieces where 2 rows had one in 59.8 M
 * (bench/notes/results.md, "Floors of at most 2 rows"). Guideline played the same games with either.
 */
const MAX_FLOOR: Readonly<Record<RuleSetKind, number>> = { previews: 2, onePiece: 4, topSpawn: 2, '20G': 2 };

/** The highest floor TetrisAI stacks over under a rule set (MAX_FLOOR). */
export function maxFloorFor(ruleSet: GameRuleFacts['ruleSet']): number {
  return MAX_FLOOR[ruleSetKind(ruleSet)];
}

/**
 * The well side TetrisAI plays when none is given, by kind of rule set. 'auto' (either edge column, whichever is a
 * clean well; both: the better) ends recoveries sooner and gains Tetris rate under classic, nes and tgm; under tgm20g
 * it loses rate and under guideline it changes nothing (the figures: bench/notes/results.md, "The well on either edge under
 * nes and tgm").
 */
const DEFAULT_WELL: Readonly<Record<RuleSetKind, WellSide>> = {
  previews: 'right',
  onePiece: 'auto',
  topSpawn: 'auto',
  '20G': 'right',
};

export function defaultWell(ruleSet: GameRuleFacts['ruleSet']): WellSide {
  return DEFAULT_WELL[ruleSetKind(ruleSet)];
}

export const WELL_SIDES: readonly WellSide[] = ['right', 'left', 'auto'];

/** TetrisAIOptions.well checked: the rule set's default (defaultWell) when not given. */
export function checkWell(well: unknown, ruleSet: GameRuleFacts['ruleSet']): WellSide {
  const side = well ?? defaultWell(ruleSet);
  if (!WELL_SIDES.includes(side as WellSide))
    throw new StackRankError('BAD_ARGUMENT', `well must be "right", "left" or "auto"; got ${describe(side)}`);
  return side as WellSide;
}

/** The sides whose edge column stack mode plays as the well: both under 'auto'. */
export function wellSides(well: WellSide): ('right' | 'left')[] {
  return well === 'auto' ? ['right', 'left'] : [well];
}

/** A recover search: its beam width, the lines its chance ply values (0: none), and a wider one near the top. */
export interface RecoverSearch {
  beam: number;
  chance: number;
  /**
   * The search of a recover move on a board with a cell in the field's top `rows` rows, where a move can lose the
   * game. Such boards are few, so a wide search there costs little speed: under nes/nes one top-out per 925,000
   * pieces against one per 442,000 at the same Tetris rate (six seeds of 20 games of 500,000 pieces); from the top
   * 5 rows, or with a beam and chance ply of 24, no better; under tgm20g no change (bench/notes/results.md, "A wider
   * search near the top").
   */
  nearTop?: NearTopSearch;
}

export interface NearTopSearch {
  rows: number;
  beam: number;
  chance: number;
}

/**
 * Recover mode's beam width and the lines its chance ply values over the next piece, by default (docs/game.md,
 * "Recover mode"), by kind of rule set. Classic: a chance ply of 12 lines over the beam of 12 gains +0.7 to +0.8 point
 * of Tetris rate (classic/tgm1, 20 games of 100,000 pieces, seeds 1–3) at about 40 % of the speed, which stays over
 * the 50 k pieces/s target. nes, tgm and 20G spend far more of their pieces in recover mode, where that took the
 * speed to a third or less; there a beam of 6 played as strong as 12 without a chance ply, and a beam of 4 pays for a
 * chance ply of 3 lines: under nes/nes 74.1 % Tetris rate against 72.4 % and one top-out per 570,000 pieces against
 * one per 167,000 (20 games of 500,000 pieces, seed 1); under tgm20g 45.3 % against 37.3 % (bench/notes/results.md, "A
 * narrow recover beam with a chance ply"). With the wider search near the top and the recover kernel valuing
 * placements by difference, nes plays 60,700–62,500 pieces/s on 2 threads. Guideline hardly ever recovers.
 */
export const RECOVER_SEARCH: Readonly<Record<RuleSetKind, RecoverSearch>> = {
  previews: { beam: 12, chance: 0 },
  onePiece: { beam: 12, chance: 12 },
  topSpawn: { beam: 4, chance: 3, nearTop: { rows: 4, beam: 12, chance: 12 } },
  '20G': { beam: 4, chance: 3 },
};

/** The full-board baseline's search (policy 'fullBoardOnly'): the plain BCTS player under every rule set. */
export const PLAIN_RECOVER_SEARCH: RecoverSearch = { beam: 12, chance: 0 };

/**
 * Where a tall board's recover search may cover the well (docs/game.md, "Recover mode"): at least COVER_OVER_LIMIT
 * rows above the stack's limit and at most COVER_UNDER_TOP rows under the field's top, both signs that the stack
 * is in danger. Under nes this cut the top-outs by three quarters at about the same Tetris rate; at 20G, from 2
 * rows over its low limit, it lost rate; under classic, from 4 rows under the top alone, it kept the stack alive at
 * a lower rate (bench/notes/results.md, "Covering the well near the top").
 */
const COVER_OVER_LIMIT = 2;
const COVER_UNDER_TOP = 4;

/** Whether a board whose highest cell is in row `boardTop` - 1 may cover its well. */
export function coversWell(boardTop: number, stackLimit: number, visibleHeight: number): boolean {
  return boardTop >= Math.max(stackLimit + COVER_OVER_LIMIT, visibleHeight - COVER_UNDER_TOP);
}

/**
 * The longest stack-mode lookahead whose search presses hold at every ply where the turn may hold (docs/game.md,
 * "Hold"); a longer search weighs hold at the first move only, unless holdPlies is 'all'. Holding at every ply
 * multiplies the states the search visits: over the 600 stack positions of a guideline/bag7 game (lookahead 5, seed
 * 2), nodes per search without and with it were 18 / 31 at lookahead 1, 55 / 177 at 2, 147 / 813 at 3 and 873 /
 * 10,497 at 5 (0.36 / 2.7 ms), and guideline games at lookahead 5 played at an eighth of the speed (a half with hold
 * at the second ply alone). Up to lookahead 2 it costs less than one more piece of lookahead without it
 * (bench/notes/hold-plies.md).
 */
export const MAX_HOLD_PLIES_LOOKAHEAD = 2;

/**
 * Where stack mode's search may press hold (TetrisAIOptions.holdPlies; docs/game.md, "Hold"): 'auto' at every ply up
 * to MAX_HOLD_PLIES_LOOKAHEAD and at the first move beyond, 'all' at every ply whatever the lookahead, 'first' at the
 * first move only.
 */
export const HOLD_PLIES = ['auto', 'all', 'first'] as const;
export type HoldPlies = (typeof HOLD_PLIES)[number];

/** TetrisAIOptions.holdPlies checked: 'auto' when not given. */
export function checkHoldPlies(holdPlies: unknown): HoldPlies {
  if (holdPlies === undefined) return 'auto';
  if (!HOLD_PLIES.includes(holdPlies as HoldPlies))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `holdPlies must be one of ${HOLD_PLIES.join(', ')}; got ${describe(holdPlies)}`,
    );
  return holdPlies as HoldPlies;
}

/** Whether a stack search of `lookahead` queue pieces presses hold at every ply (the turn may hold). */
export function holdsEveryPly(holdPlies: HoldPlies, lookahead: number): boolean {
  return holdPlies === 'all' || (holdPlies === 'auto' && lookahead <= MAX_HOLD_PLIES_LOOKAHEAD);
}

/** Stack height (below the stack's limit) from which rows are burnt while no I is known. */
const BURN_ROOM = 2;

/**
 * Whether a turn burns rows (docs/game.md, "Smaller clears"): the stack is tall and no I is among the known pieces
 * (current, the queue the search sees, hold). With `drought` (a timed rule set from the level where the piece locks
 * before the next one is known: LevelPlay.droughtReach) a clean stack burns only when an I drought is likely too:
 * the chance that none of the pieces it can still take under its well's reach is an I (droughtChance) is at least
 * DROUGHT_BURN_CHANCE. A board that is no clean stack burns as before.
 */
export function burnsRows(
  rows: Uint32Array,
  stackLimit: number,
  known: readonly (Piece | null)[],
  drought?: DroughtOdds,
): boolean {
  if (!stackIsTall(maxHeight(rows), stackLimit) || known.includes('I')) return false;
  if (!drought) return true;
  let pieces = -1;
  for (const surface of drought.surfaces) {
    const reach = drought.reach[surface.side];
    if (reach !== undefined) pieces = Math.max(pieces, piecesUnder(surface, reach));
  }
  return pieces < 0 || droughtChance(pieces, drought.nextI) >= DROUGHT_BURN_CHANCE;
}

/** What burnsRows weighs an I drought by: the board's clean stacks, each kept side's reach, and the chance that the
 * piece after the known ones is an I. */
export interface DroughtOdds {
  surfaces: readonly StackSurface[];
  reach: Partial<Record<'right' | 'left', number>>;
  nextI: number;
}

/**
 * The chance of an I drought at or above which a tall stack burns where the piece locks before the next one is
 * known. From level 29 the AI knows only the piece it places, so "no I known" is true 6 turns in 7 and the stack
 * would burn from 2 rows under its limit almost every turn; burning only when no I is likely within the pieces the
 * stack can take raised the Tetris rate at 29–38 and kept games alive (bench/notes/nes.md, "Policy round 4").
 */
const DROUGHT_BURN_CHANCE = 0.5;

/**
 * The chance burnsRows gives each piece after the first unknown one of being an I: the long-run share of every
 * randomizer the NES games use, one piece in seven. The randomizer's own chance for the first unknown piece (after
 * a piece that is no I, about 9/56 under NES) for every one of them played no better: seed 100, +5,296 on 100 games;
 * seed 300, −14,121 on 200 (bench/notes/nes.md, "The drought's later pieces").
 */
export const I_SHARE = 1 / 7;

/**
 * The chance that none of the next `pieces` pieces is an I: the first is an I with chance `nextI` (the randomizer's
 * chances after the known pieces), each later one with I_SHARE. No piece: 1.
 */
export function droughtChance(pieces: number, nextI: number): number {
  if (pieces <= 0) return 1;
  return (1 - nextI) * (1 - I_SHARE) ** (pieces - 1);
}

/** Pieces a clean stack can still take under a height (rows from the field's bottom): its stack columns' empty
 * cells under it, by four. */
export function piecesUnder(surface: StackSurface, height: number): number {
  let free = 0;
  for (const h of surface.heights) free += Math.max(0, height - surface.floor - h);
  return Math.floor(free / 4);
}

/**
 * Whether a board whose highest cell is in row `boardTop` - 1 is tall enough to burn rows while no I is known:
 * within BURN_ROOM rows of the stack's limit.
 */
export function stackIsTall(boardTop: number, stackLimit: number): boolean {
  return boardTop > stackLimit - BURN_ROOM;
}
