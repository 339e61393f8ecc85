// test-databases: both — a script's writes commit or roll back with the save that ran it (transactions, savepoints).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// Form and app scripts at run time (issue 43; docs/decisions/0118): onSubmit refuses in the user's words and fills a
// computed field; a refusal or time-out leaves nothing written; onLoad changes what the form answers; a button's
// action creates a record in another form and answers data; Remove can be refused; custom APIs answer Invoke with
// the engine's keys; the dry run rolls everything back; each run is in the business log.

let t: TestApp, admin: Person, a: OrgClient, member: OrgClient, appCode: string, order: string, audit: string, secret: string;

const SERVER = `
const LIMIT: number = 1000;
export async function onLoad(ctx: ScriptContext & { record: Record<string, unknown>; isNew: boolean }) {
  if (ctx.isNew) ctx.record.Note = '来自脚本的默认备注';
}
export async function onSubmit(ctx: any) {
  const amount = Number(ctx.record.Amount ?? 0);
  if (ctx.actionName === 'Remove' && amount > 500) ctx.refuse('大额订单不能删除');
  if (ctx.actionName === 'Remove') return;
  ctx.log('提交金额', amount);
  if (amount > LIMIT) ctx.refuse('金额不能超过 ' + LIMIT + ' 元');
  ctx.record.Total = Math.round(amount * 110) / 100;
  await ctx.records.create('${'${AUDIT}'}', { Title: '审计：' + amount }, { submit: true });
  ctx.respond({ checked: true });
}
export async function onListAction(ctx: any) {
  if (ctx.actionName !== 'close') ctx.refuse('未知的列表动作');
  for (const id of ctx.objectIds) await ctx.records.update('${'${ORDER}'}', id, { Note: '已关闭' });
  return { closed: ctx.objectIds.length };
}
export const actions = {
  async archive(ctx: any, params: { reason: string }) {
    const made = await ctx.records.create('${'${AUDIT}'}', { Title: '归档：' + params.reason }, { submit: true });
    ctx.record.Note = '已归档';
    return { auditId: made.objectId };
  },
  async spin() { for (;;) {} },
};
`;

const APP_API = `
export const actions = {
  async Quote(ctx: any, params: Record<string, unknown>) {
    const { total } = await ctx.records.query('${'${ORDER}'}', { filter: { field: 'Amount', op: '>=', value: 0 } });
    ctx.log('报价', params.Customer);
    return { Customer: params.Customer, Orders: total, Engine: ctx.engine.code };
  },
};
`;

const exec = (client: OrgClient, body: Record<string, unknown>) => client.raw('POST', '/v1/form/action/execute', { schemaCode: order, ...body });
const count = async (schemaCode: string) => (await a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 50 })).total as number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app, { userName: '王管理' });
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a, { displayName: '销售' })).code;
  order = (await createForm(a, appCode, { displayName: '订单' })).code as string;
  audit = (await createForm(a, appCode, { displayName: '审计' })).code as string;
  await publish(a, order, definition([{ type: 'number', code: 'Amount' }, { type: 'number', code: 'Total', options: { decimalPlaces: 2 } }, { type: 'textBox', code: 'Note' }]));
  await publish(a, audit, definition([{ type: 'textBox', code: 'Title' }]));
  const plain = await addInvitedMember(t, admin, { name: '赵成员' });
  await grant(a, appCode, plain.userId, 'access');
  member = nodeClient(t.app, plain);
  const save = (part: string, source: string, schemaCode?: string) =>
    a.post('/v1/codeeditor/save', { appCode, ...(schemaCode ? { schemaCode } : {}), part, language: 'ts', source, baseVersion: 0 });
  await save('form-server', SERVER.replaceAll('${AUDIT}', audit).replaceAll('${ORDER}', order), order);
  await save('app-api', APP_API.replaceAll('${ORDER}', order));
  secret = (await issueSecret(a)).value;
});
afterAll(async () => {
  await t?.close();
});

describe('form scripts at run time', () => {
  it('refuses a submit in the script’s own words and writes nothing; accepts another and fills the computed field', async () => {
    const refused = await exec(member, { actionCode: 'Submit', values: { Amount: 1500 } });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 410001, errorMessage: '金额不能超过 1000 元' });
    expect(await count(order)).toBe(0);
    expect(await count(audit)).toBe(0);

    const accepted = await exec(member, { actionCode: 'Submit', values: { Amount: 200 } });
    expect(accepted.body.successful).toBe(true);
    expect(accepted.body.data.data).toEqual({ checked: true });
    const loaded = await member.post('/v1/form/loaddata', { schemaCode: order, objectId: accepted.body.data.objectId });
    expect(loaded.values.Total).toBe(220);
    expect(await count(audit)).toBe(1);
  });

  it('lets onLoad change what a new form answers', async () => {
    const fresh = await member.post('/v1/form/loaddata', { schemaCode: order });
    expect(fresh.values.Note).toBe('来自脚本的默认备注');
  });

  it('runs a button’s action: a record in another form, the form’s change answered unsaved, data back', async () => {
    const saved = (await exec(member, { actionCode: 'Save', values: { Amount: 50 } })).body.data;
    const before = await count(audit);
    const answer = await member.post('/v1/codeeditor/action', { schemaCode: order, objectId: saved.objectId, actionName: 'archive', values: {}, params: { reason: '季度结束' } });
    expect(answer.values).toEqual({ Note: '已归档' });
    expect(answer.data.auditId).toEqual(expect.any(String));
    expect(await count(audit)).toBe(before + 1);
    const stored = await member.post('/v1/form/loaddata', { schemaCode: order, objectId: saved.objectId });
    expect(stored.values.Note).not.toBe('已归档');

    // An endless action is stopped with the catalogue's time-out, and what it did is undone.
    const spun = await member.raw('POST', '/v1/codeeditor/action', { schemaCode: order, actionName: 'spin' });
    expect(spun.body).toMatchObject({ successful: false, errorCode: 410003 });
    const unknown = await member.raw('POST', '/v1/codeeditor/action', { schemaCode: order, actionName: 'nothing' });
    expect(unknown.body.successful).toBe(true);
    const bad = await member.raw('POST', '/v1/codeeditor/action', { schemaCode: order, actionName: 'a.b' });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 777 });
  });

  it('runs a list button’s onListAction with the records chosen', async () => {
    const one = (await exec(member, { actionCode: 'Save', values: { Amount: 1 } })).body.data.objectId;
    const two = (await exec(member, { actionCode: 'Save', values: { Amount: 2 } })).body.data.objectId;
    const done = await member.post('/v1/codeeditor/listaction', { schemaCode: order, actionName: 'close', objectIds: [one, two] });
    expect(done.data).toEqual({ closed: 2 });
    expect((await member.post('/v1/form/loaddata', { schemaCode: order, objectId: two })).values.Note).toBe('已关闭');
    const refused = await member.raw('POST', '/v1/codeeditor/listaction', { schemaCode: order, actionName: 'reopen', objectIds: [one] });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 410001, errorMessage: '未知的列表动作' });
    const unknown = await member.raw('POST', '/v1/codeeditor/listaction', { schemaCode: order, actionName: 'close', objectIds: ['no-such-record'] });
    expect(unknown.body).toMatchObject({ successful: false });
  });

  it('lets the script refuse a removal', async () => {
    const big = (await exec(a, { actionCode: 'Save', values: { Amount: 800 } })).body.data;
    const refused = await exec(a, { actionCode: 'Remove', objectId: big.objectId });
    expect(refused.body).toMatchObject({ successful: false, errorMessage: '大额订单不能删除' });
    const small = (await exec(a, { actionCode: 'Save', values: { Amount: 10 } })).body.data;
    expect((await exec(a, { actionCode: 'Remove', objectId: small.objectId })).body.successful).toBe(true);
  });

  it('answers a custom API on Invoke with the engine’s keys, and on the browser’s call', async () => {
    const res = await invokeApi(t.app, admin.engineCode, secret, { ActionName: 'Quote', SchemaCode: appCode, Customer: '甲公司' });
    expect(res.body).toMatchObject({ Successful: true, ReturnData: { Customer: '甲公司', Engine: admin.engineCode } });
    expect(res.body.ReturnData.Orders).toBeGreaterThan(0);
    const unknown = await invokeApi(t.app, admin.engineCode, secret, { ActionName: 'NoSuchAction', SchemaCode: appCode });
    expect(unknown.body.Successful).toBe(false);
    const browser = await member.post('/v1/codeeditor/invoke', { appCode, actionName: 'Quote', params: { Customer: '乙' } });
    expect(browser.data).toMatchObject({ Customer: '乙' });
  });

  it('dry-runs the editor’s text against a record and rolls back every write', async () => {
    const before = await count(audit);
    const run = await a.post('/v1/codeeditor/dryrun', { schemaCode: order, handler: 'onSubmit', actionName: 'Submit' });
    expect(run.status).toBe('ok');
    expect(run.changes.Total).toEqual([null, 0]);
    expect(run.logs[0]).toMatchObject({ level: 'info', message: '提交金额 0' });
    const edited = await a.post('/v1/codeeditor/dryrun', { schemaCode: order, handler: 'onSubmit', source: 'export function onSubmit(ctx: any) {\n  ctx.refuse("试运行拒绝");\n}\n', language: 'ts' });
    expect(edited).toMatchObject({ status: 'refused', refusal: '试运行拒绝' });
    expect(await count(audit)).toBe(before);
    const forbidden = await member.raw('POST', '/v1/codeeditor/dryrun', { schemaCode: order, handler: 'onSubmit' });
    expect(forbidden.body.successful).toBe(false);
  });

  it('keeps each run in the business log', async () => {
    await expect
      .poll(async () => (await a.get('/v1/toolkit/bizlog/list', { appCode, schemaCode: order, text: '金额', pageSize: '100' })).items.map((i: { message: string }) => i.message))
      .toEqual(expect.arrayContaining(['提交金额 1500', expect.stringContaining('金额不能超过 1000 元')]));
  });

  it('runs within the engine’s own limits, which only Administrators set, within the platform’s bounds', async () => {
    expect(await a.post('/v1/codeeditor/limits')).toEqual({ cpuMs: 2000, memoryMb: 64, custom: false, canEdit: true });
    expect((await member.raw('POST', '/v1/codeeditor/limits/save', { cpuMs: 5000, memoryMb: 64 })).body.successful).toBe(false);
    const outside = await a.raw('POST', '/v1/codeeditor/limits/save', { cpuMs: 50, memoryMb: 64 });
    expect(outside.body).toMatchObject({ successful: false, errorCode: 777 });
    expect(await a.post('/v1/codeeditor/limits/save', { cpuMs: 150, memoryMb: 16 })).toMatchObject({ cpuMs: 150, memoryMb: 16, custom: true });
    const spun = await member.raw('POST', '/v1/codeeditor/action', { schemaCode: order, actionName: 'spin' });
    expect(spun.body).toMatchObject({ successful: false, errorCode: 410003 });
    expect(spun.body.errorMessage).toContain('150 毫秒');
  });
});
