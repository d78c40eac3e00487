/**
 * What the game AI needs from the rules layer (src/rules/), in one place: the rule set's facts (hold, previews)
 * and the reachable placements of a piece on the AI's bit rows.
 */
import { StackRankError, describe } from '../errors.js';
import { PIECES, type Piece } from '../pieces.js';
import type { RandomizerName } from '../randomizers/index.js';
import {
  LANDINGS_WORDS,
  REACH_MAX_ROWS,
  reach,
  reachFrom,
  reachLandings,
  type ReachBoard,
  type Reached,
} from '../kernels/reachable.js';
import { pieceGeometry } from '../rules/geometry.js';
import { ROTATION_SYSTEMS } from '../rules/rotation-systems.js';
import {
  GUIDELINE_MATRIX_ROWS,
  RULE_SETS,
  RULE_SET_NAMES,
  TIMING_FIELDS,
  isRuleSetName,
  isTimed,
  resolveRules,
  type RuleSet,
} from '../rules/rule-sets.js';
import { MAX_START_LEVEL, nesLinesRange, nesLinesToLevelUp, rulesAtLevel } from '../rules/nes-game.js';
import { MAX_LEVEL, gravityAt } from '../rules/timing.js';
import { Board } from '../rules/board.js';
import { Mover } from '../rules/reachable.js';
import type { FrameInput, GamePlacement, RuleSetName } from '../rules/types.js';
import { CELLS_KEY_SHIFT, cellsKey, fillsARow, rowsFilled } from './grid.js';

/** Rows of the visible field: a piece that ends with a cell above them tops out (docs/game.md). */
export const VISIBLE_ROWS = 20;

export interface GameRuleFacts {
  name: RuleSetName;
  hold: boolean;
  previews: number;
  visibleHeight: number;
  /**
   * Rows a board's cells may stand in (docs/game.md, "Options"): the guideline's 40-row matrix; under the other
   * presets the visible field, which the piece appears in (nes, tgm) or over (classic), so a cell over it is a
   * game already lost.
   */
  boardRows: number;
  ruleSet: RuleSet;
}

/**
 * The randomizer a rule set's games draw from when none is given (playGame, `stackrank bench game`, the demo, and
 * TetrisAI's stack room): guideline bag7, nes and nesUntimed nes, the others tgm1. Throws BAD_RULES for an unknown
 * rule set.
 */
export function defaultGameRandomizer(rules: RuleSetName | RuleSet): RandomizerName {
  const { name } = ruleFacts(rules);
  return name === 'guideline' ? 'bag7' : name === 'nes' || name === 'nesUntimed' ? 'nes' : 'tgm1';
}

/** The fields of a rule set that make its game, apart from time: a rule set based on a preset has the preset's. */
const GAME_FIELDS = [
  'rotationSystem',
  'gravity',
  'softDrop',
  'hold',
  'previews',
  'initialRotation',
  'spawn',
  'hiddenRows',
] as const;

/**
 * The facts of a rule set the game AI plays: a preset name, or a RuleSet based on a preset (its `name` a preset's and
 * its fields the preset's, but its time: `timing`, `level`, `timeline`, `reaction` may differ or be added). The
 * policy (stack room, recover search, well side) is set and measured per preset (docs/game.md); time changes which
 * placements the frames allow.
 */
export function ruleFacts(rules: unknown): GameRuleFacts {
  let ruleSet: RuleSet;
  if (typeof rules === 'string' || rules === null || typeof rules !== 'object') {
    if (!isRuleSetName(rules))
      throw new StackRankError(
        'BAD_RULES',
        typeof rules === 'string'
          ? `unknown rule set ${describe(rules)}; rule sets are ${RULE_SET_NAMES.join(', ')}`
          : `rules must be a rule set name (${RULE_SET_NAMES.join(', ')}) or a RuleSet based on one; got ${describe(rules)}`,
      );
    ruleSet = RULE_SETS[rules];
  } else {
    ruleSet = resolveRules(rules);
    const preset = isRuleSetName(ruleSet.name) ? RULE_SETS[ruleSet.name] : null;
    const differs = preset && GAME_FIELDS.find((f) => ruleSet[f] !== preset[f]);
    if (!preset || differs)
      throw new StackRankError(
        'BAD_RULES',
        preset
          ? `a rule set for the game AI is a preset with its time changed; ${differs} differs from ${preset.name}'s (${describe(preset[differs!])}); time fields are ${TIMING_FIELDS.join(', ')}`
          : `a rule set for the game AI is based on a preset: its name must be one of ${RULE_SET_NAMES.join(', ')}; got ${describe(ruleSet.name)}`,
      );
  }
  const name = ruleSet.name as RuleSetName;
  const boardRows = ruleSet.spawn === 'guideline' ? GUIDELINE_MATRIX_ROWS : VISIBLE_ROWS;
  return { name, hold: ruleSet.hold, previews: ruleSet.previews, visibleHeight: VISIBLE_ROWS, boardRows, ruleSet };
}

/**
 * The facts of a timed rule set at another level (the game's level changes its gravity), made once per level; the
 * facts themselves under an untimed rule set or at their own level.
 */
export function factsAtLevel(facts: GameRuleFacts, level: number): GameRuleFacts {
  const r = facts.ruleSet;
  if (!isTimed(r) || level === r.level) return facts;
  let levels = LEVEL_FACTS.get(facts);
  if (!levels) LEVEL_FACTS.set(facts, (levels = new Map()));
  let f = levels.get(level);
  if (!f) levels.set(level, (f = { ...facts, ruleSet: rulesAtLevel(r, level) }));
  return f;
}
const LEVEL_FACTS = new WeakMap<GameRuleFacts, Map<number, GameRuleFacts>>();

/** A turn's level given by a caller: an integer 0..MAX_LEVEL, under a timed rule set only. */
export function checkTurnLevel(facts: GameRuleFacts, level: unknown): number | undefined {
  if (level === undefined) return undefined;
  if (!isTimed(facts.ruleSet))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `level is a timed rule set's (nes); the ${facts.name} rule set has no time; got level ${describe(level)}`,
    );
  if (!Number.isInteger(level) || (level as number) < 0 || (level as number) > MAX_LEVEL)
    throw new StackRankError('BAD_ARGUMENT', `level must be an integer from 0 to ${MAX_LEVEL}; got ${describe(level)}`);
  return level as number;
}

/**
 * A turn's lines count given by a caller (GameState.lines: the game's LINES counter, lines cleared since the game
 * began), under a timed rule set only, and one an NES game at the turn's `level` can show (nesLinesToLevelUp;
 * docs/game.md, "The lines count").
 */
export function checkTurnLines(facts: GameRuleFacts, lines: unknown, level: number | undefined): number | undefined {
  if (lines === undefined) return undefined;
  if (!isTimed(facts.ruleSet))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `lines is a timed rule set's (nes), read with the level; the ${facts.name} rule set has no time; got lines ${describe(lines)}`,
    );
  if (typeof lines !== 'number' || !Number.isSafeInteger(lines) || lines < 0)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `lines must be an integer from 0 to Number.MAX_SAFE_INTEGER (the game's LINES counter: lines cleared since the game began); got ${describe(lines)}`,
    );
  const at = level ?? facts.ruleSet.level!;
  if (nesLinesToLevelUp(at, lines) === null) {
    const { min, max } = nesLinesRange(at);
    throw new StackRankError(
      'BAD_ARGUMENT',
      `lines ${lines} at level ${at} is no NES game's count: a game from any start level 0–${MAX_START_LEVEL} is at level ${at} from ${min} to ${max} lines (give the LINES counter, lines cleared since the game began, or leave lines out where levels do not follow NES's level-ups)`,
    );
  }
  return lines;
}

/**
 * Reachable placements of `piece` on the bit rows (bottom first) of a `width` × `height` board (the rows above
 * `height` must be empty: they are where the piece appears under the rule set).
 */
export function reachableOnRows(
  rows: Uint32Array,
  width: number,
  height: number,
  piece: Piece,
  rules: GameRuleFacts,
): GamePlacement[] {
  // The kernel straight away: reachablePlacements would check the options and copy the rule set on every call (the
  // searches call this thousands of times per move); ruleSet is a checked preset already, and the rows are read as
  // they are (the AI's own bit rows), without a Board made and checked per call.
  return reach(reachBoard(rows, width, height), PIECES.indexOf(piece), rules.ruleSet).placements();
}

/**
 * The placements a piece still reaches after its first `frames` frame inputs (`played`, a move the search found on
 * this board, so every input acts and the piece is still falling after them), under a timed tap rule set whose
 * gravity and timeline are back at their phase of the first frame after `frames` frames; each with its inputs from
 * the first frame (the played ones, then the rest). Null when the piece no longer falls after them.
 */
export function reachableAfter(
  rows: Uint32Array,
  width: number,
  height: number,
  piece: Piece,
  rules: GameRuleFacts,
  played: readonly FrameInput[],
  frames: number,
): GamePlacement[] | null {
  if (played.length <= frames) return null;
  const pid = PIECES.indexOf(piece);
  const mover = new Mover(Board.fromBits(rows.subarray(0, height), width, height), pid, rules.ruleSet);
  const gravity = gravityAt(rules.ruleSet.timing!, rules.ruleSet.level!);
  let at = mover.spawn;
  for (let f = 0; f < frames; f++) {
    const token = played[f];
    if (token[0] === 'L' || token[0] === 'R') at = { ...at, x: at.x + (token[0] === 'L' ? -1 : 1) };
    const turn = token[token.length - 1];
    if (turn === 'A' || turn === 'B') {
      const turned = mover.turn(at, turn === 'A');
      if (!turned) return null;
      at = turned;
    }
    if (f % gravity.frames === gravity.frames - 1) at = { ...at, y: at.y - gravity.rows };
    if (mover.collides(at.rotation, at.x, at.y)) return null;
  }
  const prefix = played.slice(0, frames);
  return reachFrom(reachBoard(rows, width, height), pid, rules.ruleSet, at)
    .placements()
    .map((p) => ({ ...p, inputs: [...prefix, ...(p.inputs as FrameInput[])] }));
}

/** The AI's bit rows as the kernel reads a board (at most REACH_MAX_ROWS rows: the kernel's copy of the board). */
function reachBoard(rows: Uint32Array, width: number, height: number): ReachBoard {
  return { width, height, rows: rows.length <= REACH_MAX_ROWS ? rows : rows.subarray(0, height) };
}

/**
 * The reachable placements of one piece on one board of a turn, found by the kernel when first asked. Stack mode
 * mostly asks only whether the search's first move is among them (`find`), which reads where they rest; the list
 * of GamePlacement objects (`list`, exactly reachableOnRows's) is made only when a caller walks it. The rows must
 * not change while the object is in use.
 */
export class PieceReach {
  private reached: Reached | undefined;
  private placements: GamePlacement[] | undefined;
  private readonly pid: number;

  constructor(
    /** Bit rows, bottom first, empty from `height` up. */
    private readonly rows: Uint32Array,
    private readonly width: number,
    private readonly height: number,
    readonly piece: Piece,
    private readonly rules: GameRuleFacts,
  ) {
    this.pid = PIECES.indexOf(piece);
  }

  private get found(): Reached {
    this.reached ??= reach(reachBoard(this.rows, this.width, this.height), this.pid, this.rules.ruleSet);
    return this.reached;
  }

  /** How many placements the piece reaches (0: none, it cannot even appear). */
  get count(): number {
    return this.found.count;
  }

  /** Every reachable placement, in the kernel's order (reachableOnRows). */
  get list(): readonly GamePlacement[] {
    this.placements ??= this.found.placements();
    return this.placements;
  }

  /**
   * The placements that fill a row of this board (locking one clears lines), in the list's order: the candidates
   * of a smaller clear, made as objects without making every other placement's.
   */
  clearing(): readonly GamePlacement[] {
    const { rows, width } = this;
    if (this.placements) return this.placements.filter((p) => rowsFilled(rows, width, p.cells) > 0);
    const found = this.found;
    const { count, landings } = found;
    const out: GamePlacement[] = [];
    if (count === 0) return out;
    const states = pieceGeometry(ROTATION_SYSTEMS[this.rules.ruleSet.rotationSystem], this.pid).cells;
    for (let i = 0; i < count; i++) {
      const at = 3 * i;
      if (fillsARow(rows, width, states[landings[at]], landings[at + 1], landings[at + 2]))
        out.push(found.placement(i));
    }
    return out;
  }

  /**
   * The placement whose cells have this key (cellsKey), the one with the fewest inputs among equals (the first
   * listed on a tie), or undefined when the piece cannot reach those cells.
   */
  find(key: number): GamePlacement | undefined {
    if (this.placements) return findInList(this.placements, key);
    const found = this.found;
    const { count, landings } = found;
    if (count === 0) return undefined;
    const rel = stateKeys(this.rules, this.pid);
    let best = -1;
    let bestInputs = 0;
    for (let i = 0; i < count; i++) {
      const at = 3 * i;
      if (rel[landings[at]] + (landings[at + 2] * 64 + landings[at + 1]) * CELLS_KEY_SHIFT !== key) continue;
      if (best < 0) {
        best = i;
        continue;
      }
      // Another placement with the same cells (the kernel lists each cells once; kept for any rule set's sake).
      if (bestInputs === 0) bestInputs = found.inputCount(best);
      const inputs = found.inputCount(i);
      if (inputs < bestInputs) (best = i), (bestInputs = inputs);
    }
    return best < 0 ? undefined : found.placement(best);
  }
}

function findInList(list: readonly GamePlacement[], key: number): GamePlacement | undefined {
  let found: GamePlacement | undefined;
  for (const p of list) {
    if (cellsKey(p.cells) === key && (!found || p.inputs.length < found.inputs.length)) found = p;
  }
  return found;
}

export { LANDINGS_WORDS };

/** Per rule set and piece: cellsKey of each rotation state's cells around its reference point (the key of the
 * state placed at x, y is this + (64 y + x) · CELLS_KEY_SHIFT). */
const STATE_KEYS = new Map<string, Float64Array>();

function stateKeys(rules: GameRuleFacts, pid: number): Float64Array {
  const name = rules.ruleSet.rotationSystem;
  const id = `${name}:${pid}`;
  let keys = STATE_KEYS.get(id);
  if (!keys) {
    const g = pieceGeometry(ROTATION_SYSTEMS[name], pid);
    keys = Float64Array.from(g.cells, (cells) => cellsKey(cells));
    STATE_KEYS.set(id, keys);
  }
  return keys;
}

/**
 * The same placements as reachableOnRows, in the same order, without objects: per placement its state (the index
 * in the rotation system's states of piece `pid`), then x and y, into `out` (LANDINGS_WORDS long). Returns the count.
 */
export function reachableLandings(
  rows: Uint32Array,
  width: number,
  height: number,
  pid: number,
  rules: GameRuleFacts,
  out: Int32Array,
): number {
  return reachLandings(reachBoard(rows, width, height), pid, rules.ruleSet, out);
}
