/**
 * The demo's HTTP server (used by `stackrank demo`, src/cli/demo.ts): the built demo's files and the user's cached
 * rank table, on 127.0.0.1 only, with the cross-origin isolation headers (COOP/COEP) that let the page run worker
 * threads. What it refuses, and why:
 *   - a Host header other than 127.0.0.1 or localhost (with this port): a page on another origin could otherwise
 *     reach the server through DNS rebinding;
 *   - anything but a regular file under the demo folder once symbolic links are resolved (realpath), and any path
 *     with a segment starting with "." (dotfiles, .git);
 * and every file stream is closed when its response closes, finished or abandoned by the client.
 */
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { StackRankError } from '../errors.js';
import { MAX_ITERATIONS } from '../rank/build.js';
import { cachedTablePath } from '../rank/cache.js';

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
export async function startDemoServer(opts: {
  port: number;
  dir: string;
  env?: Record<string, string | undefined>;
}): Promise<DemoServer> {
  const root = resolve(opts.dir);
  const realRoot = realpathSafe(root) ?? root;
  const env = opts.env ?? {};

  const send = (res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8') => {
    res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };

  const sendFile = (req: IncomingMessage, res: ServerResponse, path: string, size: number) => {
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': size,
    });
    if (req.method === 'HEAD') return void res.end();
    // pipeline closes the file when the response ends, fails or is abandoned by the client mid-download.
    pipeline(createReadStream(path), res, () => {});
  };

  const serveTable = async (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => {
    let path: string;
    try {
      const num = (name: string, fallback: number, min: number, max: number) => {
        const v = query.get(name);
        if (v === null) return fallback;
        const n = /^\d{1,6}$/.test(v) ? Number(v) : NaN;
        if (!(n >= min && n <= max))
          throw new StackRankError('BAD_ARGUMENT', `${name} must be an integer from ${min} to ${max}`);
        return n;
      };
      path = await cachedTablePath(
        {
          width: num('width', 9, 4, 9),
          maxStep: num('max-step', 4, 1, 4),
          iterations: num('iterations', 15, 1, MAX_ITERATIONS),
        },
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

  let port = opts.port;
  const server = createServer((req, res) => {
    if (!allowedHost(req.headers.host, port))
      return send(res, 421, 'this server answers only to http://127.0.0.1 and http://localhost');
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
    if (pathname.split(/[\\/]/).some((segment) => segment.startsWith('.')))
      return send(res, 404, `not found: ${pathname}`);
    let file = normalize(join(root, pathname));
    if (!inside(realRoot, file)) return send(res, 403, 'forbidden');
    let st = statSafe(file);
    if (st?.isDirectory()) {
      file = join(file, 'index.html');
      st = statSafe(file);
    }
    // After symbolic links: still a regular file under the root (a link to /etc/passwd is not served).
    const real = realpathSafe(file);
    if (!st?.isFile() || !real || !inside(realRoot, real)) return send(res, 404, `not found: ${pathname}`);
    sendFile(req, res, real, st.size);
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const why =
        e.code === 'EADDRINUSE'
          ? `port ${opts.port} is in use; pick another with --port (0 = any free port)`
          : e.message;
      reject(new StackRankError('IO', `could not listen on 127.0.0.1:${opts.port}: ${why}`, { cause: e }));
    });
    server.listen(opts.port, '127.0.0.1', () => resolveListen());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : opts.port;
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

/** Host header values this server answers to: 127.0.0.1 or localhost, optionally with its own port. */
export function allowedHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const m = /^(127\.0\.0\.1|localhost)(?::(\d{1,5}))?$/i.exec(host);
  return !!m && (m[2] === undefined || Number(m[2]) === port);
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function realpathSafe(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export function statSafe(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
