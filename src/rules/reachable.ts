/**
 * Reachable placements: every distinct resting placement (one per set of occupied cells) a piece can reach from
 * spawn under a rule set, each with a shortest key sequence. This TypeScript breadth-first search is the readable
 * definition; docs/rules.md ("Real games") states the model in words.
 *
 * The search runs over piece states (rotation, x, y). Edges, tried in this order at every state: cw, ccw, left,
 * right, dasLeft, dasRight, softDrop. Every key press costs 1 (a DAS shift too), so the first time a placement's
 * cells are met in breadth-first order gives one of the fewest-press sequences, and among those the one whose
 * presses come first in that edge order, earliest key first: ties break the same way on every run. Under a rule set
 * with spins, every turn is also tested for a spin (whether or not its state is new); a placement a spin reaches takes
 * the best spin found there first and its keys, the way to the state turned from, the turn, hardDrop (docs/rules.md,
 * "Versus").
 */
import { StackRankError, describe, fieldsOnce, optionNames, optionsObject } from '../errors.js';
import { PIECES, toPieceId, type Piece } from '../pieces.js';
import { Board } from './board.js';
import { RULE_SET_NAMES, fieldFor, isTimed, resolveRules, spawnY, type RuleSet } from './rule-sets.js';
import { ROTATION_SYSTEMS } from './rotation-systems.js';
import { pieceGeometry, SEARCH_MOVES, type PieceGeometry } from './geometry.js';
import { reach, reachCount } from '../kernels/reachable.js';
import { SPINS, spinGeometry, threeCornerSpin, type SpinGeometry } from './spins.js';
import type { BoardLike, Cell, GamePlacement, Input, RuleSetName, Spin } from './types.js';

export interface ReachableOptions {
  /** A preset name (`classic`, `nes`, `nesUntimed`, `guideline`, `tgm`, `tgm20g`) or a RuleSet object. */
  readonly rules: RuleSetName | RuleSet;
}

const REACHABLE_OPTIONS = optionNames<ReachableOptions>({ rules: true });

/** reachablePlacements' and countReachablePlacements' options (`what`: the function, for the message). */
export function checkOptions(options: unknown, what: string): RuleSet {
  // An options value that is no object is a bad argument (docs/errors.md); a misspelt key ({ rule: 'nes' }) is
  // named before the missing rules are; options left out lack their rules.
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new StackRankError('BAD_ARGUMENT', `${what}: options must be an object { rules }; got ${describe(options)}`);
  const opts = options === undefined ? undefined : optionsObject(what, options as object, REACHABLE_OPTIONS);
  if (opts === undefined || !('rules' in opts)) {
    throw new StackRankError(
      'BAD_RULES',
      `options must be { rules } with a rule set name (${RULE_SET_NAMES.join(', ')}) or a RuleSet; got ${describe(options)}`,
    );
  }
  return resolveRules((opts as { rules: unknown }).rules);
}

/** A piece in play: its state and reference point. */
export interface PieceState {
  rotation: number;
  x: number;
  y: number;
}

/**
 * The moving piece on a board under a rule set: collision, drops, turns and shifts as the rules define them, on
 * arguments already checked. The search below runs on it directly; PieceMover checks a caller's arguments first.
 */
export class Mover {
  readonly board: Board;
  readonly pieceId: number;
  readonly rules: RuleSet;
  readonly geometry: PieceGeometry;
  /** The piece's spin geometry under the rule set, or null when it does not spin. */
  readonly spins: SpinGeometry | null;
  readonly ceiling: number;
  readonly lockTop: number;
  readonly spawn: PieceState;
  private readonly width: number;
  private readonly rows: Uint16Array;

  constructor(board: Board, pieceId: number, rules: RuleSet) {
    this.board = board;
    this.pieceId = pieceId;
    this.rules = rules;
    this.geometry = pieceGeometry(ROTATION_SYSTEMS[rules.rotationSystem], pieceId);
    this.spins = spinGeometry(rules.spins, ROTATION_SYSTEMS[rules.rotationSystem], pieceId);
    const field = fieldFor(rules, board.height);
    this.ceiling = field.ceiling;
    this.lockTop = field.lockTop;
    this.width = board.width;
    this.rows = new Uint16Array(Math.max(this.ceiling, board.height));
    this.rows.set(board.rows);
    const c0 = this.geometry.cells[0];
    const dys = c0.map((c) => c[1]);
    this.spawn = {
      rotation: 0,
      x: this.geometry.system.spawnX(pieceId, board.width),
      y: spawnY(rules, board.height, Math.min(...dys), Math.max(...dys)),
    };
  }

  /** Whether the piece in state s at (x, y) overlaps a wall, the floor, the ceiling or a filled cell. */
  collides(s: number, x: number, y: number): boolean {
    return this.hits(s, x, y);
  }

  /** The row the piece comes to rest in when dropped from y. */
  dropY(s: number, x: number, y: number): number {
    return this.restY(s, x, y);
  }

  /** The state after a turn (with the rotation system's kicks), or null when every kick is blocked. */
  turn(p: PieceState, clockwise: boolean): PieceState | null {
    return this.kick(p, clockwise)?.state ?? null;
  }

  /**
   * A turn and the kick test it took (0: the plain turn, k: the rotation system's kick k), or null when every kick
   * is blocked. Spins read the kick (spinAfterTurn).
   */
  kickedTurn(p: PieceState, clockwise: boolean): { state: PieceState; kick: number } | null {
    return this.kick(p, clockwise);
  }

  /**
   * The spin the piece locks with when it locks right after this turn from `p` (docs/rules.md, "Versus"): 'none'
   * when the turn is blocked, the rule set has no spins for this piece, or the piece does not rest where it turned
   * (it would fall before locking, and a fall ends a spin).
   */
  spinAfterTurn(p: PieceState, clockwise: boolean): Spin {
    const g = this.spins;
    if (!g) return 'none';
    const turned = this.kick(p, clockwise);
    if (!turned) return 'none';
    const { state, kick } = turned;
    if (!this.hits(state.rotation, state.x, state.y - 1)) return 'none';
    return threeCornerSpin(g, state.rotation, state.x, state.y, kick, (x, y) => this.blocked(x, y));
  }

  /** Under 20G every move ends with the piece pulled down to rest. */
  settle(p: PieceState): PieceState {
    return this.fall(p);
  }

  /**
   * One input applied to a piece in play (hardDrop excluded); null when it does nothing. Under 20G a piece not yet
   * at rest (the spawn) falls before the input acts, except a turn under initial rotation, which turns it as it
   * appears (docs/rules.md, "Reachable placements and their keys"): a shift as the first input moves the fallen
   * piece, not the one at spawn height.
   */
  apply(p: PieceState, input: Input): PieceState | null {
    const turning = input === 'cw' || input === 'ccw';
    const from = turning && this.rules.initialRotation ? p : this.fall(p);
    switch (input) {
      case 'cw':
      case 'ccw': {
        const t = this.kick(from, input === 'cw')?.state ?? null;
        return t && this.fall(t);
      }
      case 'left':
      case 'right': {
        const dx = input === 'left' ? -1 : 1;
        if (this.hits(from.rotation, from.x + dx, from.y)) return null;
        return this.fall({ ...from, x: from.x + dx });
      }
      case 'dasLeft':
      case 'dasRight': {
        const dx = input === 'dasLeft' ? -1 : 1;
        let q = from;
        while (!this.hits(q.rotation, q.x + dx, q.y)) q = this.fall({ ...q, x: q.x + dx });
        return q === from ? null : q;
      }
      case 'softDrop': {
        if (!this.rules.softDrop || this.rules.gravity === '20G') return null;
        const y = this.restY(p.rotation, p.x, p.y);
        return y === p.y ? null : { ...p, y };
      }
      default:
        return null;
    }
  }

  // The moves themselves, on arguments already checked. The public methods above call these, and so do the moves
  // inside them (a kick test, a drop's next row, a DAS step): a subclass that checks a caller's arguments (PieceMover)
  // overrides the public methods alone, so a candidate the rules try and reject (a kick past the wall, the row below
  // the floor) is never taken for a caller's argument.

  private hits(s: number, x: number, y: number): boolean {
    for (const [dx, dy] of this.geometry.cells[s]) {
      const cx = x + dx;
      const cy = y + dy;
      if (cx < 0 || cx >= this.width || cy < 0 || cy >= this.ceiling) return true;
      if ((this.rows[cy] >> cx) & 1) return true;
    }
    return false;
  }

  private restY(s: number, x: number, y: number): number {
    while (!this.hits(s, x, y - 1)) y--;
    return y;
  }

  private kick(p: PieceState, clockwise: boolean): { state: PieceState; kick: number } | null {
    const g = this.geometry;
    const dir = clockwise ? 0 : 1;
    const t = clockwise ? g.cw[p.rotation] : g.ccw[p.rotation];
    if (t === p.rotation) return null; // a one-state piece does not turn
    const kicks = g.kicks[p.rotation][dir];
    if (!this.hits(t, p.x, p.y)) return { state: { rotation: t, x: p.x, y: p.y }, kick: 0 };
    if (g.centre[p.rotation][dir]) {
      // ARS: the first blocked cell in reading order (top row first, left to right) in the box's centre column
      // forbids the kick.
      const reading = [...g.cells[t]].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      for (const [dx, dy] of reading) {
        if (this.blocked(p.x + dx, p.y + dy)) {
          if (dx === 1) return null;
          break;
        }
      }
    }
    for (let k = 1; k < kicks.length; k++) {
      const [kx, ky] = kicks[k];
      if (!this.hits(t, p.x + kx, p.y + ky)) return { state: { rotation: t, x: p.x + kx, y: p.y + ky }, kick: k };
    }
    return null;
  }

  private fall(p: PieceState): PieceState {
    return this.rules.gravity === '20G' ? { ...p, y: this.restY(p.rotation, p.x, p.y) } : p;
  }

  private blocked(x: number, y: number): boolean {
    if (x < 0 || x >= this.width || y < 0 || y >= this.ceiling) return true;
    return ((this.rows[y] >> x) & 1) === 1;
  }

  /** Absolute cells of a state, sorted by row then column. */
  cellsOf(p: PieceState): Cell[] {
    return this.geometry.cells[p.rotation]
      .map(([dx, dy]) => [p.x + dx, p.y + dy] as Cell)
      .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  }
}

/** Every key a game has (types.ts Input); `apply` answers null for hold and hardDrop, which do not move the piece. */
const KEYS: ReadonlySet<string> = new Set<Input>([...SEARCH_MOVES, 'hardDrop', 'hold']);

/** How far outside the field a piece's reference point may lie (its cells reach at most 3 cells from it). */
const STATE_MARGIN = 8;

/** A Mover for a caller's board (Board or BoardLike), piece (letter or id 0..6) and rules (name or RuleSet). */
function checkedMover(board: unknown, piece: unknown, rules: unknown): Mover {
  return new Mover(Board.from(board as Board | BoardLike), toPieceId(piece), resolveRules(rules));
}

/**
 * The moving piece on a board under a rule set, for anyone replaying inputs (an AI, a test, the demo): the search's
 * own model (Mover), each method checking the caller's arguments first. Only the caller's arguments are checked: the
 * positions a move tries on its way (a kick test, the rows a drop passes) are the rules' own, and one off the field
 * simply fails, as the rotation system says (a turn whose every kick leaves the field is no turn: null).
 */
export class PieceMover extends Mover {
  /** `board`: a Board or BoardLike; `piece`: a letter or id 0..6; `rules`: a preset name or a RuleSet. */
  constructor(board: Board | BoardLike, piece: Piece | number, rules: RuleSet | RuleSetName) {
    super(Board.from(board), toPieceId(piece), resolveRules(rules));
  }

  override collides(s: number, x: number, y: number): boolean {
    this.checkPosition(s, x, y);
    return super.collides(s, x, y);
  }

  /**
   * The row the piece comes to rest in when dropped from (x, y): the piece must lie inside the field there (its
   * cells within the walls, the floor and the ceiling), else BAD_ARGUMENT naming the x and y allowed for state s.
   */
  override dropY(s: number, x: number, y: number): number {
    this.checkPosition(s, x, y);
    this.checkInField('dropY', s, x, y);
    return super.dropY(s, x, y);
  }

  override turn(p: PieceState, clockwise: boolean): PieceState | null {
    const state = this.checkState(p);
    this.checkClockwise(clockwise);
    return super.turn(state, clockwise);
  }

  override kickedTurn(p: PieceState, clockwise: boolean): { state: PieceState; kick: number } | null {
    const state = this.checkState(p);
    this.checkClockwise(clockwise);
    return super.kickedTurn(state, clockwise);
  }

  override spinAfterTurn(p: PieceState, clockwise: boolean): Spin {
    const state = this.checkState(p);
    this.checkClockwise(clockwise);
    return super.spinAfterTurn(state, clockwise);
  }

  /** Under 20G the state pulled down to rest (dropY: the piece must lie inside the field), else `p` unchanged. */
  override settle(p: PieceState): PieceState {
    const state = this.checkState(p);
    if (this.rules.gravity === '20G') this.checkInField('settle', state.rotation, state.x, state.y);
    return super.settle(state);
  }

  override apply(p: PieceState, input: Input): PieceState | null {
    const state = this.checkState(p);
    if (typeof input !== 'string' || !KEYS.has(input))
      throw new StackRankError('BAD_ARGUMENT', `input must be one of ${[...KEYS].join(', ')}; got ${describe(input)}`);
    return super.apply(state, input);
  }

  override cellsOf(p: PieceState): Cell[] {
    const state = this.checkState(p);
    return super.cellsOf(state);
  }

  private checkPosition(s: unknown, x: unknown, y: unknown): void {
    const states = this.geometry.cells.length;
    if (!Number.isInteger(s) || (s as number) < 0 || (s as number) >= states)
      throw new StackRankError('BAD_ARGUMENT', `a rotation state is an integer 0..${states - 1}; got ${describe(s)}`);
    const inRange = (v: unknown, high: number) =>
      Number.isInteger(v) && (v as number) >= -STATE_MARGIN && (v as number) <= high + STATE_MARGIN;
    if (!inRange(x, this.board.width) || !inRange(y, this.ceiling))
      throw new StackRankError(
        'BAD_ARGUMENT',
        `a piece position is integers x ${-STATE_MARGIN}..${this.board.width + STATE_MARGIN}, y ${-STATE_MARGIN}..${this.ceiling + STATE_MARGIN}; got x ${describe(x)}, y ${describe(y)}`,
      );
  }

  /** A drop starts from a piece inside the field: below the floor or past a wall it has nowhere to fall from. */
  private checkInField(what: string, s: number, x: number, y: number): void {
    const cells = this.geometry.cells[s];
    const dxs = cells.map((c) => c[0]);
    const dys = cells.map((c) => c[1]);
    const [x0, x1] = [-Math.min(...dxs), this.board.width - 1 - Math.max(...dxs)];
    const [y0, y1] = [-Math.min(...dys), this.ceiling - 1 - Math.max(...dys)];
    if (x < x0 || x > x1 || y < y0 || y > y1)
      throw new StackRankError(
        'BAD_ARGUMENT',
        `${what}: the piece must lie inside the field, which in rotation state ${s} is x ${x0}..${x1}, y ${y0}..${y1}; got x ${x}, y ${y}`,
      );
  }

  private checkClockwise(clockwise: unknown): void {
    if (typeof clockwise !== 'boolean')
      throw new StackRankError('BAD_ARGUMENT', `clockwise must be true or false; got ${describe(clockwise)}`);
  }

  /** A caller's piece state read once (docs/errors.md) into a copy, checked: the copy is what the move uses. */
  private checkState(p: unknown): PieceState {
    if (p === null || typeof p !== 'object')
      throw new StackRankError('BAD_ARGUMENT', `a piece state is { rotation, x, y }; got ${describe(p)}`);
    const state = fieldsOnce('PieceMover: the piece state', p, ['rotation', 'x', 'y']);
    this.checkPosition(state.rotation, state.x, state.y);
    return state as unknown as PieceState;
  }
}

/** Inputs allowed by a rule set, in search order. */
function movesFor(rules: RuleSet): Input[] {
  return SEARCH_MOVES.filter((m) => m !== 'softDrop' || (rules.softDrop && rules.gravity !== '20G'));
}

/**
 * Every distinct resting placement the piece can reach from spawn, each with a shortest input sequence ending in
 * `hardDrop`, in breadth-first order (fewest presses first). A piece that overlaps the stack where it appears
 * (a top-out) gets an empty list. The input is checked here; the search runs in WebAssembly (assembly/reachable.ts),
 * which gives exactly what `searchPlacements` below gives.
 */
export function reachablePlacements(
  board: Board | BoardLike,
  piece: Piece | number,
  options: ReachableOptions,
): GamePlacement[] {
  const b = Board.from(board);
  const pid = toPieceId(piece);
  const rules = checkOptions(options, 'reachablePlacements');
  return reach(b, pid, rules).placements();
}

/**
 * How many distinct placements are reachable, without building the list: the kernel's answer alone, for a caller
 * that searches many positions.
 */
export function countReachablePlacements(
  board: Board | BoardLike,
  piece: Piece | number,
  options: ReachableOptions,
): number {
  return reachCount(Board.from(board), toPieceId(piece), checkOptions(options, 'countReachablePlacements'));
}

/**
 * The search in TypeScript (its arguments checked as PieceMover's are): the readable definition the kernel is
 * tested against.
 */
export function searchPlacements(
  board: Board | BoardLike,
  piece: Piece | number,
  ruleSet: RuleSet | RuleSetName,
): GamePlacement[] {
  const mover = checkedMover(board, piece, ruleSet);
  const { rules, pieceId: pid } = mover;
  if (isTimed(rules))
    throw new StackRankError(
      'BAD_RULES',
      `searchPlacements is the timing-free search; the timed rule set ${rules.name} is searched frame by frame by reachablePlacements`,
    );
  const g = mover.geometry;
  const spawn = mover.spawn;
  if (mover.collides(spawn.rotation, spawn.x, spawn.y)) return [];
  const is20G = rules.gravity === '20G';
  const moves = movesFor(rules);

  // State index: rotation, then y, then x, with margins for references outside the board.
  const XOFF = 4;
  const XS = mover.board.width + 8;
  const YOFF = 4;
  const YS = mover.ceiling + 8;
  const index = (p: PieceState) => (p.rotation * YS + p.y + YOFF) * XS + p.x + XOFF;
  const size = g.cells.length * YS * XS;
  const parent = new Int32Array(size).fill(-2); // -2 unseen, -1 the start
  const via = new Int8Array(size);
  const queue: PieceState[] = [];

  const start = mover.settle(spawn);
  parent[index(start)] = -1;
  queue.push(start);

  const seen = new Set<number>();
  const placements: GamePlacement[] = [];
  const keys: number[] = [];
  const keyOf = (cells: readonly Cell[]) => {
    let key = 0;
    for (const [x, y] of cells) key = key * 1024 + y * 16 + x;
    return key;
  };
  // Spins: per placement (by its cells' key), the best spin a turn into a resting state makes there, and the first
  // turn found that makes it (breadth-first: the fewest presses, ties broken as the placements' are): the state the
  // piece rests in, the state it turned from and the turn.
  const spins = new Map<number, { level: number; landed: PieceState; from: number; move: number }>();
  const pathTo = (i: number): Input[] => {
    const path: Input[] = [];
    for (let k = i; parent[k] !== -1; k = parent[k]) path.push(moves[via[k]]);
    return path.reverse();
  };

  for (let head = 0; head < queue.length; head++) {
    const p = queue[head];
    const pi = index(p);
    const landed = { ...p, y: mover.dropY(p.rotation, p.x, p.y) };
    const cells = mover.cellsOf(landed);
    if (cells.every((c) => c[1] < mover.lockTop)) {
      const key = keyOf(cells);
      if (!seen.has(key)) {
        seen.add(key);
        keys.push(key);
        placements.push({
          piece: PIECES[pid],
          rotation: g.names[landed.rotation],
          x: landed.x,
          y: landed.y,
          cells,
          inputs: [...pathTo(pi), 'hardDrop'],
          spin: 'none',
        });
      }
    }
    for (let m = 0; m < moves.length; m++) {
      const move = moves[m];
      // Under 20G a turn as the very first input is TGM's initial rotation: the piece turns as it appears, before
      // it falls.
      const from = is20G && rules.initialRotation && head === 0 && (move === 'cw' || move === 'ccw') ? spawn : p;
      if (mover.spins && (move === 'cw' || move === 'ccw')) {
        const spin = mover.spinAfterTurn(from, move === 'cw');
        if (spin !== 'none') {
          const rest = mover.turn(from, move === 'cw')!;
          const key = keyOf(mover.cellsOf(rest));
          const level = SPINS.indexOf(spin);
          const best = spins.get(key);
          if (!best || level > best.level) spins.set(key, { level, landed: rest, from: pi, move: m });
        }
      }
      const q = mover.apply(from, move);
      if (!q) continue;
      const qi = index(q);
      if (parent[qi] !== -2) continue;
      parent[qi] = pi;
      via[qi] = m;
      queue.push(q);
    }
  }
  // A placement that a spin reaches is reported with its best spin and the keys that make it.
  for (let i = 0; i < placements.length; i++) {
    const best = spins.get(keys[i]);
    if (!best) continue;
    placements[i] = {
      ...placements[i],
      rotation: g.names[best.landed.rotation],
      x: best.landed.x,
      y: best.landed.y,
      inputs: [...pathTo(best.from), moves[best.move], 'hardDrop'],
      spin: SPINS[best.level],
    };
  }
  return placements;
}
