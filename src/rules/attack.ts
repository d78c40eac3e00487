/**
 * Attack (docs/rules.md, "Versus"): what a lock sends to the opponent. A lock's clear kind follows from the lines it
 * cleared and its spin; its attack from the clear kind, the back-to-back chain, the combo and a perfect clear, by
 * an attack table: data, one per game (`ATTACK_TABLES`), named by a rule set's `attack` field.
 *
 * Counters, as the Tetris Bot Protocol counts them: `combo` is the number of line clears in a row up to now (0: the
 * last lock cleared nothing); `backToBack` the number of difficult clears (a Tetris, or a spin that clears lines) in
 * a row up to now, counting from the last easy clear (0: none since; a lock that clears nothing keeps it).
 */
import { StackRankError, describe } from '../errors.js';
import type { Spin } from './types.js';

/** What a lock clears, by lines and spin (`tSpin…` names: under the guideline only the T spins). */
export type ClearKind =
  | 'none'
  | 'single'
  | 'double'
  | 'triple'
  | 'tetris'
  | 'tSpinMini'
  | 'tSpinMiniSingle'
  | 'tSpinMiniDouble'
  | 'tSpin'
  | 'tSpinSingle'
  | 'tSpinDouble'
  | 'tSpinTriple';

/** Clear kinds by spin, then lines cleared (0..4; a spin clears at most 3 lines, a mini at most 2). */
const KINDS: Readonly<Record<Spin, readonly ClearKind[]>> = Object.freeze({
  none: ['none', 'single', 'double', 'triple', 'tetris'],
  mini: ['tSpinMini', 'tSpinMiniSingle', 'tSpinMiniDouble'],
  full: ['tSpin', 'tSpinSingle', 'tSpinDouble', 'tSpinTriple'],
});

export const CLEAR_KINDS: readonly ClearKind[] = Object.freeze([...KINDS.none, ...KINDS.mini, ...KINDS.full]);

/** The attack tables, by name (a rule set's `attack`). */
export type AttackTableName = 'guideline' | 'tetrio';

/**
 * An attack table. `base` is what each clear kind sends; `backToBack` the bonus of a difficult clear that follows
 * another (`flat`: `bonus` lines; `tetrioChain`: TETR.IO's chaining, growing with the chain's length); `combo` the
 * bonus of a clear that follows clears (`table`: lines by the number of clears before it, the last entry for longer
 * combos; `tetrioMultiplier`: TETR.IO's multiplier); `perfectClear` what a clear that empties the board sends
 * (`replace`: that many lines instead of everything else; `add`: that many more).
 */
export interface AttackTable {
  readonly name: AttackTableName;
  readonly base: Readonly<Record<ClearKind, number>>;
  readonly backToBack: { readonly kind: 'flat'; readonly bonus: number } | { readonly kind: 'tetrioChain' };
  readonly combo: { readonly kind: 'table'; readonly table: readonly number[] } | { readonly kind: 'tetrioMultiplier' };
  readonly perfectClear: { readonly lines: number; readonly mode: 'replace' | 'add' };
}

/** The guideline's and TETR.IO's base attacks agree (docs/rules.md, "Versus", gives the sources). */
const GUIDELINE_BASE: Readonly<Record<ClearKind, number>> = Object.freeze({
  none: 0,
  single: 0,
  double: 1,
  triple: 2,
  tetris: 4,
  tSpinMini: 0,
  tSpinMiniSingle: 0,
  tSpinMiniDouble: 1,
  tSpin: 0,
  tSpinSingle: 2,
  tSpinDouble: 4,
  tSpinTriple: 6,
});

export const ATTACK_TABLES: Readonly<Record<AttackTableName, AttackTable>> = Object.freeze({
  // The guideline as Cold Clear's libtetris counts it (the table the anchors were measured with).
  guideline: Object.freeze({
    name: 'guideline',
    base: GUIDELINE_BASE,
    backToBack: Object.freeze({ kind: 'flat', bonus: 1 }),
    combo: Object.freeze({ kind: 'table', table: Object.freeze([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5]) }),
    perfectClear: Object.freeze({ lines: 10, mode: 'replace' }),
  }),
  // TETR.IO's TETRA LEAGUE before its 2024 season 2 (combo "multiplier", back-to-back chaining, all clear 10).
  tetrio: Object.freeze({
    name: 'tetrio',
    base: GUIDELINE_BASE,
    backToBack: Object.freeze({ kind: 'tetrioChain' }),
    combo: Object.freeze({ kind: 'tetrioMultiplier' }),
    perfectClear: Object.freeze({ lines: 10, mode: 'add' }),
  }),
});

export const ATTACK_TABLE_NAMES: readonly AttackTableName[] = Object.freeze(
  Object.keys(ATTACK_TABLES) as AttackTableName[],
);

/** The versus counters a lock reads and updates (see the top of this file). */
export interface VersusState {
  readonly combo: number;
  readonly backToBack: number;
}

/** What a lock did, as the attack arithmetic reads it. */
export interface LockResult {
  /** Lines the lock cleared, 0..4. */
  readonly lines: number;
  readonly spin: Spin;
  /** Whether the board is empty after the lines cleared. */
  readonly perfectClear: boolean;
}

export interface LockOutcome {
  readonly kind: ClearKind;
  /** Lines the lock sends, before they cancel incoming garbage (docs/rules.md, "Garbage"). */
  readonly attack: number;
  /** Whether the lock continued a back-to-back chain (its attack holds the bonus). */
  readonly backToBackBonus: boolean;
  /** The counters after the lock. */
  readonly state: VersusState;
}

/** The largest combo or back-to-back count taken (a game's counters never come near it). */
export const MAX_VERSUS_COUNT = 0x7fffffff;

/** The clear kind of a lock, or undefined for a combination no lock makes (a mini over 2 lines, a spin over 3). */
export function clearKindOf(lines: number, spin: Spin): ClearKind | undefined {
  return KINDS[spin]?.[lines];
}

const DIFFICULT: ReadonlySet<ClearKind> = new Set<ClearKind>([
  'tetris',
  'tSpinMiniSingle',
  'tSpinMiniDouble',
  'tSpinSingle',
  'tSpinDouble',
  'tSpinTriple',
]);

/** Whether a clear kind continues (or starts) a back-to-back chain: a Tetris, or a spin that clears lines. */
export function isDifficult(kind: ClearKind): boolean {
  return DIFFICULT.has(kind);
}

/**
 * The lines a lock sends under `table`, on checked arguments: `kind` and `perfectClear` as the lock made them,
 * `combo` and `backToBack` the counters before it. The arithmetic every versus part of the library shares.
 */
export function lockAttack(
  table: AttackTable,
  kind: ClearKind,
  perfectClear: boolean,
  combo: number,
  backToBack: number,
): number {
  const clears = kind !== 'none' && kind !== 'tSpin' && kind !== 'tSpinMini';
  if (!clears) return table.base[kind];
  const bonus = isDifficult(kind) && backToBack > 0;
  // TETR.IO's parts follow its garbage formula as public reimplementations of its client read it (docs/rules.md): the back-to-back bonus grows with the chain's length; a
  // combo multiplies the attack by 1 + 0.25 per clear before it and, from the third clear on, sends at least
  // ln(1 + 1.25 × combo); the sum is rounded down.
  let g = table.base[kind];
  if (bonus) {
    if (table.backToBack.kind === 'flat') g += table.backToBack.bonus;
    else {
      const log = Math.log1p(backToBack * 0.8);
      g += Math.floor(1 + log) + (backToBack === 1 ? 0 : (1 + (log % 1)) / 3);
    }
  }
  if (table.combo.kind === 'table') g += table.combo.table[Math.min(combo, table.combo.table.length - 1)];
  else if (combo > 0) {
    g *= 1 + 0.25 * combo;
    if (combo > 1) g = Math.max(Math.log1p(1.25 * combo), g);
  }
  const attack = Math.floor(g);
  return perfectClear ? pc(table, attack) : attack;
}

function pc(table: AttackTable, attack: number): number {
  return table.perfectClear.mode === 'replace' ? table.perfectClear.lines : attack + table.perfectClear.lines;
}

/** The counters after a lock of this kind. */
export function nextVersusState(kind: ClearKind, state: VersusState): VersusState {
  if (kind === 'none' || kind === 'tSpin' || kind === 'tSpinMini') return { combo: 0, backToBack: state.backToBack };
  return {
    combo: Math.min(state.combo + 1, MAX_VERSUS_COUNT),
    backToBack: isDifficult(kind) ? Math.min(state.backToBack + 1, MAX_VERSUS_COUNT) : 0,
  };
}

/** An attack table by name, or a table checked to be one of ATTACK_TABLES. Throws BAD_RULES naming the names. */
export function resolveAttackTable(table: unknown): AttackTable {
  if (typeof table === 'string' && Object.hasOwn(ATTACK_TABLES, table)) return ATTACK_TABLES[table as AttackTableName];
  if (table !== null && typeof table === 'object' && Object.values(ATTACK_TABLES).includes(table as AttackTable))
    return table as AttackTable;
  throw new StackRankError(
    'BAD_RULES',
    `an attack table is one of ${ATTACK_TABLE_NAMES.join(', ')} (or ATTACK_TABLES' entry); got ${describe(table)}`,
  );
}

/** A versus counter (combo, backToBack): an integer from 0 to MAX_VERSUS_COUNT. */
export function checkVersusCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_VERSUS_COUNT)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${name} must be an integer from 0 to ${MAX_VERSUS_COUNT} (${name === 'combo' ? 'line clears in a row' : 'difficult clears in a row'}); got ${describe(value)}`,
    );
  return value;
}

/**
 * What a lock sends and the counters after it (docs/rules.md, "Versus"): `lock` is what it cleared (`lines` 0..4,
 * its `spin`, whether it left the board empty), `state` the counters before it, `table` an attack table or its
 * name. Throws BAD_ARGUMENT for a lock no piece makes (a mini over 2 lines, a spin over 3, a perfect clear without
 * lines) and BAD_RULES for an unknown table.
 *
 *   lockOutcome({ lines: 2, spin: 'full', perfectClear: false }, { combo: 0, backToBack: 1 }, 'guideline')
 *   // → { kind: 'tSpinDouble', attack: 5, backToBackBonus: true, state: { combo: 1, backToBack: 2 } }
 */
export function lockOutcome(lock: LockResult, state: VersusState, table: AttackTable | AttackTableName): LockOutcome {
  const t = resolveAttackTable(table);
  if (lock === null || typeof lock !== 'object')
    throw new StackRankError('BAD_ARGUMENT', `a lock is { lines, spin, perfectClear }; got ${describe(lock)}`);
  if (state === null || typeof state !== 'object')
    throw new StackRankError('BAD_ARGUMENT', `a versus state is { combo, backToBack }; got ${describe(state)}`);
  const { lines, spin, perfectClear } = lock;
  if (typeof lines !== 'number' || !Number.isInteger(lines) || lines < 0 || lines > 4)
    throw new StackRankError('BAD_ARGUMENT', `lock.lines must be an integer from 0 to 4; got ${describe(lines)}`);
  if (spin !== 'none' && spin !== 'mini' && spin !== 'full')
    throw new StackRankError('BAD_ARGUMENT', `lock.spin must be 'none', 'mini' or 'full'; got ${describe(spin)}`);
  if (typeof perfectClear !== 'boolean')
    throw new StackRankError('BAD_ARGUMENT', `lock.perfectClear must be true or false; got ${describe(perfectClear)}`);
  const kind = clearKindOf(lines, spin);
  if (kind === undefined)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `no piece locks a ${spin} spin clearing ${lines} lines (a mini clears at most 2, a full spin at most 3)`,
    );
  if (perfectClear && lines === 0)
    throw new StackRankError('BAD_ARGUMENT', 'a perfect clear clears lines; got lock.lines 0');
  const combo = checkVersusCount('combo', state.combo);
  const backToBack = checkVersusCount('backToBack', state.backToBack);
  return {
    kind,
    attack: lockAttack(t, kind, perfectClear, combo, backToBack),
    backToBackBonus: isDifficult(kind) && backToBack > 0,
    state: nextVersusState(kind, { combo, backToBack }),
  };
}
