/**
 * Strength levels (docs/game.md, "Strength"): TetrisAI.create({ strength }) from 1 to 10, 10 the AI's own play. A
 * weaker level plays the mistakes a weaker player makes, not random ones: it looks fewer pieces ahead, trusts no
 * randomizer, lets the stack grow closer to the top, recovers with a narrower search, now and then forgets hold,
 * and on some moves settles for one of the nearly-best moves, chosen with a temperature that grows as the level
 * falls. Every choice is drawn from a generator seeded by the AI's `seed` and the position (and a session's turn), so
 * a seed plays the same moves. The levels' figures (bench/strength.ts): docs/game.md, "Strength".
 */
import { StackRankError, describe, requireInt } from '../errors.js';
import { PIECES, type Piece } from '../pieces.js';
import { Rng, checkSeed } from '../random.js';
import type { GamePlacement } from '../rules/types.js';
import type { Decision, SearchSettings } from './decision.js';
import { cellsKey } from './grid.js';
import { MAX_STACK_ROOM, MIN_STACK_ROOM } from './policy.js';
import { TOPPED_OUT_VALUE, expectedPiecesFromRank, leavesCellAbove, type RankedField } from './rank-placements.js';
import { recoverRootValues } from './recover.js';
import { scoreStackMoves } from './stack.js';

export const MIN_STRENGTH = 1;
export const MAX_STRENGTH = 10;

/** What a level changes. Level 10 changes nothing. */
export interface StrengthProfile {
  /** Most queue pieces the stack search looks at (the AI's lookahead when higher is cut to this). */
  lookahead: number;
  /** Whether the randomizer's chances are used (else the stack search averages over uniform chances). */
  chances: boolean;
  /** Rows fewer the stack keeps free under the top than the AI's own room (at least MIN_STACK_ROOM remain). */
  roomLess: number;
  /** The recover search at most: pieces searched, lines kept per level, chance-ply lines. */
  recover: { depth: number; beam: number; chance: number };
  /** Chance per turn that hold is not thought of. */
  holdMissed: number;
  /** Chance per turn of settling for a nearly-best move instead of the best. */
  slip: number;
  /**
   * The temperature of that choice: a move loses weight as exp(-loss / temperature), its loss in stack mode a
   * fraction of the best move's expected survival, in recover mode in evaluator points over 100.
   */
  temperature: number;
}

const FULL = Number.POSITIVE_INFINITY;

/** Levels 1 to 9 (index 0 is level 1); calibrated by bench/strength.ts (docs/game.md, "Strength"). */
export const STRENGTH_PROFILES: readonly StrengthProfile[] = [
  {
    lookahead: 0,
    chances: false,
    roomLess: 4,
    recover: { depth: 1, beam: 1, chance: 0 },
    holdMissed: 0.5,
    slip: 0.65,
    temperature: 1,
  },
  {
    lookahead: 0,
    chances: false,
    roomLess: 3,
    recover: { depth: 1, beam: 1, chance: 0 },
    holdMissed: 0.4,
    slip: 0.55,
    temperature: 0.6,
  },
  {
    lookahead: 0,
    chances: false,
    roomLess: 2,
    recover: { depth: 1, beam: 2, chance: 0 },
    holdMissed: 0.3,
    slip: 0.5,
    temperature: 0.4,
  },
  {
    lookahead: 0,
    chances: false,
    roomLess: 1,
    recover: { depth: 1, beam: 4, chance: 0 },
    holdMissed: 0.2,
    slip: 0.45,
    temperature: 0.3,
  },
  {
    lookahead: 0,
    chances: false,
    roomLess: 1,
    recover: { depth: 2, beam: 4, chance: 0 },
    holdMissed: 0.15,
    slip: 0.45,
    temperature: 0.25,
  },
  {
    lookahead: 1,
    chances: false,
    roomLess: 1,
    recover: { depth: 2, beam: 6, chance: 0 },
    holdMissed: 0.12,
    slip: 0.45,
    temperature: 0.25,
  },
  {
    lookahead: FULL,
    chances: false,
    roomLess: 0,
    recover: { depth: FULL, beam: FULL, chance: FULL },
    holdMissed: 0.08,
    slip: 0.3,
    temperature: 0.15,
  },
  {
    lookahead: FULL,
    chances: true,
    roomLess: 0,
    recover: { depth: FULL, beam: FULL, chance: FULL },
    holdMissed: 0.05,
    slip: 0.25,
    temperature: 0.12,
  },
  {
    lookahead: FULL,
    chances: true,
    roomLess: 0,
    recover: { depth: FULL, beam: FULL, chance: FULL },
    holdMissed: 0.02,
    slip: 0.15,
    temperature: 0.08,
  },
];

/** TetrisAIOptions.strength checked (default 10). */
export function checkStrength(value: unknown): number {
  return value === undefined ? MAX_STRENGTH : requireInt('strength', value, MIN_STRENGTH, MAX_STRENGTH);
}

/** TetrisAIOptions.seed checked (default 0); only a level under 10 draws from it. */
export function checkStrengthSeed(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number')
    throw new StackRankError('BAD_ARGUMENT', `seed must be a safe integer; got ${describe(value)}`);
  return checkSeed(value);
}

/** A level's profile, or null for level 10 (the AI's own play). */
export function strengthProfile(strength: number): StrengthProfile | null {
  return strength >= MAX_STRENGTH ? null : STRENGTH_PROFILES[strength - MIN_STRENGTH];
}

/** A level's stack room: the AI's own rows free under the top, fewer by the profile's, within the allowed range. */
export function weakerRoom(room: number, profile: StrengthProfile | null): number {
  if (!profile) return room;
  return Math.min(MAX_STACK_ROOM, Math.max(MIN_STACK_ROOM, room - profile.roomLess));
}

/** A level's search: the AI's own, no deeper than the profile's. */
export function weakerSearch(own: SearchSettings, profile: StrengthProfile | null): SearchSettings {
  if (!profile) return own;
  const { recover } = profile;
  return {
    lookahead: Math.min(own.lookahead, profile.lookahead),
    recoverDepth: Math.min(own.recoverDepth, recover.depth),
    search: { beam: Math.min(own.search.beam, recover.beam), chance: Math.min(own.search.chance, recover.chance) },
    // The wider search near the top is the full search's.
    nearTop: recover.beam === FULL ? own.nearTop : null,
  };
}

/**
 * The generator of one turn's choices: seeded by the AI's seed, the board's rows, the pieces and `salt` (a session's
 * turn), so the same position plays the same move for a seed, whatever came before it.
 */
export function turnRandom(
  seed: number,
  rows: Uint32Array,
  height: number,
  pieces: readonly (Piece | null)[],
  salt: number,
): Rng {
  let h = 0x811c9dc5 ^ seed;
  const mix = (v: number) => {
    h = Math.imul(h ^ v, 0x01000193) >>> 0;
    h = (h ^ (h >>> 15)) >>> 0;
  };
  mix(salt);
  for (let y = 0; y < height; y++) mix(rows[y]);
  for (const p of pieces) mix(p === null ? 7 : PIECES.indexOf(p));
  return new Rng(h);
}

/** A candidate move for a slip: its value in the mode's unit, and whether the game ends with it. */
export interface SlipCandidate {
  value: number;
  topsOut: boolean;
}

/** A move a slip settles for: with or without hold, where, and its value in nextMove's unit. */
export interface SlippedMove {
  hold: boolean;
  placement: GamePlacement;
  value: number;
}

/**
 * The move a slip settles for, from what the turn's search decided (`d`): every first move valued as rankPlacements
 * values it (stack mode: expected pieces, from the rank of the line after it; recover mode: the evaluator's value of
 * the best line after it), chosen by slipChoice. Null when the search found no move, or none besides its own.
 */
export function slipMove(
  d: Decision,
  iterations: number,
  field: RankedField,
  temperature: number,
  rng: Rng,
): SlippedMove | null {
  const own = d.move;
  // goal 'versus' plays at its own strength only (TetrisAI.create refuses `strength` there)
  if (!own || own.mode === 'versus') return null;
  const ownKey = moveKey(own.hold, own.cells);
  /** Each first move: the move (its value in nextMove's unit) and its slip candidate (in rankPlacements' unit). */
  const moves: { move: SlippedMove; candidate: SlipCandidate }[] = [];
  const add = (move: SlippedMove, inUnit: number, toppedOut: boolean) => {
    const entry = {
      move,
      candidate: { value: inUnit, topsOut: toppedOut || leavesCellAbove(d.rows, field, move.placement.cells) },
    };
    // The AI's own move first: a slip measures every loss from it.
    if (moveKey(move.hold, move.placement.cells) === ownKey) moves.unshift(entry);
    else moves.push(entry);
  };
  if (d.stack) {
    const { ctx, choice } = d.stack;
    for (const m of scoreStackMoves(ctx, d.rows, d.options, choice.side)) {
      const pieces = m.depth < m.window ? m.depth : m.depth + expectedPiecesFromRank(m.value, iterations);
      add({ hold: m.option.hold, placement: m.placement, value: m.value }, pieces, false);
    }
  } else if (d.recover) {
    for (const c of recoverRootValues(d.recover.ctx, d.recover.state, d.reachRoot))
      add(c, c.value, c.value <= TOPPED_OUT_VALUE);
  }
  if (moves.length < 2 || moveKey(moves[0].move.hold, moves[0].move.placement.cells) !== ownKey) return null;
  return moves[
    slipChoice(
      moves.map((m) => m.candidate),
      own.mode,
      temperature,
      rng,
    )
  ].move;
}

function moveKey(hold: boolean, cells: GamePlacement['cells']): string {
  return `${hold ? 'h' : '-'}${cellsKey(cells)}`;
}

/** Candidates a slip chooses among: the best few. */
const SLIP_CANDIDATES = 8;
/** A recover loss counts in evaluator points over this (about what a new hole costs). */
const RECOVER_LOSS_UNIT = 100;

/**
 * The index of the move a slip settles for among `candidates` (the first is the AI's own move; stack mode's values are
 * expected pieces, recover mode's evaluator points): each of the best few that does not top out (when the AI's own
 * does not) weighs exp(-loss / temperature).
 */
export function slipChoice(
  candidates: readonly SlipCandidate[],
  mode: 'stack' | 'recover',
  temperature: number,
  rng: Rng,
): number {
  if (candidates.length < 2) return 0;
  const best = candidates[0];
  const order = candidates
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => best.topsOut || !c.topsOut)
    .sort((a, b) => b.c.value - a.c.value || a.i - b.i)
    .slice(0, SLIP_CANDIDATES);
  const top = Math.max(best.value, order[0]?.c.value ?? best.value);
  const scale = mode === 'stack' ? Math.max(Math.abs(top), 1) : RECOVER_LOSS_UNIT;
  const weights = order.map(({ c }) => Math.exp(-Math.max(0, top - c.value) / scale / temperature));
  let u = rng.nextFloat() * weights.reduce((a, b) => a + b, 0);
  for (let k = 0; k < order.length; k++) {
    u -= weights[k];
    if (u < 0) return order[k].i;
  }
  return order[order.length - 1]?.i ?? 0;
}
