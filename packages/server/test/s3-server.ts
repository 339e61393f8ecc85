import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: s3rver ships no type declarations
import S3rver from 's3rver';
import type { S3Settings } from '../src/modules/files/file-store-s3.ts';

// A local S3-compatible server for the S3 file store's tests (docs/decisions/0122): s3rver from npm, on a free
// loopback port, keeping its objects in a throw-away folder. It checks SigV4 signatures' shape but accepts any key.

export interface LocalS3 {
  /** Settings of a store on `bucket` under `prefix`. */
  settings(prefix?: string, partSizeMb?: number): S3Settings;
  bucket: string;
  /** Where s3rver keeps the objects (`<directory>/<bucket>/<key>._S3rver_object`). */
  directory: string;
  /** Every request so far, as `METHOD /bucket/key?query` (multipart uploads show as `?uploads` and `?partNumber=`). */
  requests: string[];
  close(): Promise<void>;
}

export async function startLocalS3(bucket = 'tritium-files'): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'tritium-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const requests: string[] = [];
  // s3rver is a Koa app: a middleware put first sees every request.
  server.middleware.unshift(async (ctx: { method: string; url: string }, next: () => Promise<void>) => {
    requests.push(`${ctx.method} ${ctx.url}`);
    await next();
  });
  const { port } = (await server.run()) as { port: number };
  return {
    bucket,
    directory,
    requests,
    settings: (prefix = '', partSizeMb = 5) => ({
      bucket,
      prefix,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      partSizeBytes: partSizeMb * 1024 * 1024,
    }),
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
