/**
 * The bot side of the Tetris Bot Protocol (docs/tbp.md): the front end's messages in, the bot's out, whatever
 * carries them (JSON lines on stdin/stdout: src/cli/tbp.ts; postMessage: worker.ts). The bot keeps the game's
 * position, checks every move the front end plays against it, and asks its engine (engine.ts) for moves. No message
 * makes it throw: what it cannot act on gets an `error` message and changes nothing.
 */
import { describe } from '../errors.js';
import type { Piece } from '../pieces.js';
import type { Cell, Spin } from '../rules/types.js';
import {
  TBP_HEIGHT,
  TBP_WIDTH,
  type PlayedMove,
  type TbpEngine,
  type TbpPosition,
  type TbpRandomizer,
  type TbpRandomizerName,
} from './engine.js';
import { tbpCells, tbpFromSrs } from './location.js';
import {
  MessageProblem,
  readMessage,
  type BotMessage,
  type FrontendMessage,
  type TbpErrorReason,
  type TbpMove,
} from './messages.js';
import { clearKindOf, nextVersusState } from '../rules/attack.js';
import { STACKRANK_VERSION } from '../version.js';

/** The protocol's extensions the bot speaks (tbp-spec's text/0001-randomizer.md and text/0003-move_info.md). */
export const TBP_FEATURES: readonly string[] = Object.freeze(['randomizer', 'move_info']);

export interface TbpBotOptions {
  readonly engine: TbpEngine;
  /** Sends one of the bot's messages to the front end. */
  readonly send: (message: BotMessage) => void;
  /** Diagnostics for a person (the CLI writes them to stderr); never part of the protocol. */
  readonly log?: (line: string) => void;
  /** `info`'s version (default: the library's, with what the engine plays). */
  readonly version?: string;
}

interface Position extends TbpPosition {
  rows: Uint32Array;
  queue: Piece[];
  hold: Piece | null;
  combo: number;
  backToBack: boolean;
}

class Refusal {
  constructor(
    readonly reason: TbpErrorReason,
    readonly message: string,
  ) {}
}

export class TbpBot {
  private readonly engine: TbpEngine;
  private readonly sendMessage: (message: BotMessage) => void;
  private readonly log: (line: string) => void;
  private readonly version: string;
  /** The rules' randomizer once `rules` was answered `ready`; null before. */
  private randomizer: TbpRandomizerName | null = null;
  /** The game being calculated (after `start`, until `stop`), else null. */
  private position: Position | null = null;
  private startRandomizer: TbpRandomizer = { name: 'unknown' };
  /** Messages are handled one at a time, in order, even while an engine's answer is awaited. */
  private chain: Promise<unknown> = Promise.resolve();
  private quitting = false;

  constructor(options: TbpBotOptions) {
    this.engine = options.engine;
    this.sendMessage = options.send;
    this.log = options.log ?? (() => {});
    this.version = options.version ?? STACKRANK_VERSION;
  }

  /** Sends `info`: the first message of every bot, as soon as it runs. */
  open(): void {
    this.sendMessage({
      type: 'info',
      name: 'stackrank',
      version: this.version,
      author: 'The stackrank developers',
      features: TBP_FEATURES,
    });
  }

  /** Whether `quit` was received (the transport then closes). */
  get quit(): boolean {
    return this.quitting;
  }

  /** One line of text from the front end (a JSON message). Resolves once handled; true after `quit`. */
  receiveLine(line: string): Promise<boolean> {
    if (line.trim() === '') return this.receiveChecked(() => null);
    return this.receiveChecked(() => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new MessageProblem(`not JSON: ${describe(line)}`);
      }
      return readMessage(value);
    });
  }

  /** One message object from the front end (postMessage). Resolves once handled; true after `quit`. */
  receive(value: unknown): Promise<boolean> {
    return this.receiveChecked(() => readMessage(value));
  }

  private receiveChecked(read: () => FrontendMessage | null): Promise<boolean> {
    const done = this.chain.then(async () => {
      if (this.quitting) return true;
      try {
        const message = read();
        if (message) await this.handle(message);
      } catch (e) {
        this.refuse(e);
      }
      return this.quitting;
    });
    this.chain = done;
    return done;
  }

  private refuse(e: unknown): void {
    const refusal =
      e instanceof MessageProblem
        ? new Refusal('invalid_message', e.message)
        : e instanceof Refusal
          ? e
          : new Refusal('internal_error', e instanceof Error ? e.message : String(e));
    this.log(`tbp: ${refusal.reason}: ${refusal.message}`);
    this.sendMessage({ type: 'error', reason: refusal.reason, message: refusal.message });
  }

  private async handle(message: FrontendMessage): Promise<void> {
    switch (message.type) {
      case 'rules': {
        this.stopGame();
        this.randomizer = null;
        try {
          await this.engine.setup(message.randomizer);
        } catch (e) {
          throw new Refusal(
            'unsupported_rules',
            `the AI could not be set up: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
        this.randomizer = message.randomizer;
        this.sendMessage({ type: 'ready' });
        return;
      }
      case 'start': {
        if (this.randomizer === null) throw new Refusal('out_of_order', 'start before the rules were answered ready');
        const given = message.randomizer;
        if (given && this.randomizer !== 'unknown' && given.name !== this.randomizer)
          throw new MessageProblem(
            `start.randomizer is ${given.name} but the rules named ${this.randomizer}; they must be the same`,
          );
        this.position = {
          rows: message.rows,
          queue: [...message.queue],
          hold: message.hold,
          combo: message.combo,
          backToBack: message.backToBack,
        };
        this.startRandomizer = given ?? { name: this.randomizer };
        this.engine.start(this.position, this.startRandomizer);
        return;
      }
      case 'suggest': {
        const position = this.calculating('suggest');
        if (position.queue.length === 0)
          throw new Refusal('out_of_order', 'suggest with an empty queue: there is no piece to place yet (new_piece)');
        const { moves, info } = await this.engine.suggest(position);
        const seen = new Set<string>();
        const out: TbpMove[] = [];
        for (const m of moves) {
          const move: TbpMove = { location: tbpFromSrs(m), spin: m.spin };
          const key = JSON.stringify(move);
          if (!seen.has(key)) out.push(move);
          seen.add(key);
        }
        this.sendMessage({ type: 'suggestion', moves: out, ...(info ? { move_info: { ...info } } : {}) });
        return;
      }
      case 'play': {
        const position = this.calculating('play');
        const played = legalMove(position, message.move);
        applyMove(position, played);
        this.engine.play(played, position);
        return;
      }
      case 'new_piece': {
        const position = this.calculating('new_piece');
        position.queue.push(message.piece);
        this.engine.newPiece(message.piece, position);
        return;
      }
      case 'stop':
        this.stopGame();
        return;
      case 'quit':
        this.stopGame();
        this.quitting = true;
        return;
      case 'ignored':
        this.log(`tbp: ignored a message of unknown type ${describe(message.name)}`);
        return;
    }
  }

  private calculating(what: string): Position {
    if (this.position === null)
      throw new Refusal('out_of_order', `${what} while no game is being calculated (send start first)`);
    return this.position;
  }

  private stopGame(): void {
    if (this.position !== null) this.engine.stop();
    this.position = null;
  }
}

/**
 * The move the front end played, if the position allows it: the piece is the current one, or the one hold gives
 * (the held piece, or the queue's second when the box is empty); its four cells lie on the board, on empty cells,
 * and it rests (a cell on the floor or on a filled cell). Reachability is the front end's business: its game may
 * have other kicks, 180° turns or another spawn. Throws an illegal_move Refusal otherwise.
 */
function legalMove(position: Position, move: TbpMove): PlayedMove {
  const { queue, hold, rows } = position;
  const type = move.location.type;
  if (queue.length === 0) throw new Refusal('out_of_order', 'play with an empty queue: there is no piece to place');
  let held: boolean;
  if (type === queue[0]) held = false;
  else if (hold !== null ? type === hold : queue.length > 1 && type === queue[1]) held = true;
  else {
    const other = hold !== null ? `the held ${hold}` : queue.length > 1 ? `${queue[1]} (hold)` : 'no other piece';
    throw new Refusal(
      'illegal_move',
      `the move places ${type}; the position allows the current ${queue[0]} or ${other}`,
    );
  }
  const cells = tbpCells(move.location);
  const where = JSON.stringify(move.location);
  for (const [x, y] of cells) {
    if (x < 0 || x >= TBP_WIDTH || y < 0 || y >= TBP_HEIGHT)
      throw new Refusal(
        'illegal_move',
        `${where} puts a cell at (${x}, ${y}), off the ${TBP_WIDTH} x ${TBP_HEIGHT} board`,
      );
    if ((rows[y] >> x) & 1) throw new Refusal('illegal_move', `${where} overlaps the filled cell (${x}, ${y})`);
  }
  if (!cells.some(([x, y]) => y === 0 || (rows[y - 1] >> x) & 1))
    throw new Refusal('illegal_move', `${where} does not rest on the floor or on a filled cell`);
  return { piece: type, hold: held, cells, spin: move.spin, lines: fullRowsAfter(rows, cells) };
}

/** How many rows are full once `cells` are filled. */
function fullRowsAfter(rows: Uint32Array, cells: readonly Cell[]): number {
  const full = (1 << TBP_WIDTH) - 1;
  const touched = new Map<number, number>();
  for (const [x, y] of cells) touched.set(y, (touched.get(y) ?? rows[y]) | (1 << x));
  let lines = 0;
  for (const bits of touched.values()) if (bits === full) lines++;
  return lines;
}

/** Locks a checked move: cells, cleared rows, queue and hold, the counters. */
function applyMove(position: Position, move: PlayedMove): void {
  const { rows, queue } = position;
  for (const [x, y] of move.cells) rows[y] |= 1 << x;
  const full = (1 << TBP_WIDTH) - 1;
  let to = 0;
  for (let y = 0; y < TBP_HEIGHT; y++) if (rows[y] !== full) rows[to++] = rows[y];
  rows.fill(0, to);
  if (!move.hold) queue.shift();
  else if (position.hold !== null) position.hold = queue.shift()!;
  else {
    position.hold = queue[0];
    queue.splice(0, 2);
  }
  const counters = countersAfter(position, move.lines, move.spin);
  position.combo = counters.combo;
  position.backToBack = counters.backToBack;
}

/**
 * TBP's counters after a lock that cleared `lines` with `spin`, by the rules layer's versus arithmetic: `combo` is
 * line clears in a row, `back_to_back` whether a back-to-back chain is running (docs/tbp.md). A spin with more lines
 * than its kind has (a mini triple) counts as the plain clear.
 */
export function countersAfter(
  before: { readonly combo: number; readonly backToBack: boolean },
  lines: number,
  spin: Spin,
): { combo: number; backToBack: boolean } {
  const kind = clearKindOf(lines, spin) ?? clearKindOf(lines, 'none')!;
  const after = nextVersusState(kind, { combo: before.combo, backToBack: before.backToBack ? 1 : 0 });
  return { combo: after.combo, backToBack: after.backToBack > 0 };
}
