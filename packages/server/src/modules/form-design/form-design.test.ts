import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, createApp, createRole, grant, nodeClient, uniqueCode, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, saveDraft, tablesLike } from '../../../test/form-helpers.ts';

// The designer's load and save, its checks, and who may use them (docs/decisions/0006).

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const newForm = async (overrides: Record<string, unknown> = {}) => (await createForm(a, appCode, overrides)).code as string;

describe('load and save', () => {
  it('creates the draft on first load, named after the node, and keeps it', async () => {
    const code = await newForm({ displayName: '采购订单' });
    const first = await a.post('/v1/formdesign/load', { schemaCode: code });
    expect(first).toMatchObject({ schemaCode: code, appCode, nodeType: 200, published: null, hasUnpublishedChanges: true, draft: { version: 1 } });
    expect(first.draft.definition).toEqual({
      attributes: expect.objectContaining({ displayName: '采购订单', nameSchema: '', isTreeStructure: false, enableDataLog: true, containerMode: 'Modal' }),
      controls: [],
    });
    expect(await a.post('/v1/formdesign/load', { schemaCode: code })).toEqual(first);
  });

  it('saves over the loaded version, fills defaults from the registry, and refuses a stale version', async () => {
    const code = await newForm();
    const v2 = await saveDraft(a, code, definition([{ type: 'number', code: 'Amount', options: { showMode: 'percentage' } }]));
    expect(v2).toBe(2);
    const loaded = await a.post('/v1/formdesign/load', { schemaCode: code });
    expect(loaded.draft.version).toBe(2);
    expect(loaded.draft.definition.controls[0]).toEqual({ type: 'number', code: 'Amount', options: expect.objectContaining({ displayName: '数值', decimalPlaces: 2, showMode: 'percentage', required: false }) });

    const stale = await a.raw('POST', '/v1/formdesign/save', { schemaCode: code, baseVersion: 1, definition: definition([]) });
    expect(stale.body).toMatchObject({ successful: false, errorCode: 240002, detail: { baseVersion: 1, currentVersion: 2 } });
    expect((await a.post('/v1/formdesign/load', { schemaCode: code })).draft).toEqual(loaded.draft);
  });

  it('refuses bad definitions with 777 naming the fields, and changes nothing', async () => {
    const code = await newForm();
    const version = await saveDraft(a, code, definition([{ type: 'textBox', code: 'Keep' }]));
    const before = await a.post('/v1/formdesign/load', { schemaCode: code });
    const map = (i: number) => ({ type: 'map', code: `Map${i}` });
    const cases: [string, unknown, string][] = [
      ['unknown type', definition([{ type: 'spreadsheet', code: 'A' }]), 'definition.controls.0.type'],
      ['all-digit code', definition([{ type: 'textBox', code: '123' }]), 'definition.controls.0.code'],
      ['code too long', definition([{ type: 'textBox', code: `C${'x'.repeat(63)}` }]), 'definition.controls.0.code'],
      ['duplicate code, other case', definition([{ type: 'textBox', code: 'Name1' }, { type: 'number', code: 'NAME1' }]), 'definition.controls.1.code'],
      ['duplicate inside a layout', definition([{ type: 'textBox', code: 'A' }, { type: 'layout', code: 'L', controls: [{ type: 'textBox', code: 'a' }] }]), 'definition.controls.1.controls.0.code'],
      ['eight maps', definition(Array.from({ length: 8 }, (_, i) => map(i))), 'definition.controls.7'],
      ['201 options', definition([{ type: 'dropDown', code: 'D', options: { defaultItems: Array.from({ length: 201 }, (_, i) => `选项${i}`) } }]), 'definition.controls.0.options.defaultItems'],
      ['two creators', definition([{ type: 'creator', code: 'CreatedBy' }, { type: 'creator', code: 'CreatedBy' }]), 'definition.controls.1'],
      ['sub-table in a sub-table', definition([{ type: 'gridView', code: 'G', controls: [{ type: 'gridView', code: 'H' }] }]), 'definition.controls.0.controls.0'],
      ['system field as a code', definition([{ type: 'textBox', code: 'status' }]), 'definition.controls.0.code'],
      ['sub-table row column as a code', definition([{ type: 'gridView', code: 'G', controls: [{ type: 'number', code: 'SortKey' }] }]), 'definition.controls.0.controls.0.code'],
      ['bad option', definition([{ type: 'number', code: 'N', options: { decimalPlaces: 99 } }]), 'definition.controls.0.options.decimalPlaces'],
      ['one-character form name', definition([], { displayName: '甲' }), 'definition.attributes.displayName'],
      ['unknown attribute', definition([], { colour: 'red' }), 'definition.attributes'],
    ];
    for (const [name, def, path] of cases) {
      const res = await a.raw('POST', '/v1/formdesign/save', { schemaCode: code, baseVersion: version, definition: def });
      expect(res.body, name).toMatchObject({ successful: false, errorCode: 777 });
      expect(res.body.detail.issues.map((i: { path: string }) => i.path), name).toContain(path);
    }
    for (const body of [{ schemaCode: code, definition: definition([]) }, { schemaCode: code, baseVersion: version, definition: definition([]), extra: 1 }, { schemaCode: '123', baseVersion: 1, definition: definition([]) }]) {
      expect((await a.raw('POST', '/v1/formdesign/save', body)).body).toMatchObject({ errorCode: 777 });
    }
    expect(await a.post('/v1/formdesign/load', { schemaCode: code })).toEqual(before);
  });

  it('accepts up to seven maps and 200 options', async () => {
    const code = await newForm();
    const def = definition([
      ...Array.from({ length: 7 }, (_, i) => ({ type: 'map', code: `Map${i}` })),
      { type: 'checkboxList', code: 'C', options: { defaultItems: Array.from({ length: 200 }, (_, i) => `选项${i}`) } },
    ]);
    expect(await saveDraft(a, code, def)).toBe(2);
  });
});

describe('API document', () => {
  it('lists the form calls', async () => {
    const paths = Object.keys((await call(t.app, 'GET', '/v1/openapi.json')).body.paths);
    for (const path of ['/v1/formdesign/load', '/v1/formdesign/publish', '/v1/formconfig/customindex/save', '/v1/schema', '/v1/form/loadsetting']) expect(paths).toContain(path);
  });
});

describe('designer checks', () => {
  it('checkcodeavailable: control codes of the draft, and new schema codes of the engine', async () => {
    const code = await newForm();
    await saveDraft(a, code, definition([{ type: 'textBox', code: 'Title' }, { type: 'gridView', code: 'Items', controls: [{ type: 'number', code: 'Qty' }] }]));
    const check = (body: Record<string, unknown>) => a.post('/v1/formdesign/checkcodeavailable', body);
    expect(await check({ schemaCode: code, code: 'Price' })).toEqual({ available: true });
    expect(await check({ schemaCode: code, code: 'title' })).toEqual({ available: false, reason: 'taken' });
    expect(await check({ schemaCode: code, code: 'QTY' })).toEqual({ available: false, reason: 'taken' });
    expect(await check({ schemaCode: code, code: 'ObjectId' })).toEqual({ available: false, reason: 'reserved' });
    expect(await check({ schemaCode: code, code: '99' })).toEqual({ available: false, reason: 'invalid' });
    expect(await check({ code: code.toUpperCase() })).toEqual({ available: false, reason: 'taken' });
    expect(await check({ code: uniqueCode('Free') })).toEqual({ available: true });
    expect(await check({ code: 'a-b' })).toEqual({ available: false, reason: 'invalid' });
  });

  it('checkreference: what in the draft mentions a control, with its kind', async () => {
    const code = await newForm();
    await saveDraft(a, code, definition(
      [
        { type: 'number', code: 'Price' },
        { type: 'number', code: 'Qty', options: { hideCondition: '{Price} > 100' } },
        { type: 'formula', code: 'Total', options: { displayName: '合计', expression: '{price}*{Qty}' } },
        { type: 'gridView', code: 'Items', controls: [{ type: 'number', code: 'LinePrice' }] },
        { type: 'rollup', code: 'Sum', options: { displayName: '汇总金额', sourceCode: 'Items', sourceField: 'LinePrice' } },
        { type: 'associationQuery', code: 'Parent', options: { schemaCode: code, associationFilter: '{Price} > 0' } },
        { type: 'associatedProperty', code: 'ParentName', options: { associationCode: 'Parent' } },
        { type: 'textBox', code: 'Copy', options: { dataLink: { schemaCode: code, conditions: [{ field: 'Price', sourceField: 'Price' }], resultField: 'Copy' } } },
        { type: 'number', code: 'Discount', options: { displayName: '折扣', defaultFormula: '{Qty} > 10' } },
      ],
      { nameSchema: '{Price}-{SeqNo}', isTreeStructure: true, treeStructureControlCode: 'Parent', submitRules: [{ condition: '{Qty} <= 0', action: 'error', message: '数量须大于0' }] },
    ));
    const refs = async (controlCode: string) => (await a.post('/v1/formdesign/checkreference', { schemaCode: code, controlCode })).references.map((r: { kind: string; name: string }) => [r.kind, r.name]);
    expect(await refs('Price')).toEqual([['other', '数据标题'], ['hideCondition', '数值'], ['formula', '合计'], ['associationFilter', '关联表单'], ['dataLinkage', '单行文本']]);
    expect(await refs('LinePrice')).toEqual([['rollup', '汇总金额']]);
    expect(await refs('Parent')).toEqual([['other', '树形结构'], ['other', '关联属性']]);
    expect(await refs('Total')).toEqual([]);
    // Submit rules and default-value formulas are dependants too.
    expect(await refs('Qty')).toEqual([['submitRule', '数量须大于0'], ['formula', '合计'], ['formula', '折扣']]);
  });

  it('incomplete: controls missing required settings, and the tree control', async () => {
    const code = await newForm();
    await saveDraft(a, code, definition(
      [
        { type: 'associationQuery', code: 'Customer' },
        { type: 'associationQuery', code: 'Done', options: { schemaCode: code } },
        { type: 'associatedProperty', code: 'Phone', options: { associationCode: 'Done' } },
        { type: 'formula', code: 'F' },
        { type: 'gridView', code: 'G', controls: [{ type: 'associationQueryMulti', code: 'Many' }] },
        { type: 'rollup', code: 'Count', options: { rollupType: 'count', sourceCode: 'G' } },
        { type: 'rollup', code: 'Sum', options: { sourceCode: 'G' } },
      ],
      { isTreeStructure: true },
    ));
    const result = await a.post('/v1/formdesign/incomplete', { schemaCode: code });
    expect(result.list.map((i: { code: string; missing: string[]; gridCode?: string }) => [i.code, i.missing, i.gridCode])).toEqual([
      ['Customer', ['schemaCode'], undefined],
      ['Phone', ['sourcePropertySchema'], undefined],
      ['F', ['expression'], undefined],
      ['Many', ['schemaCode'], 'G'],
      ['Sum', ['sourceField'], undefined],
    ]);
    expect(result.attributes).toEqual(['treeStructureControlCode']);
  });
});

describe('who may design', () => {
  let sub: InvitedMember;
  let member: InvitedMember;
  let roleSub: InvitedMember;
  let outsider: InvitedMember;
  let ownApp: string;
  let otherApp: string;
  let formA: string;
  let formB: string;
  beforeAll(async () => {
    ownApp = (await createApp(a)).code;
    otherApp = (await createApp(a)).code;
    formA = (await createForm(a, ownApp)).code;
    formB = (await createForm(a, otherApp)).code;
    await publish(a, formA, definition([{ type: 'textBox', code: 'Title' }]));
    await publish(a, formB, definition([{ type: 'textBox', code: 'Title' }]));
    sub = await addInvitedMember(t, admin, { name: '子管理员', authType: 2 });
    roleSub = await addInvitedMember(t, admin, { name: '角色子管理员', authType: 2 });
    member = await addInvitedMember(t, admin, { name: '成员' });
    outsider = await addInvitedMember(t, admin, { name: '无权成员' });
    await grant(a, ownApp, sub.userId, 'administrator');
    await grant(a, otherApp, sub.userId, 'access');
    await grant(a, ownApp, await createRole(t, admin, [roleSub.userId]), 'administrator');
    await grant(a, ownApp, member.userId, 'administrator'); // administrator granted to a non-sub-administrator: opens only
  });

  const designCalls = (schemaCode: string, version = 2): [string, unknown][] => [
    ['/v1/formdesign/load', { schemaCode }],
    ['/v1/formdesign/save', { schemaCode, baseVersion: version, definition: definition([]) }],
    ['/v1/formdesign/publish', { schemaCode, version }],
    ['/v1/formdesign/incomplete', { schemaCode }],
    ['/v1/formdesign/checkreference', { schemaCode, controlCode: 'Title' }],
    ['/v1/formdesign/checkcodeavailable', { schemaCode, code: 'X' }],
    ['/v1/formdesign/checktreestructure', { schemaCode }],
    ['/v1/formdesign/seqno/info', { schemaCode }],
    ['/v1/formconfig/customindex/list', { schemaCode }],
    ['/v1/formconfig/customindex/save', { schemaCode, fields: ['Title'] }],
  ];
  const snapshot = async () => engineSql(t, sql`select schema_code, draft_version, published_version from ${sql.id(`e_${admin.engineCode}`, 'form_schemas')} order by 1`);

  it('a member who may open the form but not administer its app is refused every designer call (403) and nothing changes', async () => {
    const before = await snapshot();
    for (const [url, body] of designCalls(formA)) {
      const res = await nodeClient(t.app, member).raw('POST', url, body);
      expect([url, res.status, res.body.errorCode]).toEqual([url, 403, 230005]);
    }
    expect(await snapshot()).toEqual(before);
    // Reading the published schema is theirs.
    expect((await nodeClient(t.app, member).get('/v1/schema', { schemaCode: formA })).schemaCode).toBe(formA);
  });

  it('a member without access gets 404 for every call, reads included', async () => {
    const o = nodeClient(t.app, outsider);
    for (const [url, body] of [...designCalls(formA), ['/v1/form/loadsetting', { schemaCode: formA }], ['/v1/formdesign/associationform/field', { schemaCode: formA }]] as [string, unknown][]) {
      const res = await o.raw('POST', url, body);
      expect([url, res.status, res.body.errorCode]).toEqual([url, 404, 230001]);
    }
    expect((await o.raw('GET', '/v1/schema', { schemaCode: formA })).status).toBe(404);
  });

  it('a sub-administrator designs the forms of their apps only (directly or through a role)', async () => {
    for (const p of [sub, roleSub]) {
      const s = nodeClient(t.app, p);
      const loaded = await s.post('/v1/formdesign/load', { schemaCode: formA });
      const saved = await s.post('/v1/formdesign/save', { schemaCode: formA, baseVersion: loaded.draft.version, definition: definition([{ type: 'textBox', code: 'Title' }, { type: 'number', code: `N${p.userId.slice(-4)}` }]) });
      expect((await s.post('/v1/formdesign/publish', { schemaCode: formA, version: saved.version })).applied).toBe(true);
    }
    const s = nodeClient(t.app, sub);
    expect((await s.raw('POST', '/v1/formdesign/load', { schemaCode: formB })).body).toMatchObject({ errorCode: 230005 });
    expect((await nodeClient(t.app, roleSub).raw('POST', '/v1/formdesign/load', { schemaCode: formB })).body).toMatchObject({ errorCode: 230001 });
  });

  it("another engine's form is not found, even with the same code; no token is 401", async () => {
    const other = await registerPerson(t.app, { engineName: '别家公司' });
    const o = nodeClient(t.app, other);
    const res = await o.raw('POST', '/v1/formdesign/load', { schemaCode: formA });
    expect([res.status, res.body.errorCode]).toEqual([404, 230001]);
    // The same code in the other engine is a different form with its own table.
    const theirApp = (await createApp(o)).code;
    await createForm(o, theirApp, { code: formA });
    await publish(o, formA, definition([{ type: 'dateTime', code: 'When' }]));
    expect(await tablesLike(t, other.engineCode, `i_${formA.toLowerCase()}`)).toEqual([`i_${formA.toLowerCase()}`]);
    expect((await a.get('/v1/schema', { schemaCode: formA })).properties.map((p: { name: string }) => p.name)).not.toContain('When');
    expect((await call(t.app, 'POST', '/v1/formdesign/load', { body: { schemaCode: formA } })).status).toBe(401);
  });
});
