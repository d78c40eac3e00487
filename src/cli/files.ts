/**
 * Output files of CLI commands: checked before the work starts (so a typo in a path costs nothing), and written so
 * that a failure after the work (disk full, directory removed meanwhile) does not lose the result: it is kept in a
 * temporary directory and the error says where.
 */
import { constants, accessSync, mkdtempSync, statSync, type Stats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { StackRankError } from '../errors.js';
import { readTextFile, writeFileAtomic } from '../rank/node-io.js';
import { UsageError } from './args.js';

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function requireWritableDir(option: string, dir: string): void {
  const st = statOrNull(dir);
  if (!st) throw new UsageError(`--${option}: directory ${dir} does not exist`);
  if (!st.isDirectory()) throw new UsageError(`--${option}: ${dir} is not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw new UsageError(
      `--${option}: directory ${dir} is not writable (${(e as NodeJS.ErrnoException).code ?? 'access denied'})`,
    );
  }
}

/**
 * The text of a JSON file an option names (`--weights`, `--recover-weights`, a `--checkpoint` to resume), read by the
 * project's one reader (src/rank/node-io.ts: regular files only, bounded, asynchronous, stopped by `signal`); an IO
 * error names the option first (`--weights: could not read weights file w.json: no such file`).
 */
export async function readOptionFile(
  option: string,
  path: string,
  what: string,
  signal?: AbortSignal,
): Promise<string> {
  try {
    return await readTextFile(path, { what, signal });
  } catch (e) {
    if (e instanceof StackRankError && e.code === 'IO')
      throw new StackRankError('IO', `${option}: ${e.message}`, { cause: e.cause ?? e });
    throw e;
  }
}

/** A file the command will write: its directory exists and is writable, and the path is a regular file if it exists. */
export function checkOutputFile(option: string, path: string): void {
  const full = resolve(path);
  let st: Stats | undefined;
  try {
    st = statSync(full, { throwIfNoEntry: false });
  } catch (e) {
    // A loop of symbolic links (ELOOP) or a path through a file (ENOTDIR) can be neither read nor written.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UsageError(`--${option}: ${path} is a loop of symbolic links; give a file name`);
    if (code !== 'ENOTDIR') throw new UsageError(`--${option}: cannot use ${path} (${code ?? String(e)})`);
  }
  if (st && !st.isFile())
    throw new UsageError(
      `--${option}: ${path} is ${st.isDirectory() ? 'a directory' : 'not a regular file'}; give a file name`,
    );
  requireWritableDir(option, dirname(full));
}

/**
 * --out and --checkpoint name different files: the checkpoint would otherwise be replaced by the result (or the result
 * by a checkpoint). Paths are compared resolved, so `a.json` and `./a.json` are one file. Usage error (docs/cli.md).
 */
export function refuseSameOutAndCheckpoint(values: { out?: string; checkpoint?: string }): void {
  if (values.out !== undefined && values.checkpoint !== undefined && resolve(values.out) === resolve(values.checkpoint))
    throw new UsageError('--out and --checkpoint must be different files');
}

/**
 * An output file is none of the files the command reads (another option's file, or an argument): the write would
 * destroy an input, as `--out t.srk --table t.srk` or `merge a.json --out a.json` would. Files are compared by
 * device and inode, so another spelling of the path, or a link to the file, is the same file. Usage error
 * (docs/cli.md, "Files to read").
 */
export function refuseOutputOverInput(
  option: string,
  path: string,
  inputs: readonly { readonly what: string; readonly path: string }[],
): void {
  const out = statOrNull(resolve(path));
  if (!out?.isFile()) return;
  for (const input of inputs) {
    const st = statOrNull(resolve(input.path));
    if (st?.isFile() && st.dev === out.dev && st.ino === out.ino)
      throw new UsageError(`--${option}: ${path} is the file ${input.what} reads; give another file name`);
  }
}

/** A directory the command will create if needed (like mkdir -p): the nearest existing ancestor is a writable directory. */
export function checkOutputDir(option: string, path: string): void {
  let dir = resolve(path);
  const st = statOrNull(dir);
  if (st && !st.isDirectory()) throw new UsageError(`--${option}: ${path} exists and is not a directory`);
  while (!statOrNull(dir) && dirname(dir) !== dir) dir = dirname(dir);
  requireWritableDir(option, dir);
}

/** A fresh directory under the system's temp directory, for results that could not go where asked. */
export function fallbackDir(): string {
  return mkdtempSync(join(tmpdir(), 'stackrank-'));
}

/**
 * Writes through `write(path)` to `path`; when that fails, writes the same result to a temporary directory and
 * throws an IO error naming both the reason and the place the result was kept.
 */
export async function writeKeepingResult(
  path: string,
  what: string,
  write: (path: string) => Promise<void>,
): Promise<void> {
  try {
    await write(path);
  } catch (e) {
    const reason = writeFailure(e);
    let kept: string;
    try {
      kept = join(fallbackDir(), basename(path) || 'result');
      await write(kept);
    } catch (e2) {
      throw new StackRankError(
        'IO',
        `could not write the ${what} to ${path} (${reason}), nor to a temporary file (${writeFailure(e2)})`,
        { cause: e },
      );
    }
    throw new StackRankError('IO', `could not write the ${what} to ${path} (${reason}); it was kept in ${kept}`, {
      cause: e,
    });
  }
}

/**
 * Writes a command's output file atomically through the project's one atomic writer (temporary file, flush,
 * rename). The directory must exist: unlike a table's save(), a folder removed while the command ran is not made
 * again (docs/cli.md).
 */
export async function writeBytesAtomic(path: string, bytes: Uint8Array): Promise<void> {
  await writeFileAtomic(path, bytes, { createDir: false });
}

/** writeBytesAtomic for text. */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  await writeBytesAtomic(path, new TextEncoder().encode(text));
}

/** The reason of a failed write without the writer's own "could not write PATH:" prefix (the caller names the file). */
export function writeFailure(e: unknown): string {
  const cause = e instanceof StackRankError ? e.cause : undefined;
  return cause instanceof Error ? cause.message : (e as Error).message;
}

/** Writes several files into `dir` (created if needed); on failure all of them go to one temporary directory instead. */
export async function writeFilesKeepingResult(
  dir: string,
  files: Record<string, string>,
  what: string,
): Promise<string[]> {
  const writeAll = async (into: string) => {
    await mkdir(into, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeTextAtomic(join(into, name), text);
  };
  try {
    await writeAll(dir);
  } catch (e) {
    let kept: string;
    try {
      kept = fallbackDir();
      await writeAll(kept);
    } catch (e2) {
      throw new StackRankError(
        'IO',
        `could not write the ${what} to ${dir} (${writeFailure(e)}), nor to a temporary directory (${writeFailure(e2)})`,
        { cause: e },
      );
    }
    throw new StackRankError(
      'IO',
      `could not write the ${what} to ${dir} (${writeFailure(e)}); they were kept in ${kept}`,
      { cause: e },
    );
  }
  return Object.keys(files).map((name) => join(dir, name));
}

/**
 * A file rewritten as a long run goes on (a checkpoint). Each save replaces the whole file atomically, so a kill at
 * any moment (even SIGKILL) leaves the previous save or the new one. Saves are written one at a time; one asked for
 * while another is being written waits, and only the newest waiting one is written (its text is made only then).
 * If the file stops being writable mid-run, the writer says so once on stderr and goes on in a temporary file.
 */
export class CheckpointFile {
  private target: string;
  private waiting: (() => string) | null = null;
  private writing: Promise<void> | null = null;
  private failure: unknown = null;
  /** The text of the last save written (to `target`). */
  private written: string | null = null;

  constructor(
    readonly path: string,
    private readonly command: string,
    private readonly err: (line: string) => void,
  ) {
    this.target = path;
  }

  /** Asks for a save; `text` is called when the save is written. Throws the error of a failed earlier save. */
  save(text: () => string): void {
    if (this.failure) throw this.failure;
    this.waiting = text;
    this.writing ??= this.drain();
  }

  /** Waits until every save asked for is on disk; throws if one failed. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.failure) throw this.failure;
  }

  /**
   * The run is finished and this checkpoint is its only result file. Waits for the last save; if the saves had to go
   * to a temporary file, writes the last one to the path once more, and when that fails too throws IO naming where
   * the result was kept, as a failed --out does (docs/cli.md, "Output files"): a run whose result is not where it
   * was asked for does not exit 0.
   */
  async keepAsResult(): Promise<void> {
    await this.flush();
    if (this.target === this.path || this.written === null) return;
    try {
      await writeTextAtomic(this.path, this.written);
    } catch (e) {
      throw new StackRankError(
        'IO',
        `could not write the checkpoint to ${this.path} (${writeFailure(e)}); it was kept in ${this.target}`,
        { cause: e },
      );
    }
    this.target = this.path;
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting) {
        const text = this.waiting;
        this.waiting = null;
        await this.write(text());
      }
    } catch (e) {
      this.failure = e;
    } finally {
      this.writing = null;
    }
  }

  private async write(text: string): Promise<void> {
    try {
      await writeTextAtomic(this.target, text);
      this.written = text;
    } catch (e) {
      if (this.target !== this.path)
        throw new StackRankError('IO', `could not write the checkpoint to ${this.target}: ${writeFailure(e)}`, {
          cause: e,
        });
      this.target = join(fallbackDir(), basename(this.path) || 'checkpoint.json');
      this.err(
        `stackrank ${this.command}: could not write the checkpoint to ${this.path} (${writeFailure(e)}); writing it to ${this.target} instead`,
      );
      await this.write(text);
    }
  }
}

/**
 * Runs `work` and then waits for the checkpoint's last save, also when the work failed or was interrupted (so the
 * file holds everything finished before Ctrl-C). A failed save is reported unless the work's own error comes first.
 */
export async function finishingCheckpoint<T>(checkpoint: CheckpointFile | null, work: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (e) {
    await checkpoint?.flush().catch(() => {});
    throw e;
  }
  await checkpoint?.flush();
  return result;
}
