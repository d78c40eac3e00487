/**
 * Reading a RandomizerState back: every field is checked, so a corrupted or hand-edited snapshot fails with a
 * BAD_ARGUMENT that names the field instead of producing a generator that deals garbage.
 */
import { StackRankError, describe, firstHole } from '../errors.js';
import { PIECE_COUNT } from '../pieces.js';
import { Rng } from '../random.js';
import type { RandomizerStateOf as RandomizerState } from './types.js';

function bad(state: RandomizerState, what: string): never {
  throw new StackRankError('BAD_ARGUMENT', `${state.name} state: ${what}`);
}

export function rngFromState(state: RandomizerState): Rng {
  const words = state.rng;
  if (
    !Array.isArray(words) ||
    words.length !== 4 ||
    firstHole(words) >= 0 ||
    !words.every((w) => Number.isInteger(w) && w >= 0 && w < 2 ** 32)
  ) {
    bad(state, `rng must be four unsigned 32-bit integers; got ${describe(words)}`);
  }
  return new Rng(words as [number, number, number, number]);
}

/** A list of piece ids (0..6, or -1 where `allowNone`), of exactly `length` entries when given. */
export function pieceIdList(state: RandomizerState, field: string, length?: number, allowNone = false): number[] {
  return checkPieceIds(state, field, state[field], length, allowNone);
}

/** Like pieceIdList, for a value found elsewhere in the state (`label` names it in the error). */
export function checkPieceIds(
  state: RandomizerState,
  label: string,
  value: unknown,
  length?: number,
  allowNone = false,
): number[] {
  const min = allowNone ? -1 : 0;
  if (
    !Array.isArray(value) ||
    (length !== undefined && value.length !== length) ||
    firstHole(value) >= 0 ||
    !value.every((v) => Number.isInteger(v) && v >= min && v < PIECE_COUNT)
  ) {
    bad(
      state,
      `${label} must be ${length ?? 'a list of'} piece ids ${min}..${PIECE_COUNT - 1}; got ${describe(value)}`,
    );
  }
  return value as number[];
}

export function booleanField(state: RandomizerState, field: string): boolean {
  const value = state[field];
  if (typeof value !== 'boolean') bad(state, `${field} must be true or false; got ${describe(value)}`);
  return value;
}

export function numberList(state: RandomizerState, field: string, length: number): number[] {
  const value = state[field];
  if (
    !Array.isArray(value) ||
    value.length !== length ||
    firstHole(value) >= 0 ||
    !value.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0)
  ) {
    bad(state, `${field} must be ${length} finite non-negative numbers; got ${describe(value)}`);
  }
  return value as number[];
}

export function invalidState(state: RandomizerState, what: string): never {
  bad(state, what);
}

/** A single piece id field (0..6, or -1 where `allowNone`). */
export function pieceIdField(state: RandomizerState, field: string, allowNone = false): number {
  const value = state[field];
  const min = allowNone ? -1 : 0;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) >= PIECE_COUNT) {
    bad(state, `${field} must be a piece id ${min}..${PIECE_COUNT - 1}; got ${describe(value)}`);
  }
  return value as number;
}
