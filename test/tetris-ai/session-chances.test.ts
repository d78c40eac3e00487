/**
 * A session's chances over whole games (docs/game.md, "Sessions"; docs/randomizers.md, "Following a game"): for
 * every randomizer, a session fed the turns of a seeded game — a queue of 1 to 5 pieces, hold pressed at random,
 * the box empty or full — hands its AI the chances of the piece after the queue that the generator itself holds once
 * it has dealt every piece shown: its own distribution(), to the bit, where the pieces identify its state; where they
 * cannot (nes, twoBag, redBlue: a posterior; tgm3: an approximation) the inference fed the generator's raw stream in
 * deal order, so the session's reading of the turns (queue moving up by one, or by two when hold fills an empty box)
 * is what is checked. The session's host here records the turns instead of searching them: no table, no search.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameMove, Turn } from '../../src/tetris-ai/decision.js';
import { GameSession, type SessionHost, type SessionState } from '../../src/tetris-ai/session.js';
import { PIECE_COUNT, PIECES, type Piece } from '../../src/pieces.js';
import { PieceInference } from '../../src/randomizers/infer.js';
import { createRandomizer, RANDOMIZER_NAMES, type RandomizerName } from '../../src/randomizers/index.js';

const IDENTIFIED: readonly RandomizerName[] = ['memoryless', 'nesSketch', 'tgm1', 'tgm2', 'bag7', 'bag14', 'decay'];

/** A host that reads a state as the turn it shows and records the chances the session gives with it. */
function recordingHost(randomizer: RandomizerName) {
  const seen: number[][] = [];
  const host: SessionHost = {
    randomizer,
    readTurn: (state: SessionState): Turn => ({
      rows: (state.board as unknown as { rows: Uint32Array }).rows,
      height: 20,
      current: state.current as Piece,
      queue: state.queue as Piece[],
      hold: (state.hold ?? null) as Piece | null,
      canHold: true,
      next: undefined,
    }),
    readMoveOptions: () => undefined,
    play: (turn: Turn): GameMove | null => {
      seen.push(Array.from(turn.next ?? []));
      return null;
    },
  };
  return { host, seen };
}

/** Plays `turns` turns of a seeded game through a session; returns, per turn, the session's chances and the truth. */
function playThrough(name: RandomizerName, seed: number, queueLength: number, holds: readonly boolean[]) {
  const r = createRandomizer(name, { seed });
  const raw = PieceInference.start(name, {}, true);
  const deal = (): Piece => {
    const id = r.nextId();
    raw.observe(id);
    return PIECES[id];
  };
  const { host, seen } = recordingHost(name);
  const session = new GameSession(host, {});
  let current = deal();
  let queue = Array.from({ length: queueLength }, deal);
  let box: Piece | null = null;
  const truth: number[][] = [];
  const rawChances = new Float64Array(PIECE_COUNT);
  for (let t = 0; t < holds.length; t++) {
    // Every board differs from the last: a turn is never read as the same turn asked again.
    const rows = new Uint32Array(40);
    rows[0] = t + 1;
    session.nextMove({ board: { width: 10, rows }, current, queue: [...queue], hold: box });
    truth.push(IDENTIFIED.includes(name) ? Array.from(r.distribution()) : Array.from(raw.chances(rawChances)));
    if (holds[t] && box === null) {
      // The current piece into the empty box; the queue's first is placed, so the queue moves up by two.
      box = current;
      current = queue[1] ?? deal();
      queue = [...queue.slice(2), deal()];
      if (queueLength >= 2) queue.push(deal());
    } else {
      if (holds[t]) box = current; // the held piece is placed, the current one takes its place in the box
      current = queue[0];
      queue = [...queue.slice(1), deal()];
    }
  }
  return { seen, truth, status: session.status };
}

describe('a session over a seeded game, hold pressed at random', () => {
  for (const name of RANDOMIZER_NAMES) {
    const what = IDENTIFIED.includes(name) ? "the generator's own distribution()" : 'the inference of the raw stream';
    it(`${name}: on every turn, ${what}`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 2 ** 31 }),
          fc.integer({ min: 1, max: 5 }),
          fc.array(fc.boolean(), { minLength: 60, maxLength: 120 }),
          (seed, queueLength, holds) => {
            const { seen, truth, status } = playThrough(name, seed, queueLength, holds);
            expect(seen).toEqual(truth);
            expect(status).toMatchObject({ resyncs: 0, contradictedAt: null, turns: holds.length });
          },
        ),
        { seed: 53, numRuns: 6 },
      );
    });
  }
});
