import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { createForm, definition, engineSql, publish, saveDraft, tableRef } from '../../../test/form-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';
import { download, importFile, rowsOfXlsx, xlsxOf } from '../data-port/data-port.fixtures.ts';

// test-databases: both — every control type's column type (docs/testing.md "Runs on both databases").

// Field values on every entry point (docs/decisions/0029): items, users and departments that must exist, one date
// converter for /v1, the open API and import, unknown definition keys and incomplete controls. PGlite and PostgreSQL.

let t: TestApp, dataDir: string, admin: Person, a: OrgClient, appCode: string, secret: string;
let memberId: string, deptId: string, strangerId: string;

const FORM = definition([
  { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
  { type: 'dropDown', code: 'Level', options: { displayName: '客户等级', defaultItems: ['金', '银'] } },
  { type: 'radioList', code: 'Kind', options: { displayName: '类别', defaultItems: ['甲', '乙'] } },
  { type: 'checkboxList', code: 'Tags', options: { displayName: '标签', defaultItems: ['a', 'b'] } },
  { type: 'user', code: 'Who', options: { displayName: '负责人' } },
  { type: 'multiUser', code: 'Watchers', options: { displayName: '关注人' } },
  { type: 'department', code: 'Dept', options: { displayName: '所属部门' } },
  { type: 'dateTime', code: 'Day', options: { displayName: '日期' } },
  { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [{ type: 'radioList', code: 'Size', options: { displayName: '尺码', defaultItems: ['S', 'M'] } }] },
]);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-values-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app, { userName: '王管理' });
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  deptId = (await a.post('/v1/org/department/create', { parentId: await companyIdOf(t, admin.engineCode), name: '销售部' })).id;
  memberId = (await addMember(t, admin, { name: '李四', departmentIds: [deptId] })).userId;
  // A user of another engine: a real id, but not one of this engine's.
  const stranger = await registerPerson(t.app, { userName: '外人' });
  const rows = await sql<{ id: string }>`select id from ${sql.table(`e_${stranger.engineCode}.org_users`)} limit 1`.execute(t.database.db);
  strangerId = rows.rows[0]!.id;
  secret = (await issueSecret(a)).value;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function newForm(def: unknown = FORM): Promise<string> {
  const code = (await createForm(a, appCode)).code as string;
  await publish(a, code, def);
  return code;
}
const count = async (code: string) => (await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)}`))[0]!.n;
const save = (values: Record<string, unknown>, code: string, extra: Record<string, unknown> = {}) =>
  a.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values, ...extra });
const api = (payload: Record<string, unknown>) => invokeApi(t.app, admin.engineCode, secret, payload);

describe('values outside the items, users and departments that do not exist', () => {
  it('/v1 refuses each with a catalogue error naming the field, and writes nothing', async () => {
    const code = await newForm();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ Level: '钻石' }, 250100, '客户等级'],
      [{ Kind: '丙' }, 250100, '类别'],
      [{ Tags: ['a', 'z'] }, 250100, '标签'],
      [{ Who: 'no-such-user' }, 250101, '负责人'],
      [{ Who: strangerId }, 250101, '负责人'],
      [{ Watchers: [memberId, 'ghost'] }, 250101, '关注人'],
      [{ Dept: 'no-such-dept' }, 250102, '所属部门'],
      [{ Dept: memberId }, 250102, '所属部门'],
    ];
    for (const [values, errorCode, name] of cases) {
      const r = await save({ Title: 'x', ...values }, code);
      expect(r.body, JSON.stringify(values)).toMatchObject({ successful: false, errorCode });
      expect(r.body.errorMessage).toContain(name);
      expect(r.body.detail).toMatchObject({ field: Object.keys(values)[0], displayName: name });
    }
    const child = await save({ Title: 'x' }, code, { children: { Lines: [{ Size: 'S' }, { Size: 'XL' }] } });
    expect(child.body).toMatchObject({ errorCode: 250100, detail: { field: 'Size', displayName: '尺码' } });
    expect(child.body.detail.issues.map((i: { path: string }) => i.path)).toEqual(['children.Lines.1.Size']);
    expect(await count(code)).toBe(0);
    // Values that name what exists are saved.
    const ok = await save({ Title: 'ok', Level: '金', Tags: ['b'], Who: memberId, Watchers: [memberId], Dept: deptId }, code, { children: { Lines: [{ Size: 'M' }] } });
    expect(ok.body.successful).toBe(true);
    expect(await count(code)).toBe(1);
  });

  it('a value the record already holds passes after its item is removed; a new one does not', async () => {
    const code = await newForm();
    const saved = (await save({ Title: 'x', Level: '银' }, code)).body.data;
    await sql`update ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} set "Level" = '旧等级', "Who" = 'left-the-company' where "ObjectId" = ${saved.objectId}`.execute(t.database.db);
    const kept = await save({ Title: 'renamed', Level: '旧等级', Who: 'left-the-company' }, code, { objectId: saved.objectId });
    expect(kept.body.successful).toBe(true);
    const changed = await save({ Level: '另一个旧等级' }, code, { objectId: saved.objectId });
    expect(changed.body).toMatchObject({ successful: false, errorCode: 250100 });
  });

  it('the open API refuses them on CreateBizObject, UpdateBizObject and CreateBizObjects, writing nothing', async () => {
    const code = await newForm();
    const one = await api({ ActionName: 'CreateBizObject', SchemaCode: code, BizObject: JSON.stringify({ Title: 'x', Level: '钻石' }), IsSubmit: 'true' });
    expect(one.body).toMatchObject({ Successful: false, ErrorCode: 250100 });
    expect(one.body.ErrorMessage).toContain('客户等级');
    const many = await api({ ActionName: 'CreateBizObjects', SchemaCode: code, BizObjectArray: [JSON.stringify({ Title: 'a', Who: memberId }), JSON.stringify({ Title: 'b', Watchers: `${memberId};ghost` })], IsSubmit: 'true' });
    expect(many.body).toMatchObject({ Successful: false, ErrorCode: 250101 });
    expect(many.body.ErrorMessage).toContain('关注人');
    expect(await count(code)).toBe(0);
    const created = await api({ ActionName: 'CreateBizObject', SchemaCode: code, BizObject: JSON.stringify({ Title: 'x', Tags: 'a;b', Dept: deptId }), IsSubmit: 'true' });
    expect(created.body.Successful).toBe(true);
    const id = created.body.ReturnData.BizObjectId;
    const update = await api({ ActionName: 'UpdateBizObject', SchemaCode: code, BizObjectId: id, BizObject: JSON.stringify({ Tags: 'a;c', Dept: 'nowhere' }) });
    expect(update.body).toMatchObject({ Successful: false });
    expect([250100, 250102]).toContain(update.body.ErrorCode);
    const after = (await a.post('/v1/form/loaddata', { schemaCode: code, objectId: id })).values;
    expect(after).toMatchObject({ Tags: ['a', 'b'], Dept: deptId });
  });

  it('import rejects the row with the reason in the cell and keeps the good rows', async () => {
    const code = await newForm();
    const head = ['标题', '客户等级', '负责人', '明细.尺码'];
    const done = await importFile(t, a, admin, code, await xlsxOf([head, ['good', '金', '李四', 'S'], ['bad-level', '钻石', null, null], ['bad-user', null, '查无此人', null], ['bad-size', null, null, 'XL']]));
    expect(done).toMatchObject({ state: 'Finished', inserted: 1, rejected: 3 });
    const titles = await engineSql<{ Title: string }>(t, sql`select "Title" from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)}`);
    expect(titles.map((r) => r.Title)).toEqual(['good']);
  });
});

describe('one date converter for every entry point', () => {
  const FORMATS: [string, string][] = [
    ['2023-10-18', '2023-10-17T16:00:00.000Z'],
    ['2023-10-18 10:30', '2023-10-18T02:30:00.000Z'],
    ['2023-10-18 10:30:15', '2023-10-18T02:30:15.000Z'],
    ['2023-10-18T10:30:15+08:00', '2023-10-18T02:30:15.000Z'],
    ['2023-10-18T02:30:15Z', '2023-10-18T02:30:15.000Z'],
  ];

  it('stores the same moment through /v1, the open API and import', async () => {
    const code = await newForm();
    const stored = async (title: string) =>
      (await engineSql<{ Day: Date }>(t, sql`select "Day" from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} where "Title" = ${title}`))[0]?.Day?.toISOString();
    for (const [text, iso] of FORMATS) {
      const v1 = await save({ Title: `v1 ${text}`, Day: text }, code);
      expect(v1.body.successful, text).toBe(true);
      expect(await stored(`v1 ${text}`), text).toBe(iso);
      const open = await api({ ActionName: 'CreateBizObject', SchemaCode: code, BizObject: JSON.stringify({ Title: `api ${text}`, Day: text }), IsSubmit: 'false' });
      expect(open.body.Successful, text).toBe(true);
      expect(await stored(`api ${text}`), text).toBe(iso);
    }
    const done = await importFile(t, a, admin, code, await xlsxOf([['标题', '日期'], ...FORMATS.map(([text]) => [`xls ${text}`, text])]));
    expect(done).toMatchObject({ inserted: FORMATS.length, rejected: 0 });
    for (const [text, iso] of FORMATS) expect(await stored(`xls ${text}`), text).toBe(iso);
  });

  it('refuses the same unreadable date with the same message everywhere', async () => {
    const code = await newForm();
    const v1 = await save({ Title: 'x', Day: '2023-02-30' }, code);
    expect(v1.body.errorCode).toBe(777);
    const message = v1.body.detail.issues[0].message;
    // /v1 names the field by its display name (docs/decisions/0028), the open API by its place in the body.
    expect(message).toMatch(/^日期：日期格式无法识别/);
    const reason = message.replace(/^日期：/, '');
    const open = await api({ ActionName: 'CreateBizObject', SchemaCode: code, BizObject: JSON.stringify({ Title: 'x', Day: '2023-02-30' }), IsSubmit: 'false' });
    expect(open.body.Successful).toBe(false);
    expect(open.body.ErrorMessage).toContain(`BizObject.Day ${reason}`);
    expect(await count(code)).toBe(0);
  });
});

describe('numbers with more decimals than the field keeps', () => {
  const EXPENSE = definition([
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'number', code: 'Amount', options: { displayName: '金额' } },
    { type: 'number', code: 'Price', options: { displayName: '单价', decimalPlaces: 2 } },
    { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [{ type: 'number', code: 'Qty', options: { displayName: '数量' } }] },
  ]);
  const amounts = async (code: string) =>
    engineSql<{ Title: string; Amount: string | null; Price: string | null }>(t, sql`select "Title", "Amount", "Price" from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} order by "Title"`);

  it('/v1 refuses 2380.5 on a 0-decimals field by name, in the main table and a sub-table, and writes nothing', async () => {
    const code = await newForm(EXPENSE);
    const main = await save({ Title: 'x', Amount: 2380.5 }, code);
    expect(main.body).toMatchObject({ successful: false, errorCode: 777 });
    expect(main.body.detail.issues).toEqual([expect.objectContaining({ path: 'values.Amount', message: '金额：最多0位小数' })]);
    const text = await save({ Title: 'x', Amount: '99.75' }, code);
    expect(text.body.detail.issues[0]).toMatchObject({ path: 'values.Amount', message: '金额：最多0位小数' });
    const child = await save({ Title: 'x' }, code, { children: { Lines: [{ Qty: 1 }, { Qty: 2.5 }] } });
    expect(child.body.detail.issues).toEqual([expect.objectContaining({ path: 'children.Lines.1.Qty', message: '明细.数量：最多0位小数' })]);
    expect(await count(code)).toBe(0);
    // What fits is kept as sent: 2380.50 with 2 places, 2380 with none.
    const ok = await save({ Title: 'ok', Amount: 2380, Price: '2380.50' }, code, { children: { Lines: [{ Qty: 3 }] } });
    expect(ok.body.successful).toBe(true);
    expect((await amounts(code)).map((r) => [Number(r.Amount), Number(r.Price)])).toEqual([[2380, 2380.5]]);
  });

  it('the open API refuses it the same way', async () => {
    const code = await newForm(EXPENSE);
    const r = await api({ ActionName: 'CreateBizObject', SchemaCode: code, BizObject: JSON.stringify({ Title: 'x', Amount: '2380.5' }), IsSubmit: 'false' });
    expect(r.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect(r.body.ErrorMessage).toContain('最多0位小数');
    expect(await count(code)).toBe(0);
  });

  it('import reports the cell in the error report and rounds nothing', async () => {
    const code = await newForm(EXPENSE);
    const done = await importFile(t, a, admin, code, await xlsxOf([['标题', '金额', '单价'], ['bad', 2380.5, null], ['good', 2380, '2380.50'], ['bad-price', null, 12.345]]));
    expect(done).toMatchObject({ state: 'Finished', inserted: 1, rejected: 2, hasErrorReport: true });
    expect((await amounts(code)).map((r) => [r.Title, Number(r.Amount), Number(r.Price)])).toEqual([['good', 2380, 2380.5]]);
    const rows = await rowsOfXlsx(await download(t, a, done.taskId, 'ErrorReport'));
    const reasons = Object.fromEntries(rows.slice(1).map((r) => [String(r[0]), String(r[3])]));
    expect(reasons).toEqual({ bad: '金额：最多0位小数', 'bad-price': '单价：最多2位小数' });
  });
});

describe('form definitions', () => {
  it('refuses unknown keys with their path and keeps the draft as it was', async () => {
    const code = (await createForm(a, appCode)).code as string;
    const version = await saveDraft(a, code, definition([{ type: 'textBox', code: 'A' }]));
    const bad = await a.raw('POST', '/v1/formdesign/save', {
      schemaCode: code,
      baseVersion: version,
      definition: definition([
        { type: 'textBox', code: 'A', options: { title: '客户名称' } },
        { type: 'formula', code: 'B', options: { formula: '{A}' } } as never,
        { type: 'number', code: 'C', displayName: '数量' } as never,
      ]),
    });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 777 });
    const paths = bad.body.detail.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['definition.controls.0.options.title', 'definition.controls.1.options.formula']));
    expect(paths.some((p: string) => p.startsWith('definition.controls.2'))).toBe(true);
    const loaded = await a.post('/v1/formdesign/load', { schemaCode: code });
    expect(loaded.draft.version).toBe(version);
  });

  it('refuses to publish a formula without its expression, naming the control', async () => {
    const code = (await createForm(a, appCode)).code as string;
    const version = await saveDraft(a, code, definition([{ type: 'number', code: 'A' }, { type: 'formula', code: 'Total', options: { displayName: '合计' } }]));
    const r = await a.raw('POST', '/v1/formdesign/publish', { schemaCode: code, version });
    expect(r.body).toMatchObject({ successful: false, errorCode: 240100, detail: { field: 'Total', displayName: '合计', settings: ['expression'] } });
    expect(r.body.errorMessage).toContain('合计');
    expect((await a.post('/v1/formdesign/load', { schemaCode: code })).published).toBeNull();
  });
});
