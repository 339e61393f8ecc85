import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import os from 'node:os';
import path from 'node:path';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { startLocalS3, type LocalS3 } from '../../../test/s3-server.ts';
import { AppError } from '../../lib/app-error.ts';
import { loadConfig } from '../../config.ts';
import { createS3FileStore, openBucket, type Bucket } from './file-store-s3.ts';
import { moveFilesToBucket } from './move-to-bucket.ts';

// The S3-compatible file store and the command that moves the folder's files into a bucket (docs/decisions/0122),
// against s3rver on loopback.

let s3: LocalS3;
const MB = 1024 * 1024;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The bytes s3rver keeps for an object. */
const onDisk = (objectKey: string) => path.join(s3.directory, s3.bucket, `${objectKey}._S3rver_object`);

beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.close();
});

describe('settings', () => {
  it('reads the bucket from TRITIUM_S3_* and refuses a misspelt store', () => {
    const config = loadConfig({ TRITIUM_FILE_STORE: 's3', TRITIUM_S3_BUCKET: 'b1', TRITIUM_S3_PREFIX: 'tritium/', TRITIUM_S3_ENDPOINT: 'http://minio:9000', TRITIUM_S3_FORCE_PATH_STYLE: 'true', TRITIUM_S3_ACCESS_KEY_ID: 'k', TRITIUM_S3_SECRET_ACCESS_KEY: 's' });
    expect(config.fileStore).toBe('s3');
    expect(config.s3).toEqual({ bucket: 'b1', prefix: 'tritium/', endpoint: 'http://minio:9000', region: 'us-east-1', forcePathStyle: true, accessKeyId: 'k', secretAccessKey: 's', partSizeBytes: 8 * MB });
    expect(loadConfig({}).fileStore).toBe('folder');
    expect(() => loadConfig({ TRITIUM_FILE_STORE: 'minio' })).toThrow(/folder or s3/);
    expect(() => createS3FileStore(loadConfig({}).s3)).toThrow(/TRITIUM_S3_BUCKET/);
  });
});

describe('S3 file store', () => {
  const store = () => createS3FileStore(s3.settings('store-test'));

  it('puts, reads, sizes and deletes by key, under the prefix', async () => {
    const st = store();
    const key = 'abcd1234/202611/0192f1a2-0000-7000-8000-000000000001';
    expect(await st.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]), { maxBytes: 11 })).toEqual({ size: 11 });
    expect(readFileSync(onDisk(`store-test/${key}`), 'utf8')).toBe('hello world');
    expect((await buffer((await st.get(key))!)).toString()).toBe('hello world');
    expect(await st.size(key)).toBe(11);
    expect(await st.exists(key)).toBe(true);
    await st.delete(key);
    expect(await st.exists(key)).toBe(false);
    expect(await st.get(key)).toBeUndefined();
    expect(await st.size(key)).toBeUndefined();
    await st.delete(key); // deleting what is gone is no error
    expect(await st.put('abcd1234/202611/empty', Readable.from([]), { maxBytes: 10 })).toEqual({ size: 0 });
    expect((await buffer((await st.get('abcd1234/202611/empty'))!)).length).toBe(0);
    await st.close!();
  });

  it('sends a file larger than a part in parts, and refuses one over the cap without leaving an object', async () => {
    const st = store();
    const big = randomBytes(11 * MB);
    const chunks = Array.from({ length: 11 }, (_, i) => big.subarray(i * MB, (i + 1) * MB));
    const before = s3.requests.length;
    expect(await st.put('abcd1234/202611/big', Readable.from(chunks), { maxBytes: 11 * MB })).toEqual({ size: 11 * MB });
    const sent = s3.requests.slice(before);
    expect(sent.filter((r) => /partNumber=/.test(r))).toHaveLength(3); // 5 + 5 + 1 MiB
    expect(sent.some((r) => r.startsWith('POST') && /\?uploads/.test(r))).toBe(true);
    expect(sha(await buffer((await st.get('abcd1234/202611/big'))!))).toBe(sha(big));

    const error = await st.put('abcd1234/202611/over', Readable.from(chunks), { maxBytes: 7 * MB }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).errorName).toBe('FileTooLarge');
    expect(await st.exists('abcd1234/202611/over')).toBe(false);
    await st.close!();
  });

  it('refuses keys that are not storage keys', async () => {
    const st = store();
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a/.hidden', 'a//b', '']) {
      await expect(st.put(key, Readable.from([Buffer.from('x')]), { maxBytes: 10 })).rejects.toThrow(/storage key/);
      await expect(st.exists(key)).rejects.toThrow(/storage key/);
    }
    await st.close!();
  });
});

describe('files through the API on the S3 store', () => {
  let t: TestApp;
  let dataDir: string;
  let admin: Awaited<ReturnType<typeof registerPerson>>;
  let outsider: Awaited<ReturnType<typeof registerPerson>>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-files-s3-'));
    t = await createTestApp({ config: { dataDir, fileStore: 's3', s3: s3.settings('api') } });
    admin = await registerPerson(t.app);
    outsider = await registerPerson(t.app, { engineName: '别家公司' });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = async (bytes: Buffer, fileName: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/file/upload',
      query: { scene: 'attachment', fileName },
      headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const urlOf = async (who: typeof admin, fileId: string) =>
    call(t.app, 'POST', '/v1/file/urls/byfileids', { token: who.token, engineCode: who.engineCode, body: { fileIds: [fileId] } });

  it('uploads into the bucket, downloads through the signed link, and keeps the access checks', async () => {
    const bytes = randomBytes(64 * 1024);
    const up = await upload(bytes, '合同.pdf');
    expect(up.body).toMatchObject({ successful: true, data: { name: '合同.pdf', size: bytes.length } });
    const fileId: string = up.body.data.fileId;
    const objectKey = `api/${admin.engineCode}/${new Date().toISOString().slice(0, 7).replace('-', '')}/${fileId}`;
    expect(existsSync(onDisk(objectKey))).toBe(true);
    expect(existsSync(path.join(dataDir, 'files'))).toBe(false); // nothing in the folder

    const link = await urlOf(admin, fileId);
    const url: string = link.body.data.list[0].url;
    const down = await t.app.inject({ method: 'GET', url });
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-length']).toBe(String(bytes.length));
    expect(sha(down.rawPayload)).toBe(sha(bytes));

    // Another engine's member gets no link; a link with a changed signature is refused.
    expect((await urlOf(outsider, fileId)).body).toMatchObject({ successful: false });
    const sig = new URL(url, 'http://x').searchParams.get('signature')!;
    const forged = await t.app.inject({ method: 'GET', url: url.replace(`signature=${sig}`, `signature=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`) });
    expect(forged.statusCode).toBe(403);
  });

  it('uploads a file larger than a part in parts and refuses one over the scene cap', async () => {
    const bytes = randomBytes(9 * MB);
    const before = s3.requests.length;
    const up = await upload(bytes, 'big.bin');
    expect(up.body).toMatchObject({ successful: true, data: { size: bytes.length } });
    expect(s3.requests.slice(before).filter((r) => /partNumber=/.test(r))).toHaveLength(2);
    const url: string = (await urlOf(admin, up.body.data.fileId)).body.data.list[0].url;
    expect(sha((await t.app.inject({ method: 'GET', url })).rawPayload)).toBe(sha(bytes));

    const over = await upload(randomBytes(10 * MB + 1), 'over.bin');
    expect(over.status).toBe(413);
  });
});

describe('moving the folder files into a bucket', () => {
  let root: string;
  let bucket: Bucket;
  const files: Record<string, Buffer> = {
    'eng1/202610/0192f1a2-0000-7000-8000-00000000000a': randomBytes(1000),
    'eng1/202611/0192f1a2-0000-7000-8000-00000000000b': randomBytes(6 * MB + 17), // more than a part
    'eng2/202611/0192f1a2-0000-7000-8000-00000000000c': Buffer.from('receipt'),
    'eng2/202611/0192f1a2-0000-7000-8000-00000000000d': Buffer.alloc(0),
  };

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'tritium-move-'));
    for (const [key, bytes] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
      writeFileSync(path.join(root, key), bytes);
    }
    writeFileSync(path.join(root, 'eng1/202611/0192f1a2-0000-7000-8000-00000000000e.part-abcdef'), 'half an upload');
    bucket = await openBucket(s3.settings('moved'));
  });
  afterAll(() => {
    bucket?.client.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  it('copies every file with its checksum checked, skips them on a rerun, and never touches the folder', async () => {
    const seen: string[] = [];
    const first = await moveFilesToBucket({ root, bucket, onProgress: (_p, last) => seen.push(`${last.outcome} ${last.key}`) });
    expect(first).toMatchObject({ total: 4, copied: 4, skipped: 0, failed: 0, failures: [], ignored: ['eng1/202611/0192f1a2-0000-7000-8000-00000000000e.part-abcdef'] });
    expect(seen).toHaveLength(4);
    const store = createS3FileStore(s3.settings('moved'));
    for (const [key, bytes] of Object.entries(files)) {
      expect(sha(await buffer((await store.get(key))!))).toBe(sha(bytes));
      expect(sha(readFileSync(path.join(root, key)))).toBe(sha(bytes)); // the folder's copy is still there
    }
    await store.close!();

    const again = await moveFilesToBucket({ root, bucket });
    expect(again).toMatchObject({ total: 4, copied: 0, skipped: 4, failed: 0 });
  });

  it('finds a copy changed in the bucket when asked to read existing copies back, and copies it again', async () => {
    const key = 'eng2/202611/0192f1a2-0000-7000-8000-00000000000c';
    writeFileSync(onDisk(`moved/${key}`), 'RECEIPT'); // same size, other bytes
    expect(await moveFilesToBucket({ root, bucket })).toMatchObject({ skipped: 4 }); // the recorded checksum still matches
    expect(await moveFilesToBucket({ root, bucket, verifyExisting: true })).toMatchObject({ copied: 1, skipped: 3, failed: 0 });
    expect(readFileSync(onDisk(`moved/${key}`), 'utf8')).toBe('receipt');
  });

  it('reports a copy whose bytes read back differ, removes it, and copies it on the next run', async () => {
    const other = await openBucket(s3.settings('moved-bad'));
    const bad = 'eng1/202611/0192f1a2-0000-7000-8000-00000000000b';
    // The bucket serves one object's bytes changed (a broken disk or proxy on the way): the read-back check sees it.
    other.client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const input = args.input as { Key?: string };
        if (context.commandName === 'GetObjectCommand' && input.Key?.endsWith(bad)) {
          const output = result.output as { Body: Readable };
          const bytes = await buffer(output.Body);
          bytes[100] ^= 0xff;
          output.Body = Readable.from([bytes]);
        }
        return result;
      },
      { step: 'initialize', name: 'corruptOneObject' },
    );
    const result = await moveFilesToBucket({ root, bucket: other });
    expect(result).toMatchObject({ total: 4, copied: 3, failed: 1 });
    expect(result.failures).toEqual([{ key: bad, reason: expect.stringMatching(/^checksum mismatch: SHA-256 [0-9a-f]{64} in the bucket, [0-9a-f]{64} in the folder$/) }]);
    expect(existsSync(onDisk(`moved-bad/${bad}`))).toBe(false);
    other.client.destroy();

    const fresh = await openBucket(s3.settings('moved-bad'));
    expect(await moveFilesToBucket({ root, bucket: fresh })).toMatchObject({ copied: 1, skipped: 3, failed: 0 });
    fresh.client.destroy();
  });
});
