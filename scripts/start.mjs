// The main job (README): install if needed, build, build or reuse the cached default 9x4 rank table, print its
// statistics, then run the quick survival benchmark when the simulator is available.
import { execFileSync, execSync } from 'node:child_process';

const run = (cmd) => execSync(cmd, { stdio: 'inherit' });
run('node scripts/ensure-deps.mjs');
run('npm run build --silent');
const cli = (...args) => execFileSync(process.execPath, ['dist/cli.js', ...args], { stdio: 'inherit' });
cli('table', 'build');
cli('table', 'info');
cli('bench', 'survival', '--lookahead', '0,1,2', '--games', '100', '--max-pieces', '100000', '--seed', '1');
