import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { downloaded, screenshot } from './browser.ts';
import { api as callAs, appWithPublishedForm, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Print templates and print jobs (issue 24; docs/decisions/0050) in the browser: the administrator designs a delivery
 * note (places a title, a field, a QR code and the goods grid, moves and resizes them) and makes it the default; a
 * record's Print mode shows it ready for the print dialog (PC and phone); two records chosen in the list become one
 * PDF through a print job with a progress bar and a download; a member without the print right sees no 打印 button.
 */
let page: Page;
let admin: Admin;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);
const ids: string[] = [];

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '周宁', engineName: '宁远物流有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'logistics', displayName: '物流管理' },
    form: { code: 'delivery', displayName: '送货单' },
    controls: [
      { type: 'textBox', code: 'Customer', options: { displayName: '收货单位' } },
      { type: 'textBox', code: 'DeliveryNo', options: { displayName: '送货单号' } },
      { type: 'textArea', code: 'Note', options: { displayName: '备注' } },
      { type: 'associationQuery', code: 'Previous', options: { displayName: '上一单', schemaCode: 'delivery' } },
      { type: 'gridView', code: 'Goods', options: { displayName: '货品明细' }, controls: [{ type: 'textBox', code: 'Item', options: { displayName: '货品' } }, { type: 'number', code: 'Qty', options: { displayName: '数量' } }] },
    ],
  });
  for (const [customer, no] of [['青松建材', 'SH-1001'], ['白鹭家具', 'SH-1002'], ['远山茶业', 'SH-1003']]) {
    const saved = await api<{ objectId: string }>('POST', '/v1/form/action/execute', {
      schemaCode: 'delivery', actionCode: 'Submit', values: { Customer: customer, DeliveryNo: no },
      children: { Goods: [{ Item: '松木板', Qty: 12 }, { Item: '五金配件', Qty: 30 }] },
    });
    ids.push(saved.objectId);
  }
  page = await pageOf(admin, { width: 1440, height: 900 });
});

describe('print templates and print jobs in the browser', () => {
  it('the administrator designs a delivery note: places, moves and resizes elements, saves it as the default', async () => {
    await page.goto('/form/print-templates/delivery');
    await expect.poll(() => page.getByText(/还没有打印模板/).count()).toBeGreaterThan(0);
    await screenshot(page, 'print-1-templates-empty');
    await page.getByRole('button', { name: /新建模板/ }).click();
    await page.getByLabel('模板名称').fill('标准送货单');
    await page.getByRole('checkbox', { name: '设为默认模板' }).check();

    // A title: a text element, its text set in the properties.
    await page.getByRole('button', { name: '文本', exact: true }).click();
    const properties = page.getByRole('complementary', { name: '属性' });
    await properties.getByLabel('文本内容').fill('送货单');
    await properties.getByLabel('字号 (pt)').fill('18');
    // A field, dropped onto the page where it should go.
    const content = page.getByTestId('print-content');
    await page.getByRole('button', { name: '字段', exact: true }).dragTo(content, { targetPosition: { x: 30, y: 60 } });
    await expect.poll(() => properties.getByText('收货单位').count()).toBeGreaterThan(0);
    // A QR code and the goods grid, added below the last element.
    await page.getByRole('button', { name: '二维码', exact: true }).click();
    const qr = page.locator('[data-element-id^="qrCode"]');
    const before = (await qr.boundingBox())!;
    // Moved right by dragging, then made larger by its corner.
    await page.mouse.move(before.x + 10, before.y + 10);
    await page.mouse.down();
    await page.mouse.move(before.x + 310, before.y + 10, { steps: 5 });
    await page.mouse.up();
    const moved = (await qr.boundingBox())!;
    expect(moved.x).toBeGreaterThan(before.x + 250);
    const handle = qr.getByLabel('调整大小');
    const corner = (await handle.boundingBox())!;
    await page.mouse.move(corner.x + 4, corner.y + 4);
    await page.mouse.down();
    await page.mouse.move(corner.x + 34, corner.y + 34, { steps: 5 });
    await page.mouse.up();
    expect((await qr.boundingBox())!.width).toBeGreaterThan(moved.width + 20);
    await page.getByRole('button', { name: '子表', exact: true }).click();
    await page.getByRole('button', { name: '页码', exact: true }).click();
    await properties.getByLabel('Y', { exact: true }).fill('260');
    await screenshot(page, 'print-2-designer');
    await page.getByRole('button', { name: /保存/ }).click();
    await expect.poll(() => page.getByText('已保存').count()).toBeGreaterThan(0);

    const header = await api<{ templates: { templateId: string; name: string; isDefault: boolean }[] }>('GET', '/v1/print/header?schemaCode=delivery');
    expect(header.templates.map((x) => [x.name, x.isDefault])).toEqual([['标准送货单', true]]);
    const template = await api<{ layout: { elements: { type: string; field?: string; text?: string; x: number; width: number }[] } }>('GET', `/v1/toolkit/print/template?templateId=${header.templates[0]!.templateId}`);
    const types = template.layout.elements.map((e) => e.type);
    expect(types).toEqual(['label', 'field', 'qrCode', 'subTable', 'pageNumber']);
    expect(template.layout.elements[0]!.text).toBe('送货单');
    expect(template.layout.elements[1]!.field).toBe('Customer');
    const code = template.layout.elements[2]!;
    expect(code.x).toBeGreaterThan(80);
    expect(code.width).toBeGreaterThan(30);
  });

  it('the administrator uploads an Excel template; a record is exported through it from the Print mode', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('送货单');
    sheet.addRow(['收货单位', '{Customer}']);
    sheet.addRow(['{Goods.Item}', '{Goods.Qty}']);
    sheet.addRow(['签收', '']);
    await page.goto('/form/print-templates/delivery');
    await page.getByLabel('Excel 模板名称').fill('送货单表格');
    await page.locator('input[type=file]').setInputFiles({ name: '送货单.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(await book.xlsx.writeBuffer()) });
    await expect.poll(() => page.getByRole('cell', { name: '送货单表格' }).count()).toBe(1);
    await screenshot(page, 'print-2b-templates-list');
    const phone = await pageOf(admin, { width: 390, height: 844 });
    await phone.goto('/form/print-templates/delivery');
    await expect.poll(() => phone.getByRole('cell', { name: '送货单表格' }).count()).toBe(1);
    await screenshot(phone, 'print-2c-templates-list-phone');
    await phone.getByRole('button', { name: '设计', exact: true }).click();
    await expect.poll(() => phone.getByLabel('模板名称').count()).toBe(1);
    await screenshot(phone, 'print-2d-designer-phone');
    await phone.close();
    await page.goto(`/form/open/delivery/${ids[1]}?mode=Print`);
    await page.getByRole('button', { name: /导出 Excel/ }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: '送货单表格 · Excel 文件' }).click()]);
    const filled = new ExcelJS.Workbook();
    await filled.xlsx.load((await downloaded(download)) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    filled.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([['收货单位', '白鹭家具'], ['松木板', '12'], ['五金配件', '30'], ['签收', '']]);
    // The same template as a PDF.
    await page.getByRole('button', { name: /导出 Excel/ }).click();
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: '送货单表格 · PDF' }).click()]);
    expect(pdf.suggestedFilename()).toBe('送货单表格.pdf');
    expect((await downloaded(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it("with no template the form's own layout prints: a multi-line note pushes the next row down, the association shows its name", async () => {
    const note = ['第一行：卸货请走东门', '第二行：联系仓库王师傅', '第三行：下午三点前送达'].join('\n');
    const saved = await api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'delivery', actionCode: 'Submit', values: { Customer: '远山茶业', DeliveryNo: 'SH-1004', Note: note, Previous: ids[0] }, children: { Goods: [{ Item: '茶叶罐', Qty: 8 }] } });
    const previous = await api<{ system: { Name: string } }>('POST', '/v1/form/loaddata', { schemaCode: 'delivery', objectId: ids[0] });
    await page.goto(`/form/print/delivery?ids=${saved.objectId}&templateId=formLayout`);
    const frame = page.frameLocator('iframe[title="打印预览"]');
    await expect.poll(() => frame.getByText('第三行：下午三点前送达', { exact: false }).count()).toBe(1);
    const noteBox = (await frame.locator('[data-element-id="f2"]').boundingBox())!;
    const grid = (await frame.locator('[data-grid="Goods"]').boundingBox())!;
    // Three lines need more than the 8 mm row (about 30 px) and the grid starts below them.
    expect(noteBox.height).toBeGreaterThan(40);
    expect(grid.y).toBeGreaterThanOrEqual(noteBox.y + noteBox.height - 1);
    const association = frame.locator('[data-field="Previous"]');
    expect(await association.textContent()).toBe(previous.system.Name);
    expect(await association.textContent()).not.toContain(ids[0]);
    await screenshot(page, 'print-3b-form-layout');
  });

  it("a record's Print mode shows the default template, ready for the print dialog, on PC and phone", async () => {
    await page.goto(`/form/open/delivery/${ids[0]}?mode=Print`);
    const frame = page.frameLocator('iframe[title="打印预览"]');
    await expect.poll(() => frame.getByText('送货单', { exact: true }).count()).toBeGreaterThan(0);
    expect(await frame.getByText('收货单位：青松建材').count()).toBe(1);
    expect(await frame.getByRole('cell', { name: '五金配件' }).count()).toBe(1);
    expect(await frame.locator('[data-print-element="qrCode"] svg').count()).toBe(1);
    await expect.poll(() => page.getByRole('combobox', { name: '打印模板' }).count()).toBe(1);
    expect(await page.getByText('标准送货单（默认）').count()).toBe(1);
    await screenshot(page, 'print-3-print-mode');
    const phone = await pageOf(admin, { width: 390, height: 844 });
    await phone.goto(`/form/open/delivery/${ids[0]}?mode=Print`);
    await expect.poll(() => phone.frameLocator('iframe[title="打印预览"]').getByText('收货单位：青松建材').count()).toBe(1);
    await screenshot(phone, 'print-4-print-mode-phone');
    await phone.close();
  });

  it('two records chosen in the list become one PDF with a progress bar and a download', async () => {
    await page.goto('/workbench/app/logistics/delivery');
    const rowOf = (name: string) => page.locator('tr', { hasText: name });
    await expect.poll(() => rowOf('青松建材').count()).toBeGreaterThan(0);
    await rowOf('青松建材').getByRole('checkbox').check();
    await rowOf('白鹭家具').getByRole('checkbox').check();
    await page.getByRole('button', { name: /^(printer )?打印$/ }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('所选数据（2 条）').count()).toBe(1);
    await screenshot(page, 'print-5-dialog');
    await dialog.getByRole('button', { name: /生成 PDF/ }).click();
    await expect.poll(() => dialog.getByRole('link', { name: /下载 PDF/ }).count(), { timeout: 60_000 }).toBe(1);
    expect(await dialog.getByText(/已完成/).count()).toBeGreaterThan(0);
    await screenshot(page, 'print-6-job-complete');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: /下载 PDF/ }).click()]);
    const pdf = await downloaded(download);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g)?.length).toBe(2);
  });

  it('a member without the print right sees no 打印 button', async () => {
    const { member, page: memberView } = await memberPage(admin, '钱多');
    await api('POST', '/v1/functionnode/auth/set', { code: 'logistics', unitId: member.userId, permission: 'access' });
    await api('POST', '/v1/form/permission/group/save', { schemaCode: 'delivery', group: { name: '查看', members: { users: [member.userId] }, actions: ['view', 'export'], viewScope: 'all', editScope: 'own', fieldRights: {} } });
    await memberView.goto('/workbench/app/logistics/delivery');
    await expect.poll(() => memberView.locator('tr', { hasText: '青松建材' }).count()).toBeGreaterThan(0);
    // Her rights are read once 导出 (hers) shows; 打印 (not hers) does not.
    await expect.poll(() => memberView.getByRole('button', { name: /^(download )?导出$/ }).count()).toBe(1);
    expect(await memberView.getByRole('button', { name: /^(printer )?打印$/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(printer )?打印$/ }).count()).toBe(1);
    await screenshot(memberView, 'print-7-member-list');
  });
});
