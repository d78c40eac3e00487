/**
 * The TBP bot's protocol (src/tbp/bot.ts) over a scripted engine: the order of messages, every error answer and
 * that it changes nothing, how `play` infers hold and locks the piece (checked against the test front end's own
 * simulation), and the position the engine is shown.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Piece } from '../../src/pieces.js';
import { TbpBot } from '../../src/tbp/bot.js';
import { STACKRANK_VERSION } from '../../src/version.js';
import type {
  EngineMove,
  EngineSuggestion,
  PlayedMove,
  TbpEngine,
  TbpPosition,
  TbpRandomizer,
  TbpRandomizerName,
} from '../../src/tbp/engine.js';
import type { BotMessage } from '../../src/tbp/messages.js';
import { FrontendGame, type Location, type Orientation } from '../helpers/tbp-frontend.js';

/** An engine that records its calls and answers what the test scripts. */
class ScriptedEngine implements TbpEngine {
  readonly calls: string[] = [];
  positions: { rows: number[]; queue: Piece[]; hold: Piece | null; combo: number; backToBack: boolean }[] = [];
  randomizer: TbpRandomizer | null = null;
  answer: EngineSuggestion = { moves: [] };
  failSetup: Error | null = null;
  failSuggest: Error | null = null;
  delayMs = 0;

  private record(name: string, p?: TbpPosition) {
    this.calls.push(name);
    if (p)
      this.positions.push({
        rows: Array.from(p.rows),
        queue: [...p.queue],
        hold: p.hold,
        combo: p.combo,
        backToBack: p.backToBack,
      });
  }
  async setup(r: TbpRandomizerName) {
    this.record(`setup ${r}`);
    if (this.failSetup) throw this.failSetup;
  }
  start(p: TbpPosition, r: TbpRandomizer) {
    this.randomizer = r;
    this.record('start', p);
  }
  async suggest(p: TbpPosition) {
    this.record('suggest', p);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failSuggest) throw this.failSuggest;
    return this.answer;
  }
  play(m: PlayedMove, p: TbpPosition) {
    this.record(`play ${m.piece}${m.hold ? ' hold' : ''} ${m.lines}`, p);
  }
  newPiece(piece: Piece, p: TbpPosition) {
    this.record(`new_piece ${piece}`, p);
  }
  stop() {
    this.record('stop');
  }
}

function makeBot() {
  const engine = new ScriptedEngine();
  const out: BotMessage[] = [];
  const bot = new TbpBot({ engine, send: (m) => out.push(m) });
  /** Sends lines (objects are stringified) and returns what the bot answered to them. */
  const say = async (...messages: (string | object)[]) => {
    const from = out.length;
    for (const m of messages) await bot.receiveLine(typeof m === 'string' ? m : JSON.stringify(m));
    return out.slice(from);
  };
  return { engine, out, bot, say };
}

const EMPTY_BOARD = () => Array.from({ length: 40 }, () => new Array(10).fill(null));
const start = (extra: Record<string, unknown> = {}) => ({
  type: 'start',
  board: EMPTY_BOARD(),
  queue: ['T', 'S', 'Z', 'O', 'I', 'L'],
  hold: null,
  combo: 0,
  back_to_back: false,
  ...extra,
});
const move = (type: string, orientation: string, x: number, y: number, spin = 'none') => ({
  location: { type, orientation: orientation as Orientation, x, y },
  spin,
});

async function started() {
  const b = makeBot();
  await b.say({ type: 'rules', randomizer: 'seven_bag' }, start());
  return b;
}

describe('TbpBot: the protocol', () => {
  it('info first, with the features it speaks and the library version', () => {
    const { bot, out } = makeBot();
    bot.open();
    expect(out).toEqual([
      {
        type: 'info',
        name: 'stackrank',
        version: STACKRANK_VERSION,
        author: 'The stackrank developers',
        features: ['randomizer', 'move_info'],
      },
    ]);
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
    expect(STACKRANK_VERSION).toBe(pkg.version);
  });

  it('rules -> ready after the engine is set up; the randomizer reaches the engine, unknown when absent', async () => {
    const { say, engine } = makeBot();
    expect(await say({ type: 'rules' })).toEqual([{ type: 'ready' }]);
    expect(await say({ type: 'rules', randomizer: 'seven_bag' })).toEqual([{ type: 'ready' }]);
    expect(await say({ type: 'rules', randomizer: 'tgm3' })).toEqual([{ type: 'ready' }]);
    expect(engine.calls).toEqual(['setup unknown', 'setup seven_bag', 'setup unknown']);
  });

  it('an engine that cannot be set up answers rules with unsupported_rules (the spec’s reason), and start stays refused', async () => {
    const { say, engine } = makeBot();
    engine.failSetup = new Error('no table');
    const [err] = await say({ type: 'rules' });
    expect(err).toMatchObject({ type: 'error', reason: 'unsupported_rules' });
    expect((err as { message: string }).message).toMatch(/no table/);
    expect(await say(start())).toMatchObject([{ type: 'error', reason: 'out_of_order' }]);
  });

  it('rules ends any game under way (docs/tbp.md): suggest is then out of order until the next start', async () => {
    const { say, engine } = await started();
    expect(await say({ type: 'rules', randomizer: 'seven_bag' })).toEqual([{ type: 'ready' }]);
    expect(engine.calls.slice(-2)).toEqual(['stop', 'setup seven_bag']);
    expect(await say({ type: 'suggest' })).toMatchObject([{ type: 'error', reason: 'out_of_order' }]);
    expect(await say({ type: 'play', move: move('T', 'north', 4, 0) })).toMatchObject([
      { type: 'error', reason: 'out_of_order' },
    ]);
    // rules with no game under way: the engine is not stopped again.
    expect(await say({ type: 'rules' })).toEqual([{ type: 'ready' }]);
    expect(engine.calls.filter((c) => c === 'stop')).toHaveLength(1);
    await say(start());
    expect(await say({ type: 'suggest' })).toMatchObject([{ type: 'suggestion' }]);
  });

  it('rules that fail after rules that were answered ready: start is out of order again', async () => {
    const { say, engine } = makeBot();
    expect(await say({ type: 'rules', randomizer: 'seven_bag' })).toEqual([{ type: 'ready' }]);
    engine.failSetup = new Error('no table');
    expect(await say({ type: 'rules', randomizer: 'seven_bag' })).toMatchObject([
      { type: 'error', reason: 'unsupported_rules' },
    ]);
    expect(await say(start())).toMatchObject([{ type: 'error', reason: 'out_of_order' }]);
    expect(engine.calls).not.toContain('start');
  });

  it('suggest answers the engine’s moves as TBP locations in order, without repeats, with move_info', async () => {
    const { say, engine } = await started();
    const m = (piece: Piece, rotation: string, x: number, y: number, hold = false): EngineMove => ({
      hold,
      piece,
      rotation,
      x,
      y,
      cells: [],
      inputs: [],
      spin: 'none',
    });
    engine.answer = {
      moves: [m('T', '2', 3, -1), { ...m('S', 'R', 0, 0, true), spin: 'mini' }, m('T', '2', 3, -1, true)],
      info: { depth: 3, extra: 'x' },
    };
    expect(await say({ type: 'suggest' })).toEqual([
      {
        type: 'suggestion',
        moves: [move('T', 'south', 4, 0), move('S', 'east', 1, 1, 'mini')],
        move_info: { depth: 3, extra: 'x' },
      },
    ]);
    engine.answer = { moves: [] };
    expect(await say({ type: 'suggest' })).toEqual([{ type: 'suggestion', moves: [] }]);
  });

  it('play locks the piece, clears rows, infers hold and carries the counters; new_piece extends the queue', async () => {
    const { say, engine } = await started();
    const front = new FrontendGame();
    front.queue = ['T', 'S', 'Z', 'O', 'I', 'L'];
    const plays: { location: Location; spin: string }[] = [
      move('T', 'north', 1, 0), // T, no hold
      move('Z', 'north', 5, 0), // S held into the empty box, Z placed
      move('S', 'north', 8, 0), // S from hold, O goes in
      move('I', 'east', 3, 2), // I is current
    ];
    for (const p of plays) {
      expect(front.problem(p)).toBeNull();
      front.play(p);
      expect(await say({ type: 'play', move: p })).toEqual([]);
      const shown = engine.positions.at(-1)!;
      expect(shown.queue).toEqual(front.queue);
      expect(shown.hold).toBe(front.hold);
      expect(shown.combo).toBe(front.combo);
      const rows = front.filled.map((row) => row.reduce((bits, f, x) => bits | (f ? 1 << x : 0), 0));
      expect(shown.rows).toEqual(rows);
    }
    expect(engine.calls.slice(-4)).toEqual(['play T 0', 'play Z hold 0', 'play S hold 0', 'play I 0']);
    expect(await say({ type: 'new_piece', piece: 'J' })).toEqual([]);
    expect(engine.positions.at(-1)!.queue).toEqual([...front.queue, 'J']);
  });

  it('a clear counts in combo and back_to_back from the start values, the spin the front end reports deciding', async () => {
    const { say, engine } = makeBot();
    const board = EMPTY_BOARD();
    for (let x = 0; x < 10; x++) if (x !== 4) board[0][x] = 'G';
    for (let x = 0; x < 10; x++) if (x < 3 || x > 5) board[1][x] = 'G';
    await say({ type: 'rules' }, start({ board, combo: 2, back_to_back: true, queue: ['T', 'T', 'I'] }));
    // T pointing down into the slot: two rows, reported as a full spin.
    await say({ type: 'play', move: move('T', 'south', 4, 1, 'full') });
    expect(engine.calls.at(-1)).toBe('play T 2');
    expect(engine.positions.at(-1)).toMatchObject({ combo: 3, backToBack: true, queue: ['T', 'I'] });
    await say({ type: 'play', move: move('T', 'north', 1, 0) });
    expect(engine.positions.at(-1)).toMatchObject({ combo: 0, backToBack: true });
  });

  it('stop ends the game (suggest is then out of order); quit ends the bot, later messages unanswered', async () => {
    const { say, bot, engine } = await started();
    expect(await say({ type: 'stop' })).toEqual([]);
    expect(await say({ type: 'suggest' })).toMatchObject([{ type: 'error', reason: 'out_of_order' }]);
    expect(engine.calls).toContain('stop');
    expect(await bot.receiveLine('{"type":"quit"}')).toBe(true);
    expect(bot.quit).toBe(true);
    expect(await say({ type: 'rules' }, 'garbage')).toEqual([]);
  });

  it('answers in order while the engine thinks', async () => {
    const { bot, out, engine } = await started();
    engine.delayMs = 30;
    engine.answer = { moves: [] };
    const all = [bot.receiveLine('{"type":"suggest"}'), bot.receiveLine('nope'), bot.receiveLine('{"type":"suggest"}')];
    await Promise.all(all);
    expect(out.slice(-3).map((m) => m.type)).toEqual(['suggestion', 'error', 'suggestion']);
  });
});

describe('TbpBot: what it cannot act on gets an error and changes nothing', () => {
  const cases: [string, string | object, string][] = [
    ['not JSON', '{"type": "suggest"', 'invalid_message'],
    ['JSON that is no object', '[1, 2]', 'invalid_message'],
    ['an object without a type', '{"kind":"suggest"}', 'invalid_message'],
    ['a type that is no string', '{"type": 7}', 'invalid_message'],
    ['start: queue missing', { ...start(), queue: undefined }, 'invalid_message'],
    ['start: a queue entry no piece', start({ queue: ['T', 'X'] }), 'invalid_message'],
    ['start: hold missing', { ...start(), hold: undefined }, 'invalid_message'],
    ['start: combo negative', start({ combo: -1 }), 'invalid_message'],
    ['start: combo fractional', start({ combo: 1.5 }), 'invalid_message'],
    ['start: back_to_back a number', start({ back_to_back: 1 }), 'invalid_message'],
    ['start: 20 rows', start({ board: EMPTY_BOARD().slice(0, 20) }), 'invalid_message'],
    [
      'start: a row of 9 cells',
      start({ board: [new Array(9).fill(null), ...EMPTY_BOARD().slice(1)] }),
      'invalid_message',
    ],
    [
      'start: a cell that is a number',
      start({ board: [[1, ...new Array(9).fill(null)], ...EMPTY_BOARD().slice(1)] }),
      'invalid_message',
    ],
    ['start: a full row', start({ board: [new Array(10).fill('G'), ...EMPTY_BOARD().slice(1)] }), 'invalid_message'],
    ['start: bag_state empty', start({ randomizer: { type: 'seven_bag', bag_state: [] } }), 'invalid_message'],
    [
      'start: bag_state repeats',
      start({ randomizer: { type: 'seven_bag', bag_state: ['T', 'T'] } }),
      'invalid_message',
    ],
    [
      'start: general bag all zero',
      start({ randomizer: { type: 'general_bag', current_bag: {}, filled_bag: { I: 1 } } }),
      'invalid_message',
    ],
    ['start: another randomizer than the rules named', start({ randomizer: { type: 'uniform' } }), 'invalid_message'],
    ['start: combo 2^31, past the protocol’s 2^31 - 1', start({ combo: 2 ** 31 }), 'invalid_message'],
    ['start: combo a numeric string', start({ combo: '2' }), 'invalid_message'],
    ['play: no move', { type: 'play' }, 'invalid_message'],
    ['play: orientation unknown', { type: 'play', move: move('T', 'up', 4, 0) }, 'invalid_message'],
    ['play: x fractional', { type: 'play', move: move('T', 'north', 4.5, 0) }, 'invalid_message'],
    ['play: spin missing', { type: 'play', move: { location: move('T', 'north', 4, 0).location } }, 'invalid_message'],
    ['play: spin unknown', { type: 'play', move: move('T', 'north', 4, 0, 'double') }, 'invalid_message'],
    ['play: a piece neither current nor held', { type: 'play', move: move('O', 'north', 4, 0) }, 'illegal_move'],
    ['play: off the board', { type: 'play', move: move('T', 'north', 0, 0) }, 'illegal_move'],
    ['play: floating', { type: 'play', move: move('T', 'north', 4, 5) }, 'illegal_move'],
    ['play: under the floor', { type: 'play', move: move('T', 'south', 4, 0) }, 'illegal_move'],
    ['new_piece: no piece', { type: 'new_piece', piece: 'Q' }, 'invalid_message'],
  ];

  it.each(cases)('%s', async (_name, message, reason) => {
    const { say, engine } = await started();
    const before = [...engine.calls];
    const positions = engine.positions.length;
    const [answer, ...rest] = await say(message);
    expect(rest).toEqual([]);
    expect(answer).toMatchObject({ type: 'error', reason });
    expect(typeof (answer as { message: string }).message).toBe('string');
    expect(engine.calls).toEqual(before);
    expect(engine.positions.length).toBe(positions);
    // The game goes on: a legal play is still taken.
    expect(await say({ type: 'play', move: move('T', 'north', 4, 0) })).toEqual([]);
  });

  it('start: combo up to 2^31 - 1 is taken and reaches the engine', async () => {
    const { say, engine } = makeBot();
    expect(await say({ type: 'rules' }, start({ combo: 2 ** 31 - 1 }))).toEqual([{ type: 'ready' }]);
    expect(engine.positions.at(-1)!.combo).toBe(2 ** 31 - 1);
  });

  it('general_bag counts: 1000 of a piece is taken, 1001 is invalid_message (docs/tbp.md: integers 0–1000)', async () => {
    const { say, engine } = makeBot();
    await say({ type: 'rules', randomizer: 'general_bag' });
    const bag = (current: Record<string, unknown>, filled: Record<string, unknown>) =>
      start({ randomizer: { type: 'general_bag', current_bag: current, filled_bag: filled } });
    expect(await say(bag({ I: 1000 }, { I: 1000, T: 1 }))).toEqual([]);
    expect(engine.randomizer?.bag?.filled).toEqual([1000, 0, 1, 0, 0, 0, 0]);
    for (const [current, filled] of [
      [{ I: 1 }, { I: 1001 }],
      [{ I: 1001 }, { I: 1 }],
      [{ I: 1 }, { I: 1, T: -1 }],
      [{ I: 1 }, { I: 1, T: 0.5 }],
      [{ I: 1 }, { I: '1' }],
      [{ T: 1 }, { I: 1 }],
    ]) {
      const calls = engine.calls.length;
      const [answer, ...rest] = await say(bag(current, filled));
      expect(rest).toEqual([]);
      expect(answer, JSON.stringify([current, filled])).toMatchObject({ type: 'error', reason: 'invalid_message' });
      expect(engine.calls.length).toBe(calls);
    }
  });

  it('with the hold box full, the queue’s second piece is illegal: only the current or the held one', async () => {
    const { say, engine } = makeBot();
    await say({ type: 'rules' }, start({ hold: 'O' }));
    const [answer, ...rest] = await say({ type: 'play', move: move('S', 'north', 4, 0) });
    expect(rest).toEqual([]);
    expect(answer).toMatchObject({ type: 'error', reason: 'illegal_move' });
    expect(engine.calls).toEqual(['setup unknown', 'start']);
    // The held O is playable (it swaps with the current T), and so is the current T.
    expect(await say({ type: 'play', move: move('O', 'north', 0, 0) })).toEqual([]);
    expect(engine.positions.at(-1)).toMatchObject({ hold: 'T', queue: ['S', 'Z', 'O', 'I', 'L'] });
  });

  it('unknown fields of known messages are ignored (the spec): the message is answered as usual', async () => {
    const { say, engine } = makeBot();
    expect(await say({ type: 'rules', randomizer: 'seven_bag', colour: 'red' })).toEqual([{ type: 'ready' }]);
    expect(await say(start({ garbage_queue: [3, 2], extra: { nested: true } }))).toEqual([]);
    const played = { ...move('T', 'north', 4, 0), finesse: 2 };
    played.location = { ...played.location, kick: 1 } as never;
    expect(await say({ type: 'play', move: played, frame: 12 })).toEqual([]);
    expect(await say({ type: 'new_piece', piece: 'J', time: 5 })).toEqual([]);
    expect(await say({ type: 'suggest', budget_ms: 100 })).toMatchObject([{ type: 'suggestion' }]);
    expect(await say({ type: 'stop', reason: 'won' })).toEqual([]);
    expect(engine.calls).toEqual(['setup seven_bag', 'start', 'play T 0', 'new_piece J', 'suggest', 'stop']);
  });

  it('a playing piece on a filled cell is illegal', async () => {
    const { say } = makeBot();
    const board = EMPTY_BOARD();
    board[0][4] = 'G';
    await say({ type: 'rules' }, start({ board }));
    expect(await say({ type: 'play', move: move('T', 'north', 4, 0) })).toMatchObject([
      { type: 'error', reason: 'illegal_move' },
    ]);
  });

  it('messages of an unknown type are ignored, as the spec says', async () => {
    const { say } = await started();
    expect(await say({ type: 'frobnicate', x: 1 }, { type: 'garbage_lines' })).toEqual([]);
  });

  it('before start: suggest, play and new_piece are out of order; so is start before rules', async () => {
    const { say } = makeBot();
    expect(await say(start())).toMatchObject([{ reason: 'out_of_order' }]);
    await say({ type: 'rules' });
    for (const m of [
      { type: 'suggest' },
      { type: 'play', move: move('T', 'north', 4, 0) },
      { type: 'new_piece', piece: 'T' },
    ])
      expect(await say(m)).toMatchObject([{ type: 'error', reason: 'out_of_order' }]);
  });

  it('an empty queue: suggest and play are out of order until new_piece brings a piece', async () => {
    const { say, engine } = makeBot();
    await say({ type: 'rules' }, start({ queue: [] }));
    expect(await say({ type: 'suggest' })).toMatchObject([{ reason: 'out_of_order' }]);
    expect(await say({ type: 'play', move: move('T', 'north', 4, 0) })).toMatchObject([{ reason: 'out_of_order' }]);
    await say({ type: 'new_piece', piece: 'T' });
    expect(await say({ type: 'suggest' })).toMatchObject([{ type: 'suggestion' }]);
    expect(engine.positions.at(-1)!.queue).toEqual(['T']);
  });

  it('an engine failure while suggesting is internal_error, and the bot goes on', async () => {
    const { say, engine } = await started();
    engine.failSuggest = new Error('boom');
    expect(await say({ type: 'suggest' })).toMatchObject([
      { type: 'error', reason: 'internal_error', message: 'boom' },
    ]);
    engine.failSuggest = null;
    expect(await say({ type: 'suggest' })).toMatchObject([{ type: 'suggestion' }]);
  });
});

describe('TbpBot: the randomizer the engine is given', () => {
  it('the start’s bag state, as counts; none: the rules’ name', async () => {
    const { say, engine } = makeBot();
    await say(
      { type: 'rules', randomizer: 'seven_bag' },
      start({ randomizer: { type: 'seven_bag', bag_state: ['J', 'L'] } }),
    );
    expect(engine.randomizer).toEqual({
      name: 'seven_bag',
      bag: { current: [0, 0, 0, 0, 0, 1, 1], filled: [1, 1, 1, 1, 1, 1, 1] },
    });
    await say(start());
    expect(engine.randomizer).toEqual({ name: 'seven_bag' });
    await say(
      { type: 'rules', randomizer: 'general_bag' },
      start({ randomizer: { type: 'general_bag', current_bag: { I: 2 }, filled_bag: { I: 2, O: 1, T: 1 } } }),
    );
    expect(engine.randomizer).toEqual({
      name: 'general_bag',
      bag: { current: [2, 0, 0, 0, 0, 0, 0], filled: [2, 1, 1, 0, 0, 0, 0] },
    });
  });

  it('rules without a randomizer take the start’s randomizer object as it is given', async () => {
    const { say, engine } = makeBot();
    await say({ type: 'rules' }, start({ randomizer: { type: 'seven_bag', bag_state: ['I'] } }));
    expect(engine.randomizer?.name).toBe('seven_bag');
  });
});
