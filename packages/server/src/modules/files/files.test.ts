import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { claimFiles } from './files.claim.ts';

// Uploads, signed downloads and who may read a file (docs/decisions/0008).

let t: TestApp;
let dataDir: string;
/** Added to the server's clock (signed-link expiry). */
let skew = 0;
let admin: Person;
let member: Person & { userId: string };
let outsider: Person;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-files-'));
  t = await createTestApp({ config: { dataDir }, now: () => Date.now() + skew });
  admin = await registerPerson(t.app);
  member = await addMember(t, admin, { name: '成员' });
  outsider = await registerPerson(t.app, { engineName: '别家公司' });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Who = { token: string; engineCode: string };

async function upload(who: Who, query: Record<string, string>, body: Buffer | Readable, contentType = 'application/octet-stream') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/file/upload',
    query,
    headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': contentType },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

async function uploadOk(who: Who, name: string, bytes: Buffer, scene = 'attachment'): Promise<string> {
  const res = await upload(who, { scene, fileName: name }, bytes);
  expect(res.body).toMatchObject({ successful: true });
  return res.body.data.fileId;
}

const post = (who: Who, url: string, body: unknown) => call(t.app, 'POST', url, { token: who.token, engineCode: who.engineCode, body });

async function urlOf(who: Who, fileId: string): Promise<string> {
  const res = await post(who, '/v1/file/urls/byfileids', { fileIds: [fileId] });
  expect(res.body).toMatchObject({ successful: true });
  return res.body.data.list[0].url;
}

/** Every file under the data folder's store (partial uploads included). */
function storedFiles(): string[] {
  const root = path.join(dataDir, 'files');
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

const claimOf = async (id: string) =>
  engineDb(t.database.db, admin.engineCode).selectFrom('files').select(['schema_code', 'object_id', 'control_code']).where('id', '=', id).executeTakeFirstOrThrow();

async function fileRowCount(engineCode: string): Promise<number> {
  const row = await engineDb(t.database.db, engineCode).selectFrom('files').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('upload policy', () => {
  it('answers each scene with its caps from domain.md §9', async () => {
    const image = await call(t.app, 'GET', '/v1/file/policy/upload', { token: admin.token, engineCode: admin.engineCode, query: { scene: 'image' } });
    expect(image.body.data).toMatchObject({ scene: 'image', maxSizeMb: 20, maxSizeBytes: 20 * 1024 * 1024, imageCompression: { thresholdMb: 5, quality: 20 } });
    const attachment = await call(t.app, 'GET', '/v1/file/policy/upload', { token: admin.token, engineCode: admin.engineCode, query: { scene: 'attachment' } });
    expect(attachment.body.data).toMatchObject({ maxSizeMb: 10, accept: ['*/*'], imageCompression: null });
    const sns = await call(t.app, 'GET', '/v1/file/policy/upload', { token: admin.token, engineCode: admin.engineCode, query: { scene: 'sns' } });
    expect(sns.body.data).toMatchObject({ maxSizeMb: 50, maxCount: 8 });
  });

  it('refuses an unknown scene with 777, and a caller without a token with 401', async () => {
    const bad = await call(t.app, 'GET', '/v1/file/policy/upload', { token: admin.token, engineCode: admin.engineCode, query: { scene: 'video' } });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await call(t.app, 'GET', '/v1/file/policy/upload', { query: { scene: 'image' } })).status).toBe(401);
  });
});

describe('upload and download', () => {
  it('streams the same bytes back under a signed link, with the UTF-8 name', async () => {
    const bytes = randomBytes(300_000);
    const res = await upload(admin, { scene: 'attachment', fileName: '合同 (最终版).pdf' }, bytes);
    expect(res.body).toMatchObject({ successful: true, data: { name: '合同 (最终版).pdf', size: bytes.length, contentType: 'application/pdf' } });
    const url = await urlOf(admin, res.body.data.fileId);
    expect(url).toMatch(/^\/v1\/file\/download\//);

    const got = await t.app.inject({ method: 'GET', url });
    expect(got.statusCode).toBe(200);
    expect(Buffer.compare(got.rawPayload, bytes)).toBe(0);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-disposition']).toBe(`attachment; filename="__ (___).pdf"; filename*=UTF-8''${encodeURIComponent('合同')}%20%28${encodeURIComponent('最终版')}%29.pdf`);
    expect(got.headers['x-content-type-options']).toBe('nosniff');

    const headers = await post(admin, '/v1/file/headers', { fileIds: [res.body.data.fileId] });
    expect(headers.body.data.list).toEqual([expect.objectContaining({ fileId: res.body.data.fileId, name: '合同 (最终版).pdf', size: bytes.length, isClaimed: false })]);
  });

  it('shows raster images inline and keeps only the last part of a path-like name', async () => {
    const fileId = await uploadOk(admin, 'C:\\fakepath\\photo.png', randomBytes(1000), 'image');
    const got = await t.app.inject({ method: 'GET', url: await urlOf(admin, fileId) });
    expect(got.headers['content-disposition']).toBe(`inline; filename="photo.png"; filename*=UTF-8''photo.png`);
    const forced = await t.app.inject({ method: 'GET', url: `${await urlOf(admin, fileId)}&download=1` });
    expect(forced.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('refuses a bad scene, a missing name and a type the scene does not accept, storing nothing', async () => {
    const before = { rows: await fileRowCount(admin.engineCode), files: storedFiles().length };
    expect((await upload(admin, { scene: 'video', fileName: 'a.mp4' }, randomBytes(10))).body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await upload(admin, { scene: 'attachment' }, randomBytes(10))).body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await upload(admin, { scene: 'image', fileName: 'notes.txt' }, randomBytes(10))).body).toMatchObject({ successful: false, errorCode: 260003 });
    expect((await upload(admin, { scene: 'image', fileName: 'x.svg' }, randomBytes(10))).body).toMatchObject({ successful: false, errorCode: 260003 });
    expect((await upload(admin, { scene: 'gridImportFile', fileName: 'data.xlsx' }, randomBytes(10))).body).toMatchObject({ successful: true });
    expect(await fileRowCount(admin.engineCode)).toBe(before.rows + 1);
    expect(storedFiles().length).toBe(before.files + 1);
  });

  it('refuses a file over the scene cap with 413, from Content-Length or while streaming, keeping nothing', async () => {
    const before = { rows: await fileRowCount(admin.engineCode), files: storedFiles() };
    const cap = 3 * 1024 * 1024; // descriptionImage, domain.md §9
    const declared = await upload(admin, { scene: 'descriptionImage', fileName: 'big.png' }, Buffer.alloc(cap + 1));
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ successful: false, errorCode: 260002 });

    // No Content-Length: the cap is found while the bytes arrive.
    const chunks = function* () {
      for (let i = 0; i < 5; i++) yield Buffer.alloc(1024 * 1024, i);
    };
    const streamed = await upload(admin, { scene: 'descriptionImage', fileName: 'big.png' }, Readable.from(chunks()));
    expect(streamed.status).toBe(413);
    expect(streamed.body).toMatchObject({ successful: false, errorCode: 260002 });

    expect(await fileRowCount(admin.engineCode)).toBe(before.rows);
    expect(storedFiles()).toEqual(before.files);

    const exact = await upload(admin, { scene: 'descriptionImage', fileName: 'ok.png' }, Readable.from([Buffer.alloc(cap)]));
    expect(exact.body).toMatchObject({ successful: true, data: { size: cap } });
  });
});

describe('signed links', () => {
  it('expire, and cannot be altered to reach another file or engine', async () => {
    const fileId = await uploadOk(admin, 'a.txt', Buffer.from('secret A'));
    const otherId = await uploadOk(admin, 'b.txt', Buffer.from('secret B'));
    const url = await urlOf(admin, fileId);
    expect((await t.app.inject({ method: 'GET', url })).payload).toBe('secret A');

    const parsed = new URL(url, 'http://x');
    const sig = parsed.searchParams.get('signature')!;
    const variants = [
      url.replace(fileId, otherId),
      url.replace(`signature=${sig}`, `signature=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`),
      url.replace(/expires=(\d+)/, (_m, n) => `expires=${Number(n) + 3600}`),
      url.replace(`engine=${admin.engineCode}`, `engine=${outsider.engineCode}`),
    ];
    for (const bad of variants) {
      const res = await t.app.inject({ method: 'GET', url: bad });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ successful: false, errorCode: 260005 });
    }

    skew = 601_000;
    try {
      const late = await t.app.inject({ method: 'GET', url });
      expect(late.statusCode).toBe(403);
      expect(late.json()).toMatchObject({ errorCode: 260005 });
    } finally {
      skew = 0;
    }
  });
});

describe('who may read a file', () => {
  it('never finds another engine\'s file (404), and refuses the foreign engine header (403)', async () => {
    const fileId = await uploadOk(admin, 'a.txt', Buffer.from('A'));
    for (const url of ['/v1/file/headers', '/v1/file/urls/byfileids']) {
      const res = await post(outsider, url, { fileIds: [fileId] });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ successful: false, errorCode: 260001, detail: { fileIds: [fileId] } });
    }
    const asA = await post({ token: outsider.token, engineCode: admin.engineCode }, '/v1/file/headers', { fileIds: [fileId] });
    expect(asA.status).toBe(403);
  });

  it('shows an unclaimed file only to its uploader', async () => {
    const mine = await uploadOk(member, 'mine.txt', Buffer.from('m'));
    const admins = await uploadOk(admin, 'admin.txt', Buffer.from('a'));
    expect((await post(member, '/v1/file/headers', { fileIds: [mine] })).body).toMatchObject({ successful: true });
    expect((await post(member, '/v1/file/urls/byfileids', { fileIds: [admins] })).body).toMatchObject({ successful: false, errorCode: 260001 });
    // Even the administrator does not read someone's pending upload.
    expect((await post(admin, '/v1/file/headers', { fileIds: [mine] })).status).toBe(404);
    // One refused id refuses the whole call.
    expect((await post(member, '/v1/file/headers', { fileIds: [mine, admins] })).body).toMatchObject({ errorCode: 260001, detail: { fileIds: [admins] } });
  });

  it('shows a claimed file to whoever may read its record, and no one else', async () => {
    const a = nodeClient(t.app, admin);
    const appCode = (await createApp(a)).code;
    const schemaCode = (await createForm(a, appCode)).code as string;
    await publish(a, schemaCode, definition([{ type: 'attachment', code: 'Files' }]));
    const fileId = await uploadOk(admin, 'claimed.txt', Buffer.from('c'));
    const saved = await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Files: [{ id: fileId, name: 'x', size: 1, contentType: 'text/plain' }] } });
    expect(await claimOf(fileId)).toEqual({ schema_code: schemaCode, object_id: saved.objectId, control_code: 'Files' });

    // The member has no grant on the form: the record's file does not exist for them.
    expect((await post(member, '/v1/file/headers', { fileIds: [fileId] })).status).toBe(404);
    expect((await post(member, '/v1/file/urls/byfileids', { fileIds: [fileId] })).body).toMatchObject({ errorCode: 260001, detail: { fileIds: [fileId] } });
    expect((await post(admin, '/v1/file/headers', { fileIds: [fileId] })).body.data.list[0]).toMatchObject({ isClaimed: true });
    await grant(a, schemaCode, member.userId, 'access');
    const url = (await post(member, '/v1/file/urls/byfileids', { fileIds: [fileId] })).body.data.list[0].url;
    expect((await t.app.inject({ method: 'GET', url })).payload).toBe('c');
  });

  it('reads a file claimed to a record that does not exist (or a form never published) as nobody\'s', async () => {
    const a = nodeClient(t.app, admin);
    const schemaCode = (await createForm(a, (await createApp(a)).code)).code as string;
    const fileId = await uploadOk(admin, 'lost.txt', Buffer.from('l'));
    await claimFiles(engineDb(t.database.db, admin.engineCode), { schemaCode, objectId: crypto.randomUUID(), controlCode: 'Files', fileIds: [fileId] });
    expect((await post(admin, '/v1/file/headers', { fileIds: [fileId] })).status).toBe(404);
  });

  it('asks the record-level hook about claimed files', async () => {
    const asked: unknown[] = [];
    const gated = await buildApp({
      config: { ...loadConfig({}), dataDir, rateLimit: false, jwtSecret: 'test-secret-0123456789abcdef' },
      db: t.database.db,
      logger: false,
      recordFileAccess: async (_edb, _viewer, record) => {
        asked.push(record);
        return false;
      },
    });
    await gated.ready();
    try {
      const a = nodeClient(t.app, admin);
      const schemaCode = (await createForm(a, (await createApp(a)).code)).code as string;
      const fileId = await uploadOk(admin, 'r.txt', Buffer.from('r'));
      await claimFiles(engineDb(t.database.db, admin.engineCode), { schemaCode, objectId: 'obj-9', controlCode: 'F', fileIds: [fileId] });
      const res = await call(gated, 'POST', '/v1/file/headers', { token: admin.token, engineCode: admin.engineCode, body: { fileIds: [fileId] } });
      expect(res.status).toBe(404);
      expect(asked).toEqual([{ schemaCode, objectId: 'obj-9', controlCode: 'F' }]);
    } finally {
      await gated.close();
    }
  });

  it('refuses malformed and too many ids with 777', async () => {
    expect((await post(admin, '/v1/file/headers', { fileIds: ['../etc/passwd'] })).body).toMatchObject({ errorCode: 777 });
    expect((await post(admin, '/v1/file/headers', { fileIds: [] })).body).toMatchObject({ errorCode: 777 });
    const many = Array.from({ length: 101 }, () => crypto.randomUUID());
    expect((await post(admin, '/v1/file/urls/byfileids', { fileIds: many })).body).toMatchObject({ errorCode: 777 });
  });
});
