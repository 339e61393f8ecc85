import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { TREE_LIMIT_MESSAGE } from '@tritium/shared/constants/limits';
import { type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, indexesOf, publish, saveDraft, tableRef } from '../../../test/form-helpers.ts';

// Reading the published schema, association fields, tree checks, custom indexes and sequence numbers
// (calls.md §3, §7; docs/decisions/0006).

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const q = (query: ReturnType<typeof sql>) => engineSql(t, query);
const ref = (table: string) => tableRef(admin.engineCode, table);
const newForm = async (nodeType: number = FunctionNodeType.FormModule) => (await createForm(a, appCode, { displayName: '订单' }, nodeType)).code as string;

describe('GET /v1/schema and POST /v1/form/loadsetting', () => {
  it('answers the published schema in the spec shape: properties with extensions, default fields, child schemas', async () => {
    const code = await newForm();
    expect((await a.raw('GET', '/v1/schema', { schemaCode: code })).body).toMatchObject({ successful: false, errorCode: 240004 });
    await publish(a, code, definition([
      { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
      { type: 'dateTime', code: 'Due', options: { displayFormat: 'yyyy-mm-dd' } },
      { type: 'number', code: 'Rate', options: { showMode: 'percentage' } },
      { type: 'formula', code: 'Total', options: { bindType: 'Decimal', expression: '{Rate}*2' } },
      { type: 'associationQuery', code: 'Self', options: { schemaCode: code } },
      { type: 'associatedProperty', code: 'Phone', options: { associationCode: 'Self', sourcePropertySchema: { schemaCode: code, propertyCode: 'Title', controlType: 'textBox' } } },
      { type: 'creator', code: 'CreatedBy', options: { displayName: '录入人' } },
      { type: 'description', code: 'Intro' },
      { type: 'gridView', code: 'Items', options: { displayName: '明细' }, controls: [{ type: 'number', code: 'Qty' }] },
    ]));
    const schema = await a.get('/v1/schema', { schemaCode: code });
    expect(schema).toMatchObject({ schemaCode: code, appCode, displayName: '客户信息', nodeType: 200, version: 2 });
    const byName = Object.fromEntries(schema.properties.map((p: { name: string }) => [p.name, p]));
    expect(schema.properties.map((p: { name: string }) => p.name)).toEqual(['Name', 'Title', 'Due', 'Rate', 'Total', 'Self', 'Phone', 'CreatedBy', 'Status', 'ModifiedBy', 'SeqNo', 'OwnerId', 'OwnerDeptId', 'CreatedTime', 'ModifiedTime']);
    expect(byName.Title).toEqual({ name: 'Title', controlType: 1, typeKey: 'textBox', displayName: '标题', extension: {}, isSystem: false });
    expect(byName.Due.extension).toEqual({ displayFormat: 'yyyy-mm-dd' });
    expect(byName.Rate.extension).toEqual({ decimalPlaces: 2, showMode: 'percentage' });
    expect(byName.Total.extension).toMatchObject({ bindType: 'decimal', decimalPlaces: 0, showMode: 'normal' });
    expect(byName.Phone.extension).toEqual({ sourcePropertySchema: { schemaCode: code, propertyCode: 'Title', controlType: 'textBox' } });
    expect(byName.CreatedBy).toMatchObject({ controlType: 202, displayName: '录入人', isSystem: true });
    expect(byName.Status).toMatchObject({ controlType: 1201, displayName: '数据状态', isSystem: true });
    expect(byName.SeqNo).toMatchObject({ controlType: 201, displayName: '流水号' });
    expect(schema.childSchemas).toEqual([{ schemaCode: 'Items', displayName: '明细', properties: [expect.objectContaining({ name: 'Qty', controlType: 4, extension: { decimalPlaces: 0, showMode: 'normal' } })] }]);

    const workflow = await newForm(FunctionNodeType.WorkflowModule);
    await publish(a, workflow, definition([{ type: 'status', code: 'Status' }]));
    const wf = await a.get('/v1/schema', { schemaCode: workflow });
    expect(wf.properties.filter((p: { name: string }) => p.name === 'Status')).toEqual([expect.objectContaining({ displayName: '流程状态', controlType: 1201 })]);
  });

  it('loadsetting answers the schema with its publish time, and only notModified when the client holds that time', async () => {
    const code = await newForm();
    await publish(a, code, definition([{ type: 'textBox', code: 'A' }]));
    const first = await a.post('/v1/form/loadsetting', { schemaCode: code });
    expect(first).toMatchObject({ notModified: false, timestamp: expect.any(Number), schema: { schemaCode: code } });
    expect(await a.post('/v1/form/loadsetting', { schemaCode: code, timestamp: first.timestamp })).toEqual({ notModified: true, timestamp: first.timestamp });
    // Saving a draft does not change what is published.
    await saveDraft(a, code, definition([{ type: 'textBox', code: 'A' }, { type: 'number', code: 'B' }]));
    expect((await a.post('/v1/form/loadsetting', { schemaCode: code, timestamp: first.timestamp })).notModified).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const loaded = await a.post('/v1/formdesign/load', { schemaCode: code });
    await a.post('/v1/formdesign/publish', { schemaCode: code, version: loaded.draft.version });
    const next = await a.post('/v1/form/loadsetting', { schemaCode: code, timestamp: first.timestamp });
    expect(next.notModified).toBe(false);
    expect(next.timestamp).toBeGreaterThan(first.timestamp);
    expect(next.schema.properties.map((p: { name: string }) => p.name)).toContain('B');
  });

  it('associationform/field lists the published stored fields of another form to whoever may open it', async () => {
    const target = await newForm();
    expect((await a.raw('POST', '/v1/formdesign/associationform/field', { schemaCode: target })).body).toMatchObject({ errorCode: 240004 });
    await publish(a, target, definition([
      { type: 'textBox', code: 'Title' },
      { type: 'associationQuery', code: 'Self', options: { schemaCode: target } },
      { type: 'associatedProperty', code: 'Looked', options: { associationCode: 'Self', sourcePropertySchema: { schemaCode: target, propertyCode: 'Title', controlType: 'textBox' } } },
      { type: 'gridView', code: 'Items', controls: [{ type: 'number', code: 'Qty' }] },
    ]));
    const result = await a.post('/v1/formdesign/associationform/field', { schemaCode: target });
    expect(result.fields.map((f: { code: string }) => f.code)).toEqual(['Name', 'Title', 'Self', 'Status', 'ModifiedBy', 'SeqNo', 'CreatedBy', 'OwnerId', 'OwnerDeptId', 'CreatedTime', 'ModifiedTime']);
    expect(result.fields[1]).toEqual({ code: 'Title', displayName: '单行文本', controlType: 1, typeKey: 'textBox', dataType: 'string', isSystem: false });
    expect(result.childSchemas).toEqual([{ code: 'Items', displayName: '子表', fields: [expect.objectContaining({ code: 'Qty', dataType: 'decimal' })] }]);
    const member = await addMember(t, admin);
    expect((await nodeClient(t.app, member).raw('POST', '/v1/formdesign/associationform/field', { schemaCode: target })).status).toBe(404);
    await grant(a, target, member.userId, 'access');
    expect((await nodeClient(t.app, member).post('/v1/formdesign/associationform/field', { schemaCode: target })).schemaCode).toBe(target);
  });
});

describe('checktreestructure', () => {
  type TreeControl = { type: string; code: string; options?: { schemaCode?: string } };
  const treeForm = async (treeControl: TreeControl | null, attributes: Record<string, unknown> = {}) => {
    const code = await newForm();
    // Only associations have a target form (an unknown setting is refused, docs/decisions/0029).
    const options = treeControl?.type.startsWith('association') ? { schemaCode: treeControl.options?.schemaCode ?? code } : {};
    const controls = [{ type: 'textBox', code: 'Title' }, ...(treeControl ? [{ ...treeControl, options }] : [])];
    await publish(a, code, definition(controls, { isTreeStructure: true, treeStructureControlCode: 'Parent', ...attributes }));
    return code;
  };
  const check = (schemaCode: string) => a.post('/v1/formdesign/checktreestructure', { schemaCode });

  it('refuses a missing control, a control of another type, and an association to another form', async () => {
    expect(await check(await treeForm(null, { treeStructureControlCode: '' }))).toMatchObject({ valid: false, problem: 'noControl' });
    expect(await check(await treeForm({ type: 'textBox', code: 'Parent' }))).toMatchObject({ valid: false, problem: 'notAssociation' });
    expect(await check(await treeForm({ type: 'associationQueryMulti', code: 'Parent' }))).toMatchObject({ valid: false, problem: 'notAssociation' });
    const other = await newForm();
    expect(await check(await treeForm({ type: 'associationQuery', code: 'Parent', options: { schemaCode: other } }))).toMatchObject({ valid: false, problem: 'otherForm' });
  });

  it('counts levels and records of the published rows, and finds cycles', async () => {
    const code = await treeForm({ type: 'associationQuery', code: 'Parent' });
    const table = `i_${code.toLowerCase()}`;
    expect(await check(code)).toEqual({ valid: true, records: 0, levels: 0 });
    // A chain of 10 levels under one root, and a second root.
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const [row] = await q(sql`insert into ${ref(table)} ("Title", "Parent") values (${`L${i}`}, ${ids[i - 1] ?? null}) returning "ObjectId"::text as id`);
      ids.push(row.id as string);
    }
    await q(sql`insert into ${ref(table)} ("Title") values ('root2')`);
    expect(await check(code)).toEqual({ valid: true, records: 11, levels: 10 });
    await q(sql`insert into ${ref(table)} ("Title", "Parent") values ('L10', ${ids[9]})`);
    expect(await check(code)).toEqual({ valid: false, problem: 'tooDeep', message: TREE_LIMIT_MESSAGE, records: 12, levels: 11 });
    await q(sql`delete from ${ref(table)} where "Title" = 'L10'`);
    // Two rows pointing at each other are never reached from a root.
    const [x] = await q(sql`insert into ${ref(table)} ("Title") values ('x') returning "ObjectId"::text as id`);
    const [y] = await q(sql`insert into ${ref(table)} ("Title", "Parent") values ('y', ${x.id}) returning "ObjectId"::text as id`);
    await q(sql`update ${ref(table)} set "Parent" = ${y.id} where "ObjectId"::text = ${x.id}`);
    expect(await check(code)).toMatchObject({ valid: false, problem: 'cycle', records: 13 });
  });

  it('refuses more than 10,000 records with the spec message', async () => {
    const code = await treeForm({ type: 'associationQuery', code: 'Parent' });
    await q(sql`insert into ${ref(`i_${code.toLowerCase()}`)} ("Title") select 'r' || g from generate_series(1, 10001) g`);
    expect(await check(code)).toEqual({ valid: false, problem: 'tooManyRecords', message: TREE_LIMIT_MESSAGE, records: 10001, levels: 0 });
  });
});

describe('custom indexes', () => {
  const list = (schemaCode: string) => a.post('/v1/formconfig/customindex/list', { schemaCode });
  const save = (body: Record<string, unknown>) => a.raw('POST', '/v1/formconfig/customindex/save', body);
  const indexNames = async (table: string) => Object.keys(await indexesOf(t, admin.engineCode, table)).filter((n) => n.startsWith('xc_')).sort();

  it('creates real indexes on published columns, up to 5 of up to 5 fields, and removes them', async () => {
    const code = await newForm();
    const table = `i_${code.toLowerCase()}`;
    expect((await save({ schemaCode: code, fields: ['A'] })).body).toMatchObject({ errorCode: 240004 });
    const fields = ['A', 'B', 'C', 'D', 'E', 'F'];
    await publish(a, code, definition([...fields.map((f) => ({ type: 'textBox', code: f })), { type: 'map', code: 'Place' }, { type: 'gridView', code: 'G', controls: [{ type: 'number', code: 'Q' }] }]));

    const first = (await save({ schemaCode: code, fields: ['a', 'CreatedTime'] })).body.data;
    expect(first).toMatchObject({ indexName: expect.stringMatching(/^xc_/), fields: ['A', 'CreatedTime'] });
    expect((await indexesOf(t, admin.engineCode, table))[first.indexName]).toMatch(/\("A", "CreatedTime"\)/);
    // The same fields give the same index: refused as a duplicate.
    expect((await save({ schemaCode: code, fields: ['A', 'CreatedTime'] })).body).toMatchObject({ errorCode: 240008 });
    for (const [bad, error] of [[['Nope'], 240007], [['Place'], 240007], [['Q'], 240007], [fields, 777], [[], 777], [['A', 'a'], 777]] as const) {
      expect((await save({ schemaCode: code, fields: bad })).body.errorCode, JSON.stringify(bad)).toBe(error);
    }
    for (const f of ['B', 'C', 'D', 'E']) await save({ schemaCode: code, fields: [f] });
    expect((await list(code)).list).toHaveLength(5);
    expect((await save({ schemaCode: code, fields: ['F'] })).body).toMatchObject({ errorCode: 240006 });
    expect(await indexNames(table)).toHaveLength(5);

    // Replacing one keeps the count; removing drops the real index.
    const replaced = (await save({ schemaCode: code, fields: ['F', 'A'], indexName: first.indexName })).body.data;
    expect((await list(code)).list.map((i: { fields: string[] }) => i.fields)).toEqual([['B'], ['C'], ['D'], ['E'], ['F', 'A']]);
    expect(await indexNames(table)).not.toContain(first.indexName);
    expect(await a.post('/v1/formconfig/customindex/remove', { schemaCode: code, indexName: replaced.indexName })).toEqual({ removed: true });
    expect(await indexNames(table)).not.toContain(replaced.indexName);
    expect((await a.raw('POST', '/v1/formconfig/customindex/remove', { schemaCode: code, indexName: replaced.indexName })).body).toMatchObject({ errorCode: 240009 });
    expect((await list(code)).list).toHaveLength(4);
  });

  it('an index goes with a column publishing drops, is renamed with it, and shows in checkreference', async () => {
    const code = await newForm();
    const table = `i_${code.toLowerCase()}`;
    await publish(a, code, definition([{ type: 'textBox', code: 'keep' }, { type: 'textBox', code: 'Gone' }]));
    const kept = (await save({ schemaCode: code, fields: ['keep'] })).body.data;
    const gone = (await save({ schemaCode: code, fields: ['Gone', 'keep'] })).body.data;
    const refs = await a.post('/v1/formdesign/checkreference', { schemaCode: code, controlCode: 'Gone' });
    expect(refs.references).toEqual([{ kind: 'index', schemaCode: code, name: gone.indexName, detail: 'Gone,keep' }]);
    const result = await publish(a, code, definition([{ type: 'textBox', code: 'Keep' }]));
    expect(result.changes.map((c: { kind: string }) => c.kind)).toEqual(['dropColumn', 'renameColumn', 'dropIndex']);
    expect((await list(code)).list).toEqual([{ indexName: kept.indexName, fields: ['Keep'], createdTime: kept.createdTime }]);
    expect(await indexNames(table)).toEqual([kept.indexName]);
  });

  it('only administrators of the app manage indexes', async () => {
    const code = await newForm();
    await publish(a, code, definition([{ type: 'textBox', code: 'A' }]));
    const member = await addMember(t, admin);
    await grant(a, appCode, member.userId, 'access');
    const m = nodeClient(t.app, member);
    expect((await m.raw('POST', '/v1/formconfig/customindex/save', { schemaCode: code, fields: ['A'] })).body).toMatchObject({ errorCode: 230005 });
    expect((await list(code)).list).toEqual([]);
  });
});

describe('sequence numbers', () => {
  it('shows the counters of the form and resets them', async () => {
    const code = await newForm();
    expect(await a.post('/v1/formdesign/seqno/info', { schemaCode: code })).toEqual({ list: [], control: null });
    await publish(a, code, definition([{ type: 'seqNo', code: 'SeqNo', options: { resetMode: 'year' } }]));
    await q(sql`insert into ${sql.id(`e_${admin.engineCode}`, 'form_seq_no')} (schema_code, control_code, period, value) values (${code}, 'SeqNo', '2025', 41), (${code}, 'SeqNo', '2026', 7)`);
    expect(await a.post('/v1/formdesign/seqno/info', { schemaCode: code })).toEqual({
      list: [{ controlCode: 'SeqNo', period: '2025', value: 41 }, { controlCode: 'SeqNo', period: '2026', value: 7 }],
      control: { code: 'SeqNo', resetMode: 'year' },
    });
    expect((await a.raw('POST', '/v1/formdesign/seqno/reset', { schemaCode: code, controlCode: 'Other' })).body).toMatchObject({ errorCode: 240010 });
    expect(await a.post('/v1/formdesign/seqno/reset', { schemaCode: code, controlCode: 'SeqNo' })).toEqual({ removed: 2 });
    expect((await a.post('/v1/formdesign/seqno/info', { schemaCode: code })).list).toEqual([]);
  });
});
