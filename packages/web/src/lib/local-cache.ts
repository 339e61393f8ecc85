import { openDB, type IDBPDatabase } from 'idb';
import { LOCAL_CACHE_TABLES, LOCAL_DB_NAME_SUFFIX, LOCAL_DB_VERSION, type LocalCacheTable } from '@tritium/shared/constants/local-cache';
import { LOCAL_STORAGE_EXPIRY_HOURS } from '@tritium/shared/constants/limits';

/** One cached value (domain.md §3 "Local cache"): id is engine code plus key, so engines never read each other's. */
export interface CacheRecord<T = unknown> {
  id: string;
  value: T;
  /** The server's version of the value (e.g. a schema's publish time), sent back to ask whether it changed. */
  timestamp: number;
  /** When this browser stored it; records older than the expiry are dropped. */
  savedAt: number;
}

export const LOCAL_DB_NAME = `tritium-cache-${LOCAL_DB_NAME_SUFFIX}`;
const EXPIRY_MS = LOCAL_STORAGE_EXPIRY_HOURS * 60 * 60 * 1000;

let opening: Promise<IDBPDatabase | undefined> | undefined;

function database(): Promise<IDBPDatabase | undefined> {
  // No IndexedDB (private windows of some browsers): everything still works, only without the cache.
  if (typeof indexedDB === 'undefined') return Promise.resolve(undefined);
  opening ??= openDB(LOCAL_DB_NAME, LOCAL_DB_VERSION, {
    // A new version drops what older versions wrote: their shapes may differ.
    upgrade(db) {
      for (const name of [...db.objectStoreNames]) db.deleteObjectStore(name);
      for (const table of LOCAL_CACHE_TABLES) db.createObjectStore(table, { keyPath: 'id' });
    },
  }).catch(() => undefined);
  return opening;
}

const idOf = (engineCode: string, key: string) => `${engineCode}:${key}`;

export const localCache = {
  async get<T>(table: LocalCacheTable, engineCode: string, key: string, now = Date.now()): Promise<CacheRecord<T> | undefined> {
    const db = await database();
    const record = (await db?.get(table, idOf(engineCode, key))) as CacheRecord<T> | undefined;
    if (record && now - record.savedAt > EXPIRY_MS) {
      await db?.delete(table, record.id);
      return undefined;
    }
    return record;
  },
  async set<T>(table: LocalCacheTable, engineCode: string, key: string, value: T, timestamp: number, now = Date.now()): Promise<void> {
    const db = await database();
    await db?.put(table, { id: idOf(engineCode, key), value, timestamp, savedAt: now } satisfies CacheRecord<T>);
  },
  /** Tests: forget the open connection (the database itself is the test's to delete). */
  async close(): Promise<void> {
    (await opening)?.close();
    opening = undefined;
  },
};
