import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { AppError } from '../../lib/app-error.ts';
import { byteCap, isStorageKey, type FileStore } from './file-store.ts';

// The S3-compatible file store (docs/decisions/0122). The AWS SDK is loaded on first use (dynamic import): a server on
// the folder store never loads it, and one on a bucket pays for it at its first file call, not at start.

/** An S3-compatible bucket (README "Settings"; docs/decisions/0122). */
export interface S3Settings {
  bucket?: string;
  /** Put before every storage key (`tritium/` → `tritium/<engine>/<yyyymm>/<id>`); '' for none. */
  prefix: string;
  /** The S3-compatible server's address (MinIO, Ceph…); unset means AWS's own for the region. */
  endpoint?: string;
  region: string;
  /** Bucket in the path (`http://host/bucket/key`) rather than in the host name: most S3-compatible servers need it. */
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (AWS_* variables, shared files, instance roles). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Size of each part of a multipart upload (TRITIUM_S3_PART_SIZE_MB, default 8; at least 5). */
  partSizeBytes: number;
}

type ClientModule = typeof import('@aws-sdk/client-s3');
type StorageModule = typeof import('@aws-sdk/lib-storage');

/** A bucket opened with the SDK: the client, the SDK's modules and the object name of a storage key. */
export interface Bucket {
  client: S3Client;
  sdk: ClientModule;
  storage: StorageModule;
  name: string;
  /** `<prefix><key>`; throws on a key that is not a storage key. */
  objectKey(key: string): string;
  partSizeBytes: number;
}

/** The smallest part S3 accepts (every part but the last). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/** `a/b/` from `/a/b`, `a/b/` or `a/b`; '' for none. */
export function normalPrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed ? `${trimmed}/` : '';
}

/** Opens the bucket of `settings` (loads the SDK). */
export async function openBucket(settings: S3Settings): Promise<Bucket> {
  if (!settings.bucket) throw new Error('TRITIUM_S3_BUCKET is not set: the S3 file store needs a bucket');
  const [sdk, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  const client = new sdk.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    // S3-compatible servers (MinIO, Ceph, older releases of others) do not all take the SDK's newer default checksum
    // trailers; the store and the move command check sizes and checksums themselves.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const prefix = normalPrefix(settings.prefix);
  return {
    client,
    sdk,
    storage,
    name: settings.bucket,
    partSizeBytes: Math.max(MIN_PART_BYTES, settings.partSizeBytes),
    objectKey(key) {
      if (!isStorageKey(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
      return prefix + key;
    },
  };
}

/** Whether an SDK error means "no such object" (GetObject answers NoSuchKey, HeadObject a bare 404). */
export function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** Size and recorded checksums of an object; undefined when there is none. */
export async function headObject(bucket: Bucket, key: string): Promise<{ size: number; etag?: string; metadata: Record<string, string> } | undefined> {
  try {
    const head = await bucket.client.send(new bucket.sdk.HeadObjectCommand({ Bucket: bucket.name, Key: bucket.objectKey(key) }));
    return { size: Number(head.ContentLength ?? 0), etag: head.ETag?.replace(/"/g, ''), metadata: head.Metadata ?? {} };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * The store on an S3-compatible bucket. Uploads stream through the same byte cap as the folder store's and go up in
 * parts of `partSizeBytes` (one PutObject when smaller; lib-storage aborts a multipart upload that fails, so a refused
 * upload leaves no object and no parts). Downloads are proxied: the routes' own checks decide who reads.
 */
export function createS3FileStore(settings: S3Settings): FileStore {
  if (!settings.bucket) throw new Error('TRITIUM_FILE_STORE=s3 needs TRITIUM_S3_BUCKET');
  let opened: Promise<Bucket> | undefined;
  const bucket = (): Promise<Bucket> => {
    opened ??= openBucket(settings).catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };
  return {
    async put(key, body, { maxBytes }) {
      const b = await bucket();
      const cap = byteCap(maxBytes);
      let refused: unknown;
      cap.once('error', (error) => {
        refused = error;
      });
      body.once('error', (error) => cap.destroy(error));
      body.pipe(cap);
      const upload = new b.storage.Upload({
        client: b.client,
        params: { Bucket: b.name, Key: b.objectKey(key), Body: cap },
        partSize: b.partSizeBytes,
        queueSize: 2,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        body.unpipe(cap);
        cap.destroy();
        // The cap's own refusal (FileTooLarge) or the body's failure is the cause; the SDK's error only reports it.
        throw refused instanceof AppError ? refused : (refused ?? error);
      }
      return { size: cap.bytes };
    },
    async get(key) {
      const b = await bucket();
      try {
        const out = await b.client.send(new b.sdk.GetObjectCommand({ Bucket: b.name, Key: b.objectKey(key) }));
        return out.Body as Readable;
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async delete(key) {
      const b = await bucket();
      await b.client.send(new b.sdk.DeleteObjectCommand({ Bucket: b.name, Key: b.objectKey(key) }));
    },
    async exists(key) {
      return (await headObject(await bucket(), key)) !== undefined;
    },
    async size(key) {
      return (await headObject(await bucket(), key))?.size;
    },
    async close() {
      if (!opened) return;
      const b = await opened.catch(() => undefined);
      b?.client.destroy();
    },
  };
}
