/**
 * The TBP bot as a worker script (the package's `stackrank/tbp-worker`, dist/tbp-worker.js; docs/tbp.md, "In a Web
 * Worker"): the protocol's messages as objects through postMessage, as the spec describes bots on the web. A page
 * starts it with `new Worker(url, { type: 'module' })`; Node with worker_threads' `new Worker(url)`.
 *
 * Its settings: in a browser the script URL's query (`?table=URL&lookahead=5&expectimax=0&moves=1`; a page must name
 * a rank table file to fetch, as every AI in a browser is given its table); in Node `workerData` ({ table: a file
 * path, lookahead, expectimax, moves }; without a table, the cached one). Settings the AI refuses make its first
 * `rules` answer `error` (unsupported_rules, with the reason), never a crash.
 */
import { inNode, nodeBuiltin } from '../node-builtins.js';
import { loadRankTable, type RankTable } from '../rank/table.js';
import { TetrisAIEngine } from './ai-engine.js';
import { TbpBot } from './bot.js';

/** The worker's settings, from workerData (Node) or the script URL's query (browsers). */
export interface TbpWorkerSettings {
  /** A rank table file: its path (Node) or URL (browsers, fetched). Default (Node only): the cached table. */
  table?: string;
  lookahead?: number;
  expectimax?: boolean;
  moves?: number;
}

/** A port both kinds of worker give: postMessage out, message events in. */
interface Port {
  post(message: unknown): void;
  listen(onMessage: (message: unknown) => void): void;
  close(): void;
}

function fromQuery(search: string): TbpWorkerSettings {
  const q = new URLSearchParams(search);
  const num = (name: string) => (q.has(name) ? Number(q.get(name)) : undefined);
  const settings: TbpWorkerSettings = {};
  const table = q.get('table');
  if (table) settings.table = new URL(table, (globalThis as { location?: { href: string } }).location?.href).href;
  if (q.has('lookahead')) settings.lookahead = num('lookahead');
  if (q.has('moves')) settings.moves = num('moves');
  if (q.has('expectimax')) settings.expectimax = !['0', 'false', 'no'].includes(q.get('expectimax') ?? '');
  return settings;
}

function connect(): { port: Port; settings: TbpWorkerSettings } {
  if (inNode) {
    const { parentPort, workerData } = nodeBuiltin('worker_threads', 'the TBP worker');
    if (parentPort) {
      return {
        port: {
          post: (m) => parentPort.postMessage(m),
          listen: (on) => parentPort.on('message', on),
          close: () => process.exit(0),
        },
        settings: (workerData ?? {}) as TbpWorkerSettings,
      };
    }
  }
  const scope = globalThis as unknown as {
    postMessage(m: unknown): void;
    addEventListener(type: 'message', on: (e: { data: unknown }) => void): void;
    close(): void;
    location: { search: string };
  };
  return {
    port: {
      post: (m) => scope.postMessage(m),
      listen: (on) => scope.addEventListener('message', (e) => on(e.data)),
      close: () => scope.close(),
    },
    settings: fromQuery(scope.location.search),
  };
}

async function loadTable(where: string): Promise<RankTable> {
  if (inNode && !/^[a-z]+:\/\//i.test(where)) return loadRankTable(where);
  const response = await fetch(where);
  if (!response.ok) throw new Error(`fetching the rank table ${where}: HTTP ${response.status}`);
  return loadRankTable(await response.arrayBuffer());
}

/** Starts the bot on this worker's port: `info` at once, then the protocol. */
function serveTbpWorker(): void {
  const { port, settings } = connect();
  const engine = new TetrisAIEngine({
    lookahead: settings.lookahead ?? 5,
    randomizerAware: settings.expectimax ?? true,
    moves: settings.moves ?? 1,
    ...(settings.table ? { loadTable: () => loadTable(settings.table!) } : {}),
  });
  const bot = new TbpBot({ engine, send: (m) => port.post(m) });
  bot.open();
  port.listen((m) => {
    void bot.receive(m).then((quit) => quit && port.close());
  });
}

serveTbpWorker();
