/**
 * What every family shares: letters, strings, chunks and iteration are all built on the family's `nextId()`,
 * so a family only says how it deals one id, what it knows about the next one, and what its state is.
 */
import { StackRankError, requireInt } from '../errors.js';
import { PIECES, PIECE_COUNT, type Piece } from '../pieces.js';
import { Rng } from '../random.js';
import type { Randomizer, RandomizerName, RandomizerState } from './types.js';

export abstract class BaseRandomizer implements Randomizer {
  constructor(
    readonly name: RandomizerName,
    protected readonly rng: Rng,
    readonly params: Readonly<Record<string, number>> = {},
  ) {}

  abstract nextId(): number;
  protected abstract probabilities(out: Float64Array): void;
  /** The family's own state fields (plain numbers and arrays). */
  protected abstract fields(): Record<string, unknown>;
  abstract clone(): BaseRandomizer;

  next(): Piece {
    return PIECES[this.nextId()];
  }

  take(n: number): string {
    requireInt('take(n): n', n, 0, 2 ** 30);
    let letters = '';
    for (let i = 0; i < n; i++) letters += PIECES[this.nextId()];
    return letters;
  }

  fillIds(out: Uint8Array, count: number = out?.length): void {
    if (!(out instanceof Uint8Array)) throw new StackRankError('BAD_ARGUMENT', 'fillIds(out): out must be a Uint8Array');
    requireInt('fillIds(out, count): count', count, 0, out.length);
    for (let i = 0; i < count; i++) out[i] = this.nextId();
  }

  *[Symbol.iterator](): Iterator<Piece> {
    for (;;) yield this.next();
  }

  distribution(into?: Float64Array): Float64Array {
    const out = into ?? new Float64Array(PIECE_COUNT);
    if (!(out instanceof Float64Array) || out.length !== PIECE_COUNT) {
      throw new StackRankError('BAD_ARGUMENT', `distribution(into): into must be a Float64Array of length ${PIECE_COUNT}`);
    }
    this.probabilities(out);
    return out;
  }

  state(): RandomizerState {
    return { name: this.name, params: { ...this.params }, rng: [...this.rng.state()] as RandomizerState['rng'], ...this.fields() };
  }
}
