/** Node-only file helpers, imported lazily so the browser bundle never needs node:fs. */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { homedir } from 'node:os';
import { StackRankError } from '../errors.js';

/** Writes to a temporary file in the same folder and renames it into place, so no reader sees half a file. */
export async function writeFileAtomic(path: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(tmp, 'w');
    try {
      // Parts are written in turn, so a large table never needs a second, concatenated copy in memory.
      for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
        for (let done = 0; done < part.byteLength; ) done += (await handle.write(part, done, part.byteLength - done)).bytesWritten;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    throw new StackRankError('IO', `could not write ${path}: ${(e as Error).message}`, { cause: e });
  }
}

export async function readFileChecked(path: string): Promise<Uint8Array> {
  try {
    const buf = await readFile(path);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new StackRankError('IO', `could not read rank table ${path}: ${why}`, { cause: e });
  }
}

/** The user cache folder: $XDG_CACHE_HOME/stackrank or ~/.cache/stackrank. */
export function cacheDir(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CACHE_HOME?.trim() ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
  return join(base, 'stackrank');
}
