import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';

// test-databases: pglite — workbooks filled in memory; the rows are plain.

// Excel print templates (issue 24; docs/decisions/0050): the administrator uploads a workbook with `{Field}`
// placeholders and a `{Grid.Column}` row marker (at most 20 a form); printing fills it with a record — the marked row
// repeated per sub-table row, the rows below moved down — under the printer's rights.

let t: TestApp, admin: Person, a: OrgClient, code: string, objectId: string, viewer: OrgClient, reader: OrgClient;

async function upload(who: { token: string; engineCode: string }, bytes: Buffer): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/file/upload', query: { scene: 'gridImportFile', fileName: 'tpl.xlsx' }, headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' }, payload: bytes });
  return res.json().data.fileId;
}

async function templateBook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('送货单');
  sheet.addRow(['送货单', '', '{SeqNo}']);
  sheet.addRow(['收货单位', '{Customer}', '金额：{Amount}']);
  sheet.addRow(['货品', '数量']);
  sheet.addRow(['{Goods.Item}', '{Goods.Qty}']);
  sheet.getRow(4).font = { bold: true };
  sheet.addRow(['签收人：', '', '{CreatedBy}']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const rowsOf = async (bytes: Buffer) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return { rows: out, bold: wb.worksheets[0]!.getRow(5).font?.bold };
};

beforeAll(async () => {
  let appCode: string;
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Customer', options: { displayName: '收货单位' } },
    { type: 'number', code: 'Amount', options: { displayName: '金额' } },
    { type: 'gridView', code: 'Goods', controls: [{ type: 'textBox', code: 'Item' }, { type: 'number', code: 'Qty' }] },
  ]));
  objectId = (await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Customer: '青松建材', Amount: 120 }, children: { Goods: [{ Item: '松木板', Qty: 12 }, { Item: '螺丝', Qty: 300 }, { Item: '胶水', Qty: 2 }] } })).objectId;
  const printer = await addMember(t, admin, { name: '打印员' });
  const other = await addMember(t, admin, { name: '只读员' });
  for (const m of [printer, other]) await grant(a, appCode, m.userId, 'access');
  await a.post('/v1/form/permission/group/save', { schemaCode: code, group: { name: '打印', members: { users: [printer.userId] }, actions: ['view', 'print'], viewScope: 'all', editScope: 'own', fieldRights: { Amount: 'hidden' } } });
  await a.post('/v1/form/permission/group/save', { schemaCode: code, group: { name: '只读', members: { users: [other.userId] }, actions: ['view'], viewScope: 'all', editScope: 'own', fieldRights: {} } });
  viewer = nodeClient(t.app, printer);
  reader = nodeClient(t.app, other);
});
afterAll(() => t.close());

describe('Excel print templates', () => {
  it('fill placeholders, repeat the marked row per sub-table row, and leave hidden fields empty', async () => {
    const saved = await a.post('/v1/toolkit/print/excel/save', { schemaCode: code, name: '送货单', fileId: await upload(admin, await templateBook()) });
    expect((await viewer.get('/v1/toolkit/print/excel/list', { schemaCode: code })).list.map((x: { name: string }) => x.name)).toEqual(['送货单']);
    const res = await t.app.inject({ method: 'POST', url: '/v1/toolkit/print/excel/fill', headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode }, payload: { templateId: saved.templateId, objectId } });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { rows, bold } = await rowsOf(res.rawPayload);
    expect(rows[1]).toEqual(['收货单位', '青松建材', '金额：120']);
    expect(rows.slice(3, 6)).toEqual([['松木板', '12'], ['螺丝', '300'], ['胶水', '2']]);
    expect(rows[6]![0]).toBe('签收人：');
    expect(rows[6]![2]).toBe('张三');
    expect(bold).toBe(true);
  });

  it('answer only to the print right, hide what the printer may not see, and stop at 20 a form', async () => {
    const { list } = await a.get('/v1/toolkit/print/excel/list', { schemaCode: code });
    const templateId = list[0].templateId;
    const viewerFill = await viewer.raw('POST', '/v1/toolkit/print/excel/fill', { templateId, objectId });
    expect(viewerFill.status).toBe(200);
    const { rows } = await rowsOf(viewerFill.response.rawPayload);
    expect(rows[1]).toEqual(['收货单位', '青松建材', '金额：']);
    expect((await reader.raw('POST', '/v1/toolkit/print/excel/fill', { templateId, objectId })).body.errorCode).toBe(330001);
    expect((await viewer.raw('POST', '/v1/toolkit/print/excel/save', { schemaCode: code, name: '越权', fileId: await upload(admin, await templateBook()) })).status).toBe(403);
    expect((await a.raw('POST', '/v1/toolkit/print/excel/save', { schemaCode: code, name: '坏文件', fileId: await upload(admin, Buffer.from('not a workbook')) })).body.errorCode).toBe(390012);

    const edb = engineDb(t.database.db, admin.engineCode);
    const bytes = await templateBook();
    await edb.insertInto('print_excel_templates').values(Array.from({ length: 19 }, (_, i) => ({ id: `0192bbbb-0000-7000-8000-${String(i).padStart(12, '0')}`, schema_code: code, name: `批量${i}`, workbook: bytes, created_by: 'x' }))).execute();
    const over = await a.raw('POST', '/v1/toolkit/print/excel/save', { schemaCode: code, name: '第21个', fileId: await upload(admin, bytes) });
    expect(over.body).toMatchObject({ errorCode: 390010, errorMessage: '每个表单最多 20 个 Excel 模板' });
  });
});
