/**
 * The table cache in a browser (pages and web workers): IndexedDB database `stackrank`, object store `files`, one
 * entry per cache file, keyed by the name the file has in Node's cache folder (src/rank/cache.ts tableFileName),
 * holding the file's bytes. What is read back is verified as a file is (a damaged entry is built again and
 * replaced). Every operation is one short transaction; nothing is kept open between them.
 */
import { StackRankError } from '../errors.js';

const DB_NAME = 'stackrank';
const STORE = 'files';

/** Whether this context has IndexedDB (browsers, web workers; not Node). */
export function indexedDbAvailable(): boolean {
  return typeof indexedDB !== 'undefined';
}

/** Where an entry is, as the cache's results and progress events name it. */
export function indexedDbPlace(name: string): string {
  return `indexeddb:${DB_NAME}/${STORE}/${name}`;
}

function failed(what: string, name: string, cause: unknown): StackRankError {
  return new StackRankError(
    'IO',
    `could not ${what} ${indexedDbPlace(name)}: ${String((cause as Error)?.message ?? cause)}`,
    {
      cause,
    },
  );
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error('the database is blocked by another tab holding an older version open'));
  });
}

async function transact<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = run(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result as T);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('the transaction was aborted'));
    });
  } finally {
    db.close();
  }
}

/** The bytes stored under `name`, or null when there is no entry. */
export async function readIndexedDb(name: string): Promise<Uint8Array | null> {
  try {
    const value = await transact<unknown>('readonly', (s) => s.get(name));
    if (value === undefined) return null;
    if (!(value instanceof ArrayBuffer)) throw new Error('the entry is not a file');
    return new Uint8Array(value);
  } catch (e) {
    throw failed('read', name, e);
  }
}

/** Stores a file's `bytes` under `name`, replacing what was there; resolves to the bytes written. */
export async function writeIndexedDb(name: string, bytes: Uint8Array): Promise<number> {
  // An ArrayBuffer of the file alone (a view of a larger buffer, or of shared memory, is copied out).
  const whole =
    bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const buffer = whole ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
  try {
    await transact('readwrite', (s) => s.put(buffer, name));
    return bytes.byteLength;
  } catch (e) {
    throw failed('write', name, e);
  }
}

/** Removes the entry `name` (nothing when there is none). */
export async function removeIndexedDb(name: string): Promise<void> {
  try {
    await transact('readwrite', (s) => s.delete(name));
  } catch (e) {
    throw failed('remove', name, e);
  }
}
