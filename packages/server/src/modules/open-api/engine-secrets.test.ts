import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// Engine secrets (docs/decisions/0021) on PGlite and PostgreSQL: Administrators issue, list (masked) and revoke them;
// members cannot; Invoke refuses a wrong, revoked or other engine's secret, and a secret whose issuer is no longer
// an Administrator.

let t: TestApp, admin: Person, a: OrgClient, code: string;

beforeAll(async () => {
  let appCode: string;
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([{ type: 'textBox', code: 'Title' }]));
});
afterAll(() => t.close());

const load = (schemaCode: string) => ({ ActionName: 'LoadBizObjects', SchemaCode: schemaCode, Filter: '{"FromRowNum":0,"ToRowNum":10,"RequireCount":true}' });

describe('engine secrets in the admin console', () => {
  it('shows a new secret once, lists it masked and stores only its hash', async () => {
    const created = await a.post('/v1/engine/secret/create', { name: 'ERP 对接' });
    expect(created.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(created.secret.masked).toBe(`${created.value.slice(0, 4)}…${created.value.slice(-4)}`);
    const listed = await a.get('/v1/engine/secret/list');
    expect(listed.engineCode).toBe(admin.engineCode);
    const row = listed.list.find((s: { id: string }) => s.id === created.secret.id);
    expect(row).toMatchObject({ name: 'ERP 对接', createdByName: '张三', revokedTime: null, lastUsedTime: null });
    expect(JSON.stringify(listed)).not.toContain(created.value);
    const stored = await t.database.db.selectFrom(`e_${admin.engineCode}.engine_secrets` as 'platform.accounts').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(created.value);

    const used = await invokeApi(t.app, admin.engineCode, created.value, load(code));
    expect(used.body).toMatchObject({ Successful: true, ErrorMessage: null, ReturnData: { BizObjectArray: [], TotalCount: 0 } });
    const after = (await a.get('/v1/engine/secret/list')).list.find((s: { id: string }) => s.id === created.secret.id);
    expect(after.lastUsedTime).not.toBeNull();
  });

  it('refuses a missing, wrong or revoked secret and another engine\'s code', async () => {
    const secret = await issueSecret(a);
    const other = await registerPerson(t.app, { engineName: '另一家公司' });
    const otherSecret = await issueSecret(nodeClient(t.app, other));
    const refused = [
      await invokeApi(t.app, admin.engineCode, undefined, load(code)),
      await invokeApi(t.app, undefined, secret.value, load(code)),
      await invokeApi(t.app, admin.engineCode, `${secret.value}x`, load(code)),
      await invokeApi(t.app, admin.engineCode, otherSecret.value, load(code)),
      await invokeApi(t.app, other.engineCode, secret.value, load(code)),
      await invokeApi(t.app, 'nosuchengine', secret.value, load(code)),
    ];
    for (const r of refused) {
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ Successful: false, ErrorCode: 320001, ReturnData: null, Logined: false });
    }
    // The other engine's own secret works there, and its form codes are not ours.
    const theirs = await invokeApi(t.app, other.engineCode, otherSecret.value, load(code));
    expect(theirs.body).toMatchObject({ Successful: false, ErrorCode: 230001 });

    expect((await invokeApi(t.app, admin.engineCode, secret.value, load(code))).body.Successful).toBe(true);
    const revoked = await a.post('/v1/engine/secret/revoke', { id: secret.id });
    expect(revoked.revokedTime).not.toBeNull();
    expect((await invokeApi(t.app, admin.engineCode, secret.value, load(code))).body).toMatchObject({ Successful: false, ErrorCode: 320001 });
    const again = await a.raw('POST', '/v1/engine/secret/revoke', { id: secret.id });
    expect(again.body).toMatchObject({ successful: false, errorCode: 320005 });
  });

  it('is for Administrators only, and a secret stops when its issuer is no longer one', async () => {
    const member = await addMember(t, admin, { name: '普通成员' });
    const m = nodeClient(t.app, member);
    for (const [method, url, body] of [['GET', '/v1/engine/secret/list', undefined], ['POST', '/v1/engine/secret/create', { name: 'x' }], ['POST', '/v1/engine/secret/revoke', { id: '0190f3a0-0000-7000-8000-000000000000' }]] as const) {
      const res = await m.raw(method, url, body);
      expect(res.status).toBe(403);
    }
    const second = await addMember(t, admin, { name: '第二管理员', authType: 1 });
    const s = nodeClient(t.app, second);
    const secret = await issueSecret(s);
    expect((await invokeApi(t.app, admin.engineCode, secret.value, load(code))).body.Successful).toBe(true);
    await t.database.db.updateTable(`e_${admin.engineCode}.org_users` as 'platform.accounts').set({ auth_type: 2 } as never).where('id', '=', second.userId).execute();
    expect((await invokeApi(t.app, admin.engineCode, secret.value, load(code))).body).toMatchObject({ Successful: false, ErrorCode: 320001 });
  });

  it('keeps at most 10 active secrets and checks the name', async () => {
    const list = (await a.get('/v1/engine/secret/list')).list.filter((s: { revokedTime: string | null }) => !s.revokedTime);
    for (let i = list.length; i < 10; i++) await issueSecret(a, `第${i}个`);
    const over = await a.raw('POST', '/v1/engine/secret/create', { name: '第十一个' });
    expect(over.body).toMatchObject({ successful: false, errorCode: 320006 });
    const blank = await a.raw('POST', '/v1/engine/secret/create', { name: '  ' });
    expect(blank.body).toMatchObject({ successful: false, errorCode: 777 });
  });
});
