import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { call, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { addInvitedMember, companyIdOf, engineDb, orgClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import type { Db } from '../../db/types.ts';
import { recordOperation } from './oplog.ts';
import { maskSecrets } from './oplog-chain.ts';
import { oplogRetentionSweep, removeExpiredOperations } from './oplog-sweep.ts';

// The operation log (docs/decisions/0113): changes recorded in their transaction with before and after, secrets
// masked, administrators only, one chain per engine that reports an edited or removed entry, and the year's sweep.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string, companyId: string, adminId: string;

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([{ type: 'textBox', code: 'Title' }]));
  companyId = await companyIdOf(t, admin.engineCode);
  adminId = (await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').select('id').where('mobile', '=', admin.mobile).executeTakeFirstOrThrow()).id;
});
afterAll(() => t.close());

const list = async (query: Record<string, string> = {}) => (await a.get('/v1/admin/oplog/list', query)) as { list: Record<string, any>[]; total: number };
const verify = async (c: OrgClient = a) => (await c.post('/v1/admin/oplog/verify')) as { valid: boolean; checked: number; broken: { seq: number; reason: string } | null };
const oplog = () => sql.id(`e_${admin.engineCode}`, 'oplog');
const group = (name: string) => ({ name, members: { users: [] }, actions: ['view'], viewScope: 'own', editScope: 'own', fieldRights: {} });

async function saveGroup(body: Record<string, unknown>, requestId?: string) {
  const res = await call(t.app, 'POST', '/v1/form/permission/group/save', { token: admin.token, engineCode: admin.engineCode, body: { schemaCode: code, group: body }, headers: requestId ? { 'x-request-id': requestId } : {} });
  expect(res.body.successful).toBe(true);
  return res.body.data as { id: string };
}

describe('operation log', () => {
  it('records a permission group change with before and after, the person, the request id and the address', async () => {
    const created = await saveGroup(group('销售组'), 'req-oplog-create');
    await saveGroup({ ...group('销售一组'), id: created.id, viewScope: 'all' });
    const { list: entries } = await list({ kind: 'permissionGroup' });
    expect(entries.map((e) => e.action)).toEqual(['update', 'create']);
    const [updated, made] = entries;
    expect(made).toMatchObject({ kind: 'permissionGroup', objectId: created.id, requestId: 'req-oplog-create', ip: '127.0.0.1', userId: adminId, before: null });
    expect(made.after).toMatchObject({ name: '销售组', viewScope: 'own' });
    expect(updated.objectName).toContain('销售一组');
    expect(updated.before).toMatchObject({ name: '销售组', viewScope: 'own' });
    expect(updated.after).toMatchObject({ name: '销售一组', viewScope: 'all' });
    expect(updated.userName).toBeTruthy();
    await a.post('/v1/form/permission/group/remove', { schemaCode: code, id: created.id });
    expect((await list({ kind: 'permissionGroup' })).list[0]).toMatchObject({ action: 'remove', before: { name: '销售一组' }, after: null });
    expect(await verify()).toMatchObject({ valid: true, broken: null });
  });

  it('records nothing for a change rolled back, and the chain goes on', async () => {
    const before = (await list()).total;
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await recordOperation(engineDb(trx as unknown as Db, admin.engineCode), { userId: adminId }, { kind: 'role', action: 'create', objectName: '回滚的角色' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await list()).total).toBe(before);
    expect((await list({ text: '回滚的角色' })).total).toBe(0);
    const refused = await a.raw('POST', '/v1/org/department/create', { parentId: companyId, name: '' });
    expect(refused.body.successful).toBe(false);
    expect((await list()).total).toBe(before);
    expect(await verify()).toMatchObject({ valid: true });
  });

  it('masks secrets wherever they are, and keeps the rest', async () => {
    expect(maskSecrets({ password: 'p', nested: { clientSecret: 's', appKey: 'k', name: 'n' }, list: [{ token: 't' }], sortKey: 2, empty: '' })).toEqual({
      password: '******', nested: { clientSecret: '******', appKey: '******', name: 'n' }, list: [{ token: '******' }], sortKey: 2, empty: '',
    });
    await t.database.db.transaction().execute((trx) =>
      recordOperation(engineDb(trx as unknown as Db, admin.engineCode), { userId: adminId }, { kind: 'signIn', action: 'update', objectName: '密钥测试', after: { clientSecret: 'very-secret-value', issuerUrl: 'https://id.example' } }),
    );
    const [entry] = (await list({ text: '密钥测试' })).list;
    expect(entry.after).toEqual({ clientSecret: '******', issuerUrl: 'https://id.example' });
    const rows = await sql<{ text: string }>`select "after"::text as text from ${oplog()}`.execute(t.database.db);
    expect(rows.rows.map((r) => r.text).join()).not.toContain('very-secret-value');
  });

  it('records a channel password and an open API key only masked', async () => {
    const email = { enabled: true, host: '127.0.0.1', port: 2525, secure: false, user: 'mailer', password: 'smtp-pass-0713', fromAddress: 'noreply@tritium.test', fromName: '氚' };
    await a.post('/v1/notification/channel/email/save', email);
    const [saved] = (await list({ kind: 'notificationChannel' })).list;
    expect(saved).toMatchObject({ action: 'update', objectId: 'email', before: { configured: false }, after: { host: '127.0.0.1', password: '******' } });
    const created = await a.post('/v1/engine/secret/create', { name: '对接 ERP' });
    await a.post('/v1/engine/secret/revoke', { id: created.secret.id });
    expect((await list({ kind: 'openApiKey' })).list.map((e) => e.action)).toEqual(['revoke', 'create']);
    const rows = await sql<{ text: string }>`select concat("before"::text, "after"::text) as text from ${oplog()}`.execute(t.database.db);
    const all = rows.rows.map((r) => r.text).join();
    expect(all).not.toContain('smtp-pass-0713');
    expect(all).not.toContain(created.value);
  });

  it('records organisation changes and app grants, and finds them by person, kind, time and text', async () => {
    const dept = await a.post('/v1/org/department/create', { parentId: companyId, name: '审计部' });
    await a.post('/v1/org/department/update', { id: dept.id, name: '内审部' });
    const member = await addInvitedMember(t, admin, { name: '审计员' });
    await a.post('/v1/functionnode/auth/set', { code: appCode, unitId: member.userId, permission: 'access' });
    const renamed = (await list({ kind: 'department' })).list[0];
    expect(renamed).toMatchObject({ action: 'update', objectId: dept.id, before: { name: '审计部' }, after: { name: '内审部' } });
    expect((await list({ kind: 'member', text: '审计员' })).list[0]).toMatchObject({ action: 'create', objectId: member.userId });
    expect((await list({ kind: 'appAdmin' })).list[0]).toMatchObject({ action: 'grant', objectId: appCode, before: { permission: 'none' }, after: { permission: 'access', unitName: '审计员' } });
    expect((await list({ userId: adminId })).total).toBeGreaterThan(3);
    expect((await list({ userId: member.userId })).total).toBe(0);
    expect((await list({ from: '2000-01-01T00:00:00Z', to: '2000-12-31T00:00:00Z' })).total).toBe(0);
    expect((await list({ text: '内审' })).list.every((e) => e.kind === 'department')).toBe(true);
  });

  it('records a feature switch turned off, with its value before and after', async () => {
    await a.post('/v1/switch/set', { name: 'kanbanView', value: '0' });
    expect((await list({ kind: 'engineSetting' })).list[0]).toMatchObject({ action: 'update', objectId: 'kanbanView', before: { value: '1' }, after: { value: '0' } });
    await a.post('/v1/switch/set', { name: 'kanbanView', value: '1' });
    expect((await verify()).valid).toBe(true);
  });

  it('exports the filtered entries as a workbook', async () => {
    const res = await call(t.app, 'GET', '/v1/admin/oplog/export', { token: admin.token, engineCode: admin.engineCode, query: { kind: 'department' } });
    expect(res.status).toBe(200);
    expect(res.response.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toContain('修改前');
    expect(sheet.rowCount).toBe(1 + (await list({ kind: 'department' })).total);
    expect(String(sheet.getRow(2).getCell(4).value)).toBe('部门');
  });

  it('is refused to members and empty for another engine', async () => {
    const member = await addInvitedMember(t, admin, { name: '普通成员' });
    const m = orgClient(t.app, member);
    expect((await m.raw('GET', '/v1/admin/oplog/list')).body).toMatchObject({ successful: false, errorCode: 100403 });
    expect((await m.raw('POST', '/v1/admin/oplog/verify')).body).toMatchObject({ successful: false, errorCode: 100403 });
    const other = await registerPerson(t.app, { engineName: '另一家公司' });
    const o = orgClient(t.app, other);
    expect((await o.get('/v1/admin/oplog/list')).total).toBe(0);
    expect(await verify(o)).toEqual({ valid: true, checked: 0, broken: null });
  });

  it('keeps one chain when changes are written at the same time', async () => {
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        t.database.db.transaction().execute((trx) => recordOperation(engineDb(trx as unknown as Db, admin.engineCode), { userId: adminId }, { kind: 'role', action: 'create', objectName: `并发${n}` })),
      ),
    );
    expect(await verify()).toMatchObject({ valid: true, broken: null });
  });

  it('reports an entry edited in the database', async () => {
    const target = (await list({ kind: 'department' })).list[0];
    await sql`update ${oplog()} set object_name = '改过的名字' where seq = ${target.seq}`.execute(t.database.db);
    expect(await verify()).toMatchObject({ valid: false, broken: { seq: target.seq, reason: 'edited' } });
    await sql`update ${oplog()} set object_name = ${target.objectName} where seq = ${target.seq}`.execute(t.database.db);
    expect(await verify()).toMatchObject({ valid: true });
  });

  it('reports an entry removed from the middle, and the last one', async () => {
    const { list: entries } = await list({ pageSize: '3' });
    const removeAndCheck = async (seq: number) => {
      const kept = sql.id(`e_${admin.engineCode}`, 'oplog_kept');
      await sql`create table ${kept} as select * from ${oplog()} where seq = ${seq}`.execute(t.database.db);
      await sql`delete from ${oplog()} where seq = ${seq}`.execute(t.database.db);
      expect(await verify()).toMatchObject({ valid: false, broken: { seq, reason: 'removed' } });
      await sql`insert into ${oplog()} select * from ${kept}`.execute(t.database.db);
      await sql`drop table ${kept}`.execute(t.database.db);
      expect(await verify()).toMatchObject({ valid: true });
    };
    await removeAndCheck(entries[1].seq as number);
    await removeAndCheck(entries[0].seq as number);
  });

  it('removes entries past the retention and the chain check still holds', async () => {
    const all = (await list({ pageSize: '500' })).list;
    const keptFrom = all[2];
    // A year after the third newest entry: everything older goes, that one and the two after it stay.
    const now = new Date(new Date(keptFrom.time).getTime() + 365 * 86_400_000);
    const older = all.filter((e) => e.time < keptFrom.time).length;
    expect(older).toBeGreaterThan(0);
    expect(await removeExpiredOperations(t.database.db, admin.engineCode, new Date(now.getTime() - 365 * 86_400_000))).toBe(older);
    const left = await list({ pageSize: '500' });
    expect(left.total).toBe(all.length - older);
    expect(await verify()).toEqual({ valid: true, checked: left.total, broken: null });
    await a.post('/v1/org/department/create', { parentId: companyId, name: '留存后新建' });
    expect(await verify()).toMatchObject({ valid: true, checked: left.total + 1 });
    // The scheduler's sweep, two years on: nothing is left, and what comes next chains to the anchor.
    const swept = await oplogRetentionSweep().run(t.database.db, new Date(Date.now() + 2 * 365 * 86_400_000));
    expect(swept).toBeGreaterThanOrEqual(left.total + 1);
    expect((await list()).total).toBe(0);
    await a.post('/v1/org/department/create', { parentId: companyId, name: '清空后新建' });
    expect(await verify()).toEqual({ valid: true, checked: 1, broken: null });
  });
});
