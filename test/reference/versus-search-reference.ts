/**
 * Reference of the versus policy's search (docs/game.md, "The versus policy"), independent of the versus kernel
 * (assembly/versus/): the evaluator's terms from the board's cells one by one, the lock on arrays of cells, the
 * attack by the reference's own guideline counting (versus-reference.ts), the garbage on a list of entries, and the
 * beam search over plain objects (a Map by key for equal states, a sort for the beam). The placements come from a
 * `reach` function (the rules layer's reachablePlacements, tested against its own reference), in its order. The
 * values are added in the kernel's order, so the two agree to the last bit. Test-only.
 */
import { PIECES, type Piece } from '../../src/pieces.js';
import type { GamePlacement } from '../../src/rules/types.js';
import { refGuidelineLock, type RefSpin } from './versus-reference.js';

export type Reach = (rows: Uint32Array, piece: Piece) => readonly GamePlacement[];

/** The weights by term, in the kernel's order (src/tetris-ai/versus.ts VERSUS_TERMS). */
export const REF_TERMS = [
  'height',
  'overHalf',
  'overQuarter',
  'bumpiness',
  'bumpinessSq',
  'rowTransitions',
  'holes',
  'overhangs',
  'covered',
  'coveredSq',
  'wellDepth',
  'tSlot0',
  'tSlot1',
  'tSlot2',
  'tSlot3',
  'backToBack',
  'holdT',
  'holdTSlot',
  'attack',
  'b2bClear',
  'combo',
  'perfectClear',
  'wastedT',
  'single',
  'double',
  'triple',
  'tetris',
  'tSpinMini',
  'tSpinMiniSingle',
  'tSpinMiniDouble',
  'tSpin',
  'tSpinSingle',
  'tSpinDouble',
  'tSpinTriple',
] as const;
export type RefWeights = Record<(typeof REF_TERMS)[number], number>;

export interface RefVersusContext {
  width: number;
  visible: number;
  depth: number;
  beam: number;
  holdAllowed: boolean;
  weights: RefWeights;
  reach: Reach;
  /** T-spins the evaluator imagines in a board's T-slots (0, the default: the best slot valued as it stands). */
  tSlotCuts?: number;
  /** The placements below the first ply, when not `reach`'s (the quick list: versus-quick-reference.ts). */
  reachBelow?: Reach;
}

export interface RefVersusState {
  rows: Uint32Array;
  /** The known pieces, the current one first. */
  sequence: readonly Piece[];
  hold: Piece | null;
  canHold: boolean;
  combo: number;
  backToBack: number;
  incoming: readonly { lines: number; delay: number }[];
}

const TOP_OUT = -1e9;
const COMBO_TABLE = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];

interface Node {
  rows: number[];
  next: number;
  hold: Piece | null;
  canHold: boolean;
  combo: number;
  b2b: boolean;
  /** Garbage entries still waiting (lines left, root delay), oldest first. */
  queue: { lines: number; delay: number }[];
  risen: number;
  plies: number;
  acc: number;
  value: number;
  /** The root move: hold pressed, index in the piece's list; null at the root. */
  root: { hold: boolean; index: number } | null;
}

// ----- the board -----

function heightsOf(rows: readonly number[], width: number): number[] {
  const h = new Array<number>(width).fill(0);
  for (let y = 0; y < rows.length; y++) for (let x = 0; x < width; x++) if ((rows[y] >> x) & 1) h[x] = y + 1;
  return h;
}

/** The best reachable T-slot by the slot shapes of docs/game.md (null for none): the rows its T-spin would clear, and
 * the T's cells (the first slot found of the most rows: T-spin doubles by column, then triples by notch column). */
export function refBestTSlotAt(
  rows: readonly number[],
  width: number,
): { lines: number; cells: [number, number][] } | null {
  const filled = (x: number, y: number) =>
    x < 0 || x >= width || y < 0 || (y < rows.length && ((rows[y] >> x) & 1) === 1);
  const rowFullWith = (y: number, xs: number[]) => {
    for (let x = 0; x < width; x++) if (!filled(x, y) && !xs.includes(x)) return false;
    return true;
  };
  const h = heightsOf(rows, width);
  let best: { lines: number; cells: [number, number][] } | null = null;
  const consider = (lines: number, cells: [number, number][]) => {
    if (!best || lines > best.lines) best = { lines, cells };
  };
  // T-spin double: the T pointing down, its stem at (x, y) with nothing over it in column x (the column may be
  // deeper: the T hangs on the cells under its wings), its wings at row y + 1
  for (let x = 1; x < width - 1; x++)
    for (let y = h[x]; y < rows.length; y++) {
      if (!filled(x - 1, y) || !filled(x + 1, y) || filled(x - 1, y + 1) || filled(x + 1, y + 1)) continue;
      const left = filled(x - 1, y + 2);
      const right = filled(x + 1, y + 2);
      if (left === right) continue;
      if (h[left ? x + 1 : x - 1] !== y + 1) continue;
      const lines = (rowFullWith(y, [x]) ? 1 : 0) + (rowFullWith(y + 1, [x - 1, x, x + 1]) ? 1 : 0);
      consider(lines, [
        [x, y],
        [x - 1, y + 1],
        [x, y + 1],
        [x + 1, y + 1],
      ]);
    }
  // T-spin triple: the T upright in column c (rows y - 1 .. y + 1) pointing into the notch (n, y)
  for (let n = 0; n < width; n++) {
    const y = h[n] - 2;
    if (y < 1) continue;
    for (const side of [-1, 1]) {
      const c = n - side;
      const far = n + side;
      const beyond = n + 2 * side;
      if (c < 0 || c >= width || beyond < 0 || beyond >= width) continue;
      if (h[far] > y + 2 || h[beyond] > y + 2) continue;
      if (!filled(c, y + 3)) continue;
      if (filled(c, y - 1) || filled(c, y) || filled(c, y + 1) || filled(c, y + 2)) continue;
      if (filled(n, y) || !filled(n, y - 1)) continue;
      if (!filled(c - side, y - 1) && !filled(c - side, y + 1)) continue;
      const lines = [rowFullWith(y - 1, [c]), rowFullWith(y, [c, n]), rowFullWith(y + 1, [c])].filter(Boolean).length;
      consider(lines, [
        [c, y - 1],
        [c, y],
        [c, y + 1],
        [n, y],
      ]);
    }
  }
  return best;
}

/** Rows a T-spin would clear in the best reachable T-slot (-1 for none). */
export function refBestTSlot(rows: readonly number[], width: number): number {
  return refBestTSlotAt(rows, width)?.lines ?? -1;
}

/** The rows after a T locks into `cells` and the full rows clear (the top's empty rows dropped). */
export function refCutTSlot(rows: readonly number[], width: number, cells: [number, number][]): number[] {
  const out = [...rows];
  for (const [x, y] of cells) {
    while (out.length <= y) out.push(0);
    out[y] |= 1 << x;
  }
  const kept = out.filter((r) => r !== (1 << width) - 1);
  while (kept.length > 0 && kept[kept.length - 1] === 0) kept.pop();
  return kept;
}

/** The evaluator's board terms of a board (garbage risen and waiting given), as numbers by term. */
export function refBoardTerms(
  rows: readonly number[],
  width: number,
  visible: number,
  risen: number,
  waiting: number,
  b2b: boolean,
): Partial<RefWeights> {
  const h = heightsOf(rows, width);
  const cell = (x: number, y: number) => y < rows.length && ((rows[y] >> x) & 1) === 1;
  let holes = 0;
  let overhangs = 0;
  let covered = 0;
  let coveredSq = 0;
  for (let x = 0; x < width; x++) {
    let highest = -1;
    for (let y = 0; y < h[x]; y++) {
      if (cell(x, y)) continue;
      highest = y;
      const open = (x > 0 && h[x - 1] <= y) || (x < width - 1 && h[x + 1] <= y);
      if (open) overhangs++;
      else holes++;
    }
    if (highest >= 0) {
      const k = Math.min(6, h[x] - 1 - highest);
      covered += k;
      coveredSq += k * k;
    }
  }
  let rowTransitions = 0;
  for (let y = 0; y < visible; y++) {
    let prev = true;
    for (let x = 0; x < width; x++) {
      const f = cell(x, y);
      if (f !== prev) rowTransitions++;
      prev = f;
    }
    if (!prev) rowTransitions++;
  }
  let well = 0;
  for (let x = 0; x < width; x++) if (h[x] <= h[well]) well = x;
  const others = [...Array(width).keys()].filter((x) => x !== well);
  let bumpiness = 0;
  let bumpinessSq = 0;
  for (let i = 1; i < others.length; i++) {
    const d = Math.abs(h[others[i]] - h[others[i - 1]]);
    bumpiness += d;
    bumpinessSq += d * d;
  }
  let wellDepth = 0;
  for (let y = h[well]; wellDepth < 4; y++) {
    let ok = !cell(well, y);
    for (const x of others) ok &&= cell(x, y);
    if (!ok) break;
    wellDepth++;
  }
  const height = Math.max(...h) + risen + waiting;
  const terms: Partial<RefWeights> = {
    height,
    overHalf: Math.max(0, height - 10),
    overQuarter: Math.max(0, height - 15),
    bumpiness,
    bumpinessSq,
    rowTransitions,
    holes,
    overhangs,
    covered,
    coveredSq,
    wellDepth,
    tSlot0: 0,
    tSlot1: 0,
    tSlot2: 0,
    tSlot3: 0,
    backToBack: b2b ? 1 : 0,
  };
  const slot = refBestTSlot(rows, width);
  if (slot >= 0) terms[`tSlot${slot}` as 'tSlot0'] = 1;
  return terms;
}

/** The board terms weighted and summed in the kernel's order. */
function boardValue(t: Partial<RefWeights>, w: RefWeights): number {
  let v =
    w.height * t.height! +
    w.overHalf * t.overHalf! +
    w.overQuarter * t.overQuarter! +
    w.bumpiness * t.bumpiness! +
    w.bumpinessSq * t.bumpinessSq! +
    w.rowTransitions * t.rowTransitions! +
    w.holes * t.holes! +
    w.overhangs * t.overhangs! +
    w.covered * t.covered! +
    w.coveredSq * t.coveredSq! +
    w.wellDepth * t.wellDepth!;
  for (const s of [0, 1, 2, 3] as const) if (t[`tSlot${s}`] === 1) v += w[`tSlot${s}`];
  v += w.backToBack * t.backToBack!;
  return v;
}

/**
 * The weighted board terms of a board with `cuts` T-spins to imagine (docs/game.md, "The versus policy"; -1: the best
 * T-slot valued as it stands): while one is left and the board has a T-slot, the slot's weight plus the value of the
 * board after a T locks into it.
 */
export function refBoardValue(
  rows: readonly number[],
  width: number,
  visible: number,
  risen: number,
  waiting: number,
  b2b: boolean,
  w: RefWeights,
  cuts: number,
): number {
  if (cuts > 0) {
    const slot = refBestTSlotAt(rows, width);
    if (slot)
      return (
        w[`tSlot${slot.lines}` as 'tSlot0'] +
        refBoardValue(refCutTSlot(rows, width, slot.cells), width, visible, risen, waiting, b2b, w, cuts - 1)
      );
  }
  const t = refBoardTerms(rows, width, visible, risen, waiting, b2b);
  if (cuts === 0) for (const s of [0, 1, 2, 3] as const) t[`tSlot${s}`] = 0;
  return boardValue(t, w);
}

/** The hold box's terms weighted and summed in the kernel's order (docs/game.md, "The versus policy"): a T held, and
 * a T held over a board with a T-slot (the board as it stands, before its T-spin is imagined). */
export function refHoldValue(rows: readonly number[], width: number, hold: Piece | null, w: RefWeights): number {
  if (hold !== 'T') return 0;
  return w.holdT + (refBestTSlot(rows, width) >= 0 ? w.holdTSlot : 0);
}

const KIND_TERMS: Record<RefSpin, (keyof RefWeights | null)[]> = {
  none: [null, 'single', 'double', 'triple', 'tetris'],
  mini: ['tSpinMini', 'tSpinMiniSingle', 'tSpinMiniDouble'],
  full: ['tSpin', 'tSpinSingle', 'tSpinDouble', 'tSpinTriple'],
};

const waitingOf = (queue: readonly { lines: number }[]) => queue.reduce((a, e) => a + e.lines, 0);

/** The child of a node for one placement (its piece, and whether hold was pressed for it). */
function child(ctx: RefVersusContext, node: Node, p: GamePlacement, hold: boolean, sequence: readonly Piece[]): Node {
  const { width } = ctx;
  const full = (1 << width) - 1;
  const rows = [...node.rows];
  for (const [x, y] of p.cells) {
    while (rows.length <= y) rows.push(0);
    rows[y] |= 1 << x;
  }
  const kept = rows.filter((r) => r !== full);
  const lines = rows.length - kept.length;
  while (kept.length > 0 && kept[kept.length - 1] === 0) kept.pop();
  const perfect = lines > 0 && kept.length === 0;
  const spin = p.spin as RefSpin;
  const { sent } = refGuidelineLock(lines, spin, perfect, { combo: node.combo, b2b: node.b2b });
  const hard = lines === 4 || spin !== 'none';
  const chain = lines > 0 && hard && node.b2b;
  const comboLines = lines > 0 ? COMBO_TABLE[Math.min(node.combo, COMBO_TABLE.length - 1)] : 0;
  // the garbage: a clear cancels, a lock that clears nothing lets in what is due
  let queue = node.queue.map((e) => ({ ...e }));
  let risen = node.risen;
  if (lines > 0) {
    let a = sent;
    while (a > 0 && queue.length > 0) {
      const take = Math.min(a, queue[0].lines);
      a -= take;
      queue[0].lines -= take;
      if (queue[0].lines === 0) queue = queue.slice(1);
    }
  } else {
    while (queue.length > 0 && queue[0].delay <= node.plies) risen += queue.shift()!.lines;
  }
  const w = ctx.weights;
  const wasted = p.piece === 'T' && !(spin !== 'none' && lines > 0);
  let terms =
    w.attack * sent +
    w.b2bClear * (chain ? 1 : 0) +
    w.combo * comboLines +
    w.perfectClear * (perfect ? 1 : 0) +
    w.wastedT * (wasted ? 1 : 0);
  const kindTerm = KIND_TERMS[spin][lines];
  if (kindTerm) terms += w[kindTerm];
  let acc = node.acc + terms;
  // a line that tops out places no more pieces
  const toppedOut = kept.length + risen > ctx.visible;
  if (toppedOut) acc += TOP_OUT;
  const current = sequence[node.next];
  const next: Node = {
    rows: kept,
    next: toppedOut ? sequence.length : hold && node.hold === null ? node.next + 2 : node.next + 1,
    hold: hold ? current : node.hold,
    canHold: true,
    combo: lines > 0 ? node.combo + 1 : 0,
    b2b: lines > 0 ? hard : node.b2b,
    queue,
    risen,
    plies: node.plies + 1,
    acc,
    value: 0,
    root: node.root,
  };
  const given = ctx.tSlotCuts ?? 0;
  const cuts = given === 0 ? -1 : given;
  next.value =
    acc +
    (refBoardValue(kept, width, ctx.visible, risen, waitingOf(queue), next.b2b, w, cuts) +
      refHoldValue(kept, width, next.hold, w));
  return next;
}

/** Two lines with equal keys have the same future. */
function keyOf(n: Node): string {
  return [
    n.rows.join(','),
    n.hold ?? '-',
    n.next,
    Math.min(n.combo, 63),
    n.b2b ? 1 : 0,
    n.queue.map((e) => `${e.lines}/${e.delay}`).join(';'),
    n.risen,
  ].join('|');
}

/** The search: the best line's root move (null when the root has no move) and value. */
export function refVersusSearch(
  ctx: RefVersusContext,
  state: RefVersusState,
  force?: { hold: boolean; index: number },
): { root: { hold: boolean; index: number } | null; value: number } {
  const { sequence } = state;
  const rows = Array.from(state.rows);
  while (rows.length > 0 && rows[rows.length - 1] === 0) rows.pop();
  let level: Node[] = [
    {
      rows,
      next: 0,
      hold: state.hold,
      canHold: state.canHold,
      combo: state.combo,
      b2b: state.backToBack > 0,
      queue: state.incoming.map((e) => ({ ...e })),
      risen: 0,
      plies: 0,
      acc: 0,
      value: 0,
      root: null,
    },
  ];
  let plies = 0;
  for (let d = 0; d < ctx.depth; d++) {
    const best = new Map<string, { node: Node; gen: number }>();
    let gen = 0;
    let open = false;
    const offer = (n: Node) => {
      const k = keyOf(n);
      const had = best.get(k);
      if (!had || n.value > had.node.value) best.set(k, { node: n, gen });
      gen++;
    };
    for (const node of level) {
      if (node.next >= sequence.length) {
        offer(node);
        continue;
      }
      open = true;
      const current = sequence[node.next];
      const options: { hold: boolean; piece: Piece }[] = [{ hold: false, piece: current }];
      if (ctx.holdAllowed && node.canHold) {
        if (node.hold !== null) {
          if (node.hold !== current) options.push({ hold: true, piece: node.hold });
        } else if (node.next + 1 < sequence.length) options.push({ hold: true, piece: sequence[node.next + 1] });
      }
      for (const { hold, piece } of options) {
        const board = new Uint32Array(Math.max(44, node.rows.length));
        board.set(node.rows);
        const list = (d > 0 && ctx.reachBelow ? ctx.reachBelow : ctx.reach)(board, piece);
        list.forEach((p, index) => {
          const root = node.root ?? { hold, index };
          if (!node.root && force && (force.hold !== hold || force.index !== index)) return;
          offer({ ...child(ctx, node, p, hold, sequence), root });
        });
      }
    }
    if (!open || best.size === 0) break;
    level = [...best.values()]
      .sort((a, b) => b.node.value - a.node.value || a.gen - b.gen)
      .slice(0, ctx.beam)
      .map((e) => e.node);
    plies++;
  }
  if (plies === 0) return { root: null, value: 0 };
  return { root: level[0].root, value: level[0].value };
}

export const pieceId = (p: Piece) => PIECES.indexOf(p);
