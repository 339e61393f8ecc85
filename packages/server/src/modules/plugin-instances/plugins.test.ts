import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, orgClient, recordingClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { serveFake } from '../../../test/fake-http.ts';
import { ERP, startErpFake, type ErpFake } from '../../../test/erp-fake.ts';
import { adminWithApp } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { definePluginMethods, pluginMethod, type PluginMethod } from './plugin-methods.ts';

// test-databases: both — install commits `installing` before the provider check and locks the row; on PostgreSQL a second
// install meets it from another connection.
// The plugin framework over the API: the catalogue and its settings checks, installing → installed through an install
// check that calls a provider (a local fake that checks the key), a failed check, settings kept by uninstall, the
// engine's own plugins through their publication states, POST /v2/plugin/invoke's refusals, the connector gate, and
// who may do what.

const FACE_KEY = 'face-secret-key-1234';

describe('plugins', () => {
  let t: TestApp, admin: Person, a: OrgClient, member: OrgClient, erp: ErpFake;
  let provider: { url: string; close(): Promise<void> };
  const answers: string[] = [];
  let held: (() => void) | undefined;
  let holdNext = false;
  let previousVerify: PluginMethod | undefined;

  beforeAll(async () => {
    ({ t, admin } = await adminWithApp());
    a = recordingClient(orgClient(t.app, admin), answers);
    member = orgClient(t.app, await addInvitedMember(t, admin, { name: '成员乙' }));
    erp = await startErpFake();
    // The face provider's stand-in: a ping that needs the key in its Authorization header, as the install check sends it.
    provider = await serveFake(async (req: IncomingMessage, res) => {
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((resolve) => (held = resolve));
      }
      const okKey = req.headers.authorization === `Key ${FACE_KEY}`;
      res.writeHead(okKey ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(okKey ? { ok: true } : { error: 'AuthFailure' }));
    });
    previousVerify = pluginMethod('face', 'verify');
    definePluginMethods('face', {
      verify: async (ctx) => {
        const res = await ctx.http(`${String(ctx.plugin.settings.endpoint)}/ping`, { headers: { authorization: `Key ${ctx.plugin.secrets.secretKey}` } });
        if (!res.ok) throw new AppError('OutsideCallFailed', { detail: { status: res.status } });
      },
    });
  });
  afterAll(async () => {
    if (previousVerify) definePluginMethods('face', { verify: previousVerify });
    await provider?.close();
    await erp?.close();
    await t?.close();
  });

  const catalogueItem = async (code: string) => ((await a.get('/v1/plugin/catalogue')).items as { templateCode: string }[]).find((i) => i.templateCode === code) as Record<string, unknown>;
  const raw = (url: string, body: unknown, client = a) => client.raw('POST', url, body);
  const faceSettings = () => ({ endpoint: provider.url, region: 'ap-guangzhou', secretId: 'AKID-1', threshold: '85' });

  it('lists every template with its state, and refuses settings that do not fit the template, in the caller\'s language', async () => {
    const list = await a.get('/v1/plugin/catalogue');
    expect(list.items.map((i: { templateCode: string }) => i.templateCode)).toEqual(['connector', 'sms', 'email', 'robot', 'ocr', 'esign-tsign', 'esign-fdd', 'payment', 'face', 'attendance']);
    expect(list.items.every((i: { status: string }) => i.status === 'notInstalled')).toBe(true);

    const cases: [Record<string, unknown>, Record<string, string>, number][] = [
      [{ ...faceSettings(), region: '' }, { secretKey: FACE_KEY }, 430005],
      [faceSettings(), {}, 430005],
      [{ ...faceSettings(), endpoint: 'ftp://x' }, { secretKey: FACE_KEY }, 430016],
      [{ ...faceSettings(), threshold: 'eighty' }, { secretKey: FACE_KEY }, 430017],
      [{ ...faceSettings(), colour: 'red' }, { secretKey: FACE_KEY }, 430019],
      [{ ...faceSettings(), secretKey: 'in the open' }, { secretKey: FACE_KEY }, 430019],
    ];
    for (const [settings, secrets, code] of cases) {
      const res = await raw('/v1/plugin/install', { code: 'face', settings, secrets });
      expect(res.status, JSON.stringify(settings)).toBe(200);
      expect(res.body, JSON.stringify(settings)).toMatchObject({ successful: false, errorCode: code });
    }
    const english = await call(t.app, 'POST', '/v1/plugin/install', { token: admin.token, engineCode: admin.engineCode, headers: { 'accept-language': 'en-US' }, body: { code: 'attendance', settings: { platform: 'lark' } } });
    expect(english.body).toMatchObject({ errorCode: 430018, errorMessage: 'The plugin setting "platform" must be one of its choices' });
    expect((await raw('/v1/plugin/install', { code: 'nothing' })).body).toMatchObject({ errorCode: 430003 });
    expect((await raw('/v1/plugin/install', { code: 'face', extra: 1 })).body).toMatchObject({ errorCode: 777 });
    // None of the refusals left a row behind.
    expect(await engineDb(t.database.db, admin.engineCode).selectFrom('plugin_instances').selectAll().execute()).toEqual([]);
  });

  it('installs through installing → installed while the provider check runs, and never answers a secret', async () => {
    holdNext = true;
    const installing = raw('/v1/plugin/install', { code: 'face', settings: faceSettings(), secrets: { secretKey: FACE_KEY } });
    while (!held) await new Promise((r) => setTimeout(r, 10));
    // The check is under way: the state is committed as installing, and a second install waits its turn.
    expect((await catalogueItem('face')).status).toBe('installing');
    expect((await raw('/v1/plugin/install', { code: 'face', settings: faceSettings(), secrets: { secretKey: FACE_KEY } })).body).toMatchObject({ errorCode: 430014 });
    held();
    const res = await installing;
    expect(res.body.data).toMatchObject({ item: { templateCode: 'face', status: 'installed', secretsSet: ['secretKey'], settings: { endpoint: provider.url, threshold: 85 } }, kept: false });
    expect((await catalogueItem('face')).installedTime).toEqual(expect.any(String));
    expect((await raw('/v1/plugin/install', { code: 'face', settings: faceSettings(), secrets: {} })).body).toMatchObject({ errorCode: 430013 });
    // Members see it installed, without settings.
    const instances = await member.get('/v1/plugin/instances');
    const face = instances.items.find((i: { code: string }) => i.code === 'face');
    expect(face).toEqual({ code: 'face', name: '人脸识别', templateCode: 'face', kind: 'faceRecognition', status: 'installed', offers: { controls: ['faceRecognition'], automationActions: [], methods: ['compare'] }, custom: null });
  });

  it('changes settings keeping a secret left out, checks them with the provider first, and logs the change masked', async () => {
    const changed = await a.post('/v1/plugin/settings', { code: 'face', settings: { ...faceSettings(), region: 'ap-shanghai' }, secrets: {} });
    expect(changed.item).toMatchObject({ status: 'installed', settings: { region: 'ap-shanghai' }, secretsSet: ['secretKey'] });
    const wrong = await raw('/v1/plugin/settings', { code: 'face', settings: { ...faceSettings(), region: 'ap-beijing' }, secrets: { secretKey: 'wrong-key' } });
    expect(wrong.body).toMatchObject({ errorCode: 430006, errorMessage: '插件“人脸识别”安装检查未通过：外部系统返回错误（HTTP 401）' });
    expect((await catalogueItem('face')).settings).toMatchObject({ region: 'ap-shanghai' });
    const log = await a.get('/v1/admin/oplog/list', { kind: 'plugin', pageIndex: '0', pageSize: '20' });
    expect(log.list.map((e: { action: string }) => e.action)).toEqual(['update', 'enable']);
    expect(JSON.stringify(log.list)).not.toContain(FACE_KEY);
  });

  it('uninstalls keeping the settings; a failed check on install leaves it not installed with the reason', async () => {
    const res = await a.post('/v1/plugin/uninstall', { code: 'face' });
    expect(res).toMatchObject({ kept: true, item: { status: 'notInstalled', secretsSet: ['secretKey'], settings: { region: 'ap-shanghai' } } });
    expect((await raw('/v1/plugin/uninstall', { code: 'face' })).body).toMatchObject({ errorCode: 430001 });
    const failed = await raw('/v1/plugin/install', { code: 'face', settings: faceSettings(), secrets: { secretKey: 'not-the-key' } });
    expect(failed.body).toMatchObject({ errorCode: 430006 });
    expect(await catalogueItem('face')).toMatchObject({ status: 'notInstalled', lastError: '外部系统返回错误（HTTP 401）' });
    // A failed install keeps what was given, so the administrator corrects the key and installs again.
    const again = await a.post('/v1/plugin/install', { code: 'face', settings: faceSettings(), secrets: { secretKey: FACE_KEY } });
    expect(again.item).toMatchObject({ status: 'installed', lastError: null });
  });

  it('gates the connector features on the connector plugin', async () => {
    const refused = await a.raw('GET', '/v1/connectors/connection/list');
    expect(refused.body).toMatchObject({ successful: false, errorCode: 430001, errorMessage: '插件“连接器”未安装，请管理员在“插件管理”中安装' });
    expect((await member.raw('GET', '/v1/connectors/choices')).body).toMatchObject({ errorCode: 430001 });
    await a.post('/v1/plugin/install', { code: 'connector' });
    await a.post('/v1/connectors/connection/save', { code: 'Erp', name: 'ERP', baseUrl: `${erp.url}/bearer`, authKind: 'bearer', secret: ERP.bearer, healthPath: '/health' });
    await a.post('/v1/connectors/connector/save', {
      code: 'GetCustomer', name: '查询客户', connectionCode: 'Erp', method: 'GET', path: '/customer/{{CustomerNo}}',
      outputs: [{ name: 'customerName', path: 'data.customer.name' }, { name: 'credit', path: 'data.customer.credit' }],
    });
    expect((await a.get('/v1/connectors/connection/list')).items).toHaveLength(1);
    // The connector plugin's own method runs a connector by code.
    const invoked = await a.post('/v2/plugin/invoke', { pluginCode: 'connector', method: 'call', params: { connectorCode: 'GetCustomer', values: { CustomerNo: 'C7' } } });
    expect(invoked.result).toEqual({ outputs: { customerName: '客户C7', credit: 5000 } });
    // Any connector with any values is the console's power: a member is refused.
    expect((await member.raw('POST', '/v2/plugin/invoke', { pluginCode: 'connector', method: 'call', params: { connectorCode: 'GetCustomer', values: {} } })).body).toMatchObject({ errorCode: 100403 });
  });

  it('takes the engine\'s own plugin through its publication states, and only a published one installs', async () => {
    const definition = { connectorCode: 'GetCustomer', buttonText: '查客户', outputs: ['customerName'] };
    const saved = await a.post('/v1/plugin/custom/save', { code: 'CustomerLookup', name: '客户查询', description: '按客户编号查 ERP', definition });
    expect(saved).toMatchObject({ publication: 'prePublish', status: 'notInstalled', rejectReason: null, definition });
    expect((await raw('/v1/plugin/custom/save', { code: 'Other', name: 'x', definition: { ...definition, outputs: ['nope'] } })).body).toMatchObject({ errorCode: 430020 });
    expect((await raw('/v1/plugin/custom/save', { code: 'payment', name: 'x', definition })).body).toMatchObject({ errorCode: 430011 });
    expect((await raw('/v1/plugin/custom/save', { code: 'Other', name: 'x', definition: { ...definition, connectorCode: 'Missing' } })).body).toMatchObject({ errorCode: 420005 });
    expect((await raw('/v1/plugin/install', { code: 'CustomerLookup' })).body).toMatchObject({ errorCode: 430009 });
    expect((await raw('/v1/plugin/custom/review', { code: 'CustomerLookup', approve: true })).body).toMatchObject({ errorCode: 430010, errorMessage: '插件“客户查询”当前为“预发布”，不能审核' });

    expect((await a.post('/v1/plugin/custom/submit', { code: 'CustomerLookup' })).publication).toBe('underReview');
    expect((await raw('/v1/plugin/custom/submit', { code: 'CustomerLookup' })).body).toMatchObject({ errorCode: 430010 });
    expect((await raw('/v1/plugin/custom/save', { originalCode: 'CustomerLookup', code: 'CustomerLookup', name: '改名', definition })).body).toMatchObject({ errorCode: 430010 });
    expect((await raw('/v1/plugin/custom/review', { code: 'CustomerLookup', approve: false })).body).toMatchObject({ errorCode: 777 });
    const rejected = await a.post('/v1/plugin/custom/review', { code: 'CustomerLookup', approve: false, reason: '请写清楚用途' });
    expect(rejected).toMatchObject({ publication: 'prePublish', rejectReason: '请写清楚用途' });
    await a.post('/v1/plugin/custom/submit', { code: 'CustomerLookup' });
    expect(await a.post('/v1/plugin/custom/review', { code: 'CustomerLookup', approve: true })).toMatchObject({ publication: 'published', rejectReason: null });

    // Published, not installed: members see it but cannot call it.
    const listed = (await member.get('/v1/plugin/instances')).items.find((i: { code: string }) => i.code === 'CustomerLookup');
    expect(listed).toMatchObject({ kind: 'custom', status: 'notInstalled', custom: { buttonText: '查客户', outputs: ['customerName'] } });
    expect((await raw('/v2/plugin/invoke', { pluginCode: 'CustomerLookup', method: 'call', params: { values: {} } }, member)).body).toMatchObject({ errorCode: 430001 });

    await a.post('/v1/plugin/install', { code: 'CustomerLookup' });
    const result = await member.post('/v2/plugin/invoke', { pluginCode: 'CustomerLookup', method: 'call', params: { values: { CustomerNo: 'K1' } } });
    expect(result).toEqual({ result: { outputs: { customerName: '客户K1' } } });
    const log = await a.get('/v1/connectors/log', { connectionCode: 'Erp' });
    expect(log.items[0]).toMatchObject({ source: 'button', connectorCode: 'GetCustomer', ok: true });
    // Installed, it is locked; uninstalled, it can be removed.
    expect((await raw('/v1/plugin/custom/remove', { code: 'CustomerLookup' })).body).toMatchObject({ errorCode: 430012 });
    expect((await a.get('/v1/plugin/custom/list')).items.map((p: { code: string; publication: string; status: string }) => [p.code, p.publication, p.status])).toEqual([['CustomerLookup', 'published', 'installed']]);
  });

  it('uninstalling the connector plugin stops its features and keeps what was written; installing again brings it back', async () => {
    const answer = await a.post('/v1/plugin/uninstall', { code: 'connector' });
    expect(answer).toMatchObject({ kept: true, item: { status: 'notInstalled' } });
    expect((await raw('/v2/plugin/invoke', { pluginCode: 'CustomerLookup', method: 'call', params: { values: { CustomerNo: 'K2' } } }, member)).body).toMatchObject({ errorCode: 430001, errorMessage: '插件“连接器”未安装，请管理员在“插件管理”中安装' });
    const edb = engineDb(t.database.db, admin.engineCode);
    expect((await edb.selectFrom('connections').select('code').execute()).map((r) => r.code)).toEqual(['Erp']);
    expect(Number((await edb.selectFrom('connector_calls').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(0);
    await a.post('/v1/plugin/install', { code: 'connector' });
    expect((await a.get('/v1/connectors/connection/list')).items.map((c: { code: string }) => c.code)).toEqual(['Erp']);
  });

  it('refuses invocations that do not fit, and members cannot manage plugins', async () => {
    const invoke = (body: unknown) => raw('/v2/plugin/invoke', body, member);
    expect((await invoke({ pluginCode: 'face', method: 'precreate' })).body).toMatchObject({ errorCode: 430007, errorMessage: '插件“人脸识别”不提供方法“precreate”' });
    expect((await invoke({ pluginCode: 'face', method: 'verify' })).body).toMatchObject({ errorCode: 430007 });
    expect((await invoke({ pluginCode: 'payment', method: 'precreate' })).body).toMatchObject({ errorCode: 430001 });
    expect((await invoke({ pluginCode: 'ghost', method: 'call' })).body).toMatchObject({ errorCode: 430003 });
    expect((await invoke({ pluginCode: 'CustomerLookup', method: 'call', params: { values: 'not an object' } })).body).toMatchObject({ errorCode: 430015 });
    expect((await invoke({ pluginCode: 'CustomerLookup', method: 'call;drop' })).body).toMatchObject({ errorCode: 777 });
    expect((await invoke({ pluginCode: 'CustomerLookup' })).body).toMatchObject({ errorCode: 777 });
    for (const [url, body] of [
      ['/v1/plugin/install', { code: 'payment' }],
      ['/v1/plugin/uninstall', { code: 'face' }],
      ['/v1/plugin/custom/review', { code: 'CustomerLookup', approve: true }],
    ] as const) {
      expect((await raw(url, body, member)).status, url).toBe(403);
    }
    expect((await member.raw('GET', '/v1/plugin/catalogue')).status).toBe(403);
    expect(await catalogueItem('face')).toMatchObject({ status: 'installed' });
  });

  it('keeps another engine\'s plugins out of sight', async () => {
    const other = await registerPerson(t.app, { userName: '另一家', engineName: '另一家公司' });
    const o = orgClient(t.app, other);
    const items = (await o.get('/v1/plugin/catalogue')).items as { templateCode: string; status: string }[];
    expect(items.filter((i) => i.status !== 'notInstalled')).toEqual([]);
    expect((await o.get('/v1/plugin/custom/list')).items).toEqual([]);
    expect((await o.raw('POST', '/v2/plugin/invoke', { pluginCode: 'CustomerLookup', method: 'call', params: { values: {} } })).body).toMatchObject({ errorCode: 430003 });
    expect((await o.raw('GET', '/v1/connectors/connection/list')).body).toMatchObject({ errorCode: 430001 });
  });

  it('turns the e-mail channel on and off with its plugin', async () => {
    const edb = engineDb(t.database.db, admin.engineCode);
    await edb.insertInto('notification_channels').values({ kind: 'email', enabled: true, settings: JSON.stringify({}), secrets: null, modified_by: 'admin' }).execute();
    // Set up before plugins existed: it reads installed.
    expect((await catalogueItem('email')).status).toBe('installed');
    expect(await a.post('/v1/plugin/uninstall', { code: 'email' })).toMatchObject({ kept: true, item: { status: 'notInstalled' } });
    expect((await edb.selectFrom('notification_channels').select('enabled').where('kind', '=', 'email').executeTakeFirstOrThrow()).enabled).toBe(false);
    await a.post('/v1/plugin/install', { code: 'email' });
    expect((await edb.selectFrom('notification_channels').select('enabled').where('kind', '=', 'email').executeTakeFirstOrThrow()).enabled).toBe(true);
    expect(answers.join('\n')).not.toContain(FACE_KEY);
  });
});
