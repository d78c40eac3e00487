/**
 * TBP conformance: a scripted front end plays whole bag7 games through `stackrank tbp` as a child process (src/cli.ts
 * under tsx), keeping its own game (test/helpers/tbp-frontend.ts: the spec's piece cells, the reference rules'
 * reachability) and checking that every suggested move is legal there and lands where its simulation says. Then
 * malformed lines get the protocol's error answer, never a crash or a hang, and the process ends cleanly on quit,
 * at the end of its input and on SIGTERM.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/random.js';
import { buildRankTable } from '../../src/rank/table.js';
import { TbpClient } from '../../src/tbp/client.js';
import { FrontendGame, type Location } from '../helpers/tbp-frontend.js';

const ROOT = resolve(__dirname, '../..');
const PREVIEWS = 5;
let table: string;

beforeAll(async () => {
  // A small 9-column table keeps the bot's setup quick; the protocol does not depend on the table.
  table = join(mkdtempSync(join(tmpdir(), 'stackrank-tbp-')), 't9.srk');
  await (await buildRankTable({ width: 9, maxStep: 3, iterations: 2, threads: 1 })).save(table);
}, 60_000);

const botArgs = (...extra: string[]) => ['--import', 'tsx', 'src/cli.ts', 'tbp', '--table', table, ...extra];

/** The front end's own seven-piece bag: a shuffled bag of the 7 pieces at a time, and what is left of it. */
class Bag {
  private left: string[] = [];
  constructor(private readonly rng: Rng) {}
  next(): string {
    if (this.left.length === 0) {
      this.left = [...'IOTSZLJ'];
      for (let i = 6; i > 0; i--) {
        const j = this.rng.nextInt(i + 1);
        [this.left[i], this.left[j]] = [this.left[j], this.left[i]];
      }
    }
    return this.left.shift()!;
  }
  /** The bag at the end of the pieces dealt so far, as the randomizer extension writes it (never empty). */
  state(): string[] {
    return this.left.length > 0 ? [...this.left] : [...'IOTSZLJ'];
  }
}

/** Plays `pieces` pieces from the front end's position; returns the game. */
async function play(bot: TbpClient, game: FrontendGame, bag: Bag, pieces: number): Promise<void> {
  for (let n = 0; n < pieces; n++) {
    const suggestion = await bot.suggest();
    const moves = suggestion.moves as { location: Location; spin: string }[];
    expect(moves.length, `piece ${game.pieces}: a move`).toBeGreaterThan(0);
    expect(suggestion.move_info).toMatchObject({ depth: expect.any(Number), extra: expect.any(String) });
    const move = moves[0];
    expect(['none', 'mini', 'full']).toContain(move.spin);
    expect(game.problem(move), `piece ${game.pieces}: ${JSON.stringify(move)}`).toBeNull();
    game.play(move);
    expect(game.toppedOut(), `piece ${game.pieces}`).toBe(false);
    bot.play(move);
    while (game.queue.length < PREVIEWS + 1) {
      const p = bag.next();
      game.queue.push(p);
      bot.newPiece(p);
    }
  }
}

describe('stackrank tbp plays whole games through the protocol', { timeout: 180_000 }, () => {
  it('300 pieces of a bag7 game, a game started mid-way without a bag state, short games; quit ends it with 0', async () => {
    const stderr: string[] = [];
    const bot = await TbpClient.spawn(process.execPath, botArgs(), { cwd: ROOT, stderr: (t) => stderr.push(t) });
    expect(bot.info).toMatchObject({ type: 'info', name: 'stackrank', features: ['randomizer', 'move_info'] });
    await bot.rules({ randomizer: 'seven_bag' });

    const bag = new Bag(new Rng(54));
    const game = new FrontendGame();
    for (let i = 0; i <= PREVIEWS; i++) game.queue.push(bag.next());
    bot.start(game.startMessage({ randomizer: { type: 'seven_bag', bag_state: bag.state() } }));
    await play(bot, game, bag, 300);
    expect(game.pieces).toBe(300);
    expect(game.lines).toBeGreaterThan(100);

    // The same bot, a new game from this position with a held piece and counters, the bag left to infer.
    bot.stop();
    await bot.rules({});
    if (game.hold === null) game.hold = 'T';
    game.combo = 3;
    bot.start(game.startMessage());
    await play(bot, game, bag, 60);

    // Short games from empty boards, one after another on the same bot.
    for (let g = 0; g < 5; g++) {
      bot.stop();
      const fresh = new Bag(new Rng(1000 + g));
      const short = new FrontendGame();
      for (let i = 0; i <= PREVIEWS; i++) short.queue.push(fresh.next());
      bot.start(short.startMessage({ randomizer: { type: 'seven_bag', bag_state: fresh.state() } }));
      await play(bot, short, fresh, 10);
    }

    await bot.quit(10_000);
    expect(stderr.join('')).toBe('');
  });
});

/** The bot as a raw child process: lines in, lines out. */
function rawBot(...extra: string[]) {
  const child = spawn(process.execPath, botArgs(...extra), { cwd: ROOT }) as ChildProcessWithoutNullStreams;
  const lines: string[] = [];
  let buffered = '';
  let waiting: (() => void) | null = null;
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
    waiting?.();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  return {
    child,
    exit,
    stderr: () => stderr,
    send: (line: string) => child.stdin.write(`${line}\n`),
    /** The next line the bot writes, parsed (a bot that writes anything but JSON fails the test). */
    async next(timeoutMs = 30_000): Promise<Record<string, unknown>> {
      const deadline = Date.now() + timeoutMs;
      while (lines.length === 0) {
        if (Date.now() > deadline) throw new Error('the bot did not answer');
        await new Promise<void>((r) => {
          waiting = r;
          setTimeout(r, 100);
        });
      }
      return JSON.parse(lines.shift()!);
    },
    pending: () => lines.length,
  };
}

describe('malformed input gets the error answer; the bot never crashes or hangs', { timeout: 120_000 }, () => {
  it('every kind of bad line is answered with its reason, and the game goes on after each', async () => {
    const bot = rawBot();
    expect((await bot.next()).type).toBe('info');
    bot.send('{"type":"suggest"}');
    expect(await bot.next()).toMatchObject({ type: 'error', reason: 'out_of_order' });
    bot.send('{"type":"rules","randomizer":"seven_bag"}');
    expect(await bot.next()).toEqual({ type: 'ready' });
    const board = Array.from({ length: 40 }, () => new Array(10).fill(null));
    const start = {
      type: 'start',
      board,
      queue: ['T', 'I', 'O', 'S', 'Z', 'L'],
      hold: null,
      combo: 0,
      back_to_back: false,
    };
    bot.send(JSON.stringify(start));
    const bad: [string, string][] = [
      ['this is not json', 'invalid_message'],
      ['{"type":"start"', 'invalid_message'],
      ['null', 'invalid_message'],
      ['"suggest"', 'invalid_message'],
      ['{"type":["suggest"]}', 'invalid_message'],
      [JSON.stringify({ ...start, board: board.slice(1) }), 'invalid_message'],
      [JSON.stringify({ ...start, queue: 'TIOSZL' }), 'invalid_message'],
      [
        JSON.stringify({ type: 'play', move: { location: { type: 'T', orientation: 'north', x: 4 }, spin: 'none' } }),
        'invalid_message',
      ],
      [
        JSON.stringify({
          type: 'play',
          move: { location: { type: 'J', orientation: 'north', x: 4, y: 0 }, spin: 'none' },
        }),
        'illegal_move',
      ],
      [
        JSON.stringify({
          type: 'play',
          move: { location: { type: 'T', orientation: 'north', x: 4, y: 3 }, spin: 'none' },
        }),
        'illegal_move',
      ],
      [
        JSON.stringify({
          type: 'play',
          move: { location: { type: 'T', orientation: 'north', x: 9, y: 0 }, spin: 'none' },
        }),
        'illegal_move',
      ],
      [JSON.stringify({ type: 'new_piece', piece: 'X' }), 'invalid_message'],
      [`{"type":"suggest","x":"${'y'.repeat(200_000)}"`, 'invalid_message'],
    ];
    for (const [line, reason] of bad) {
      bot.send(line);
      const answer = await bot.next();
      expect(answer, line.slice(0, 80)).toMatchObject({ type: 'error', reason, message: expect.any(String) });
    }
    // Unknown types and blank lines: no answer. The next suggest is answered from the position start gave.
    bot.send('{"type":"garbage","lines":3}');
    bot.send('');
    bot.send('{"type":"suggest"}');
    const suggestion = await bot.next();
    expect(suggestion.type).toBe('suggestion');
    expect((suggestion.moves as { location: Location }[])[0].location.type).toMatch(/^[TI]$/);
    expect(bot.pending()).toBe(0);
    bot.send('{"type":"quit"}');
    expect(await bot.exit).toEqual({ code: 0, signal: null });
    expect(bot.stderr()).toMatch(/invalid_message: not JSON/);
  });

  it('the end of the input ends the bot with 0, also mid-game', async () => {
    const bot = rawBot();
    expect((await bot.next()).type).toBe('info');
    bot.send('{"type":"rules"}');
    expect((await bot.next()).type).toBe('ready');
    bot.child.stdin.end();
    expect(await bot.exit).toEqual({ code: 0, signal: null });
  });

  it('SIGTERM while it waits for input: exit 143, and nothing but protocol lines on stdout', async () => {
    const bot = rawBot();
    expect((await bot.next()).type).toBe('info');
    bot.child.kill('SIGTERM');
    expect(await bot.exit).toEqual({ code: 143, signal: null });
    expect(bot.pending()).toBe(0);
    expect(bot.stderr()).toMatch(/stackrank tbp: terminated \(SIGTERM\)/);
  });

  it('a usage error is reported before the protocol starts (exit 2, nothing on stdout)', async () => {
    const bot = rawBot('--iterations', '3');
    expect(await bot.exit).toEqual({ code: 2, signal: null });
    expect(bot.pending()).toBe(0);
    expect(bot.stderr()).toMatch(/--iterations picks the cached table/);
  });
});
