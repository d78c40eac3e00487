/**
 * The TypeScript↔WebAssembly memory layouts are defined once, in assembly/<kernel>/layout.ts, and imported by both
 * the kernel and src/. Each kernel also exports every one of those constants as a WebAssembly global; this test
 * checks, for every variant of the built kernel, that each field the compiled kernel carries equals the value
 * TypeScript reads (a kernel built from an older layout, or a constant AssemblyScript evaluates differently, fails).
 */
import { describe, expect, it } from 'vitest';
import * as fullboardLayout from '../assembly/fullboard/layout.js';
import * as rankLayout from '../assembly/rank/layout.js';
import { SEARCH_MOVES } from '../src/rules/geometry.js';
import * as reachableLayout from '../assembly/reachable/layout.js';
import * as recoverLayout from '../assembly/recover/layout.js';
import * as searchLayout from '../assembly/search/layout.js';
import * as versusLayout from '../assembly/versus/layout.js';
import { compileKernel, createMemory, instantiateOver, type KernelName } from '../src/kernels/wasm.js';

const VARIANTS = [
  { shared: true, simd: true },
  { shared: true, simd: false },
  { shared: false, simd: true },
  { shared: false, simd: false },
];

async function kernelGlobals(name: KernelName, shared: boolean, simd: boolean): Promise<Map<string, number>> {
  const module = await compileKernel(name, { shared, simd });
  const memory = createMemory(shared);
  const exports = await instantiateOver<Record<string, WebAssembly.Global>>(module, memory);
  const out = new Map<string, number>();
  for (const { name: field, kind } of WebAssembly.Module.exports(module)) {
    if (kind === 'global') out.set(field, exports[field].value as number);
  }
  return out;
}

function numericFields(layout: Record<string, unknown>): [string, number][] {
  return Object.entries(layout).filter((e): e is [string, number] => typeof e[1] === 'number');
}

describe.each([
  ['search', searchLayout as Record<string, unknown>],
  ['fullboard', fullboardLayout as Record<string, unknown>],
  ['rank', rankLayout as Record<string, unknown>],
  ['reachable', reachableLayout as Record<string, unknown>],
  ['recover', recoverLayout as Record<string, unknown>],
  ['versus', versusLayout as Record<string, unknown>],
] as const)('the %s kernel and TypeScript read one layout', (name, layout) => {
  it.each(VARIANTS)('every field agrees (shared memory $shared, SIMD $simd)', async ({ shared, simd }) => {
    const globals = await kernelGlobals(name, shared, simd);
    const fields = numericFields(layout);
    expect(fields.length).toBeGreaterThan(15);
    for (const [field, value] of fields) expect([field, globals.get(field)]).toEqual([field, value]);
    // and the kernel carries no layout constant that TypeScript does not know
    for (const field of globals.keys()) expect(layout).toHaveProperty(field);
  });
});

describe('the search layout fits together', () => {
  const L = searchLayout;
  it('i64 fields of the context are 8-byte aligned', () => {
    for (const field of [L.CTX_BEST_VALUE, L.CTX_NODES, L.CTX_LEAF_PATH, L.CTX_MEMO]) expect(field % 2).toBe(0);
  });
  it('the mirrored weights mirror every block of CTX_WEIGHTS and CTX_WEIGHTS2, which follow each other', () => {
    expect(L.CTX_WEIGHTS2).toBe(L.CTX_WEIGHTS + 8);
    expect(L.CTX_WEIGHTS_MIRROR - L.CTX_WEIGHTS).toBe(L.WEIGHT_WORDS_EXPECT2);
    expect(L.CTX_LEAF_COUNT - L.CTX_WEIGHTS_MIRROR).toBe(L.WEIGHT_WORDS_EXPECT2);
  });
  it('a game record leaves room for a heights array before its first field', () => {
    expect(L.G_PIECES - L.G_HEIGHTS).toBe(L.HEIGHTS_WORDS);
    expect(L.GAME_WORDS).toBe(L.G_WEIGHTS + 1);
  });
  it('the placement record and the config end where their sizes say', () => {
    expect(L.PL_WORDS).toBe(
      Math.max(
        L.PL_X,
        L.PL_WIDTH,
        L.PL_BOT + 3,
        L.PL_TOP + 3,
        L.PL_FIT_SHIFT,
        L.PL_FIT_MASK,
        L.PL_FIT_PATTERN,
        L.PL_MAX_TOP,
        L.PL_INNER_INDEX,
        L.PL_INNER_EXCESS,
        L.PL_MIN_TOP,
      ) + 1,
    );
    expect(L.CFG_WORDS).toBe(L.CFG_WELL_FACTOR + 1);
    expect(L.CFG_WELL_FACTOR).toBe(L.CFG_WELL_COMBOS + 1);
    expect(L.CFG_WELL_COMBOS).toBe(L.CFG_WELL_WINDOW + 1);
    expect(L.CFG_WELL_WINDOW).toBe(L.CFG_ROWS_FOLD + 1);
    expect(L.CFG_ROWS_FOLD).toBe(L.CFG_REACH_BOXES + 1);
    // The fold block: three numbers, then a mirror slot per leaf-row slot.
    expect(L.FOLD_WORDS).toBe(Math.max(L.FOLD_MIDDLE, L.FOLD_LOW_BITS, L.FOLD_MIDDLE_BITS) + 1 + L.LEAF_ROW_SLOTS);
    expect(L.FOLD_MIRROR_SLOT).toBe(L.FOLD_WORDS - L.LEAF_ROW_SLOTS);
    expect(L.RC_WORDS).toBe(Math.max(L.RC_FIRST, L.RC_LAST, L.RC_HEIGHT_LIMIT, L.RC_BOX_START, L.RC_BOX_COUNT) + 1);
    // A reach digit (at most 2S + 2 = 10) plus the guard never carries into the next field.
    expect(L.REACH_GUARD + 10).toBeLessThan(1 << L.REACH_DIGIT_BITS);
    expect(L.REACH_DIGITS * L.REACH_DIGIT_BITS).toBeLessThanOrEqual(64);
  });
});

describe('the rank layout fits together', () => {
  it('the plan header ends where its size says, and the u16 build has two move slots per piece', () => {
    const L = rankLayout;
    expect(L.PLAN_WORDS).toBe(L.PLAN_LIST_OK + 1);
    expect(L.SLOTS_PER_PIECE).toBe(2);
  });
});

describe('the reachable layout fits together', () => {
  const L = reachableLayout;
  it('the context blocks lie in order, none overlapping the next, all inside CTX_BYTES', () => {
    const blocks: [string, number, number][] = [
      ['params', L.O_WIDTH, L.PARAM_WORDS * 4],
      ['stamp', L.O_STAMP, 4],
      ['board', L.O_BOARD, L.MAX_BOARD_ROWS * 4],
      ['rows', L.O_ROWS, L.ROW_SLOTS * 4],
      ['cols', L.O_COLS, L.COLUMN_SLOTS * 8],
      ['queue', L.O_QUEUE, L.STATE_COUNT * 2],
      ['visit', L.O_VISIT, L.STATE_COUNT * 2],
      ['parent', L.O_PARENT, L.STATE_COUNT * 2],
      ['via', L.O_VIA, L.STATE_COUNT],
      ['seen', L.O_SEEN, L.STATE_COUNT * 2],
      ['out', L.O_OUT, L.MAX_PLACEMENTS * L.OUT_WORDS * 4],
      ['fit', L.O_FIT, L.FIT_COUNT * 4],
      ['fit marks', L.O_FITMARK, L.FIT_COUNT * 2],
      ['heights', L.O_HEIGHTS, L.COLUMN_SLOTS * 4],
    ];
    for (let i = 0; i < blocks.length; i++) {
      const [name, start, bytes] = blocks[i];
      const end = i + 1 < blocks.length ? blocks[i + 1][1] : L.CTX_BYTES;
      expect(start + bytes, name).toBeLessThanOrEqual(end);
    }
    // the parameters TypeScript writes end where the kernel's stamp begins (writing them never resets it)
    expect(L.O_WIDTH + L.PARAM_WORDS * 4).toBe(L.O_STAMP);
    expect(L.O_FLAGS).toBe(L.O_WIDTH + (L.PARAM_WORDS - 1) * 4);
    expect(L.O_COLS % 8).toBe(0); // u64 column masks
  });
  it('a state index holds every rotation, row and column the boards allow, and fits the i16 queue', () => {
    expect(L.STATE_COUNT).toBeLessThanOrEqual(2 ** 15);
    expect(L.STATE_Y_MASK + 1).toBeGreaterThanOrEqual(L.ROW_SLOTS);
    expect(L.STATE_X_MASK + 1).toBeGreaterThanOrEqual(L.COLUMN_SLOTS + 2 * L.WALL);
    expect(L.MAX_BOARD_ROWS + 2 * L.WALL).toBeLessThanOrEqual(L.ROW_SLOTS);
  });
  it('the piece table: state blocks fit their stride, turn blocks fit their size', () => {
    expect(L.S_TURN + 2 * L.TURN_WORDS).toBe(L.STATE_WORDS);
    expect(L.S_NEXT + 2).toBeLessThanOrEqual(L.S_TURN);
    expect(L.S_BOT + 4).toBeLessThanOrEqual(L.S_SHAPE);
    expect([L.T_KICK_DX, L.T_KICK_DY, L.T_CENTRE]).toEqual([
      L.T_KICKS + 1,
      L.T_KICK_DX + L.MAX_KICKS,
      L.T_KICK_DY + L.MAX_KICKS,
    ]);
    expect([L.T_READ_DX, L.T_READ_DY]).toEqual([L.T_CENTRE + 1, L.T_READ_DX + 4]);
    expect(L.T_READ_DY + 4).toBeLessThanOrEqual(L.TURN_WORDS);
    expect(L.TABLE_BYTES).toBe((L.TABLE_HEADER_WORDS + L.MAX_STATES * L.STATE_WORDS) * 4);
  });
  it('move codes are the indices of SEARCH_MOVES, the order the TypeScript search tries them', () => {
    expect([L.M_CW, L.M_CCW, L.M_LEFT, L.M_RIGHT, L.M_DAS_LEFT, L.M_DAS_RIGHT, L.M_SOFT]).toEqual(
      ['cw', 'ccw', 'left', 'right', 'dasLeft', 'dasRight', 'softDrop'].map((m) => SEARCH_MOVES.indexOf(m as never)),
    );
  });
});

describe('the recover layout fits together', () => {
  const L = recoverLayout;
  it('the context blocks lie in order, none overlapping the next, all inside CTX_BYTES', () => {
    const blocks: [string, number, number][] = [
      ['params', L.O_WIDTH, 6 * 4],
      ['child and landing pointers', L.O_CHILD_CELLS, 4 * 4],
      ['weights', L.O_WEIGHTS, L.WEIGHT_COUNT * 8],
      ['features', L.O_FEATURES, L.WEIGHT_COUNT * 8],
      ['board', L.O_BOARD, L.NODE_BYTES],
      ['geometry', L.O_GEOMETRY, L.PIECE_COUNT * L.MAX_STATES * L.CELL_WORDS * 4],
    ];
    for (let i = 0; i < blocks.length; i++) {
      const [name, start, bytes] = blocks[i];
      const end = i + 1 < blocks.length ? blocks[i + 1][1] : L.CTX_BYTES;
      expect(start + bytes, name).toBeLessThanOrEqual(end);
    }
    expect(L.O_MAX_FLOOR + 4).toBe(L.O_CHILD_CELLS);
    expect(L.O_LANDINGS + 4).toBe(L.O_COVER_WELL);
    expect(L.O_COVER_WELL + 4).toBe(L.O_DROPS);
    expect(L.O_DROPS + 4).toBeLessThanOrEqual(L.O_WEIGHTS);
    for (const f64Field of [L.O_WEIGHTS, L.O_FEATURES, L.O_BOARD, L.CTX_BYTES]) expect(f64Field % 8).toBe(0);
  });
  it('a node is its rows, its f64 line total, its top; a placement is its cells', () => {
    expect(L.N_ACC).toBe(L.MAX_ROWS * 4);
    expect(L.N_TOP).toBe(L.N_ACC + 8);
    expect(L.N_COLS).toBe(L.N_TOP + 8);
    expect(L.NODE_BYTES).toBe(L.N_COLS + 8 * L.MAX_COLUMNS);
    expect(L.NODE_BYTES % 8).toBe(0);
    expect(L.CELL_WORDS).toBe(2 * L.PIECE_CELLS);
    // the game's boards (src/tetris-ai/board-input.ts WORK_ROWS) fit a node
    expect(L.MAX_ROWS).toBeGreaterThanOrEqual(44);
  });
  it('placements arrive as the reachable kernel lists them: its states, its records, its most placements', async () => {
    const { LANDINGS_WORDS } = await import('../src/tetris-ai/rules-adapter.js');
    expect(L.MAX_STATES).toBe(reachableLayout.MAX_STATES);
    expect(L.LANDING_WORDS * reachableLayout.MAX_PLACEMENTS).toBe(LANDINGS_WORDS);
    expect(L.O_CHILD_ACCS + 4).toBe(L.O_LANDINGS);
  });
  it('a drop table is its header, then a state and x per drop: every state at every column fits', () => {
    expect([L.D_COUNT, L.D_CLEAR_BELOW, L.D_LOCK_TOP, L.D_LIST]).toEqual([0, 1, 2, 3]);
    expect(L.DROP_TABLE_WORDS).toBe(L.D_LIST + 2 * L.MAX_DROPS);
    expect(L.MAX_DROPS).toBeGreaterThanOrEqual(L.MAX_STATES * L.MAX_COLUMNS);
  });
  it('weights are numbered 0 .. WEIGHT_COUNT - 1 in RecoverWeights order', async () => {
    const { RECOVER_WEIGHTS } = await import('../src/tetris-ai/evaluate.js');
    const ids = Object.keys(RECOVER_WEIGHTS).map(
      (k) => (L as Record<string, unknown>)[`W_${k.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`],
    );
    expect(ids).toEqual(Array.from({ length: L.WEIGHT_COUNT }, (_, i) => i));
  });
});

describe('the feature registry', () => {
  it('lists every kernel feature id once, in id order', async () => {
    const { FEATURES } = await import('../src/fullboard/features.js');
    expect(FEATURES.map((f) => f.id)).toEqual(Array.from({ length: fullboardLayout.FEATURE_COUNT }, (_, i) => i));
    expect(fullboardLayout.FEATURE_COUNT).toBeLessThanOrEqual(fullboardLayout.FEATURE_SLOTS);
  });
});
