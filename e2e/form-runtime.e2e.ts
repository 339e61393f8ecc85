import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CONTROL_TYPE_KEYS, controlTypeByKey } from '@tritium/shared/controls/index';
import { launchBrowser, screenshot } from './browser.ts';
import { call, registerEngine, signedInPage, type Admin } from './session.ts';

/**
 * Issue "Form runtime and business data", must show: fill a form holding every control type (uploads and a
 * sub-table), submit it, reopen it in View and Edit, read the data log, add a comment with a reply; screenshots.
 */
let browser: Browser;
let page: Page;
let admin: Admin;
const baseUrl = () => inject('baseUrl');
const stamp = String(Date.now()).slice(-7);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => call<T>(baseUrl(), admin, method, path, body);

const SYSTEM_CODES: Record<string, string> = {};
for (const key of CONTROL_TYPE_KEYS) {
  const column = controlTypeByKey(key).column;
  if (column && 'systemField' in column && column.systemField) SYSTEM_CODES[key] = column.systemField;
}

/** One control of every type: containers hold a control each; associations point at the customer form. */
function everyControl() {
  return CONTROL_TYPE_KEYS.map((key) => {
    const code = SYSTEM_CODES[key] ?? `C_${key}`;
    if (key === 'gridView') return { type: key, code, options: { displayName: '明细' }, controls: [{ type: 'textBox', code: 'Goods', options: { displayName: '商品' } }, { type: 'number', code: 'Qty', options: { displayName: '数量' } }] };
    if (key === 'layout') return { type: key, code, controls: [{ type: 'textBox', code: 'C_inLayout', options: { displayName: '联系人' } }] };
    if (key === 'tab') return { type: key, code, panes: [{ title: '补充信息', controls: [{ type: 'textArea', code: 'C_inTab', options: { displayName: '补充说明' } }] }] };
    if (key === 'associationQuery' || key === 'associationQueryMulti') return { type: key, code, options: { schemaCode: 'customer' } };
    // Publishing refuses controls without their required settings (docs/decisions/0029).
    if (key === 'associatedProperty') return { type: key, code, options: { associationCode: 'C_associationQuery', sourcePropertySchema: { schemaCode: 'customer', propertyCode: 'CName', controlType: 'textBox' } } };
    if (key === 'formula') return { type: key, code, options: { expression: '1+1' } };
    if (key === 'rollup') return { type: key, code, options: { sourceCode: 'C_gridView', rollupType: 'count' } };
    if (key === 'textBox') return { type: key, code: 'Title', options: { displayName: '标题', required: true } };
    if (key === 'description') return { type: key, code, options: { content: '<p>请如实填写订单信息。</p>' } };
    return { type: key, code };
  });
}

async function publish(schemaCode: string, definition: unknown) {
  const loaded = await api<{ draft: { version: number } }>('POST', '/v1/formdesign/load', { schemaCode });
  const saved = await api<{ version: number }>('POST', '/v1/formdesign/save', { schemaCode, baseVersion: loaded.draft.version, definition });
  await api('POST', '/v1/formdesign/publish', { schemaCode, version: saved.version, confirm: [] });
}

const form = () => page.getByRole('form', { name: '销售订单' });
/** Chooses an item of the open drop-down list (antd draws the visible items outside the field). */
const pick = (text: string) => page.locator('.ant-select-dropdown:visible').getByText(text, { exact: true }).click();
const field = (name: string) => form().getByRole('group', { name, exact: true });

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await registerEngine(baseUrl(), `1392${stamp}`, '林青', '青禾贸易有限公司');
  await api('POST', '/v1/functionnode', { nodeType: 190, code: 'crm', displayName: '客户管理' });
  await api('POST', '/v1/functionnode', { nodeType: 200, code: 'customer', appCode: 'crm', displayName: '客户' });
  await api('POST', '/v1/functionnode', { nodeType: 200, code: 'order', appCode: 'crm', displayName: '销售订单' });
  await publish('customer', { attributes: { displayName: '客户' }, controls: [{ type: 'textBox', code: 'CName', options: { displayName: '客户名称' } }] });
  for (const name of ['星河科技', '远山建材']) await api('POST', '/v1/form/action/execute', { schemaCode: 'customer', actionCode: 'Submit', values: { CName: name } });
  await publish('order', { attributes: { displayName: '销售订单', enableFormSNS: true, enableDataLog: true, enableTask: true, nameSchema: '{Title}' }, controls: everyControl() });
  page = await signedInPage(browser, baseUrl(), admin, { width: 1440, height: 900 });
});
afterAll(() => browser?.close());

describe('the form runtime in the browser', () => {
  let objectId = '';

  it('opens a new record from the form node and fills every kind of field', async () => {
    await page.goto('/workbench/app/crm/order');
    await page.getByRole('button', { name: /新增/ }).click();
    await form().waitFor();
    await field('标题').getByRole('textbox').fill('青禾首单');
    await field('多行文本').getByRole('textbox').fill('第一行\n第二行');
    await field('数值').getByRole('spinbutton').fill('1280');
    await field('日期').getByRole('textbox').click();
    await page.keyboard.type('2026-11-23 10:30');
    await page.keyboard.press('Enter');
    await field('单选框').getByText('选项2').click();
    await field('复选框').getByText('选项1').click();
    await field('复选框').getByText('选项3').click();
    await field('下拉框').getByRole('combobox').click();
    await pick('选项3');
    await field('关联表单').getByRole('combobox').click();
    await pick('星河科技');
    await field('联系人').getByRole('textbox').fill('周敏');
    // The area: province, city, county from the dataset, then the street address.
    await field('地址').locator('.ant-cascader').click();
    for (const name of ['广东省', '深圳市', '南山区']) await page.locator('.ant-cascader-dropdown:visible').getByText(name, { exact: true }).click();
    await field('地址').getByRole('textbox', { name: '详细地址' }).fill('科技园一路8号');
    // Batch scan takes codes typed like a scanner: each ends with Enter.
    await field('批量扫码').getByRole('textbox').fill('SN-001');
    await page.keyboard.press('Enter');
    await field('批量扫码').getByRole('textbox').fill('SN-002');
    await page.keyboard.press('Enter');
    // A place on the map (no tiles here: TRITIUM_MAP_TILE_URL is empty) with its address.
    await field('位置').getByRole('button', { name: /选择位置/ }).click();
    const mapDialog = page.getByRole('dialog', { name: '选择位置' });
    await mapDialog.getByRole('application', { name: '地图' }).click({ position: { x: 200, y: 160 } });
    await mapDialog.getByRole('textbox', { name: '地址' }).fill('深圳市南山区科技园');
    await mapDialog.getByRole('button', { name: /确\s*定/ }).click();
    await eventually(() => field('位置').getByRole('textbox').inputValue()).toContain('深圳市南山区科技园');
    // A person through the organisation's picker.
    await field('人员单选').getByRole('button', { name: '人员单选' }).click();
    const picker = page.getByRole('dialog', { name: '选择人员' });
    await picker.getByLabel('搜索', { exact: true }).fill('林青');
    await picker.getByRole('group', { name: '搜索结果' }).getByRole('checkbox', { name: /^林青/ }).click();
    await picker.getByRole('button', { name: '确定' }).click();
    await eventually(() => field('人员单选').getByText('林青').count()).toBeGreaterThan(0);
    // The sub-table: two rows, the second deleted, the first filled.
    await field('明细').getByRole('button', { name: /新增行/ }).click();
    await field('明细').getByRole('button', { name: /新增行/ }).click();
    await field('明细').getByRole('button', { name: /删除第2行/ }).click();
    await field('明细').getByRole('textbox').first().fill('钢管');
    await field('明细').getByRole('spinbutton').first().fill('40');
    // Uploads: an attachment and a photo, through the browser's file chooser.
    await field('附件').locator('input[type=file]').setInputFiles({ name: '合同.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 test contract') });
    await eventually(() => field('附件').getByText('合同.pdf').count()).toBeGreaterThan(0);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await field('图片').locator('input[type=file]').setInputFiles({ name: '现场.png', mimeType: 'image/png', buffer: png });
    await eventually(() => field('图片').getByRole('img').count()).toBeGreaterThan(0);
    // A hand signature drawn on the pad.
    await field('手写签名').getByRole('button', { name: /手写签名/ }).click();
    const pad = page.getByLabel('签名区域');
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 30, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + 90, { steps: 8 });
    await page.mouse.move(box.x + 200, box.y + 50, { steps: 8 });
    await page.mouse.up();
    await page.getByRole('dialog', { name: '手写签名' }).getByRole('button', { name: '确定' }).click();
    await eventually(() => field('手写签名').getByRole('img', { name: '签名图片' }).count()).toBe(1);
    await screenshot(page, 'runtime-create-pc');
  });

  it('submits, and the record opens in View with the server-filled fields', async () => {
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await eventually(() => page.getByText('已提交').count()).toBeGreaterThan(0);
    await eventually(() => form().getByText('生效').count()).toBeGreaterThan(0);
    await eventually(() => field('标题').getByText('青禾首单').count()).toBe(1);
    await eventually(() => field('数值').getByText('1280').count()).toBe(1);
    await eventually(() => field('地址').getByText('广东省 深圳市 南山区 科技园一路8号').count()).toBe(1);
    await eventually(() => field('关联表单').getByText('星河科技').count()).toBe(1);
    await eventually(() => field('位置').getByText(/深圳市南山区科技园 \(/).count()).toBe(1);
    await eventually(() => field('批量扫码').getByText('SN-001;SN-002').count()).toBe(1);
    await eventually(() => field('创建人').getByText('林青').count()).toBe(1);
    await eventually(() => field('人员单选').getByText('林青').count()).toBe(1);
    await eventually(() => field('附件').getByText('合同.pdf').count()).toBe(1);
    await eventually(() => field('手写签名').getByRole('img', { name: '签名图片' }).count()).toBe(1);
    const list = await api<{ list: { ObjectId: string; Name: string }[] }>('POST', '/v1/bizdata/query', { schemaCode: 'order' });
    expect(list.list.map((r) => r.Name)).toEqual(['青禾首单']);
    objectId = list.list[0].ObjectId;
    await screenshot(page, 'runtime-view-pc');
  });

  it('edits in Edit mode, and the data log shows the change', async () => {
    await page.getByRole('button', { name: '编辑', exact: true }).click();
    await field('数值').getByRole('spinbutton').fill('1500');
    await screenshot(page, 'runtime-edit-pc');
    // An effective record has no 提交 and no 暂存: its edits are saved and it stays effective.
    expect(await page.getByRole('button', { name: '暂存' }).count()).toBe(0);
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await eventually(() => field('数值').getByText('1500').count()).toBe(1);
    await page.getByRole('tab', { name: '数据日志' }).click();
    await eventually(() => page.getByText('数值：1280 → 1500').count()).toBe(1);
    await screenshot(page, 'runtime-data-log-pc');
  });

  it('adds a comment and a reply', async () => {
    await page.getByRole('tab', { name: '评论' }).click();
    const input = page.getByRole('textbox', { name: '评论内容' });
    await input.fill('请尽快安排发货');
    await page.getByRole('button', { name: '发表', exact: true }).click();
    await eventually(() => page.getByRole('list', { name: '评论列表' }).getByText('请尽快安排发货').count()).toBe(1);
    await page.getByRole('button', { name: '回复', exact: true }).first().click();
    await input.fill('已安排，明天发出');
    await page.getByRole('button', { name: '发表回复' }).click();
    await eventually(() => page.getByRole('list', { name: '林青的评论的回复' }).getByText('已安排，明天发出').count()).toBe(1);
    await screenshot(page, 'runtime-comments-pc');
  });

  it('prints a clean page, and shows the form at phone width', async () => {
    const print = await signedInPage(browser, baseUrl(), admin, { width: 900, height: 1200 });
    await print.goto(`/form/open/order/${objectId}?mode=Print`);
    // Print mode draws the record with the print renderer (the form's own layout when it has no template, issue 24).
    await print.frameLocator('iframe[title="打印预览"]').getByText('青禾首单').first().waitFor();
    expect(await print.getByRole('button', { name: '编辑' }).count()).toBe(0);
    await screenshot(print, 'runtime-print');
    const phone = await signedInPage(browser, baseUrl(), admin, { width: 390, height: 844 });
    await phone.goto(`/form/open/order/${objectId}`);
    await phone.getByRole('form', { name: '销售订单' }).getByText('青禾首单').waitFor();
    await screenshot(phone, 'runtime-view-phone');
    await phone.goto('/form/open/order');
    await phone.getByRole('form', { name: '销售订单' }).waitFor();
    await screenshot(phone, 'runtime-create-phone');
  });
});
