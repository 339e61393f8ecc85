import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { createApp, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { crop, decodeQr, fonts, ink, pageImage, pageTexts, words } from '../../../test/pdf-pages.ts';
import { engineDb } from '../../db/database.ts';

// test-databases: pglite — the PDF's content is the subject; the job's claim and lease are the runner's (job-runner.test).

// Print jobs to PDF (issue 24; docs/decisions/0050): the PDF of one record and of 200, turned into pages with poppler
// and read back — values in their places, Chinese glyphs drawn (two different characters give two different
// bitmaps; missing glyphs would be the same box), sub-table rows continuing across pages under a repeated header, a
// QR code decoded to the record's link — and the file swept once its keeping time has passed.

let t: TestApp, a: OrgClient, code: string, engineCode: string;
let now = Date.now();
const CONTENT = { left: 12, top: 12 };

const elements = [
  { id: 'title', type: 'label', text: '报销单', x: 0, y: 0, width: 124, height: 10, fontSize: 16, bold: true, align: 'center' },
  { id: 'jia', type: 'label', text: '甲', x: 0, y: 12, width: 12, height: 12, fontSize: 24 },
  { id: 'yi', type: 'label', text: '乙', x: 14, y: 12, width: 12, height: 12, fontSize: 24 },
  { id: 'f', type: 'field', field: 'Title', x: 0, y: 26, width: 80, height: 8 },
  { id: 'qr', type: 'qrCode', source: { kind: 'link' }, x: 94, y: 12, width: 30, height: 30 },
  { id: 'bar', type: 'barcode', source: { kind: 'field', field: 'Code' }, x: 0, y: 36, width: 60, height: 14 },
  { id: 'lines', type: 'subTable', field: 'Lines', columns: [], x: 0, y: 52, width: 124, height: 10 },
  { id: 'sign', type: 'label', text: '签收人：', x: 0, y: 64, width: 60, height: 8 },
  { id: 'page', type: 'pageNumber', format: '第 {page} 页 / 共 {pages} 页', x: 44, y: 180, width: 36, height: 6, fontSize: 8 },
];

async function save(title: string, amount: number, lines: number): Promise<string> {
  const children = { Lines: Array.from({ length: lines }, (_, i) => ({ Item: `${title}行${String(i + 1).padStart(3, '0')}`, Qty: i + 1 })) };
  return (await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: title, Code: `NO-${amount}`, Amount: amount }, children })).objectId;
}

async function runJob(taskId: string) {
  expect((await a.post('/v1/toolkit/print/progress', { taskId })).state).toBe('Wait');
  while (await t.app.extras.jobs.runOnce());
  return a.post('/v1/toolkit/print/progress', { taskId });
}

async function download(url: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/pdf');
  return res.rawPayload;
}

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  const admin = await registerPerson(t.app);
  engineCode = admin.engineCode;
  a = nodeClient(t.app, admin);
  const appCode = (await createApp(a)).code;
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'textBox', code: 'Code', options: { displayName: '编号' } },
    { type: 'number', code: 'Amount', options: { displayName: '金额' } },
    { type: 'gridView', code: 'Lines', controls: [{ type: 'textBox', code: 'Item', options: { displayName: '物品' } }, { type: 'number', code: 'Qty', options: { displayName: '数量' } }] },
  ]));
  await a.post('/v1/toolkit/print/template/save', { schemaCode: code, name: '报销单', isDefault: true, layout: { page: { size: 'A5', margins: { top: 12, right: 12, bottom: 12, left: 12 } }, elements } });
});
afterAll(() => t.close());

describe('a PDF of one record', () => {
  it('has the values in place, Chinese drawn, the grid continued under its header, a readable QR code', async () => {
    const id = await save('出差北京', 88, 60);
    const { taskId } = await a.post('/v1/toolkit/print/paper', { schemaCode: code, objectIds: [id] });
    const done = await runJob(taskId);
    expect(done).toMatchObject({ state: 'Complete', progress: 100, total: 1, retryable: false });
    expect(done.pages).toBeGreaterThanOrEqual(2);
    const pdf = await download(done.downloadUrl);

    const texts = pageTexts(pdf);
    expect(texts.length).toBe(done.pages);
    const placed = words(pdf);
    // The field's box is 26–34 mm below the content's top, at its left edge: its label, then the value.
    const value = placed.find((w) => w.text === '标题：出差北京')!;
    expect(value.page).toBe(1);
    expect(value.y).toBeGreaterThan(CONTENT.top + 25);
    expect(value.y).toBeLessThan(CONTENT.top + 34);
    expect(Math.abs(value.x - CONTENT.left)).toBeLessThan(1.5);

    // Rows continue on the next page, under the header again; what follows the grid comes after its last row.
    const rowsOn = (page: number) => placed.filter((w) => w.page === page && /^出差北京行\d{3}$/.test(w.text)).map((w) => Number(w.text.slice(-3)));
    const first = rowsOn(1), second = rowsOn(2);
    expect(first[0]).toBe(1);
    expect(second[0]).toBe(first.at(-1)! + 1);
    expect(placed.filter((w) => w.text === '物品').map((w) => w.page)).toEqual(Array.from({ length: done.pages }, (_, i) => i + 1));
    const last = placed.find((w) => w.text === '出差北京行060')!;
    const signer = placed.find((w) => w.text === '签收人：')!;
    expect(signer.page * 1000 + signer.y).toBeGreaterThan(last.page * 1000 + last.y);
    expect(texts[1].replace(/\s+/g, '')).toContain(`第2页/共${done.pages}页`);

    // Chinese glyphs: two characters, two different drawings, from an embedded CJK font.
    const page = pageImage(pdf, 1, 150);
    const jia = crop(page, { x: CONTENT.left, y: CONTENT.top + 12, width: 12, height: 12 });
    const yi = crop(page, { x: CONTENT.left + 14, y: CONTENT.top + 12, width: 12, height: 12 });
    expect(ink(jia)).toBeGreaterThan(0.03);
    expect(ink(yi)).toBeGreaterThan(0.03);
    const differing = jia.data.reduce((n, v, i) => n + ((v < 128) !== (yi.data[i]! < 128) ? 1 : 0), 0);
    expect(differing / jia.data.length).toBeGreaterThan(0.03);
    expect(fonts(pdf).some((f) => /wenquanyi|wqy/i.test(f))).toBe(true);

    // The QR code carries the record's link.
    const qr = decodeQr(crop(page, { x: CONTENT.left + 92, y: CONTENT.top + 10, width: 34, height: 34 }));
    expect(qr).toMatch(new RegExp(`/form/open/${code}/${id}$`));
    // The barcode is drawn (bars: about half the box dark) with its text below.
    expect(ink(crop(page, { x: CONTENT.left + 5, y: CONTENT.top + 37, width: 50, height: 8 }))).toBeGreaterThan(0.25);
    expect(texts[0]).toContain('NO-88');
  }, 120_000);
});

describe('a PDF of a filtered view of 200 records', () => {
  it('prints every record that matches on its own page, and the file is swept after its keeping time', async () => {
    const idOf = new Map<string, string>();
    for (let i = 1; i <= 200; i++) idOf.set(`记录${String(i).padStart(3, '0')}`, await save(`记录${String(i).padStart(3, '0')}`, i, 3));
    await save('排除', 5000, 1);
    const { taskId } = await a.post('/v1/toolkit/print/paper', { schemaCode: code, filter: { field: 'Amount', operator: 'Below', value: 1000 }, sort: [{ field: 'Amount', direction: 'asc' }] });
    const done = await runJob(taskId);
    // The first test's record (amount 88) matches too.
    expect(done).toMatchObject({ state: 'Complete', total: 201 });
    expect(done.pages).toBeGreaterThanOrEqual(201);
    const pdf = await download(done.downloadUrl);
    const texts = pageTexts(pdf);
    expect(texts.length).toBe(done.pages);
    const titles = texts.flatMap((text) => text.match(/记录\d{3}(?!行)/g) ?? []);
    expect(new Set(titles).size).toBe(200);
    expect(texts.some((text) => text.includes('排除'))).toBe(false);
    // Sorted by amount: record 1 first, record 200 last.
    expect(texts[0]).toContain('记录001');
    expect(texts.at(-1)).toContain('记录200');
    // Page numbers count each record's own pages: 1..n, n the record's page count, then 1 again.
    const numbers = texts.map((text) => text.replace(/\s+/g, '').match(/第(\d+)页\/共(\d+)页/)!.slice(1).map(Number) as [number, number]);
    let expected = 1;
    for (const [page, pages] of numbers) {
      expect(page).toBe(expected);
      expected = page === pages ? 1 : page + 1;
    }
    expect(numbers.filter(([, pages]) => pages > 1).length).toBeGreaterThanOrEqual(2);
    expect(numbers.filter(([page]) => page === 1)).toHaveLength(201);

    // A page deep in the file, as an image: its QR code carries the link of the record printed on it.
    const page = texts.findIndex((text) => text.includes('记录137'));
    const qr = decodeQr(crop(pageImage(pdf, page + 1, 150), { x: CONTENT.left + 92, y: CONTENT.top + 10, width: 34, height: 34 }));
    expect(qr).toMatch(new RegExp(`/form/open/${code}/${idOf.get('记录137')}$`));

    // Kept for 24 hours, then swept: no link, no file.
    const fileId = (await engineDb(t.database.db, engineCode).selectFrom('print_tasks').select('file_id').where('id', '=', taskId).executeTakeFirstOrThrow()).file_id!;
    now += 23 * 3600_000;
    await t.app.extras.scheduler.tick();
    expect((await a.post('/v1/toolkit/print/progress', { taskId })).downloadUrl).not.toBeNull();
    now += 2 * 3600_000;
    const swept = await t.app.extras.scheduler.tick();
    expect(swept['print.files']).toBeGreaterThanOrEqual(1);
    const after = await a.post('/v1/toolkit/print/progress', { taskId });
    expect(after).toMatchObject({ state: 'Complete', downloadUrl: null });
    expect(await engineDb(t.database.db, engineCode).selectFrom('files').select('id').where('id', '=', fileId).executeTakeFirst()).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: done.downloadUrl })).statusCode).toBe(404);
  }, 300_000);
});
