import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../lib/app-error.ts';

/**
 * Where file bytes live (docs/decisions/0008). Keys are built by the server from ids only
 * (`<engineCode>/<yyyymm>/<fileId>`), never from a name a user typed. The S3-compatible store (file-store-s3.ts,
 * docs/decisions/0122) implements the same five calls (put = multipart upload with the same byte cap, get = GetObject
 * stream, delete, exists/size = HeadObject).
 */
export interface FileStore {
  /**
   * Streams `body` to `key`, refusing it (FileTooLarge, nothing kept) as soon as more than `maxBytes` have arrived.
   * The object appears whole or not at all.
   */
  put(key: string, body: Readable, options: { maxBytes: number }): Promise<{ size: number }>;
  /** The bytes of `key`; undefined when there is no such object. */
  get(key: string): Promise<Readable | undefined>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Size in bytes; undefined when there is no such object. */
  size(key: string): Promise<number | undefined>;
  /** Lets go of connections when the server stops (the bucket's client); the folder store has none. */
  close?(): Promise<void>;
}

/** Keys are slash-separated segments of letters, digits, `-` and `_` (no dots: no `..`, no hidden files). */
const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** Whether `key` is a storage key any store accepts (the folder store's files and the bucket's objects are named by it). */
export function isStorageKey(key: string): boolean {
  return KEY.test(key);
}

/** Counts bytes on their way through and fails the stream once there are more than `maxBytes`. */
export function byteCap(maxBytes: number): Transform & { bytes: number } {
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      cap.bytes += chunk.length;
      if (cap.bytes > maxBytes) return done(new AppError('FileTooLarge', { detail: { maxBytes } }));
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  cap.bytes = 0;
  return cap;
}

/** The default store: files under `<root>/<key>` in the data folder (architecture.md §5). */
export function createLocalFileStore(root: string): FileStore {
  const base = path.resolve(root);
  const fileOf = (key: string): string => {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    const full = path.resolve(base, key);
    if (!full.startsWith(base + path.sep)) throw new Error(`storage key outside the store: ${key}`);
    return full;
  };
  const sizeOf = async (key: string): Promise<number | undefined> => {
    try {
      const s = await stat(fileOf(key));
      return s.isFile() ? s.size : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  return {
    async put(key, body, { maxBytes }) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Written beside the target and renamed: a reader never sees half a file, a refused upload leaves nothing.
      const partial = `${target}.part-${randomBytes(6).toString('hex')}`;
      const cap = byteCap(maxBytes);
      try {
        await pipeline(body, cap, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { size: cap.bytes };
    },
    async get(key) {
      if ((await sizeOf(key)) === undefined) return undefined;
      return createReadStream(fileOf(key));
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async exists(key) {
      return (await sizeOf(key)) !== undefined;
    },
    size: sizeOf,
  };
}
