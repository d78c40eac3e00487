/**
 * `stackrank demo [--port P]`: serves the browser demo (dist/demo, built by `npm run build`) on 127.0.0.1 with the
 * cross-origin isolation headers (COOP/COEP) that let the page build its rank table on worker threads, plus the
 * user's cached rank table at /api/table when one exists, so the page skips the build. Runs until Ctrl-C.
 */
import { cachedTablePath } from '../rank/cache.js';
import { findDemoDir, startDemoServer, statSafe } from './demo-server.js';
import { defineCommand } from './spec.js';

export { findDemoDir, startDemoServer, type DemoServer } from './demo-server.js';

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
