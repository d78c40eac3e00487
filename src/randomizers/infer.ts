/**
 * Following a game's randomizer from the pieces it deals (docs/randomizers.md, "Following a game"). A game shows its
 * pieces one by one, and they give the randomizer's state away: the position in a bag, the history of a TGM
 * generator, NES's previous piece, decay's weights. PieceInference keeps the chances of the next piece given every
 * piece seen so far: Bayes over the randomizer's states. Where the pieces identify the state it holds that one state,
 * the generator's own; where they cannot (which of twoBag's or redBlue's bags a piece came from, NES's hidden spawn
 * count) it holds the exact mixture of the states they leave possible: through afterDealing, or in a table over
 * every state where there are many (the bags' contents; a TGM history joined under way). tgm3's pool is the one state too large to follow exactly: the
 * rejected rolls of each deal may have overwritten any history slot, and the possible pools multiply (thousands after
 * five pieces), so it follows the average pool (an approximation, said by `knowledge`).
 *
 * Joining a game under way (`atStart: false`), the pieces before are unknown: the inference then starts from a prior
 * over the states the generator can be in at an unknown point of a game (the bags: every bag content as likely as a
 * game leaves it, Cold Clear's bag speculation for a 7-bag; NES and the TGM histories: every previous piece or
 * history alike) and narrows it with each piece. tgm3 under way follows tgm2 (the same history and rolls, its pool
 * unknown) and decay even weights moved by each piece seen: approximations. The bags and the TGM histories have
 * tables of their own here; every other randomizer is followed through its states (afterDealing) from the prior its
 * definition gives (definition.ts, `follow`).
 *
 * A piece the randomizer cannot deal where it stands (a 7-bag dealing a piece twice in one bag) means the game does
 * not use that randomizer: the chances are uniform from then on, and `contradictedAt` says at which piece.
 */
import { PIECE_COUNT } from '../pieces.js';
import { BAG_SPECS } from './bags.js';
import { MixtureRandomizer, priorRng, type BaseRandomizer } from './base.js';
import { HISTORY_LENGTH, TGM1, TGM2, historyMask, historyRollChances, type HistoryRollSpec } from './history.js';
import { createRandomizer, restoreRandomizer } from './index.js';
import { MemorylessRandomizer } from './memoryless.js';
import { randomizerDefinition, type RandomizerName, type RandomizerParams, type RandomizerState } from './registry.js';
import { POOL_SIZE } from './tgm3.js';

/**
 * What the chances rest on: `exact` (the pieces seen identify the randomizer's state: its own distribution()),
 * `mixture` (the exact chances over the states the pieces leave possible), `approximate` (tgm3's average pool, or a
 * game joined under way whose randomizer's state the pieces cannot pin down), `uniform` (no randomizer, or one the
 * pieces contradicted).
 */
export type RandomizerKnowledge = 'exact' | 'mixture' | 'approximate' | 'uniform';

export type { RandomizerParams } from './registry.js';

/** What is believed about the randomizer's state. */
interface Belief {
  /** The chances of the next piece into `out`. */
  chances(out: Float64Array): Float64Array;
  /** The belief once piece `id` has been dealt (it has a chance > 0), or `this` changed in place. */
  condition(id: number): Belief;
  /** One state, not a mixture. */
  readonly single: boolean;
  /** An approximate belief that gave piece `id` no chance, made to give it one (the real generator dealt it). */
  repair?(id: number): Belief;
}

export class PieceInference {
  /** Pieces observed so far. */
  private seen = 0;
  /** The index (0-based, among the pieces observed) of the first piece the randomizer could not have dealt. */
  private contradiction: number | null = null;
  private readonly scratch = new Float64Array(PIECE_COUNT);

  private constructor(
    /** null: uniform chances. */
    private belief: Belief | null,
    private readonly approximate: boolean,
  ) {}

  /**
   * The inference for a game of randomizer `name` ('unknown': uniform chances), from the game's first piece
   * (`atStart`) or from a point of a game under way. `params` are checked as createRandomizer checks them.
   */
  static start(name: RandomizerName | 'unknown', params: RandomizerParams, atStart: boolean): PieceInference {
    if (name === 'unknown') return new PieceInference(null, false);
    // The generator as a game starts it (no chance depends on the seed), which also checks the parameters.
    const fresh = createRandomizer(name, { ...params, seed: 0 }) as BaseRandomizer;
    if (name === 'bag7' || name === 'bag14' || name === 'twoBag' || name === 'redBlue')
      return new PieceInference(BagTableBelief.start(name, atStart), false);
    if (name === 'tgm3' && atStart) return new PieceInference(new Tgm3Belief(fresh), true);
    if (!atStart && (name === 'tgm1' || name === 'tgm2' || name === 'tgm3'))
      // tgm3's pool cannot be pinned down from the pieces; its history and six rolls are tgm2's.
      return new PieceInference(new HistoryTableBelief(name === 'tgm1' ? TGM1 : TGM2), name === 'tgm3');
    const { prior, exact } = followPrior(name, fresh, atStart);
    return new PieceInference(new StateBelief(prior), !exact);
  }

  /** How many pieces have been observed. */
  get pieces(): number {
    return this.seen;
  }

  /** The index among the observed pieces of the first one the randomizer could not have dealt, or null. */
  get contradictedAt(): number | null {
    return this.contradiction;
  }

  get knowledge(): RandomizerKnowledge {
    if (this.belief === null) return 'uniform';
    if (this.approximate) return 'approximate';
    return this.belief.single ? 'exact' : 'mixture';
  }

  /**
   * Conditions the belief on piece `id` (0..6) being dealt next. Returns false when the randomizer could not have
   * dealt it: the chances are uniform from then on.
   */
  observe(id: number): boolean {
    const index = this.seen++;
    if (this.belief === null) return true;
    if (!(this.belief.chances(this.scratch)[id] > 0) && this.belief.repair) this.belief = this.belief.repair(id);
    if (!(this.belief.chances(this.scratch)[id] > 0)) {
      this.belief = null;
      this.contradiction = index;
      return false;
    }
    this.belief = this.belief.condition(id);
    return true;
  }

  /** The chances of the next piece (I O T S Z L J), written into `into`. */
  chances(into: Float64Array): Float64Array {
    if (this.belief === null) return into.fill(1 / PIECE_COUNT);
    return this.belief.chances(into);
  }
}

/** A randomizer's state, or an exact mixture of states (afterDealing conditions it). */
class StateBelief implements Belief {
  constructor(readonly state: BaseRandomizer) {}

  get single(): boolean {
    return !(this.state instanceof MixtureRandomizer && this.state.parts.length > 1);
  }

  chances(out: Float64Array): Float64Array {
    return this.state.distribution(out);
  }

  condition(id: number): Belief {
    return new StateBelief(this.state.afterDealing(id) as BaseRandomizer);
  }
}

/**
 * tgm3 from its first piece: the drought order, history and pieces seen follow from the pieces, the pool does not.
 * The chances are exact one piece on from a single pool: each piece conditions that pool with afterDealing (the exact
 * mixture of the pools its rolls may leave, whose chances are the next piece's), and the mixture is then replaced by
 * one pool, its average slot counts rounded (largest remainders), to condition on the piece after.
 */
class Tgm3Belief implements Belief {
  readonly single = true;
  constructor(private readonly state: BaseRandomizer) {}

  chances(out: Float64Array): Float64Array {
    return this.state.distribution(out);
  }

  condition(id: number): Belief {
    return new Tgm3Belief(averagePool(this.state).afterDealing(id) as BaseRandomizer);
  }

  /** The real generator dealt `id`, which the average pool cannot: one slot of it, from the piece with the most. */
  repair(id: number): Belief {
    const state = averagePool(this.state).state();
    const counts = new Array<number>(PIECE_COUNT).fill(0);
    for (const p of state.pool as number[]) counts[p]++;
    counts[counts.indexOf(Math.max(...counts))]--;
    counts[id]++;
    return new Tgm3Belief(restoreRandomizer({ ...state, pool: poolOf(counts) } as RandomizerState) as BaseRandomizer);
  }
}

/** One tgm3 state for a mixture of pools (the state itself when it is one): their average slot counts, rounded. */
function averagePool(state: BaseRandomizer): BaseRandomizer {
  if (!(state instanceof MixtureRandomizer)) return state;
  const mean = new Float64Array(PIECE_COUNT);
  for (const { weight, randomizer } of state.parts)
    for (const p of randomizer.state().pool as number[]) mean[p] += weight;
  return restoreRandomizer({
    ...state.parts[0].randomizer.state(),
    pool: roundedPool(mean),
  } as RandomizerState) as BaseRandomizer;
}

/** POOL_SIZE slots from average slot counts: their floors, then one more for the largest remainders. */
function roundedPool(mean: Float64Array): number[] {
  const counts = Array.from(mean, Math.floor);
  const left = POOL_SIZE - counts.reduce((a, b) => a + b, 0);
  const byRemainder = [...counts.keys()].sort((a, b) => mean[b] - counts[b] - (mean[a] - counts[a]) || a - b);
  for (let i = 0; i < left; i++) counts[byRemainder[i]]++;
  return poolOf(counts);
}

function poolOf(counts: readonly number[]): number[] {
  return counts.flatMap((n, p) => new Array<number>(n).fill(p));
}

/**
 * tgm1 and tgm2 joined under way: the chance of every history (the last four pieces, newest first: code h0 + 7 h1 +
 * 49 h2 + 343 h3), all alike at first, in a table conditioned piece by piece. After four pieces one history is left.
 */
class HistoryTableBelief implements Belief {
  private weights = new Float64Array(HISTORIES).fill(1 / HISTORIES);
  private readonly each = new Float64Array(PIECE_COUNT);
  constructor(private readonly spec: HistoryRollSpec) {}

  get single(): boolean {
    let states = 0;
    for (let h = 0; h < HISTORIES && states < 2; h++) if (this.weights[h] > 0) states++;
    return states === 1;
  }

  chances(out: Float64Array): Float64Array {
    out.fill(0);
    const each = this.each;
    for (let h = 0; h < HISTORIES; h++) {
      const w = this.weights[h];
      if (w === 0) continue;
      historyRollChances(HISTORY_MASKS[h], this.spec.rolls, each, 0, w);
      for (let p = 0; p < PIECE_COUNT; p++) out[p] += each[p];
    }
    return out;
  }

  condition(id: number): Belief {
    const next = new Float64Array(HISTORIES);
    let total = 0;
    for (let h = 0; h < HISTORIES; h++) {
      const w = this.weights[h];
      if (w === 0) continue;
      historyRollChances(HISTORY_MASKS[h], this.spec.rolls, this.each, 0, w);
      // The history after the piece: it is the newest, the oldest drops out.
      next[id + PIECE_COUNT * (h % (HISTORIES / PIECE_COUNT))] += this.each[id];
      total += this.each[id];
    }
    for (let h = 0; h < HISTORIES; h++) next[h] /= total;
    this.weights = next;
    return this;
  }
}

const HISTORIES = PIECE_COUNT ** HISTORY_LENGTH;
/** The piece mask (history.ts historyMask) of each history code. */
const HISTORY_MASKS = Int32Array.from({ length: HISTORIES }, (_, code) => {
  const history: number[] = [];
  for (let i = 0, c = code; i < HISTORY_LENGTH; i++, c = Math.floor(c / PIECE_COUNT)) history.push(c % PIECE_COUNT);
  return historyMask(history);
});

/**
 * The bag families (bag7, bag14, twoBag, redBlue): the chance of every content of the bags (per bag, how many copies
 * of each piece are left; never empty: a bag refills the moment it empties), in a table conditioned piece by piece.
 * Exact, and its cost does not grow with the game: twoBag has 127 × 127 pairs of contents, and a game joined under
 * way may be in any of them (afterDealing's mixture holds the same states as objects, much slower to condition).
 */
class BagTableBelief implements Belief {
  private constructor(
    private readonly shape: BagShape,
    private weights: Float64Array,
    /** The states with a weight over 0. */
    private active: Int32Array,
  ) {}

  static start(name: BagName, atStart: boolean): BagTableBelief {
    const shape = bagShape(name);
    if (!atStart) {
      const prior = bagPrior(shape);
      return new BagTableBelief(shape, prior.slice(), activeStates(prior));
    }
    const weights = new Float64Array(shape.states);
    const full = shape.full * (shape.bags === 2 ? shape.codes + 1 : 1);
    weights[full] = 1;
    return new BagTableBelief(shape, weights, Int32Array.of(full));
  }

  get single(): boolean {
    return this.active.length === 1;
  }

  chances(out: Float64Array): Float64Array {
    out.fill(0);
    const { shape, weights } = this;
    for (const s of this.active) {
      const w = weights[s];
      const bags = bagsOf(shape, s);
      for (let b = 0; b < shape.bags; b++) {
        const code = bags[b];
        const perCopy = (w * dealtFrom(shape, bags, b)) / shape.size[code];
        for (let p = 0; p < PIECE_COUNT; p++) out[p] += perCopy * copiesOf(shape, code, p);
      }
    }
    return out;
  }

  condition(id: number): Belief {
    const spare = (this.spare ??= new Float64Array(this.shape.states));
    const { weights, active } = deal(this.shape, this.weights, this.active, id, spare);
    // The old table is the next one's buffer, cleared where it held weights.
    for (const s of this.active) this.weights[s] = 0;
    this.spare = this.weights;
    this.weights = weights;
    this.active = active;
    return this;
  }

  private spare: Float64Array | undefined;
}

type BagName = 'bag7' | 'bag14' | 'twoBag' | 'redBlue';

/** How bag contents are numbered: a bag's code has one digit per piece, base copies + 1 (the copies left). */
interface BagShape {
  bags: number;
  copies: number;
  bySize: boolean;
  /** Codes of one bag's content: (copies + 1)^7; code 0 (empty) is never a state. */
  codes: number;
  /** States: codes^bags; state = code of bag A × codes + code of bag B. */
  states: number;
  /** The full bag's code. */
  full: number;
  /** Pieces left in each code. */
  size: Uint8Array;
  /** PIECE_COUNT entries per code: the copies of piece p left. */
  left: Uint8Array;
  /** PIECE_COUNT codes per code: the code after dealing piece p (the full code when that empties it), -1 if none. */
  after: Int32Array;
}

const shapes: { [K in BagName]?: BagShape } = {};

function bagShape(name: BagName): BagShape {
  const known = shapes[name];
  if (known) return known;
  const spec = BAG_SPECS[name];
  const base = spec.copies + 1;
  const codes = base ** PIECE_COUNT;
  const full = codes - 1;
  const size = new Uint8Array(codes);
  const copiesLeft = new Uint8Array(codes * PIECE_COUNT);
  const after = new Int32Array(codes * PIECE_COUNT).fill(-1);
  for (let code = 1; code < codes; code++) {
    for (let p = 0, place = 1; p < PIECE_COUNT; p++, place *= base) {
      const copies = Math.floor(code / place) % base;
      size[code] += copies;
      copiesLeft[code * PIECE_COUNT + p] = copies;
      if (copies > 0) after[code * PIECE_COUNT + p] = code - place || full;
    }
  }
  const shape: BagShape = {
    bags: spec.bagCount,
    copies: spec.copies,
    bySize: spec.pick === 'bySize',
    codes,
    states: codes ** spec.bagCount,
    full,
    size,
    left: copiesLeft,
    after,
  };
  shapes[name] = shape;
  return shape;
}

const BAGS = [0, 0];
function bagsOf(shape: BagShape, state: number): readonly number[] {
  if (shape.bags === 1) BAGS[0] = state;
  else {
    BAGS[0] = Math.floor(state / shape.codes);
    BAGS[1] = state % shape.codes;
  }
  return BAGS;
}

function copiesOf(shape: BagShape, code: number, p: number): number {
  return shape.left[code * PIECE_COUNT + p];
}

/** The chance that a deal comes from bag b (docs/randomizers.md: by size for one bag and redBlue, else uniform). */
function dealtFrom(shape: BagShape, bags: readonly number[], b: number): number {
  if (shape.bags === 1) return 1;
  if (!shape.bySize) return 0.5;
  return shape.size[bags[b]] / (shape.size[bags[0]] + shape.size[bags[1]]);
}

/** The weights after piece `id` is dealt (any piece when `id` is -1), normalised, and their states over 0. */
function deal(
  shape: BagShape,
  weights: Float64Array,
  active: Int32Array,
  id: number,
  into: Float64Array = new Float64Array(shape.states),
): { weights: Float64Array; active: Int32Array } {
  const next = into;
  const touched: number[] = [];
  let total = 0;
  for (const s of active) {
    const w = weights[s];
    const bags = bagsOf(shape, s);
    for (let b = 0; b < shape.bags; b++) {
      const code = bags[b];
      const perCopy = (w * dealtFrom(shape, bags, b)) / shape.size[code];
      for (let p = 0; p < PIECE_COUNT; p++) {
        if (id >= 0 && p !== id) continue;
        const copies = copiesOf(shape, code, p);
        if (copies === 0) continue;
        const left = shape.after[code * PIECE_COUNT + p];
        const to = shape.bags === 1 ? left : b === 0 ? left * shape.codes + bags[1] : bags[0] * shape.codes + left;
        if (next[to] === 0) touched.push(to);
        next[to] += perCopy * copies;
        total += perCopy * copies;
      }
    }
  }
  const states = Int32Array.from(touched);
  for (const s of states) next[s] /= total;
  return { weights: next, active: states };
}

function activeStates(weights: Float64Array): Int32Array {
  const out: number[] = [];
  for (let s = 0; s < weights.length; s++) if (weights[s] > 0) out.push(s);
  return Int32Array.from(out);
}

const bagPriors: { [K in BagName]?: Float64Array } = {};

/**
 * The bags' contents at an unknown point of a game (the chain's stationary law). A bag's content given its size is
 * as likely as the deals that leave it: ways(content) / C(copies · 7, size), ways the product over pieces of
 * C(copies, copies left); the sizes' own law comes from their chain (uniform for one bag; for two, the lazy chain
 * iterated on the 7 · copies squared pairs of sizes).
 */
function bagPrior(shape: BagShape): Float64Array {
  const name = (Object.keys(shapes) as BagName[]).find((n) => shapes[n] === shape)!;
  const known = bagPriors[name];
  if (known) return known;
  const n = PIECE_COUNT * shape.copies;
  const sizeLaw = shape.bags === 1 ? new Float64Array(n + 1).fill(1 / n) : pairSizeLaw(n, shape.bySize);
  const contentLaw = new Float64Array(shape.codes);
  for (let code = 1; code < shape.codes; code++) {
    let ways = 1;
    for (let p = 0; p < PIECE_COUNT; p++) ways *= choose(shape.copies, copiesOf(shape, code, p));
    contentLaw[code] = ways / choose(n, shape.size[code]);
  }
  const prior = new Float64Array(shape.states);
  for (let s = 0; s < shape.states; s++) {
    const bags = bagsOf(shape, s);
    if (bags.slice(0, shape.bags).some((c) => c === 0)) continue;
    if (shape.bags === 1) prior[s] = sizeLaw[shape.size[s]] * contentLaw[s];
    else
      prior[s] =
        sizeLaw[shape.size[bags[0]] * (n + 1) + shape.size[bags[1]]] * contentLaw[bags[0]] * contentLaw[bags[1]];
  }
  bagPriors[name] = prior;
  return prior;
}

/**
 * The stationary law of two bags' sizes (1..n each; entry a · (n + 1) + b): a deal takes a piece from bag A with
 * chance 1/2 (twoBag) or a / (a + b) (redBlue), and a bag that empties holds n again. The lazy chain (stay or deal,
 * each with 1/2: the same law, without the bags' period) iterated until it moves by under 1e-15.
 */
function pairSizeLaw(n: number, bySize: boolean): Float64Array {
  const at = (a: number, b: number) => a * (n + 1) + b;
  let law = new Float64Array((n + 1) * (n + 1));
  law[at(n, n)] = 1;
  for (let step = 0; step < 100_000; step++) {
    const next = new Float64Array(law.length);
    let moved = 0;
    for (let a = 1; a <= n; a++) {
      for (let b = 1; b <= n; b++) {
        const w = law[at(a, b)];
        if (w === 0) continue;
        const fromA = bySize ? a / (a + b) : 0.5;
        next[at(a, b)] += w / 2;
        next[at(a === 1 ? n : a - 1, b)] += (w / 2) * fromA;
        next[at(a, b === 1 ? n : b - 1)] += (w / 2) * (1 - fromA);
      }
    }
    for (let i = 0; i < law.length; i++) moved += Math.abs(next[i] - law[i]);
    law = next;
    if (moved < 1e-15) break;
  }
  return law;
}

/**
 * Where the generic following starts: the randomizer's own prior (its definition's `follow`), else the generator as
 * a game starts it and, under way, uniform chances the pieces never narrow (approximate).
 */
function followPrior(name: RandomizerName, fresh: BaseRandomizer, atStart: boolean) {
  const follow = randomizerDefinition(name).follow;
  if (follow) return follow(fresh, atStart);
  return atStart ? { prior: fresh, exact: true } : { prior: new MemorylessRandomizer(priorRng()), exact: false };
}

/** The binomial coefficient C(n, k). */
function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c;
}
