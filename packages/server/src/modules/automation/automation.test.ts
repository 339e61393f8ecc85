// test-databases: both — run claims (SKIP LOCKED), the runs' unique event key and the schedule sweep are SQL whose locking differs
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createApp } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { startFakeSmtp, type FakeSmtp } from '../../../test/channel-fakes.ts';
import { call } from '../../../test/helpers.ts';
import { engineDb } from '../../db/database.ts';

// Automations (issue 21; docs/decisions/0041) through the calls: record events queue one run each, the job runs the
// steps as the owner, the log tells what happened; timed triggers follow the injected clock; a cycle is stopped and
// logged; webhooks, buttons, test runs, e-mail to a local SMTP server and HTTP steps to a local server.

let now = Date.parse('2026-11-26T01:00:00Z');
let t: TestApp, admin: Person, a: OrgClient, appCode: string;
let smtp: FakeSmtp;
let http: Server, httpUrl: string;
const httpCalls: { method: string; body: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  smtp = await startFakeSmtp({ user: 'mailer', password: 'smtp-pass-1' });
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      httpCalls.push({ method: req.method!, body });
      if (req.url?.startsWith('/fail')) return void res.writeHead(503).end('busy');
      if (req.url?.startsWith('/huge')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(2 * 1024 * 1024));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { ticket: `T-${httpCalls.length}` } }));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await new Promise((r) => (http ? http.close(r) : r(undefined)));
});

const exec = (schemaCode: string, actionCode: string, body: Record<string, unknown> = {}) => a.post('/v1/form/action/execute', { schemaCode, actionCode, ...body });
const rows = async (schemaCode: string) => ((await a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 100, sort: [{ field: 'CreatedTime', direction: 'asc' }] })).list as Record<string, unknown>[]);
const field = (code: string) => ({ type: 'field', code });
const constant = (value: unknown) => ({ type: 'constant', value });
/** Runs every job that is due, as the job runner would. */
async function drain(): Promise<number> {
  let n = 0;
  while (await t.app.extras.jobs.runOnce()) n++;
  return n;
}
const save = async (schemaCode: string, automation: Record<string, unknown>) => (await a.post('/v1/automatic/save', { schemaCode, automation })).automation as { id: string; webhookUrl: string | null; nextRunTime: string | null };
const logs = async (schemaCode: string, more: Record<string, unknown> = {}) => (await a.post('/v1/automatic/logs', { schemaCode, ...more })) as { total: number; runs: { state: string; error: string | null; steps: { ok: boolean; output: any }[]; objectId: string | null }[] };

async function forms() {
  const order = (await createForm(a, appCode, { displayName: '订单' })).code as string;
  const delivery = (await createForm(a, appCode, { displayName: '发货单' })).code as string;
  await publish(a, order, definition([{ type: 'textBox', code: 'Customer' }, { type: 'number', code: 'Amount' }, { type: 'textBox', code: 'Ticket' }, { type: 'dateTime', code: 'DueDate' }]));
  await publish(a, delivery, definition([{ type: 'textBox', code: 'OrderRef' }, { type: 'textBox', code: 'Customer' }, { type: 'textBox', code: 'Note' }]));
  return { order, delivery };
}

describe('automations', () => {
  it('an effective order inserts a delivery and notifies its owner, once per event; the condition and the switch hold', async () => {
    const { order, delivery } = await forms();
    const saved = await save(order, {
      name: '生效后发货',
      trigger: { type: 'effective' },
      condition: { type: 'And', children: [{ field: 'Amount', operator: 'Above', value: 100 }] },
      steps: [
        { id: 'ins', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'OrderRef', value: field('ObjectId') }, { field: 'Customer', value: field('Customer') }] },
        { id: 'tell', type: 'notification', recipients: { owner: true }, title: '订单{Customer}已生效', content: '金额{Amount}' },
      ],
    });
    const big = (await exec(order, 'Submit', { values: { Customer: '甲', Amount: 500 } })).objectId;
    await exec(order, 'Submit', { values: { Customer: '乙', Amount: 50 } });
    expect(await rows(delivery)).toEqual([]); // nothing runs inside the request
    expect(await drain()).toBe(1);
    expect((await rows(delivery)).map((r) => [r.OrderRef, r.Customer, r.Status])).toEqual([[big, '甲', 1]]);
    const log = await logs(order);
    expect(log.runs.map((r) => [r.state, r.objectId])).toEqual([['Succeeded', big]]);
    expect(log.runs[0]!.steps[0]!.output.inserted).toHaveLength(1);
    const messages = await a.post('/v1/toolkit/internalmessage/list', { category: 'automation' });
    expect(messages.list.map((m: { title: string }) => m.title)).toContain('订单甲已生效');
    // Editing the effective order is not an effective event again.
    await exec(order, 'Save', { objectId: big, values: { Customer: '甲2' } });
    expect(await drain()).toBe(0);
    // Paused: no run.
    await a.post('/v1/automatic/disable', { id: saved.id });
    await exec(order, 'Submit', { values: { Customer: '丙', Amount: 900 } });
    expect(await drain()).toBe(0);
    expect((await logs(order)).total).toBe(1);
  });

  it('a changing trigger fires only when its field changes to the value named', async () => {
    const { order, delivery } = await forms();
    await save(order, {
      name: '客户改为VIP',
      trigger: { type: 'changing', field: 'Customer', to: 'VIP' },
      steps: [{ id: 'ins', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'Note', value: constant('升级') }, { field: 'OrderRef', value: field('ObjectId') }] }],
    });
    const id = (await exec(order, 'Submit', { values: { Customer: '普通', Amount: 1 } })).objectId;
    await exec(order, 'Save', { objectId: id, values: { Amount: 2 } });
    await exec(order, 'Save', { objectId: id, values: { Customer: 'VIP' } });
    await exec(order, 'Save', { objectId: id, values: { Customer: 'VIP', Amount: 3 } });
    expect(await drain()).toBe(1);
    expect((await rows(delivery)).map((r) => r.Note)).toEqual(['升级']);
  });

  it('two automations that start each other are stopped at the cycle with a clear log entry', async () => {
    const { order, delivery } = await forms();
    await save(order, { name: '订单写发货', trigger: { type: 'created' }, steps: [{ id: 's', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'Note', value: constant('来自订单') }] }] });
    await save(delivery, { name: '发货写订单', trigger: { type: 'created' }, steps: [{ id: 's', type: 'insert', targetSchemaCode: order, mappings: [{ field: 'Customer', value: constant('来自发货') }] }] });
    await exec(order, 'Submit', { values: { Customer: '起点' } });
    await drain();
    const stopped = (await logs(order, { state: 'Stopped' })).runs;
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.error).toMatch(/检测到自动化循环：“订单写发货” → “发货写订单” → “订单写发货”/);
    expect((await rows(order)).map((r) => r.Customer)).toEqual(['起点', '来自发货']);
  });

  it('a timed trigger runs at its times by the clock, and once for what fell due while nothing ran', async () => {
    const { order, delivery } = await forms();
    const start = new Date(now + 3_600_000).toISOString();
    const saved = await save(order, { name: '每小时汇总', trigger: { type: 'timing', cycle: 'hourly', start }, steps: [{ id: 's', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'Note', value: constant('定时') }] }] });
    expect(saved.nextRunTime).toBe(start);
    const tick = () => t.app.extras.scheduler.tick();
    expect((await tick())['automation.schedules']).toBe(0);
    now += 3_600_000;
    expect((await tick())['automation.schedules']).toBe(1);
    expect((await tick())['automation.schedules']).toBe(0);
    // Five hours with the server down: one run at the next tick, then on from the present.
    now += 5 * 3_600_000;
    expect((await tick())['automation.schedules']).toBe(1);
    await drain();
    expect((await rows(delivery)).map((r) => r.Note)).toEqual(['定时', '定时']);
    const listed = (await a.post('/v1/automatic/list', { schemaCode: order })).automations[0];
    expect(new Date(listed.nextRunTime).getTime()).toBe(now + 3_600_000);
  });

  it('a date trigger fires for each record at its date plus the offset, once', async () => {
    const { order, delivery } = await forms();
    await save(order, { name: '到期前一天', trigger: { type: 'date', field: 'DueDate', offsetDays: -1, time: '09:00' }, steps: [{ id: 's', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'OrderRef', value: field('ObjectId') }] }] });
    // Due 2026-11-28 (China): fires 2026-11-27 09:00 China = 01:00Z.
    const id = (await exec(order, 'Submit', { values: { Customer: '甲', DueDate: '2026-11-28 10:00:00' } })).objectId;
    now = Date.parse('2026-11-27T00:59:00Z');
    await t.app.extras.scheduler.tick();
    await drain();
    expect(await rows(delivery)).toEqual([]);
    now = Date.parse('2026-11-27T01:00:30Z');
    await t.app.extras.scheduler.tick();
    now += 120_000;
    await t.app.extras.scheduler.tick();
    await drain();
    expect((await rows(delivery)).map((r) => r.OrderRef)).toEqual([id]);
  });

  it('a webhook with its token runs with the body as values; a wrong token is refused and queues nothing', async () => {
    const { order, delivery } = await forms();
    const saved = await save(order, { name: '外部下单', trigger: { type: 'webhook' }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: delivery, forEach: { type: 'subtable', code: 'items' }, mappings: [{ field: 'Customer', value: field('customer') }, { field: 'Note', value: field('items.sku') }] }] });
    expect(saved.webhookUrl).toMatch(/^\/v1\/automatic\/webhook\/.+\?token=[0-9a-f]{48}$/);
    const [path] = saved.webhookUrl!.split('?');
    const wrong = await call(t.app, 'POST', `${path}?token=nope`, { body: { customer: 'x' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errorCode).toBe(360005);
    const right = await call(t.app, 'POST', saved.webhookUrl!, { body: { customer: '外部客户', items: [{ sku: 'A1' }, { sku: 'B2' }] } });
    expect(right.status).toBe(200);
    await drain();
    expect((await rows(delivery)).map((r) => [r.Customer, r.Note])).toEqual([['外部客户', 'A1'], ['外部客户', 'B2']]);
  });

  it('a test run shows what each step would do and writes nothing; the action of a plugin needs the plugin installed', async () => {
    const { order, delivery } = await forms();
    const id = (await exec(order, 'Submit', { values: { Customer: '甲', Amount: 5 } })).objectId;
    const automation = { name: '试', trigger: { type: 'effective' }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'Customer', value: field('Customer') }] }, { id: 'h', type: 'http', url: `${httpUrl}/x`, body: '{"c":"{Customer}"}' }] };
    const result = await a.post('/v1/automatic/testrun', { schemaCode: order, automation, objectId: id });
    expect(result.matched).toBe(true);
    expect(result.steps.map((s: { ok: boolean }) => s.ok)).toEqual([true, true]);
    expect(result.steps[0].output.inserted).toHaveLength(1);
    expect(result.steps[1].output).toMatchObject({ sent: false, request: { method: 'POST', body: '{"c":"甲"}' } });
    expect(await rows(delivery)).toEqual([]);
    const before = httpCalls.length;
    expect(httpCalls.length).toBe(before);
    const refused = await a.raw('POST', '/v1/automatic/save', { schemaCode: order, automation: { name: '考勤', trigger: { type: 'effective' }, steps: [{ id: 'p', type: 'payment' }] } });
    expect(refused.body.errorCode).toBe(430001);
  });

  it('an HTTP step maps its answer into the record; a 503 is retried then fails with the step logged', async () => {
    const { order } = await forms();
    await save(order, { name: '开票', trigger: { type: 'effective' }, steps: [{ id: 'h', type: 'http', url: `${httpUrl}/ticket?c={Customer}`, body: '{"customer":"{Customer}"}', responseMappings: [{ field: 'Ticket', path: 'data.ticket' }] }] });
    const id = (await exec(order, 'Submit', { values: { Customer: '甲' } })).objectId;
    await drain();
    expect((await rows(order)).find((r) => r.ObjectId === id)!.Ticket).toMatch(/^T-\d+$/);
    expect(JSON.parse(httpCalls.at(-1)!.body)).toEqual({ customer: '甲' });

    const { order: other } = await forms();
    await save(other, { name: '坏接口', trigger: { type: 'effective' }, steps: [{ id: 'h', type: 'http', url: `${httpUrl}/fail` }] });
    await exec(other, 'Submit', { values: { Customer: '乙' } });
    await drain();
    // An answer over 1 MB fails the step (it is not retried: the size will not change).
    const { order: third } = await forms();
    await save(third, { name: '大返回', trigger: { type: 'effective' }, steps: [{ id: 'h', type: 'http', method: 'GET', url: `${httpUrl}/huge` }] });
    await exec(third, 'Submit', { values: { Customer: '丙' } });
    await drain();
    expect((await logs(third)).runs[0]).toMatchObject({ state: 'Failed', error: expect.stringContaining('超过 1 MB') });
    // The retry waits (back-off): it is queued, not yet due.
    const waiting = await logs(other);
    expect(waiting.runs[0]!.state).toBe('Waiting');
    expect(waiting.runs[0]!.error).toMatch(/503/);
  });

  it('outside the platform only: with private addresses not allowed, an HTTP step to loopback fails for good and sends nothing', async () => {
    // A second process on the same database, configured as a deployment is by default (TRITIUM_OUTBOUND_PRIVATE unset).
    const strict = await createTestApp({ database: t.database, clock: () => new Date(now), config: { outboundPrivate: false } });
    try {
      const { order } = await forms();
      await save(order, { name: '内网', trigger: { type: 'effective' }, steps: [{ id: 'h', type: 'http', url: `${httpUrl}/ticket`, body: '{}' }] });
      await exec(order, 'Submit', { values: { Customer: '甲' } });
      const calls = httpCalls.length;
      while (await strict.app.extras.jobs.runOnce());
      expect(httpCalls.length).toBe(calls);
      // Not retried: the address will not change by waiting.
      expect((await logs(order)).runs[0]).toMatchObject({ state: 'Failed', error: expect.stringContaining('平台内部网络') });
    } finally {
      await strict.close();
    }
  });

  it('an e-mail step reaches a local SMTP server with the filled template', async () => {
    const { order } = await forms();
    await a.post('/v1/notification/channel/email/save', { enabled: true, host: '127.0.0.1', port: smtp.port, secure: false, user: 'mailer', password: 'smtp-pass-1', fromAddress: 'noreply@tritium.test', fromName: '氚' });
    await save(order, { name: '邮件', trigger: { type: 'effective' }, steps: [{ id: 'm', type: 'email', recipients: { addresses: ['boss@example.com'] }, title: '新订单：{Customer}', content: '金额 {Amount}' }] });
    await exec(order, 'Submit', { values: { Customer: '丁', Amount: 42 } });
    await drain();
    const mail = smtp.mails.at(-1)!;
    expect(mail.recipients).toEqual(['boss@example.com']);
    expect(mail.mail.subject).toBe('新订单：丁');
    expect(mail.mail.text).toContain('金额 42');
  });

  it('an SMS or e-mail reaches at most 5 recipients: more named ones are refused at saving, more found at run time fail the run (340007)', async () => {
    const { order } = await forms();
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}@example.com`);
    const refused = await a.raw('POST', '/v1/automatic/save', { schemaCode: order, automation: { name: '群发', trigger: { type: 'effective' }, steps: [{ id: 'm', type: 'email', recipients: { addresses: six }, title: '新订单' }] } });
    expect(refused.body).toMatchObject({ errorCode: 777 });
    const long = await a.raw('POST', '/v1/automatic/save', { schemaCode: order, automation: { name: '短信', trigger: { type: 'effective' }, steps: [{ id: 's', type: 'sms', recipients: { addresses: ['13900001111'] }, content: '字'.repeat(201) }] } });
    expect(long.body).toMatchObject({ errorCode: 777 });

    await a.post('/v1/notification/channel/email/save', { enabled: true, host: '127.0.0.1', port: smtp.port, secure: false, user: 'mailer', password: 'smtp-pass-1', fromAddress: 'noreply@tritium.test', fromName: '氚' });
    await engineDb(t.database.db, admin.engineCode).updateTable('org_users').set({ email: 'owner@example.com' }).where('mobile', '=', admin.mobile).execute();
    const mails = smtp.mails.length;
    await save(order, { name: '群发', trigger: { type: 'effective' }, steps: [{ id: 'm', type: 'email', recipients: { owner: true, addresses: six.slice(0, 5) }, title: '新订单' }] });
    await exec(order, 'Submit', { values: { Customer: '戊' } });
    await drain();
    expect((await logs(order)).runs[0]).toMatchObject({ state: 'Failed', error: expect.stringContaining('最多发送给 5 个收件人，本次有 6 个') });
    expect(smtp.mails.length).toBe(mails);
  });

  it('a button runs for the records chosen by people of its role only; custom triggers need the designer', async () => {
    const { order, delivery } = await forms();
    const saved = await save(order, { name: '催发货', trigger: { type: 'button', label: '催发货', locations: ['form', 'list'], roleIds: ['no-such-role'] }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'OrderRef', value: field('ObjectId') }] }] });
    const id = (await exec(order, 'Submit', { values: { Customer: '甲' } })).objectId;
    // The administrator holds no such role but administers the engine: the button is theirs.
    expect((await a.post('/v1/smartaction/list', { schemaCode: order, location: 'list' })).actions.map((x: { label: string }) => x.label)).toEqual(['催发货']);
    const run = await a.post('/v1/smartaction/run', { schemaCode: order, actionCode: saved.id, objectIds: [id] });
    expect(run.runIds).toHaveLength(1);
    await drain();
    expect((await rows(delivery)).map((r) => r.OrderRef)).toEqual([id]);
    const notRunnable = await a.raw('POST', '/v1/bizdata/action/automation', { schemaCode: order, automationId: (await save(order, { name: 'x', trigger: { type: 'effective' }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'Note', value: constant('x') }] }] })).id, objectIds: [id] });
    expect(notRunnable.body.errorCode).toBe(360006);
  });

  it('the legacy SaveTrigger / LoadTriggers shapes (ExcuteType 111, PluginCode insertdata, a DNF condition) save and run like the designer\'s', async () => {
    const { order, delivery } = await forms();
    const trigger = {
      DisplayName: '旧版触发器',
      ExcuteType: 111,
      Condition: { Expression: [[{ PropertyName: 'Amount', Operator: 0, Value: 10 }], [{ PropertyName: 'Customer', Operator: 2, Value: 'VIP' }]] },
      Actions: [{ PluginCode: 'insertdata', SchemaCode: delivery, Assignments: [{ PropertyName: 'OrderRef', ValueType: 0, Value: 'ObjectId' }, { PropertyName: 'Note', ValueType: 1, Value: '旧版' }] }],
    };
    const form = `PostData=${encodeURIComponent(JSON.stringify({ ActionName: 'SaveTrigger', SchemaCode: order, Trigger: trigger }))}`;
    const saved = await t.app.inject({ method: 'POST', url: '/Automatic/OnAction', headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode, 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
    expect(saved.json()).toMatchObject({ Successful: true, ReturnData: { Trigger: { ExcuteType: 111, Actions: [{ PluginCode: 'insertdata', DataSetType: 1 }] } } });
    const big = (await exec(order, 'Submit', { values: { Customer: '甲', Amount: 50 } })).objectId;
    const vip = (await exec(order, 'Submit', { values: { Customer: 'VIP', Amount: 1 } })).objectId;
    await exec(order, 'Submit', { values: { Customer: '乙', Amount: 1 } });
    await drain();
    expect((await rows(delivery)).map((r) => [r.OrderRef, r.Note])).toEqual([[big, '旧版'], [vip, '旧版']]);
    const loaded = await call(t.app, 'POST', '/Automatic/OnAction', { token: admin.token, engineCode: admin.engineCode, body: { PostData: JSON.stringify({ ActionName: 'LoadTriggers', SchemaCode: order }) } });
    expect(loaded.body.ReturnData.Triggers).toHaveLength(1);
    expect(loaded.body.ReturnData.Triggers[0].Condition.Expression).toEqual(trigger.Condition.Expression);
    const unknown = await call(t.app, 'POST', '/Automatic/OnAction', { token: admin.token, engineCode: admin.engineCode, body: { PostData: JSON.stringify({ ActionName: 'RunTrigger' }) } });
    expect(unknown.body).toMatchObject({ Successful: false });
  });

  it('a query step finds records of another form, and an update loops over what it found', async () => {
    const { order, delivery } = await forms();
    for (const [ref, note] of [['A', '待发'], ['A', '待发'], ['B', '待发']]) await exec(delivery, 'Submit', { values: { OrderRef: ref, Note: note } });
    await save(order, {
      name: '订单生效后放行发货单',
      trigger: { type: 'effective' },
      steps: [
        { id: 'Q', type: 'query', targetSchemaCode: delivery, match: [{ field: 'OrderRef', value: field('Customer') }], filter: { type: 'And', children: [{ field: 'Note', operator: 'Equal', value: '待发' }] } },
        { id: 'U', type: 'update', targetSchemaCode: delivery, forEach: { type: 'query', stepId: 'Q' }, match: [{ field: 'ObjectId', value: field('Q.ObjectId') }], mappings: [{ field: 'Note', value: { type: 'formula', expression: 'CONCATENATE("已放行 ", {Customer})' } }] },
      ],
    });
    await exec(order, 'Submit', { values: { Customer: 'A', Amount: 1 } });
    await drain();
    const log = (await logs(order)).runs[0]!;
    expect(log.state).toBe('Succeeded');
    expect(log.steps[0]!.output.count).toBe(2);
    expect(log.steps[1]!.output.updated).toHaveLength(2);
    expect((await rows(delivery)).map((r) => [r.OrderRef, r.Note])).toEqual([['A', '已放行 A'], ['A', '已放行 A'], ['B', '待发']]);
  });

  it("runs as its owner within the owner's rights; running as the system is the engine administrator's to set up", async () => {
    const { order } = await forms();
    // Another app's form, which the app's own administrator has no rights on.
    const otherApp = (await createApp(a)).code as string;
    const ledger = (await createForm(a, otherApp, { displayName: '总账' })).code as string;
    await publish(a, ledger, definition([{ type: 'textBox', code: 'Ref' }]));
    const sub = await addMember(t, admin, { name: '应用管理员', authType: 2 });
    await grant(a, appCode, sub.userId, 'administrator');
    const s = nodeClient(t.app, sub);
    const automation = { name: '写总账', trigger: { type: 'effective' }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: ledger, mappings: [{ field: 'Ref', value: field('ObjectId') }] }] };
    const mine = (await s.post('/v1/automatic/save', { schemaCode: order, automation })).automation;
    expect(mine.ownerId).toBe(sub.userId);
    expect((await s.raw('POST', '/v1/automatic/save', { schemaCode: order, automation: { ...automation, runAs: 'system' } })).body.errorCode).toBe(360011);
    await exec(order, 'Submit', { values: { Customer: '甲' } });
    await drain();
    const failed = (await logs(order)).runs[0]!;
    expect(failed.state).toBe('Failed');
    expect(await rows(ledger)).toEqual([]);
    // The engine administrator makes it run as the system: now it writes; the app's administrator cannot switch it back on.
    await a.post('/v1/automatic/save', { schemaCode: order, automation: { ...automation, id: mine.id, runAs: 'system' } });
    await exec(order, 'Submit', { values: { Customer: '乙' } });
    await drain();
    expect((await rows(ledger))).toHaveLength(1);
    await s.post('/v1/automatic/disable', { id: mine.id });
    expect((await s.raw('POST', '/v1/automatic/enable', { id: mine.id })).body.errorCode).toBe(360011);
    expect((await s.raw('POST', '/v1/automatic/save', { schemaCode: order, automation: { ...automation, id: mine.id } })).body.errorCode).toBe(360011);
  });

  it('holds at most 50 automations a form, retries only failed runs, and runs no disabled button', async () => {
    const { order, delivery } = await forms();
    const simple = (name: string) => ({ name, trigger: { type: 'custom' }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'Note', value: constant(name) }] }] });
    for (let i = 0; i < 50; i++) await save(order, simple(`自动化${i}`));
    const over = await a.raw('POST', '/v1/automatic/save', { schemaCode: order, automation: simple('第51个') });
    expect(over.body.errorCode).toBe(360002);
    expect((await a.post('/v1/automatic/list', { schemaCode: order })).automations).toHaveLength(50);

    const { order: other } = await forms();
    const button = await save(other, { name: '按钮', trigger: { type: 'button', label: '执行', locations: ['form'] }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: delivery, mappings: [{ field: 'Note', value: constant('按钮') }] }] });
    const id = (await exec(other, 'Submit', { values: { Customer: '甲' } })).objectId;
    await a.post('/v1/smartaction/run', { schemaCode: other, actionCode: button.id, objectIds: [id] });
    await drain();
    const done = (await logs(other)).runs[0] as unknown as { runId: string; state: string };
    expect(done.state).toBe('Succeeded');
    expect((await a.raw('POST', '/v1/automatic/retry', { runId: done.runId })).body.errorCode).toBe(360009);
    expect((await a.raw('POST', '/v1/automatic/retry', { runId: '00000000-0000-7000-8000-000000000000' })).body.errorCode).toBe(360008);
    await a.post('/v1/automatic/disable', { id: button.id });
    expect((await a.post('/v1/smartaction/list', { schemaCode: other, location: 'form' })).actions).toEqual([]);
    expect((await a.raw('POST', '/v1/smartaction/run', { schemaCode: other, actionCode: button.id, objectIds: [id] })).body.errorCode).toBe(360007);
  });

  it('runs queued together run in one claim and one transaction; when one fails, each runs alone: the rest succeed and the failure is logged', async () => {
    const order = (await createForm(a, appCode, { displayName: '批量订单' })).code as string;
    const target = (await createForm(a, appCode, { displayName: '批量去向' })).code as string;
    await publish(a, order, definition([{ type: 'textBox', code: 'Customer' }]));
    await publish(a, target, definition([{ type: 'number', code: 'Qty' }, { type: 'textBox', code: 'Ref' }]));
    await save(order, { name: '数量入表', trigger: { type: 'effective' }, steps: [{ id: 'ins', type: 'insert', targetSchemaCode: target, mappings: [{ field: 'Qty', value: field('Customer') }, { field: 'Ref', value: field('ObjectId') }] }] });
    const submit = (values: string[]) => Promise.all(values.map((v) => exec(order, 'Submit', { values: { Customer: v } })));
    const qtys = async () => (await rows(target)).map((r) => r.Qty).sort();

    await submit(['1', '2', '3']);
    expect(await drain()).toBe(1);
    expect(await qtys()).toEqual([1, 2, 3]);
    expect((await logs(order)).runs.map((r) => r.state)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);

    await submit(['4', '不是数字', '6']);
    await drain();
    expect(await qtys()).toEqual([1, 2, 3, 4, 6]);
    const after = (await logs(order)).runs;
    expect(after.filter((r) => r.state === 'Succeeded')).toHaveLength(5);
    const failed = after.filter((r) => r.state === 'Failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toBeTruthy();
    expect(failed[0]!.steps[0]!.ok).toBe(false);
  });
});
