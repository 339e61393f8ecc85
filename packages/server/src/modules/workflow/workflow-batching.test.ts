import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import { appWithStatementLog, type StatementLog } from '../../../test/statement-log.ts';
import { FunctionNodeType, addInvitedMember, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { THEN_COMMIT } from '../../db/pipelined-transaction.ts';

// test-databases: both — set-wise workflow writes (docs/testing.md "Runs on both databases").

// Work-item actions at scale (docs/decisions/0035, 0101). Their statements, counted through the database's onQuery
// hook: an approval is the request's context, one statement that locks and reads its instance, and one that writes
// everything it changed — the instance, tokens, items, trace entries, the record's status, reminders, messages and
// live events — whatever the node's size; a node it activates adds the read of its participants. And on PostgreSQL,
// many approvers acting at once on the same instances: each instance advances exactly once, every vote counted.

let t: TestApp, admin: Person, a: OrgClient, formCode: string;
const members: { id: string; c: OrgClient }[] = [];
const N = 12;
const isPostgres = process.env.TEST_DB_KIND === 'postgres';

let log: StatementLog;
const statementsOf = (action: () => Promise<unknown>) => log.of(action);

beforeAll(async () => {
  let appCode: string;
  ({ log, t, admin, a, appCode } = await appWithStatementLog());
  for (let i = 0; i < N; i++) {
    const person = await addInvitedMember(t, admin, { name: `审批人${i}` });
    members.push({ id: person.userId, c: nodeClient(t.app, person) });
  }
  formCode = (await createForm(a, appCode, { displayName: '报销单' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, formCode, definition([{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Amount' }]));
}, 240_000);
afterAll(async () => {
  await t.close();
  await t.database.close();
});

const S = { type: 'Start', code: 'Start', name: '发起' };
const E = { type: 'End', code: 'End', name: '结束' };
const users = (ids: string[]) => ({ sources: [{ type: 'users', ids }] });
async function publishLine(...nodes: Record<string, unknown>[]) {
  const activities = [S, ...nodes, E] as { code: string }[];
  await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: { activities, routes: activities.slice(1).map((n, i) => ({ from: activities[i].code, to: n.code })) } });
  await a.post('/v1/workflow/template/publish', { schemaCode: formCode });
}
async function startFlow(): Promise<string> {
  const objectId = (await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title: '差旅' } })).objectId;
  return (await a.post('/v1/workflow/instance/start', { schemaCode: formCode, objectId, opinion: { text: '请审批' } })).instanceId;
}
async function itemOf(c: OrgClient, instanceId: string): Promise<string> {
  return (await c.get('/v1/workflow/instance/info', { instanceId })).myItems[0].workItemId;
}
const submit = (c: OrgClient, workItemId: string) => c.post('/v1/workflow/instance/submit', { workItemId, opinion: { text: '同意' } });

const ids = (from: number, to: number) => members.slice(from, to).map((m) => m.id);
const detail = (instanceId: string) => a.get('/v1/workflow/instance/detail', { instanceId });
type Token = { activityCode: string; state: string; agreeCount: number; disagreeCount: number };
const tokensAt = async (instanceId: string, code: string): Promise<Token[]> => (await detail(instanceId)).tokens.filter((x: Token) => x.activityCode === code);

describe('statements per work-item action', () => {
  // Before decision 0035: a vote that leaves its node open cost 19 statements; one that fans the next node out to 11
  // people 22; one that closes a node of 11 open items 10 more than one that closes a node of 1. Before decision 0101:
  // 5, 9 and 7 (a flow's end).
  it('a vote that leaves its node open reads and writes the instance in a handful of statements', async () => {
    await publishLine({ type: 'Approve', code: 'A', name: '会签', participants: users(ids(0, N)), approveExit: { type: 'percentage', value: 100 } });
    const id = await startFlow();
    const first = await itemOf(members[0].c, id);
    await submit(members[0].c, first);
    const item = await itemOf(members[1].c, id);
    const statements = await statementsOf(() => submit(members[1].c, item));
    // The request's context; the instance locked and its tokens, items and template read, in one statement; then the
    // instance, the token, the item and the trace entry written, with the NOTIFY telling the voter's browsers that
    // their to-do count moved (docs/decisions/0038), in one statement.
    expect(statements).toHaveLength(3);
    expect(statements.filter((s) => /wf_(try_)?lock_and_read/.test(s))).toHaveLength(1);
    expect(statements[2]).toMatch(/update \S*"wf_instances"[\s\S]*update \S*"wf_tokens"[\s\S]*update \S*"wf_work_items"[\s\S]*insert into \S*"wf_comments"[\s\S]*pg_notify/);
    // Only the columns the vote changed are set: not the instance's form or originator, not the item's participant.
    expect(statements[2]).not.toMatch(/"(schema_code|originator)" = \$/);
    expect(statements[2]).not.toMatch(/"participant" = "x"\."participant"/);
    // Nothing waits on the write's row: on PostgreSQL it goes with the COMMIT, and the NOTIFY behind the COMMIT, in
    // one round trip (docs/decisions/0104).
    if (isPostgres) expect(statements[2]).toMatch(/\/\* then commit \*\/\n\/\* after commit \*\/\nselect count\(pg_notify/);
    else expect(statements[2]).not.toContain(THEN_COMMIT);
    // Nobody new takes part and no route is taken: neither participants nor the record are read.
    expect(statements.filter((s) => /from "[^"]+"\."(org_users|form_tables)"/.test(s))).toHaveLength(0);
    expect((await tokensAt(id, 'A'))[0]).toMatchObject({ state: 'Running', agreeCount: 2 });
  });

  it('fanning a node out to N people costs the same statements for 2 people as for 11', async () => {
    const fanOut = async (people: string[]) => {
      await publishLine({ type: 'Approve', code: 'A', name: '审批', participants: users(ids(0, 1)) }, { type: 'Approve', code: 'B', name: '会签', participants: users(people) });
      const id = await startFlow();
      const item = await itemOf(members[0].c, id);
      const statements = await statementsOf(() => submit(members[0].c, item));
      const b = await detail(id);
      expect(b.items.filter((i: { activityCode: string; state: string }) => i.activityCode === 'B' && i.state === 'Waiting')).toHaveLength(people.length);
      return statements;
    };
    const two = await fanOut(ids(1, 3));
    const eleven = await fanOut(ids(1, N));
    expect(eleven.length).toBe(two.length);
    // One insert each of the items, the trace, the reminders and the messages, whatever the number of people, all in
    // one statement with the NOTIFYs (their receivers' channel preferences read by it, docs/decisions/0038): the
    // context, the lock with the read, the node's participants, the write.
    for (const table of ['wf_work_items', 'wf_comments', 'remind_tasks', 'internal_messages']) expect(eleven.filter((s) => new RegExp(`insert into \\S*"${table}"`).test(s))).toHaveLength(1);
    expect(eleven.filter((s) => /insert into|update /.test(s))).toHaveLength(1);
    expect(eleven.filter((s) => /pg_notify/.test(s))).toHaveLength(1);
    expect(eleven).toHaveLength(4);
  });

  it('a vote that ends the flow makes the record effective without reading the form again', async () => {
    await publishLine({ type: 'Approve', code: 'A', name: '审批', participants: users(ids(0, 1)) });
    const end = async () => {
      const id = await startFlow();
      const item = await itemOf(members[0].c, id);
      return { id, statements: await statementsOf(() => submit(members[0].c, item)) };
    };
    await end();
    // The second flow's end, the form's caches warm: the context, the lock with the read, and one write — the
    // instance, the record's status, the flow's result as a message and the NOTIFYs. The form, its tables and its
    // rules come from the caches (the 'forms' version holds); with no rule, no form rolling this one up and no
    // automation, nothing reads the record, so its status need not be written before the rest.
    const { id, statements } = await end();
    expect(statements.filter((s) => /from "[^"]+"\."(function_nodes|form_schemas|form_tables|form_business_rules)"/.test(s))).toEqual([]);
    expect(statements.filter((s) => /^select \* from "[^"]+"\."i_/.test(s))).toEqual([]);
    expect(statements).toHaveLength(3);
    expect(statements[2]).toMatch(/update \S*"wf_instances"[\s\S]*update \S*"i_[^"]+" set "Status"[\s\S]*insert into \S*"internal_messages"[\s\S]*pg_notify/);
    // The messages' deliveries to outside channels are writes of the statement (docs/decisions/0134): nothing waits
    // on its row, so on PostgreSQL it goes with the COMMIT, the messages' and to-do counts' events in one NOTIFY
    // statement behind it.
    expect(statements[2]).toMatch(/insert into \S*"notification_deliveries"[\s\S]*insert into "platform"\."jobs"/);
    if (isPostgres) expect(statements[2]).toMatch(/\/\* then commit \*\/\n\/\* after commit \*\/\nselect \(select count\(pg_notify[\s\S]*'message'[\s\S]*\) \+ \(select count\(pg_notify[^\n]*"k":"todos"[^\n]*$/);
    else expect(statements[2]).not.toContain(THEN_COMMIT);
    const { instance } = await detail(id);
    expect(instance).toMatchObject({ state: 'Finished', approval: 1 });
    expect((await a.post('/v1/form/loaddata', { schemaCode: formCode, objectId: instance.objectId })).system.Status).toBe(BizObjectStatus.Effective);
  });

  it('closing a node cancels its other open items in one statement', async () => {
    const close = async (people: string[]) => {
      await publishLine({ type: 'Approve', code: 'A', name: '或签', participants: users(people), approveExit: { type: 'count', value: 1 } }, { type: 'Approve', code: 'B', name: '复核', participants: users(ids(0, 1)) });
      const id = await startFlow();
      const item = await itemOf(members[1].c, id);
      const statements = await statementsOf(() => submit(members[1].c, item));
      expect((await detail(id)).items.filter((i: { state: string }) => i.state === 'Canceled')).toHaveLength(people.length - 1);
      return statements;
    };
    const one = await close(ids(1, 2));
    const eleven = await close(ids(1, N));
    expect(eleven.length).toBe(one.length);
    expect(eleven.filter((s) => /update \S*"wf_work_items"/.test(s))).toHaveLength(1);
    // The context, the lock with the read, the next node's participants, the write.
    expect(eleven).toHaveLength(4);
  });
});

describe.runIf(isPostgres)('many approvers at once (PostgreSQL)', () => {
  const INSTANCES = 4;
  const at = async <T>(work: (i: number) => Promise<T>, n: number) => Promise.all(Array.from({ length: n }, (_, i) => work(i)));

  it('a countersign of every approver on several instances at once: each advances once, every vote counted', async () => {
    await publishLine({ type: 'Approve', code: 'A', name: '会签', participants: users(ids(0, N)), approveExit: { type: 'percentage', value: 100 } }, { type: 'Approve', code: 'B', name: '复核', participants: users(ids(0, 1)) });
    const instances = await at(() => startFlow(), INSTANCES);
    const votes = await at(async (k) => ({ k, item: await itemOf(members[k % N].c, instances[Math.floor(k / N)]) }), INSTANCES * N);
    const answers = await at((k) => members[k % N].c.raw('POST', '/v1/workflow/instance/submit', { workItemId: votes[k].item, opinion: { text: '同意' } }), votes.length);
    expect(answers.filter((r) => r.body.successful)).toHaveLength(INSTANCES * N);
    for (const id of instances) {
      expect(await tokensAt(id, 'A')).toMatchObject([{ state: 'Finished', agreeCount: N, disagreeCount: 0 }]);
      expect(await tokensAt(id, 'B')).toMatchObject([{ state: 'Running' }]);
      expect((await detail(id)).comments.filter((c: { action: string }) => c.action === 'submit')).toHaveLength(N + 1);
    }
  });

  it('one countersign with every approver at once: the votes that wait are applied together, every vote counted once, the node passes once', async () => {
    await publishLine({ type: 'Approve', code: 'A', name: '会签', participants: users(ids(0, N)), approveExit: { type: 'percentage', value: 100 } }, { type: 'Approve', code: 'B', name: '复核', participants: users(ids(0, 1)) });
    const id = await startFlow();
    const items = await at((k) => itemOf(members[k].c, id), N);
    // Every approver at once, and the first one twice: one of their two presses is "already handled".
    const press = (k: number) => members[k % N].c.raw('POST', '/v1/workflow/instance/submit', { workItemId: items[k % N], opinion: { text: `同意${k}` } });
    let answers: Awaited<ReturnType<typeof press>>[] = [];
    const statements = await statementsOf(async () => (answers = await at(press, N + 1)));
    expect(answers.filter((r) => r.body.successful)).toHaveLength(N);
    expect([answers[0], answers[N]].filter((r) => !r.body.successful).map((r) => r.body.errorCode)).toEqual([280007]);
    // The votes that found the instance held waited in its line (docs/decisions/0109): fewer writes than votes.
    const writes = statements.filter((x) => /update \S*"wf_tokens"/.test(x));
    expect(writes.length).toBeLessThan(N);
    expect(writes.length).toBeGreaterThanOrEqual(2);
    expect(await tokensAt(id, 'A')).toMatchObject([{ state: 'Finished', agreeCount: N, disagreeCount: 0 }]);
    expect(await tokensAt(id, 'B')).toMatchObject([{ state: 'Running' }]);
    const submits = (await detail(id)).comments.filter((c: { action: string }) => c.action === 'submit');
    expect(submits).toHaveLength(N + 1);
    // Each vote's own opinion, once.
    expect(new Set(submits.map((c: { text: string }) => c.text)).size).toBe(N + 1);
    // A vote after the node passed meets "already handled" and changes nothing.
    const late = await members[1].c.raw('POST', '/v1/workflow/instance/submit', { workItemId: items[1] });
    expect(late.body.successful).toBe(false);
    expect(await tokensAt(id, 'A')).toMatchObject([{ agreeCount: N }]);
  });

  it('votes that find the instance held by another connection line up behind one that waits for the lock: every vote counted once', async () => {
    await publishLine({ type: 'Approve', code: 'A', name: '会签', participants: users(ids(0, N)), approveExit: { type: 'percentage', value: 100 } }, { type: 'Approve', code: 'B', name: '复核', participants: users(ids(0, 1)) });
    const id = await startFlow();
    const items = await at((k) => itemOf(members[k].c, id), N);
    const waitingForLock = async () =>
      Number((await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(t.database.db)).rows[0]!.n);
    let presses: Promise<{ body: { successful: boolean } }[]> | undefined;
    // Another connection (another server process, an administrator's action) holds the instance's row: no line of
    // this process holds it, so the first vote to find it busy opens one and waits for the lock; the rest join it.
    const statements = await statementsOf(async () => {
      await t.database.db.transaction().execute(async (trx) => {
        await sql`select 1 from ${sql.id(`e_${admin.engineCode}`, 'wf_instances')} where id = ${id} for update`.execute(trx);
        presses = at((k) => members[k].c.raw('POST', '/v1/workflow/instance/submit', { workItemId: items[k], opinion: { text: '同意' } }), N);
        await expect.poll(waitingForLock, { timeout: 15_000 }).toBe(1);
      });
      return presses;
    });
    const answers = await presses!;
    expect(answers.filter((r) => r.body.successful)).toHaveLength(N);
    // The one that waited, then the others together: a couple of writes, not one a vote.
    expect(statements.filter((x) => /update \S*"wf_tokens"/.test(x)).length).toBeLessThan(N / 2);
    expect(await tokensAt(id, 'A')).toMatchObject([{ state: 'Finished', agreeCount: N, disagreeCount: 0 }]);
    expect(await tokensAt(id, 'B')).toMatchObject([{ state: 'Running' }]);
    expect((await detail(id)).comments.filter((c: { action: string }) => c.action === 'submit')).toHaveLength(N + 1);
  });

  it('an any-one node with every approver pressing at once: one vote passes it, the others meet "already handled"', async () => {
    await publishLine({ type: 'Approve', code: 'A', name: '或签', participants: users(ids(0, N)), approveExit: { type: 'count', value: 1 } }, { type: 'Approve', code: 'B', name: '复核', participants: users(ids(0, 1)) });
    const instances = await at(() => startFlow(), INSTANCES);
    const items = await at((k) => itemOf(members[k % N].c, instances[Math.floor(k / N)]), INSTANCES * N);
    const answers = await at((k) => members[k % N].c.raw('POST', '/v1/workflow/instance/submit', { workItemId: items[k] }), items.length);
    for (let i = 0; i < INSTANCES; i++) {
      const mine = answers.slice(i * N, (i + 1) * N);
      expect(mine.filter((r) => r.body.successful)).toHaveLength(1);
      for (const r of mine.filter((x) => !x.body.successful)) expect(r.body.errorCode).toBe(280007);
      expect(await tokensAt(instances[i], 'A')).toMatchObject([{ state: 'Finished', agreeCount: 1 }]);
      expect(await tokensAt(instances[i], 'B')).toHaveLength(1);
    }
  });

  it('parallel branches approved at once join exactly once', async () => {
    const half = N / 2;
    const activities = [
      S,
      { type: 'Parallel', code: 'P', name: '并行' },
      { type: 'Approve', code: 'L', name: '左', participants: users(ids(0, half)), approveExit: { type: 'percentage', value: 100 } },
      { type: 'Approve', code: 'R', name: '右', participants: users(ids(half, N)), approveExit: { type: 'percentage', value: 100 } },
      { type: 'Join', code: 'J', name: '汇聚' },
      { type: 'Approve', code: 'B', name: '复核', participants: users(ids(0, 1)) },
      E,
    ];
    const routes = [['Start', 'P'], ['P', 'L'], ['P', 'R'], ['L', 'J'], ['R', 'J'], ['J', 'B'], ['B', 'End']].map(([from, to]) => ({ from, to }));
    await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: { activities, routes } });
    await a.post('/v1/workflow/template/publish', { schemaCode: formCode });
    const instances = await at(() => startFlow(), INSTANCES);
    const items = await at((k) => itemOf(members[k % N].c, instances[Math.floor(k / N)]), INSTANCES * N);
    const answers = await at((k) => members[k % N].c.raw('POST', '/v1/workflow/instance/submit', { workItemId: items[k] }), items.length);
    expect(answers.filter((r) => r.body.successful)).toHaveLength(INSTANCES * N);
    for (const id of instances) {
      expect(await tokensAt(id, 'L')).toMatchObject([{ state: 'Finished', agreeCount: half }]);
      expect(await tokensAt(id, 'R')).toMatchObject([{ state: 'Finished', agreeCount: N - half }]);
      expect(await tokensAt(id, 'J')).toMatchObject([{ state: 'Finished' }]);
      expect(await tokensAt(id, 'B')).toMatchObject([{ state: 'Running' }]);
    }
  });
});
