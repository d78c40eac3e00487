/**
 * Literal, slow transcriptions of the algorithms as docs/randomizers.md states them, written independently of
 * src/randomizers/ (plain arrays, no shared helpers). The tests check that the library deals exactly these
 * streams, so the documented PRNG call order is the real one.
 */
import { Rng } from '../../src/random.js';

const LETTERS = 'IOTSZLJ';
const id = (letter: string) => LETTERS.indexOf(letter);
const FIRST = ['I', 'T', 'L', 'J'].map(id);

export function referenceStream(name: string, seed: number, count: number, denominator = 1.1, poolQuirk = 1): string {
  const rng = new Rng(seed);
  const ids: number[] = [];
  const deal = DEALERS[name](rng, denominator, poolQuirk);
  for (let i = 0; i < count; i++) ids.push(deal());
  return ids.map((i) => LETTERS[i]).join('');
}

type Dealer = (rng: Rng, denominator: number, poolQuirk?: number) => () => number;

function historyRoll(rolls: number, after: string): Dealer {
  return (rng) => {
    let history: number[] | null = null; // newest first
    return () => {
      if (!history) {
        const first = FIRST[rng.nextInt(4)];
        history = [first, ...[...after].map(id)];
        return first;
      }
      let piece = -1;
      for (let roll = 1; roll <= rolls; roll++) {
        piece = rng.nextInt(7);
        if (!history.includes(piece)) break;
      }
      history = [piece, ...history.slice(0, 3)];
      return piece;
    };
  };
}

function bags(count: number, copies: number, uniformBagChoice: boolean): Dealer {
  const full = () => Array.from({ length: 7 * copies }, (_, i) => i % 7);
  return (rng) => {
    const contents = Array.from({ length: count }, full);
    return () => {
      let bag: number[];
      let index: number;
      if (uniformBagChoice) {
        bag = contents[rng.nextInt(count)];
        index = rng.nextInt(bag.length);
      } else {
        // Index into the concatenation of the bags.
        index = rng.nextInt(contents.reduce((n, b) => n + b.length, 0));
        let b = 0;
        while (index >= contents[b].length) index -= contents[b++].length;
        bag = contents[b];
      }
      const piece = bag[index];
      bag[index] = bag[bag.length - 1];
      bag.pop();
      if (bag.length === 0) bag.push(...full());
      return piece;
    };
  };
}

/** The NES game's LFSR step and pick, transcribed from the disassembly as docs/randomizers.md states them. */
const NES_SPAWN_TABLE = [0x02, 0x07, 0x08, 0x0a, 0x0b, 0x0e, 0x12]; // T J Z O S L I
const NES_LETTERS = 'TJZOSLI';
export function nesStep(v: number): number {
  const bit = ((v >> 9) & 1) ^ ((v >> 1) & 1);
  return (bit << 15) | (v >> 1);
}
/** The LFSR's cycle from the power-on value $8988, in order. */
export function nesCycle(): number[] {
  const states: number[] = [];
  let v = 0x8988;
  do {
    states.push(v);
    v = nesStep(v);
  } while (v !== 0x8988);
  return states;
}
/** pickRandomTetrimino with spawnCount already incremented; returns [letter index into 'IOTSZLJ', LFSR after]. */
export function nesPick(v: number, spawnCount: number, spawnId: number): [number, number] {
  let index = ((v >> 8) + spawnCount) & 7;
  if (index === 7 || NES_SPAWN_TABLE[index] === spawnId) {
    v = nesStep(v);
    index = ((v >> 8) & 7) + spawnId;
    while (index >= 7) index -= 7;
  }
  return [id(NES_LETTERS[index]), v];
}
export const nesSpawnId = (piece: number) => (piece < 0 ? 0 : NES_SPAWN_TABLE[NES_LETTERS.indexOf(LETTERS[piece])]);

const DEALERS: Record<string, Dealer> = {
  memoryless: (rng) => () => rng.nextInt(7),
  nes: (rng) => {
    const cycle = nesCycle();
    let spawnCount = rng.nextInt(256);
    let previous = -1;
    let dealt = 0;
    return () => {
      let v: number;
      if (dealt === 1) {
        // Redraw the state until it deals the first piece again (first pick's count, spawnID 0), step it once more.
        let first: [number, number];
        do first = nesPick(cycle[rng.nextInt(cycle.length)], spawnCount, 0);
        while (first[0] !== previous);
        v = nesStep(first[1]);
      } else {
        v = cycle[rng.nextInt(cycle.length)];
      }
      spawnCount = (spawnCount + 1) % 256;
      previous = nesPick(v, spawnCount, nesSpawnId(previous))[0];
      dealt++;
      return previous;
    };
  },
  nesSketch: (rng) => {
    let previous = -1;
    return () => {
      let piece = rng.nextInt(8);
      if (piece === 7 || piece === previous) piece = rng.nextInt(7);
      previous = piece;
      return piece;
    };
  },
  tgm1: historyRoll(4, 'ZZZ'),
  tgm2: historyRoll(6, 'ZSS'),
  tgm3: (rng, _denominator, poolQuirk = 1) => {
    const pool = Array.from({ length: 35 }, (_, i) => i % 7);
    const order = [...'JIZLOTS'].map(id);
    const seen = new Set<number>();
    let history: number[] | null = null;
    const toBack = (piece: number) => {
      order.splice(order.indexOf(piece), 1);
      order.push(piece);
    };
    return () => {
      if (!history) {
        const first = FIRST[rng.nextInt(4)];
        history = [first, ...[...'ZSZ'].map(id)];
        return first;
      }
      let slot = -1;
      let rerolled = false;
      for (let roll = 0; roll < 6; roll++) {
        slot = rng.nextInt(35);
        if (!history.includes(pool[slot]) || roll === 5) break;
        pool[slot] = order[0];
        rerolled = true;
      }
      const piece = pool[slot];
      seen.add(piece);
      const quirk = poolQuirk && rerolled && piece === order[0] && seen.size === 7;
      toBack(piece);
      if (!quirk) pool[slot] = order[0];
      history = [piece, ...history.slice(0, 3)];
      return piece;
    };
  },
  bag7: bags(1, 1, false),
  bag14: bags(1, 2, false),
  twoBag: bags(2, 1, true),
  redBlue: bags(2, 1, false),
  decay: (rng, denominator) => {
    const weights = [1, 1, 1, 1, 1, 1, 1];
    return () => {
      const total = weights.reduce((a, b) => a + b, 0);
      const target = rng.nextFloat() * total;
      let running = 0;
      let piece = 0;
      for (; piece < 7; piece++) {
        running += weights[piece];
        if (running > target) break;
      }
      const given = ((denominator - 1) * weights[piece]) / denominator;
      for (let p = 0; p < 7; p++) weights[p] = Math.max(0, p === piece ? weights[p] - given : weights[p] + given / 6);
      return piece;
    };
  },
};
