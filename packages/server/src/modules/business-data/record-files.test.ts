import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';

// A record's files (docs/decisions/0008 "Records and their files"): every file value is claimed to the record in the
// save's transaction as the saver, the stored value is the server's, a file belongs to one record, files a save
// drops or a removed record held are deleted, and a copied record gets its own copies.

let t: TestApp, dataDir: string, admin: Person, a: OrgClient, appCode: string;
let member: Person & { userId: string };
let m: OrgClient;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-record-files-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  member = await addMember(t, admin);
  m = nodeClient(t.app, member);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'attachment', code: 'Files' },
  { type: 'photo', code: 'Photos' },
  { type: 'handSign', code: 'Sign' },
  { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'attachment', code: 'ItemFiles' }] },
]);

async function newForm(): Promise<string> {
  const code = (await createForm(a, appCode)).code as string;
  await publish(a, code, FORM);
  await grant(a, code, member.userId, 'access');
  return code;
}

async function upload(who: { token: string; engineCode: string }, name: string, bytes: Buffer | string = `bytes of ${name}`, scene = 'attachment') {
  const res = await t.app.inject({
    method: 'POST', url: '/v1/file/upload', query: { scene, fileName: name },
    headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' },
    payload: Buffer.from(bytes),
  });
  expect(res.json()).toMatchObject({ successful: true });
  return res.json().data as { fileId: string; name: string; size: number; contentType: string };
}

/** What a client would send: the id with a name, size and type of its own choosing (the server replaces them). */
const ref = (id: string, name = 'client.bin') => ({ id, name, size: 1, contentType: 'image/png' });
const exec = (c: OrgClient, body: Record<string, unknown>) => c.raw('POST', '/v1/form/action/execute', body);
const edb = () => engineDb(t.database.db, admin.engineCode);
const fileRow = (id: string) => edb().selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
const bytesExist = (row: { storage_key: string }) => existsSync(path.join(dataDir, 'files', row.storage_key));

describe('saving file values', () => {
  it('claims every file control (main, photo, hand sign, sub-table column) and stores the server\'s refs', async () => {
    const code = await newForm();
    const doc = await upload(admin, '合同.pdf');
    const pic = await upload(admin, 'a.png', 'png-bytes', 'image');
    const sign = await upload(admin, 'sign.png', 'sign-bytes', 'handSign');
    const item = await upload(admin, 'item.txt');
    const saved = await a.post('/v1/form/action/execute', {
      schemaCode: code, actionCode: 'Save',
      values: { Title: 't', Files: [ref(doc.fileId)], Photos: [ref(pic.fileId)], Sign: ref(sign.fileId) },
      children: { Items: [{ ItemName: 'x', ItemFiles: [ref(item.fileId), ref(item.fileId)] }] },
    });
    const read = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(read.values.Files).toEqual([{ id: doc.fileId, name: '合同.pdf', size: doc.size, contentType: 'application/pdf' }]);
    expect(read.values.Photos).toEqual([{ id: pic.fileId, name: 'a.png', size: pic.size, contentType: 'image/png' }]);
    expect(read.values.Sign).toEqual({ id: sign.fileId, name: 'sign.png', size: sign.size, contentType: 'image/png' });
    expect(read.children.Items[0].ItemFiles).toEqual([{ id: item.fileId, name: 'item.txt', size: item.size, contentType: 'text/plain' }]);
    expect(await fileRow(item.fileId)).toMatchObject({ schema_code: code, object_id: saved.objectId, control_code: 'Items.ItemFiles' });
    expect(await fileRow(sign.fileId)).toMatchObject({ control_code: 'Sign' });
    // Saving again with the same refs is harmless.
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: { Files: [ref(doc.fileId)] } });
    expect((await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId })).values.Files).toHaveLength(1);
  });

  it('refuses someone else\'s pending upload and an unknown id (260001), naming the field, saving nothing', async () => {
    const code = await newForm();
    const members = await upload(member, 'm.txt');
    const r = await exec(a, { schemaCode: code, actionCode: 'Save', values: { Files: [ref(members.fileId)] } });
    expect(r.body).toMatchObject({ successful: false, errorCode: 260001, detail: { fileIds: [members.fileId], field: 'Files', issues: [{ path: 'values.Files' }] } });
    const unknown = crypto.randomUUID();
    const r2 = await exec(a, { schemaCode: code, actionCode: 'Save', values: {}, children: { Items: [{ ItemName: 'a' }, { ItemName: 'b', ItemFiles: [ref(unknown)] }] } });
    expect(r2.body).toMatchObject({ errorCode: 260001, detail: { issues: [{ path: 'children.Items.1.ItemFiles' }] } });
    expect(await fileRow(members.fileId)).toMatchObject({ schema_code: null });
    expect((await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10 })).total).toBe(0);
  });

  it('refuses a file another record holds (260006), and a non-image in a photo control (777)', async () => {
    const code = await newForm();
    const doc = await upload(admin, 'd.txt');
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Files: [ref(doc.fileId)] } });
    const r = await exec(a, { schemaCode: code, actionCode: 'Save', values: { Files: [ref(doc.fileId)] } });
    expect(r.body).toMatchObject({ successful: false, errorCode: 260006, detail: { fileIds: [doc.fileId], issues: [{ path: 'values.Files' }] } });
    // The client calls a text file an image; the server's type decides.
    const text = await upload(admin, 'not-an-image.txt');
    const r2 = await exec(a, { schemaCode: code, actionCode: 'Save', values: { Photos: [ref(text.fileId)] } });
    expect(r2.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'values.Photos' }] } });
    expect(await fileRow(text.fileId)).toMatchObject({ schema_code: null });
  });

  it('deletes the files a save drops (row and bytes), keeping the rest', async () => {
    const code = await newForm();
    const keep = await upload(admin, 'keep.txt');
    const drop = await upload(admin, 'drop.txt');
    const rowFile = await upload(admin, 'row.txt');
    const saved = await a.post('/v1/form/action/execute', {
      schemaCode: code, actionCode: 'Save', values: { Files: [ref(keep.fileId), ref(drop.fileId)] }, children: { Items: [{ ItemName: 'r', ItemFiles: [ref(rowFile.fileId)] }] },
    });
    const dropRow = (await fileRow(drop.fileId))!;
    expect(bytesExist(dropRow)).toBe(true);
    // Items not sent: its row keeps its file.
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: { Files: [ref(keep.fileId)] } });
    expect(await fileRow(drop.fileId)).toBeUndefined();
    expect(bytesExist(dropRow)).toBe(false);
    expect(await fileRow(keep.fileId)).toBeDefined();
    expect(await fileRow(rowFile.fileId)).toBeDefined();
    // The sub-table sent without the file: it goes too.
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: {}, children: { Items: [] } });
    expect(await fileRow(rowFile.fileId)).toBeUndefined();
  });

  it('deletes a removed record\'s files; a copy has its own copies, which outlive the original', async () => {
    const code = await newForm();
    const doc = await upload(admin, 'orig.txt', 'original bytes');
    const item = await upload(admin, 'item.txt', 'item bytes');
    const saved = await a.post('/v1/form/action/execute', {
      schemaCode: code, actionCode: 'Submit', values: { Files: [ref(doc.fileId)] }, children: { Items: [{ ItemName: 'r', ItemFiles: [ref(item.fileId)] }] },
    });
    // The member (access only) copies the admin's record: the copy is theirs, with their own files.
    const copy = await m.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Copy', objectId: saved.objectId });
    expect(copy.copiedFrom).toBe(saved.objectId);
    const copied = await m.post('/v1/form/loaddata', { schemaCode: code, objectId: copy.objectId });
    const [copyFile] = copied.values.Files;
    const [copyItem] = copied.children.Items[0].ItemFiles;
    expect(copyFile).toMatchObject({ name: 'orig.txt', size: 'original bytes'.length });
    expect(copyFile.id).not.toBe(doc.fileId);
    expect(copyItem.id).not.toBe(item.fileId);
    expect(await fileRow(copyFile.id)).toMatchObject({ schema_code: code, object_id: copy.objectId, control_code: 'Files', created_by: member.userId });

    const originalRow = (await fileRow(doc.fileId))!;
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Remove', objectId: saved.objectId });
    expect(await fileRow(doc.fileId)).toBeUndefined();
    expect(await fileRow(item.fileId)).toBeUndefined();
    expect(bytesExist(originalRow)).toBe(false);

    const urls = await m.post('/v1/file/urls/byfileids', { fileIds: [copyFile.id, copyItem.id] });
    const got = await Promise.all(urls.list.map((u: { url: string }) => t.app.inject({ method: 'GET', url: u.url })));
    expect(got.map((g) => g.payload)).toEqual(['original bytes', 'item bytes']);
  });
});
