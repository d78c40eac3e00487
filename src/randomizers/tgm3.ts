/**
 * tgm3: TGM3 (Terror-Instinct)'s pool generator, with the game's pool quirk by default. A pool of 35 slots starts
 * with five of each piece. A roll picks a slot (nextInt(35)); if its piece is in the four-piece history the roll is
 * retried, up to six rolls, and the last is dealt regardless. Every rejected slot is overwritten with the most
 * droughted piece (the front of the drought order); after the deal the dealt piece moves to the back of the order
 * and its slot is overwritten with the new front. So a long-absent piece slowly floods the pool until it comes out.
 *
 * The quirk (the game's, as reverse-engineered and carried by the public ports): when a reroll happened, the dealt
 * piece was the most droughted one, and every piece has been dealt since the first, the dealt slot is left as it
 * is (it keeps the piece just dealt) instead of taking the new front. `poolQuirk: 0` gives the idealised
 * generator without it. The start follows those ports: drought order J I Z L O T S, history after the first piece
 * (newest first) first, Z, S, Z; the first piece (I, T, L or J, not drawn from the pool) changes neither the
 * drought order nor the pieces counted as dealt. docs/randomizers.md says why.
 */
import { PIECE_COUNT, pieceId } from '../pieces.js';
import type { Rng } from '../random.js';
import { StackRankError, describe } from '../errors.js';
import { BaseRandomizer, pairArray, type Successor } from './base.js';
import { defineRandomizer } from './definition.js';
import { booleanField, invalidState, pieceIdList } from './snapshot.js';
import { HISTORY_LENGTH, dealFirstPiece, historyMask, pushHistory, writeFirstPieceDistribution } from './history.js';

export const POOL_SIZE = 35;
const ROLLS = 6;
const INITIAL_DROUGHT_ORDER: readonly number[] = [...'JIZLOTS'].map(pieceId);
const HISTORY_AFTER_FIRST: readonly number[] = [...'ZSZ'].map(pieceId);
/** The `seen` mask once every piece has been dealt since the first piece. */
const ALL_SEEN = (1 << PIECE_COUNT) - 1;
/** Default of the `poolQuirk` parameter: 1 = the game's pool quirk, 0 = the idealised generator. */
export const DEFAULT_POOL_QUIRK = 1;
/** Slot counts per piece packed into one number: count[p] · 36^p (exact: the largest is 35 · 36^6 < 2^53). */
const PACK_BASE = POOL_SIZE + 1;
const PACK_PLACE: readonly number[] = Array.from({ length: PIECE_COUNT }, (_, p) => PACK_BASE ** p);
/** The largest history-slot count, plus one: the groups of nextPairDistribution's fast path. */
const GROUPS = POOL_SIZE + 1;

export function initialPool(): number[] {
  return Array.from({ length: POOL_SIZE }, (_, slot) => slot % PIECE_COUNT);
}

export function initialDroughtOrder(): number[] {
  return [...INITIAL_DROUGHT_ORDER];
}

function moveToBack(order: number[], id: number): void {
  order.splice(order.indexOf(id), 1);
  order.push(id);
}

function packCounts(pool: readonly number[]): number {
  let key = 0;
  for (const id of pool) key += PACK_PLACE[id];
  return key;
}

/** A pool with the packed slot counts, pieces in canonical order (where the slots are does not matter). */
function poolFromPacked(key: number): number[] {
  const pool: number[] = [];
  for (let p = 0; p < PIECE_COUNT; p++)
    for (let n = Math.floor(key / PACK_PLACE[p]) % PACK_BASE; n > 0; n--) pool.push(p);
  return pool;
}

function addTo(map: Map<number, number>, key: number, chance: number): void {
  map.set(key, (map.get(key) ?? 0) + chance);
}

export class Tgm3Randomizer extends BaseRandomizer {
  constructor(
    rng: Rng,
    private readonly pool: number[] = initialPool(),
    private readonly droughtOrder: number[] = initialDroughtOrder(),
    private readonly history: number[] = [],
    private started = false,
    /** Bit p is set once piece p has been dealt after the first piece (the quirk needs all seven). */
    private seen = 0,
    private readonly poolQuirk: number = DEFAULT_POOL_QUIRK,
  ) {
    super('tgm3', rng, { poolQuirk });
  }

  /** Whether dealing `id` after at least one rejected roll leaves its slot unchanged (the game's quirk). */
  private quirkKeepsSlot(id: number): boolean {
    return this.poolQuirk === 1 && id === this.droughtOrder[0] && (this.seen | (1 << id)) === ALL_SEEN;
  }

  /** Scratch for distribution(), so the analysis loop does not allocate per piece. */
  private readonly expectedSlots = new Float64Array(PIECE_COUNT);
  /** Scratch for nextPairDistribution (allocated on first use). */
  private pairScratch: PairScratch | undefined;

  nextId(): number {
    if (!this.started) {
      const first = dealFirstPiece(this.rng);
      this.recordFirst(first);
      return first;
    }
    const recent = historyMask(this.history);
    let slot = 0;
    let id = 0;
    let roll = 0;
    for (; roll < ROLLS; roll++) {
      slot = this.rng.nextInt(POOL_SIZE);
      id = this.pool[slot];
      if ((recent & (1 << id)) === 0 || roll === ROLLS - 1) break;
      this.pool[slot] = this.droughtOrder[0];
    }
    const keepSlot = roll > 0 && this.quirkKeepsSlot(id);
    this.seen |= 1 << id;
    moveToBack(this.droughtOrder, id);
    if (!keepSlot) this.pool[slot] = this.droughtOrder[0];
    pushHistory(this.history, id);
    return id;
  }

  private recordFirst(first: number): void {
    this.history.splice(0, this.history.length, first, ...HISTORY_AFTER_FIRST);
    this.started = true;
  }

  /**
   * Exact, not estimated. The rolls only ever overwrite history slots with one fixed piece (the front of the
   * order), so the number of history slots left after k rejections is known in advance (T, or T - k when the
   * front piece is not in the history). Hence the chance of reaching roll k does not depend on which slots were
   * hit, and the expected slot counts given that roll k is reached follow a linear recurrence: each history
   * piece keeps a share (1 - 1/T_k) of its slots and the front piece gains one.
   */
  protected probabilities(out: Float64Array): void {
    if (!this.started) {
      writeFirstPieceDistribution(out);
      return;
    }
    const slots = this.expectedSlots.fill(0);
    for (const id of this.pool) slots[id]++;
    out.fill(0);
    const recent = historyMask(this.history);
    addTgm3Chances(slots, countHistorySlots(slots, recent), recent, this.droughtOrder[0], out, 0, 1);
  }

  /**
   * Given the piece dealt, the drought order and the history after the deal are known, but the pool is not:
   * which history slots the rejected rolls overwrote (and how many rolls were rejected) is up to the rolls.
   * So this enumerates the rolls, merging equal slot counts roll by roll (at most 126 of them after five
   * rejections of four pieces), and returns every possible pool with its chance given the piece. Only the
   * slot counts matter for what comes next, so each pool lists its pieces in canonical order.
   */
  successors(id: number, rng: Rng): Successor[] {
    if (!this.started) {
      const after = this.withRng(rng);
      after.recordFirst(id);
      return [{ weight: 1, randomizer: after }];
    }
    const recent = historyMask(this.history);
    const front = this.droughtOrder[0];
    const order = [...this.droughtOrder];
    moveToBack(order, id);
    const history = [...this.history];
    pushHistory(history, id);
    // The dealt slot becomes the new front of the order (unless the quirk keeps it, after a rejected roll).
    const dealtSlotChange = PACK_PLACE[order[0]] - PACK_PLACE[id];
    const quirk = this.quirkKeepsSlot(id);
    const seen = this.seen | (1 << id);
    const dealt = new Map<number, number>();
    let level = new Map<number, number>([[packCounts(this.pool), 1]]);
    for (let roll = 0; roll < ROLLS && level.size > 0; roll++) {
      const last = roll === ROLLS - 1;
      const next = new Map<number, number>();
      for (const [key, chance] of level) {
        for (let q = 0; q < PIECE_COUNT; q++) {
          const slots = Math.floor(key / PACK_PLACE[q]) % PACK_BASE;
          if (slots === 0) continue;
          const hit = (chance * slots) / POOL_SIZE;
          if (last || (recent & (1 << q)) === 0) {
            if (q === id) addTo(dealt, roll > 0 && quirk ? key : key + dealtSlotChange, hit);
          } else {
            addTo(next, key - PACK_PLACE[q] + PACK_PLACE[front], hit);
          }
        }
      }
      level = next;
    }
    let total = 0;
    for (const chance of dealt.values()) total += chance;
    return [...dealt].map(([key, chance]) => ({
      weight: chance / total,
      randomizer: new Tgm3Randomizer(rng, poolFromPacked(key), [...order], [...history], true, seen, this.poolQuirk),
    }));
  }

  /**
   * Fast path, no allocation. Which pieces the rejected rolls hit, as a multiset, fixes the slot counts (each
   * rejection takes a slot from the piece hit and gives it to the front piece), so a walk over the at most 126
   * multisets of up to five rejections of up to four history pieces reaches every (piece dealt, pool after) with
   * its chance. The distribution that follows is affine in the expected slot counts once the number of history
   * slots T is fixed (see probabilities()), so the outcomes are grouped by (piece dealt, T after the deal) and
   * each group is evaluated once at its average slot counts: exact.
   */
  nextPairDistribution(into?: Float64Array): Float64Array {
    if (!this.started) return super.nextPairDistribution(into);
    const out = pairArray(into).fill(0);
    const s = (this.pairScratch ??= newPairScratch());
    s.groupChance.fill(0);
    s.groupSlots.fill(0);
    s.startCounts.fill(0);
    for (const id of this.pool) s.startCounts[id]++;
    const front = this.droughtOrder[0];
    let kept = 0;
    for (let i = 0; i < this.history.length - 1; i++) kept |= 1 << this.history[i];
    for (let p1 = 0; p1 < PIECE_COUNT; p1++) {
      s.recentAfter[p1] = kept | (1 << p1);
      s.frontAfter[p1] = p1 === front ? this.droughtOrder[1] : front;
    }
    for (let p1 = 0; p1 < PIECE_COUNT; p1++) s.quirkAfterReject[p1] = this.quirkKeepsSlot(p1) ? 1 : 0;
    groupDeals(s, historyMask(this.history), front);
    for (let p1 = 0; p1 < PIECE_COUNT; p1++) {
      for (let t = 0; t < GROUPS; t++) {
        const g = p1 * GROUPS + t;
        const chance = s.groupChance[g];
        if (chance === 0) continue;
        for (let p = 0; p < PIECE_COUNT; p++) s.slots[p] = s.groupSlots[g * PIECE_COUNT + p] / chance;
        addTgm3Chances(s.slots, t, s.recentAfter[p1], s.frontAfter[p1], out, p1 * PIECE_COUNT, chance);
      }
    }
    return out;
  }

  protected fields() {
    return {
      started: this.started,
      history: [...this.history],
      pool: [...this.pool],
      droughtOrder: [...this.droughtOrder],
      seen: this.seen,
    };
  }

  /** Slot counts, not slots: where a piece sits in the pool does not change any chance. */
  stateKey(): string {
    const counts = new Array<number>(PIECE_COUNT).fill(0);
    for (const id of this.pool) counts[id]++;
    return JSON.stringify([this.started, counts, this.droughtOrder, this.history, this.seen]);
  }

  withRng(rng: Rng): Tgm3Randomizer {
    return new Tgm3Randomizer(
      rng,
      [...this.pool],
      [...this.droughtOrder],
      [...this.history],
      this.started,
      this.seen,
      this.poolQuirk,
    );
  }
}

/**
 * Adds scale · P(p next) to out[at + p] for a started game whose pool holds `slots[p]` slots of piece p (expected
 * counts may be fractional), `historySlots` of them (an integer) holding pieces of the history `recent` (a bit
 * mask), and whose drought order starts with `front`. Overwrites `slots`. The number of history slots at each
 * roll is tracked as the integer it is, not re-summed from the expected counts, so a piece that cannot come
 * (its slots all overwritten before the last roll) gets exactly 0, not a rounding residue.
 */
function addTgm3Chances(
  slots: Float64Array,
  historySlots: number,
  recent: number,
  front: number,
  out: Float64Array,
  at: number,
  scale: number,
): void {
  const frontRemembered = (recent & (1 << front)) !== 0;
  let reach = scale;
  for (let roll = 0; roll < ROLLS; roll++) {
    const last = roll === ROLLS - 1;
    for (let p = 0; p < PIECE_COUNT; p++) {
      if (last || (recent & (1 << p)) === 0) out[at + p] += (reach * slots[p]) / POOL_SIZE;
    }
    if (last || historySlots === 0) break;
    for (let p = 0; p < PIECE_COUNT; p++) if (recent & (1 << p)) slots[p] -= slots[p] / historySlots;
    slots[front] += 1;
    reach *= historySlots / POOL_SIZE;
    // A rejected slot is overwritten with the front piece: one history slot fewer unless that is remembered too.
    if (!frontRemembered) historySlots--;
  }
}

/** How many of the slots counted in `slots` hold a piece of `recent`. */
function countHistorySlots(slots: ArrayLike<number>, recent: number): number {
  let n = 0;
  for (let p = 0; p < PIECE_COUNT; p++) if (recent & (1 << p)) n += slots[p];
  return n;
}

/** Rejection multisets are indexed m0 + 6 m1 + 36 m2 + 216 m3 (m_j ≤ 5 rejections of the j-th history piece). */
const REJECT_RADIX = ROLLS;
const REJECT_INDEXES = REJECT_RADIX ** HISTORY_LENGTH;

interface PairScratch {
  /** Slot counts before the deal, and after the rejections being looked at. */
  startCounts: Float64Array;
  counts: Float64Array;
  /** Per piece p1: the history mask and the order's front after dealing p1. */
  recentAfter: Int32Array;
  frontAfter: Int32Array;
  /** Per p1: 1 when dealing p1 after a rejected roll leaves its slot unchanged (the pool quirk). */
  quirkAfterReject: Int32Array;
  /** The distinct history pieces, and each piece's place among them (-1 if not in the history). */
  remembered: Int32Array;
  place: Int32Array;
  /** Per rejection multiset: the chance that the first rolls are rejected hitting exactly it. */
  reach: Float64Array;
  /** Per (p1, T): the chance of dealing p1 and leaving T history slots, and the chance-weighted slot counts. */
  groupChance: Float64Array;
  groupSlots: Float64Array;
  slots: Float64Array;
}

function newPairScratch(): PairScratch {
  return {
    startCounts: new Float64Array(PIECE_COUNT),
    counts: new Float64Array(PIECE_COUNT),
    recentAfter: new Int32Array(PIECE_COUNT),
    frontAfter: new Int32Array(PIECE_COUNT),
    quirkAfterReject: new Int32Array(PIECE_COUNT),
    remembered: new Int32Array(HISTORY_LENGTH),
    place: new Int32Array(PIECE_COUNT),
    reach: new Float64Array(REJECT_INDEXES),
    groupChance: new Float64Array(PIECE_COUNT * GROUPS),
    groupSlots: new Float64Array(PIECE_COUNT * GROUPS * PIECE_COUNT),
    slots: new Float64Array(PIECE_COUNT),
  };
}

/**
 * Walks the rejection multisets in increasing index order (a multiset's predecessors, one rejection fewer,
 * have smaller indexes, so each is complete when reached) and adds every deal it can end in to its group
 * (piece dealt, history slots after the deal), with the dealt slot turned into the new front.
 */
function groupDeals(s: PairScratch, recent: number, front: number): void {
  let distinct = 0;
  s.place.fill(-1);
  for (let p = 0; p < PIECE_COUNT; p++) {
    if (recent & (1 << p)) {
      s.place[p] = distinct;
      s.remembered[distinct++] = p;
    }
  }
  const reach = s.reach.fill(0);
  const counts = s.counts;
  reach[0] = 1;
  for (let index = 0; index < REJECT_INDEXES; index++) {
    const chance = reach[index];
    if (chance === 0) continue;
    counts.set(s.startCounts);
    let rejected = 0;
    for (let j = 0, rest = index; j < distinct; j++, rest = Math.floor(rest / REJECT_RADIX)) {
      const m = rest % REJECT_RADIX;
      counts[s.remembered[j]] -= m;
      rejected += m;
    }
    counts[front] += rejected;
    const last = rejected === ROLLS - 1;
    for (let q = 0; q < PIECE_COUNT; q++) {
      const n = counts[q];
      if (n <= 0) continue;
      const hit = (chance * n) / POOL_SIZE;
      if (!last && (recent & (1 << q)) !== 0) {
        reach[index + REJECT_RADIX ** s.place[q]] += hit;
        continue;
      }
      // The dealt slot turns into the new front, unless the quirk keeps it (then the front is q itself).
      const frontAfter = rejected > 0 && s.quirkAfterReject[q] ? q : s.frontAfter[q];
      counts[q]--;
      counts[frontAfter]++;
      const g = q * GROUPS + countHistorySlots(counts, s.recentAfter[q]);
      s.groupChance[g] += hit;
      for (let p = 0; p < PIECE_COUNT; p++) s.groupSlots[g * PIECE_COUNT + p] += hit * counts[p];
      counts[frontAfter]--;
      counts[q]++;
    }
  }
}

function checkPoolQuirk(value: unknown): number {
  if (value !== 0 && value !== 1)
    throw new StackRankError(
      'BAD_ARGUMENT',
      `tgm3's poolQuirk must be 1 (the game's pool quirk) or 0 (the idealised pool); got ${describe(value)}`,
    );
  return value;
}

export const tgm3 = defineRandomizer({
  name: 'tgm3',
  description: "TGM3's pool of 35 slots refilled by drought, with the game's pool quirk (poolQuirk)",
  defaults: {
    /** tgm3 only: 1 (default) deals with the game's pool quirk, 0 with the idealised pool (docs/randomizers.md). */
    poolQuirk: DEFAULT_POOL_QUIRK as 0 | 1,
  },
  create: (rng, params) =>
    new Tgm3Randomizer(rng, initialPool(), initialDroughtOrder(), [], false, 0, checkPoolQuirk(params.poolQuirk)),
  restore: (rng, state) => {
    const started = booleanField(state, 'started');
    const order = pieceIdList(state, 'droughtOrder', PIECE_COUNT);
    if (new Set(order).size !== PIECE_COUNT)
      invalidState(state, `droughtOrder must list each piece once; got ${describe(order)}`);
    const history = pieceIdList(state, 'history', started ? HISTORY_LENGTH : 0);
    const seen = state.seen;
    if (!Number.isInteger(seen) || (seen as number) < 0 || (seen as number) >= 1 << PIECE_COUNT) {
      invalidState(state, `seen must be a bit mask 0..${(1 << PIECE_COUNT) - 1}; got ${describe(seen)}`);
    }
    const poolQuirk = checkPoolQuirk(state.params.poolQuirk);
    return new Tgm3Randomizer(
      rng,
      [...pieceIdList(state, 'pool', POOL_SIZE)],
      [...order],
      [...history],
      started,
      seen as number,
      poolQuirk,
    );
  },
  longIDroughts: false,
});
