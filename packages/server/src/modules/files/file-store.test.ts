import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../lib/app-error.ts';
import { createLocalFileStore } from './file-store.ts';

// The data-folder store (docs/decisions/0008).

const root = mkdtempSync(path.join(os.tmpdir(), 'tritium-store-'));
const store = createLocalFileStore(path.join(root, 'files'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('local file store', () => {
  it('puts, reads, sizes and deletes by key', async () => {
    const key = 'abcd1234/202611/0192f1a2-0000-7000-8000-000000000001';
    expect(await store.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]), { maxBytes: 11 })).toEqual({ size: 11 });
    expect(existsSync(path.join(root, 'files', key))).toBe(true);
    expect((await buffer((await store.get(key))!)).toString()).toBe('hello world');
    expect(await store.size(key)).toBe(11);
    expect(await store.exists(key)).toBe(true);
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.size(key)).toBeUndefined();
  });

  it('refuses bytes over the cap and leaves no partial file', async () => {
    const key = 'abcd1234/202611/over';
    const error = await store.put(key, Readable.from([Buffer.alloc(8), Buffer.alloc(8)]), { maxBytes: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).errorName).toBe('FileTooLarge');
    expect(readdirSync(path.join(root, 'files', 'abcd1234', '202611')).filter((n) => n.startsWith('over'))).toEqual([]);
  });

  it('refuses keys that could leave the store', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a/.hidden', 'a//b', 'a\\b', '']) {
      await expect(store.put(key, Readable.from([Buffer.from('x')]), { maxBytes: 10 })).rejects.toThrow(/storage key/);
      await expect(store.exists(key)).rejects.toThrow(/storage key/);
    }
  });
});
