import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api as callAs, appWithPublishedForm, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 23, must show (docs/decisions/0047): on a seeded task form, the kanban board (counts per column, a card
 * dragged to another column saved, a drag the rules refuse springing back, a card added in a column), the calendar (an
 * event dragged to another day saved, a refused drag springing back, an empty day opening a new record with its date),
 * cards, and the phone's list opening as tiles with the collapsed toolbar; screenshots at 1440 and 390 px.
 */
let page: Page;
let admin: Admin;
let member: Admin & { userId: string };
let memberTab: Page;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const ids = new Map<string, string>();

const STAGES = ['待办', '进行中', '已完成'];
const CENTER = { lat: 31.2304, lng: 121.4737 };
const near = (metresNorth: number) => ({ address: `人民广场以北${metresNorth}米`, point: { lat: CENTER.lat + metresNorth / 111_195, lng: CENTER.lng } });
async function add(who: Admin, title: string, stage: string | null, day: number, hours = 2, place?: unknown) {
  const start = `2026-11-${String(day).padStart(2, '0')}T09:00:00+08:00`;
  const end = `2026-11-${String(day).padStart(2, '0')}T${String(9 + hours).padStart(2, '0')}:00:00+08:00`;
  const r = await callAs<{ objectId: string }>(who, 'POST', '/v1/form/action/execute', { schemaCode: 'tasks', actionCode: 'Submit', values: { Title: title, ...(stage ? { Stage: stage } : {}), StartAt: start, EndAt: end, Hours: hours, ...(place ? { Place: place } : {}) } });
  ids.set(title, r.objectId);
}
const valuesOf = (title: string) => api<{ values: Record<string, unknown> }>('POST', '/v1/form/loaddata', { schemaCode: 'tasks', objectId: ids.get(title) }).then((r) => r.values);

const column = (p: Page, name: string) => p.getByRole('region', { name: '看板' }).getByRole('region', { name, exact: true });
const card = (scope: Page | Locator, title: string) => scope.getByRole('button', { name: title, exact: true });

/** Drags with the mouse in small steps (the board starts a drag after a few pixels). */
async function drag(p: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await p.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await p.mouse.down();
  await p.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 5, { steps: 3 });
  await p.mouse.move(b.x + b.width / 2, b.y + Math.min(b.height / 2, 60), { steps: 12 });
  await p.mouse.up();
}

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '韩青', engineName: '青山软件有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'pm', displayName: '项目管理' },
    form: { code: 'tasks', displayName: '项目任务' },
    attributes: { nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '任务名称' } },
      { type: 'dropDown', code: 'Stage', options: { displayName: '阶段', defaultItems: STAGES, itemColors: { 待办: 3, 进行中: 8, 已完成: 6 } } },
      { type: 'dateTime', code: 'StartAt', options: { displayName: '开始时间', displayFormat: 'yyyy-mm-dd hh:mm' } },
      { type: 'dateTime', code: 'EndAt', options: { displayName: '结束时间', displayFormat: 'yyyy-mm-dd hh:mm' } },
      { type: 'number', code: 'Hours', options: { displayName: '工时', decimalPlaces: 0 } },
      { type: 'map', code: 'Place', options: { displayName: '地点' } },
    ],
  });
  await add(admin, '需求评审', '待办', 9, 2, { address: '北京', point: { lat: 39.9042, lng: 116.4074 } });
  await add(admin, '接口设计', '待办', 10, 2, near(800));
  await add(admin, '数据库迁移', '进行中', 11, 4, near(300));
  // The last record with a place: the map opens on it.
  await add(admin, '上线演练', '已完成', 12, 2, near(0));
  await add(admin, '客户回访', null, 16);
  const create = [{ code: 'Create', title: '新增', type: 'Create' }];
  const columns = [{ field: 'Title', width: 200 }, { field: 'Stage' }, { field: 'StartAt', width: 170 }, { field: 'Hours' }];
  await api('POST', '/v1/view/designer/save', {
    schemaCode: 'tasks',
    views: [
      { code: 'All', title: '全部任务', columns, actions: create, quickSearch: ['Title'], filters: ['Stage'] },
      { code: 'Board', title: '任务看板', mode: 8, columns, actions: create, quickSearch: ['Title'], settings: { groupField: 'Stage', titleField: 'Title', fields: ['StartAt', 'Hours'] } },
      { code: 'Cal', title: '任务日历', mode: 1, columns, actions: create, settings: { startField: 'StartAt', endField: 'EndAt', titleField: 'Title', colorField: 'Stage' } },
      { code: 'Cards', title: '任务卡片', mode: 7, columns, actions: create, settings: { titleField: 'Title', fields: ['Stage', 'StartAt', 'Hours'] } },
      { code: 'Where', title: '任务地图', mode: 5, columns, settings: { locationField: 'Place', titleField: 'Title' } },
      { code: 'Line', title: '任务时间轴', mode: 2, columns, actions: create, settings: { startField: 'StartAt', endField: 'EndAt', titleField: 'Title', groupField: 'Stage', zoom: 'week' } },
    ],
  });
  ({ member, page: memberTab } = await memberPage(admin, '钱多', { viewport: { width: 1440, height: 900 } }));
  await api('POST', '/v1/functionnode/auth/set', { code: 'tasks', unitId: member.userId, permission: 'create' });
  await add(member, '成员自己的任务', '待办', 18);
  page = await pageOf(admin, { width: 1440, height: 900 });
}, 180_000);

describe('the view modes in the browser', () => {
  it('kanban: counts per column, a card dragged to another column is saved', async () => {
    await page.goto('/workbench/app/pm/tasks');
    await page.getByRole('tab', { name: '任务看板' }).click();
    await eventually(() => column(page, '待办').getByLabel('3 条').count()).toBe(1);
    await eventually(() => column(page, '进行中').getByLabel('1 条').count()).toBe(1);
    await eventually(() => column(page, '未设置').getByLabel('1 条').count()).toBe(1);
    await screenshot(page, 'view-modes-kanban');
    await drag(page, card(column(page, '待办'), '需求评审'), column(page, '进行中'));
    await eventually(() => page.getByText('已移动到“进行中”').count()).toBe(1);
    await eventually(() => valuesOf('需求评审').then((v) => v.Stage)).toBe('进行中');
    await eventually(() => column(page, '进行中').getByLabel('2 条').count()).toBe(1);
    await eventually(() => card(column(page, '进行中'), '需求评审').count()).toBe(1);
  });

  it("kanban: a drag the form's rules refuse shows why and the card springs back", async () => {
    await memberTab.goto('/workbench/app/pm/tasks');
    await memberTab.getByRole('tab', { name: '任务看板' }).click();
    await eventually(() => card(column(memberTab, '待办'), '接口设计').count()).toBe(1);
    // The board's layout settles (names, counts) before the card's place is measured.
    await eventually(() => column(memberTab, '已完成').getByLabel('1 条').count()).toBe(1);
    await drag(memberTab, card(column(memberTab, '待办'), '接口设计'), column(memberTab, '已完成'));
    await eventually(() => memberTab.getByText(/不能移动：/).count()).toBeGreaterThan(0);
    await screenshot(memberTab, 'view-modes-kanban-refused');
    await eventually(() => card(column(memberTab, '待办'), '接口设计').count()).toBe(1);
    expect(await card(column(memberTab, '已完成'), '接口设计').count()).toBe(0);
    expect((await valuesOf('接口设计')).Stage).toBe('待办');
    // Their own card moves.
    await drag(memberTab, card(column(memberTab, '待办'), '成员自己的任务'), column(memberTab, '已完成'));
    await eventually(() => valuesOf('成员自己的任务').then((v) => v.Stage)).toBe('已完成');
  });

  it('kanban: a card added in a column starts with its value', async () => {
    await column(page, '已完成').getByRole('button', { name: '在“已完成”中新增' }).click();
    const form = page.getByRole('form', { name: '项目任务' });
    await form.waitFor();
    await expect.poll(() => form.getByRole('group', { name: '阶段', exact: true }).textContent()).toContain('已完成');
    await form.getByRole('group', { name: '任务名称', exact: true }).getByRole('textbox').fill('复盘会议');
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await eventually(() => page.getByText('已提交').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await eventually(() => card(column(page, '已完成'), '复盘会议').count()).toBe(1);
  });

  it('calendar: an event dragged to another day is saved; a refused drag springs back', async () => {
    await page.getByRole('tab', { name: '任务日历' }).click();
    const calendar = page.getByRole('region', { name: '日历' });
    await eventually(() => calendar.getByText('数据库迁移').count()).toBeGreaterThan(0);
    await screenshot(page, 'view-modes-calendar');
    const target = calendar.locator('[data-date="2026-11-13"]').first();
    await drag(page, calendar.getByText('数据库迁移').first(), target);
    await eventually(() => page.getByText('已修改时间').count()).toBe(1);
    await eventually(() => valuesOf('数据库迁移').then((v) => String(v.StartAt).slice(0, 10))).toMatch(/2026-11-1[23]/);
    const moved = String((await valuesOf('数据库迁移')).StartAt);
    expect(new Date(moved).toISOString()).toBe(new Date('2026-11-13T09:00:00+08:00').toISOString());

    await memberTab.getByRole('tab', { name: '任务日历' }).click();
    const theirs = memberTab.getByRole('region', { name: '日历' });
    await eventually(() => theirs.getByText('上线演练').count()).toBeGreaterThan(0);
    await drag(memberTab, theirs.getByText('上线演练').first(), theirs.locator('[data-date="2026-11-19"]').first());
    await eventually(() => memberTab.getByText(/不能修改时间：/).count()).toBeGreaterThan(0);
    expect(new Date(String((await valuesOf('上线演练')).StartAt)).toISOString()).toBe(new Date('2026-11-12T09:00:00+08:00').toISOString());
    await eventually(() => theirs.locator('[data-date="2026-11-12"]').getByText('上线演练').count()).toBeGreaterThan(0);
  });

  it('calendar: clicking an empty day opens a new record with that date', async () => {
    const calendar = page.getByRole('region', { name: '日历' });
    await calendar.locator('[data-date="2026-11-24"]').first().click({ position: { x: 30, y: 60 } });
    const form = page.getByRole('form', { name: '项目任务' });
    await form.waitFor();
    await expect.poll(() => form.getByRole('group', { name: '开始时间', exact: true }).getByRole('textbox').inputValue()).toContain('2026-11-24');
    await screenshot(page, 'view-modes-calendar-new');
    await page.keyboard.press('Escape');
  });

  it('cards show the title and the chosen fields; the switcher shows a view as cards', async () => {
    await page.getByRole('tab', { name: '任务卡片' }).click();
    const list = page.getByRole('list', { name: '卡片' });
    await eventually(() => list.getByRole('listitem').count()).toBe(7);
    await screenshot(page, 'view-modes-cards');
    await page.getByRole('tab', { name: '全部任务' }).click();
    await page.getByRole('radiogroup', { name: '显示方式' }).getByText('卡片').click();
    await eventually(() => page.getByRole('list', { name: '卡片' }).getByRole('listitem').count()).toBe(7);
  });

  it('the designer offers every mode and the chosen mode\'s settings', async () => {
    await page.getByRole('tab', { name: '任务看板' }).click();
    await page.getByRole('button', { name: /设计视图/ }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '设计视图' });
    await dialog.getByRole('menuitem', { name: '任务看板' }).click();
    await eventually(() => dialog.getByRole('group', { name: '看板设置' }).count()).toBe(1);
    await eventually(() => dialog.getByRole('group', { name: '看板设置' }).getByText('阶段').count()).toBeGreaterThan(0);
    await screenshot(page, 'view-modes-designer');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('timeline: bars in rows by stage, zoomed by week and by day', async () => {
    await page.getByRole('tab', { name: '任务时间轴' }).click();
    const timeline = page.getByRole('region', { name: '时间轴' });
    await eventually(() => timeline.getByRole('group', { name: '进行中' }).getByRole('button', { name: '数据库迁移' }).count()).toBe(1);
    await eventually(() => timeline.getByRole('group', { name: '已完成' }).getByRole('button', { name: '上线演练' }).count()).toBe(1);
    await eventually(() => timeline.getByRole('group', { name: '未设置' }).getByRole('button', { name: '客户回访' }).count()).toBe(1);
    await screenshot(page, 'view-modes-timeline');
    await timeline.getByRole('radiogroup', { name: '刻度' }).getByText('日').click();
    await timeline.getByRole('button', { name: '上一段' }).click();
    await eventually(() => timeline.getByRole('button', { name: '数据库迁移' }).count()).toBe(1);
    await timeline.getByRole('button', { name: '数据库迁移' }).click();
    await page.getByRole('form', { name: '项目任务' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('map: every record with a place, then those within 500 m and 1,000 m of a point clicked on the map', async () => {
    await page.getByRole('tab', { name: '任务地图' }).click();
    const map = page.getByRole('region', { name: '地图' });
    await eventually(() => map.getByText('共 4 条').count()).toBe(1);
    // Beijing is far away: Shanghai's three places show as one cluster of 3 at the city's zoom.
    await eventually(() => map.locator('.leaflet-marker-icon').filter({ hasText: '3' }).count()).toBe(1);
    await screenshot(page, 'view-modes-map');
    // The person's position: within 500 m (the view's default radius) two places, within 1,000 m three.
    await page.context().grantPermissions(['geolocation']);
    await page.context().setGeolocation({ latitude: CENTER.lat, longitude: CENTER.lng });
    await map.getByRole('button', { name: /我的位置/ }).click();
    await eventually(() => map.getByText('共 2 条').count()).toBe(1);
    expect(await map.getByLabel('地图数据').getByText('上线演练').count()).toBe(1);
    await map.getByRole('radiogroup', { name: '范围（米）' }).getByText('1000 m').click();
    await eventually(() => map.getByText('共 3 条').count()).toBe(1);
    await screenshot(page, 'view-modes-map-range');
    // A point clicked far from them: nothing within 1,000 m.
    const box = (await map.locator('.leaflet-container').boundingBox())!;
    await page.mouse.click(box.x + 30, box.y + box.height - 40);
    await eventually(() => map.getByText('共 0 条').count()).toBe(1);
    await map.getByRole('radiogroup', { name: '范围（米）' }).getByText('全部').click();
    await eventually(() => map.getByText('共 4 条').count()).toBe(1);
  });

  it('phone: a list opens as tiles with search, filter and add, the rest under 更多', async () => {
    const phone = await pageOf(admin, { width: 390, height: 844 });
    await phone.goto('/workbench/app/pm/tasks');
    await eventually(() => phone.getByRole('list', { name: '卡片' }).getByRole('listitem').count()).toBe(7);
    const toolbar = phone.getByRole('toolbar');
    await expect.poll(() => toolbar.getByRole('button', { name: '新增' }).count()).toBe(1);
    await expect.poll(() => toolbar.getByRole('button', { name: '筛选' }).count()).toBe(1);
    expect(await toolbar.getByRole('button', { name: /导入|导出|显示列/ }).count()).toBe(0);
    await screenshot(phone, 'view-modes-phone-tiles');
    await toolbar.getByRole('button', { name: '更多' }).click();
    await eventually(() => phone.getByRole('radiogroup', { name: '显示方式' }).count()).toBe(1);
    await screenshot(phone, 'view-modes-phone-more');
    await phone.keyboard.press('Escape');
    await phone.getByRole('tab', { name: '任务看板' }).click();
    await eventually(() => column(phone, '待办').count()).toBe(1);
    await screenshot(phone, 'view-modes-phone-kanban');
    await phone.getByRole('tab', { name: '任务日历' }).click();
    await eventually(() => phone.getByRole('region', { name: '日历' }).count()).toBe(1);
    await screenshot(phone, 'view-modes-phone-calendar');
    await phone.getByRole('tab', { name: '任务时间轴' }).click();
    await eventually(() => phone.getByRole('region', { name: '时间轴' }).getByRole('button', { name: '数据库迁移' }).count()).toBe(1);
    await screenshot(phone, 'view-modes-phone-timeline');
    await phone.getByRole('tab', { name: '任务地图' }).click();
    await eventually(() => phone.getByRole('region', { name: '地图' }).getByText('共 4 条').count()).toBe(1);
    // The map itself has room above its list.
    expect((await phone.locator('.leaflet-container').boundingBox())!.height).toBeGreaterThan(300);
    await screenshot(phone, 'view-modes-phone-map');
    await phone.close();
  });
});
