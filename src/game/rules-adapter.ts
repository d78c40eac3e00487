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
  reachLandings,
  type ReachBoard,
  type Reached,
} from '../kernels/reachable.js';
import { pieceGeometry } from '../rules/geometry.js';
import { ROTATION_SYSTEMS } from '../rules/rotation-systems.js';
import { GUIDELINE_MATRIX_ROWS, RULE_SETS, RULE_SET_NAMES, isRuleSetName, type RuleSet } from '../rules/rule-sets.js';
import type { GamePlacement, RuleSetName } from '../rules/types.js';
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
 * TetrisAI's stack room): guideline bag7, nes nes, the others tgm1. Throws BAD_RULES for an unknown rule set.
 */
export function defaultGameRandomizer(rules: RuleSetName): RandomizerName {
  const { name } = ruleFacts(rules);
  return name === 'guideline' ? 'bag7' : name === 'nes' ? 'nes' : 'tgm1';
}

export function ruleFacts(name: unknown): GameRuleFacts {
  if (!isRuleSetName(name))
    throw new StackRankError(
      'BAD_RULES',
      typeof name === 'string'
        ? `unknown rule set ${describe(name)}; rule sets are ${RULE_SET_NAMES.join(', ')}`
        : // The policy (stack room, recover search, well side) is set and measured per preset (docs/game.md).
          `rules must be a rule set name (${RULE_SET_NAMES.join(', ')}); a RuleSet object is not taken here; got ${describe(name)}`,
    );
  const ruleSet = RULE_SETS[name];
  const boardRows = ruleSet.spawn === 'guideline' ? GUIDELINE_MATRIX_ROWS : VISIBLE_ROWS;
  return { name, hold: ruleSet.hold, previews: ruleSet.previews, visibleHeight: VISIBLE_ROWS, boardRows, ruleSet };
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
