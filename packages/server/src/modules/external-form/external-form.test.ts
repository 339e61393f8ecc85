// test-databases: both — the submission cap is a conditional counter update raced by parallel visitors
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Public fill-in links (issue 19, ExternalForm; docs/decisions/0043) through the calls: a visitor without an account
// sees the simple fields behind the password, submits as the link's owner, up to the cap (held under parallel
// submissions); a new address revokes the old one at once; unknown fields and another engine's address are refused.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let owner: Awaited<ReturnType<typeof addMember>>;
beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode, { displayName: '活动报名' })).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Name1', options: { displayName: '姓名', required: true } },
    { type: 'number', code: 'People', options: { displayName: '人数' } },
    { type: 'dropDown', code: 'Session', options: { displayName: '场次', defaultItems: ['上午', '下午'] } },
    { type: 'user', code: 'Contact', options: { displayName: '对接人' } },
  ]));
  owner = await addMember(t, admin, { name: '报名管理员' });
  await grant(a, appCode, owner.userId, 'create');
});
afterAll(() => t.close());

const visit = (engineCode: string, token: string, password?: string) =>
  call(t.app, 'GET', '/v1/external/form', { query: { engineCode, token }, headers: password ? { 'x-link-password': password } : {} });
const submit = (engineCode: string, token: string, values: Record<string, unknown>, password?: string) =>
  call(t.app, 'POST', '/v1/external/form/submit', { body: { engineCode, token, values, ...(password ? { password } : {}) } });
const tokenOf = (path: string) => path.split('/').at(-1)!;
const records = async () => (await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 50 })).list as Record<string, unknown>[];

describe('public fill-in links', () => {
  it('ask for the password, show the simple fields, store submissions as the owner up to the cap, and stop at a new address', async () => {
    const { link } = await a.post('/v1/form/externalform/save', { schemaCode: code, enabled: true, password: 'open-sesame', maxSubmissions: 2, ownerId: owner.userId });
    expect(link).toMatchObject({ enabled: true, hasPassword: true, maxSubmissions: 2, submissions: 0, ownerName: '报名管理员' });
    const token = tokenOf(link.path);
    expect(link.path).toBe(`/external/form/${admin.engineCode}/${token}`);

    const locked = await visit(admin.engineCode, token);
    expect(locked.body.data).toEqual({ displayName: expect.any(String), needsPassword: true, fields: [] });
    const open = (await visit(admin.engineCode, token, 'open-sesame')).body.data;
    expect(open.fields.map((f: { code: string; type: string; required: boolean; options: { defaultItems?: string[] } }) => [f.code, f.type, f.required, f.options.defaultItems ?? null])).toEqual([
      ['Name1', 'textBox', true, null],
      ['People', 'number', false, null],
      ['Session', 'dropDown', false, ['上午', '下午']],
    ]);

    expect((await submit(admin.engineCode, token, { Name1: '张' }, 'wrong')).body.errorCode).toBe(330103);
    const sneaky = await submit(admin.engineCode, token, { Name1: '张', Contact: admin.engineCode }, 'open-sesame');
    expect(sneaky.body.errorCode).toBe(777);
    expect(sneaky.body.detail.issues[0].path).toBe('values.Contact');
    expect((await submit(admin.engineCode, token, { People: 2 }, 'open-sesame')).body.errorCode).toBe(777);
    for (const who of ['王一', '王二']) expect((await submit(admin.engineCode, token, { Name1: who, People: 1, Session: '上午' }, 'open-sesame')).body.data.submitted).toBe(true);
    expect((await submit(admin.engineCode, token, { Name1: '王三' }, 'open-sesame')).body.errorCode).toBe(330102);
    const stored = await records();
    expect(stored.map((r) => [r.Name1, r.OwnerId, r.Status]).sort()).toEqual([['王一', owner.userId, 1], ['王二', owner.userId, 1]]);
    expect((await a.post('/v1/form/externalform/get', { schemaCode: code })).link.submissions).toBe(2);

    // A new address: the old one is refused at once; another engine's code with the right token finds nothing.
    const renewed = (await a.post('/v1/form/externalform/reset', { schemaCode: code })).link;
    expect((await visit(admin.engineCode, token, 'open-sesame')).body.errorCode).toBe(330101);
    expect((await visit('nosuchengine', tokenOf(renewed.path), 'open-sesame')).body.errorCode).toBe(330101);
    // Only the app's administrators set links.
    const member = nodeClient(t.app, owner);
    expect((await member.raw('POST', '/v1/form/externalform/get', { schemaCode: code })).status).toBeGreaterThanOrEqual(400);
  });

  it('holds the cap under parallel submissions: one place, ten visitors, one record', async () => {
    const form = (await createForm(a, appCode, { displayName: '抢位' })).code as string;
    await publish(a, form, definition([{ type: 'textBox', code: 'Who' }]));
    const { link } = await a.post('/v1/form/externalform/save', { schemaCode: form, enabled: true, maxSubmissions: 1, ownerId: owner.userId });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(admin.engineCode, tokenOf(link.path), { Who: `访客${i}` })));
    expect(answers.filter((r) => r.body.successful)).toHaveLength(1);
    expect(answers.filter((r) => r.body.errorCode === 330102)).toHaveLength(9);
    expect((await a.post('/v1/bizdata/query', { schemaCode: form, pageIndex: 0, pageSize: 50 })).list).toHaveLength(1);
    // Switched off: refused as unknown.
    await a.post('/v1/form/externalform/save', { schemaCode: form, enabled: false, ownerId: owner.userId });
    expect((await visit(admin.engineCode, tokenOf(link.path))).body.errorCode).toBe(330101);
  });
});
