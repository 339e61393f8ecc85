import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { crop, fonts, ink, pageImage, pageTexts, words } from '../../../test/pdf-pages.ts';

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

/** A5 landscape, a merged title, a bordered grid: the PDF follows the workbook's page setup and layout. */
async function pagedBook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('送货单', { pageSetup: { paperSize: 11, orientation: 'landscape', margins: { left: 0.5, right: 0.5, top: 0.5, bottom: 0.5, header: 0, footer: 0 } } });
  sheet.columns = [{ width: 20 }, { width: 12 }, { width: 20 }];
  sheet.addRow(['送货单 {SeqNo}']);
  sheet.mergeCells('A1:C1');
  sheet.getCell('A1').alignment = { horizontal: 'center' };
  sheet.getCell('A1').font = { bold: true, size: 16 };
  sheet.addRow(['收货单位', '{Customer}']);
  sheet.addRow(['货品', '数量']);
  sheet.addRow(['{Goods.Item}', '{Goods.Qty}']);
  for (const r of [3, 4]) for (const c of [1, 2]) sheet.getRow(r).getCell(c).border = { top: { style: 'thin' }, bottom: { style: 'thin' }, left: { style: 'thin' }, right: { style: 'thin' } };
  sheet.addRow(['甲', '乙']);
  sheet.getRow(5).font = { size: 28 };
  sheet.getRow(5).height = 40;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

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

  it('print as a PDF: the paper of the workbook, values in their cells, rows repeated in order, Chinese drawn; one record or a batch job', async () => {
    // The test above filled the form up to its 20 templates.
    await engineDb(t.database.db, admin.engineCode).deleteFrom('print_excel_templates').where('name', 'like', '批量%').execute();
    const saved = await a.post('/v1/toolkit/print/excel/save', { schemaCode: code, name: '送货单PDF', fileId: await upload(admin, await pagedBook()) });
    const res = await t.app.inject({ method: 'POST', url: '/v1/toolkit/print/excel/fill', headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode }, payload: { templateId: saved.templateId, objectId, format: 'pdf' } });
    expect(res.headers['content-type']).toContain('application/pdf');
    const pdf = res.rawPayload;
    const page = pageImage(pdf, 1, 100);
    // A5 landscape: 210 × 148 mm.
    expect(Math.round((page.width / 100) * 25.4)).toBe(210);
    expect(Math.round((page.height / 100) * 25.4)).toBe(148);
    const placed = words(pdf);
    const at = (text: string) => placed.find((w) => w.text === text)!;
    expect(at('收货单位').y).toBeCloseTo(at('青松建材').y, 0);
    expect(at('青松建材').x).toBeGreaterThan(at('收货单位').x + 30);
    const items = ['松木板', '螺丝', '胶水'].map(at);
    expect(items.map((w) => Math.round(w.x))).toEqual(Array(3).fill(Math.round(items[0]!.x)));
    expect(items[0]!.y).toBeLessThan(items[1]!.y);
    expect(items[1]!.y).toBeLessThan(items[2]!.y);
    expect(at('300').y).toBeCloseTo(items[1]!.y, 0);
    // The merged title is centred over the three columns.
    const title = at('送货单');
    expect(title.x).toBeGreaterThan(12.7 + 20);
    // Chinese glyphs drawn from an embedded CJK font: 甲 and 乙 (28 pt, the sheet's last row) are two different drawings.
    expect(fonts(pdf).some((f) => /wenquanyi|wqy/i.test(f))).toBe(true);
    const big = crop(pageImage(pdf, 1, 150), { x: at('甲').x - 1, y: at('甲').y - 1, width: 11, height: 11 });
    const other = crop(pageImage(pdf, 1, 150), { x: at('乙').x - 1, y: at('乙').y - 1, width: 11, height: 11 });
    expect(ink(big)).toBeGreaterThan(0.03);
    const differing = big.data.reduce((n, v, i) => n + ((v < 128) !== (other.data[i]! < 128) ? 1 : 0), 0);
    expect(differing / big.data.length).toBeGreaterThan(0.03);

    // A batch job with the Excel template: each record's workbook from a new page, in one PDF.
    const second = (await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Customer: '白云五金', Amount: 9 }, children: { Goods: [{ Item: '铰链', Qty: 40 }] } })).objectId;
    const { taskId } = await a.post('/v1/toolkit/print/paper', { schemaCode: code, excelTemplateId: saved.templateId, objectIds: [objectId, second] });
    while (await t.app.extras.jobs.runOnce());
    const done = await a.post('/v1/toolkit/print/progress', { taskId });
    expect(done).toMatchObject({ state: 'Complete', total: 2, pages: 2 });
    const texts = pageTexts((await t.app.inject({ method: 'GET', url: done.downloadUrl })).rawPayload);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('青松建材');
    expect(texts[0]).not.toContain('白云五金');
    expect(texts[1]).toContain('白云五金');
    expect(texts[1]).toContain('铰链');
    // An Excel template of another form (or none) is refused when the job is asked for, and nothing is queued.
    const before = await engineDb(t.database.db, admin.engineCode).selectFrom('print_tasks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const wrong = await a.raw('POST', '/v1/toolkit/print/paper', { schemaCode: code, excelTemplateId: '0192bbbb-0000-7000-8000-999999999999', objectIds: [objectId] });
    expect(wrong.body).toMatchObject({ errorCode: 390011, errorMessage: 'Excel 模板不存在' });
    const after = await engineDb(t.database.db, admin.engineCode).selectFrom('print_tasks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  }, 120_000);
});
