/**
 * The TGM history-roll mechanism shared by tgm1 and tgm2 (and the history half of tgm3): the last four pieces
 * dealt are remembered; a roll that lands on one of them is retried, up to a fixed number of rolls, and the last
 * roll is dealt whatever it is. The first piece of a game is never S, Z or O.
 */
import { PIECE_COUNT, pieceId } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer, pairArray, type Successor } from './base.js';
import { defineRandomizer } from './definition.js';
import { booleanField, pieceIdList } from './snapshot.js';

export const HISTORY_LENGTH = 4;

/** The first piece is a uniform draw (one nextInt(4)) from these, in canonical order: I, T, L, J. */
export const FIRST_PIECE_IDS: readonly number[] = ['I', 'T', 'L', 'J'].map(pieceId);

const [Z, S] = [pieceId('Z'), pieceId('S')];

export interface HistoryRollSpec {
  readonly name: 'tgm1' | 'tgm2';
  readonly rolls: number;
  /** The history right after the first piece, newest first, minus that piece (which is always newest). */
  readonly historyAfterFirst: readonly number[];
}

export const TGM1: HistoryRollSpec & { name: 'tgm1' } = { name: 'tgm1', rolls: 4, historyAfterFirst: [Z, Z, Z] };
export const TGM2: HistoryRollSpec & { name: 'tgm2' } = { name: 'tgm2', rolls: 6, historyAfterFirst: [Z, S, S] };

export function dealFirstPiece(rng: Rng): number {
  return FIRST_PIECE_IDS[rng.nextInt(FIRST_PIECE_IDS.length)];
}

/** Pushes `id` as the newest entry of a newest-first history, dropping the oldest. */
export function pushHistory(history: number[], id: number): void {
  for (let i = history.length - 1; i > 0; i--) history[i] = history[i - 1];
  history[0] = id;
}

/** Bit p is set when piece p is in the history. */
export function historyMask(history: readonly number[]): number {
  let mask = 0;
  for (const id of history) mask |= 1 << id;
  return mask;
}

export function writeFirstPieceDistribution(out: Float64Array): void {
  out.fill(0);
  for (const id of FIRST_PIECE_IDS) out[id] = 1 / FIRST_PIECE_IDS.length;
}

export class HistoryRollRandomizer extends BaseRandomizer {
  constructor(
    private readonly spec: HistoryRollSpec,
    rng: Rng,
    private readonly history: number[] = [],
    private started = false,
  ) {
    super(spec.name, rng);
  }

  /** Scratch for nextPairDistribution (allocated on first use). */
  private firstScratch: Float64Array | undefined;

  nextId(): number {
    if (!this.started) {
      const first = dealFirstPiece(this.rng);
      this.record(first);
      return first;
    }
    const recent = historyMask(this.history);
    let id = 0;
    for (let roll = 0; roll < this.spec.rolls; roll++) {
      id = this.rng.nextInt(PIECE_COUNT);
      if ((recent & (1 << id)) === 0) break;
    }
    pushHistory(this.history, id);
    return id;
  }

  protected probabilities(out: Float64Array): void {
    if (!this.started) {
      writeFirstPieceDistribution(out);
      return;
    }
    historyRollChances(historyMask(this.history), this.spec.rolls, out, 0, 1);
  }

  /** The state after a deal is a function of the piece: it is pushed into the history. */
  successors(id: number, rng: Rng): Successor[] {
    const after = new HistoryRollRandomizer(this.spec, rng, [...this.history], this.started);
    after.record(id);
    return [{ weight: 1, randomizer: after }];
  }

  nextPairDistribution(into?: Float64Array): Float64Array {
    const out = pairArray(into);
    const first = this.distribution((this.firstScratch ??= new Float64Array(PIECE_COUNT)));
    // The history after dealing p1 is p1 followed by what is now its newest three entries.
    let kept = 0;
    if (this.started) for (let i = 0; i < HISTORY_LENGTH - 1; i++) kept |= 1 << this.history[i];
    else kept = historyMask(this.spec.historyAfterFirst);
    for (let p1 = 0; p1 < PIECE_COUNT; p1++)
      historyRollChances(kept | (1 << p1), this.spec.rolls, out, p1 * PIECE_COUNT, first[p1]);
    return out;
  }

  /** Updates the state as dealing `id` does (without rolling). */
  private record(id: number): void {
    if (!this.started) {
      this.history.splice(0, this.history.length, id, ...this.spec.historyAfterFirst);
      this.started = true;
    } else {
      pushHistory(this.history, id);
    }
  }

  protected fields() {
    return { started: this.started, history: [...this.history] };
  }

  withRng(rng: Rng): HistoryRollRandomizer {
    return new HistoryRollRandomizer(this.spec, rng, [...this.history], this.started);
  }
}

/**
 * out[at + p] = scale · P(p next) once the game has started, for the pieces remembered in `recent` (a bit mask).
 * With h distinct pieces in the history a roll is retried with probability h/7. A fresh piece can be dealt by
 * any of the rolls, a remembered one only by the last.
 */
export function historyRollChances(recent: number, rolls: number, out: Float64Array, at: number, scale: number): void {
  let remembered = 0;
  for (let p = 0; p < PIECE_COUNT; p++) if (recent & (1 << p)) remembered++;
  const retry = remembered / PIECE_COUNT;
  let reachAnyRoll = 0;
  for (let roll = 0; roll < rolls; roll++) reachAnyRoll += retry ** roll;
  const fresh = reachAnyRoll / PIECE_COUNT;
  const stale = retry ** (rolls - 1) / PIECE_COUNT;
  for (let p = 0; p < PIECE_COUNT; p++) out[at + p] = scale * (recent & (1 << p) ? stale : fresh);
}

function historyRandomizer<const N extends HistoryRollSpec['name']>(
  spec: HistoryRollSpec & { name: N },
  more: {
    description: string;
    publishedPredictability: number;
  },
) {
  return defineRandomizer({
    name: spec.name,
    ...more,
    defaults: {},
    create: (rng) => new HistoryRollRandomizer(spec, rng),
    restore: (rng, state) => {
      const started = booleanField(state, 'started');
      return new HistoryRollRandomizer(
        spec,
        rng,
        [...pieceIdList(state, 'history', started ? HISTORY_LENGTH : 0)],
        started,
      );
    },
    longIDroughts: false,
  });
}

export const tgm1 = historyRandomizer(TGM1, {
  description: "TGM's history roll: 4 rolls against the last 4 pieces",
  publishedPredictability: 0.2896,
});
export const tgm2 = historyRandomizer(TGM2, {
  description: "TGM2's history roll: 6 rolls against the last 4 pieces",
  publishedPredictability: 0.318,
});
