import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser.ts';
import { call, registerEngine, signedInPage, type Admin } from './session.ts';

/**
 * Issue "Workflow", designer part (docs/decisions/0018): as an administrator, design a three-level expense approval
 * on a workflow form with an amount — Start → 部门经理 (the originator's manager) → 金额判断 (amount > 5000 → 财务,
 * else → End) — save it and see the node without participants flagged, fix it, publish, and dry-run it on a sample
 * record and on typed values.
 */
let browser: Browser;
let page: Page;
let admin: Admin;
const baseUrl = () => inject('baseUrl');
const stamp = String(Date.now()).slice(-7);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
/** The warning a publish shows when people named on its nodes may not open the form; it names them. */
async function acknowledgeParticipantNotice(name: string) {
  const notice = page.getByRole('dialog').filter({ hasText: '没有此表单的访问权限' });
  await eventually(() => notice.getByText(new RegExp(name)).count()).toBeGreaterThan(0);
  await screenshot(page, 'workflow-designer-participants-notice');
  await notice.getByRole('button').last().click();
  await eventually(() => notice.count()).toBe(0);
}
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => call<T>(baseUrl(), admin, method, path, body);

const node = (name: string) => page.getByRole('group', { name, exact: true });
// A straight vertical edge has no width, so routes are counted rather than waited for as visible.
const route = (from: string, to: string) => page.getByRole('group', { name: `连线 ${from} → ${to}` });
const panel = () => page.getByRole('complementary', { name: '属性' });
const palette = (name: string) => page.getByRole('toolbar', { name: '节点' }).getByRole('button', { name });
const pick = (text: string) => page.locator('.ant-select-dropdown:visible').getByText(text, { exact: true }).click();

async function rename(name: string) {
  const input = panel().getByRole('textbox', { name: '节点名称' });
  await input.fill(name);
  await input.blur();
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await registerEngine(baseUrl(), `1371${stamp}`, '林青', '青禾贸易有限公司');
  await api('POST', '/v1/functionnode', { nodeType: 190, code: 'fin', displayName: '财务管理' });
  await api('POST', '/v1/functionnode', { nodeType: 210, code: 'expense', appCode: 'fin', displayName: '费用报销' });
  const loaded = await api<{ draft: { version: number } }>('POST', '/v1/formdesign/load', { schemaCode: 'expense' });
  const definition = {
    attributes: { displayName: '费用报销', nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '事由' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
    ],
  };
  const saved = await api<{ version: number }>('POST', '/v1/formdesign/save', { schemaCode: 'expense', baseVersion: loaded.draft.version, definition });
  await api('POST', '/v1/formdesign/publish', { schemaCode: 'expense', version: saved.version, confirm: [] });

  // The organisation: 林青 works in 销售部, managed by 王经理; 李财务 is in the company.
  const company = (await api<{ id: string }>('GET', '/v1/org/department')).id;
  const manager = await api<{ id: string }>('POST', '/v1/org/user/create', { name: '王经理', mobile: `1372${stamp}`, departmentIds: [company] });
  await api('POST', '/v1/org/user/create', { name: '李财务', mobile: `1373${stamp}`, departmentIds: [company] });
  const sales = await api<{ id: string }>('POST', '/v1/org/department/create', { parentId: company, name: '销售部', managerId: manager.id });
  const me = (await api<{ system: { CreatedBy: string } }>('POST', '/v1/form/loaddata', { schemaCode: 'expense' })).system.CreatedBy;
  await api('POST', '/v1/org/user/update', { id: me, departmentIds: [sales.id], mainDepartmentId: sales.id });
  // A sample record of the form: a large expense.
  await api('POST', '/v1/form/action/execute', { schemaCode: 'expense', actionCode: 'Save', values: { Title: '北京差旅', Amount: 8000 } });
  // A second workflow form, for the child flow (docs/decisions/0024).
  await api('POST', '/v1/functionnode', { nodeType: 210, code: 'payment', appCode: 'fin', displayName: '付款单' });
  const pay = await api<{ draft: { version: number } }>('POST', '/v1/formdesign/load', { schemaCode: 'payment' });
  const payDefinition = { attributes: { displayName: '付款单' }, controls: [{ type: 'textBox', code: 'Reason', options: { displayName: '付款事由' } }, { type: 'number', code: 'Sum', options: { displayName: '付款金额', decimalPlaces: 2 } }] };
  const paySaved = await api<{ version: number }>('POST', '/v1/formdesign/save', { schemaCode: 'payment', baseVersion: pay.draft.version, definition: payDefinition });
  await api('POST', '/v1/formdesign/publish', { schemaCode: 'payment', version: paySaved.version, confirm: [] });
  page = await signedInPage(browser, baseUrl(), admin, { width: 1440, height: 900 });
});
afterAll(() => browser?.close());

describe('the workflow designer in the browser', () => {
  it('opens from the form designer of a workflow form with Start → End', async () => {
    await page.goto('/form/designer?schemaCode=expense');
    await page.getByRole('button', { name: '流程设计' }).click();
    await page.waitForURL(/\/workflow\/designer\?schemaCode=expense/);
    await node('开始').waitFor();
    await node('结束').waitFor();
    await expect.poll(() => route('开始', '结束').count()).toBe(1);
    await screenshot(page, 'workflow-designer-empty');
  });

  it('builds the expense approval from the palette and the property panel', async () => {
    // 开始 selected, 审批 clicked: inserted between Start and End.
    await node('开始').click();
    await palette('审批').click();
    await rename('部门经理');
    await panel().getByRole('button', { name: '添加参与者' }).click();
    await page.getByRole('menuitem', { name: '发起人的上级主管' }).click();
    await eventually(() => panel().getByRole('spinbutton', { name: '主管级数' }).inputValue()).toBe('1');

    await palette('条件分支').click();
    await rename('金额判断');
    await palette('审批').click();
    await rename('财务');
    // Connected by dragging from the node's handle to the End (handles have no role: their xyflow class names them).
    const from = await node('财务').locator('.react-flow__handle-bottom').boundingBox();
    const to = await node('结束').boundingBox();
    await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
    await page.mouse.down();
    await page.mouse.move(to!.x + to!.width / 2, to!.y + 8, { steps: 12 });
    await page.mouse.up();
    await eventually(() => route('财务', '结束').count()).toBe(1);
    // The panel connects too: 部门经理 → 财务 replaces 部门经理's one way out, and is put back the same way.
    await node('部门经理').click();
    await panel().getByRole('combobox', { name: '连线到节点' }).click();
    await pick('财务');
    await panel().getByRole('button', { name: '连线', exact: true }).click();
    await eventually(() => route('部门经理', '财务').count()).toBe(1);
    expect(await route('部门经理', '金额判断').count()).toBe(0);
    await panel().getByRole('combobox', { name: '连线到节点' }).click();
    await pick('金额判断');
    await panel().getByRole('button', { name: '连线', exact: true }).click();
    await eventually(() => route('部门经理', '金额判断').count()).toBe(1);

    // The else branch, then the condition amount > 5000 on the other one.
    await route('金额判断', '结束').click({ force: true });
    await panel().getByRole('switch', { name: '否则（其他情况）' }).click();
    await route('金额判断', '财务').click({ force: true });
    await panel().getByRole('button', { name: '添加条件' }).click();
    await panel().getByRole('combobox', { name: '字段' }).click();
    await pick('金额');
    await panel().getByRole('combobox', { name: '比较方式' }).click();
    await pick('>');
    await panel().getByRole('spinbutton', { name: '值' }).fill('5000');
    await eventually(() => page.getByText('金额 > 5000').count()).toBeGreaterThan(0);

    // A node dragged in from the palette, then deleted.
    await palette('抄送').dragTo(page.getByRole('application'), { targetPosition: { x: 900, y: 120 } });
    await node('抄送').waitFor();
    await panel().getByRole('button', { name: '删除节点' }).click();
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();
    await eventually(() => node('抄送').count()).toBe(0);
    await page.getByRole('button', { name: '自动排列' }).click();
  });

  it('saves, shows the node without participants, and publishes once it is fixed', async () => {
    await page.getByRole('button', { name: '保存' }).click();
    const issues = page.getByRole('list', { name: '流程设计的问题' });
    await eventually(() => page.getByText('节点 财务 没有设置参与者').count()).toBeGreaterThan(0);
    await expect(await node('财务').getByText('1', { exact: true }).count()).toBeGreaterThan(0);
    await screenshot(page, 'workflow-designer-issues');

    // The issue leads to its node; a person through the organisation's picker fixes it.
    await page.getByRole('button', { name: '财务', exact: true }).click();
    await panel().getByRole('button', { name: '添加参与者' }).click();
    await page.getByRole('menuitem', { name: '指定人员' }).click();
    await panel().getByRole('button', { name: '选择人员' }).click();
    const picker = page.getByRole('dialog', { name: '选择人员' });
    await picker.getByLabel('搜索', { exact: true }).fill('李财务');
    await picker.getByRole('group', { name: '搜索结果' }).getByRole('checkbox', { name: /^李财务/ }).click();
    await picker.getByRole('button', { name: '确定' }).click();
    await eventually(() => panel().getByText('李财务').count()).toBeGreaterThan(0);
    await screenshot(page, 'workflow-designer-node-panel');

    await page.getByRole('button', { name: '发布' }).click();
    // 李财务 was never given the app: the publish says so (she still handles her to-dos, decision 0111).
    await acknowledgeParticipantNotice('李财务');
    await eventually(() => page.getByText('已发布 v1').count()).toBe(1);
    expect(await issues.count()).toBe(0);
    const published = await api<{ publishedVersion: number; published: { activities: { name: string; type: string }[] } }>('GET', '/v1/workflow/template/load?schemaCode=expense');
    expect(published.publishedVersion).toBe(1);
    expect(published.published.activities.map((a) => a.name).sort()).toEqual(['部门经理', '结束', '开始', '财务', '金额判断'].sort());
    const activities = await api<{ activities: { name: string }[] }>('GET', '/v1/workflow/template/activity/list?schemaCode=expense');
    expect(activities.activities).toHaveLength(5);
  });

  it('dry-runs a sample record and typed values', async () => {
    await page.getByRole('button', { name: '试运行' }).click();
    const drawer = page.getByRole('dialog', { name: '试运行' });
    await drawer.getByRole('combobox', { name: '样例数据' }).click();
    await pick('北京差旅');
    await drawer.getByRole('button', { name: '开始试运行' }).click();
    const result = drawer.getByRole('region', { name: '试运行结果' });
    await eventually(() => result.getByText('处理人：王经理').count()).toBe(1);
    await eventually(() => result.getByText('处理人：李财务').count()).toBe(1);
    expect(await result.getByText('流向：财务').count()).toBe(1);
    await screenshot(page, 'workflow-designer-dry-run');

    await drawer.getByText('填写字段值').click();
    await drawer.getByRole('spinbutton', { name: '金额' }).fill('300');
    await drawer.getByRole('button', { name: '开始试运行' }).click();
    await eventually(() => result.getByText('流向：结束').count()).toBe(1);
    expect(await result.getByText('处理人：李财务').count()).toBe(0);
    await screenshot(page, 'workflow-designer-dry-run-small');
  });

  it('adds a child flow with a data mapping, a formula route and a required signature, and publishes them', async () => {
    await page.keyboard.press('Escape');
    // The 金额判断 → 财务 route by formula instead of field rules.
    await route('金额判断', '财务').click({ force: true });
    await panel().getByText('公式', { exact: true }).click();
    const formula = panel().getByRole('textbox', { name: '条件公式' });
    await formula.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('OR({Amount} > 5000, CONTAINS({Title}, "紧急"))');
    // 财务 requires a hand signature; a child flow 付款 follows it.
    await node('财务').click();
    await panel().getByRole('radio', { name: '必须签名' }).check();
    await palette('子流程').click();
    await rename('付款');
    await panel().getByRole('combobox').first().click();
    await pick('付款单（payment）');
    await panel().getByRole('button', { name: '添加映射' }).click();
    await panel().getByRole('combobox', { name: '本表单字段' }).click();
    await pick('事由');
    await panel().getByRole('combobox', { name: '子表单字段' }).click();
    await pick('付款事由');
    await screenshot(page, 'workflow-designer-child-flow');
    await page.getByRole('button', { name: '发布' }).click();
    await acknowledgeParticipantNotice('李财务');
    await eventually(() => page.getByText('已发布 v2').count()).toBe(1);
    const published = await api<{ published: { activities: Record<string, unknown>[]; routes: Record<string, unknown>[] } }>('GET', '/v1/workflow/template/load?schemaCode=expense');
    expect(published.published.activities.find((a) => a.name === '付款')).toMatchObject({ type: 'ChildInstance', childSchemaCode: 'payment', wait: true, dataMaps: [{ from: 'Title', to: 'Reason' }] });
    expect(published.published.activities.find((a) => a.name === '财务')).toMatchObject({ handSign: 'required' });
    expect(published.published.routes.find((r) => r.formula)).toMatchObject({ formula: 'OR({Amount} > 5000, CONTAINS({Title}, "紧急"))' });
  });
});
