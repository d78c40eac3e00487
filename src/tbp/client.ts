/**
 * The front end's side of the Tetris Bot Protocol: drives any TBP bot (docs/tbp.md, "Driving other bots"), a
 * program speaking JSON lines on stdin/stdout (`TbpClient.spawn`) or a worker speaking postMessage
 * (`TbpClient.overPort`). Its calls follow the protocol: `rules` waits for `ready`, `suggest` for `suggestion`;
 * `start`, `play`, `newPiece`, `stop` only send. An `error` from the bot, a message that is not JSON, a bot that
 * exits or does not answer in time: StackRankError('IO') with what happened. Benchmarks use it to meet other bots.
 */
import { StackRankError, describe } from '../errors.js';
import { nodeBuiltin } from '../node-builtins.js';

/** A message as it travels: a JSON object with a `type`. */
export type TbpMessage = { readonly type: string } & Record<string, unknown>;

/** How the client reaches a bot: send a message, hear the bot's, end it. */
export interface TbpConnection {
  send(message: object): void;
  /** Messages in order; `gone` once the bot can send no more (it exited or closed), with why. */
  listen(onMessage: (message: unknown) => void, onGone: (why: string) => void): void;
  /** Ends the bot (after `quit` had time to work) and resolves when it is gone. */
  close(graceMs: number): Promise<void>;
}

export interface TbpClientOptions {
  /** How long `info`, `ready` and `suggestion` may take (default 60 s: the first `rules` may load tables). */
  timeoutMs?: number;
  /** Stops every wait for the bot at once (ABORTED), whatever the timeout: a silent bot does not hold a run. */
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 60_000;

export class TbpClient {
  private readonly inbox: unknown[] = [];
  private waiter: { resolve: (m: unknown) => void; reject: (e: Error) => void } | null = null;
  private gone: string | null = null;
  /** The bot's `info` message. */
  info: TbpMessage = { type: 'info' };
  /** Every `error` message the bot sent while nothing waited for an answer (after a `play`, say). */
  readonly errors: TbpMessage[] = [];

  private constructor(
    private readonly connection: TbpConnection,
    private readonly timeoutMs: number,
    readonly name: string,
    private readonly signal: AbortSignal | undefined,
  ) {
    connection.listen(
      (m) => {
        if (this.waiter) {
          const w = this.waiter;
          this.waiter = null;
          w.resolve(m);
        } else this.inbox.push(m);
      },
      (why) => {
        this.gone = why;
        const w = this.waiter;
        this.waiter = null;
        w?.reject(new StackRankError('IO', `TBP bot ${this.name}: ${why}`));
      },
    );
  }

  /** Starts a bot program (`command` with `args`) and waits for its `info`. Its stderr goes to `stderr`. */
  static async spawn(
    command: string,
    args: readonly string[] = [],
    options: TbpClientOptions & {
      cwd?: string;
      env?: Record<string, string | undefined>;
      stderr?: (text: string) => void;
    } = {},
  ): Promise<TbpClient> {
    const { spawn } = nodeBuiltin('child_process', 'starting a TBP bot program');
    // Node reports a missing cwd as the program's own ENOENT ("spawn node ENOENT"): said here for what it is.
    if (options.cwd !== undefined && !isDirectory(options.cwd))
      throw new StackRankError(
        'IO',
        `could not run TBP bot ${command}: its folder (cwd) ${options.cwd} is not a directory`,
      );
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' });
    const connection = processConnection(child, options.stderr);
    return TbpClient.open(connection, command, options);
  }

  /** A bot behind a message port: a Web Worker, or Node's worker_threads Worker. */
  static overPort(port: MessagePortLike, name: string, options: TbpClientOptions = {}): Promise<TbpClient> {
    return TbpClient.open(portConnection(port), name, options);
  }

  private static async open(connection: TbpConnection, name: string, options: TbpClientOptions): Promise<TbpClient> {
    const client = new TbpClient(connection, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, name, options.signal);
    try {
      client.info = await client.expect(['info'], 'info');
    } catch (e) {
      await connection.close(0);
      throw e;
    }
    return client;
  }

  /** Sends any message (a test's malformed one too). */
  send(message: object): void {
    if (this.gone !== null) throw new StackRankError('IO', `TBP bot ${this.name}: ${this.gone}`);
    this.connection.send(message);
  }

  /** The bot's next message, whatever it is (within the timeout). */
  next(timeoutMs = this.timeoutMs): Promise<TbpMessage> {
    return this.receive(timeoutMs, 'a message').then((m) => asMessage(m, this.name));
  }

  /** Sends `rules` (with the given fields, e.g. { randomizer: 'seven_bag' }) and waits for `ready`. */
  async rules(fields: Record<string, unknown> = {}): Promise<void> {
    this.send({ ...fields, type: 'rules' });
    await this.expect(['ready'], 'ready after rules');
  }

  start(position: Record<string, unknown>): void {
    this.send({ ...position, type: 'start' });
  }

  /** Sends `suggest` and returns the `suggestion`. */
  async suggest(): Promise<TbpMessage> {
    this.send({ type: 'suggest' });
    return this.expect(['suggestion'], 'a suggestion');
  }

  play(move: object): void {
    this.send({ type: 'play', move });
  }

  newPiece(piece: string): void {
    this.send({ type: 'new_piece', piece });
  }

  stop(): void {
    this.send({ type: 'stop' });
  }

  /** Sends `quit` and waits up to `graceMs` for the bot to end, then ends it. */
  async quit(graceMs = 2000): Promise<void> {
    if (this.gone === null) this.connection.send({ type: 'quit' });
    await this.connection.close(graceMs);
  }

  /** The next message of one of `types`; an `error` (or another type) is an IO error naming it. */
  private async expect(types: readonly string[], what: string): Promise<TbpMessage> {
    const m = asMessage(await this.receive(this.timeoutMs, what), this.name);
    if (types.includes(m.type)) return m;
    const detail = m.type === 'error' ? `error ${describe(m.reason)}: ${String(m.message ?? '')}` : describe(m.type);
    throw new StackRankError('IO', `TBP bot ${this.name} sent ${detail} where ${what} was due`);
  }

  private receive(timeoutMs: number, what: string): Promise<unknown> {
    const aborted = () => new StackRankError('ABORTED', `waiting for ${what} from TBP bot ${this.name} was aborted`);
    if (this.signal?.aborted) return Promise.reject(aborted());
    const queued = this.inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.gone !== null) return Promise.reject(new StackRankError('IO', `TBP bot ${this.name}: ${this.gone}`));
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
        this.waiter = null;
      };
      const onAbort = () => {
        settle();
        reject(aborted());
      };
      const timer = setTimeout(() => {
        settle();
        reject(new StackRankError('IO', `TBP bot ${this.name} sent no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = {
        resolve: (m) => {
          settle();
          resolve(m);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      };
    });
  }
}

/** Whether `path` is a directory (false for a missing path, a file, or a path through a file). */
function isDirectory(path: string): boolean {
  try {
    return nodeBuiltin('fs', 'starting a TBP bot program').statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function asMessage(m: unknown, name: string): TbpMessage {
  if (m !== null && typeof m === 'object' && typeof (m as { type?: unknown }).type === 'string') return m as TbpMessage;
  throw new StackRankError('IO', `TBP bot ${name} sent ${describe(m)}, not a message with a type`);
}

/** A child process speaking JSON lines. */
function processConnection(
  child: import('node:child_process').ChildProcessWithoutNullStreams,
  stderr?: (text: string) => void,
): TbpConnection {
  let exited = false;
  // A program that could not start emits 'error' and never 'exit'.
  const exit = new Promise<void>((resolve) => {
    const ended = () => {
      exited = true;
      resolve();
    };
    child.on('exit', ended);
    child.on('error', ended);
  });
  if (stderr) child.stderr.on('data', (d: Buffer) => stderr(d.toString()));
  else child.stderr.resume();
  // A bot that exits before reading everything closes its stdin: the write's EPIPE is the exit, reported there.
  child.stdin.on('error', () => {});
  return {
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    listen(onMessage, onGone) {
      let buffered = '';
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
          const line = buffered.slice(0, i).trim();
          buffered = buffered.slice(i + 1);
          if (line === '') continue;
          try {
            onMessage(JSON.parse(line));
          } catch {
            onMessage(line);
          }
        }
      });
      child.on('error', (e) => onGone(`could not run: ${e.message}`));
      child.on('exit', (code, signal) => onGone(`exited (${signal ?? `code ${code}`})`));
    },
    async close(graceMs) {
      child.stdin.end();
      if (exited) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** What the client needs of a worker: postMessage and message events (Web Worker or worker_threads Worker). */
export interface MessagePortLike {
  postMessage(message: unknown): void;
  terminate(): unknown;
  addEventListener?(type: 'message' | 'error', listener: (event: { data?: unknown; message?: string }) => void): void;
  on?(event: 'message' | 'error' | 'exit', listener: (value: unknown) => void): void;
}

function portConnection(port: MessagePortLike): TbpConnection {
  let closed = false;
  return {
    send: (message) => port.postMessage(message),
    listen(onMessage, onGone) {
      if (port.on) {
        port.on('message', onMessage);
        port.on('error', (e) => onGone(`failed: ${(e as Error)?.message ?? String(e)}`));
        port.on('exit', (code) => onGone(`exited (code ${String(code)})`));
      } else if (port.addEventListener) {
        port.addEventListener('message', (e) => onMessage(e.data));
        port.addEventListener('error', (e) => onGone(`failed: ${e.message ?? 'an error event'}`));
      }
    },
    async close(graceMs) {
      if (closed) return;
      closed = true;
      await new Promise((r) => setTimeout(r, Math.min(graceMs, 50)));
      await port.terminate();
    },
  };
}
