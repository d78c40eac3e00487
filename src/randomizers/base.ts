/**
 * What every family shares: letters, strings, chunks and iteration are all built on the family's `nextId()`,
 * so a family only says how it deals one id, what it knows about the next one, what its state is, and which
 * state(s) it can be in right after dealing a given piece (`successors`). Looking two pieces ahead
 * (`afterDealing`, `nextPairDistribution`) is built on that.
 */
import { StackRankError, describe, requireInt } from '../errors.js';
import { PIECES, PIECE_COUNT, type Piece } from '../pieces.js';
import { Rng } from '../random.js';
import type { RandomizerOf, RandomizerStateOf } from './types.js';

export const PAIR_COUNT = PIECE_COUNT * PIECE_COUNT;
/** Most letters one take() returns: a 16 M-character string (32 MB); longer streams go through fillIds. */
export const MAX_TAKE = 1 << 24;

/** One state a randomizer can be in right after dealing a given piece, and its chance given that piece. */
export interface Successor {
  readonly weight: number;
  readonly randomizer: BaseRandomizer;
}

export abstract class BaseRandomizer implements RandomizerOf {
  constructor(
    readonly name: string,
    protected readonly rng: Rng,
    readonly params: Readonly<Record<string, number>> = {},
  ) {}

  /** Scratch for the generic nextPairDistribution (allocated on first use). */
  private pairFirst: Float64Array | undefined;
  private pairSecond: Float64Array | undefined;

  abstract nextId(): number;
  protected abstract probabilities(out: Float64Array): void;
  /** The family's own state fields (plain numbers and arrays). */
  protected abstract fields(): Record<string, unknown>;

  /**
   * @internal The same state driven by `rng` (the object itself, not a copy). clone() is
   * `withRng(rng.clone())`; the states of a mixture share one Rng this way.
   */
  abstract withRng(rng: Rng): BaseRandomizer;

  /**
   * @internal The states this randomizer can be in right after dealing `id`, each with its probability given
   * that `id` is dealt (the weights sum to 1), all driven by `rng`. One successor when the state after the deal
   * is a function of the state and the piece; several when the rolls decide more than the piece (which bag it
   * came from, which pool slots a rejected roll overwrote). Only called for an `id` with a non-zero chance.
   */
  abstract successors(id: number, rng: Rng): Successor[];

  /**
   * @internal Identifies the state as far as future distributions are concerned (not the PRNG, nor an order
   * that cannot matter), so equal successors can be merged. Defaults to the family fields as JSON.
   */
  stateKey(): string {
    return JSON.stringify(this.fields());
  }

  clone(): BaseRandomizer {
    return this.withRng(this.rng.clone());
  }

  next(): Piece {
    return PIECES[this.nextId()];
  }

  take(n: number): string {
    requireInt('take(n): n (fillIds deals more into a Uint8Array)', n, 0, MAX_TAKE);
    let letters = '';
    for (let i = 0; i < n; i++) letters += PIECES[this.nextId()];
    return letters;
  }

  fillIds(out: Uint8Array, count: number = out?.length): void {
    if (!(out instanceof Uint8Array))
      throw new StackRankError('BAD_ARGUMENT', 'fillIds(out): out must be a Uint8Array');
    requireInt('fillIds(out, count): count', count, 0, out.length);
    for (let i = 0; i < count; i++) out[i] = this.nextId();
  }

  *[Symbol.iterator](): Iterator<Piece> {
    for (;;) yield this.next();
  }

  distribution(into?: Float64Array): Float64Array {
    const out = into ?? new Float64Array(PIECE_COUNT);
    if (!(out instanceof Float64Array) || out.length !== PIECE_COUNT) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `distribution(into): into must be a Float64Array of length ${PIECE_COUNT}`,
      );
    }
    this.probabilities(out);
    return out;
  }

  afterDealing(id: number): RandomizerOf {
    requireInt('afterDealing(id): id', id, 0, PIECE_COUNT - 1);
    const after = this.distribution()[id] > 0 ? this.stateAfter(id, this.rng.clone()) : undefined;
    if (!after) {
      throw new StackRankError(
        'BAD_ARGUMENT',
        `afterDealing(${id}): ${this.name} cannot deal ${PIECES[id]} next in this state (its probability is 0)`,
      );
    }
    return after;
  }

  /** The successors of `id` as one randomizer (the only one, or their mixture); undefined if there are none. */
  private stateAfter(id: number, rng: Rng): BaseRandomizer | undefined {
    const next = this.successors(id, rng);
    if (next.length === 0) return undefined;
    return next.length === 1 ? next[0].randomizer : new MixtureRandomizer(rng, next);
  }

  /**
   * Generic: P(first) from distribution(), P(second | first) from the distribution of the state after each
   * possible first piece. Families override it with a closed form where one is simple.
   */
  nextPairDistribution(into?: Float64Array): Float64Array {
    const out = pairArray(into);
    const first = this.distribution((this.pairFirst ??= new Float64Array(PIECE_COUNT)));
    const second = (this.pairSecond ??= new Float64Array(PIECE_COUNT));
    for (let p1 = 0; p1 < PIECE_COUNT; p1++) {
      const chance = first[p1];
      const after = chance > 0 ? this.stateAfter(p1, this.rng) : undefined;
      if (after) {
        after.distribution(second);
        for (let p2 = 0; p2 < PIECE_COUNT; p2++) out[p1 * PIECE_COUNT + p2] = chance * second[p2];
      } else {
        out.fill(0, p1 * PIECE_COUNT, (p1 + 1) * PIECE_COUNT);
      }
    }
    return out;
  }

  state(): RandomizerStateOf {
    return {
      name: this.name,
      params: { ...this.params },
      rng: [...this.rng.state()] as RandomizerStateOf['rng'],
      ...this.fields(),
    };
  }
}

/** Checks (or allocates) the 49-entry output of nextPairDistribution. */
export function pairArray(into: Float64Array | undefined): Float64Array {
  const out = into ?? new Float64Array(PAIR_COUNT);
  if (!(out instanceof Float64Array) || out.length !== PAIR_COUNT) {
    const given: unknown = into;
    const got = ArrayBuffer.isView(given)
      ? `a ${given.constructor.name} of length ${(given as Float64Array).length}`
      : Array.isArray(given)
        ? `an array of length ${given.length}`
        : describe(given);
    throw new StackRankError(
      'BAD_ARGUMENT',
      `nextPairDistribution(into): into must be a Float64Array of length ${PAIR_COUNT}; got ${got}`,
    );
  }
  return out;
}

/**
 * A randomizer whose state is only known up to a probability distribution: what `afterDealing` returns when the
 * rolls decided more than the piece (twoBag and redBlue: which bag it came from; tgm3: which pool slots were
 * overwritten). Its distribution() is the exact mixture, and afterDealing on it conditions every component on
 * the piece (Bayes), so looking further ahead stays exact.
 *
 * All components share the mixture's Rng. Dealing from a mixture first draws one nextFloat() to pick a
 * component by weight, then continues as that component (so the stream it deals has exactly the conditional
 * law of what the original randomizer deals after the piece); from then on it is an ordinary state.
 */
export class MixtureRandomizer extends BaseRandomizer {
  private components: Successor[];
  private scratch: Float64Array | undefined;
  private pairEach: Float64Array | undefined;

  constructor(rng: Rng, components: readonly Successor[]) {
    if (components.length === 0) throw new StackRankError('BAD_ARGUMENT', 'a mixture needs at least one state');
    const first = components[0].randomizer;
    super(first.name, rng, first.params);
    this.components = components.map((c) => ({ weight: c.weight, randomizer: c.randomizer }));
  }

  /** The weighted states (weights sum to 1). */
  get parts(): readonly Successor[] {
    return this.components;
  }

  nextId(): number {
    if (this.components.length > 1) {
      const u = this.rng.nextFloat();
      let running = 0;
      let chosen = this.components[this.components.length - 1];
      for (const c of this.components) {
        running += c.weight;
        if (u < running) {
          chosen = c;
          break;
        }
      }
      this.components = [{ weight: 1, randomizer: chosen.randomizer }];
    }
    return this.components[0].randomizer.nextId();
  }

  protected probabilities(out: Float64Array): void {
    if (this.components.length === 1) {
      this.components[0].randomizer.distribution(out);
      return;
    }
    const each = (this.scratch ??= new Float64Array(PIECE_COUNT));
    out.fill(0);
    for (const { weight, randomizer } of this.components) {
      randomizer.distribution(each);
      for (let p = 0; p < PIECE_COUNT; p++) out[p] += weight * each[p];
    }
  }

  /** The next two pieces of a mixture follow the mixture of its states' pair distributions. */
  nextPairDistribution(into?: Float64Array): Float64Array {
    if (this.components.length === 1) return this.components[0].randomizer.nextPairDistribution(into);
    const out = pairArray(into).fill(0);
    const each = (this.pairEach ??= new Float64Array(PAIR_COUNT));
    for (const { weight, randomizer } of this.components) {
      randomizer.nextPairDistribution(each);
      for (let i = 0; i < PAIR_COUNT; i++) out[i] += weight * each[i];
    }
    return out;
  }

  successors(id: number, rng: Rng): Successor[] {
    const merged = new Map<string, { weight: number; randomizer: BaseRandomizer }>();
    const each = new Float64Array(PIECE_COUNT);
    let total = 0;
    for (const { weight, randomizer } of this.components) {
      const chance = weight * randomizer.distribution(each)[id];
      if (!(chance > 0)) continue;
      for (const s of randomizer.successors(id, rng)) {
        const w = chance * s.weight;
        const key = s.randomizer.stateKey();
        const known = merged.get(key);
        if (known) known.weight += w;
        else merged.set(key, { weight: w, randomizer: s.randomizer });
        total += w;
      }
    }
    return [...merged.values()].map((s) => ({ weight: s.weight / total, randomizer: s.randomizer }));
  }

  protected fields(): Record<string, unknown> {
    const own = (r: BaseRandomizer) => {
      const { name: _n, params: _p, rng: _r, ...rest } = r.state();
      return rest;
    };
    if (this.components.length === 1) return own(this.components[0].randomizer);
    return { mixture: this.components.map((c) => ({ weight: c.weight, ...own(c.randomizer) })) };
  }

  stateKey(): string {
    return JSON.stringify(this.components.map((c) => [c.weight, c.randomizer.stateKey()]));
  }

  withRng(rng: Rng): MixtureRandomizer {
    return new MixtureRandomizer(
      rng,
      this.components.map((c) => ({ weight: c.weight, randomizer: c.randomizer.withRng(rng) })),
    );
  }
}

/**
 * The PRNG of a prior's states (docs/randomizers.md, "Following a game"): a mixture's states share one, and no chance
 * depends on it (distribution() is exact over the PRNG).
 */
export const priorRng = () => new Rng(1);

/** An exact mixture of equally likely states (or the one state): a prior over states the pieces cannot tell apart. */
export function evenMixture(states: readonly BaseRandomizer[]): BaseRandomizer {
  if (states.length === 1) return states[0];
  const shared = priorRng();
  return new MixtureRandomizer(
    shared,
    states.map((s) => ({ weight: 1 / states.length, randomizer: s.withRng(shared) })),
  );
}
