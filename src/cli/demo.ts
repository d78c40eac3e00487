/**
 * `stackrank demo [--port P]`: serves the browser demo (dist/demo, built by `npm run build`) on 127.0.0.1 with the
 * cross-origin isolation headers (COOP/COEP) that let the page build its rank table on worker threads, plus the
 * user's cached rank table at /api/table when one exists, so the page skips the build. Runs until Ctrl-C.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StackRankError } from '../errors.js';
import { cachedTablePath } from '../rank/cache.js';
import { MAX_ITERATIONS } from '../rank/build.js';
import { intOption } from './args.js';
import { defineCommand } from './spec.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.srk': 'application/octet-stream',
};

/** Headers on every response: cross-origin isolation (SharedArrayBuffer for worker threads) and no caching. */
const BASE_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

/** The built demo: dist/demo beside the bundled CLI (dist/cli.js), or ../../dist/demo when run from src/. */
export function findDemoDir(env: Record<string, string | undefined> = {}): string {
  const candidates = [
    env.STACKRANK_DEMO_DIR,
    fileURLToPath(new URL('./demo/', import.meta.url)),
    fileURLToPath(new URL('../../dist/demo/', import.meta.url)),
  ].filter((d): d is string => !!d);
  for (const dir of candidates) if (existsSync(join(dir, 'index.html'))) return resolve(dir);
  throw new StackRankError('IO', `the demo is not built (looked in ${candidates.join(', ')}); run npm run build`);
}

export interface DemoServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the demo server on 127.0.0.1:port (0 = any free port). */
export async function startDemoServer(opts: { port: number; dir: string; env?: Record<string, string | undefined> }): Promise<DemoServer> {
  const root = resolve(opts.dir);
  const env = opts.env ?? {};

  const send = (res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8') => {
    res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };

  const sendFile = (req: IncomingMessage, res: ServerResponse, path: string, size: number) => {
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': size });
    if (req.method === 'HEAD') return void res.end();
    const stream = createReadStream(path);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };

  const serveTable = async (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => {
    let path: string;
    try {
      const num = (name: string, fallback: number, min: number, max: number) => {
        const v = query.get(name);
        return v === null ? fallback : intOption(name, v, fallback, min, max);
      };
      path = await cachedTablePath(
        { width: num('width', 9, 4, 9), maxStep: num('max-step', 4, 1, 4), iterations: num('iterations', 15, 1, MAX_ITERATIONS) },
        env,
      );
    } catch (e) {
      return send(res, 400, (e as Error).message);
    }
    const st = statSafe(path);
    // 204 rather than 404: the page asks first and builds the table when none is cached; a 404 would show up as an
    // error in the browser console although nothing is wrong.
    if (!st?.isFile()) {
      res.writeHead(204, { ...BASE_HEADERS });
      return void res.end();
    }
    sendFile(req, res, path, st.size);
  };

  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(res, 405, 'method not allowed');
    }
    let url: URL;
    let pathname: string;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return send(res, 400, 'bad request');
    }
    if (pathname === '/api/table') {
      serveTable(req, res, url.searchParams).catch(() => send(res, 500, 'internal error'));
      return;
    }
    if (pathname.includes('\0')) return send(res, 400, 'bad request');
    let file = normalize(join(root, pathname));
    if (file !== root && !file.startsWith(root + sep)) return send(res, 403, 'forbidden');
    let st = statSafe(file);
    if (st?.isDirectory()) {
      file = join(file, 'index.html');
      st = statSafe(file);
    }
    if (!st?.isFile()) return send(res, 404, `not found: ${pathname}`);
    sendFile(req, res, file, st.size);
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const why = e.code === 'EADDRINUSE' ? `port ${opts.port} is in use; pick another with --port (0 = any free port)` : e.message;
      reject(new StackRankError('IO', `could not listen on 127.0.0.1:${opts.port}: ${why}`, { cause: e }));
    });
    server.listen(opts.port, '127.0.0.1', () => resolveListen());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((res) => {
        server.close(() => res());
        server.closeAllConnections();
      }),
  };
}

function statSafe(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

export const demoCommand = defineCommand({
  path: 'demo',
  summary: 'serve the browser demo (the AI playing live) on 127.0.0.1',
  description: `Serves the browser demo on http://127.0.0.1:PORT/ with the COOP/COEP headers that allow worker
threads. A cached rank table ($XDG_CACHE_HOME/stackrank, made by \`stackrank table build\`) is served to the page at
/api/table, so it does not have to build one. Stop with Ctrl-C (exit code 130). With --json: {url, port, dir, table}
on one line.`,
  options: {
    port: { type: 'int', min: 0, max: 65535, default: 8080, help: 'port on 127.0.0.1; 0 picks a free one' },
  },
  async run({ values }, io) {
    const { port } = values;
    const dir = findDemoDir(io.env);
    const demo = await startDemoServer({ port, dir, env: io.env });
    const tablePath = await cachedTablePath({}, io.env);
    const table = statSafe(tablePath)?.isFile() ? tablePath : null;
    if (values.json) {
      io.out(JSON.stringify({ url: demo.url, port: demo.port, dir, table }));
    } else {
      io.out(`stackrank demo: ${demo.url}`);
      io.out(
        table
          ? `serving the cached rank table ${table}`
          : 'no cached 9x4x15 rank table: the page builds one in the browser (stackrank table build caches one for next time)',
      );
      io.out('press Ctrl-C to stop');
    }
    await new Promise<void>((res) => {
      if (!io.signal) return; // runs until the process is killed
      if (io.signal.aborted) return res();
      io.signal.addEventListener('abort', () => res(), { once: true });
    });
    await demo.close();
    return 130;
  },
});
