import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import { registerPerson } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';

// test-databases: pglite — template rows and the policy's answers; the SQL is plain (docs/testing.md).

// Print templates (issue 24; docs/decisions/0050): the app's administrators design them (at most 100 a form, 50 QR
// codes a template, fields of the form only); printing needs the form's print right (the policy module); the
// browser's data comes under the viewer's rights — records they may read, hidden fields left out.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let viewer: OrgClient, noPrint: OrgClient, stranger: OrgClient;
const ids: string[] = [];

const layout = (elements: unknown[] = []) => ({ page: { size: 'A5', orientation: 'landscape' }, elements });
const field = (id: string, f: string, y = 0) => ({ id, type: 'field', field: f, x: 0, y, width: 60, height: 8 });

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'number', code: 'Amount', options: { displayName: '金额' } },
    { type: 'gridView', code: 'Lines', controls: [{ type: 'textBox', code: 'Item', options: { displayName: '物品' } }] },
  ]));
  for (const title of ['甲', '乙']) ids.push((await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: title, Amount: 5 }, children: { Lines: [{ Item: `${title}-1` }] } })).objectId);
  const printer = await addMember(t, admin, { name: '打印员' });
  const reader = await addMember(t, admin, { name: '只读员' });
  for (const m of [printer, reader]) await grant(a, appCode, m.userId, 'access');
  await a.post('/v1/form/permission/group/save', { schemaCode: code, group: { name: '打印', members: { users: [printer.userId] }, actions: ['view', 'print'], viewScope: 'all', editScope: 'own', fieldRights: { Amount: 'hidden' } } });
  await a.post('/v1/form/permission/group/save', { schemaCode: code, group: { name: '只读', members: { users: [reader.userId] }, actions: ['view'], viewScope: 'all', editScope: 'own', fieldRights: {} } });
  viewer = nodeClient(t.app, printer);
  noPrint = nodeClient(t.app, reader);
  stranger = nodeClient(t.app, await registerPerson(t.app));
});
afterAll(() => t.close());

describe('print templates', () => {
  it('are saved, listed, read, made default and removed by the app administrator', async () => {
    const saved = await a.post('/v1/toolkit/print/template/save', { schemaCode: code, name: '报销单', isDefault: true, layout: layout([field('f1', 'Title'), { id: 'q', type: 'qrCode', source: { kind: 'link' }, x: 70, y: 0, width: 20, height: 20 }]) });
    expect(saved).toMatchObject({ name: '报销单', isDefault: true, paper: 'A5', orientation: 'landscape', version: 1 });
    expect(saved.layout.elements[0]).toMatchObject({ showLabel: true, fontSize: 10 });
    const second = await a.post('/v1/toolkit/print/template/save', { schemaCode: code, name: '送货单', isDefault: true, layout: layout([field('f1', 'SeqNo')]) });
    const header = await viewer.get('/v1/print/header', { schemaCode: code });
    expect(header.templates.map((x: { name: string; isDefault: boolean }) => [x.name, x.isDefault])).toEqual([['送货单', true], ['报销单', false]]);
    expect(header.limits).toMatchObject({ maxTemplates: 100, maxQrCodes: 50 });
    const changed = await a.post('/v1/toolkit/print/template/save', { schemaCode: code, templateId: saved.templateId, name: '报销单（新）', layout: layout([field('f1', 'Amount')]) });
    expect(changed).toMatchObject({ version: 2, name: '报销单（新）' });
    expect((await viewer.get('/v1/toolkit/print/template', { templateId: saved.templateId })).layout.elements[0].field).toBe('Amount');
    expect(await a.post('/v1/toolkit/print/template/remove', { templateId: second.templateId })).toEqual({ templateId: second.templateId });
    expect((await a.raw('GET', '/v1/toolkit/print/template', { templateId: second.templateId })).body.errorCode).toBe(390001);
  });

  it('refuse bad layouts with catalogue errors and change nothing', async () => {
    const before = (await a.get('/v1/print/header', { schemaCode: code })).templates.length;
    const qr = Array.from({ length: 51 }, (_, i) => ({ id: `q${i}`, type: 'qrCode', source: { kind: 'link' }, x: 0, y: 0, width: 10, height: 10 }));
    const tooMany = await a.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: 'QR', layout: layout(qr) });
    expect(tooMany.body.errorCode).toBe(777);
    expect(JSON.stringify(tooMany.body.detail)).toContain('每个模板最多50个二维码');
    expect((await a.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: 'ok50', layout: layout(qr.slice(0, 50)) })).body.successful).toBe(true);
    const unknown = await a.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: '未知', layout: layout([field('f', 'Nope')]) });
    expect(unknown.body).toMatchObject({ errorCode: 390003, detail: { field: 'Nope' } });
    const column = await a.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: '列', layout: layout([{ id: 'g', type: 'subTable', field: 'Lines', columns: [{ field: 'Price' }], x: 0, y: 0, width: 50, height: 10 }]) });
    expect(column.body).toMatchObject({ errorCode: 390003, detail: { field: 'Lines.Price' } });
    const dup = await a.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: '重复', layout: layout([field('x', 'Title'), field('x', 'Amount')]) });
    expect(dup.body.errorCode).toBe(777);
    const custom = await a.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: '自定义', layout: { page: { size: 'custom' }, elements: [] } });
    expect(custom.body.errorCode).toBe(777);
    const named = await a.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: 'ok50', layout: layout([]) });
    expect(named.body.errorCode).toBe(390009);
    expect((await a.get('/v1/print/header', { schemaCode: code })).templates.length).toBe(before + 1);
  });

  it('stop at 100 templates a form', async () => {
    const edb = engineDb(t.database.db, admin.engineCode);
    const have = (await a.get('/v1/print/header', { schemaCode: code })).templates.length;
    const rows = Array.from({ length: 100 - have }, (_, i) => ({ id: `0192aaaa-0000-7000-8000-${String(i).padStart(12, '0')}`, schema_code: code, name: `批量${i}`, layout: JSON.stringify(layout([])), created_by: 'x' }));
    await edb.insertInto('print_templates').values(rows).execute();
    const over = await a.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: '第101个', layout: layout([]) });
    expect(over.body).toMatchObject({ errorCode: 390002, errorMessage: '每个表单最多 100 个打印模板' });
    const count = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`e_${admin.engineCode}.print_templates`)} where schema_code = ${code}`.execute(t.database.db);
    expect(count.rows[0]!.n).toBe(100);
    await edb.deleteFrom('print_templates').where('name', 'like', '批量%').execute();
  });
});

describe('the print right', () => {
  it('decides who reads templates and prints; only administrators design', async () => {
    expect(await viewer.get('/v1/print/actions', { schemaCode: code })).toEqual({ actions: ['Browser', 'Pdf'] });
    expect(await noPrint.get('/v1/print/actions', { schemaCode: code })).toEqual({ actions: [] });
    expect(await a.get('/v1/print/actions', { schemaCode: code })).toEqual({ actions: ['Browser', 'Pdf', 'Design'] });
    const refused = await noPrint.raw('GET', '/v1/print/header', { schemaCode: code });
    expect(refused.body.errorCode).toBe(330001);
    expect((await noPrint.raw('POST', '/v1/toolkit/print/data', { schemaCode: code, objectIds: ids })).body.errorCode).toBe(330001);
    expect((await noPrint.raw('POST', '/v1/toolkit/print/paper', { schemaCode: code, objectIds: ids })).body.errorCode).toBe(330001);
    const design = await viewer.raw('POST', '/v1/toolkit/print/template/save', { schemaCode: code, name: '越权', layout: layout([]) });
    expect(design.status).toBe(403);
    expect((await stranger.raw('GET', '/v1/print/header', { schemaCode: code })).body.successful).toBe(false);
    expect((await stranger.raw('POST', '/v1/toolkit/print/data', { schemaCode: code, objectIds: ids })).body.successful).toBe(false);
  });

  it("gives the browser the viewer's texts: hidden fields left out, the form's own layout without a default", async () => {
    const edb = engineDb(t.database.db, admin.engineCode);
    await edb.updateTable('print_templates').set({ is_default: false }).where('schema_code', '=', code).execute();
    const data = await viewer.post('/v1/toolkit/print/data', { schemaCode: code, objectIds: [ids[1], ids[0], '0192aaaa-0000-7000-8000-00000000dead'] });
    expect((await viewer.raw('POST', '/v1/toolkit/print/data', { schemaCode: code, objectIds: ['not-a-record'] })).body.errorCode).toBe(777);
    expect(data.templateId).toBeNull();
    expect(data.sheet.documents.map((d: { values: { Title: string } }) => d.values.Title)).toEqual(['乙', '甲']);
    expect(data.sheet.documents[0].values).not.toHaveProperty('Amount');
    expect(data.sheet.labels).not.toHaveProperty('Amount');
    expect(data.sheet.documents[0].grids.Lines.rows).toEqual([{ Item: '乙-1' }]);
    const elements = data.layout.elements.map((e: { type: string; field?: string }) => `${e.type}:${e.field ?? ''}`);
    expect(elements).toContain('field:Title');
    expect(elements).toContain('subTable:Lines');
    expect(elements).not.toContain('field:Amount');
    // The administrator sees every field.
    expect((await a.post('/v1/toolkit/print/data', { schemaCode: code, objectIds: [ids[0]] })).sheet.documents[0].values.Amount).toBe('5');
  });
});
