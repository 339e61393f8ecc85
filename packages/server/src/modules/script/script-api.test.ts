// test-databases: both — a script's calls run in the caller's transaction behind savepoints, through the query engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserAuthType } from '@tritium/shared/constants/org';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, createApp, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { assertScriptOk, runScript, type RunScriptOptions } from './run-script.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';

// The server script API against a real database (docs/decisions/0118): records read and written through the query
// engine and the record service in the caller's transaction, the caller's rights and the system's, mistakes answered
// into the script, another engine's records out of reach, and the business log of every run.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, orders: string, items: string, adminId: string;

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  // ctx.connectors needs the connector plugin (docs/decisions/0123); then an unknown connector says so.
  await putPluginInstance(engineDb(t.database.db, admin.engineCode), { templateCode: 'connector', status: 'installed' });
  orders = (await createForm(a, appCode, { displayName: '订单' })).code as string;
  items = (await createForm(a, appCode, { displayName: '明细' })).code as string;
  await publish(a, orders, definition([{ type: 'textBox', code: 'Customer' }, { type: 'number', code: 'Amount' }]));
  await publish(a, items, definition([{ type: 'textBox', code: 'Product' }, { type: 'number', code: 'Qty' }]));
  adminId = (await a.post('/v1/form/loaddata', { schemaCode: orders })).system.CreatedBy;
});
afterAll(() => t.close());

const db = () => t.database.db as Db;

/** Runs `source`'s handler in a transaction of `who` that commits unless the run did not end well. */
async function runAs(who: { engineCode: string; userId: string; authType: number }, source: string, more: Partial<RunScriptOptions> = {}) {
  let outcome: Awaited<ReturnType<typeof runScript>> | undefined;
  const failure = await db()
    .transaction()
    .execute(async (trx) => {
      outcome = await runScript({
        edb: engineDb(trx as unknown as Db, who.engineCode),
        ctx: { db: db(), engineCode: who.engineCode, userId: who.userId, authType: who.authType },
        appCode,
        schemaCode: orders,
        part: 'form-server',
        source,
        language: 'ts',
        handler: 'onSubmit',
        input: { record: { Customer: '甲', Amount: 10 }, actionName: 'Submit', isNew: true },
        ...more,
      });
      assertScriptOk(outcome);
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(await outcome!.logsWritten).toBeNull();
  return { outcome: outcome!, failure };
}
const asAdmin = (source: string, more: Partial<RunScriptOptions> = {}) => runAs({ engineCode: admin.engineCode, userId: adminId, authType: UserAuthType.Administrator }, source, more);

const rows = async (schemaCode: string, client = a) => (await client.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 100 })).list as Record<string, unknown>[];

describe('the server script API', () => {
  it('creates, queries, counts, reads, updates and removes records in the caller’s transaction', async () => {
    const { outcome, failure } = await asAdmin(`export async function onSubmit(ctx: any) {
  const first = await ctx.records.create('${items}', { Product: '苹果', Qty: 3 }, { submit: true });
  const second = await ctx.records.create('${items}', { Product: '梨', Qty: 5 });
  await ctx.records.update('${items}', second.objectId, { Qty: 6 });
  const page = await ctx.records.query('${items}', { filter: { field: 'Qty', op: '>=', value: 3 }, sort: { field: 'Qty', direction: 'desc' }, pageSize: 10 });
  const count = await ctx.records.count('${items}', { or: [{ field: 'Product', op: 'contains', value: '苹' }, { field: 'Qty', op: '=', value: 6 }] });
  const one = await ctx.records.get('${items}', first.objectId);
  const third = await ctx.records.create('${items}', { Product: '桃', Qty: 1 });
  await ctx.records.remove('${items}', third.objectId);
  ctx.record.Amount = page.total * 100;
  ctx.log('共', count, '条');
  return { products: page.rows.map((r: any) => r.Product + r.Qty), count, one: [one.Product, one.Status] };
}`);
    expect(failure).toBeNull();
    expect(outcome).toMatchObject({ status: 'ok', handled: true, value: { products: ['梨6', '苹果3'], count: 2, one: ['苹果', 1] }, record: { Amount: 200 } });
    expect(outcome.logs).toEqual([{ level: 'info', message: '共 2 条', line: 11 }]);
    expect((await rows(items)).map((r) => r.Product).sort()).toEqual(['梨', '苹果']);
  });

  it('a refusal after a write: 410001 with the script’s message, nothing written, the run logged', async () => {
    const before = (await rows(items)).length;
    const { outcome, failure } = await asAdmin(`export async function onSubmit(ctx: any) {
  await ctx.records.create('${items}', { Product: '不该留下', Qty: 1 });
  if (ctx.record.Amount > 5) ctx.refuse('金额超过 5 元，不能提交');
}`);
    expect(outcome).toMatchObject({ status: 'refused', refusal: '金额超过 5 元，不能提交' });
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 410001, message: '金额超过 5 元，不能提交' });
    expect((await rows(items)).length).toBe(before);
    const log = await a.get('/v1/toolkit/bizlog/list', { appCode, level: 'warn' });
    expect(log.items[0]).toMatchObject({ schemaCode: orders, handler: 'onSubmit', message: '已拒绝：金额超过 5 元，不能提交', userName: '张三' });
  });

  it('mistakes answer into the script, which goes on in a usable transaction; an unknown connector says so', async () => {
    const { outcome, failure } = await asAdmin(`export async function onSubmit(ctx: any) {
  const tries: [string, () => Promise<unknown>][] = [
    ['unknown form', () => ctx.records.get('NoSuchForm', '00000000-0000-0000-0000-000000000000')],
    ['bad filter', () => ctx.records.query('${items}', { filter: { field: 'Qty', op: 'like', value: 1 } })],
    ['page too big', () => ctx.records.query('${items}', { pageSize: 501 })],
    ['wrong type', () => ctx.records.create('${items}', { Qty: 'many' })],
    ['values not an object', () => ctx.records.create('${items}', 'x')],
    ['no such record', () => ctx.records.update('${items}', 'not-an-id', { Qty: 1 })],
    ['connector', () => ctx.connectors.call('erp', {})],
  ];
  const answers: Record<string, string> = {};
  for (const [name, attempt] of tries) {
    try { await attempt(); answers[name] = 'no error'; } catch (e: any) { answers[name] = e.message; }
  }
  answers.missing = String(await ctx.records.get('${items}', 'not-an-id'));
  const made = await ctx.records.create('${items}', { Product: '之后', Qty: 2 });
  return { answers, made: !!made.objectId };
}`);
    expect(failure).toBeNull();
    const answers = (outcome.value as { answers: Record<string, string> }).answers;
    expect(answers['unknown form']).toContain('不存在');
    expect(answers['bad filter']).toContain('参数错误');
    expect(answers['page too big']).toContain('每页最多 500 条');
    expect(answers['wrong type']).not.toBe('no error');
    expect(answers['values not an object']).toContain('字段值须为对象');
    expect(answers['no such record']).toContain('数据不存在');
    expect(answers.connector).toBe('连接器“erp”不存在');
    expect(answers.missing).toBe('null');
    expect(outcome.value).toMatchObject({ made: true });
  });

  it('another engine’s records cannot be named: its form is unknown here and its ids find nothing', async () => {
    const other = await registerPerson(t.app, { engineName: '别家公司' });
    const o = nodeClient(t.app, other);
    const otherApp = (await createApp(o)).code as string;
    const secret = (await createForm(o, otherApp, { displayName: '机密' })).code as string;
    await publish(o, secret, definition([{ type: 'textBox', code: 'Note' }]));
    const id = (await o.post('/v1/form/action/execute', { schemaCode: secret, actionCode: 'Submit', values: { Note: '机密' } })).objectId as string;
    const { outcome } = await asAdmin(`export async function onSubmit(ctx: any) {
  const viaTheirForm = await ctx.asSystem().records.get('${secret}', '${id}').then(() => 'found', (e: any) => e.message);
  const viaOurForm = await ctx.asSystem().records.get('${items}', '${id}');
  return { viaTheirForm, viaOurForm };
}`);
    expect(outcome.value).toMatchObject({ viaOurForm: null });
    expect((outcome.value as { viaTheirForm: string }).viaTheirForm).toContain('不存在');
  });

  it('the caller’s rights by default; asSystem() has the system’s; notify sends unless a dry run', async () => {
    const member = await addInvitedMember(t, admin, { name: '李四' });
    const source = `export async function onSubmit(ctx: any) {
  const mine = await ctx.records.count('${items}').then((n: number) => n, (e: any) => 'refused: ' + e.message);
  const system = await ctx.asSystem().records.count('${items}');
  const sent = await ctx.notify([ctx.user.id, 'nobody'], { title: '脚本通知', content: '你好' });
  return { mine, system: system > 0, sent, me: ctx.user.name };
}`;
    const memberRun = await runAs({ engineCode: admin.engineCode, userId: member.userId, authType: UserAuthType.Personal }, source);
    expect((memberRun.outcome.value as { mine: string }).mine).toMatch(/^refused: /);
    expect(memberRun.outcome.value).toMatchObject({ system: true, sent: { receivers: [member.userId], sent: true }, me: '李四' });
    const messages = await nodeClient(t.app, member).post('/v1/toolkit/internalmessage/list', { pageIndex: 0, pageSize: 10 });
    expect(messages.list.map((m: { title: string }) => m.title)).toEqual(['脚本通知']);
    const dry = await runAs({ engineCode: admin.engineCode, userId: member.userId, authType: UserAuthType.Personal }, source, { dryRun: true });
    expect(dry.outcome.value).toMatchObject({ sent: { sent: false } });
    expect((await nodeClient(t.app, member).post('/v1/toolkit/internalmessage/list', { pageIndex: 0, pageSize: 10 })).list).toHaveLength(1);
  });

  it('errors keep the script’s line; a handler the script lacks does nothing', async () => {
    const failing = await asAdmin(`const limit: number = 3;
type Row = { Qty: number };
export async function onSubmit(ctx: any) {
  const rows: Row[] = [];
  return rows[0].Qty * limit;
}`);
    expect(failing.outcome).toMatchObject({ status: 'error', error: { line: 5 } });
    expect(failing.failure).toMatchObject({ code: 410002 });
    const none = await asAdmin('export function onLoad() {}');
    expect(none.outcome).toMatchObject({ status: 'ok', handled: false, record: { Customer: '甲', Amount: 10 } });
  });
});
