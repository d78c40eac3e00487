// Installs the locked dependencies when any is missing, so `npm start` and `npm test` work on a fresh clone.
// `npm ci` is tried first; npm 11 refuses a lock that lacks other platforms' optional rollup packages, which this
// registry does not serve, and then `npm install` installs the same locked versions (.ci/run does the same).
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const wanted = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
const missing = wanted.filter((name) => !existsSync(`node_modules/${name}/package.json`));
if (missing.length > 0) {
  console.log(`stackrank: installing dependencies (missing: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`);
  try {
    execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
  } catch {
    console.log('stackrank: npm ci refused the lock file; installing the locked versions with npm install');
    execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
  }
}
