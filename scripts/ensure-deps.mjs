// Installs the locked dependencies when they are missing, so `npm start` and `npm test` work on a fresh clone.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('node_modules/.package-lock.json') || !existsSync('node_modules/assemblyscript')) {
  console.log('stackrank: installing dependencies (npm ci)...');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
