import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isStorageKey } from './file-store.ts';
import { headObject, type Bucket } from './file-store-s3.ts';

// Copies the folder store's files into a bucket (docs/decisions/0122, `npm run files:to-s3`). Every copy is read back
// and its SHA-256 compared with the folder's; a rerun skips what is already there with the same checksum. The
// folder's files are never deleted or changed.

export interface MoveProgress {
  total: number;
  done: number;
  copied: number;
  skipped: number;
  failed: number;
  bytesCopied: number;
}

export interface MoveFailure {
  key: string;
  reason: string;
}

export interface MoveResult extends MoveProgress {
  failures: MoveFailure[];
  /** Files under the folder that are no storage key (a partial upload's `.part-…`, stray files): left alone. */
  ignored: string[];
}

export interface MoveOptions {
  /** The folder store's root (`<TRITIUM_DATA_DIR>/files`). */
  root: string;
  bucket: Bucket;
  /** Files copied at once (default 4). */
  concurrency?: number;
  /** Read back objects already in the bucket too, instead of trusting their recorded checksum. */
  verifyExisting?: boolean;
  onProgress?: (progress: MoveProgress, last: { key: string; outcome: 'copied' | 'skipped' | 'failed' }) => void;
}

/** The object metadata that records a copy's SHA-256 (x-amz-meta-sha256). */
const SHA256_META = 'sha256';

interface Digest {
  size: number;
  sha256: string;
  md5: string;
}

async function digestOf(stream: Readable): Promise<Digest> {
  const sha = createHash('sha256');
  const md5 = createHash('md5');
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    sha.update(bytes);
    md5.update(bytes);
    size += bytes.length;
  }
  return { size, sha256: sha.digest('hex'), md5: md5.digest('hex') };
}

/** Every storage key under `root`, and the files that are none. */
async function listFolder(root: string): Promise<{ keys: string[]; ignored: string[] }> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const keys: string[] = [];
  const ignored: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relative = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    (isStorageKey(relative) ? keys : ignored).push(relative);
  }
  return { keys: keys.sort(), ignored: ignored.sort() };
}

/** The object's bytes as the bucket serves them. */
async function digestOfObject(bucket: Bucket, key: string): Promise<Digest> {
  const out = await bucket.client.send(new bucket.sdk.GetObjectCommand({ Bucket: bucket.name, Key: bucket.objectKey(key) }));
  return digestOf(out.Body as Readable);
}

/**
 * Whether the object already holds the file: same size and the same SHA-256 recorded by an earlier copy, or (an
 * object written by the server itself in one part) an ETag that is the file's MD5; with `readBack`, its bytes hashed.
 */
async function alreadyThere(bucket: Bucket, key: string, local: Digest, readBack: boolean): Promise<boolean> {
  const head = await headObject(bucket, key);
  if (!head || head.size !== local.size) return false;
  if (readBack) return (await digestOfObject(bucket, key)).sha256 === local.sha256;
  return head.metadata[SHA256_META] === local.sha256 || head.etag === local.md5;
}

async function upload(bucket: Bucket, key: string, file: string, local: Digest): Promise<void> {
  const params = { Bucket: bucket.name, Key: bucket.objectKey(key), Metadata: { [SHA256_META]: local.sha256 } };
  if (local.size <= bucket.partSizeBytes) {
    // One part: the bucket itself refuses bytes whose MD5 is not the one sent (BadDigest).
    const contentMd5 = Buffer.from(local.md5, 'hex').toString('base64');
    await bucket.client.send(new bucket.sdk.PutObjectCommand({ ...params, Body: createReadStream(file), ContentLength: local.size, ContentMD5: contentMd5 }));
    return;
  }
  await new bucket.storage.Upload({ client: bucket.client, params: { ...params, Body: createReadStream(file) }, partSize: bucket.partSizeBytes, queueSize: 2 }).done();
}

/** Copies one file and checks the copy; a copy that does not check out is removed again, so a rerun copies it anew. */
async function moveOne(options: MoveOptions, key: string): Promise<{ outcome: 'copied' | 'skipped'; bytes: number }> {
  const file = path.join(options.root, ...key.split('/'));
  const local = await digestOf(createReadStream(file));
  if (await alreadyThere(options.bucket, key, local, options.verifyExisting ?? false)) return { outcome: 'skipped', bytes: 0 };
  await upload(options.bucket, key, file, local);
  const head = await headObject(options.bucket, key);
  let problem: string | undefined;
  if (!head) problem = 'not in the bucket after the upload';
  else if (head.size !== local.size) problem = `size ${head.size} in the bucket, ${local.size} in the folder`;
  else {
    const copy = await digestOfObject(options.bucket, key);
    if (copy.sha256 !== local.sha256) problem = `checksum mismatch: SHA-256 ${copy.sha256} in the bucket, ${local.sha256} in the folder`;
  }
  if (problem) {
    await options.bucket.client.send(new options.bucket.sdk.DeleteObjectCommand({ Bucket: options.bucket.name, Key: options.bucket.objectKey(key) })).catch(() => undefined);
    throw new Error(problem);
  }
  return { outcome: 'copied', bytes: local.size };
}

/** Copies every stored file of the folder into the bucket, `concurrency` at a time; failures are collected, not thrown. */
export async function moveFilesToBucket(options: MoveOptions): Promise<MoveResult> {
  const { keys, ignored } = await listFolder(options.root);
  const progress: MoveProgress = { total: keys.length, done: 0, copied: 0, skipped: 0, failed: 0, bytesCopied: 0 };
  const failures: MoveFailure[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < keys.length) {
      const key = keys[next++];
      let outcome: 'copied' | 'skipped' | 'failed';
      try {
        const moved = await moveOne(options, key);
        outcome = moved.outcome;
        progress.bytesCopied += moved.bytes;
      } catch (error) {
        outcome = 'failed';
        failures.push({ key, reason: error instanceof Error ? error.message : String(error) });
      }
      progress[outcome]++;
      progress.done++;
      options.onProgress?.({ ...progress }, { key, outcome });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return { ...progress, failures: failures.sort((a, b) => a.key.localeCompare(b.key)), ignored };
}
