import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { E2E_CODE } from './global-setup.ts';
import { api, baseUrl, engineWithAdmin, pageOf, uniqueMobile, type Admin } from './fixtures.ts';

/**
 * Issue 46, must show: each built-in template installs into a fresh engine and its main flow runs in the browser
 * (docs/decisions/0131, 0132). One short scenario a template: a new organisation installs it from 模板中心 with its
 * sample data (the progress dialog to its end), then does on the screens what the app is for. People, departments
 * and role members are made through the API; the expected numbers are read from the installed records, not from the
 * builders (decision 0136).
 */
type Member = Admin & { userId: string };
type Installed = { appCode: string; node: (name: string) => string };
type Row = Record<string, unknown>;
const VIEWPORT = { width: 1366, height: 860 };
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const zh = (n: number, decimals = 0) => n.toLocaleString('zh-CN', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
const formOf = (page: Page, name: string) => page.getByRole('form', { name });
const field = (form: Locator, name: string) => form.getByRole('group', { name, exact: true });
const pick = (page: Page, text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option').getByText(text, { exact: true }).last().click();
const rows = async (who: Admin, schemaCode: string, extra: Row = {}) => (await api<{ list: Row[] }>(who, 'POST', '/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 200, ...extra })).list;
const statusOf = async (who: Admin, schemaCode: string, objectId: string) => (await api<{ status: number }>(who, 'POST', '/v1/form/loaddata', { schemaCode, objectId })).status;

/** Installs a built-in from 模板中心 with its sample data, following the progress dialog; answers the new app. */
async function installFromMarket(page: Page, who: Admin, name: string, shot?: string): Promise<Installed> {
  await page.goto('/templates');
  await page.getByRole('list', { name: '模板中心' }).getByRole('button', { name, exact: true }).click();
  const drawer = page.getByRole('dialog', { name });
  const withSamples = drawer.getByRole('checkbox', { name: '同时安装示例数据' });
  await eventually(() => withSamples.isEnabled()).toBe(true);
  expect(await withSamples.isChecked()).toBe(true);
  // The pictures of its screens the manifest names (scripts/template-pictures.ts), fetched with the session.
  const listed = (await api<{ list: { id: string; name: string }[] }>(who, 'GET', '/v1/template/list?source=builtIn&pageSize=100')).list;
  const info = await api<{ pictures: string[] }>(who, 'GET', `/v1/template/info?templateId=${listed.find((t) => t.name === name)!.id}`);
  expect(info.pictures.length).toBeGreaterThan(0);
  await eventually(() => drawer.locator('img[src^="blob:"]').count()).toBe(info.pictures.length);
  if (shot) await screenshot(page, shot);
  await drawer.getByRole('button', { name: '安装' }).click();
  const progress = page.getByRole('dialog', { name: `安装“${name}”` });
  await progress.getByRole('progressbar', { name: '安装进度' }).waitFor();
  const open = progress.getByRole('button', { name: '打开应用' });
  const failed = progress.locator('.ant-alert-error');
  await open.or(failed).first().waitFor({ timeout: 60_000 });
  if (await failed.count()) throw new Error(`${name} did not install: ${await failed.innerText()}`);
  expect(await progress.getByRole('progressbar', { name: '安装进度' }).getAttribute('aria-valuenow')).toBe('100');
  await open.click();
  await page.waitForURL('**/workbench/app/**');
  const appCode = decodeURIComponent(new URL(page.url()).pathname.split('/')[3]!);
  const nodes = (await api<{ list: { code: string; displayName: string }[] }>(who, 'GET', `/v1/functionNode/app/feature/list?appCode=${appCode}`)).list;
  const node = (n: string) => nodes.find((x) => x.displayName === n)?.code ?? expect.fail(`no node “${n}” in ${JSON.stringify(nodes.map((x) => x.displayName))}`);
  return { appCode, node };
}

/** A member of `departmentId`, signed in by code. */
async function person(admin: Admin, name: string, departmentId: string): Promise<Member> {
  const mobile = uniqueMobile();
  const user = await api<{ id: string }>(admin, 'POST', '/v1/org/user/create', { name, mobile, departmentIds: [departmentId] });
  await fetch(`${baseUrl()}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'login' }) });
  const signedIn = await api<{ accessToken: string; engineCode: string }>(null, 'GET', `/v1/login/mobile/verifycode?mobile=${mobile}&code=${E2E_CODE}`);
  return { token: signedIn.accessToken, engineCode: signedIn.engineCode, userId: user.id };
}

/** Lets these people fill in the app's forms. */
const grant = (admin: Admin, appCode: string, people: Member[]) =>
  Promise.all(people.map((p) => api(admin, 'POST', '/v1/functionnode/auth/set', { code: appCode, unitId: p.userId, permission: 'create' })));

/** A department with a manager and an employee in it, and `others` beside them. */
async function department(admin: Admin, name: string, others: string[] = []) {
  const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
  const dept = await api<{ id: string }>(admin, 'POST', '/v1/org/department/create', { parentId: company.id, name });
  const [manager, employee, ...rest] = await Promise.all([`${name}主管`, `${name}员工`, ...others].map((n) => person(admin, n, dept.id)));
  await api(admin, 'POST', '/v1/org/department/update', { id: dept.id, managerId: manager!.userId });
  return { manager: manager!, employee: employee!, others: rest, everyone: [manager!, employee!, ...rest] };
}

/** Opens a new record of `schemaCode`, lets `fill` fill the form, submits; answers the record's id. */
async function submitNew(page: Page, schemaCode: string, formName: string, fill: (form: Locator) => Promise<void>, shot?: string): Promise<string> {
  await page.goto(`/form/open/${schemaCode}`);
  const form = formOf(page, formName);
  await form.waitFor();
  await fill(form);
  if (shot) await screenshot(page, shot);
  await page.getByRole('button', { name: '提交', exact: true }).click();
  await eventually(() => new RegExp(`/form/open/${schemaCode}/[0-9a-f-]{36}`).test(page.url())).toBe(true);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Agrees to a workflow item on the record's page (同意 with an opinion). */
async function agree(page: Page, path: string, opinion = '同意') {
  if (path) await page.goto(path);
  await page.getByRole('tab', { name: '审批记录' }).waitFor();
  await page.getByRole('button', { name: '同意', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: '审批意见' }).fill(opinion);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The text of a list's cell: the row holding `rowText`, the column headed `header`. */
async function cell(page: Page, rowText: string, header: string): Promise<string> {
  const headers = await page.locator('.ant-table-thead th').allInnerTexts();
  const index = headers.findIndex((h) => h.trim() === header);
  if (index < 0) return `(no column ${header} in ${JSON.stringify(headers)})`;
  return (await page.locator('.ant-table-tbody tr', { hasText: rowText }).first().locator('td').nth(index).innerText()).trim();
}

const fresh = async (userName: string, engineName: string) => {
  const admin = await engineWithAdmin({ userName, engineName });
  return { admin, page: await pageOf(admin, VIEWPORT) };
};

describe('the six built-in templates, each installed into a new organisation', () => {
  it('请假审批: an employee asks for leave, the department manager agrees in 待办, the request ends finished', async () => {
    const { admin, page } = await fresh('许晴', '青石文化传媒有限公司');
    const [app, team] = await Promise.all([installFromMarket(page, admin, '请假审批', 'builtin-market-detail'), department(admin, '市场部')]);
    await grant(admin, app.appCode, team.everyone);
    const form = app.node('请假申请');
    await eventually(() => page.locator('.ant-table-row').count()).toBeGreaterThan(0);
    await screenshot(page, 'builtin-leave-list');
    const staff = await pageOf(team.employee, VIEWPORT);
    const objectId = await submitNew(staff, form, '请假申请', async (f) => {
      await field(f, '请假类型').getByRole('combobox').click();
      await pick(staff, '病假');
      for (const [name, day] of [['开始日期', '2026-12-01'], ['结束日期', '2026-12-03']]) {
        await field(f, name!).getByRole('textbox').click();
        await staff.keyboard.type(day!);
        await staff.keyboard.press('Enter');
      }
      await field(f, '请假事由').getByRole('textbox').fill('流感发烧，医嘱休息三天');
    });
    await eventually(() => field(formOf(staff, '请假申请'), '请假天数').innerText()).toContain('3');
    const boss = await pageOf(team.manager, VIEWPORT);
    await boss.goto('/workbench/flow?tab=todo');
    const row = boss.locator('tbody tr', { hasText: '请假申请' });
    await eventually(() => row.count()).toBe(1);
    await screenshot(boss, 'builtin-leave-todo');
    await row.getByRole('link').first().click();
    await agree(boss, '', '注意休息');
    await eventually(() => statusOf(admin, form, objectId)).toBe(1);
    await staff.goto('/workbench/flow?tab=apply');
    await eventually(() => staff.locator('tbody tr', { hasText: '请假申请' }).getByText('已完成').count()).toBe(1);
  });

  it('费用报销: a claim of two items, the total summed on the form, is submitted into its approval', async () => {
    const { admin, page } = await fresh('陆遥', '远帆国际物流有限公司');
    const app = await installFromMarket(page, admin, '费用报销');
    const form = app.node('报销单');
    await eventually(() => page.locator('.ant-table-row').count()).toBeGreaterThan(0);
    await screenshot(page, 'builtin-expense-list');
    const objectId = await submitNew(page, form, '报销单', async (f) => {
      await field(f, '报销事由').getByRole('textbox').fill('杭州客户拜访');
      const items = field(f, '费用明细');
      await items.getByRole('button', { name: /新增行/ }).click();
      await items.getByRole('button', { name: /新增行/ }).click();
      for (const [i, [category, amount]] of [['交通费', '356.5'], ['住宿费', '480']].entries()) {
        await items.getByRole('combobox').nth(i).click();
        await pick(page, category!);
        await items.getByRole('spinbutton').nth(i).fill(amount!);
      }
      await eventually(() => field(f, '报销总额').innerText()).toContain('836.5');
    }, 'builtin-expense-claim');
    await eventually(() => statusOf(admin, form, objectId)).toBe(2);
    const [claim] = await rows(admin, form, { filters: [{ field: 'ObjectId', value: objectId }] });
    expect(Number(claim!.Total)).toBe(836.5);
  });

  it('客户管理: a follow-up of a sample customer counts on it; the sales dashboard shows the samples’ sums', async () => {
    const { admin, page } = await fresh('韩松', '北辰软件有限公司');
    const app = await installFromMarket(page, admin, '客户管理');
    const [customer, followUp, opportunity] = [app.node('客户'), app.node('跟进记录'), app.node('商机')];
    const target = (await rows(admin, customer)).find((r) => Number(r.FollowUps) > 0)!;
    const name = String(target.CustomerName);
    await page.goto(`/workbench/app/${app.appCode}/${followUp}`);
    await page.getByRole('button', { name: /新增/ }).click();
    const f = formOf(page, '跟进记录');
    await f.waitFor();
    await field(f, '客户').getByRole('combobox').click();
    await pick(page, name);
    await field(f, '跟进方式').getByRole('combobox').click();
    await pick(page, '拜访');
    await field(f, '跟进内容').getByRole('textbox').fill('上门沟通续约方案，对方同意下周试用');
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await page.goto(`/workbench/app/${app.appCode}/${customer}`);
    await eventually(() => cell(page, name, '跟进次数')).toBe(String(Number(target.FollowUps) + 1));
    await screenshot(page, 'builtin-crm-customers');
    const deals = await rows(admin, opportunity);
    const sum = (keep: (stage: string) => boolean) => deals.filter((d) => keep(String(d.Stage))).reduce((s, d) => s + Number(d.Amount), 0);
    const [open, won] = [sum((s) => s !== '赢单' && s !== '输单'), sum((s) => s === '赢单')];
    expect(open * won).toBeGreaterThan(0);
    await page.goto(`/workbench/app/${app.appCode}/${app.node('销售看板')}`);
    for (const [title, value] of [['进行中商机总额', open], ['已成交金额', won]] as const) {
      await eventually(() => page.locator('[data-widget]', { hasText: title }).innerText()).toContain(zh(value));
    }
    await eventually(() => page.locator('[data-widget] .ant-skeleton').count()).toBe(0);
    await screenshot(page, 'builtin-crm-dashboard');
  });

  it('进销存: a sales order lowers the product’s stock in 库存清单', async () => {
    const { admin, page } = await fresh('吕航', '恒通电子商贸有限公司');
    const app = await installFromMarket(page, admin, '进销存');
    const [product, sale] = [app.node('商品'), app.node('销售出库单')];
    const item = (await rows(admin, product)).find((r) => Number(r.Stock) > 5)!;
    const itemName = String(item.ProductName);
    await page.goto(`/workbench/app/${app.appCode}/${product}`);
    await eventually(() => cell(page, itemName, '当前库存')).toBe(String(item.Stock));
    await screenshot(page, 'builtin-inventory-stock');
    await submitNew(page, sale, '销售出库单', async (f) => {
      await field(f, '客户').getByRole('textbox').fill('苏州新锐科技有限公司');
      const lines = field(f, '明细');
      await lines.getByRole('button', { name: /新增行/ }).click();
      await lines.getByRole('combobox').first().click();
      await pick(page, itemName);
      await lines.getByRole('spinbutton').nth(0).fill('5');
      await lines.getByRole('spinbutton').nth(1).fill(String(item.SalePrice ?? 100));
    }, 'builtin-inventory-sale');
    await page.goto(`/workbench/app/${app.appCode}/${product}`);
    await eventually(() => cell(page, itemName, '当前库存')).toBe(String(Number(item.Stock) - 5));
    await eventually(() => cell(page, itemName, '累计出库')).toBe(String(Number(item.OutQty) + 5));
  });

  it('项目管理: the Gantt chart shows every sample task', async () => {
    const { admin, page } = await fresh('郝健', '启程工程咨询有限公司');
    const app = await installFromMarket(page, admin, '项目管理');
    const tasks = await rows(admin, app.node('任务'));
    expect(tasks.length).toBeGreaterThan(0);
    await page.goto(`/workbench/app/${app.appCode}/${app.node('任务')}`);
    const chart = page.getByRole('region', { name: '甘特图' });
    const items = chart.getByRole('list', { name: '任务' }).getByRole('listitem');
    await eventually(() => items.count()).toBe(tasks.length);
    const shown = await items.evaluateAll((list) => list.map((i) => i.getAttribute('aria-label')));
    expect([...shown].sort()).toEqual(tasks.map((t) => String(t.TaskName)).sort());
    // Levels by the parent task: each child task is listed after its parent.
    const name = new Map(tasks.map((t) => [t.ObjectId, String(t.TaskName)]));
    const children = tasks.filter((t) => t.ParentTask);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) expect(shown.indexOf(name.get(child.ParentTask)!)).toBeLessThan(shown.indexOf(String(child.TaskName)));
    await screenshot(page, 'builtin-project-gantt');
  });

  it('行政采购: a request of 8,000 yuan goes past the manager to the countersign, and both approvers agree', async () => {
    const { admin, page } = await fresh('苗青', '松柏置业有限公司');
    const [app, team] = await Promise.all([installFromMarket(page, admin, '行政采购'), department(admin, '行政部', ['行政主管甲', '财务主管乙'])]);
    await grant(admin, app.appCode, team.everyone);
    const form = app.node('采购申请');
    await eventually(() => page.locator('.ant-table-row').count()).toBeGreaterThan(0);
    await screenshot(page, 'builtin-purchase-list');
    const roles = (await api<{ list: { id: string; name: string }[] }>(admin, 'GET', '/v1/org/role/list?pageSize=100')).list;
    const signers = team.others;
    for (const [i, role] of ['行政主管', '财务主管'].entries()) {
      const found = roles.find((r) => r.name === role) ?? expect.fail(`no role ${role} after the install: ${JSON.stringify(roles.map((r) => r.name))}`);
      await api(admin, 'POST', '/v1/org/role/member/add', { roleId: found.id, userIds: [signers[i]!.userId] });
    }
    const staff = await pageOf(team.employee, VIEWPORT);
    const objectId = await submitNew(staff, form, '采购申请', async (f) => {
      await field(f, '采购事由').getByRole('textbox').fill('会议室视频会议设备');
      await field(f, '采购类别').getByRole('combobox').click();
      await pick(staff, '电子设备');
      const lines = field(f, '采购明细');
      await lines.getByRole('button', { name: /新增行/ }).click();
      await lines.getByRole('textbox').first().fill('会议平板');
      await lines.getByRole('spinbutton').nth(0).fill('2');
      await lines.getByRole('spinbutton').nth(1).fill('4000');
      await eventually(() => field(f, '合计金额').innerText()).toContain('8000.00');
    }, 'builtin-purchase-request');
    const record = `/form/open/${form}/${objectId}`;
    // The department manager's step (not what this scenario is about) through the API.
    const item = async (who: Admin) => (await api<{ myItems: { workItemId: string }[] }>(who, 'GET', `/v1/workflow/instance/info?schemaCode=${form}&objectId=${objectId}`)).myItems[0]?.workItemId;
    await api(team.manager, 'POST', '/v1/workflow/instance/submit', { workItemId: await item(team.manager), opinion: { text: '同意' } });
    const [first, second] = await Promise.all(signers.map((s) => pageOf(s, VIEWPORT)));
    await first!.goto(record);
    await first!.getByText(/待「行政与财务会签」处理：.*行政主管甲.*财务主管乙|待「行政与财务会签」处理：.*财务主管乙.*行政主管甲/).waitFor();
    await screenshot(first!, 'builtin-purchase-countersign');
    await agree(first!, '');
    expect(await statusOf(admin, form, objectId)).toBe(2);
    await agree(second!, record);
    await eventually(() => statusOf(admin, form, objectId)).toBe(1);
  });
});
