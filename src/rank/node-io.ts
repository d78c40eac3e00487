/**
 * The file helpers: the atomic writer, the bounded table reader and the cache folder. They need Node; Node's modules
 * are taken when a helper is called (src/node-builtins.ts), so a browser bundle carries this code but no Node
 * module, and a call from a browser is IO with a message that says what works there.
 */
import { StackRankError, describe } from '../errors.js';
import { nodeBuiltin } from '../node-builtins.js';

/** What the helpers use of Node's modules, taken on the first call; `needs` is the message outside Node. */
function nodeFiles(needs: string) {
  files ??= takeNodeFiles(needs);
  return files;
}

let files: ReturnType<typeof takeNodeFiles> | undefined;

function takeNodeFiles(needs: string) {
  const { mkdir, open, readdir, rename, rm, stat } = nodeBuiltin('fs/promises', needs);
  const { basename, dirname, join } = nodeBuiltin('path', needs);
  const { constants } = nodeBuiltin('fs', needs);
  const { homedir } = nodeBuiltin('os', needs);
  const { randomBytes } = nodeBuiltin('crypto', needs);
  return { basename, constants, dirname, homedir, join, mkdir, open, randomBytes, readdir, rename, rm, stat };
}

/** Temporary files are `<target>.<pid>.<random>.tmp` beside the target. */
const TEMP_PATTERN = /^(.*)\.(\d+)\.[0-9a-z]+\.tmp$/;

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temporary files left beside `path` by writers that died mid-write (kill -9, power loss): those of `path`
 * whose pid no longer runs. Best effort; a file that cannot be removed stays.
 */
export async function removeStaleTemps(path: string): Promise<string[]> {
  const { basename, dirname, join, readdir, rm } = nodeFiles('removing stale temporary files');
  const dir = dirname(path);
  const target = basename(path);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_PATTERN.exec(name);
    if (!m || m[1] !== target || processAlive(Number(m[2]))) continue;
    try {
      await rm(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // another cleaner got there first, or no permission: leave it
    }
  }
  return removed;
}

/**
 * A caller's file path, to save or to read: a non-empty string without NUL characters (anything else is BAD_ARGUMENT
 * naming `what`, instead of Node's own TypeError surfacing as IO).
 */
function checkFilePath(what: string, path: unknown): string {
  if (typeof path !== 'string' || path === '' || path.includes('\0'))
    throw new StackRankError(
      'BAD_ARGUMENT',
      `${what}: path must be a non-empty string naming a file (without NUL characters); got ${describe(path)}`,
    );
  return path;
}

/** Throws (a plain Error, which the writer wraps as IO) when `path` exists and is not a regular file. */
async function refuseNonRegular(path: string): Promise<void> {
  const { stat } = nodeFiles('writing a file');
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    return; // missing (or unreachable: the write itself reports that)
  }
  if (!info.isFile())
    throw new Error(
      'it exists and is not a regular file (a directory, device, FIFO or socket); a save replaces regular files only',
    );
}

/** Throws (a plain Error with Node's ENOENT / ENOTDIR code) unless the folder of `path` exists. */
async function requireParentDir(path: string): Promise<void> {
  const { dirname, stat } = nodeFiles('writing a file');
  const dir = dirname(path);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return; // the write itself reports the reason
    // Its callers (the CLI's output files) checked the folder before the work: it was removed meanwhile.
    throw Object.assign(new Error(`ENOENT: directory ${dir} does not exist (any more)`), {
      code: 'ENOENT',
    });
  }
  if (!info.isDirectory()) throw Object.assign(new Error(`ENOTDIR: ${dir} is not a directory`), { code: 'ENOTDIR' });
}

/**
 * Writes to a temporary file in the same folder and renames it into place, so no reader sees half a file. The
 * temporary name carries the pid and 64 random bits and is created exclusively (O_EXCL), so concurrent writers
 * (threads, processes, the same millisecond) never share one; the last rename wins with a complete file. The data
 * is flushed to disk before the rename, so a crash or SIGKILL leaves the old file or the new one. This is the one
 * atomic writer of the project: tables, the CLI's output files and its checkpoints all go through it.
 *
 * `path` must be a non-empty string (BAD_ARGUMENT naming `what` otherwise). Only a regular file is replaced: a
 * directory, device, FIFO or socket at `path` (or a symbolic link to one) is refused with IO before anything is
 * written, and checked again just before the rename. A symbolic link to a regular file is replaced by the new file
 * (rename does not follow it). `createDir` (default true: table saves and the caches) creates a missing folder like
 * mkdir -p; with false (the CLI's output files) a missing folder is IO (ENOENT).
 */
export async function writeFileAtomic(
  path: string,
  bytes: Uint8Array | readonly Uint8Array[],
  options: { createDir?: boolean; what?: string } = {},
): Promise<void> {
  const what = options.what ?? 'writeFileAtomic';
  checkFilePath(what, path);
  const { dirname, mkdir, open, randomBytes, rename, rm } = nodeFiles(
    `${what} writes a file: in a browser keep the table's bytes (toBytes()) in IndexedDB or the Cache API`,
  );
  const tmp = `${path}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`;
  try {
    // A FIFO or device at the target would be replaced by a regular file (as root, /dev/full): refused first.
    await refuseNonRegular(path);
    // Table saves and the cache create their folder (docs/api.md); the CLI's output files must not recreate a folder
    // removed meanwhile (docs/cli.md).
    if (options.createDir ?? true) await mkdir(dirname(path), { recursive: true });
    else await requireParentDir(path);
    await removeStaleTemps(path);
    const handle = await open(tmp, 'wx');
    try {
      // Parts are written in turn, so a large table never needs a second, concatenated copy in memory.
      for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
        for (let done = 0; done < part.byteLength; )
          done += (await handle.write(part, done, part.byteLength - done)).bytesWritten;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Again: the target may have been swapped for a FIFO or device while the data was written.
    await refuseNonRegular(path);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    throw new StackRankError('IO', `could not write ${path}: ${(e as Error).message}`, { cause: e });
  }
}

function readError(path: string, e: unknown, what: string): StackRankError {
  const code = (e as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'ELOOP'
        ? 'too many levels of symbolic links (a link loop)'
        : (e as Error).message;
  return new StackRankError('IO', `could not read ${what} ${path}: ${why}`, { cause: e });
}

/** Bytes read per call, so a long read looks at its signal between slices (a few ms each on a local disk). */
const READ_SLICE = 8 << 20;

/**
 * The longest JSON file the project reads (run files, GA checkpoints, weights): the longest string the JavaScript
 * engine holds (536,870,888 UTF-16 units in Node 20 on 64-bit, about 512 MiB), since the text is parsed in one piece.
 * A UTF-8 file of that many bytes decodes to at most that many units.
 */
export function maxJsonFileBytes(): number {
  const { constants } = nodeBuiltin('buffer', 'reading a JSON file');
  return constants.MAX_STRING_LENGTH;
}

/**
 * The one reader of the project's files (tables, reach records, run files, checkpoints, weights): it opens regular
 * files only, so a device such as /dev/zero (endless) or a FIFO (blocks until a writer comes, for ever) is IO at once,
 * and so is a directory or a symbolic-link loop. Reads are asynchronous (the event loop, so Ctrl-C and SIGTERM, stay
 * served) and go in slices that look at `signal`. `plan(size, head)` says how many bytes to read from the file's
 * size and its first `HEAD_BYTES` (at most); it throws the typed error of a file it refuses (a bad header, a file
 * larger than its kind can be). `what` names the file in errors.
 */
async function readRegularFile(
  path: string,
  what: string,
  plan: (size: number, head: Uint8Array) => number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const { constants, open, stat } = nodeFiles(
    `reading ${what} ${path} needs a file system: in a browser fetch the file and pass its bytes (a Uint8Array)`,
  );
  checkFilePath(`reading ${what}`, path);
  const stopIfAborted = () => {
    if (signal?.aborted) throw new StackRankError('ABORTED', `reading ${what} ${path} was aborted`);
  };
  stopIfAborted();
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (e) {
    throw readError(path, e, what);
  }
  if (!info.isFile())
    throw new StackRankError(
      'IO',
      `could not read ${what} ${path}: not a regular file (a directory, device, FIFO or socket)`,
    );
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // O_NONBLOCK: if the path was swapped for a FIFO since stat, open does not wait for a writer.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw readError(path, e, what);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw new StackRankError('IO', `could not read ${what} ${path}: not a regular file`);
    const readInto = async (buf: Uint8Array, from: number, position: number): Promise<number> => {
      let got = from;
      while (got < buf.byteLength) {
        stopIfAborted();
        const length = Math.min(READ_SLICE, buf.byteLength - got);
        const { bytesRead } = await handle.read(buf, got, length, position + got - from);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got;
    };
    const size = opened.size;
    const head = new Uint8Array(Math.min(size, HEAD_BYTES));
    const headLength = await readInto(head, 0, 0);
    const limit = Math.min(size, plan(size, head.subarray(0, headLength)));
    if (limit <= headLength) return head.subarray(0, limit);
    const all = new Uint8Array(limit);
    all.set(head.subarray(0, headLength));
    const got = await readInto(all, headLength, headLength);
    stopIfAborted();
    return got === limit ? all : all.subarray(0, got);
  } catch (e) {
    if (e instanceof StackRankError) throw e;
    throw readError(path, e, what);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** The first bytes of a file that `plan` sees: a table's or a reach record file's header. */
const HEAD_BYTES = 64;

/**
 * Reads a table file (or a reach record file), bounded by its header: only regular files are opened (a device such
 * as /dev/zero or a FIFO would never end or block forever), the first 64 bytes are checked by `sizeFromHeader`
 * (magic, version, header fields; it throws the typed error of a bad header) and at most the size it implies (plus
 * one byte, so extra bytes are still reported) is read. `what` names the file in errors.
 */
export async function readFileChecked(
  path: string,
  sizeFromHeader: (head: Uint8Array) => number,
  what = 'rank table',
): Promise<Uint8Array> {
  // Throws the header's typed error (BAD_MAGIC, TRUNCATED for a short file, ...) from the first bytes alone.
  return readRegularFile(path, what, (_size, head) => sizeFromHeader(head) + 1);
}

/** The first `length` bytes (at most) of a regular file: a table's header, to tell its kind before reading it all. */
export async function readFileHead(path: string, length: number, what: string): Promise<Uint8Array> {
  return readRegularFile(path, what, () => length);
}

/**
 * A JSON file's text (a run file, a GA checkpoint, weights), read by the one reader: a regular file of at most
 * `maxBytes` (default and most: maxJsonFileBytes), else IO before anything is read; UTF-8, as written.
 */
export async function readTextFile(
  path: string,
  options: { what: string; maxBytes?: number; signal?: AbortSignal },
): Promise<string> {
  const max = Math.min(options.maxBytes ?? Number.POSITIVE_INFINITY, maxJsonFileBytes());
  const bytes = await readRegularFile(
    path,
    options.what,
    (size) => {
      if (size > max)
        throw new StackRankError(
          'IO',
          `could not read ${options.what} ${path}: it is ${size.toLocaleString('en-US')} bytes; a ${options.what} is read whole and may be at most ${max.toLocaleString('en-US')} (docs/file-formats.md, "Reading files")`,
        );
      return size;
    },
    options.signal,
  );
  return new TextDecoder().decode(bytes);
}

/** The path of `fileName` in the user cache folder, $XDG_CACHE_HOME/stackrank or ~/.cache/stackrank. */
export async function cacheFilePath(
  fileName: string,
  env: Record<string, string | undefined> | undefined,
): Promise<string> {
  const { homedir, join } = nodeFiles(
    'the table cache is a folder on disk: in a browser build the table (buildRankTable) or load its bytes (loadRankTable), and pass it as { table }',
  );
  const vars = env ?? process.env;
  const base = vars.XDG_CACHE_HOME?.trim() ? vars.XDG_CACHE_HOME : join(vars.HOME || homedir(), '.cache');
  return join(base, 'stackrank', fileName);
}
