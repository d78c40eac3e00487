/**
 * The versus policy (docs/game.md, "The versus policy"): the guideline AI that plays for attack. A beam search over
 * the known pieces with hold at every ply, in WebAssembly (assembly/versus/, driven by src/kernels/versus.ts):
 * each ply places one piece in every reachable way, T-spins included (below the first ply a piece that cannot spin
 * takes its drops and one-column tucks: `placements`), and keeps the `beam` best distinct lines by value; the first
 * move of the best line is played. A line's value is the sum of its locks' move terms (attack sent by the rule set's
 * table, the clear kinds, back-to-back and combo bonuses, perfect clears, a T placed without a spin clearing lines)
 * plus the board terms of where it ends (height with the garbage waiting, holes, overhangs, covered cells, bumpiness,
 * row transitions, the well, the best T-slot with its T-spin imagined, a back-to-back chain alive). Garbage waiting
 * is part of the line: a clear's attack cancels it, a lock that clears nothing lets in what is due, and those rows
 * raise the board the line stands on (a line that ends over the field costs a top-out). Before the search, on a low
 * board with no garbage waiting, an exhaustive finder looks for a perfect clear the known pieces make
 * (versusPerfectClear; src/tetris-ai/perfect-clear.ts) and plays its first move when there is one.
 */
import { describe, firstUnknownKey, StackRankError } from '../errors.js';
import { PIECES, type Piece } from '../pieces.js';
import { ATTACK_TABLES } from '../rules/attack.js';
import type { GarbageEntry } from '../rules/garbage.js';
import type { GamePlacement } from '../rules/types.js';
import type { GameRuleFacts } from './rules-adapter.js';
import { VersusKernel, type VersusSearchSettings } from '../kernels/versus.js';
import { MAX_PIECES, ROOT_HOLD, WEIGHT_COUNT } from '../kernels/versus.js';
import { cellsKey } from './grid.js';
import { MAX_PERFECT_CLEAR_ROWS, findPerfectClear } from './perfect-clear.js';

/**
 * The evaluator's terms, in the kernel's order (assembly/versus/layout.ts W_*). Board terms (of the board a line ends
 * on), then move terms (of each lock, summed along the line).
 */
export interface VersusTerms {
  /** The highest column, plus the garbage rows risen along the line and still waiting. */
  height: number;
  /** Rows of that height over 10, and over 15 (the danger of the top half and the top quarter). */
  overHalf: number;
  overQuarter: number;
  /** Σ |height difference| of neighbouring columns, the well (the lowest column, the rightmost of equals) left out,
   * and the sum of their squares. */
  bumpiness: number;
  bumpinessSq: number;
  /** Changes between filled and empty along each row of the field (the walls filled; an empty row counts 2). */
  rowTransitions: number;
  /** Empty cells under their column's top with no open column beside them (an open column: nothing at or over
   * that row), and those beside one (overhangs a piece can be tucked or spun under). */
  holes: number;
  overhangs: number;
  /** Per column with an empty cell under its top, the cells over the highest such cell (at most 6); and the sum of
   * their squares. */
  covered: number;
  coveredSq: number;
  /** Rows over the well that are full but for it, at most 4 (a Tetris ready). */
  wellDepth: number;
  /** The best T-slot (a T-spin double or triple slot the T can reach from above: docs/game.md) by the rows its T
   * would clear now: 0, 1, 2 or 3. One of the four is 1, or none when the board has no slot. */
  tSlot0: number;
  tSlot1: number;
  tSlot2: number;
  tSlot3: number;
  /** 1 when the line ends with a back-to-back chain alive. */
  backToBack: number;
  /** 1 when the line ends with a T in the hold box; and 1 when it does over a board with a T-slot (the board as it
   * stands, before its T-spin is imagined). */
  holdT: number;
  holdTSlot: number;
  /** Lines a lock sends by the rule set's attack table (before they cancel garbage). */
  attack: number;
  /** 1 for a clear that continues a back-to-back chain. */
  b2bClear: number;
  /** The combo bonus lines of a clear. */
  combo: number;
  /** 1 for a clear that empties the board. */
  perfectClear: number;
  /** 1 for a T that locks without a spin clearing lines. */
  wastedT: number;
  /** 1 for a lock of that clear kind (docs/rules.md, "Clear kinds"). */
  single: number;
  double: number;
  triple: number;
  tetris: number;
  tSpinMini: number;
  tSpinMiniSingle: number;
  tSpinMiniDouble: number;
  tSpin: number;
  tSpinSingle: number;
  tSpinDouble: number;
  tSpinTriple: number;
}

export type VersusWeights = { readonly [K in keyof VersusTerms]: number };

/**
 * The versus evaluator's weights for the guideline rules with 5 previews and hold, chosen by short A/B runs of
 * attack per piece (bench/notes/versus.md; bench/tune-versus.ts searches them).
 */
export const VERSUS_WEIGHTS: VersusWeights = Object.freeze({
  height: -30,
  overHalf: -100,
  overQuarter: -400,
  bumpiness: -20,
  bumpinessSq: -6,
  rowTransitions: -10,
  holes: -200,
  overhangs: -60,
  covered: -20,
  coveredSq: -2,
  wellDepth: 40,
  tSlot0: 20,
  tSlot1: 150,
  tSlot2: 400,
  tSlot3: 500,
  backToBack: 80,
  holdT: 100,
  holdTSlot: 100,
  attack: 100,
  b2bClear: 50,
  combo: 50,
  perfectClear: 1000,
  wastedT: -150,
  single: -150,
  double: -120,
  triple: -80,
  tetris: 100,
  tSpinMini: -20,
  tSpinMiniSingle: -100,
  tSpinMiniDouble: -80,
  tSpin: -20,
  tSpinSingle: 50,
  tSpinDouble: 150,
  tSpinTriple: 200,
});

/** The terms' names in the kernel's order. */
export const VERSUS_TERMS = Object.freeze(Object.keys(VERSUS_WEIGHTS) as (keyof VersusTerms)[]);

/** Largest weight (either sign) a caller may give: keeps every line's value far above a top-out's (-1e9). */
export const MAX_VERSUS_WEIGHT = 100_000;

/**
 * The placements the versus search tries below the first ply: 'quick' gives a piece that cannot spin its hard drops
 * and one-column tucks (every T and every first move still takes the full reachable search), 'full' every
 * reachable placement of every piece (docs/game.md, "The versus policy").
 */
export type VersusPlacements = 'quick' | 'full';
export const VERSUS_PLACEMENTS: readonly VersusPlacements[] = Object.freeze(['quick', 'full']);

/**
 * The tallest perfect clear (rows) the versus policy's finder looks for before the beam search
 * (docs/game.md, "The versus policy"; bench/notes/versus.md, "Perfect clears found exactly").
 */
export const VERSUS_PERFECT_CLEAR_ROWS = 6;
/** The most rows a caller may give the finder. */
export const MAX_VERSUS_PERFECT_CLEAR_ROWS = MAX_PERFECT_CLEAR_ROWS;
/**
 * Positions the finder visits at most in one move (about 75 ms): the most a turn of the policy's games took was 2,494
 * (bench/notes/versus.md, "Perfect clears found exactly").
 */
const PERFECT_CLEAR_NODES = 5_000;

/** The versus search's beam by default: lines kept per ply (bench/notes/versus.md). */
export const VERSUS_BEAM = 32;
/** T-spins the evaluator imagines in a board's T-slots (docs/game.md, "The versus policy"). */
export const VERSUS_TSLOT_CUTS = 1;
/** The beam a caller may give at most. */
export const MAX_VERSUS_BEAM = 4096;

/**
 * `base` with the caller's weights (TetrisAIOptions.versus.weights: some terms by name) in their place, checked:
 * known names, finite numbers within ±MAX_VERSUS_WEIGHT.
 */
export function withVersusWeights(base: VersusWeights, given: unknown, what: string): VersusWeights {
  if (given === undefined) return base;
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what} must be an object of weights by name (${VERSUS_TERMS.join(', ')}); got ${describe(given)}`,
    );
  const unknown = firstUnknownKey(given, VERSUS_TERMS);
  if (unknown !== undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what}: unknown term ${describe(unknown)}; terms are ${VERSUS_TERMS.join(', ')}`,
    );
  const weights: Record<string, number> = { ...base };
  for (const [name, value] of Object.entries(given)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > MAX_VERSUS_WEIGHT)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${what}.${name} must be a finite number from -${MAX_VERSUS_WEIGHT} to ${MAX_VERSUS_WEIGHT}; got ${describe(value)}`,
      );
    weights[name] = value;
  }
  return Object.freeze(weights as VersusWeights);
}

/** The weights as the kernel reads them: one number per term, in its order. */
export function weightVector(w: VersusWeights): Float64Array {
  const out = new Float64Array(WEIGHT_COUNT);
  VERSUS_TERMS.forEach((name, i) => {
    out[i] = w[name];
  });
  return out;
}

/** What a versus search needs besides the position. */
export interface VersusContext {
  width: number;
  /** Rows the placements are reached on (the turn's board height). */
  height: number;
  visibleHeight: number;
  rules: GameRuleFacts;
  beam: number;
  placements: VersusPlacements;
  /** The weights in the kernel's order (weightVector). */
  weights: Float64Array;
  /** T-spins the evaluator imagines in a board's T-slots (default VERSUS_TSLOT_CUTS). */
  tSlotCuts?: number;
  /** The tallest perfect clear the finder looks for, in rows (0: no finder; default VERSUS_PERFECT_CLEAR_ROWS). */
  perfectClearRows?: number;
}

/** A turn as the versus search reads it. */
export interface VersusState {
  rows: Uint32Array;
  current: Piece;
  /** The queue the search sees (the pieces after the current one). */
  queue: readonly Piece[];
  hold: Piece | null;
  canHold: boolean;
  combo: number;
  backToBack: number;
  incoming: readonly GarbageEntry[];
}

export interface VersusChoice {
  hold: boolean;
  placement: GamePlacement;
  value: number;
}

/** The reachable placements of a piece on the root board (the caller's, memoized: the same objects it plays). */
export type RootReach = (piece: Piece) => readonly GamePlacement[];

/**
 * Plies a search places: every known piece, but one fewer when the hold box is empty and hold may be pressed — a
 * line that presses hold then places one piece fewer than the known ones, and lines are compared on equal numbers
 * of pieces placed (else a line that holds a T over an open slot, and places a piece fewer, looks better than the
 * T-spin it puts off).
 */
export function versusDepth(pieces: number, hold: Piece | null, holdAllowed: boolean): number {
  return hold === null && holdAllowed && pieces > 1 ? pieces - 1 : pieces;
}

function settings(ctx: VersusContext, state: VersusState, pieces: number): VersusSearchSettings {
  const table = ctx.rules.ruleSet.attack;
  if (!table) throw new StackRankError('BAD_RULES', `the ${ctx.rules.name} rule set has no attack table`);
  return {
    width: ctx.width,
    visibleHeight: ctx.visibleHeight,
    height: ctx.height,
    rules: ctx.rules.ruleSet,
    holdAllowed: ctx.rules.hold,
    depth: versusDepth(pieces, state.hold, ctx.rules.hold),
    beam: ctx.beam,
    quick: ctx.placements === 'quick',
    tSlotCuts: ctx.tSlotCuts ?? VERSUS_TSLOT_CUTS,
    weights: ctx.weights,
    attack: ATTACK_TABLES[table],
  };
}

function position(state: VersusState) {
  const sequence = [state.current, ...state.queue].slice(0, MAX_PIECES).map((p) => PIECES.indexOf(p));
  return {
    rows: state.rows,
    sequence,
    hold: state.hold === null ? -1 : PIECES.indexOf(state.hold),
    canHold: state.canHold,
    combo: state.combo,
    backToBack: state.backToBack,
    incoming: state.incoming,
  };
}

/** The root move a code names: hold or not, and the placement (an object of `rootReach`). */
function rootChoice(state: VersusState, code: number, rootReach: RootReach): Omit<VersusChoice, 'value'> {
  const hold = code >= ROOT_HOLD;
  const piece = !hold ? state.current : (state.hold ?? state.queue[0]);
  const placement = rootReach(piece)[code % ROOT_HOLD];
  if (!placement) throw new Error(`the versus search chose placement ${code % ROOT_HOLD} of ${piece}, which has none`);
  return { hold, placement };
}

/** The first move of the best line, or null when no piece the turn allows has a reachable placement. */
export function versusMove(ctx: VersusContext, state: VersusState, rootReach: RootReach): VersusChoice | null {
  const p = position(state);
  const r = VersusKernel.get().search(settings(ctx, state, p.sequence.length), p);
  if (r.root < 0) return null;
  return { ...rootChoice(state, r.root, rootReach), value: r.value };
}

/**
 * The first move of a perfect clear the known pieces make (the finder: src/tetris-ai/perfect-clear.ts), a shortest
 * one, valued as versusMove values a move (the best line the search finds after it; with `moveOnly`, for a caller
 * that reads no value, not searched: 0); null when the board stands over the finder's rows, garbage is waiting (it
 * would rise under the line), or the known pieces make none.
 */
export function versusPerfectClear(
  ctx: VersusContext,
  state: VersusState,
  rootReach: RootReach,
  moveOnly = false,
): VersusChoice | null {
  const rows = ctx.perfectClearRows ?? VERSUS_PERFECT_CLEAR_ROWS;
  if (rows === 0 || state.incoming.length > 0) return null;
  const found = findPerfectClear({
    rows: state.rows,
    width: ctx.width,
    height: ctx.height,
    rules: ctx.rules,
    current: state.current,
    queue: state.queue,
    hold: state.hold,
    canHold: state.canHold && ctx.rules.hold,
    maxLines: rows,
    maxNodes: PERFECT_CLEAR_NODES,
  }).line;
  if (!found) return null;
  const step = found.steps[0];
  const key = cellsKey(step.cells);
  const list = rootReach(step.piece);
  const index = list.findIndex((p) => cellsKey(p.cells) === key);
  if (index < 0) throw new Error(`the perfect-clear finder placed ${step.piece} where the piece cannot reach`);
  if (moveOnly) return { hold: step.hold, placement: list[index], value: 0 };
  const p = position(state);
  const r = VersusKernel.get().search(settings(ctx, state, p.sequence.length), p, (step.hold ? ROOT_HOLD : 0) + index);
  return { hold: step.hold, placement: list[index], value: r.value };
}

/** Every root move (without hold, then with), each valued by the best line the search finds after it. */
export function versusRootValues(ctx: VersusContext, state: VersusState, rootReach: RootReach): VersusChoice[] {
  const p = position(state);
  const s = settings(ctx, state, p.sequence.length);
  const kernel = VersusKernel.get();
  const out: VersusChoice[] = [];
  const options: { hold: boolean; piece: Piece }[] = [{ hold: false, piece: state.current }];
  if (state.canHold && ctx.rules.hold) {
    if (state.hold !== null) {
      if (state.hold !== state.current) options.push({ hold: true, piece: state.hold });
    } else if (state.queue.length > 0) options.push({ hold: true, piece: state.queue[0] });
  }
  for (const { hold, piece } of options) {
    const list = rootReach(piece);
    for (let i = 0; i < list.length; i++) {
      const r = kernel.search(s, p, (hold ? ROOT_HOLD : 0) + i);
      out.push({ hold, placement: list[i], value: r.value });
    }
  }
  return out;
}
