import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';

// Server-side image compression and the per-control upload cap (domain.md §9, docs/decisions/0008).

let t: TestApp, dataDir: string, admin: Person, a: OrgClient, appCode: string;
let member: Person & { userId: string };
const MB = 1024 * 1024;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-files-image-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  member = await addMember(t, admin);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Who = { token: string; engineCode: string };
async function upload(who: Who, query: Record<string, string>, body: Buffer) {
  const res = await t.app.inject({
    method: 'POST', url: '/v1/file/upload', query,
    headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

/** Noise: it barely compresses, so a few megapixels make an image over 5 MB. */
const noisy = (size: number, channels: 3 | 4) =>
  sharp({ create: { width: size, height: size, channels, background: { r: 0, g: 0, b: 0, alpha: 0.5 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } } });

async function storedBytes(fileId: string): Promise<Buffer> {
  const row = await engineDb(t.database.db, admin.engineCode).selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirstOrThrow();
  return readFileSync(path.join(dataDir, 'files', row.storage_key));
}

describe('image compression', () => {
  it('re-encodes a JPEG over 5 MB at quality 20, keeping JPEG; the answer and the stored bytes agree', async () => {
    const jpeg = await noisy(2200, 3).jpeg({ quality: 100 }).toBuffer();
    expect(jpeg.length).toBeGreaterThan(5 * MB);
    const res = await upload(admin, { scene: 'image', fileName: 'photo.jpg' }, jpeg);
    expect(res.body).toMatchObject({ successful: true, data: { name: 'photo.jpg', contentType: 'image/jpeg' } });
    expect(res.body.data.size).toBeLessThan(jpeg.length / 2);
    const stored = await storedBytes(res.body.data.fileId);
    expect(stored.length).toBe(res.body.data.size);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'jpeg', width: 2200, height: 2200 });
  });

  it('turns a PNG without alpha into a JPEG (and .png into .jpg)', async () => {
    const png = await noisy(1500, 3).png().toBuffer();
    expect(png.length).toBeGreaterThan(5 * MB);
    const res = await upload(admin, { scene: 'image', fileName: 'scan.png' }, png);
    expect(res.body.data).toMatchObject({ name: 'scan.jpg', contentType: 'image/jpeg' });
    expect((await sharp(await storedBytes(res.body.data.fileId)).metadata()).format).toBe('jpeg');
  });

  it('keeps a PNG with alpha a PNG (palette at quality 20), and WebP WebP', async () => {
    const alpha = await noisy(1300, 4).png().toBuffer();
    expect(alpha.length).toBeGreaterThan(5 * MB);
    const kept = await upload(admin, { scene: 'image', fileName: 'logo.png' }, alpha);
    expect(kept.body.data).toMatchObject({ name: 'logo.png', contentType: 'image/png' });
    expect(kept.body.data.size).toBeLessThan(alpha.length);
    expect(await sharp(await storedBytes(kept.body.data.fileId)).metadata()).toMatchObject({ format: 'png', hasAlpha: true });

    const webp = await noisy(2600, 3).webp({ quality: 100 }).toBuffer();
    expect(webp.length).toBeGreaterThan(5 * MB);
    const w = await upload(admin, { scene: 'image', fileName: 'pic.webp' }, webp);
    expect(w.body.data).toMatchObject({ contentType: 'image/webp' });
    expect(w.body.data.size).toBeLessThan(webp.length);
  }, 60_000);

  it('stores small images, attachments and undecodable bytes as sent; the policy states the rule', async () => {
    const small = await noisy(200, 3).jpeg({ quality: 100 }).toBuffer();
    expect((await upload(admin, { scene: 'image', fileName: 's.jpg' }, small)).body.data.size).toBe(small.length);
    const big = await noisy(2200, 3).jpeg({ quality: 100 }).toBuffer();
    expect((await upload(admin, { scene: 'attachment', fileName: 'big.jpg' }, Buffer.concat([big, Buffer.alloc(0)]).subarray(0, 9 * MB))).body.data.size).toBe(Math.min(big.length, 9 * MB));
    const junk = Buffer.alloc(6 * MB, 7);
    expect((await upload(admin, { scene: 'image', fileName: 'junk.jpg' }, junk)).body.data).toMatchObject({ size: junk.length, contentType: 'image/jpeg' });
    const policy = await a.get('/v1/file/policy/upload', { scene: 'image' });
    expect(policy.imageCompression).toEqual({ thresholdMb: 5, quality: 20 });
  });
});

describe('per-control upload cap', () => {
  async function formWith(controls: Parameters<typeof definition>[0]): Promise<string> {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition(controls));
    return code;
  }

  it('caps an upload naming its control at min(scene cap, maxUploadSize): 413 over it', async () => {
    const schemaCode = await formWith([
      { type: 'attachment', code: 'Small', options: { maxUploadSize: 1 } },
      { type: 'attachment', code: 'Large', options: { maxUploadSize: 200 } },
      { type: 'gridView', code: 'Items', controls: [{ type: 'attachment', code: 'RowFile', options: { maxUploadSize: 2 } }] },
    ]);
    const over = await upload(admin, { scene: 'attachment', fileName: 'a.bin', schemaCode, controlCode: 'Small' }, Buffer.alloc(MB + 1));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ successful: false, errorCode: 260002, detail: { maxBytes: MB } });
    expect((await upload(admin, { scene: 'attachment', fileName: 'a.bin', schemaCode, controlCode: 'Small' }, Buffer.alloc(MB))).body).toMatchObject({ successful: true });
    // A sub-table column's option applies too.
    expect((await upload(admin, { scene: 'attachment', fileName: 'r.bin', schemaCode, controlCode: 'RowFile' }, Buffer.alloc(2 * MB + 1))).status).toBe(413);
    // The scene's 10 MB still holds for a control allowing 200.
    const scene = await upload(admin, { scene: 'attachment', fileName: 'l.bin', schemaCode, controlCode: 'Large' }, Buffer.alloc(10 * MB + 1));
    expect(scene.body).toMatchObject({ errorCode: 260002, detail: { maxBytes: 10 * MB } });
  });

  it('refuses half a target, a control that is not a file control (777), and a form the caller cannot open (404)', async () => {
    const schemaCode = await formWith([{ type: 'textBox', code: 'Title' }, { type: 'attachment', code: 'Files', options: { maxUploadSize: 1 } }]);
    expect((await upload(admin, { scene: 'attachment', fileName: 'a.bin', schemaCode }, Buffer.alloc(10))).body).toMatchObject({ errorCode: 777 });
    expect((await upload(admin, { scene: 'attachment', fileName: 'a.bin', schemaCode, controlCode: 'Title' }, Buffer.alloc(10))).body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'controlCode' }] } });
    const hidden = await upload(member, { scene: 'attachment', fileName: 'a.bin', schemaCode, controlCode: 'Files' }, Buffer.alloc(10));
    expect(hidden.status).toBe(404);
  });
});
