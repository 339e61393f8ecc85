import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addInvitedMember, createApp, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';

// test-databases: both — the sweep claims timers with FOR UPDATE SKIP LOCKED; two processes must handle each once.

// Workflow time limits (issue 21; docs/decisions/0042) through the app: a node's deadline on the item and in the flow
// center, and what the scheduler's sweep does when the injectable clock passes it — auto-approve, escalate to the
// manager, transfer, urges every N hours, a reminder — each exactly once with two server processes.

const HOUR = 3_600_000;
let offset = 0;
const now = () => Date.now() + offset;
let t: TestApp, second: TestApp, admin: Person, a: OrgClient, formCode: string;
let worker: InvitedMember, boss: InvitedMember, other: InvitedMember;
let w: OrgClient, b: OrgClient;

const S = { type: 'Start', code: 'Start', name: '发起' };
const E = { type: 'End', code: 'End', name: '结束' };
const line = (...nodes: Record<string, unknown>[]) => {
  const activities = [S, ...nodes, E] as { code: string }[];
  return { activities, routes: activities.slice(1).map((n, i) => ({ from: activities[i].code, to: n.code })) };
};
const approve = (code: string, userId: string, timeLimit: Record<string, unknown>) => ({ type: 'Approve', code, name: `审批${code}`, participants: { sources: [{ type: 'users', ids: [userId] }] }, timeLimit });

beforeAll(async () => {
  t = await createTestApp({ now });
  // A second server process on the same database (its own scheduler, same clock).
  second = await createTestApp({ now, database: t.database });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  const appCode = (await createApp(a)).code;
  boss = await addInvitedMember(t, admin, { name: '主管' });
  other = await addInvitedMember(t, admin, { name: '代理人' });
  const company = await companyIdOf(t, admin.engineCode);
  const team = await a.post('/v1/org/department/create', { parentId: company, name: '销售部', managerId: boss.userId });
  worker = await addInvitedMember(t, admin, { name: '经办人', departmentIds: [team.id] });
  w = nodeClient(t.app, worker);
  b = nodeClient(t.app, boss);
  formCode = (await createForm(a, appCode, { displayName: '请假单' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, formCode, definition([{ type: 'textBox', code: 'Title' }]));
});
// Each case starts with no timers of the cases before it (their new items' deadlines would fall due in its hours).
afterEach(() => t.database.db.deleteFrom('platform.workflow_timers').execute());
afterAll(async () => {
  await second.close();
  await t.close();
});

async function startWith(...nodes: Record<string, unknown>[]) {
  await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: line(...nodes) });
  await a.post('/v1/workflow/template/publish', { schemaCode: formCode });
  const objectId = (await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title: '年假' } })).objectId;
  const instance = await a.post('/v1/workflow/instance/start', { schemaCode: formCode, objectId });
  return { id: instance.instanceId as string, objectId };
}

const detail = (instanceId: string) => a.get('/v1/workflow/instance/detail', { instanceId });
const tick = async (app: TestApp = t) => (await app.app.extras.scheduler.tick())['workflow.time-limits'];
const todos = (c: OrgClient) => c.post('/v1/workflow/todos/list', { tab: 'todo' });
const messages = async (userId: string) =>
  engineSql<{ title: string; content: string }>(t, sql`select title, content from ${tableRef(admin.engineCode, 'internal_messages')} where receiver = ${userId} order by seq`);

/** Moves the clock to `hours` after the real time (items arrive on the real clock). */
const at = (hours: number) => {
  offset = hours * HOUR;
};

describe('workflow time limits', () => {
  it('a one-hour approve node shows its deadline, is overdue after the hour, and auto-approves once', async () => {
    at(0);
    const { id } = await startWith(approve('A', worker.userId, { amount: 1, onTimeout: 'approve' }));
    const [todo] = (await todos(w)).list;
    expect(todo.instanceId).toBe(id);
    expect(new Date(todo.dueTime).getTime() - new Date(todo.receivedTime).getTime()).toBe(HOUR);
    expect(todo.overdue).toBe(false);
    const mine = (await w.get('/v1/workflow/instance/info', { instanceId: id })).myItems[0];
    expect(mine.dueTime).toBe(todo.dueTime);
    expect(await tick()).toBe(0);

    at(1.01);
    // Before the sweep runs, the flow center already marks it overdue by the server's clock.
    expect((await todos(w)).list[0]).toMatchObject({ instanceId: id, overdue: true });
    // Both processes tick at once: one of them approves, nobody approves twice.
    const handled = await Promise.all([tick(t), tick(second)]);
    expect(handled[0] + handled[1]).toBe(1);
    const d = await detail(id);
    expect(d.instance).toMatchObject({ state: 'Finished', approval: 1 });
    expect(d.comments.filter((c: { action: string }) => c.action === 'submit').at(-1)).toMatchObject({ userId: worker.userId, text: '超时自动通过', approval: 1 });
    expect(d.items.filter((i: { activityCode: string }) => i.activityCode === 'A')).toMatchObject([{ state: 'Finished', finisher: worker.userId, approval: 1 }]);
    expect((await todos(w)).list.filter((r: { instanceId: string }) => r.instanceId === id)).toEqual([]);
    expect(await tick()).toBe(0);
  });

  it('another node escalates to the participant\'s department manager when the clock passes its limit', async () => {
    at(0);
    const { id } = await startWith(approve('B', worker.userId, { amount: 1, onTimeout: 'escalate' }));
    at(0.5);
    expect(await tick()).toBe(0);
    at(1.01);
    expect(await Promise.all([tick(t), tick(second)]).then(([x, y]) => x + y)).toBe(1);
    const d = await detail(id);
    const items = d.items.filter((i: { activityCode: string }) => i.activityCode === 'B');
    expect(items).toMatchObject([
      { participant: worker.userId, state: 'Forwarded' },
      { participant: boss.userId, state: 'Waiting', delegant: worker.userId },
    ]);
    expect(d.comments.at(-1)).toMatchObject({ action: 'forward', userId: worker.userId, text: '超时转交主管', receivers: [boss.userId] });
    // The manager has it as a to-do (with its own deadline from its arrival) and a message about it.
    const bossTodo = (await todos(b)).list.find((r: { instanceId: string }) => r.instanceId === id);
    expect(bossTodo.dueTime).not.toBeNull();
    expect((await messages(boss.userId)).some((m) => /^(待办|转交)/.test(m.title))).toBe(true);
    // The manager approves; the flow ends normally.
    await b.post('/v1/workflow/instance/submit', { workItemId: bossTodo.workItemId, opinion: { text: '同意' } });
    expect((await detail(id)).instance).toMatchObject({ state: 'Finished', approval: 1 });
  });

  it('transfers to a named user, and a holder with no manager is reminded instead of escalated', async () => {
    at(0);
    const transfer = await startWith(approve('C', worker.userId, { amount: 2, onTimeout: 'transfer', transferTo: other.userId }));
    // The administrator heads the company: nobody manages them.
    const adminId = (await a.get('/v1/workflow/instance/info', { instanceId: transfer.id })).instance.originator as string;
    const escalate = await startWith(approve('C', adminId, { amount: 2, onTimeout: 'escalate' }));
    at(2.01);
    expect(await tick()).toBe(2);
    expect((await detail(transfer.id)).items.filter((i: { state: string }) => i.state === 'Waiting')).toMatchObject([{ participant: other.userId }]);
    const stuck = await detail(escalate.id);
    expect(stuck.items.filter((i: { state: string }) => i.state === 'Waiting')).toMatchObject([{ participant: adminId, urged: true }]);
    expect((await messages(adminId)).at(-1)!.title).toContain('已超时');
    const adminTodo = (await todos(a)).list.find((r: { instanceId: string }) => r.instanceId === escalate.id);
    expect(adminTodo).toMatchObject({ overdue: true, urged: true });
  });

  it('urges every N hours until the item is done, then the timeout reminds', async () => {
    at(0);
    const { id } = await startWith(approve('D', worker.userId, { amount: 3, onTimeout: 'remind', urgeEveryHours: 1 }));
    const urges = async () => (await messages(worker.userId)).filter((m) => m.title.startsWith('催办')).length;
    const before = await urges();
    at(1.01);
    expect(await tick()).toBe(1);
    expect(await urges()).toBe(before + 1);
    at(1.5);
    expect(await tick()).toBe(0);
    // The server was away for a while: one urge, not one per missed hour.
    at(3.01);
    expect(await tick()).toBe(2);
    expect(await urges()).toBe(before + 2);
    expect((await messages(worker.userId)).at(-1)!.title).toMatch(/^(已超时|催办)/);
    expect((await detail(id)).instance.state).toBe('Running');
    const item = (await todos(w)).list.find((r: { instanceId: string }) => r.instanceId === id);
    await w.post('/v1/workflow/instance/submit', { workItemId: item.workItemId });
    at(4.01);
    // The urge timer finds the item done and goes away without a message.
    expect(await tick()).toBe(1);
    expect(await urges()).toBe(before + 2);
    at(10);
    expect(await tick()).toBe(0);
  });

  it('a timer that fails is tried again later with back-off, and the others still run', async () => {
    at(0);
    const { id } = await startWith(approve('F', worker.userId, { amount: 1, onTimeout: 'approve' }));
    // A timer of an engine that no longer exists: its handling fails (a missing schema).
    await t.database.db.insertInto('platform.workflow_timers').values({ engine_code: 'gone', work_item_id: '0192aaaa-0000-7000-8000-000000000001', kind: 'timeout', fire_at: new Date(now() - HOUR) }).execute();
    at(1.01);
    expect(await tick()).toBe(1);
    expect((await detail(id)).instance).toMatchObject({ state: 'Finished', approval: 1 });
    const failed = await t.database.db.selectFrom('platform.workflow_timers').selectAll().where('engine_code', '=', 'gone').executeTakeFirstOrThrow();
    expect(failed.attempts).toBe(1);
    // Five minutes after the tick's time (the clock runs on with the real one).
    expect(new Date(failed.fire_at).getTime() - now()).toBeGreaterThan(4 * 60_000);
    expect(new Date(failed.fire_at).getTime() - now()).toBeLessThanOrEqual(5 * 60_000);
    expect(await tick()).toBe(0);
  });

  it('reads a template\'s old timeLimitHours as hours with a reminder', async () => {
    at(0);
    const { id } = await startWith({ type: 'Approve', code: 'O', name: '旧', participants: { sources: [{ type: 'users', ids: [worker.userId] }] }, timeLimitHours: 2 });
    const todo = (await todos(w)).list.find((r: { instanceId: string }) => r.instanceId === id);
    expect(new Date(todo.dueTime).getTime() - new Date(todo.receivedTime).getTime()).toBe(2 * HOUR);
    at(2.01);
    expect(await tick()).toBe(1);
    expect((await detail(id)).instance.state).toBe('Running');
    expect((await messages(worker.userId)).at(-1)!.title).toContain('已超时');
    await w.post('/v1/workflow/instance/submit', { workItemId: todo.workItemId });
  });
});
