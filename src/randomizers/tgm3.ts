/**
 * tgm3: TGM3's pool generator (seed 003). A pool of 35 slots starts with five of each piece. A roll picks a slot
 * (nextInt(35)); if its piece is in the four-piece history the roll is retried, up to six rolls, and the last is
 * dealt regardless. Every rejected slot is overwritten with the most droughted piece (the front of the drought
 * order); after the deal the dealt piece moves to the back of the order and its slot is overwritten with the
 * new front. So a long-absent piece slowly floods the pool until it comes out.
 *
 * Decisions where seed 003's sketch is silent or differs from the game: the drought order starts as the game's
 * J I Z L O T S (the sketch starts it empty, which makes early rerolls keep their slot); the first piece (I, T, L
 * or J, not drawn from the pool) moves to the back of the order; the history after it is, newest first,
 * first, S, Z, S as in the sketch.
 */
import { PIECE_COUNT, pieceId } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer } from './base.js';
import { dealFirstPiece, historyMask, pushHistory, writeFirstPieceDistribution } from './history.js';

export const POOL_SIZE = 35;
const ROLLS = 6;
const INITIAL_DROUGHT_ORDER: readonly number[] = [...'JIZLOTS'].map(pieceId);
const HISTORY_AFTER_FIRST: readonly number[] = [...'SZS'].map(pieceId);

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

export class Tgm3Randomizer extends BaseRandomizer {
  constructor(
    rng: Rng,
    private readonly pool: number[] = initialPool(),
    private readonly droughtOrder: number[] = initialDroughtOrder(),
    private readonly history: number[] = [],
    private started = false,
  ) {
    super('tgm3', rng);
  }

  /** Scratch for distribution(), so the analysis loop does not allocate per piece. */
  private readonly expectedSlots = new Float64Array(PIECE_COUNT);

  nextId(): number {
    if (!this.started) {
      const first = dealFirstPiece(this.rng);
      this.history.splice(0, this.history.length, first, ...HISTORY_AFTER_FIRST);
      moveToBack(this.droughtOrder, first);
      this.started = true;
      return first;
    }
    const recent = historyMask(this.history);
    let slot = 0;
    let id = 0;
    for (let roll = 0; roll < ROLLS; roll++) {
      slot = this.rng.nextInt(POOL_SIZE);
      id = this.pool[slot];
      if ((recent & (1 << id)) === 0 || roll === ROLLS - 1) break;
      this.pool[slot] = this.droughtOrder[0];
    }
    moveToBack(this.droughtOrder, id);
    this.pool[slot] = this.droughtOrder[0];
    pushHistory(this.history, id);
    return id;
  }

  /**
   * Exact, not estimated. The rolls only ever overwrite history slots with one fixed piece (the front of the
   * order), so the number of history slots left after k rejections is known in advance (T, or T - k when the
   * front piece is not in the history). Hence the chance of reaching roll k does not depend on which slots were
   * hit, and the expected slot counts given that roll k is reached follow a linear recurrence: each history
   * piece keeps a share (1 - 1/T_k) of its slots and the front piece gains one.
   */
  protected probabilities(out: Float64Array): void {
    if (!this.started) return writeFirstPieceDistribution(out);
    const recent = historyMask(this.history);
    const front = this.droughtOrder[0];
    const slots = this.expectedSlots.fill(0);
    for (const id of this.pool) slots[id]++;
    out.fill(0);
    let reach = 1;
    for (let roll = 0; roll < ROLLS && reach > 0; roll++) {
      const last = roll === ROLLS - 1;
      let historySlots = 0;
      for (let p = 0; p < PIECE_COUNT; p++) {
        if (last || (recent & (1 << p)) === 0) out[p] += (reach * slots[p]) / POOL_SIZE;
        if (recent & (1 << p)) historySlots += slots[p];
      }
      if (last || historySlots === 0) break;
      for (let p = 0; p < PIECE_COUNT; p++) if (recent & (1 << p)) slots[p] -= slots[p] / historySlots;
      slots[front] += 1;
      reach *= historySlots / POOL_SIZE;
    }
  }

  protected fields() {
    return { started: this.started, history: [...this.history], pool: [...this.pool], droughtOrder: [...this.droughtOrder] };
  }

  clone(): Tgm3Randomizer {
    return new Tgm3Randomizer(this.rng.clone(), [...this.pool], [...this.droughtOrder], [...this.history], this.started);
  }
}
