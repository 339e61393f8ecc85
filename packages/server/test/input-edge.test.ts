import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, type TestApp } from './helpers.ts';
import type { OrgClient, Person } from './node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from './form-helpers.ts';
import { invokeApi, issueSecret } from './open-api-helpers.ts';
import { companyIdOf } from './org-helpers.ts';

// The input edge (docs/decisions/0028) on PGlite and PostgreSQL: text the database refuses (U+0000, an unpaired
// surrogate) is a 777 naming the field wherever it is sent — record values, filters, org names, the open API's
// string-encoded BizObject and Filter — and so are over-deep bodies; an over-large body is a 413. Nothing is written.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, schemaCode: string, secret: string;
beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  schemaCode = (await createForm(a, appCode)).code as string;
  await publish(a, schemaCode, definition([{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Amount' }, { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }] }]));
  secret = (await issueSecret(a)).value;
});
afterAll(() => t.close());

const NUL = 'a\u0000b';
const SURROGATE = 'a\ud800b';
const rows = async () => (await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, `i_${schemaCode.toLowerCase()}`)}`))[0]!.n;
const departments = async () => (await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'org_units')}`))[0]!.n;
const paths = (body: { detail?: { issues?: { path: string }[] } }) => (body.detail?.issues ?? []).map((i) => i.path);

describe('text the database refuses', () => {
  it.each([
    ['NUL', NUL, '不能包含空字符（U+0000）'],
    ['unpaired surrogate', SURROGATE, '含有无效的 Unicode 字符（不成对的代理项）'],
  ])('a %s in a record field, a sub-table cell or a filter value is a 777 naming the field; nothing is saved', async (_name, bad, message) => {
    const before = await rows();
    const saved = await a.raw('POST', '/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Title: bad } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ successful: false, errorCode: 777, detail: { issues: [{ path: 'values.Title', message }] } });
    const child = await a.raw('POST', '/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Title: 'ok' }, children: { Items: [{ ItemName: bad }] } });
    expect(paths(child.body)).toEqual(['children.Items.0.ItemName']);
    const key = await a.raw('POST', '/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { [`Ti${bad}tle`]: 'x' } });
    expect(key.body.errorCode).toBe(777);
    expect(await rows()).toBe(before);

    const filtered = await a.raw('POST', '/v1/bizdata/query', { schemaCode, filter: { field: 'Title', operator: 'eq', value: bad } });
    expect(filtered.status).toBe(200);
    expect(filtered.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'filter.value', message }] } });
  });

  it('a NUL in a department name, a search keyword or a path parameter is a 777, not a server error', async () => {
    const before = await departments();
    const parentId = await companyIdOf(t, admin.engineCode);
    const created = await a.raw('POST', '/v1/org/department/create', { parentId, name: `销售${NUL}` });
    expect(created.body).toMatchObject({ successful: false, errorCode: 777, detail: { issues: [{ path: 'name' }] } });
    expect(await departments()).toBe(before);
    const searched = await call(t.app, 'POST', '/v1/org/search', { token: admin.token, engineCode: admin.engineCode, body: { keyword: `张${NUL}` } });
    expect(searched.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'keyword' }] } });
    for (const url of ['/v1/org/role/list', '/v1/org/post/list']) {
      const searched = await call(t.app, 'GET', url, { token: admin.token, engineCode: admin.engineCode, query: { keyword: NUL } });
      expect(searched.status, url).toBe(200);
      expect(paths(searched.body), url).toContain('keyword');
    }
    const app = await call(t.app, 'POST', '/v1/functionnode', { token: admin.token, engineCode: admin.engineCode, body: { nodeType: 0, code: 'App2', displayName: `应用${SURROGATE}` } });
    expect(app.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'displayName' }] } });
    const param = await call(t.app, 'GET', `/v2/dataPort/getExportColumns/${schemaCode}/a%00b`, { token: admin.token, engineCode: admin.engineCode });
    expect(param.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'viewCode' }] } });
  });

  it('the open API refuses a NUL inside a string-encoded BizObject or Filter with 777 and the field path, JSON or form-encoded', async () => {
    const before = await rows();
    const created = await invokeApi(t.app, admin.engineCode, secret, { ActionName: 'CreateBizObject', SchemaCode: schemaCode, BizObject: JSON.stringify({ Title: NUL }), IsSubmit: 'true' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect(created.body.ErrorMessage).toContain('BizObject.Title');
    const asObject = await invokeApi(t.app, admin.engineCode, secret, { ActionName: 'CreateBizObject', SchemaCode: schemaCode, BizObject: { Title: SURROGATE } });
    expect(asObject.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    const filter = JSON.stringify({ Matcher: { Type: 'And', Matchers: [{ Type: 'Item', Name: 'Title', Operator: 2, Value: NUL }] } });
    const loaded = await invokeApi(t.app, admin.engineCode, secret, { ActionName: 'LoadBizObjects', SchemaCode: schemaCode, Filter: filter });
    expect(loaded.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect(loaded.body.ErrorMessage).toContain('Filter.Matcher.Matchers.0.Value');
    const form = await t.app.inject({
      method: 'POST', url: '/OpenApi/Invoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded', EngineCode: admin.engineCode, EngineSecret: secret },
      payload: `ActionName=CreateBizObject&SchemaCode=${schemaCode}&BizObject=${encodeURIComponent(JSON.stringify({ Title: NUL }))}`,
    });
    expect(form.statusCode).toBeLessThan(500);
    expect(form.json()).toMatchObject({ Successful: false });
    expect(await rows()).toBe(before);
  });

  it('the legacy PostData JSON is searched too', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/Home/OnAction',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode },
      payload: `PostData=${encodeURIComponent(JSON.stringify({ ActionName: 'LoadWorkItems', SchemaCode: NUL }))}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'PostData.SchemaCode' }] } });
  });
});

describe('size and depth', () => {
  it('a 1 MB string where a field allows less is a 777 naming that field', async () => {
    const res = await a.raw('POST', '/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Title: 'x'.repeat(1024 * 1024) } });
    expect(res.status).toBe(200);
    expect(paths(res.body)).toEqual(['values.Title']);
  });

  it('a body over the server limit is a 413 with the catalogue answer', async () => {
    const res = await call(t.app, 'POST', '/v1/form/action/execute', { token: admin.token, engineCode: admin.engineCode, body: { schemaCode, values: { Title: 'x'.repeat(3 * 1024 * 1024) } } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ successful: false, errorCode: 100413 });
    const invoked = await invokeApi(t.app, admin.engineCode, secret, { ActionName: 'CreateBizObject', SchemaCode: schemaCode, BizObject: JSON.stringify({ Title: 'x'.repeat(3 * 1024 * 1024) }) });
    expect(invoked.status).toBe(413);
    expect(invoked.body).toMatchObject({ Successful: false, ErrorCode: 100413 });
  });

  it('a body nested 10,000 levels deep is a 777 naming the top field, for a route and for the open API', async () => {
    const deep = `{"schemaCode":"${schemaCode}","values":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await t.app.inject({ method: 'POST', url: '/v1/form/action/execute', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode }, payload: deep });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'values', message: '嵌套层级过深（最多64层）' }] } });
    const inString = await invokeApi(t.app, admin.engineCode, secret, { ActionName: 'CreateBizObject', SchemaCode: schemaCode, BizObject: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}` });
    expect(inString.body).toMatchObject({ Successful: false, ErrorCode: 777 });
  });
});
