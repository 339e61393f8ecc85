// test-databases: pglite — share links are plain reads and writes; nothing here differs between the databases
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Record share links (issue 19, ExternalShare) through the calls: a member shares a record they read; a visitor
// without an account sees it read-only as the member sees it (hidden fields and columns absent), behind the password,
// until it expires or is revoked — at once; a member who loses the record closes their links; nobody shares what they
// cannot read, revokes another's link, or opens another engine's record with a token.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let alice: Awaited<ReturnType<typeof addMember>> & { c: OrgClient };
let objectId: string;
let now = Date.parse('2026-11-26T08:00:00Z');

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp({ clock: () => new Date(now) }));
  code = (await createForm(a, appCode, { displayName: '报销单' })).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Title', options: { displayName: '事由' } },
    { type: 'number', code: 'Amount', options: { displayName: '金额' } },
    { type: 'number', code: 'Salary', options: { displayName: '月薪' } },
    { type: 'user', code: 'Payee', options: { displayName: '收款人' } },
    { type: 'gridView', code: 'Items', options: { displayName: '明细' }, controls: [{ type: 'textBox', code: 'ItemName', options: { displayName: '项目' } }, { type: 'number', code: 'Cost', options: { displayName: '费用', decimalPlaces: 2 } }] },
  ], { displayName: '报销单' }));
  const m = await addMember(t, admin, { name: '艾丽' });
  alice = { ...m, c: nodeClient(t.app, m) };
  await grant(a, appCode, alice.userId, 'access');
  const saved = await a.post('/v1/form/action/execute', {
    schemaCode: code,
    actionCode: 'Submit',
    values: { Title: '出差北京', Amount: 1280, Salary: 30000, Payee: alice.userId },
    children: { Items: [{ ItemName: '机票', Cost: 980 }, { ItemName: '酒店', Cost: 300.5 }] },
  });
  objectId = saved.objectId;
  // Alice reads every record, with the salary and the items' costs hidden.
  await a.post('/v1/form/permission/group/save', {
    schemaCode: code,
    group: { name: '普通成员', members: { users: [alice.userId] }, actions: ['view'], viewScope: 'all', editScope: 'own', fieldRights: { Salary: 'hidden', 'Items.Cost': 'hidden' } },
  });
});
afterAll(() => t.close());

const visit = (engineCode: string, path: string, password?: string) =>
  call(t.app, 'GET', '/v1/external/share', { query: { engineCode, token: path.split('/').at(-1)! }, headers: password ? { 'x-link-password': password } : {} });

describe('record share links', () => {
  it('show the record read-only as its sharer sees it, behind the password, until it expires', async () => {
    const { share } = await alice.c.post('/v1/form/externalshare/create', { schemaCode: code, objectId, expiresInHours: 24, password: 'pass-1234' });
    expect(share).toMatchObject({ hasPassword: true, createdByName: '艾丽', expiresAt: new Date(now + 24 * 3_600_000).toISOString() });
    expect(share.path).toMatch(new RegExp(`^/external/share/${admin.engineCode}/[A-Za-z0-9_-]{24}$`));

    const locked = await visit(admin.engineCode, share.path);
    expect(locked.body.data).toEqual({ displayName: '报销单', needsPassword: true, title: '', fields: [], tables: [] });
    expect((await visit(admin.engineCode, share.path, 'wrong-pass')).body.data.needsPassword).toBe(true);

    const seen = (await visit(admin.engineCode, share.path, 'pass-1234')).body.data;
    expect(seen.needsPassword).toBe(false);
    expect(seen.fields).toEqual([
      { code: 'Title', displayName: '事由', text: '出差北京' },
      { code: 'Amount', displayName: '金额', text: '1280' },
      { code: 'Payee', displayName: '收款人', text: '艾丽' },
    ]);
    expect(seen.tables).toEqual([{ code: 'Items', displayName: '明细', columns: [{ code: 'ItemName', displayName: '项目' }], rows: [['机票'], ['酒店']] }]);
    expect(JSON.stringify(seen)).not.toMatch(/30000|月薪|980|费用/);

    // The administrator's own share shows what the administrator sees.
    const mine = (await a.post('/v1/form/externalshare/create', { schemaCode: code, objectId })).share;
    expect(mine.expiresAt).toBeNull();
    const full = (await visit(admin.engineCode, mine.path)).body.data;
    expect(full.fields.map((f: { code: string }) => f.code)).toContain('Salary');

    now += 25 * 3_600_000;
    expect((await visit(admin.engineCode, share.path, 'pass-1234')).body.errorCode).toBe(330104);
    expect((await alice.c.post('/v1/form/externalshare/list', { schemaCode: code, objectId })).shares).toEqual([]);
  });

  it('stop at once when revoked or when the sharer loses the record; only the sharer or an administrator revokes', async () => {
    const { share } = await alice.c.post('/v1/form/externalshare/create', { schemaCode: code, objectId });
    expect((await visit(admin.engineCode, share.path)).status).toBe(200);
    const listed = await a.post('/v1/form/externalshare/list', { schemaCode: code, objectId });
    expect(listed.shares.map((s: { id: string }) => s.id)).toContain(share.id);

    const bob = await addMember(t, admin, { name: '鲍勃' });
    await grant(a, appCode, bob.userId, 'access');
    const bobClient = nodeClient(t.app, bob);
    expect((await bobClient.raw('POST', '/v1/form/externalshare/revoke', { id: share.id })).body.errorCode).toBe(330101);
    expect((await visit(admin.engineCode, share.path)).status).toBe(200);

    const second = (await alice.c.post('/v1/form/externalshare/create', { schemaCode: code, objectId })).share;
    await alice.c.post('/v1/form/externalshare/revoke', { id: share.id });
    expect((await visit(admin.engineCode, share.path)).body.errorCode).toBe(330101);
    expect((await visit(admin.engineCode, second.path)).status).toBe(200);

    // Alice loses the app: her remaining link no longer opens anything.
    await grant(a, appCode, alice.userId, 'none');
    expect((await visit(admin.engineCode, second.path)).body.errorCode).toBe(330101);
    await grant(a, appCode, alice.userId, 'access');
    expect((await visit(admin.engineCode, second.path)).status).toBe(200);
  });

  it('are refused for records the caller cannot read, for bad input, and across engines', async () => {
    const carol = await addMember(t, admin, { name: '卡萝' });
    const carolClient = nodeClient(t.app, carol);
    expect((await carolClient.raw('POST', '/v1/form/externalshare/create', { schemaCode: code, objectId })).body.successful).toBe(false);
    for (const body of [
      { schemaCode: code, objectId, expiresInHours: 0 },
      { schemaCode: code, objectId, expiresInHours: 24 * 366 },
      { schemaCode: code, objectId, password: '12' },
      { schemaCode: code, objectId, extra: 1 },
      { schemaCode: code, objectId: '\u0000' },
    ]) {
      const r = await a.raw('POST', '/v1/form/externalshare/create', body);
      expect(r.status, JSON.stringify(body)).toBeLessThan(500);
      expect(r.body.successful, JSON.stringify(body)).toBe(false);
    }
    expect((await a.raw('POST', '/v1/form/externalshare/create', { schemaCode: code, objectId: '0192aaaa-0000-7000-8000-000000000009' })).body.errorCode).toBe(250001);

    const { share } = await a.post('/v1/form/externalshare/create', { schemaCode: code, objectId });
    const other = await registerPerson(t.app);
    expect((await visit(other.engineCode, share.path)).body.errorCode).toBe(330101);
    expect((await visit('no-such-engine', share.path)).body.errorCode).toBe(330101);
    expect((await call(t.app, 'GET', '/v1/external/share', { query: { engineCode: admin.engineCode, token: 'x'.repeat(65) } })).body.errorCode).toBe(777);
  });
});
