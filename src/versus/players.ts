/**
 * The versus simulator's players (docs/versus.md, "Players"): TetrisAI in this process, and any Tetris Bot Protocol
 * bot driven through TbpClient. Both are asked for a move with the position their seat sees.
 */
import { StackRankError, describe } from '../errors.js';
import type { TetrisAI } from '../tetris-ai/ai.js';
import { PIECES } from '../pieces.js';
import type { Spin } from '../rules/types.js';
import { TbpClient } from '../tbp/client.js';
import { isPieceLetter, orientationIndex, tbpCells, type TbpLocation } from '../tbp/location.js';
import { MATRIX_ROWS, type LockReport, type PlayerMove, type SeatView, type VersusPlayer } from './match.js';

/** TetrisAI as a seat's player: one move per turn (its nextMove on the seat's position, versus state included). */
export function aiPlayer(ai: TetrisAI, name: string): VersusPlayer {
  return {
    name,
    external: false,
    begin() {},
    move(v) {
      const move = ai.playTurn({
        rows: v.rows,
        height: MATRIX_ROWS,
        current: v.current,
        queue: v.queue,
        hold: v.hold,
        canHold: true,
        next: ai.randomizer ? v.next : undefined,
        versus: { combo: v.combo, backToBack: v.backToBack, incoming: v.incoming },
      });
      return move && { hold: move.hold, piece: move.piece, cells: move.cells, spin: move.spin };
    },
    locked() {},
    end() {},
  };
}

/** Empty suggestions asked again (after another think time) before the bot is taken to forfeit. */
export const EMPTY_RETRIES = 20;

/** What a TBP player measured over its matches. */
export interface TbpPlayerStats {
  /** Suggestions asked for. */
  suggestions: number;
  /** Empty suggestions asked again. */
  retries: number;
  /** Times the bot was told the whole position again (stop, start): garbage entered, or its counters differ. */
  restarts: number;
}

/**
 * A TBP bot as a seat's player. The bot follows the game through the protocol: `start` with the seat's position
 * (and the bag's state, the randomizer extension), then per lock `play` and a `new_piece` for each piece dealt. When
 * garbage entered the board, or the combo and back-to-back the bot counts from its own moves differ from the
 * simulator's, the protocol has no message for the change: the bot gets `stop` and a new `start` with the position.
 * TBP has no message for incoming garbage, so the bot does not see it. Before each `suggest` the bot has had
 * `thinkMs` milliseconds since it last learnt of a change (for bots that search until asked).
 */
export class TbpPlayer implements VersusPlayer {
  readonly external = true;
  readonly stats: TbpPlayerStats = { suggestions: 0, retries: 0, restarts: 0 };
  private told = 0;
  private suggested: { location: TbpLocation; spin: Spin } | null = null;
  /** combo and back-to-back as the bot counts them from the moves it played. */
  private counters = { combo: 0, backToBack: false };

  private constructor(
    private readonly client: TbpClient,
    readonly name: string,
    private readonly thinkMs: number,
  ) {}

  /** Starts the bot program (`command`: its words), waits for `info` and readies it for bag7 games. */
  static async spawn(
    command: readonly string[],
    thinkMs: number,
    options: { cwd?: string; stderr?: (text: string) => void; signal?: AbortSignal } = {},
  ): Promise<TbpPlayer> {
    const client = await TbpClient.spawn(command[0], command.slice(1), { ...options, timeoutMs: 600_000 });
    try {
      await client.rules({ randomizer: 'seven_bag' });
    } catch (e) {
      await client.quit(0);
      throw e;
    }
    const { name, version } = client.info;
    return new TbpPlayer(client, `${String(name ?? command[0])} ${String(version ?? '')}`.trim(), thinkMs);
  }

  begin(view: SeatView): void {
    this.start(view);
  }

  async move(view: SeatView): Promise<PlayerMove | null> {
    for (let attempt = 0; attempt <= EMPTY_RETRIES; attempt++) {
      if (attempt > 0) {
        this.stats.retries++;
        this.told = performance.now();
      }
      const wait = this.told + this.thinkMs - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.stats.suggestions++;
      const suggestion = await this.client.suggest();
      const moves = suggestion.moves;
      if (!Array.isArray(moves))
        throw new StackRankError('IO', `TBP bot ${this.name} sent a suggestion without moves: ${describe(moves)}`);
      if (moves.length === 0) continue;
      const { location, spin } = this.readMove(moves[0]);
      this.suggested = { location, spin };
      // TBP infers hold from the piece placed: the current piece without it, else the held one (or the next).
      const hold = location.type !== view.current;
      return { hold, piece: location.type, cells: tbpCells(location), spin };
    }
    return null;
  }

  locked(report: LockReport, view: SeatView): void {
    const c = this.counters;
    const claimed = this.suggested!.spin;
    if (report.lines > 0) {
      c.combo++;
      c.backToBack = report.lines === 4 || claimed !== 'none';
    } else c.combo = 0;
    if (report.garbageRows > 0 || c.combo !== view.combo || c.backToBack !== view.backToBack > 0) {
      this.stats.restarts++;
      this.client.stop();
      this.start(view);
      return;
    }
    this.client.play(this.suggested!);
    for (const p of report.dealt) this.client.newPiece(p);
    this.told = performance.now();
  }

  end(): void {
    this.client.stop();
  }

  /** Ends the bot program. */
  close(): Promise<void> {
    return this.client.quit(5000);
  }

  private start(view: SeatView): void {
    const board = [];
    for (let y = 0; y < MATRIX_ROWS; y++) {
      const row = [];
      for (let x = 0; x < view.width; x++) row.push((view.rows[y] >> x) & 1 ? 'G' : null);
      board.push(row);
    }
    this.client.start({
      board,
      queue: [view.current, ...view.queue],
      hold: view.hold,
      combo: view.combo,
      back_to_back: view.backToBack > 0,
      // The bag at the end of the queue: the pieces the next one may be (a full bag when one just emptied).
      randomizer: { type: 'seven_bag', bag_state: PIECES.filter((_, i) => view.next[i] > 0) },
    });
    this.counters = { combo: view.combo, backToBack: view.backToBack > 0 };
    this.told = performance.now();
  }

  /** A suggested move, checked to be a TBP move; a malformed one is the bot's error (IO). */
  private readMove(value: unknown): { location: TbpLocation; spin: Spin } {
    const m = value as { location?: Partial<TbpLocation>; spin?: unknown } | null;
    const l = m?.location;
    const spin = m?.spin ?? 'none';
    if (
      !l ||
      !isPieceLetter(l.type) ||
      orientationIndex(l.orientation) < 0 ||
      !Number.isInteger(l.x) ||
      !Number.isInteger(l.y) ||
      (spin !== 'none' && spin !== 'mini' && spin !== 'full')
    )
      throw new StackRankError('IO', `TBP bot ${this.name} suggested ${describe(value)}, not a TBP move`);
    return { location: l as TbpLocation, spin };
  }
}

/** The words of a command line (split on white space; a word cannot hold a space). */
export function commandWords(line: string): string[] {
  return line.split(/\s+/).filter(Boolean);
}
