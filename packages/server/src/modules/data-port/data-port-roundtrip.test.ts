import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { createForm, definition, everyDataControl, publish } from '../../../test/form-helpers.ts';
import { exportAll, importFile } from './data-port.fixtures.ts';

// Issue 10 "must show": a form holding every data control type is exported, the workbook imported into an empty
// copy of the form, and the copy's records hold the same data (docs/decisions/0020). Files travel as links only.

let t: TestApp, dataDir: string, admin: Person, a: OrgClient, appCode: string;
let member: Person & { userId: string };
let deptId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-port-rt-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app, { userName: '王管理' });
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  const company = await companyIdOf(t, admin.engineCode);
  deptId = (await a.post('/v1/org/department/create', { parentId: company, name: '销售部' })).id;
  member = await addMember(t, admin, { name: '李四', departmentIds: [deptId] });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const controls = (refCode: string) => [
  ...everyDataControl(refCode),
  { type: 'faceRecognition', code: 'Face' },
  { type: 'dynamic', code: 'Dyn' },
  { type: 'plugin', code: 'Plug' },
  { type: 'formula', code: 'Double', options: { expression: '{Amount}*2' } },
  {
    type: 'gridView', code: 'Items',
    controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Qty', options: { decimalPlaces: 2 } }, { type: 'dateTime', code: 'ItemDate' }, { type: 'user', code: 'ItemUser' }, { type: 'checkbox', code: 'ItemOk' }],
  },
];

/** null, '' and [] are one empty value (docs/decisions/0007 "Data log"): an empty cell imports as null. */
const emptied = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === '' || (Array.isArray(v) && !v.length) ? null : v]));

describe('export → import into an empty copy', () => {
  it('gives identical data for every importable control type, sub-tables included', async () => {
    const source = (await createForm(a, appCode)).code as string;
    expect((await a.raw('POST', '/v1/formdesign/load', { schemaCode: source })).body.successful).toBe(true);
    await publish(a, source, definition(controls(source)));
    const copy = (await createForm(a, appCode)).code as string;
    await publish(a, copy, definition(controls(source)));
    const me = (await a.post('/v1/form/loaddata', { schemaCode: source })).system.CreatedBy as string;

    const upload = await t.app.inject({
      method: 'POST', url: '/v1/file/upload', query: { scene: 'attachment', fileName: '合同.pdf' },
      headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode, 'content-type': 'application/octet-stream' }, payload: Buffer.from('%PDF-1.4 test'),
    });
    const file = upload.json().data;
    const first = await a.post('/v1/form/action/execute', { schemaCode: source, actionCode: 'Submit', values: { Title: '第一条' } });
    const full = {
      Title: '订单“甲”', Notes: '第一行\n第二行', Amount: 1234.5, When: '2024-03-05T02:30:00.000Z', Level: '中', Tags: ['红', '蓝'], City: '上海', Done: true,
      Addr: { adcode: '310101', adname: '上海市黄浦区', detail: '南京东路1号' }, Loc: { address: '外滩', point: { lat: 31.24, lng: 121.49 } },
      Person: member.userId, Team: [member.userId, me], Dept: deptId, Depts: [deptId], Ref: first.objectId, Refs: [first.objectId],
      Codes: ['A001', 'A002'], Dyn: { k: [1, 2] }, Plug: 'x', Files: [{ id: file.fileId, name: file.name, size: file.size, contentType: file.contentType }],
    };
    const items = [
      { ItemName: '螺丝', Qty: 3, ItemDate: '2024-01-01T16:00:00.000Z', ItemUser: member.userId, ItemOk: false },
      { ItemName: '螺母', Qty: 4.25, ItemDate: null, ItemUser: null, ItemOk: true },
    ];
    await a.post('/v1/form/action/execute', { schemaCode: source, actionCode: 'Submit', values: full, children: { Items: items } });
    await a.post('/v1/form/action/execute', { schemaCode: source, actionCode: 'Save', values: { Title: '只有一行', Items: undefined }, children: { Items: [{ ItemName: '单行', Qty: 1 }] } });

    const { bytes } = await exportAll(t, a, source);
    // The attachment is a link that downloads the file.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const filesCol = header.indexOf('附件') + 1;
    let link = '';
    sheet.eachRow((row) => {
      const v = row.getCell(filesCol).value as { hyperlink?: string } | null;
      if (v && typeof v === 'object' && v.hyperlink) link = v.hyperlink;
    });
    expect(link).toMatch(/^http:\/\/.+\/v1\/file\/download\//);
    const fetched = await t.app.inject({ method: 'GET', url: link.replace(/^http:\/\/[^/]+/, '') });
    expect(fetched.body).toBe('%PDF-1.4 test');

    const done = await importFile(t, a, admin, copy, bytes, { dataState: 'Effective' });
    expect(done).toMatchObject({ state: 'Finished', total: 3, inserted: 3, rejected: 0 });

    const read = async (schemaCode: string) => {
      const list = (await a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 10, sort: [{ field: 'Title', direction: 'asc' }] })).list as Record<string, unknown>[];
      return Promise.all(list.map(async (r) => {
        const loaded = await a.post('/v1/form/loaddata', { schemaCode, objectId: r.ObjectId });
        const { Files: _f, ...values } = loaded.values;
        return { values: emptied(values), items: loaded.children.Items.map(({ ObjectId: _id, ...row }: Record<string, unknown>) => emptied(row)) };
      }));
    };
    const before = await read(source);
    const after = await read(copy);
    expect(after).toEqual(before);
    expect(before.find((r) => r.values.Title === '订单“甲”')).toMatchObject({ values: { Amount: 1234.5, Double: 2469, Team: [member.userId, me] }, items: [{ ItemName: '螺丝' }, { ItemName: '螺母' }] });
  });
});
