import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { downloaded, screenshot } from './browser.ts';
import { api as callAs, appWithPublishedForm, engineWithAdmin, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 22, must show: a dashboard built in the designer with six widget types (number card, bar, line, pie, table,
 * text), one widget resized by its corner; the table exported to .xlsx; a dashboard filter applied; a drill-down from a bar to the list of its
 * records; the dashboard pinned to the workbench; screenshots at PC (1440 px) and phone (390 px) widths. A second board
 * holds a map by the orders' address: a click on a province lists the orders inside it.
 */
let page: Page;
let admin: Admin;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);

const REGIONS = ['华东', '华北', '华南'];
const COUNT = 24;
/** Shenzhen and Guangzhou (广东), Beijing, Urumqi (新疆): the orders' addresses in turn. */
const AREAS = [
  { adcode: '440305', adname: '广东省 深圳市 南山区', detail: '' },
  { adcode: '440106', adname: '广东省 广州市 天河区', detail: '' },
  { adcode: '110101', adname: '北京市 北京市 东城区', detail: '' },
  { adcode: '650102', adname: '新疆维吾尔自治区 乌鲁木齐市 天山区', detail: '' },
];
const record = (i: number) => ({
  Customer: `客户${i + 1}`,
  Region: REGIONS[i % 3],
  Amount: 100 + i * 10,
  // Two orders a month back from the 15th of this month (Asia/Shanghai noon).
  OrderDate: new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - Math.floor(i / 2), 15, 4)).toISOString(),
  Area: AREAS[i % 4],
});
const EAST = Array.from({ length: COUNT }, (_, i) => record(i)).filter((r) => r.Region === '华东');
const EAST_SUM = EAST.reduce((sum, r) => sum + r.Amount, 0);
const ALL_SUM = Array.from({ length: COUNT }, (_, i) => record(i)).reduce((sum, r) => sum + r.Amount, 0);
const IN_GUANGDONG = Array.from({ length: COUNT }, (_, i) => i).filter((i) => AREAS[i % 4]!.adcode.startsWith('44')).length;
const zh = (n: number) => new Intl.NumberFormat('zh-CN').format(n);

const visible = () => page.locator('.ant-select-dropdown:visible');
const pick = (text: string) => visible().locator('.ant-select-item-option').getByText(text, { exact: true }).last().click();
const settings = () => page.getByRole('form', { name: '组件设置' });
const widgets = () => page.locator('[data-widget]');

async function choose(where: Locator, label: string, option: string) {
  await where.getByLabel(label, { exact: true }).click();
  await pick(option);
}

/** Adds a widget of a type and gives it a source and a title. */
async function addWidget(type: string, title: string, source = true) {
  await page.getByRole('button', { name: /添加组件/ }).click();
  await page.getByRole('menuitem', { name: type, exact: true }).click();
  await settings().getByLabel('标题', { exact: true }).fill(title);
  if (source) await choose(settings(), '数据来源', '销售订单');
}

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '陈曦', engineName: '晨曦贸易有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'sales', displayName: '销售管理' },
    form: { code: 'orders', displayName: '销售订单' },
    attributes: { nameSchema: '{Customer}' },
    controls: [
      { type: 'textBox', code: 'Customer', options: { displayName: '客户' } },
      { type: 'dropDown', code: 'Region', options: { displayName: '区域', defaultItems: REGIONS } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 0 } },
      { type: 'dateTime', code: 'OrderDate', options: { displayName: '下单日期' } },
      { type: 'areaSelect', code: 'Area', options: { displayName: '地址' } },
    ],
  });
  for (let i = 0; i < COUNT; i++) await api('POST', '/v1/form/action/execute', { schemaCode: 'orders', actionCode: 'Submit', values: record(i) });
  await api('POST', '/v1/functionnode', { nodeType: 270, code: 'board', appCode: 'sales', displayName: '销售看板' });
  await api('POST', '/v1/functionnode', { nodeType: 270, code: 'regions', appCode: 'sales', displayName: '区域分布' });
  page = await pageOf(admin, { width: 1440, height: 900 });
}, 120_000);

describe('dashboards in the browser', () => {
  it('builds a dashboard of six widget types in the designer, with a filter, and saves it', async () => {
    await page.goto('/workbench/app/sales/board');
    await page.getByRole('button', { name: /设计/ }).click();

    await addWidget('指标卡', '销售额');
    await choose(settings(), '指标 1 的汇总方式', '求和');
    await choose(settings(), '指标 1 的字段', '金额');

    await addWidget('柱状图', '各区域订单');
    await settings().getByRole('button', { name: /添加维度/ }).click();
    await choose(settings(), '维度 1', '区域');

    await addWidget('折线图', '月度订单');
    await settings().getByRole('button', { name: /添加维度/ }).click();
    await choose(settings(), '维度 1', '下单日期');

    await addWidget('饼图', '区域占比');
    await settings().getByRole('button', { name: /添加维度/ }).click();
    await choose(settings(), '维度 1', '区域');

    await addWidget('明细表', '区域汇总');
    await settings().getByRole('button', { name: /添加维度/ }).click();
    await choose(settings(), '维度 1', '区域');
    await settings().getByRole('checkbox', { name: '显示合计与小计' }).check();

    await addWidget('文本', '说明', false);
    await settings().getByLabel('文本内容').fill('本看板统计全部已生效的销售订单。');

    // Resize the bar chart by its corner: new widgets take half the width (the bar sits at the right edge), so taller.
    const bar = page.locator('.react-grid-item').filter({ has: page.locator('[data-widget="w2"]') });
    const before = (await bar.boundingBox())!;
    const handle = (await bar.locator('.react-resizable-handle').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + 10, handle.y + 120, { steps: 8 });
    await page.mouse.move(handle.x + 20, handle.y + 240, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await bar.boundingBox())!.height).toBeGreaterThan(before.height + 100);

    // A board filter on the region, bound to the number card and the bar chart.
    await page.getByRole('button', { name: /筛选器/ }).click();
    const filters = page.getByRole('dialog');
    await filters.getByRole('button', { name: /添加筛选器/ }).click();
    await choose(filters, '筛选类型', '字段');
    await filters.getByLabel('筛选名称').fill('区域');
    await choose(filters, '「销售额」的字段', '区域');
    await choose(filters, '「各区域订单」的字段', '区域');
    await screenshot(page, 'dashboard-designer-filters');
    await page.keyboard.press('Escape');
    await expect.poll(() => filters.isVisible()).toBe(false);
    await expect.poll(() => widgets().filter({ has: page.locator('canvas') }).count(), { timeout: 30_000 }).toBe(3);
    await screenshot(page, 'dashboard-designer');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await expect.poll(() => page.getByText('已保存').count()).toBeGreaterThan(0);

    const saved = await api<{ definition: { widgets: { type: string; layout: { w: number; h: number } }[]; filters: { bindings: unknown[] }[] } }>('GET', '/v1/dashboard/load?code=board');
    expect(saved.definition.widgets.map((w) => w.type)).toEqual(['number', 'bar', 'line', 'pie', 'table', 'text']);
    expect(saved.definition.widgets[1]!.layout.h).toBeGreaterThan(7);
    expect(saved.definition.filters[0]!.bindings).toHaveLength(2);
  });

  it('draws every widget, narrows the bound ones by the filter, and drills down from a bar to its records', async () => {
    await page.goto('/workbench/app/sales/board');
    await expect.poll(() => page.locator('[data-drawn="true"]').count(), { timeout: 30_000 }).toBe(3);
    const card = widgets().filter({ has: page.getByText('销售额', { exact: true }) });
    await expect.poll(() => card.locator('.ant-statistic-content').textContent()).toBe(zh(ALL_SUM));
    await expect.poll(() => widgets().filter({ hasText: '区域汇总' }).locator('.ant-table-summary').textContent()).toContain(String(COUNT));
    await screenshot(page, 'dashboard-pc');

    // The table's numbers as .xlsx, as shown.
    const [download] = await Promise.all([page.waitForEvent('download'), widgets().filter({ hasText: '区域汇总' }).getByRole('button', { name: '导出 Excel' }).click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await downloaded(download)) as never);
    const values = book.worksheets[0]!.getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1));
    expect(values).toEqual([['区域', '记录数'], ['华东', 8], ['华北', 8], ['华南', 8], ['合计', COUNT]]);

    await choose(page.getByRole('search'), '区域', '华东');
    await page.keyboard.press('Escape');
    await expect.poll(() => card.locator('.ant-statistic-content').textContent()).toBe(zh(EAST_SUM));
    // The pie chart is not bound: it still counts every region.
    await screenshot(page, 'dashboard-filtered');

    // The bar chart now has one bar (华东) in the middle of its plot: click it.
    const barChart = widgets().filter({ hasText: '各区域订单' }).locator('[data-drawn="true"]');
    const box = (await barChart.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.75);
    const drawer = page.getByRole('dialog').filter({ hasText: '明细数据' });
    await expect.poll(() => drawer.locator('.ant-table-row').count(), { timeout: 30_000 }).toBe(EAST.length);
    await expect.poll(() => drawer.locator('.ant-table-row').filter({ hasText: '华北' }).count()).toBe(0);
    await screenshot(page, 'dashboard-drill');
    await page.keyboard.press('Escape');
  });

  it('pins the dashboard to the workbench, and stacks it in one column on a phone', async () => {
    await page.getByRole('button', { name: /固定到工作台/ }).click();
    await expect.poll(() => page.getByText('已固定到工作台').count()).toBeGreaterThan(0);
    const config = await api<{ config: { components: { type: string; nodeCode?: string }[] } }>('GET', '/v1/workbench/config');
    expect(config.config.components).toContainEqual(expect.objectContaining({ type: 'dashboard', nodeCode: 'board' }));
    await page.goto('/workbench');
    await expect.poll(() => page.locator('[data-drawn="true"]').count(), { timeout: 30_000 }).toBe(3);
    await screenshot(page, 'dashboard-workbench');

    const phone = await pageOf(admin, { width: 390, height: 844 });
    await phone.goto('/workbench/app/sales/board');
    await expect.poll(() => phone.locator('[data-drawn="true"]').count(), { timeout: 30_000 }).toBe(3);
    const boxes = await phone.locator('[data-widget]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: Math.round(r.x), w: Math.round(r.width) })));
    expect(boxes).toHaveLength(6);
    expect(new Set(boxes.map((b) => b.x)).size).toBe(1);
    for (const b of boxes) expect(b.w).toBeLessThanOrEqual(390);
    await screenshot(phone, 'dashboard-phone');
  });

  it('colours a map of China by the orders\' address, and a click on a province lists the orders inside it', async () => {
    await page.goto('/workbench/app/sales/regions');
    await page.getByRole('button', { name: /设计/ }).click();
    await addWidget('地图', '各省订单');
    await settings().getByRole('button', { name: /添加维度/ }).click();
    // Only the address field is offered as a map's dimension.
    await settings().getByLabel('维度 1', { exact: true }).click();
    await expect.poll(() => visible().locator('.ant-select-item-option').allTextContents()).toEqual(['地址']);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await expect.poll(() => page.getByText('已保存').count()).toBeGreaterThan(0);

    await page.goto('/workbench/app/sales/regions');
    const map = widgets().filter({ hasText: '各省订单' }).locator('[data-drawn="true"]');
    await expect.poll(() => map.count(), { timeout: 30_000 }).toBe(1);
    // Find Guangdong by its tooltip (south-east of the map's middle), then click it.
    const box = (await map.boundingBox())!;
    const tip = map.locator('div').filter({ hasText: '广东省' });
    let found: { x: number; y: number } | undefined;
    for (let fy = 0.7; fy <= 0.95 && !found; fy += 0.03) {
      for (let fx = 0.55; fx <= 0.8 && !found; fx += 0.025) {
        const at = { x: box.x + box.width * fx, y: box.y + box.height * fy };
        await page.mouse.move(at.x, at.y);
        if (await tip.last().isVisible()) found = at;
      }
    }
    expect(found).toBeDefined();
    await expect.poll(() => tip.last().textContent()).toContain(String(IN_GUANGDONG));
    await screenshot(page, 'dashboard-map-pc');
    await page.mouse.click(found!.x, found!.y);
    const drawer = page.getByRole('dialog').filter({ hasText: '明细数据' });
    await expect.poll(() => drawer.locator('.ant-table-row').count(), { timeout: 30_000 }).toBe(IN_GUANGDONG);
    await expect.poll(() => drawer.locator('.ant-table-row').filter({ hasText: '北京' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    const phone = await pageOf(admin, { width: 390, height: 844 });
    await phone.goto('/workbench/app/sales/regions');
    await expect.poll(() => phone.locator('[data-drawn="true"]').count(), { timeout: 30_000 }).toBe(1);
    await screenshot(phone, 'dashboard-map-phone');
  });
});
