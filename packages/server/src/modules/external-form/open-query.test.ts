// test-databases: pglite — open queries are plain reads through the query engine; nothing here differs between the databases
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXED_CODE, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Open-query pages (issue 19, OpenQuery) through the calls: the administrator picks query and result fields and the
// access; a visitor without an account finds records only by the exact values of every query field, sees only the
// result fields the page owner may see; password and identity (mobile + code, matched against the record) hold; a new
// address refuses the old; bad settings and other engines are refused.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let owner: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Student', options: { displayName: '姓名' } },
    { type: 'textBox', code: 'ExamNo', options: { displayName: '准考证号' } },
    { type: 'textBox', code: 'Mobile', options: { displayName: '手机号' } },
    { type: 'number', code: 'Score', options: { displayName: '成绩' } },
    { type: 'textArea', code: 'Remark', options: { displayName: '阅卷备注' } },
  ], { displayName: '考试成绩' }));
  for (const [Student, ExamNo, Mobile, Score] of [['林一', 'A001', '13800000001', 92], ['周二', 'A002', '13800000002', 78], ['林一', 'B001', '13800000003', 60]] as const) {
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Student, ExamNo, Mobile, Score, Remark: '内部' } });
  }
  owner = await addMember(t, admin, { name: '教务' });
  await grant(a, appCode, owner.userId, 'access');
  // The owner reads every record but not the remarks.
  await a.post('/v1/form/permission/group/save', { schemaCode: code, group: { name: '教务', members: { users: [owner.userId] }, actions: ['view'], viewScope: 'all', editScope: 'own', fieldRights: { Remark: 'hidden' } } });
});
afterAll(() => t.close());

const settings = (more: Record<string, unknown>) => ({ schemaCode: code, enabled: true, access: 'public', queryFields: ['Student', 'ExamNo'], resultFields: ['Student', 'Score', 'Remark'], ownerId: owner.userId, ...more });
const tokenOf = (path: string) => path.split('/').at(-1)!;
const page = (token: string, password?: string, engineCode = admin.engineCode) => call(t.app, 'GET', '/v1/external/query', { query: { engineCode, token }, headers: password ? { 'x-link-password': password } : {} });
const search = (token: string, values: Record<string, string>, more: Record<string, unknown> = {}) => call(t.app, 'POST', '/v1/external/query', { body: { engineCode: admin.engineCode, token, values, ...more } });

describe('open-query pages', () => {
  it('answer exact matches of every query field with the result fields the owner may see', async () => {
    const { query } = await a.post('/v1/form/openquery/save', settings({}));
    expect(query).toMatchObject({ access: 'public', hasPassword: false, ownerName: '教务' });
    const token = tokenOf(query.path);
    expect((await page(token)).body.data).toEqual({ displayName: '考试成绩', access: 'public', needsPassword: false, queryFields: [{ code: 'Student', displayName: '姓名' }, { code: 'ExamNo', displayName: '准考证号' }] });
    const found = (await search(token, { Student: '林一', ExamNo: 'A001' })).body.data;
    expect(found).toEqual({ columns: [{ code: 'Student', displayName: '姓名' }, { code: 'Score', displayName: '成绩' }], rows: [['林一', '92']] });
    expect((await search(token, { Student: '林', ExamNo: 'A001' })).body.data.rows).toEqual([]);
    expect((await search(token, { Student: '林一' })).body.errorCode).toBe(330106);
    expect((await search(token, { Student: '林一', ExamNo: '' })).body.errorCode).toBe(330106);

    const next = (await a.post('/v1/form/openquery/reset', { schemaCode: code })).query;
    expect((await search(token, { Student: '林一', ExamNo: 'A001' })).body.errorCode).toBe(330101);
    expect((await search(tokenOf(next.path), { Student: '林一', ExamNo: 'A001' })).body.data.rows).toHaveLength(1);
  });

  it('ask for the password', async () => {
    const { query } = await a.post('/v1/form/openquery/save', settings({ access: 'password', password: 'exam-2026' }));
    const token = tokenOf(query.path);
    expect((await page(token)).body.data).toMatchObject({ needsPassword: true, queryFields: [] });
    expect((await page(token, 'exam-2026')).body.data.needsPassword).toBe(false);
    expect((await search(token, { Student: '周二', ExamNo: 'A002' })).body.errorCode).toBe(330103);
    expect((await search(token, { Student: '周二', ExamNo: 'A002' }, { password: 'exam-2026' })).body.data.rows).toEqual([['周二', '78']]);
  });

  it('by identity find only the records of the proved mobile, one query a code', async () => {
    const { query } = await a.post('/v1/form/openquery/save', settings({ access: 'identity', mobileField: 'Mobile', queryFields: ['Student'] }));
    const token = tokenOf(query.path);
    const sent = await call(t.app, 'POST', '/v1/external/query/code', { body: { engineCode: admin.engineCode, token, mobile: '13800000003' } });
    expect(sent.body.successful).toBe(true);
    expect((await search(token, { Student: '林一' }, { mobile: '13800000003' })).body.errorCode).toBe(330106);
    const mine = (await search(token, { Student: '林一' }, { mobile: '13800000003', code: FIXED_CODE })).body.data;
    expect(mine.rows).toEqual([['林一', '60']]);
    expect((await search(token, { Student: '林一' }, { mobile: '13800000003', code: FIXED_CODE })).body.errorCode).toBe(201101);
  });

  it('refuse bad settings, members who do not administer the app, bad input and other engines', async () => {
    const refused = [
      settings({ queryFields: ['Remarkx'] }),
      settings({ queryFields: ['Remark'] }),
      settings({ resultFields: ['Nope'] }),
      settings({ access: 'identity', mobileField: null }),
      settings({ access: 'identity', mobileField: 'Score' }),
      settings({ access: 'secret' }),
      settings({ queryFields: [] }),
      settings({ ownerId: 'nobody' }),
    ];
    for (const body of refused) expect((await a.raw('POST', '/v1/form/openquery/save', body)).body.errorCode, JSON.stringify(body)).toBe(777);
    expect((await nodeClient(t.app, owner).raw('POST', '/v1/form/openquery/save', settings({}))).body.successful).toBe(false);

    const { query } = await a.post('/v1/form/openquery/save', settings({ access: 'public', password: null }));
    const token = tokenOf(query.path);
    for (const values of [{ Student: '\u0000', ExamNo: 'A001' }, { Student: 'x'.repeat(201), ExamNo: 'A001' }]) {
      const r = await search(token, values);
      expect(r.status).toBeLessThan(500);
      expect(r.body.successful).toBe(false);
    }
    const other = await registerPerson(t.app);
    expect((await page(token, undefined, other.engineCode)).body.errorCode).toBe(330101);
    await a.post('/v1/form/openquery/save', settings({ enabled: false }));
    expect((await page(token)).body.errorCode).toBe(330101);
  });
});
