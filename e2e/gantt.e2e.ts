import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api as callAs, appWithPublishedForm, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 23, the Gantt chart (docs/decisions/0054) on a seeded plan: tasks by level in swimlanes, a bar dragged two
 * days later saved, a link drawn from one task to another, a drag the form's rules refuse springing back, a task
 * created from the chart (GanttCreateNode); screenshots at 1440 and 390 px.
 */
let page: Page;
let admin: Admin;
let member: Admin & { userId: string };
let memberTab: Page;
const DAY = 86_400_000;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const ids = new Map<string, string>();
const day = (offset: number, hour = 9) => {
  const d = new Date(Date.now() + offset * DAY);
  d.setHours(hour, 0, 0, 0);
  return d.toISOString();
};

async function add(who: Admin, title: string, from: number, to: number, extra: Record<string, unknown> = {}) {
  const r = await callAs<{ objectId: string }>(who, 'POST', '/v1/form/action/execute', { schemaCode: 'plan', actionCode: 'Submit', values: { Title: title, StartAt: day(from), EndAt: day(to, 18), Team: '后端', ...extra } });
  ids.set(title, r.objectId);
}
const valuesOf = (title: string) => api<{ values: Record<string, unknown> }>('POST', '/v1/form/loaddata', { schemaCode: 'plan', objectId: ids.get(title) }).then((r) => r.values);
const chart = (p: Page) => p.getByRole('region', { name: '甘特图' });
const bar = (p: Page, title: string) => chart(p).getByRole('button', { name: title, exact: true }).locator('rect').first();

/** Drags with the mouse in small steps from a point of `from` by `dx`, `dy` pixels. */
async function drag(p: Page, from: Locator, dx: number, dy = 0) {
  const a = (await from.boundingBox())!;
  const x = a.x + Math.min(12, a.width / 2);
  const y = a.y + a.height / 2;
  await p.mouse.move(x, y);
  await p.mouse.down();
  await p.mouse.move(x + dx, y + dy, { steps: 10 });
  await p.mouse.up();
}

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '顾明', engineName: '明远工程有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'proj', displayName: '项目管理' },
    form: { code: 'plan', displayName: '项目计划' },
    attributes: { nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '任务名称' } },
      { type: 'dateTime', code: 'StartAt', options: { displayName: '开始时间', displayFormat: 'yyyy-mm-dd hh:mm' } },
      { type: 'dateTime', code: 'EndAt', options: { displayName: '结束时间', displayFormat: 'yyyy-mm-dd hh:mm' } },
      { type: 'number', code: 'Done', options: { displayName: '进度', decimalPlaces: 0 } },
      { type: 'dropDown', code: 'Team', options: { displayName: '团队', defaultItems: ['后端', '前端'] } },
      { type: 'associationQuery', code: 'Parent', options: { displayName: '上级任务', schemaCode: 'plan' } },
    ],
  });
  await add(admin, '需求分析', -3, -1, { Done: 100 });
  await add(admin, '系统开发', 0, 5, { Done: 30 });
  await add(admin, '接口联调', 2, 4, { Parent: ids.get('系统开发') });
  await add(admin, '页面设计', -1, 2, { Team: '前端', Done: 60 });
  await add(admin, '上线发布', 7, 7);
  const columns = [{ field: 'Title', width: 200 }, { field: 'StartAt', width: 170 }, { field: 'EndAt', width: 170 }];
  await api('POST', '/v1/view/designer/save', {
    schemaCode: 'plan',
    views: [
      { code: 'Plan', title: '项目甘特图', mode: 4, columns, actions: [{ code: 'Create', title: '新增', type: 'Create' }], settings: { startField: 'StartAt', endField: 'EndAt', titleField: 'Title', progressField: 'Done', parentField: 'Parent', swimlanes: ['Team'] } },
      { code: 'All', title: '全部任务', columns },
    ],
  });
  ({ member, page: memberTab } = await memberPage(admin, '钱进', { viewport: { width: 1440, height: 900 } }));
  await api('POST', '/v1/functionnode/auth/set', { code: 'plan', unitId: member.userId, permission: 'create' });
  page = await pageOf(admin, { width: 1440, height: 900 });
}, 180_000);

describe('the Gantt chart in the browser', () => {
  it('shows tasks by level in swimlanes; a bar dragged two days later is saved', async () => {
    await page.goto('/workbench/app/proj/plan');
    await eventually(() => bar(page, '系统开发').count()).toBe(1);
    const tasks = chart(page).getByRole('list', { name: '任务' });
    expect(await tasks.getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')))).toEqual(['需求分析', '系统开发', '接口联调', '上线发布', '页面设计']);
    await eventually(() => chart(page).getByRole('heading', { name: '前端' }).count()).toBe(1);
    await screenshot(page, 'gantt-chart');
    await drag(page, bar(page, '系统开发'), 80);
    await eventually(() => page.getByText('已修改任务时间').count()).toBeGreaterThan(0);
    await eventually(async () => Date.parse(String((await valuesOf('系统开发')).StartAt))).toBe(Date.parse(day(2)));
    expect(Date.parse(String((await valuesOf('系统开发')).EndAt))).toBe(Date.parse(day(7, 18)));
  });

  it('a dot dragged onto another task links them finish-to-start', async () => {
    const dot = chart(page).getByRole('button', { name: '从“需求分析”建立依赖' });
    const target = (await bar(page, '上线发布').boundingBox())!;
    const from = (await dot.boundingBox())!;
    await drag(page, dot, target.x + 4 - from.x - Math.min(12, from.width / 2), target.y + target.height / 2 - (from.y + from.height / 2));
    await eventually(() => page.getByText('已建立依赖').count()).toBeGreaterThan(0);
    const links = await api<{ links: { predecessor: string; successor: string }[] }>('POST', '/v1/bizdata/view/gantt', { schemaCode: 'plan', viewCode: 'Plan' });
    expect(links.links).toEqual([{ predecessor: ids.get('需求分析'), successor: ids.get('上线发布') }]);
    await eventually(() => chart(page).locator('path[marker-end]').count()).toBe(1);
    await screenshot(page, 'gantt-linked');
  });

  it("a drag the form's rules refuse shows why and the bar springs back", async () => {
    await memberTab.goto('/workbench/app/proj/plan');
    await eventually(() => bar(memberTab, '上线发布').count()).toBe(1);
    const before = (await bar(memberTab, '上线发布').boundingBox())!.x;
    await drag(memberTab, bar(memberTab, '上线发布'), 120);
    await eventually(() => memberTab.getByText(/不能修改任务：/).count()).toBeGreaterThan(0);
    await screenshot(memberTab, 'gantt-refused');
    await eventually(async () => (await bar(memberTab, '上线发布').boundingBox())!.x).toBe(before);
    expect(Date.parse(String((await valuesOf('上线发布')).StartAt))).toBe(Date.parse(day(7)));
  });

  it('新建任务 opens the GanttCreateNode form; the saved task shows on the chart', async () => {
    await chart(page).getByRole('button', { name: /新建任务/ }).click();
    const form = page.getByRole('form', { name: '项目计划' });
    await form.waitFor();
    await eventually(() => page.getByText('新建任务', { exact: true }).count()).toBeGreaterThan(0);
    await form.getByRole('group', { name: '任务名称', exact: true }).getByRole('textbox').fill('验收测试');
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await eventually(() => page.getByRole('form', { name: '项目计划' }).count()).toBe(0);
    await eventually(() => bar(page, '验收测试').count()).toBe(1);
  });

  it("the designer offers the Gantt's settings: fields, swimlanes and where links are kept", async () => {
    await page.getByRole('button', { name: /设计视图/ }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '设计视图' });
    await dialog.getByRole('menuitem', { name: '项目甘特图' }).click();
    const settings = dialog.getByRole('group', { name: '甘特图设置' });
    await eventually(() => settings.getByRole('radiogroup', { name: '任务依赖' }).count()).toBe(1);
    await eventually(() => settings.getByText('上级任务').count()).toBeGreaterThan(0);
    await screenshot(page, 'gantt-designer');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('phone: the chart with a narrow task list and thumb-sized rows', async () => {
    const phone = await pageOf(admin, { width: 390, height: 844 });
    await phone.goto('/workbench/app/proj/plan');
    await eventually(() => bar(phone, '系统开发').count()).toBe(1);
    const row = (await chart(phone).getByRole('listitem', { name: '系统开发' }).boundingBox())!;
    expect(row.height).toBeGreaterThanOrEqual(44);
    await screenshot(phone, 'gantt-phone');
    await phone.close();
  });
});
