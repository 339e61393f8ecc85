// test-databases: both — one signature a link under concurrent submits (row lock) (docs/testing.md "Runs on both databases").
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';

// Signing on the phone (docs/decisions/0114): a member who may change a hand-sign field asks for a one-use link; the
// phone reads whose signature is asked and submits a PNG without a session; the requester reads the file value.

let t: TestApp, dataDir: string, admin: Person, a: OrgClient, m: OrgClient, schemaCode: string, objectId: string;

// The smallest valid PNG (1×1, transparent).
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-phone-sign-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  const appCode = (await createApp(a)).code;
  schemaCode = (await createForm(a, appCode)).code as string;
  await publish(a, schemaCode, definition([
    { type: 'textBox', code: 'Title' },
    { type: 'handSign', code: 'Sign', options: { displayName: '客户签名' } },
  ], { displayName: '验收单', nameSchema: '{Title}' }));
  const member = await addMember(t, admin);
  await grant(a, schemaCode, member.userId, 'access');
  m = nodeClient(t.app, member);
  objectId = (await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Save', values: { Title: '三号楼验收' } })).objectId;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const create = (c: OrgClient, body: Record<string, unknown>) => c.raw('POST', '/v1/handsign/qrlink', body);
const info = (token: string) => call(t.app, 'GET', '/v1/form/sign/info', { query: { token } });
const submit = (token: string, signature = PNG) => call(t.app, 'POST', '/v1/form/sign/submit', { body: { token, signature } });
const state = (c: OrgClient, token: string) => c.raw('GET', '/v1/form/sign/state', { token });
const errorCode = (res: { body: { errorCode?: number } }) => res.body.errorCode;
const linkRow = (token: string) =>
  t.database.db.selectFrom('platform.sign_links').selectAll().where('token_hash', '=', createHash('sha256').update(token).digest('hex')).executeTakeFirstOrThrow();

describe('phone signing links', () => {
  it('makes a one-use link for a record field, shown to the phone, signed, and handed to the requester', async () => {
    const before = Date.now();
    const created = (await create(a, { schemaCode, controlCode: 'Sign', objectId })).body.data;
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.link).toBe(`/entry/sign/${created.token}`);
    const minutes = (new Date(created.expiresTime).getTime() - before) / 60_000;
    expect(minutes).toBeGreaterThan(9.9);
    expect(minutes).toBeLessThan(10.1);
    expect(JSON.stringify(await linkRow(created.token))).not.toContain(created.token);

    const shown = await info(created.token);
    expect(shown.body.data).toMatchObject({ formName: '验收单', fieldName: '客户签名', recordTitle: '三号楼验收', expiresTime: created.expiresTime });
    expect(shown.body.data.requesterName).toBeTruthy();
    expect((await state(a, created.token)).body.data).toEqual({ state: 'waiting', file: null });

    expect((await submit(created.token)).body).toMatchObject({ successful: true, data: { signed: true } });
    const signed = (await state(a, created.token)).body.data;
    expect(signed).toMatchObject({ state: 'signed', file: { name: 'signature.png', contentType: 'image/png' } });
    const file = await engineDb(t.database.db, admin.engineCode).selectFrom('files').selectAll().where('id', '=', signed.file.id).executeTakeFirstOrThrow();
    expect(file).toMatchObject({ scene: 'handSign', created_by: (await linkRow(created.token)).created_by, object_id: null });
    expect(existsSync(path.join(dataDir, 'files', file.storage_key))).toBe(true);

    // The requester's save claims the file as if they had drawn it on the PC.
    await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Save', objectId, values: { Title: '三号楼验收', Sign: signed.file } });
    expect((await a.post('/v1/form/loaddata', { schemaCode, objectId })).values.Sign).toEqual(signed.file);

    // Used once: the phone is told so, and nothing more is stored.
    expect(errorCode(await info(created.token))).toBe(250202);
    const again = await submit(created.token);
    expect(again.status).toBe(200);
    expect(errorCode(again)).toBe(250202);
    expect(again.body.errorMessage).toContain('已使用');
  });

  it('makes a link for a new record (no objectId), signed once when two phones submit at once', async () => {
    const created = (await create(m, { schemaCode, controlCode: 'Sign' })).body.data;
    expect((await info(created.token)).body.data).toMatchObject({ recordTitle: null, fieldName: '客户签名' });
    const answers = await Promise.all([submit(created.token), submit(created.token)]);
    expect(answers.map((r) => r.body.successful).sort()).toEqual([false, true]);
    expect(answers.map(errorCode).filter(Boolean)).toEqual([250202]);
    expect((await state(m, created.token)).body.data.state).toBe('signed');
  });

  it('refuses an expired link, with the state saying so', async () => {
    const { token } = (await create(a, { schemaCode, controlCode: 'Sign', objectId })).body.data;
    await t.database.db.updateTable('platform.sign_links').set({ expires_time: new Date(Date.now() - 1000) }).where('id', '=', (await linkRow(token)).id).execute();
    expect(errorCode(await info(token))).toBe(250203);
    const refused = await submit(token);
    expect(refused.status).toBe(200);
    expect(errorCode(refused)).toBe(250203);
    expect((await state(a, token)).body.data).toEqual({ state: 'expired', file: null });
    const en = await call(t.app, 'GET', '/v1/form/sign/info', { query: { token }, headers: { 'accept-language': 'en-US' } });
    expect(en.body).toMatchObject({ errorCode: 250203, errorMessage: 'This signing link has expired: make a new QR code on the computer' });
  });

  it('refuses unknown tokens, and the state to anyone but the requester in their engine', async () => {
    expect(errorCode(await info('A'.repeat(43)))).toBe(250201);
    expect(errorCode(await submit('A'.repeat(43)))).toBe(250201);
    expect(errorCode(await info('not a token!'))).toBe(777);
    const { token } = (await create(a, { schemaCode, controlCode: 'Sign', objectId })).body.data;
    expect(errorCode(await state(m, token))).toBe(250201);
    const other = await registerPerson(t.app);
    const elsewhere = await state(nodeClient(t.app, other), token);
    expect(errorCode(elsewhere)).toBe(250201);
    // A link names its engine: another engine's member cannot make one for this form.
    expect((await create(nodeClient(t.app, other), { schemaCode, controlCode: 'Sign', objectId })).body.successful).toBe(false);
    expect((await state(a, token)).body.data.state).toBe('waiting');
  });

  it('refuses a signature that is not a PNG, or too large, and keeps the link usable', async () => {
    const { token } = (await create(a, { schemaCode, controlCode: 'Sign', objectId })).body.data;
    expect(errorCode(await submit(token, `data:image/png;base64,${Buffer.from('<svg/>').toString('base64')}`))).toBe(250204);
    expect(errorCode(await submit(token, 'data:image/svg+xml;base64,PHN2Zy8+'))).toBe(777);
    expect(errorCode(await submit(token, 'https://example.com/a.png'))).toBe(777);
    expect(errorCode(await submit(token, `data:image/png;base64,${'A'.repeat(1_500_000)}`))).toBe(777);
    expect((await state(a, token)).body.data.state).toBe('waiting');
    expect((await submit(token)).body.successful).toBe(true);
  });

  it('gives links only to whoever may change the field now', async () => {
    // A member who may create records but not change the administrator's record.
    const forbidden = await create(m, { schemaCode, controlCode: 'Sign', objectId });
    expect(forbidden.status).toBe(403);
    expect(errorCode(forbidden)).toBe(250003);
    expect(errorCode(await create(a, { schemaCode, controlCode: 'Title', objectId }))).toBe(250007);
    expect(errorCode(await create(a, { schemaCode, controlCode: 'Sign', objectId: '01936f6e-0000-7000-8000-000000000000' }))).toBe(250001);
    expect((await create(m, { schemaCode, controlCode: 'Sign' })).body.successful).toBe(true);
  });
});
