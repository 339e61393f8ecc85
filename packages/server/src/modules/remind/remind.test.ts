import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, grant, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Reminders (docs/decisions/0019) on PGlite and PostgreSQL: a new todo and an urge reach their receivers, a CC and a
// transfer too; the originator is not told of their own start; unread counts, the list with its filter and paging,
// marking read (only one's own), and another engine seeing none.

let t: TestApp, a: OrgClient, formCode: string;
type P = { id: string; c: OrgClient; token: string; engineCode: string };
let originator: P, approver: P, reader: P, second: P, plain: P;

type Reminder = { taskId: string; kind: string; content: string; taskState: string; senderName: string; instanceName: string; instanceId: string; workItemId: string | null; schemaCode: string; objectId: string };
const reminders = async (p: P, body: Record<string, unknown> = {}) => (await p.c.post('/v1/remindtask/list', body)) as { list: Reminder[]; total: number; hasMore: boolean };
const unread = async (p: P) => (await p.c.get('/v1/remindtask/unread/count')).count as number;
const markRead = (p: P, body: unknown) =>
  t.app.inject({ method: 'PUT', url: '/v1/remindtask/state/read', headers: { authorization: `Bearer ${p.token}`, enginecode: p.engineCode }, payload: body as object });

async function start(Title: string, submit = true) {
  const objectId = (await originator.c.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title } })).objectId;
  return (await originator.c.post('/v1/workflow/instance/start', { schemaCode: formCode, objectId, submit })).instanceId as string;
}
const itemOf = async (p: P, instanceId: string) => (await p.c.get('/v1/workflow/instance/info', { instanceId })).myItems[0].workItemId as string;

beforeAll(async () => {
  let admin;
  let appCode: string;
  ({ t, admin, a, appCode } = await adminWithApp());
  const make = async (name: string): Promise<P> => {
    const p = await addMember(t, admin, { name });
    return { id: p.userId, c: nodeClient(t.app, p), token: p.token, engineCode: p.engineCode };
  };
  [originator, approver, reader, second, plain] = [await make('发起人'), await make('审批人'), await make('抄送人'), await make('接手人'), await make('旁观者')];
  formCode = (await createForm(a, appCode, { displayName: '采购单' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, formCode, definition([{ type: 'textBox', code: 'Title' }], { displayName: '采购单', nameSchema: '{Title}' }));
  await grant(a, formCode, originator.id, 'create');
  const S = { type: 'Start', code: 'Start', name: '发起' };
  const A = { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [approver.id] }] }, permittedActions: ['forward'] };
  const C = { type: 'Circulate', code: 'C', name: '抄送', participants: { sources: [{ type: 'users', ids: [reader.id] }] } };
  const E = { type: 'End', code: 'End', name: '结束' };
  await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: { activities: [S, A, C, E], routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'C' }, { from: 'C', to: 'End' }] } });
  await a.post('/v1/workflow/template/publish', { schemaCode: formCode });
});
afterAll(() => t.close());

describe('delivery', () => {
  it('a new todo reaches the approver; the originator is not told of their own start', async () => {
    const id = await start('打印纸');
    const [todo] = (await reminders(approver)).list;
    expect(todo).toMatchObject({ kind: 'todo', taskState: 'unread', instanceName: '打印纸', instanceId: id, schemaCode: formCode, senderName: '发起人', workItemId: await itemOf(approver, id) });
    expect(await unread(approver)).toBe(1);
    expect(await unread(originator)).toBe(0);
    // A flow left waiting at its start is the originator's own todo: no reminder either.
    await start('草稿', false);
    expect(await unread(originator)).toBe(0);
  });

  it('an urge reaches every open item\'s participant with its text; a transfer and a CC reach theirs', async () => {
    const id = await start('显示器');
    await originator.c.post('/v1/workflow/instance/urge', { instanceId: id, content: '今天要下单' });
    const [urge] = (await reminders(approver)).list;
    expect(urge).toMatchObject({ kind: 'urge', content: '今天要下单', senderName: '发起人', instanceName: '显示器', taskState: 'unread' });
    expect(await unread(approver)).toBe(3);

    await approver.c.post('/v1/workflow/instance/forward', { workItemId: await itemOf(approver, id), userId: second.id });
    const got = (await reminders(second)).list;
    expect(got.map((r) => [r.kind, r.senderName])).toEqual([['forward', '审批人']]);
    await second.c.post('/v1/workflow/instance/submit', { workItemId: await itemOf(second, id) });
    expect((await reminders(reader)).list.map((r) => [r.kind, r.instanceName])).toEqual([['circulate', '显示器']]);
    expect(await unread(originator)).toBe(0);
  });
});

describe('reading', () => {
  it('lists newest first with a state filter and paging; marks the named ones or all as read', async () => {
    const all = await reminders(approver);
    expect(all.list.map((r) => r.kind)).toEqual(['urge', 'todo', 'todo']);
    const page = await reminders(approver, { pageIndex: 1, pageSize: 2 });
    expect(page).toMatchObject({ total: 3, hasMore: false });
    expect(page.list.map((r) => r.taskId)).toEqual([all.list[2].taskId]);

    // The 显示器 to-do was handed on (转交): its reminder is settled and reads as read.
    expect(all.list.map((r) => r.taskState)).toEqual(['unread', 'read', 'unread']);
    const r = await markRead(approver, { taskIds: [all.list[0].taskId] });
    expect(r.json()).toEqual({ successful: true, data: { updated: 1 } });
    expect(await unread(approver)).toBe(1);
    expect((await reminders(approver, { taskState: 'read' })).list.map((x) => x.taskId)).toEqual([all.list[0].taskId, all.list[1].taskId]);
    expect((await reminders(approver, { taskState: 'unread' })).list.map((x) => x.taskId)).toEqual([all.list[2].taskId]);
    expect((await markRead(approver, { all: true })).json().data).toEqual({ updated: 2 });
    expect(await unread(approver)).toBe(0);
  });

  it('someone else\'s reminder is 310001 and nothing changes; a bad body is 777', async () => {
    const theirs = (await reminders(reader)).list[0].taskId;
    const r = await markRead(plain, { taskIds: [theirs] });
    expect(r.json()).toMatchObject({ successful: false, errorCode: 310001 });
    expect(r.statusCode).toBe(404);
    const mixed = await markRead(reader, { taskIds: [theirs, (await reminders(second)).list[0].taskId] });
    expect(mixed.json().errorCode).toBe(310001);
    expect(await unread(reader)).toBe(1);
    expect((await markRead(reader, {})).json().errorCode).toBe(777);
    expect((await markRead(reader, { all: true, taskIds: [theirs] })).json().errorCode).toBe(777);
    expect((await reader.c.raw('POST', '/v1/remindtask/list', { taskState: 'new' })).body.errorCode).toBe(777);
    expect((await reminders(plain)).total).toBe(0);
  });

  it('another engine reads none of them and marks none', async () => {
    const strangerPerson = await registerPerson(t.app, { engineName: '别的公司' });
    const stranger: P = { id: '', c: nodeClient(t.app, strangerPerson), token: strangerPerson.token, engineCode: strangerPerson.engineCode };
    expect((await reminders(stranger)).total).toBe(0);
    expect(await unread(stranger)).toBe(0);
    const theirs = (await reminders(reader)).list[0].taskId;
    expect((await markRead(stranger, { taskIds: [theirs] })).json().errorCode).toBe(310001);
    expect(await unread(reader)).toBe(1);
  });
});

describe('settled to-dos', () => {
  it('a to-do handled anywhere (here 快速审批) no longer counts as unread nor reads as new', async () => {
    const id = await start('订书机');
    const item = await itemOf(approver, id);
    const before = await unread(approver);
    const mine = (await reminders(approver, { taskState: 'unread' })).list.find((r) => r.workItemId === item);
    expect(mine).toMatchObject({ kind: 'todo', taskState: 'unread' });
    await approver.c.post('/v1/workflow/todos/rapid-approve', { workItemIds: [item] });
    expect(await unread(approver)).toBe(before - 1);
    expect((await reminders(approver)).list.find((r) => r.taskId === mine!.taskId)).toMatchObject({ taskState: 'read' });
    expect((await reminders(approver, { taskState: 'unread' })).list.map((r) => r.taskId)).not.toContain(mine!.taskId);
    // Settled reminders are marked read for good by 全部已读, as the others.
    await markRead(approver, { all: true });
    expect(await unread(approver)).toBe(0);
  });
});
