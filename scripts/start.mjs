// The main job (README): install if needed, build what changed, build or reuse the cached default 9x4 rank table,
// print its statistics, then run the quick survival benchmark when the simulator is available.
import { execFileSync } from 'node:child_process';

const node = (...args) => execFileSync(process.execPath, args, { stdio: 'inherit' });
node('scripts/ensure-deps.mjs');
node('scripts/build.mjs');
node('dist/cli.js', 'table', 'build');
node('dist/cli.js', 'table', 'info');
node(
  'dist/cli.js',
  'bench',
  'survival',
  '--lookahead',
  '0,1,2',
  '--games',
  '100',
  '--max-pieces',
  '100000',
  '--seed',
  '1',
);
