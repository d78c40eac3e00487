/**
 * The stacking game under a real game's rule set (docs/rules.md, "The stacking game under a rule set"): which
 * placements of the surface game a piece can reach, as records the search kernel checks on every stack
 * (assembly/search/rules.ts reachablePlacements). One record per placement of src/stacking-ai/placements.ts (same
 * order), then one for the Tetris (an upright I down the well).
 *
 * Reachability is taken from the rules layer's own search (src/rules/), never re-derived here, on boards built from
 * a hole-free stack:
 * - Normal gravity (`nes`, `tgm`, `guideline`, custom sets): the piece turns and shifts above the stack and drops
 *   straight onto it, so on a hole-free stack a placement is reachable while the stack leaves the piece room where
 *   it appears. The record's height limit is the highest flat stack (the target's columns shaped to fit it, as high
 *   as the board allows) on which the rules layer reaches the placement on a board of the game's height; every
 *   column must be at most that high.
 * - 20G (`tgm20g`): the piece lies on the stack from the start, so what it reaches depends on the steps it slides
 *   over. As in the 20G rank table (docs/rules.md, "The 20G table"): the placement's window (the columns from the
 *   spawn box to the target, the well open when the window reaches it, every other column walled), every
 *   combination of the window's steps within ±S searched once, the combinations where the placement is reached
 *   packed into boxes of digit ranges; a window step steeper than ±S counts as unreachable (the boxes cannot tell
 *   how steep, and a clamped step is not what the piece meets); and every window column at most boardHeight - 4
 *   high, so the piece appears and turns above the stack as on the window's board.
 * `classic` (and any rule set under which every record would allow everything) gives no records at all: the
 * kernel then takes every placement that fits, exactly as before rule sets existed.
 *
 * The Tetris record's window, without its height limit, also answers which stack shapes let a 20G I reach the well
 * at all (wellWindow20G): TetrisAI's stack mode values such shapes above the others (docs/game.md, "The policy").
 */
import { StackRankError, describe, firstHole, requireInt } from '../errors.js';
import { ORIENTATIONS, PIECE_COUNT } from '../pieces.js';
import { BOARD_MAX_HEIGHT, BOARD_MAX_WIDTH } from '../rules/board.js';
import { Reacher } from '../rules/reacher.js';
import { ROTATION_SYSTEMS } from '../rules/rotation-systems.js';
import { type SliceOptions, type Steps, runInSlices, runToEnd, within } from '../slices.js';
import { RULE_SET_NAMES, resolveRules as resolveRuleSet, type RuleSet } from '../rules/rule-sets.js';
import type { RuleSetName } from '../rules/types.js';
import { type Box, packBoxesSteps } from '../rank/boxes.js';
import { MAX_MAX_STEP, MAX_WIDTH, MIN_MAX_STEP, MIN_WIDTH, surfaceBase } from '../surface.js';
import {
  REACH_DIGITS,
  TETRIS_ROWS,
  newReachRecords,
  reachBoxWords,
  reachRecordCount,
  reachRecordRestricts,
  readReachRecord,
  setReachRecord,
  type ReachRecords,
} from '../kernels/search-format.js';
import type { ColumnSlot } from './placements.js';

/** What the stacking API's `rules` option takes: a rule-set preset name or a RuleSet (src/rules/rule-sets.ts). */

/** The rule set the stacking game plays by default: the 2009 article's game, every placement from above. */
export const DEFAULT_STACKING_RULE_SET: RuleSetName = 'classic';

/** Rows of the 20G window board, as the 20G table's (room for 8 steps of 4 under the spawn rows). */
const WINDOW_ROWS = BOARD_MAX_HEIGHT;
/** How far the lowest window column stands above the well's floor on the 20G window board. */
const WELL_DEPTH = 4;
/** Rows the 20G piece needs above the stack to appear and turn as on the window board. */
const TWENTY_G_HEADROOM = 4;
/** The one max step the 20G records are derived and tested for (the 20G table's). */
const TWENTY_G_MAX_STEP = 4;

/** A rule set's reach records (src/kernels/search-format.ts): one per placement, then the Tetris's. */
export interface ReachTable extends ReachRecords {
  readonly ruleSet: RuleSet;
}

const STACKING_RULE_KEYS = ['boardHeight', 'tetrisThreshold', 'steep', 'tetris'];

/**
 * The rule set a stacking call names (a preset or a RuleSet object); BAD_RULES naming the allowed values. The
 * stacking game's own rules (a preset name or an object of their fields) are refused with the option that takes them,
 * `stacking`: the two options sit side by side in one call.
 */
export function checkRuleSet(rules: unknown): RuleSet {
  const stackingPreset = typeof rules === 'string' && ['article', 'default'].includes(rules);
  const stackingObject =
    rules !== null && typeof rules === 'object' && Object.keys(rules).some((k) => STACKING_RULE_KEYS.includes(k));
  if (stackingPreset || stackingObject)
    throw new StackRankError(
      'BAD_RULES',
      `rules is the real game's rule set (${RULE_SET_NAMES.join(', ')}, or a RuleSet); the stacking game's own rules (board height, Tetris rule, steep steps, presets article and default) go in stacking; got rules ${describe(rules)}`,
    );
  return resolveRuleSet(rules ?? DEFAULT_STACKING_RULE_SET);
}

/** A target of the derivation: a placement, or (orientation of the upright I at the well) the Tetris. */
interface Target {
  record: number;
  piece: number;
  orientation: number;
  column: number;
}

const UPRIGHT_I = ORIENTATIONS[0].findIndex((o) => o.width === 1);

/** Bit rows (bottom first) of a `width`-column board whose column x is filled up to heights[x]. */
function boardRows(heights: readonly number[], rowCount: number): number[] {
  const rows = new Array<number>(rowCount).fill(0);
  heights.forEach((h, x) => {
    for (let y = 0; y < Math.min(h, rowCount); y++) rows[y] |= 1 << x;
  });
  return rows;
}

const memo = new Map<string, ReachTable | null>();

/**
 * The checks of reachTable's arguments; null when the rule set needs no records (its piece reaches every placement
 * that fits), else the resolved rule set and the key of its records in this process (and in the disk cache,
 * src/stacking-ai/reach-cache.ts).
 */
export function reachRequest(
  rules: RuleSetName | RuleSet,
  width: number,
  maxStep: number,
  boardHeight: number,
): { ruleSet: RuleSet; key: string } | null {
  const ruleSet = checkRuleSet(rules);
  if (width + 1 > BOARD_MAX_WIDTH || width - 1 > REACH_DIGITS)
    throw new StackRankError('BAD_ARGUMENT', `rule sets take stacks of at most ${BOARD_MAX_WIDTH - 1} columns`);
  // The classic game's piece comes from above the board: it reaches every placement that fits, at any height.
  if (ruleSet.rotationSystem === 'classic' && ruleSet.spawn === 'aboveBoard' && ruleSet.gravity === 'normal')
    return null;
  if (boardHeight > BOARD_MAX_HEIGHT)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `under the rule set ${ruleSet.name} the board is at most ${BOARD_MAX_HEIGHT} rows (the rules layer's); got boardHeight ${boardHeight}`,
    );
  if (ruleSet.gravity === '20G' && maxStep !== TWENTY_G_MAX_STEP)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `20G rule sets need a table with max step ${TWENTY_G_MAX_STEP} (the 20G reach is derived for it); this one has ${maxStep}`,
    );
  return { ruleSet, key: `${JSON.stringify(ruleSet)}:${width}:${maxStep}:${boardHeight}` };
}

/**
 * Records derived in this process, or loaded from the disk cache (src/stacking-ai/reach-cache.ts), by reachRequest key.
 */
export function rememberReach(key: string, table: ReachTable | null): void {
  memo.set(key, table);
}

/** The records of `key` if this process has them (undefined when not). */
export function knownReach(key: string): ReachTable | null | undefined {
  return memo.get(key);
}

/**
 * The reach records of a rule set for the placements of a `width`-column surface game (steps ranked within
 * ±maxStep) on a board of `boardHeight` rows plus the well; null when the rule set reaches every placement that
 * fits (the kernel then checks nothing). Derived once per process and shape (a few seconds under 20G at 9 columns;
 * src/stacking-ai/reach-cache.ts keeps them on disk, so once per machine).
 */
export function reachTable(
  rules: RuleSetName | RuleSet,
  width: number,
  maxStep: number,
  boardHeight: number,
  placements: readonly ColumnSlot[],
): ReachTable | null {
  return runToEnd(reachSteps(rules, width, maxStep, boardHeight, placements));
}

/** reachTable in slices with the event loop run between them (src/slices.ts): abortable, with its progress. */
export function reachTableSliced(
  rules: RuleSetName | RuleSet,
  width: number,
  maxStep: number,
  boardHeight: number,
  placements: readonly ColumnSlot[],
  slices: SliceOptions,
): Promise<ReachTable | null> {
  return runInSlices(reachSteps(rules, width, maxStep, boardHeight, placements), slices);
}

function* reachSteps(
  rules: RuleSetName | RuleSet,
  width: number,
  maxStep: number,
  boardHeight: number,
  placements: readonly ColumnSlot[],
): Steps<ReachTable | null> {
  requireInt('width', width, MIN_WIDTH, MAX_WIDTH);
  requireInt('maxStep', maxStep, MIN_MAX_STEP, MAX_MAX_STEP);
  requireInt('boardHeight', boardHeight, 1, Number.MAX_SAFE_INTEGER);
  checkPlacements(placements, width);
  const request = reachRequest(rules, width, maxStep, boardHeight);
  if (!request) return null;
  const { ruleSet, key } = request;
  if (memo.has(key)) return memo.get(key)!;
  const targets: Target[] = placements.map((p, record) => ({
    record,
    piece: p.piece,
    orientation: p.orientation,
    column: p.column,
  }));
  targets.push({ record: placements.length, piece: 0, orientation: UPRIGHT_I, column: width });
  const reacher = new Reacher(ruleSet);
  const records = newReachRecords(targets.length);
  const boxes: bigint[] = [];
  if (ruleSet.gravity === '20G') yield* derive20G(reacher, targets, width, maxStep, boardHeight, records, boxes);
  else yield* deriveNormal(reacher, targets, width, boardHeight, records);
  let restricts = false;
  for (let r = 0; r < targets.length; r++) if (reachRecordRestricts(records, r, boardHeight)) restricts = true;
  const table = restricts ? { ruleSet, records, boxes: BigUint64Array.from(boxes) } : null;
  memo.set(key, table);
  return table;
}

/**
 * Normal gravity: per target, the highest flat stack (its own columns shaped to fit it, the well empty) on which
 * it is reached, checked upward from the lowest such stack; every column must be at most that high.
 */
function* deriveNormal(
  reacher: Reacher,
  targets: readonly Target[],
  width: number,
  boardHeight: number,
  records: Int32Array,
): Steps<void> {
  for (const [i, t] of targets.entries()) {
    yield i / targets.length;
    const o = ORIENTATIONS[t.piece][t.orientation];
    const tetris = t.column === width;
    const bot = tetris ? [0] : o.bot;
    const lift = Math.max(...bot);
    const tall = Math.max(...o.top);
    let limit = -1;
    for (let level = tetris ? TETRIS_ROWS : lift; level <= boardHeight; level++) {
      // The target as high as the level allows while it stays inside the board (higher it is illegal anyway).
      const y = tetris ? 0 : Math.min(level - lift, boardHeight - tall);
      if (y < 0) break;
      const heights = new Array<number>(width + 1).fill(level);
      heights[width] = 0;
      if (!tetris) for (let j = 0; j < bot.length; j++) heights[t.column + j] = y + bot[j];
      reacher.search(boardRows(heights, boardHeight), width + 1, boardHeight, t.piece);
      if (!reacher.has(t.orientation, t.column, y)) break;
      limit = level;
    }
    setReachRecord(records, t.record, 0, width - 1, limit);
  }
}

/** Columns a piece may cover where it appears (every state of its spawn box), on a board `boardWidth` wide. */
function spawnColumns(ruleSet: RuleSet, piece: number, boardWidth: number): [number, number] {
  const system = ROTATION_SYSTEMS[ruleSet.rotationSystem];
  const x = system.spawnX(piece, boardWidth);
  const dxs = system.pieces[piece].cells.flat().map((c) => c[0]);
  return [x + Math.min(...dxs), x + Math.max(...dxs)];
}

/** The columns of a target's 20G window: from its piece's spawn box to the target (a Tetris: to the last surface
 * column, next to the well). */
function windowOf(ruleSet: RuleSet, t: Target, width: number): { a: number; b: number } {
  const [sa, sb] = spawnColumns(ruleSet, t.piece, width + 1);
  const w = t.column === width ? 1 : ORIENTATIONS[t.piece][t.orientation].width;
  return { a: Math.max(0, Math.min(sa, t.column)), b: Math.min(width - 1, Math.max(sb, t.column + w - 1)) };
}

/** 20G: per target, the boxes of window steps on which the window board reaches it (see the file comment). */
function* derive20G(
  reacher: Reacher,
  targets: readonly Target[],
  width: number,
  maxStep: number,
  boardHeight: number,
  records: Int32Array,
  boxes: bigint[],
): Steps<void> {
  const base = surfaceBase(maxStep);
  // Targets sharing a window share its boards: group them.
  const windows = new Map<string, { piece: number; a: number; b: number; targets: Target[] }>();
  for (const t of targets) {
    const { a, b } = windowOf(reacher.ruleSet, t, width);
    const k = `${t.piece}:${a}:${b}`;
    let group = windows.get(k);
    if (!group) windows.set(k, (group = { piece: t.piece, a, b, targets: [] }));
    group.targets.push(t);
  }
  // The windows' shares of the work: their combinations of steps, each searched once.
  const total = [...windows.values()].reduce((n, w) => n + base ** (w.b - w.a), 0);
  let done = 0;
  for (const { piece, a, b, targets: group } of windows.values()) {
    const share = base ** (b - a);
    const reached = yield* within(
      windowReached(reacher, piece, a, b, group, width, maxStep),
      done / total,
      (done + share) / total,
    );
    done += share;
    for (const [g, t] of group.entries()) {
      const found = yield* packReached(reached[g], b - a, base);
      setReachRecord(records, t.record, a, b, boardHeight - TWENTY_G_HEADROOM, {
        start: boxes.length / 2,
        count: found.length,
      });
      for (const [lo, hi] of found) boxes.push(...reachBoxWords(lo, hi, a, width, maxStep));
    }
  }
}

/**
 * 20G: for each target of one window (columns a..b, all of `piece`), one byte per combination of the window's b - a
 * steps within ±maxStep (digit 0, the step between columns a and a + 1, most significant): 1 where the window board
 * reaches the target.
 */
function* windowReached(
  reacher: Reacher,
  piece: number,
  a: number,
  b: number,
  targets: readonly Target[],
  width: number,
  maxStep: number,
): Steps<Uint8Array[]> {
  const base = surfaceBase(maxStep);
  const n = b - a;
  const combos = base ** n;
  const reached = targets.map(() => new Uint8Array(combos));
  const heights = new Array<number>(width + 1);
  const window = new Array<number>(n + 1);
  for (let c = 0; c < combos; c++) {
    if (c % 256 === 255) yield c / combos;
    // Digit i (the step between window columns i and i + 1), digit 0 most significant.
    window[0] = 0;
    for (let i = 0, rest = c; i < n; i++) {
      const d = Math.floor(rest / base ** (n - 1 - i));
      rest -= d * base ** (n - 1 - i);
      window[i + 1] = window[i] + d - maxStep;
    }
    const low = Math.min(...window);
    for (let x = 0; x <= width; x++) {
      const inWindow = x >= a && x <= b;
      const well = x === width && b === width - 1;
      heights[x] = inWindow ? window[x - a] - low + WELL_DEPTH : well ? 0 : WINDOW_ROWS;
    }
    reacher.search(boardRows(heights, WINDOW_ROWS), width + 1, WINDOW_ROWS, piece);
    targets.forEach((t, g) => {
      if (t.column === width) {
        reached[g][c] = reacher.has(t.orientation, width, 0) ? 1 : 0;
        return;
      }
      const o = ORIENTATIONS[t.piece][t.orientation];
      for (let j = 0; j + 1 < o.width; j++)
        if (window[t.column - a + j + 1] - window[t.column - a + j] !== o.bot[j + 1] - o.bot[j]) return;
      const y = heights[t.column] - o.bot[0];
      reached[g][c] = reacher.has(t.orientation, t.column, y) ? 1 : 0;
    });
  }
  return reached;
}

/** Which surfaces let an I reach the well at 20G: wellWindow20G's answer. */
export interface WellWindow {
  /**
   * 1 where an upright I slides from where it appears down the well, per combination of the window's steps: the
   * surface's last steps, so a surface index modulo `reached.length` is its combination.
   */
  reached: Uint8Array;
}

const wellWindows = new Map<string, WellWindow>();

/**
 * At 20G, which shapes of a `width`-column stack let the I reach a right-hand well: the Tetris record's window
 * (the columns from the I's spawn box to the last stack column, the well 4 rows below the lowest of them) on the
 * window board, without the record's height limit, so it depends on the stack's shape alone. Once per process and
 * shape (about 59,000 searches of the rules layer at 9 columns, well under a second).
 */
export function wellWindow20G(ruleSet: RuleSetName | RuleSet, width: number, maxStep: number): WellWindow {
  return runToEnd(wellWindowSteps(ruleSet, width, maxStep));
}

/** wellWindow20G in slices with the event loop run between them (src/slices.ts). */
export function wellWindow20GSliced(
  ruleSet: RuleSetName | RuleSet,
  width: number,
  maxStep: number,
  slices: SliceOptions,
): Promise<WellWindow> {
  return runInSlices(wellWindowSteps(ruleSet, width, maxStep), slices);
}

function* wellWindowSteps(ruleSet: RuleSetName | RuleSet, width: number, maxStep: number): Steps<WellWindow> {
  requireInt('width', width, MIN_WIDTH, MAX_WIDTH);
  requireInt('maxStep', maxStep, MIN_MAX_STEP, MAX_MAX_STEP);
  const rules = resolveRuleSet(ruleSet);
  if (rules.gravity !== '20G')
    throw new StackRankError('BAD_RULES', `wellWindow20G needs a 20G rule set; ${rules.name} is not one`);
  const key = `${JSON.stringify(rules)}:${width}:${maxStep}`;
  const known = wellWindows.get(key);
  if (known) return known;
  const tetris: Target = { record: 0, piece: 0, orientation: UPRIGHT_I, column: width };
  const reacher = new Reacher(rules);
  const { a, b } = windowOf(rules, tetris, width);
  const window = { reached: (yield* windowReached(reacher, 0, a, b, [tetris], width, maxStep))[0] };
  wellWindows.set(key, window);
  return window;
}

/** The combinations marked in `reached` (n digits of `base` values, digit 0 most significant) as disjoint boxes. */
function packReached(reached: Uint8Array, n: number, base: number): Steps<Box[]> {
  const ranges = Array.from({ length: n }, (): [number, number] => [0, base - 1]);
  return packBoxesSteps(ranges, (values) => reached[values.reduce((offset, v) => offset * base + v, 0)] === 1);
}

/**
 * TypeScript's reading of a reach record (the kernel's is assembly/search/rules.ts recordReached): whether
 * `record` (a placement id, or the placement count for the Tetris) is reachable on `heights`.
 */
export function recordReached(table: ReachTable, record: number, heights: readonly number[], maxStep: number): boolean {
  checkRecordQuery(table, record, heights, maxStep);
  return readReachRecord(table, record, heights, maxStep);
}

/** reachTable's placements: { piece, orientation, column } with each in range for a `width`-column surface. */
function checkPlacements(placements: unknown, width: number): void {
  if (!Array.isArray(placements))
    throw new StackRankError('BAD_ARGUMENT', `placements must be an array; got ${describe(placements)}`);
  // An index loop, not forEach: a sparse array's holes are placements too (and bad ones).
  for (let i = 0; i < placements.length; i++) {
    const p: unknown = placements[i];
    const { piece, orientation, column } = (p ?? {}) as Record<string, unknown>;
    const ok =
      p !== null &&
      typeof p === 'object' &&
      Number.isInteger(piece) &&
      (piece as number) >= 0 &&
      (piece as number) < PIECE_COUNT &&
      Number.isInteger(orientation) &&
      (orientation as number) >= 0 &&
      (orientation as number) < ORIENTATIONS[piece as number].length &&
      Number.isInteger(column) &&
      (column as number) >= 0 &&
      (column as number) < width;
    if (!ok)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `placement ${i} must be { piece 0..6, orientation (of that piece), column 0..${width - 1} }; got ${describe(p)}`,
      );
  }
}

/** recordReached's arguments: a reach table's records, a record in it, integer heights and a max step. */
function checkRecordQuery(table: unknown, record: unknown, heights: unknown, maxStep: unknown): void {
  const t = table as Partial<ReachTable> | null;
  if (t === null || typeof t !== 'object' || !(t.records instanceof Int32Array) || !(t.boxes instanceof BigUint64Array))
    throw new StackRankError('BAD_ARGUMENT', `table must be a ReachTable (reachTable's); got ${describe(table)}`);
  requireInt('record', record, 0, reachRecordCount(t.records) - 1);
  requireInt('maxStep', maxStep, MIN_MAX_STEP, MAX_MAX_STEP);
  if (
    !Array.isArray(heights) ||
    heights.length === 0 ||
    heights.length > MAX_WIDTH ||
    firstHole(heights) >= 0 ||
    !heights.every(Number.isInteger)
  )
    throw new StackRankError(
      'BAD_ARGUMENT',
      `heights must be 1..${MAX_WIDTH} integer column heights; got ${describe(heights)}`,
    );
}
