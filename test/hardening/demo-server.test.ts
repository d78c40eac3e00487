/**
 * The demo server (stackrank demo) against careless and hostile clients: abandoned downloads close their file,
 * symbolic links out of the root, dotfiles and foreign Host headers are refused.
 */
import { mkdir, mkdtemp, readdir, readlink, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/cli/demo-server.js';
import { cachedTablePath } from '../helpers/api.js';

let demo: DemoServer;
let root: string;
let tablePath: string;

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), 'stackrank-demo-'));
  root = join(base, 'site');
  await mkdir(root);
  await writeFile(join(root, 'index.html'), '<!doctype html><title>demo</title>');
  await writeFile(join(root, '.env'), 'SECRET=1');
  await mkdir(join(root, '.git'));
  await writeFile(join(root, '.git', 'config'), '[core]');
  await writeFile(join(base, 'outside.txt'), 'not for the web');
  await symlink(join(base, 'outside.txt'), join(root, 'link.txt'));
  await symlink('/etc', join(root, 'etc'));
  await writeFile(join(root, 'inside.txt'), 'fine');
  await symlink(join(root, 'inside.txt'), join(root, 'alias.txt'));
  const env = { XDG_CACHE_HOME: join(base, 'cache') };
  tablePath = await cachedTablePath({}, env);
  await mkdir(join(base, 'cache', 'stackrank'), { recursive: true });
  await writeFile(tablePath, Buffer.alloc(16 << 20, 7)); // large enough that a download is not done in one chunk
  demo = await startDemoServer({ port: 0, dir: root, env });
});

afterAll(async () => {
  await demo?.close();
});

/** A raw HTTP/1.1 GET: status code and body. */
function get(path: string, host = `127.0.0.1:${demo.port}`): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(demo.port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1]);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

/** Descriptors this process holds open on `path` (Linux /proc). */
async function openDescriptors(path: string): Promise<number> {
  let n = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target === path) n++;
  }
  return n;
}

describe('abandoned downloads (defect 4)', () => {
  it('closes the table file when the client hangs up after the first chunk', async () => {
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(demo.port, '127.0.0.1');
        socket.once('data', () => {
          socket.destroy();
          resolve();
        });
        socket.on('error', reject);
        socket.write(`GET /api/table HTTP/1.1\r\nHost: 127.0.0.1:${demo.port}\r\n\r\n`);
      });
    }
    let open = await openDescriptors(tablePath);
    for (let i = 0; i < 50 && open > 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      open = await openDescriptors(tablePath);
    }
    expect(open).toBe(0);
    expect((await get('/')).status).toBe(200);
  });
});

describe('what the server refuses (defect 13)', () => {
  it('symbolic links that leave the root', async () => {
    expect((await get('/link.txt')).status).toBe(404);
    expect((await get('/etc/passwd')).status).toBe(404);
    const inside = await get('/alias.txt');
    expect(inside).toEqual({ status: 200, body: 'fine' });
  });

  it('dotfiles and dot-folders', async () => {
    expect((await get('/.env')).status).toBe(404);
    expect((await get('/.git/config')).status).toBe(404);
    expect((await get('/%2eenv')).status).toBe(404);
  });

  it('Host headers other than 127.0.0.1 or localhost on this port (DNS rebinding)', async () => {
    expect((await get('/', 'evil.example')).status).toBe(421);
    expect((await get('/', `evil.example:${demo.port}`)).status).toBe(421);
    expect((await get('/', '127.0.0.1:1')).status).toBe(421);
    expect((await get('/', `localhost:${demo.port}`)).status).toBe(200);
    expect((await get('/', 'localhost')).status).toBe(200);
    expect((await get('/', '127.0.0.1')).status).toBe(200);
  });
});
