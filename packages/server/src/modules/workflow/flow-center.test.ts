import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, grant, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// test-databases: both — the flow center's list queries (docs/testing.md "Runs on both databases").

// The flow center through its calls (docs/decisions/0019) on PGlite and PostgreSQL: who sees what on each tab, paging,
// keyword and form filters, rapid approval item by item, the legacy /Home/OnAction, and another engine seeing nothing.

let t: TestApp, a: OrgClient;
let expense: string, leave: string;
const people: Record<'originator' | 'approver' | 'reader' | 'reviewer' | 'plain', { id: string; c: OrgClient; token: string; engineCode: string }> = {} as never;

const S = { type: 'Start', code: 'Start', name: '发起' };
const E = { type: 'End', code: 'End', name: '结束' };
const users = (...ids: string[]) => ({ sources: [{ type: 'users', ids }] });
const line = (...nodes: Record<string, unknown>[]) => {
  const activities = [S, ...nodes, E] as { code: string }[];
  return { activities, routes: activities.slice(1).map((n, i) => ({ from: activities[i].code, to: n.code })) };
};

type Row = { instanceId: string; workItemId: string | null; instanceName: string; formName: string; originatorName: string; currentActivities: { code: string; name: string }[]; urged: boolean; itemType: string | null; activityCode: string | null; instanceState: string; receivedTime: string };
const list = async (c: OrgClient, body: Record<string, unknown>) => (await c.post('/v1/workflow/todos/list', body)) as { list: Row[]; total: number; hasMore: boolean };
const names = async (c: OrgClient, body: Record<string, unknown>) => (await list(c, body)).list.map((r) => r.instanceName);

async function start(schemaCode: string, Title: string, values: Record<string, unknown> = {}, submit = true) {
  const c = people.originator.c;
  const objectId = (await c.post('/v1/form/action/execute', { schemaCode, actionCode: 'Save', values: { Title, ...values } })).objectId;
  return (await c.post('/v1/workflow/instance/start', { schemaCode, objectId, submit })).instanceId as string;
}
async function itemOf(c: OrgClient, instanceId: string): Promise<string> {
  const info = await c.get('/v1/workflow/instance/info', { instanceId });
  return info.myItems[0].workItemId;
}
const legacy = (person: { token: string; engineCode: string }, postData: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/Home/OnAction',
    headers: { authorization: `Bearer ${person.token}`, enginecode: person.engineCode, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ PostData: typeof postData === 'string' ? postData : JSON.stringify(postData) }).toString(),
  });

let ids: { trip1: string; trip2: string; office: string; annual: string };

beforeAll(async () => {
  let admin;
  let appCode: string;
  ({ t, admin, a, appCode } = await adminWithApp());
  for (const [key, name] of [['originator', '发起人'], ['approver', '审批人'], ['reader', '传阅人'], ['reviewer', '复核人'], ['plain', '旁观者']] as const) {
    const p = await addMember(t, admin, { name });
    people[key] = { id: p.userId, c: nodeClient(t.app, p), token: p.token, engineCode: p.engineCode };
  }
  expense = (await createForm(a, appCode, { displayName: '报销单' }, FunctionNodeType.WorkflowModule)).code;
  leave = (await createForm(a, appCode, { displayName: '请假单' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, expense, definition([{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Amount' }], { displayName: '报销单', nameSchema: '{Title}' }));
  await publish(a, leave, definition([{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Days' }], { displayName: '请假单', nameSchema: '{Title}' }));
  for (const code of [expense, leave]) await grant(a, code, people.originator.id, 'create');
  const p = people;
  await a.post('/v1/workflow/template/save', {
    schemaCode: expense,
    template: line(
      { type: 'Approve', code: 'A', name: '部门审批', participants: users(p.approver.id) },
      { type: 'Circulate', code: 'C', name: '抄送财务', participants: users(p.reader.id) },
      { type: 'Approve', code: 'B', name: '财务复核', participants: users(p.reviewer.id) },
    ),
  });
  await a.post('/v1/workflow/template/publish', { schemaCode: expense });
  await a.post('/v1/workflow/template/save', {
    schemaCode: leave,
    template: line({ type: 'Approve', code: 'A', name: '主管审批', participants: users(p.approver.id), fieldPermissions: { Days: { visible: true, editable: true, required: true } } }),
  });
  await a.post('/v1/workflow/template/publish', { schemaCode: leave });
  ids = { trip1: await start(expense, '差旅 北京'), trip2: await start(expense, '差旅 上海'), office: await start(expense, '办公用品 100%'), annual: await start(leave, '年假', { Days: 3 }) };
});
afterAll(() => t.close());

describe('tabs: who sees what', () => {
  it('the approver\'s todo lists their open items, newest first, with form, originator and current activity', async () => {
    const page = await list(people.approver.c, { tab: 'todo' });
    expect(page.list.map((r) => r.instanceName)).toEqual(['年假', '办公用品 100%', '差旅 上海', '差旅 北京']);
    expect(page).toMatchObject({ total: 4, hasMore: false });
    expect(page.list[3]).toMatchObject({ formName: '报销单', originatorName: '发起人', itemType: 'approve', activityCode: 'A', urged: false, instanceState: 'Running', currentActivities: [{ code: 'A', name: '部门审批' }] });
    expect(page.list[0]).toMatchObject({ formName: '请假单', currentActivities: [{ code: 'A', name: '主管审批' }] });
    expect(await names(people.approver.c, { tab: 'apply' })).toEqual([]);
  });

  it('the originator sees apply and their start items as done; nothing to do or read', async () => {
    const apply = await list(people.originator.c, { tab: 'apply' });
    expect(apply.list.map((r) => r.instanceName)).toEqual(['年假', '办公用品 100%', '差旅 上海', '差旅 北京']);
    expect(apply.list.every((r) => r.workItemId === null && r.instanceState === 'Running')).toBe(true);
    expect((await list(people.originator.c, { tab: 'done' })).list.map((r) => r.activityCode)).toEqual(['Start', 'Start', 'Start', 'Start']);
    expect(await names(people.originator.c, { tab: 'todo' })).toEqual([]);
    expect(await names(people.originator.c, { tab: 'toRead' })).toEqual([]);
  });

  it('after an approval: done for the approver, to-read for the CC, todo for the next approver; read moves it to read', async () => {
    await people.approver.c.post('/v1/workflow/instance/submit', { workItemId: await itemOf(people.approver.c, ids.trip1) });
    expect(await names(people.approver.c, { tab: 'done' })).toEqual(['差旅 北京']);
    expect(await names(people.approver.c, { tab: 'todo' })).toHaveLength(3);
    expect(await names(people.reviewer.c, { tab: 'todo' })).toEqual(['差旅 北京']);
    const [cc] = (await list(people.reader.c, { tab: 'toRead' })).list;
    expect(cc).toMatchObject({ instanceName: '差旅 北京', itemType: 'circulate', currentActivities: [{ code: 'B', name: '财务复核' }] });
    expect(await names(people.reader.c, { tab: 'all' })).toEqual(['差旅 北京']);
    expect(await names(people.reader.c, { tab: 'todo' })).toEqual([]);

    await people.reader.c.post('/v1/workflow/instance/read', { instanceId: ids.trip1 });
    expect(await names(people.reader.c, { tab: 'toRead' })).toEqual([]);
    expect(await names(people.reader.c, { tab: 'toRead', readState: 'read' })).toEqual(['差旅 北京']);
    expect(await names(people.reader.c, { tab: 'toRead', readState: 'all' })).toEqual(['差旅 北京']);
    expect(await names(people.approver.c, { tab: 'all' })).toEqual(['年假', '办公用品 100%', '差旅 上海', '差旅 北京']);
  });

  it('a plain member of the engine sees nothing on any tab', async () => {
    for (const tab of ['todo', 'toRead', 'apply', 'done', 'all']) expect(await list(people.plain.c, { tab })).toEqual({ list: [], total: 0, hasMore: false });
    expect((await people.plain.c.get('/v1/workflow/todos/forms')).list).toEqual([]);
  });

  it('another engine sees nothing and cannot approve this engine\'s items', async () => {
    const stranger = nodeClient(t.app, await registerPerson(t.app, { engineName: '别的公司' }));
    for (const tab of ['todo', 'apply', 'all']) expect((await list(stranger, { tab })).total).toBe(0);
    const item = await itemOf(people.approver.c, ids.trip2);
    const r = await stranger.post('/v1/workflow/todos/rapid-approve', { workItemIds: [item] });
    expect(r.results).toEqual([{ workItemId: item, successful: false, errorCode: 280006, errorMessage: expect.any(String) }]);
    expect(await names(people.approver.c, { tab: 'todo' })).toContain('差旅 上海');
  });
});

describe('paging and filters', () => {
  it('pages newest first, searches the name literally and filters by form and instance state', async () => {
    const c = people.originator.c;
    const first = await list(c, { tab: 'apply', pageIndex: 0, pageSize: 3 });
    const second = await list(c, { tab: 'apply', pageIndex: 1, pageSize: 3 });
    expect([first.total, first.hasMore, second.hasMore]).toEqual([4, true, false]);
    expect([...first.list, ...second.list].map((r) => r.instanceName)).toEqual(['年假', '办公用品 100%', '差旅 上海', '差旅 北京']);
    expect(await names(c, { tab: 'apply', keyword: '差旅' })).toEqual(['差旅 上海', '差旅 北京']);
    expect(await names(c, { tab: 'apply', keyword: '100%' })).toEqual(['办公用品 100%']);
    expect(await names(c, { tab: 'apply', keyword: '%' })).toEqual(['办公用品 100%']);
    expect(await names(c, { tab: 'apply', keyword: '_' })).toEqual([]);
    expect(await names(c, { tab: 'apply', schemaCode: leave })).toEqual(['年假']);
    expect(await names(c, { tab: 'apply', instanceState: 'finished' })).toEqual([]);
    expect((await c.get('/v1/workflow/todos/forms')).list).toEqual([
      { schemaCode: expense, formName: '报销单' },
      { schemaCode: leave, formName: '请假单' },
    ].sort((x, y) => x.formName.localeCompare(y.formName, 'en')));
  });

  it('refuses a bad page or tab with 777 and the field', async () => {
    for (const [body, path] of [[{ tab: 'todo', pageSize: 0 }, 'pageSize'], [{ tab: 'mine' }, 'tab'], [{ tab: 'todo', pageIndex: -1 }, 'pageIndex']] as const) {
      const r = await people.approver.c.raw('POST', '/v1/workflow/todos/list', body);
      expect(r.body).toMatchObject({ successful: false, errorCode: 777 });
      expect(JSON.stringify(r.body.detail.issues)).toContain(path);
    }
  });
});

describe('rapid approval', () => {
  it('agrees several items; an item already handled, a fill item and a node with empty required fields answer on their own', async () => {
    const c = people.approver.c;
    const handled = (await list(c, { tab: 'done' })).list[0].workItemId!;
    const trip2 = await itemOf(c, ids.trip2);
    const office = await itemOf(c, ids.office);
    const annual = await itemOf(c, ids.annual);
    const emptyDays = await start(leave, '病假');
    const needsForm = await itemOf(c, emptyDays);
    const r = await c.post('/v1/workflow/todos/rapid-approve', { workItemIds: [trip2, handled, office, annual, needsForm] });
    expect(r.results.map((x: { successful: boolean; errorCode: number | null }) => [x.successful, x.errorCode])).toEqual([[true, null], [false, 280007], [true, null], [true, null], [false, 280071]]);
    expect(r).toMatchObject({ successCount: 3, failCount: 2 });
    expect(await names(c, { tab: 'todo' })).toEqual(['病假']);
    expect(await names(people.reviewer.c, { tab: 'todo' })).toEqual(['办公用品 100%', '差旅 上海', '差旅 北京']);
    const annualRow = (await list(people.originator.c, { tab: 'apply', keyword: '年假' })).list[0];
    expect(annualRow).toMatchObject({ instanceState: 'Finished', currentActivities: [] });
    expect(await names(people.originator.c, { tab: 'apply', instanceState: 'finished' })).toEqual(['年假']);

    // The originator's own fill item (a flow waiting at the start) is not an approval.
    const draft = await start(expense, '草稿中的报销', {}, false);
    const fill = await itemOf(people.originator.c, draft);
    const f = await people.originator.c.post('/v1/workflow/todos/rapid-approve', { workItemIds: [fill] });
    expect(f.results[0]).toMatchObject({ successful: false, errorCode: 280070 });
    expect(await names(people.originator.c, { tab: 'todo' })).toEqual(['草稿中的报销']);
    // Repeated or too many ids are a 777 and change nothing.
    expect((await c.raw('POST', '/v1/workflow/todos/rapid-approve', { workItemIds: [needsForm, needsForm] })).body.errorCode).toBe(777);
    expect((await c.raw('POST', '/v1/workflow/todos/rapid-approve', { workItemIds: [] })).body.errorCode).toBe(777);
  });
});

describe('legacy /Home/OnAction', () => {
  it('lists the home work items and counts in the legacy envelope', async () => {
    const r = await legacy(people.reviewer, { ActionName: 'LoadWorkItems', PageSize: 2 });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ Successful: true, ErrorMessage: null, DataType: 0, ReturnData: { TotalCount: 3, HasMore: true } });
    expect(body.ReturnData.WorkItems).toHaveLength(2);
    expect(body.ReturnData.WorkItems[0]).toMatchObject({ InstanceName: '办公用品 100%', DisplayName: '报销单', OriginatorName: '发起人', ActivityCode: 'B', ActivityDisplayName: '财务复核', ItemType: 'approve', Urged: false });
    const count = (await legacy(people.reviewer, { ActionName: 'LoadWorkItemCount' })).json();
    expect(count.ReturnData).toEqual({ UnfinishedWorkItemCount: 3, UnreadCirculateCount: 0, UnfinishedInstanceCount: 0 });
  });

  it('rapid approval: the list defaults to status "0" (open approval items); RapidApprove takes "id;id" and answers per item', async () => {
    const open = (await legacy(people.reviewer, { ActionName: 'LoadRapidApprovalItems' })).json();
    expect(open.ReturnData).toMatchObject({ Status: '0', TotalCount: 3 });
    const itemIds: string[] = open.ReturnData.WorkItems.map((w: { WorkItemId: string }) => w.WorkItemId);
    const r = (await legacy(people.reviewer, { ActionName: 'RapidApprove', WorkItemIds: `${itemIds[0]};${itemIds[1]}`, Comment: '已核对' })).json();
    expect(r).toMatchObject({ Successful: true, ReturnData: { SuccessCount: 2, FailCount: 0 } });
    const again = (await legacy(people.reviewer, { ActionName: 'RapidApprove', WorkItemIds: [itemIds[0]] })).json();
    expect(again.ReturnData.Results[0]).toMatchObject({ WorkItemId: itemIds[0], Successful: false, ErrorCode: 280007 });
    const handled = (await legacy(people.reviewer, { ActionName: 'LoadRapidApprovalItems', Status: 2 })).json();
    expect(handled.ReturnData.WorkItems.map((w: { WorkItemId: string }) => w.WorkItemId).sort()).toEqual(itemIds.slice(0, 2).sort());
    const detail = await a.get('/v1/workflow/instance/detail', { instanceId: open.ReturnData.WorkItems[0].InstanceId });
    expect(detail.comments.some((x: { action: string; text: string }) => x.action === 'submit' && x.text === '已核对')).toBe(true);
  });

  it('answers failures as Successful:false: an unknown action, bad PostData, a bad parameter; no token is a 401', async () => {
    expect((await legacy(people.reviewer, { ActionName: 'DropAll' })).json()).toMatchObject({ Successful: false, ErrorCode: 280072 });
    expect((await legacy(people.reviewer, '{not json')).json()).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect((await legacy(people.reviewer, { ActionName: 'LoadWorkItems', PageSize: 1000 })).json()).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect((await legacy(people.reviewer, { ActionName: 'RapidApprove', WorkItemIds: 'x;y' })).json()).toMatchObject({ Successful: false, ErrorCode: 777 });
    const anonymous = await t.app.inject({ method: 'POST', url: '/Home/OnAction', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'PostData=%7B%7D' });
    expect(anonymous.statusCode).toBe(401);
  });
});
