// Installs the locked dependencies when any is missing, so `npm start`, `npm test` and .ci/run work on a fresh
// clone. `npm ci` is tried first, quietly; npm 11 refuses a lock that lacks other platforms' optional packages
// (rollup's and biome's native builds), which the registry reachable here does not serve, so no lock written here
// can list them. Then `npm install` installs the same locked versions (and leaves the lock as it is). Either way
// the output is a line or two; npm's own log is printed only when the install really fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = existsSync('package-lock.json') ? JSON.parse(readFileSync('package-lock.json', 'utf8')) : { packages: {} };
const wanted = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });

/** Whether node_modules holds the locked version of a direct dependency (not merely some package of that name:
 * a transitive dependency's older copy can sit where a newly added direct one belongs). */
function installed(name) {
  const path = `node_modules/${name}/package.json`;
  if (!existsSync(path)) return false;
  const locked = lock.packages?.[`node_modules/${name}`]?.version;
  return locked === undefined || JSON.parse(readFileSync(path, 'utf8')).version === locked;
}
const missing = wanted.filter((name) => !installed(name));

function npm(...args) {
  return spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: process.platform === 'win32',
  });
}

/** One line saying why npm ci refused, from its log. */
export function refusalReason(log) {
  const lacking = [...log.matchAll(/Missing: (\S+?)@\S* from lock file/g)].map((m) => m[1]);
  if (lacking.length > 0) {
    return `the lock does not list ${lacking.length} optional package(s) for other platforms, e.g. ${lacking[0]}`;
  }
  const line = log.split('\n').find((l) => /^npm error (?!code )\S/.test(l));
  return line ? line.replace(/^npm error /, '').trim() : 'see npm ci';
}

if (missing.length > 0) {
  const more = missing.length > 3 ? ', …' : '';
  console.log(
    `stackrank: installing dependencies (missing or not the locked version: ${missing.slice(0, 3).join(', ')}${more})`,
  );
  const ci = npm('ci');
  if (ci.status !== 0) {
    console.log(
      `stackrank: npm ci refused (${refusalReason(`${ci.stderr}\n${ci.stdout}`)}); using npm install with the lock`,
    );
    const install = npm('install');
    if (install.status !== 0) {
      process.stderr.write(`${install.stdout}${install.stderr}`);
      console.error('stackrank: npm install failed (its log is above)');
      process.exit(install.status ?? 1);
    }
  }
}
