/**
 * The TBP bot's engine over TetrisAI (docs/tbp.md, "The randomizer"): each suggestion is one stateless
 * `nextMove` (or `rankPlacements` for several moves) on the bot's position, with the chances of the piece after the
 * queue from the bag this file follows: the `start` message's bag state when the front end gives one (seven_bag,
 * general_bag), else a seven-piece bag inferred from the pieces seen, uniform once the pieces contradict a bag.
 * One file on purpose: a game session that infers the randomizer itself can take its place.
 */
import { requireInt } from '../errors.js';
import { PIECE_COUNT, pieceId, type Piece } from '../pieces.js';
import type { RankTable } from '../rank/table.js';
import { TetrisAI } from '../tetris-ai/ai.js';
import type { GameMove, GameState } from '../tetris-ai/decision.js';
import type { Input } from '../rules/types.js';
import type {
  EngineMove,
  EngineSuggestion,
  PlayedMove,
  TbpEngine,
  TbpPosition,
  TbpRandomizer,
  TbpRandomizerName,
} from './engine.js';

/** The most moves a suggestion lists. */
export const MAX_SUGGESTED_MOVES = 20;

export interface TetrisAIEngineOptions {
  /** Queue pieces searched after the current one (TetrisAI's lookahead). */
  lookahead: number;
  /** Whether the search averages over the piece after the queue (TetrisAI's randomizer; about 400 MB in Node). */
  randomizerAware: boolean;
  /** Moves per suggestion: 1 is nextMove's; more come from rankPlacements, best first. */
  moves: number;
  /** The rank table, asked for at the first setup (default: TetrisAI's, the cached table in Node). */
  loadTable?: () => Promise<RankTable>;
  stackRoom?: number;
  signal?: AbortSignal;
}

export class TetrisAIEngine implements TbpEngine {
  private ai: Promise<TetrisAI> | null = null;
  private bag: BagChances = BagChances.uniform();

  constructor(private readonly options: TetrisAIEngineOptions) {}

  async setup(_randomizer: TbpRandomizerName): Promise<void> {
    const { lookahead, randomizerAware, loadTable, stackRoom, signal } = this.options;
    requireInt('moves', this.options.moves, 1, MAX_SUGGESTED_MOVES);
    // One AI for every game of the session: its setup (the table, the search's tables) is paid once.
    this.ai ??= (async () =>
      TetrisAI.create({
        rules: 'guideline',
        lookahead,
        ...(randomizerAware ? { randomizer: 'bag7' as const } : {}),
        ...(loadTable ? { table: await loadTable() } : {}),
        ...(stackRoom === undefined ? {} : { stackRoom }),
        ...(signal ? { signal } : {}),
      }))();
    try {
      await this.ai;
    } catch (e) {
      this.ai = null;
      throw e;
    }
  }

  start(position: TbpPosition, randomizer: TbpRandomizer): void {
    this.bag = BagChances.start(randomizer, position.queue);
  }

  async suggest(position: TbpPosition): Promise<EngineSuggestion> {
    if (!this.ai) throw new Error('suggest before setup');
    const ai = await this.ai;
    const [current, ...queue] = position.queue;
    const state: GameState = {
      board: { width: 10, rows: position.rows },
      current,
      queue,
      hold: position.hold,
      canHold: position.hold !== null || queue.length > 0,
      ...(ai.randomizer ? { next: this.bag.chances() } : {}),
    };
    const started = performance.now();
    const found: GameMove[] = [];
    if (this.options.moves === 1) {
      const move = ai.nextMove(state);
      if (move) found.push(move);
    } else found.push(...ai.rankPlacements(state, { limit: this.options.moves }).placements);
    const seconds = (performance.now() - started) / 1000;
    const moves: EngineMove[] = found.map((m) => ({
      hold: m.hold,
      piece: m.piece,
      rotation: m.rotation,
      x: m.x,
      y: m.y,
      cells: m.cells,
      // a TBP bot plays without time (guideline-like rule sets): its inputs are keys, never frame tokens
      inputs: m.inputs as readonly Input[],
      spin: m.spin,
    }));
    const best = found[0];
    return {
      moves,
      info: {
        depth: 1 + Math.min(ai.lookahead, queue.length),
        extra: best
          ? `${best.mode} mode, value ${best.value.toPrecision(6)}, ${(seconds * 1000).toFixed(1)} ms, bag ${this.bag.knowledge}`
          : 'no move: nothing fits',
      },
    };
  }

  play(_move: PlayedMove, _after: TbpPosition): void {}

  newPiece(piece: Piece, _after: TbpPosition): void {
    this.bag.observe(pieceId(piece));
  }

  stop(): void {
    this.bag = BagChances.uniform();
  }
}

/**
 * The chances of the piece after the queue. Three kinds: `exact` (counts of the bag at the end of the queue, and
 * the filled bag it refills to), `inferred` (a seven-piece bag whose position is unknown: a posterior over the 7
 * phases, the pieces dealt from the current bag before the first one seen), `uniform`.
 */
export class BagChances {
  private constructor(
    private kind: 'exact' | 'inferred' | 'uniform',
    /** exact: the bag now, and filled. */
    private current: number[],
    private readonly filled: number[],
    /** inferred: per phase, its weight (0: ruled out), the pieces seen of its current bag (bit mask) and how many. */
    private readonly weight: Float64Array,
    private readonly seen: Uint8Array,
    private readonly count: Uint8Array,
    /** inferred: pieces observed. */
    private observed = 0,
  ) {}

  static uniform(): BagChances {
    return new BagChances('uniform', [], [], new Float64Array(0), new Uint8Array(0), new Uint8Array(0));
  }

  /** From a start message: its bag state if it gave one, else inference from the queue under seven_bag or unknown. */
  static start(randomizer: TbpRandomizer, queue: readonly Piece[]): BagChances {
    if (randomizer.bag)
      return new BagChances(
        'exact',
        [...randomizer.bag.current],
        [...randomizer.bag.filled],
        new Float64Array(0),
        new Uint8Array(0),
        new Uint8Array(0),
      );
    if (randomizer.name !== 'seven_bag' && randomizer.name !== 'unknown') return BagChances.uniform();
    const b = new BagChances(
      'inferred',
      [],
      [],
      new Float64Array(PIECE_COUNT).fill(1),
      new Uint8Array(PIECE_COUNT),
      new Uint8Array(PIECE_COUNT),
    );
    for (const p of queue) b.observe(pieceId(p));
    return b;
  }

  /** What the chances rest on: 'exact', 'inferred' or 'uniform'. */
  get knowledge(): string {
    return this.kind;
  }

  /** The next piece dealt (appended to the queue). */
  observe(piece: number): void {
    if (this.kind === 'exact') {
      if (this.current[piece] <= 0) {
        // A piece the bag does not hold: the front end's randomizer is not the one it named.
        this.kind = 'uniform';
        return;
      }
      this.current[piece]--;
      if (this.current.every((c) => c === 0)) this.current = [...this.filled];
    } else if (this.kind === 'inferred') {
      let alive = false;
      for (let phase = 0; phase < PIECE_COUNT; phase++) {
        if (this.weight[phase] === 0) continue;
        if ((phase + this.observed) % PIECE_COUNT === 0) {
          this.seen[phase] = 0;
          this.count[phase] = 0;
        }
        if ((this.seen[phase] >> piece) & 1) {
          this.weight[phase] = 0;
          continue;
        }
        // k pieces of a bag seen in order, whatever was dealt before them: (7 - k)! / 7!; one more divides by 7 - k.
        this.weight[phase] /= PIECE_COUNT - this.count[phase];
        this.seen[phase] |= 1 << piece;
        this.count[phase]++;
        alive = true;
      }
      this.observed++;
      if (!alive) this.kind = 'uniform';
      else this.normalize();
    }
  }

  /** The chances of the piece after the queue (I O T S Z L J). */
  chances(): Float64Array {
    const out = new Float64Array(PIECE_COUNT);
    if (this.kind === 'exact') {
      const total = this.current.reduce((a, b) => a + b, 0);
      for (let i = 0; i < PIECE_COUNT; i++) out[i] = this.current[i] / total;
    } else if (this.kind === 'inferred') {
      for (let phase = 0; phase < PIECE_COUNT; phase++) {
        const w = this.weight[phase];
        if (w === 0) continue;
        // A bag just emptied deals any piece; else one of the pieces its part seen so far has not dealt, evenly (the
        // pieces dealt before the first one seen are unknown, so every unseen piece is as likely).
        const fresh = (phase + this.observed) % PIECE_COUNT === 0;
        const unseen = fresh ? PIECE_COUNT : PIECE_COUNT - this.count[phase];
        for (let i = 0; i < PIECE_COUNT; i++) if (fresh || !((this.seen[phase] >> i) & 1)) out[i] += w / unseen;
      }
    } else out.fill(1 / PIECE_COUNT);
    return out;
  }

  private normalize(): void {
    const total = this.weight.reduce((a, b) => a + b, 0);
    for (let i = 0; i < PIECE_COUNT; i++) this.weight[i] /= total;
  }
}
