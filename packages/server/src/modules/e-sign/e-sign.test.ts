import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, publish, definition } from '../../../test/form-helpers.ts';
import type { Deliver } from '../../../test/esign-fake-core.ts';
import { startTsignFake, TSIGN, type TsignFake } from '../../../test/tsign-fake.ts';
import { startFddFake, FDD, type FddFake } from '../../../test/fdd-fake.ts';
import { engineDb } from '../../db/database.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';

// test-databases: both — callbacks meet on the flow's row lock and the trail's unique key (insert … on conflict do nothing).

// E-signature end to end against both fake providers (e签宝 v3 and 法大大 v5): each checks our requests' signatures
// its own way and signs its callbacks, which the platform checks. Signers in order through every signer state, a
// refusal, a revoke, a forged callback refused, a repeated one changing nothing, another engine kept out, bad input.

let t: TestApp, dataDir: string, admin: Person, a: OrgClient, appCode: string, schemaCode: string;
let tsign: TsignFake, fdd: FddFake;
let signer1: Awaited<ReturnType<typeof addInvitedMember>>, signer2: Awaited<ReturnType<typeof addInvitedMember>>;
let s1: OrgClient, s2: OrgClient;

// The fakes' callbacks go into the app as the provider's POSTs would.
const deliver: Deliver = async (url, request) => {
  const target = new URL(url);
  const response = await t.app.inject({ method: 'POST', url: `${target.pathname}${target.search}`, headers: request.headers, payload: request.body });
  return response.statusCode === 200 && response.json().successful ? 200 : response.statusCode === 200 ? 400 : response.statusCode;
};
const edb = () => engineDb(t.database.db, admin.engineCode);

async function install(template: 'esign-tsign' | 'esign-fdd', status: 'installed' | 'notInstalled' = 'installed', secret?: string) {
  const fake = template === 'esign-tsign' ? { url: tsign.url, ...TSIGN } : { url: fdd.url, ...FDD };
  await putPluginInstance(edb(), { templateCode: template, status, settings: { baseUrl: fake.url, appId: fake.appId }, secrets: { appSecret: secret ?? fake.appSecret } });
}

async function newRecord(title: string): Promise<string> {
  const saved = await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Save', values: { Title: title } });
  return saved.objectId as string;
}

const flowOf = (who: OrgClient, objectId: string, controlCode = 'Contract') => who.get('/v1/esign/flow', { schemaCode, objectId, controlCode });
const start = (objectId: string, controlCode = 'Contract', org = true) =>
  a.raw('POST', '/v1/esign/flow/start', { schemaCode, objectId, controlCode, signers: [{ userId: signer1.userId, forOrganization: org }, { userId: signer2.userId }] });
const messagesOf = (userId: string) => edb().selectFrom('internal_messages').select(['title', 'content', 'schema_code', 'object_id']).where('receiver', '=', userId).orderBy('seq').execute();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-esign-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  schemaCode = (await createForm(a, appCode, { displayName: '采购合同' })).code as string;
  await publish(a, schemaCode, definition([
    { type: 'textBox', code: 'Title' },
    { type: 'attachment', code: 'SignedFiles', options: { displayName: '已签文件' } },
    { type: 'eSign', code: 'Contract', options: { displayName: '合同签署', attachmentCode: 'SignedFiles' } },
    { type: 'eSign', code: 'Receipt', options: { displayName: '回执签署' } },
  ], { displayName: '采购合同' }));
  signer1 = await addInvitedMember(t, admin, { name: '王经理' });
  signer2 = await addInvitedMember(t, admin, { name: '李四' });
  await grant(a, appCode, signer1.userId, 'access');
  await grant(a, appCode, signer2.userId, 'access');
  s1 = nodeClient(t.app, signer1);
  s2 = nodeClient(t.app, signer2);
  tsign = await startTsignFake({ deliver });
  fdd = await startFddFake({ deliver });
}, 120_000);

afterAll(async () => {
  await tsign?.close();
  await fdd?.close();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('without a provider', () => {
  it('says the plugin is not installed and starts nothing', async () => {
    const objectId = await newRecord('未安装');
    expect(await flowOf(a, objectId)).toMatchObject({ installed: false, canStart: false, flow: null });
    expect((await start(objectId)).body).toMatchObject({ successful: false, errorCode: 430001 });
  });
});

const VARIANTS = [
  { template: 'esign-tsign' as const, fake: () => tsign as TsignFake | FddFake, other: 'esign-fdd' as const },
  { template: 'esign-fdd' as const, fake: () => fdd as TsignFake | FddFake, other: 'esign-tsign' as const },
];

describe.each(VARIANTS)('$template', ({ template, fake, other }) => {
  beforeAll(async () => {
    await install(other, 'notInstalled');
    await install(template);
  });

  it('sends the document to the signers in order, through every signer state, and stores the signed PDF on the record', { timeout: 60_000 }, async () => {
    const objectId = await newRecord(`合同-${template}`);
    const started = (await start(objectId)).body;
    expect(started.successful).toBe(true);
    const flow = started.data;
    expect(flow).toMatchObject({ provider: template, state: 'Running', canRevoke: true });
    expect(flow.signers.map((s: { state: string }) => s.state)).toEqual(['Signing', 'Waiting']);
    expect(flow.signers[0].mobile).toMatch(/^\d{3}\*{4}\d{4}$/);
    expect(flow.document.name).toMatch(/\.pdf$/);
    // The record holds the flow; the first signer is told, with their link; the second is not yet.
    expect((await a.post('/v1/form/loaddata', { schemaCode, objectId })).values.Contract).toEqual({ flowId: flow.flowId, state: 'Running' });
    const toFirst = await messagesOf(signer1.userId);
    expect(toFirst.at(-1)).toMatchObject({ schema_code: schemaCode, object_id: objectId });
    expect(toFirst.at(-1)!.content).toContain(`${fake().url}/sign/`);
    expect((await messagesOf(signer2.userId)).filter((m) => m.object_id === objectId)).toHaveLength(0);
    // Only the signer whose turn it is sees a link, and only their own.
    const forFirst = (await flowOf(s1, objectId)).flow;
    expect(forFirst.signers[0].signUrl).toMatch(/\/sign\/.+\/1\?token=/);
    expect(forFirst.canRevoke).toBe(false);
    expect((await flowOf(s2, objectId)).flow.signers.every((s: { signUrl: string | null }) => s.signUrl === null)).toBe(true);

    const providerFlowId = [...fake().flows.flows.keys()].at(-1)!;
    // The second may not sign before the first.
    await expect(fake().flows.act(providerFlowId, 2, 'sign')).rejects.toThrow(/may not act/);
    // The first signs for the organisation: waiting for the seal approval, then complete; the second's turn.
    await fake().flows.act(providerFlowId, 1, 'sign');
    expect((await flowOf(a, objectId)).flow.signers.map((s: { state: string }) => s.state)).toEqual(['WaitForApproval', 'Waiting']);
    await fake().flows.act(providerFlowId, 1, 'approve');
    const afterFirst = (await flowOf(s2, objectId)).flow;
    expect(afterFirst.signers.map((s: { state: string }) => s.state)).toEqual(['Complete', 'Signing']);
    expect(afterFirst.signers[1].signUrl).toMatch(/\/sign\/.+\/2\?token=/);
    expect((await messagesOf(signer2.userId)).filter((m) => m.object_id === objectId)).toHaveLength(1);
    await fake().flows.act(providerFlowId, 2, 'sign');

    const done = (await flowOf(a, objectId)).flow;
    expect(done.state).toBe('Finish');
    expect(done.signers.map((s: { state: string }) => s.state)).toEqual(['Complete', 'Complete']);
    expect(done.events.map((e: { kind: string }) => e.kind)).toEqual(['started', 'signing', 'awaitingApproval', 'signed', 'signing', 'signed', 'finished']);
    expect(fake().flows.refusedCallbacks).toEqual([]);
    const record = await a.post('/v1/form/loaddata', { schemaCode, objectId });
    expect(record.values.Contract).toEqual({ flowId: flow.flowId, state: 'Finish' });
    expect(record.values.SignedFiles).toEqual([{ id: done.signed.id, name: done.signed.name, size: done.signed.size, contentType: 'application/pdf' }]);
    // The stored file is the provider's signed PDF: the original's pages and the stamp page.
    const urls = await a.post('/v1/file/urls/byfileids', { fileIds: [done.signed.id, done.document.id] });
    const bytesOf = async (url: string) => (await t.app.inject({ method: 'GET', url })).rawPayload;
    const signed = await PDFDocument.load(await bytesOf(urls.list[0].url));
    const original = await PDFDocument.load(await bytesOf(urls.list[1].url));
    expect(signed.getPageCount()).toBe(original.getPageCount() + 1);
    expect(signed.getSubject()).toBe(`signed by ${signer1.mobile},${signer2.mobile}`);
  });

  it('refuses a forged or stale callback and lets a repeated one change nothing', { timeout: 60_000 }, async () => {
    const objectId = await newRecord(`回调-${template}`);
    expect((await start(objectId, 'Receipt', false)).body.successful).toBe(true);
    const providerFlowId = [...fake().flows.flows.keys()].at(-1)!;
    const { flowId } = (await flowOf(a, objectId, 'Receipt')).flow;
    const notify = `http://localhost/v1/esign/callback/${template === 'esign-tsign' ? 'tsign' : 'fdd'}/${admin.engineCode}`;
    const tsignBody = JSON.stringify({ action: 'SIGN_MISSON_COMPLETE', signFlowId: providerFlowId, signOrder: 1, signResult: 2, timestamp: Date.now() });
    const post = async (forged: { secret?: string; timestamp?: string }) => {
      if (template === 'esign-tsign') return tsign.send(notify, tsignBody, forged);
      return fdd.send(notify, 'sign-task-signed', JSON.stringify({ signTaskId: providerFlowId, actorId: 'signer-1' }), forged);
    };
    const trail = async () => (await edb().selectFrom('esign_events').select('kind').where('flow_id', '=', flowId).execute()).length;
    const before = await trail();
    expect(await post({ secret: 'not-the-secret' })).toBe(401);
    expect(await post({ timestamp: String(Date.now() - 3600_000) })).toBe(401);
    const answer = await t.app.inject({ method: 'POST', url: new URL(notify).pathname, headers: { 'content-type': 'application/json' }, payload: '{"signFlowId":"x"}' });
    expect(answer.json()).toMatchObject({ successful: false, errorCode: 450008 });
    expect(await trail()).toBe(before);
    expect((await flowOf(a, objectId, 'Receipt')).flow.signers[0].state).toBe('Signing');
    // The real signature, sent twice: one step.
    expect(await post({})).toBe(200);
    expect(await post({})).toBe(200);
    const after = (await flowOf(a, objectId, 'Receipt')).flow;
    expect(after.signers.map((s: { state: string }) => s.state)).toEqual(['Complete', 'Signing']);
    expect(after.events.filter((e: { kind: string }) => e.kind === 'signed')).toHaveLength(1);
    expect((await messagesOf(signer2.userId)).filter((m) => m.object_id === objectId)).toHaveLength(1);
  });

  it('ends the flow when a signer refuses', { timeout: 60_000 }, async () => {
    const objectId = await newRecord(`拒签-${template}`);
    expect((await start(objectId, 'Receipt', false)).body.successful).toBe(true);
    const providerFlowId = [...fake().flows.flows.keys()].at(-1)!;
    await fake().flows.act(providerFlowId, 1, 'sign');
    await fake().flows.act(providerFlowId, 2, 'refuse', '金额有误');
    const flow = (await flowOf(a, objectId, 'Receipt')).flow;
    expect(flow.state).toBe('Refuse');
    expect(flow.signers.map((s: { state: string; reason: string | null }) => [s.state, s.reason])).toEqual([['Complete', null], ['Refuse', '金额有误']]);
    expect(flow.signed).toBeNull();
    expect((await a.post('/v1/form/loaddata', { schemaCode, objectId })).values.Receipt).toEqual({ flowId: flow.flowId, state: 'Refuse' });
    // A new flow may start after a refusal; a later save of the record keeps the flow's document.
    expect((await flowOf(a, objectId, 'Receipt')).canStart).toBe(true);
    await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Save', objectId, values: { Title: '改过' } });
    expect((await flowOf(a, objectId, 'Receipt')).flow.document).toEqual(flow.document);
  });

  it('lets the initiator alone revoke a running flow, once', { timeout: 60_000 }, async () => {
    const objectId = await newRecord(`撤销-${template}`);
    const flow = (await start(objectId, 'Receipt', false)).body.data;
    expect((await a.raw('POST', '/v1/esign/flow/start', { schemaCode, objectId, controlCode: 'Receipt', signers: [{ userId: signer1.userId }] })).body).toMatchObject({ errorCode: 450005 });
    expect((await s1.raw('POST', '/v1/esign/flow/revoke', { flowId: flow.flowId })).body).toMatchObject({ successful: false, errorCode: 450006 });
    const revoked = await a.post('/v1/esign/flow/revoke', { flowId: flow.flowId });
    expect(revoked).toMatchObject({ state: 'Revoke', canRevoke: false });
    expect(revoked.events.filter((e: { kind: string }) => e.kind === 'revoked')).toHaveLength(1);
    expect((await a.post('/v1/form/loaddata', { schemaCode, objectId })).values.Receipt).toEqual({ flowId: flow.flowId, state: 'Revoke' });
    expect((await a.raw('POST', '/v1/esign/flow/revoke', { flowId: flow.flowId })).body).toMatchObject({ successful: false, errorCode: 450007 });
  });

  it('lets one of two simultaneous starts on a record control through and revokes the other at the provider', { timeout: 60_000 }, async () => {
    const objectId = await newRecord(`同时-${template}`);
    const before = fake().flows.flows.size;
    const answers = (await Promise.all([start(objectId, 'Receipt', false), start(objectId, 'Receipt', false)])).map((r) => r.body);
    expect(answers.filter((b) => b.successful)).toHaveLength(1);
    expect(answers.find((b) => !b.successful)).toMatchObject({ errorCode: 450005 });
    const rows = await edb().selectFrom('esign_flows').select(['id', 'state']).where('object_id', '=', objectId).execute();
    expect(rows).toEqual([{ id: answers.find((b) => b.successful).data.flowId, state: 'Running' }]);
    // Both reached the provider before either wrote here: the loser's flow there is revoked, not left waiting.
    const theirs = [...fake().flows.flows.values()].slice(before);
    expect(theirs.map((f) => f.status).sort()).toEqual(['revoked', 'running']);
    expect((await a.post('/v1/form/loaddata', { schemaCode, objectId })).values.Receipt).toEqual({ flowId: rows[0]!.id, state: 'Running' });
  });

  it('signs its requests so that the provider accepts them, and a wrong secret is refused by the provider', { timeout: 60_000 }, async () => {
    expect(fake().refused).toEqual([]);
    // The install check asks the provider: a wrong secret is refused there and the settings are not kept.
    const app = template === 'esign-tsign' ? TSIGN : FDD;
    const settings = { baseUrl: fake().url, appId: app.appId };
    expect((await a.raw('POST', '/v1/plugin/settings', { code: template, settings, secrets: { appSecret: 'wrong-secret' } })).body).toMatchObject({ successful: false, errorCode: 430006 });
    expect(fake().refused.length).toBeGreaterThan(0);
    expect((await a.raw('POST', '/v1/plugin/settings', { code: template, settings, secrets: { appSecret: app.appSecret } })).body.successful).toBe(true);
    fake().refused.length = 0;
    await install(template, 'installed', 'wrong-secret');
    const objectId = await newRecord(`密钥-${template}`);
    const flows = fake().flows.flows.size;
    const answer = (await start(objectId, 'Receipt')).body;
    expect(answer).toMatchObject({ successful: false, errorCode: 450009 });
    expect(fake().refused.length).toBeGreaterThan(0);
    expect(fake().flows.flows.size).toBe(flows);
    expect((await flowOf(a, objectId, 'Receipt')).flow).toBeNull();
    fake().refused.length = 0;
    await install(template);
  });
});

describe('refusals', () => {
  it('refuses bad input in the user’s words and changes nothing', async () => {
    const objectId = await newRecord('输入');
    const send = (body: Record<string, unknown>) => a.raw('POST', '/v1/esign/flow/start', { schemaCode, objectId, controlCode: 'Contract', signers: [{ userId: signer1.userId }], ...body });
    expect((await send({ signers: [] })).body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await send({ signers: [{ userId: signer1.userId }, { userId: signer1.userId }] })).body).toMatchObject({ errorCode: 450004, errorMessage: '签署人无效：同一人不能重复签署' });
    expect((await send({ signers: [{ userId: 'nobody' }] })).body).toMatchObject({ errorCode: 450004 });
    expect((await send({ controlCode: 'Title' })).body).toMatchObject({ errorCode: 450002 });
    expect((await send({ objectId: '00000000-0000-7000-8000-000000000000' })).body.successful).toBe(false);
    // A member who may read but not edit the record cannot start it.
    expect((await s1.raw('POST', '/v1/esign/flow/start', { schemaCode, objectId, controlCode: 'Contract', signers: [{ userId: signer2.userId }] })).body.successful).toBe(false);
    expect(await edb().selectFrom('esign_flows').select('id').where('object_id', '=', objectId).execute()).toEqual([]);
  });

  it('answers the flow through POST /v2/plugin/invoke, and checks the params there too', async () => {
    const objectId = await newRecord('调用');
    const flow = (await start(objectId, 'Receipt', false)).body.data;
    const status = await a.post('/v2/plugin/invoke', { pluginCode: 'esign-fdd', method: 'flowStatus', params: { schemaCode, objectId, controlCode: 'Receipt' } });
    expect(status.result).toMatchObject({ installed: true, flow: { flowId: flow.flowId, state: 'Running' } });
    const bad = await a.raw('POST', '/v2/plugin/invoke', { pluginCode: 'esign-fdd', method: 'revokeFlow', params: { flowId: 'x' } });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 430015 });
    const revoked = await a.post('/v2/plugin/invoke', { pluginCode: 'esign-fdd', method: 'revokeFlow', params: { flowId: flow.flowId } });
    expect(revoked.result).toMatchObject({ state: 'Revoke' });
  });

  it('keeps another engine out', async () => {
    const objectId = await newRecord('他人');
    const flow = (await start(objectId, 'Receipt', false)).body.data;
    const stranger = nodeClient(t.app, await registerPerson(t.app, { engineName: '别人的公司' }));
    expect((await stranger.raw('GET', '/v1/esign/flow', { schemaCode, objectId, controlCode: 'Receipt' })).body.successful).toBe(false);
    expect((await stranger.raw('POST', '/v1/esign/flow/revoke', { flowId: flow.flowId })).body).toMatchObject({ successful: false, errorCode: 450001 });
    expect((await flowOf(a, objectId, 'Receipt')).flow.state).toBe('Running');
  });
});

describe('field rights', () => {
  it('answers a hidden e-sign control as absent: no flow to read, start or revoke', { timeout: 60_000 }, async () => {
    const hiddenCode = (await createForm(a, appCode, { displayName: '保密合同' })).code as string;
    await publish(a, hiddenCode, definition([
      { type: 'textBox', code: 'Title' },
      { type: 'eSign', code: 'Contract', options: { displayName: '合同签署' } },
    ], { displayName: '保密合同' }));
    const group = (name: string, userId: string, fieldRights: Record<string, string>) =>
      a.post('/v1/form/permission/group/save', { schemaCode: hiddenCode, group: { name, members: { users: [userId] }, actions: ['view', 'create', 'edit'], viewScope: 'all', editScope: 'all', fieldRights } });
    await group('看得见签章', signer1.userId, {});
    await group('看不见签章', signer2.userId, { Contract: 'hidden' });
    const objectId = (await a.post('/v1/form/action/execute', { schemaCode: hiddenCode, actionCode: 'Save', values: { Title: '保密' } })).objectId as string;
    const flow = (await a.post('/v1/esign/flow/start', { schemaCode: hiddenCode, objectId, controlCode: 'Contract', signers: [{ userId: signer1.userId }] }));
    const query = { schemaCode: hiddenCode, objectId, controlCode: 'Contract' };
    expect((await s1.get('/v1/esign/flow', query)).flow.flowId).toBe(flow.flowId);
    // The record itself is readable to the second member; the control is not.
    expect((await s2.raw('POST', '/v1/form/loaddata', { schemaCode: hiddenCode, objectId })).body.successful).toBe(true);
    expect((await s2.raw('GET', '/v1/esign/flow', query)).body).toMatchObject({ successful: false, errorCode: 450002 });
    expect((await s2.raw('POST', '/v1/esign/flow/start', { ...query, signers: [{ userId: signer2.userId }] })).body).toMatchObject({ successful: false, errorCode: 450002 });
    expect((await s2.raw('POST', '/v2/plugin/invoke', { pluginCode: 'esign-fdd', method: 'flowStatus', params: query })).body).toMatchObject({ successful: false, errorCode: 450002 });
    expect((await s2.raw('POST', '/v1/esign/flow/revoke', { flowId: flow.flowId })).body).toMatchObject({ successful: false, errorCode: 450001 });
    expect((await a.get('/v1/esign/flow', query)).flow.state).toBe('Running');
  });
});
