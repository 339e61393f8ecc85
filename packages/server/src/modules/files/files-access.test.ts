import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { readZip } from './zip-reader.test-helper.ts';

// "A file is never reachable without permission to its record" (docs/decisions/0008 "Who may read a file"): the
// default record-level check of buildApp, on every way to read a file — headers, signed links, the zip of
// batchdownload and form/copyfile.

let t: TestApp, dataDir: string, admin: Person, a: OrgClient, appCode: string;
let member: Person & { userId: string };
let outsider: Person;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-files-access-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  member = await addMember(t, admin);
  outsider = await registerPerson(t.app, { engineName: '别家公司' });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Who = { token: string; engineCode: string };
const post = (who: Who, url: string, body: unknown) => call(t.app, 'POST', url, { token: who.token, engineCode: who.engineCode, body });

async function upload(who: Who, name: string, bytes: string | Buffer = `bytes of ${name}`): Promise<string> {
  const res = await t.app.inject({
    method: 'POST', url: '/v1/file/upload', query: { scene: 'attachment', fileName: name },
    headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' },
    payload: Buffer.from(bytes),
  });
  expect(res.json()).toMatchObject({ successful: true });
  return res.json().data.fileId;
}

const ref = (id: string) => ({ id, name: 'n', size: 1, contentType: 'text/plain' });

/** A published form with an attachment control and one record of the admin holding `fileIds`. */
async function recordWith(fileIds: string[]): Promise<{ schemaCode: string; objectId: string }> {
  const schemaCode = (await createForm(a, appCode)).code as string;
  await publish(a, schemaCode, definition([{ type: 'attachment', code: 'Files' }]));
  const saved = await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Files: fileIds.map(ref) } });
  return { schemaCode, objectId: saved.objectId };
}

async function batch(who: Who, fileIds: string[]) {
  return t.app.inject({ method: 'POST', url: '/v1/file/batchdownload', headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode }, payload: { fileIds } });
}

describe('a record\'s files follow the record', () => {
  it('a member without access to the form gets no URL, header, zip or copy of the record\'s file', async () => {
    const fileId = await upload(admin, 'secret.txt', 'top secret');
    const { schemaCode, objectId } = await recordWith([fileId]);
    for (const url of ['/v1/file/urls/byfileids', '/v1/file/headers']) {
      const res = await post(member, url, { fileIds: [fileId] });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ successful: false, errorCode: 260001, detail: { fileIds: [fileId] } });
    }
    const zip = await batch(member, [fileId]);
    expect(zip.statusCode).toBe(404);
    expect(zip.json()).toMatchObject({ errorCode: 260001 });
    expect((await post(member, '/v1/form/copyfile', { schemaCode, objectId, fileIds: [fileId] })).body).toMatchObject({ errorCode: 260001 });

    await grant(a, schemaCode, member.userId, 'access');
    expect((await post(member, '/v1/file/urls/byfileids', { fileIds: [fileId] })).body).toMatchObject({ successful: true });
  });

  it('another engine\'s user cannot read a record or its files', async () => {
    const fileId = await upload(admin, 'ours.txt');
    const { schemaCode, objectId } = await recordWith([fileId]);
    // In their own engine the record and the file do not exist.
    expect((await post(outsider, '/v1/form/loaddata', { schemaCode, objectId })).status).toBe(404);
    for (const url of ['/v1/file/urls/byfileids', '/v1/file/headers']) expect((await post(outsider, url, { fileIds: [fileId] })).status).toBe(404);
    expect((await batch(outsider, [fileId])).statusCode).toBe(404);
    expect((await post(outsider, '/v1/form/copyfile', { schemaCode, objectId, fileIds: [fileId] })).status).toBe(404);
    // Naming our engine: refused by the engine check.
    const asUs = { token: outsider.token, engineCode: admin.engineCode };
    expect((await post(asUs, '/v1/form/loaddata', { schemaCode, objectId })).status).toBe(403);
    expect((await post(asUs, '/v1/file/urls/byfileids', { fileIds: [fileId] })).status).toBe(403);
    expect((await batch(asUs, [fileId])).statusCode).toBe(403);
  });

  it('a pending upload is readable by its uploader only (administrators included)', async () => {
    const mine = await upload(member, 'pending.txt');
    expect((await post(member, '/v1/file/headers', { fileIds: [mine] })).body.data.list[0]).toMatchObject({ isClaimed: false });
    expect((await post(admin, '/v1/file/urls/byfileids', { fileIds: [mine] })).status).toBe(404);
    expect((await batch(admin, [mine])).statusCode).toBe(404);
    expect(readZip((await batch(member, [mine])).rawPayload).get('pending.txt')?.toString()).toBe('bytes of pending.txt');
  });

  it('batchdownload is all or nothing: one file the caller may not read refuses the zip', async () => {
    const own = await upload(member, 'own.txt');
    const recordFile = await upload(admin, 'record.txt');
    await recordWith([recordFile]);
    const res = await batch(member, [own, recordFile]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorCode: 260001, detail: { fileIds: [recordFile] } });
  });
});

describe('POST /v1/file/batchdownload', () => {
  it('streams a zip of the files, same bytes, duplicate names made unique', async () => {
    const big = Buffer.alloc(300_000, 'abc');
    const ids = [
      await upload(admin, '报告.txt', '第一份'),
      await upload(admin, '报告.txt', '第二份'),
      await upload(admin, 'REPORT.TXT', 'upper'),
      await upload(admin, 'report.txt', 'lower'),
      await upload(admin, 'big.bin', big),
    ];
    await recordWith(ids.slice(0, 2));
    const res = await batch(admin, ids);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="files-\d{4}-\d{2}-\d{2}\.zip"/);
    const entries = readZip(res.rawPayload);
    expect([...entries.keys()]).toEqual(['报告.txt', '报告 (2).txt', 'REPORT.TXT', 'report (2).txt', 'big.bin']);
    expect(entries.get('报告.txt')!.toString()).toBe('第一份');
    expect(entries.get('报告 (2).txt')!.toString()).toBe('第二份');
    expect(entries.get('report (2).txt')!.toString()).toBe('lower');
    expect(Buffer.compare(entries.get('big.bin')!, big)).toBe(0);
    if (existsSync('/usr/bin/unzip')) {
      const file = path.join(dataDir, 'check.zip');
      writeFileSync(file, res.rawPayload);
      expect(execFileSync('unzip', ['-t', file]).toString()).toMatch(/No errors detected/);
    }
  });

  it('refuses more than 100 ids and duplicates with 777', async () => {
    const id = await upload(admin, 'x.txt');
    expect((await batch(admin, [id, id])).json()).toMatchObject({ errorCode: 777 });
    expect((await batch(admin, Array.from({ length: 101 }, () => crypto.randomUUID()))).json()).toMatchObject({ errorCode: 777 });
  });
});

describe('POST /v1/form/copyfile', () => {
  it('copies a readable record\'s files into new pending files of the caller', async () => {
    const first = await upload(admin, 'one.txt', 'one');
    const second = await upload(admin, 'two.txt', 'two');
    const { schemaCode, objectId } = await recordWith([first, second]);
    await grant(a, schemaCode, member.userId, 'access');
    const res = await post(member, '/v1/form/copyfile', { schemaCode, objectId, controlCode: 'Files', fileIds: [second, first] });
    expect(res.body).toMatchObject({ successful: true });
    const list = res.body.data.list;
    expect(list.map((f: any) => [f.sourceFileId, f.name, f.size])).toEqual([[second, 'two.txt', 3], [first, 'one.txt', 3]]);
    expect(list[0].fileId).not.toBe(second);
    // The copies are the member's pending files: theirs to read and to claim, nobody else's.
    const headers = await post(member, '/v1/file/headers', { fileIds: list.map((f: any) => f.fileId) });
    expect(headers.body.data.list.every((f: any) => f.isClaimed === false)).toBe(true);
    expect((await post(admin, '/v1/file/headers', { fileIds: [list[0].fileId] })).status).toBe(404);
    const url = (await post(member, '/v1/file/urls/byfileids', { fileIds: [list[0].fileId] })).body.data.list[0].url;
    expect((await t.app.inject({ method: 'GET', url })).payload).toBe('two');
  });

  it('refuses a file that is not the named record\'s (or not in the named control)', async () => {
    const held = await upload(admin, 'held.txt');
    const pending = await upload(admin, 'pending.txt');
    const { schemaCode, objectId } = await recordWith([held]);
    const other = await recordWith([]);
    expect((await post(admin, '/v1/form/copyfile', { schemaCode, objectId, fileIds: [held, pending] })).body).toMatchObject({ errorCode: 260001, detail: { fileIds: [pending] } });
    expect((await post(admin, '/v1/form/copyfile', { schemaCode: other.schemaCode, objectId: other.objectId, fileIds: [held] })).body).toMatchObject({ errorCode: 260001 });
    expect((await post(admin, '/v1/form/copyfile', { schemaCode, objectId, controlCode: 'Photos', fileIds: [held] })).body).toMatchObject({ errorCode: 260001 });
  });
});
