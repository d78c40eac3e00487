// Build stamps: a step is skipped when the hash of everything it reads (file contents, tool versions, flags) equals
// the hash stored in build/<name>.stamp by its last successful run, and its outputs still exist. Contents rather than
// mtimes, so a branch switch or a fresh checkout that leaves a file as it was does not trigger a rebuild.
// STACKRANK_FORCE_BUILD=1 rebuilds everything.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const force = !!process.env.STACKRANK_FORCE_BUILD;

/** Every file under `dir` (relative to the project root) whose name passes `keep`, sorted. */
export function filesUnder(dir, keep = () => true) {
  const out = [];
  const walk = (abs) => {
    if (!existsSync(abs)) return;
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const path = join(abs, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (keep(entry.name)) out.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

/** The installed version of a package, part of a step's inputs (a compiler upgrade must rebuild). */
export function versionOf(pkg) {
  let path = join(root, 'node_modules', pkg, 'package.json');
  try {
    path = require.resolve(`${pkg}/package.json`);
  } catch {
    // a package whose "exports" hide package.json: read the hoisted copy
  }
  return JSON.parse(readFileSync(path, 'utf8')).version;
}

/** Hash of the named files' paths and contents plus any extra strings (flags, versions). */
export function inputsHash(files, extra = []) {
  const h = createHash('sha256');
  for (const f of [...files].sort()) {
    h.update(`${f}\0`);
    h.update(existsSync(join(root, f)) ? readFileSync(join(root, f)) : '(missing)');
    h.update('\0');
  }
  for (const e of extra) h.update(`${e}\0`);
  return h.digest('hex');
}

const stampPath = (name) => join(root, 'build', `${name}.stamp`);

/** Whether the step `name` last succeeded with these inputs and its outputs (paths from the root) are all there. */
export function upToDate(name, hash, outputs) {
  if (force || !existsSync(stampPath(name))) return false;
  if (readFileSync(stampPath(name), 'utf8').trim() !== hash) return false;
  return outputs.every((o) => existsSync(join(root, o)));
}

/** Records a successful run of `name` (written last, so an interrupted step runs again). */
export function writeStamp(name, hash) {
  mkdirSync(join(root, 'build'), { recursive: true });
  const tmp = `${stampPath(name)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${hash}\n`);
  renameSync(tmp, stampPath(name));
}

/** Writes `text` to `path` only when it differs, so the steps that read the file see it unchanged. */
export function writeIfChanged(path, text) {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
  return true;
}
