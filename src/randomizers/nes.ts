/**
 * nes: the NES game's own generator, `pickRandomTetrimino` of the public NES Tetris disassembly, step for step:
 * the game's 16-bit LFSR, its spawn count, its table of spawn orientations and its biased reroll. docs/randomizers.md
 * states it in full, with what is modelled (the LFSR state at each pick) and what `distribution()` means.
 *
 * The game advances its LFSR once per video frame, so the state it holds when a piece is picked depends on how
 * long the player took with the previous piece. That is modelled by drawing the LFSR state uniformly from its
 * 32,767-state cycle before each pick. The one exception is the game's second piece, which the game picks right
 * after the first with exactly one LFSR step in between: it is dealt from its exact law given the first piece.
 */
import { describe } from '../errors.js';
import { PIECE_COUNT, pieceId } from '../pieces.js';
import type { Rng } from '../random.js';
import { BaseRandomizer, evenMixture, pairArray, priorRng, type Successor } from './base.js';
import { defineRandomizer } from './definition.js';
import { booleanField, invalidState, pieceIdField } from './snapshot.js';

export const NO_PIECE = -1;
/** The game's spawnTable: the spawn orientation id of each piece, in the game's order T J Z O S L I. */
const SPAWN_ORIENTATION_IDS: readonly number[] = [0x02, 0x07, 0x08, 0x0a, 0x0b, 0x0e, 0x12];
const SPAWN_PIECES: readonly number[] = [...'TJZOSLI'].map(pieceId);
/** spawnID before the first piece of a game: initGameState clears it to 0, which is no piece's orientation. */
const NO_SPAWN_ID = 0;
/** The value the game writes into its LFSR at power-on; its cycle is the set of states the game can be in. */
export const LFSR_POWER_ON = 0x8988;
export const LFSR_PERIOD = 32767;
export const SPAWN_COUNT_VALUES = 256;
/** Rows of the chance tables: the previous piece 0..6, or 7 for none (the first pick). */
const NONE_ROW = PIECE_COUNT;

/** generateNextPseudorandomNumber: shift right, the XOR of bits 9 and 1 enters at bit 15. */
export function stepLfsr(state: number): number {
  return ((((state >> 9) ^ (state >> 1)) & 1) << 15) | (state >> 1);
}

function spawnIdOf(previous: number): number {
  return previous === NO_PIECE ? NO_SPAWN_ID : SPAWN_ORIENTATION_IDS[SPAWN_PIECES.indexOf(previous)];
}

/**
 * One call of pickRandomTetrimino after `inc spawnCount`: `spawnCount` is the incremented count. Returns the
 * canonical piece id plus 8 times the LFSR state after the call (the reroll steps it once).
 */
function pick(lfsr: number, spawnCount: number, spawnId: number): number {
  const roll = ((lfsr >> 8) + spawnCount) & 7;
  if (roll !== 7 && SPAWN_ORIENTATION_IDS[roll] !== spawnId) return SPAWN_PIECES[roll] + 8 * lfsr;
  const stepped = stepLfsr(lfsr);
  const index = (((stepped >> 8) & 7) + spawnId) % 7;
  return SPAWN_PIECES[index] + 8 * stepped;
}

interface NesTables {
  /** The cycle of LFSR states from LFSR_POWER_ON, in order. */
  cycle: Uint16Array;
  /** count[(spawnCount mod 8) · 8 + row] · 7 + piece]: how many cycle states make one pick deal the piece. */
  next: Float64Array;
  /** count[((first pick's spawnCount mod 8) · 7 + first) · 7 + second]: the game's first two picks. */
  firstTwo: Float64Array;
}

let tables: NesTables | undefined;

/**
 * Built once, on first use. A pick reads only the LFSR's high byte, before and after its steps: the two picks of
 * the game's start step it at most three times, and a bit shifted in at the top only reaches the bits read after
 * six. So every state of the cycle with the same high byte deals the same pieces, and each table entry is a sum,
 * over the 256 high bytes, of how many cycle states have that high byte (the tests check the tables against a
 * run over every state of the cycle).
 */
function nesTables(): NesTables {
  if (tables) return tables;
  const cycle = new Uint16Array(LFSR_PERIOD);
  const statesWithHighByte = new Float64Array(256);
  for (let i = 0, s = LFSR_POWER_ON; i < LFSR_PERIOD; i++, s = stepLfsr(s)) {
    cycle[i] = s;
    statesWithHighByte[s >> 8]++;
  }
  const next = new Float64Array(8 * 8 * PIECE_COUNT);
  const firstTwo = new Float64Array(8 * PIECE_COUNT * PIECE_COUNT);
  for (let count = 0; count < 8; count++) {
    for (let high = 0; high < 256; high++) {
      const states = statesWithHighByte[high];
      if (states === 0) continue;
      const lfsr = high << 8;
      for (let row = 0; row <= NONE_ROW; row++) {
        const spawnId = row === NONE_ROW ? NO_SPAWN_ID : spawnIdOf(row);
        next[(count * 8 + row) * PIECE_COUNT + (pick(lfsr, count, spawnId) & 7)] += states;
      }
      const picked = pick(lfsr, count, NO_SPAWN_ID);
      const first = picked & 7;
      const second = pick(stepLfsr(picked >> 3), (count + 1) & 7, spawnIdOf(first)) & 7;
      firstTwo[(count * PIECE_COUNT + first) * PIECE_COUNT + second] += states;
    }
  }
  tables = { cycle, next, firstTwo };
  return tables;
}

/**
 * out[at + p] = scale · P(p is dealt next) in the state (spawnCount, previous, secondPiece), averaged over the
 * LFSR state (uniform over the cycle; for the second piece, given the first).
 */
function writeNesChances(
  spawnCount: number,
  previous: number,
  secondPiece: boolean,
  out: Float64Array,
  at: number,
  scale: number,
): void {
  const t = nesTables();
  if (secondPiece) {
    const base = ((spawnCount & 7) * PIECE_COUNT + previous) * PIECE_COUNT;
    let total = 0;
    for (let p = 0; p < PIECE_COUNT; p++) total += t.firstTwo[base + p];
    for (let p = 0; p < PIECE_COUNT; p++) out[at + p] = (scale * t.firstTwo[base + p]) / total;
    return;
  }
  const row = previous === NO_PIECE ? NONE_ROW : previous;
  const base = (((spawnCount + 1) & 7) * 8 + row) * PIECE_COUNT;
  for (let p = 0; p < PIECE_COUNT; p++) out[at + p] = (scale * t.next[base + p]) / LFSR_PERIOD;
}

export class NesRandomizer extends BaseRandomizer {
  /**
   * @param spawnCount the game's spawn count byte before the next pick increments it (0..255)
   * @param previous the piece dealt last (NO_PIECE before the first)
   * @param secondPiece true right after the first piece: the next pick is the game's second
   */
  constructor(
    rng: Rng,
    private spawnCount: number,
    private previous: number = NO_PIECE,
    private secondPiece = false,
  ) {
    super('nes', rng);
  }

  private scratch: Float64Array | undefined;

  nextId(): number {
    const { cycle } = nesTables();
    const spawnCount = (this.spawnCount + 1) & 0xff;
    let lfsr: number;
    if (this.secondPiece) {
      // The LFSR state that dealt the first piece, drawn from its law given that piece, then the one step
      // initGameState takes between the two picks.
      let picked: number;
      do picked = pick(cycle[this.rng.nextInt(LFSR_PERIOD)], this.spawnCount, NO_SPAWN_ID);
      while ((picked & 7) !== this.previous);
      lfsr = stepLfsr(picked >> 3);
    } else {
      lfsr = cycle[this.rng.nextInt(LFSR_PERIOD)];
    }
    const id = pick(lfsr, spawnCount, spawnIdOf(this.previous)) & 7;
    this.secondPiece = this.previous === NO_PIECE;
    this.previous = id;
    this.spawnCount = spawnCount;
    return id;
  }

  protected probabilities(out: Float64Array): void {
    writeNesChances(this.spawnCount, this.previous, this.secondPiece, out, 0, 1);
  }

  /** The state after a deal is a function of the piece: the count moves on and the piece becomes `previous`. */
  successors(id: number, rng: Rng): Successor[] {
    return [
      { weight: 1, randomizer: new NesRandomizer(rng, (this.spawnCount + 1) & 0xff, id, this.previous === NO_PIECE) },
    ];
  }

  nextPairDistribution(into?: Float64Array): Float64Array {
    const out = pairArray(into);
    const first = this.distribution((this.scratch ??= new Float64Array(PIECE_COUNT)));
    const after = (this.spawnCount + 1) & 0xff;
    for (let p1 = 0; p1 < PIECE_COUNT; p1++) {
      if (first[p1] > 0) writeNesChances(after, p1, this.previous === NO_PIECE, out, p1 * PIECE_COUNT, first[p1]);
      else out.fill(0, p1 * PIECE_COUNT, (p1 + 1) * PIECE_COUNT);
    }
    return out;
  }

  protected fields() {
    return { spawnCount: this.spawnCount, previous: this.previous, secondPiece: this.secondPiece };
  }

  /** Only the count modulo 8 changes a chance. */
  stateKey(): string {
    return JSON.stringify([this.spawnCount & 7, this.previous, this.secondPiece]);
  }

  withRng(rng: Rng): NesRandomizer {
    return new NesRandomizer(rng, this.spawnCount, this.previous, this.secondPiece);
  }
}

/** NES states with each spawn count 0..7 (only the count mod 8 changes a chance) after `previous`. */
function spawnCounts(previous: number): NesRandomizer[] {
  return Array.from({ length: 8 }, (_, count) => new NesRandomizer(priorRng(), count, previous, false));
}

export const nes = defineRandomizer({
  name: 'nes',
  description: "the NES game's own generator (its LFSR, spawn count and biased reroll)",
  defaults: {},
  // A game starts with whatever spawn count the previous games left (the game never resets it).
  create: (rng) => new NesRandomizer(rng, rng.nextInt(SPAWN_COUNT_VALUES)),
  restore: (rng, state) => {
    const spawnCount = state.spawnCount;
    if (!Number.isInteger(spawnCount) || (spawnCount as number) < 0 || (spawnCount as number) >= SPAWN_COUNT_VALUES) {
      invalidState(state, `spawnCount must be an integer 0..${SPAWN_COUNT_VALUES - 1}; got ${describe(spawnCount)}`);
    }
    const previous = pieceIdField(state, 'previous', true);
    const secondPiece = booleanField(state, 'secondPiece');
    if (secondPiece && previous === NO_PIECE) invalidState(state, 'secondPiece needs the first piece in previous');
    return new NesRandomizer(rng, spawnCount as number, previous, secondPiece);
  },
  longIDroughts: true,
  follow: (_fresh, atStart) => ({
    // The spawn count the game started from is hidden: every count alike; under way, every previous piece too.
    prior: evenMixture(
      atStart ? spawnCounts(NO_PIECE) : Array.from({ length: PIECE_COUNT }, (_, p) => spawnCounts(p)).flat(),
    ),
    exact: true,
  }),
});
