import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { CONTROL_TYPES, controlFromInput, controlMissingSettings, controlStorage } from '@tritium/shared/controls/index';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';

// test-databases: both — the records' SQL: typed columns, locks, sequence numbers (docs/testing.md "Runs on both databases").

// The form runtime and business data (docs/decisions/0007) on PGlite and PostgreSQL: values checked by the registry,
// system fields and sequence numbers filled by the server, NoRepeat, sub-tables saved with their parent, status
// transitions, and who may read and change which record.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
let adminId: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const ORDER = definition(
  [
    { type: 'textBox', code: 'Title', options: { required: true, defaultValue: '新订单' } },
    { type: 'textBox', code: 'Code', options: { noRepeat: true, noRepeatTipMessage: '订单编号已存在' } },
    { type: 'textArea', code: 'Remark' },
    { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
    { type: 'dateTime', code: 'DueDate', options: { defaultValue: 'now' } },
    { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['a', 'b'] } },
    { type: 'user', code: 'Buyer', options: { defaultValue: 'currentUser' } },
    { type: 'seqNo', code: 'SeqNo', options: { seqNoStructure: [{ type: 'fixedValue', value: 'SO' }, { type: 'createdTime', format: 'yyyymm' }, { type: 'increment', digits: 4 }], resetMode: 'month' } },
    { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName', options: { required: true } }, { type: 'number', code: 'Qty' }] },
  ],
  { nameSchema: '{Title}-{SeqNo}' },
);

async function newPublishedForm(def: unknown = ORDER, nodeType: number = FunctionNodeType.FormModule): Promise<string> {
  const code = (await createForm(a, appCode, {}, nodeType)).code as string;
  await publish(a, code, def);
  return code;
}

const exec = (c: OrgClient, body: Record<string, unknown>) => c.raw('POST', '/v1/form/action/execute', body);
const load = (c: OrgClient, body: Record<string, unknown>) => c.raw('POST', '/v1/form/loaddata', body);
const mainRows = async (schemaCode: string) => {
  const rows = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, `i_${schemaCode.toLowerCase()}`)}`);
  return rows[0].n;
};

describe('loaddata and save', () => {
  it('answers the defaults of a new record, then saves Draft, submits Effective and reads it back with system fields', async () => {
    const code = await newPublishedForm();
    const fresh = await a.post('/v1/form/loaddata', { schemaCode: code });
    adminId = fresh.system.CreatedBy;
    expect(fresh.isNew).toBe(true);
    expect(fresh.actions).toEqual(['Save', 'Submit', 'Close']);
    expect(fresh.values.Title).toBe('新订单');
    expect(fresh.values.Buyer).toBe(adminId);
    expect(Date.parse(fresh.values.DueDate)).toBeGreaterThan(Date.now() - 60_000);
    expect(fresh.children).toEqual({ Items: [] });
    expect(fresh.system.OwnerDeptId).toBeTruthy();

    const saved = await a.post('/v1/form/action/execute', {
      schemaCode: code, actionCode: 'Save',
      values: { Title: '订单甲', Amount: 12.35, Tags: ['a'] },
      children: { Items: [{ ItemName: '螺丝', Qty: 3 }, { ItemName: '螺母', Qty: 5 }] },
    });
    expect(saved.status).toBe(0);
    expect(saved.seqNo).toMatch(/^SO\d{6}0001$/);
    expect(saved.name).toBe(`订单甲-${saved.seqNo}`);
    expect(saved.objectId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);

    const read = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(read.values).toMatchObject({ Title: '订单甲', Amount: 12.35, Tags: ['a'], Buyer: adminId, Code: '' });
    expect(read.children.Items.map((r: any) => [r.ItemName, r.Qty])).toEqual([['螺丝', 3], ['螺母', 5]]);
    expect(read.system).toMatchObject({ Status: 0, CreatedBy: adminId, ModifiedBy: adminId, OwnerId: adminId, SeqNo: saved.seqNo });
    expect(read.actions).toEqual(['Save', 'Submit', 'Remove', 'Copy', 'Print', 'Close']);

    const submitted = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', objectId: saved.objectId, values: { Remark: '加急' } });
    expect(submitted).toMatchObject({ status: 1, seqNo: saved.seqNo });
    const again = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(again.values.Remark).toBe('加急');
    expect(again.children.Items).toHaveLength(2);
    expect(again.actions).toEqual(['Save', 'Remove', 'Copy', 'Print', 'Close']);
    // Effective stays Effective on Save (it never goes back to Draft).
    expect((await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: {} })).status).toBe(1);
  });

  it('refuses a missing required field, a text box over 200 and a text area over 2000 characters', async () => {
    const code = await newPublishedForm();
    const r = await exec(a, { schemaCode: code, actionCode: 'Save', values: { Title: '', Code: 'x'.repeat(201), Remark: 'y'.repeat(2001) } });
    expect(r.body.errorCode).toBe(777);
    expect(r.body.detail.issues.map((i: any) => i.path).sort()).toEqual(['values.Code', 'values.Remark', 'values.Title']);
    expect((await exec(a, { schemaCode: code, actionCode: 'Save', values: { Nope: 1 } })).body.detail.issues[0].path).toBe('values.Nope');
    expect(await mainRows(code)).toBe(0);
  });

  it('refuses a bad value of every data control type with 777 naming the field, and saves nothing', async () => {
    const candidates: unknown[] = [{ bad: true }, 12345, 'not-valid', [1, 2], true, 'x'.repeat(3000)];
    const controls: { type: string; code: string }[] = [];
    const samples = new Map<string, unknown>();
    for (const type of CONTROL_TYPES) {
      const { column } = controlStorage(type, type.options.parse({}));
      // Controls that cannot be published without settings (a formula's expression, an association's form) are left out.
      if (!column || 'childTable' in column || column.systemField || !type.value || controlMissingSettings(type, type.options.parse({})).length) continue;
      const bad = candidates.find((c) => !type.value!.safeParse(controlFromInput(type, c)).success);
      if (bad === undefined) continue; // z.json() types (dynamic, plugin) accept any JSON value
      const code = `F_${type.key}`;
      controls.push({ type: type.key, code });
      samples.set(code, bad);
    }
    expect(controls.length).toBeGreaterThan(20);
    const code = await newPublishedForm(definition(controls));
    for (const [field, bad] of samples) {
      const r = await exec(a, { schemaCode: code, actionCode: 'Submit', values: { [field]: bad } });
      expect(r.body.errorCode, field).toBe(777);
      expect(r.body.detail.issues.map((i: any) => i.path), field).toContain(`values.${field}`);
    }
    expect(await mainRows(code)).toBe(0);
  });
});

describe('sequence numbers, NoRepeat and sub-tables', () => {
  it('gives 100 parallel creates 100 distinct sequence numbers', async () => {
    const code = await newPublishedForm();
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: `单${i}` } })));
    const numbers = new Set(results.map((r) => r.seqNo));
    expect(numbers.size).toBe(100);
    expect(await mainRows(code)).toBe(100);
    const tails = results.map((r) => Number(String(r.seqNo).slice(-4))).sort((x, y) => x - y);
    expect(tails).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('refuses a repeated NoRepeat value with its message, also under concurrency; the record itself may keep its value', async () => {
    const code = await newPublishedForm();
    const first = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: 'a', Code: 'SO-1' } });
    const dup = await exec(a, { schemaCode: code, actionCode: 'Save', values: { Title: 'b', Code: 'SO-1' } });
    expect(dup.body).toMatchObject({ successful: false, errorCode: 250004, errorMessage: '订单编号已存在' });
    expect(dup.body.detail.field).toBe('Code');
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: first.objectId, values: { Code: 'SO-1', Title: 'a2' } });
    const racing = await Promise.all(Array.from({ length: 10 }, () => exec(a, { schemaCode: code, actionCode: 'Submit', values: { Title: 'r', Code: 'SO-RACE' } })));
    expect(racing.filter((r) => r.body.successful)).toHaveLength(1);
    expect(racing.filter((r) => r.body.errorCode === 250004)).toHaveLength(9);
  });

  it('saves sub-table rows with their parent or not at all', async () => {
    const code = await newPublishedForm();
    const bad = await exec(a, { schemaCode: code, actionCode: 'Save', values: { Title: 'x' }, children: { Items: [{ ItemName: 'ok', Qty: 1 }, { ItemName: 'bad', Qty: 'many' }] } });
    expect(bad.body.errorCode).toBe(777);
    expect(bad.body.detail.issues.map((i: any) => i.path)).toEqual(['children.Items.1.Qty']);
    expect(await mainRows(code)).toBe(0);
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: 'x' }, children: { Items: [{ ItemName: 'one', Qty: 1 }] } });
    const kept = (await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId })).children.Items;
    const missing = await exec(a, { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: { Title: 'changed' }, children: { Items: [{ Qty: 2 }] } });
    expect(missing.body.detail.issues.map((i: any) => i.path)).toEqual(['children.Items.0.ItemName']);
    const after = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId });
    expect(after.values.Title).toBe('x');
    expect(after.children.Items).toEqual(kept);
    // A row sent back with its ObjectId keeps it; the list replaces the saved rows.
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: {}, children: { Items: [{ ItemName: 'new', Qty: 9 }, { ...kept[0], Qty: 7 }] } });
    const replaced = (await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId })).children.Items;
    expect(replaced.map((r: any) => [r.ItemName, r.Qty])).toEqual([['new', 9], ['one', 7]]);
    expect(replaced[1].ObjectId).toBe(kept[0].ObjectId);
  });
});

describe('actions and statuses', () => {
  it('removes and copies records; a copy is a new Draft with a new number', async () => {
    const code = await newPublishedForm();
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '原件' }, children: { Items: [{ ItemName: 'i', Qty: 1 }] } });
    const copy = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Copy', objectId: saved.objectId });
    expect(copy).toMatchObject({ status: 0, copiedFrom: saved.objectId });
    expect(copy.seqNo).not.toBe(saved.seqNo);
    const copied = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: copy.objectId });
    expect(copied.values.Title).toBe('原件');
    expect(copied.children.Items[0].ItemName).toBe('i');
    expect(await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Remove', objectId: saved.objectId })).toMatchObject({ removed: true });
    expect((await load(a, { schemaCode: code, objectId: saved.objectId })).status).toBe(404);
    expect((await exec(a, { schemaCode: code, actionCode: 'Remove' })).body.errorCode).toBe(777);
  });

  it('Submit on a workflow form needs its published flow (280003, nothing saved); Save makes a Draft there', async () => {
    const code = await newPublishedForm(definition([{ type: 'textBox', code: 'Title' }]), FunctionNodeType.WorkflowModule);
    const fresh = await a.post('/v1/form/loaddata', { schemaCode: code });
    expect([fresh.actions, fresh.isWorkflow]).toEqual([['Save', 'Submit', 'Close'], true]);
    expect((await exec(a, { schemaCode: code, actionCode: 'Submit', values: { Title: 'x' } })).body.errorCode).toBe(280003);
    expect((await a.post('/v1/bizdata/query', { schemaCode: code })).total).toBe(0);
    expect((await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: 'x' } })).status).toBe(0);
  });

  it('keeps exactly one record in a singleton module', async () => {
    const code = await newPublishedForm(definition([{ type: 'textBox', code: 'Title' }]), FunctionNodeType.SingletonModule);
    const results = await Promise.all([1, 2, 3].map((i) => exec(a, { schemaCode: code, actionCode: 'Submit', values: { Title: `s${i}` } })));
    expect(results.filter((r) => r.body.successful)).toHaveLength(1);
    expect(results.filter((r) => r.body.errorCode === 250006)).toHaveLength(2);
    const loaded = await a.post('/v1/form/loaddata', { schemaCode: code });
    expect(loaded.isNew).toBe(false);
    expect(loaded.actions).not.toContain('Copy');
  });

  it('refuses changes to a Canceled record but lets it be removed', async () => {
    const code = await newPublishedForm();
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: 'c' } });
    await engineSql(t, sql`update ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} set "Status" = 3`);
    expect((await exec(a, { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: {} })).body.errorCode).toBe(250002);
    expect((await a.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId })).actions).toEqual(['Remove', 'Copy', 'Print', 'Close']);
  });
});

describe('authorisation', () => {
  it('hides the form from a member without access (404), lets an access member read and create but change only their own records', async () => {
    const code = await newPublishedForm();
    const record = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: 'admin' } });
    const member = await addMember(t, admin);
    const m = nodeClient(t.app, member);
    for (const [url, body] of [
      ['/v1/form/loaddata', { schemaCode: code, objectId: record.objectId }],
      ['/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10 }],
      ['/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: 'm' } }],
    ] as const) {
      const r = await m.raw('POST', url, body);
      expect(r.status, url).toBe(404);
      expect(r.body.errorCode).toBe(230001);
    }
    await grant(a, code, member.userId, 'access');
    const read = await m.post('/v1/form/loaddata', { schemaCode: code, objectId: record.objectId });
    expect(read.actions).toEqual(['Copy', 'Print', 'Close']);
    const edit = await exec(m, { schemaCode: code, actionCode: 'Save', objectId: record.objectId, values: { Title: 'hacked' } });
    expect(edit.status).toBe(403);
    expect(edit.body.errorCode).toBe(250003);
    expect((await exec(m, { schemaCode: code, actionCode: 'Remove', objectId: record.objectId })).body.errorCode).toBe(250003);
    const own = await m.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: 'mine' } });
    expect((await m.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', objectId: own.objectId, values: { Title: 'mine2' } })).status).toBe(1);
    // The app administrator changes anyone's record.
    expect((await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: own.objectId, values: { Title: 'by admin' } })).status).toBe(1);
  });

  it("never finds another engine's record", async () => {
    const code = await newPublishedForm();
    const record = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: 'secret' } });
    const stranger = nodeClient(t.app, await registerPerson(t.app));
    for (const body of [{ schemaCode: code, objectId: record.objectId }]) expect((await load(stranger, body)).status).toBe(404);
    expect((await stranger.raw('POST', '/v1/bizdata/byids', { schemaCode: code, objectIds: [record.objectId] })).status).toBe(404);
  });
});

describe('bizdata queries and the data log', () => {
  it('pages, filters and sorts records in SQL; reads one property and records by ids', async () => {
    const code = await newPublishedForm();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: i % 2 ? 'Save' : 'Submit', values: { Title: `t${i}`, Amount: i } })).objectId);
    const page0 = await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 5, sort: [{ field: 'Amount', direction: 'desc' }] });
    expect(page0.list.map((r: any) => r.Amount)).toEqual([6, 5, 4, 3, 2]);
    expect(page0).toMatchObject({ total: 7, hasMore: true });
    const page1 = await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 1, pageSize: 5, sort: [{ field: 'Amount', direction: 'desc' }] });
    expect(page1.list.map((r: any) => r.Amount)).toEqual([1, 0]);
    expect(page1.hasMore).toBe(false);
    const drafts = await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10, status: [0] });
    expect(drafts.total).toBe(3);
    const byTitle = await a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10, filters: [{ field: 'Title', value: 't4' }] });
    expect(byTitle.list.map((r: any) => r.ObjectId)).toEqual([ids[4]]);
    expect((await a.raw('POST', '/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10, filters: [{ field: 'Tags', value: 'a' }] })).body.errorCode).toBe(777);
    expect(await a.post('/v1/bizdata/property/value', { schemaCode: code, objectId: ids[2], propertyCode: 'Amount' })).toEqual({ value: 2 });
    expect((await a.post('/v1/bizdata/property/value', { schemaCode: code, objectId: ids[2], propertyCode: 'Status' })).value).toBe(1);
    expect((await a.raw('POST', '/v1/bizdata/property/value', { schemaCode: code, objectId: ids[2], propertyCode: 'Nope' })).body.errorCode).toBe(250007);
    const byIds = await a.post('/v1/bizdata/byids', { schemaCode: code, objectIds: [ids[3], ids[1], '01900000-0000-7000-8000-000000000000'] });
    expect(byIds.list.map((r: any) => r.Title)).toEqual(['t3', 't1']);
    expect((await a.raw('POST', '/v1/bizdata/byids', { schemaCode: code, objectIds: Array.from({ length: 501 }, () => ids[0]) })).body.errorCode).toBe(777);
  });

  it('logs every save that changes values, newest first, and none when the log is off', async () => {
    const code = await newPublishedForm();
    const saved = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: 'v1', Amount: 1 } });
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: { Title: 'v2', Amount: 1 } });
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: saved.objectId, values: { Title: 'v2' } });
    const log = await a.post('/v1/form/datalog/list', { schemaCode: code, objectId: saved.objectId });
    expect(log.list).toHaveLength(2);
    expect(log.list[0].changes).toEqual([{ code: 'Title', from: 'v1', to: 'v2' }]);
    expect(log.list[1].changes).toEqual(expect.arrayContaining([{ code: 'Title', from: null, to: 'v1' }, { code: 'Amount', from: null, to: 1 }]));
    expect(log.list[0].userId).toBe(saved && log.list[1].userId);

    const quiet = await newPublishedForm(definition([{ type: 'textBox', code: 'Title' }], { enableDataLog: false }));
    const q = await a.post('/v1/form/action/execute', { schemaCode: quiet, actionCode: 'Save', values: { Title: 'x' } });
    expect((await a.post('/v1/form/datalog/list', { schemaCode: quiet, objectId: q.objectId })).list).toEqual([]);
  });
});
