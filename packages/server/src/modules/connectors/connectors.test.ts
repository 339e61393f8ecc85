import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { engineDb, orgClient, type OrgClient, type Person, recordingClient } from '../../../test/org-helpers.ts';
import { ERP, startErpFake, type ErpFake } from '../../../test/erp-fake.ts';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { callConnector } from './connector-calls.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';

// Connection configs and connectors over the API against a fake ERP that checks each authentication as a real
// provider does; the status kept by health checks and failures; the outbound guard; secrets never answered.

describe('connections and connectors', () => {
  let t: TestApp;
  let admin: Person;
  let a: OrgClient;
  let erp: ErpFake;
  const answers: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerPerson(t.app, { userName: '管理员甲' });
    // Connectors work while the connector plugin is installed (docs/decisions/0123).
    await putPluginInstance(engineDb(t.database.db, admin.engineCode), { templateCode: 'connector', status: 'installed' });
    const client = orgClient(t.app, admin);
    // Every answer is kept, to check at the end that no secret left the server.
    a = recordingClient(client, answers);
    erp = await startErpFake();
  });
  afterAll(async () => {
    await erp?.close();
    await t?.close();
  });

  const saveConnection = (code: string, scheme: string, authKind: string, auth: Record<string, string>, secret?: string) =>
    a.post('/v1/connectors/connection/save', { code, name: `ERP ${scheme}`, baseUrl: `${erp.url}/${scheme}`, authKind, auth, secret, healthPath: '/health' });
  const saveConnector = (code: string, connectionCode: string, over: Record<string, unknown> = {}) =>
    a.post('/v1/connectors/connector/save', {
      code,
      name: '查询客户',
      connectionCode,
      method: 'GET',
      path: '/customer',
      params: [{ name: 'no', in: 'query', value: '{{CustomerNo}}' }],
      outputs: [
        { name: 'customerName', path: 'data.customer.name' },
        { name: 'credit', path: 'data.customer.credit' },
        { name: 'firstOrder', path: 'data.orders[0].id' },
        { name: 'orders', path: 'data.orders', itemFields: { OrderId: 'id', Amount: 'amount' } },
      ],
      ...over,
    });
  const run = (code: string, values: Record<string, unknown> = { CustomerNo: 'C01' }) => a.raw('POST', '/v1/connectors/connector/run', { code, values });

  it('calls through each kind of authentication, which the fake ERP checks, and maps the answer', async () => {
    await saveConnection('ErpBasic', 'basic', 'basic', { username: ERP.user }, ERP.password);
    await saveConnection('ErpBearer', 'bearer', 'bearer', {}, ERP.bearer);
    await saveConnection('ErpKeyHeader', 'key', 'apiKey', { apiKeyName: 'X-Api-Key', apiKeyIn: 'header' }, ERP.apiKey);
    await saveConnection('ErpKeyQuery', 'key', 'apiKey', { apiKeyName: 'api_key', apiKeyIn: 'query' }, ERP.apiKey);
    await saveConnection('ErpOauth', 'oauth', 'oauth2', { tokenUrl: `${erp.url}/oauth/token`, clientId: ERP.clientId, scope: 'customers' }, ERP.clientSecret);
    await saveConnection('ErpHmac', 'hmac', 'hmac', { signatureHeader: 'X-Signature' }, ERP.hmacKey);
    for (const connection of ['ErpBasic', 'ErpBearer', 'ErpKeyHeader', 'ErpKeyQuery', 'ErpOauth']) {
      await saveConnector(`Get${connection}`, connection);
      const res = await run(`Get${connection}`);
      expect(res.body.data, connection).toMatchObject({
        httpStatus: 200,
        outputs: { customerName: '客户C01', credit: 5000, firstOrder: 'SO-1', orders: [{ OrderId: 'SO-1', Amount: 120.5 }, { OrderId: 'SO-2', Amount: 80 }] },
      });
    }
    // The signature covers the body: a POST whose body carries the number, typed as given.
    await saveConnector('PostErpHmac', 'ErpHmac', { method: 'POST', path: '/order', params: [{ name: 'no', in: 'body', value: '{{CustomerNo}}' }] });
    expect((await run('PostErpHmac', { CustomerNo: 'H7' })).body.data.outputs.customerName).toBe('客户H7');
    expect(JSON.parse(erp.calls.at(-1)!.body)).toEqual({ no: 'H7' });
    // One token serves both OAuth2 calls.
    await run('GetErpOauth');
    expect(erp.tokensIssued).toBe(1);
    const list = await a.get('/v1/connectors/connection/list');
    expect(list.items.map((c: { code: string; status: string; hasSecret: boolean }) => [c.code, c.status, c.hasSecret])).toEqual([
      ['ErpBasic', 'normal', true], ['ErpBearer', 'normal', true], ['ErpKeyHeader', 'normal', true], ['ErpKeyQuery', 'normal', true], ['ErpOauth', 'normal', true], ['ErpHmac', 'normal', true],
    ]);
  });

  it('answers a wrong secret as the outside failure with its status, and keeps the stored secret when a save leaves it out', async () => {
    await a.post('/v1/connectors/connection/save', { originalCode: 'ErpBasic', code: 'ErpBasic', name: 'ERP', baseUrl: `${erp.url}/basic`, authKind: 'basic', auth: { username: ERP.user }, secret: 'wrong-password', healthPath: '/health' });
    const refused = await run('GetErpBasic');
    expect(refused.body).toMatchObject({ successful: false, errorCode: 420007 });
    expect(refused.body.errorMessage).toContain('HTTP 401');
    await a.post('/v1/connectors/connection/save', { originalCode: 'ErpBasic', code: 'ErpBasic', name: 'ERP', baseUrl: `${erp.url}/basic`, authKind: 'basic', auth: { username: ERP.user }, secret: ERP.password, healthPath: '/health' });
    await a.post('/v1/connectors/connection/save', { originalCode: 'ErpBasic', code: 'ErpBasic', name: 'ERP 基本认证', baseUrl: `${erp.url}/basic`, authKind: 'basic', auth: { username: ERP.user }, healthPath: '/health' });
    expect((await run('GetErpBasic')).body.data.outputs.customerName).toBe('客户C01');
  });

  it('is normal when the health check passes, exception when the ERP goes down, normal again when it is back', async () => {
    expect((await a.post('/v1/connectors/connection/test', { code: 'ErpBearer' })).connection.status).toBe('normal');
    erp.down = true;
    const failed = await a.post('/v1/connectors/connection/test', { code: 'ErpBearer' });
    expect(failed).toMatchObject({ ok: false, httpStatus: 503, connection: { status: 'exception', lastError: expect.stringContaining('503') } });
    erp.down = false;
    expect((await a.post('/v1/connectors/connection/test', { code: 'ErpBearer' })).connection).toMatchObject({ status: 'normal', failureCount: 0, lastError: null });
    // Calls: three failures in a row make it exception, a success makes it normal.
    erp.down = true;
    for (let i = 0; i < 2; i++) await run('GetErpBearer');
    expect((await a.get('/v1/connectors/connection/get', { code: 'ErpBearer' })).status).toBe('normal');
    await run('GetErpBearer');
    expect((await a.get('/v1/connectors/connection/get', { code: 'ErpBearer' })).status).toBe('exception');
    erp.down = false;
    await run('GetErpBearer');
    expect((await a.get('/v1/connectors/connection/get', { code: 'ErpBearer' })).status).toBe('normal');
    // The scheduler checks every connection that is not disabled.
    erp.down = true;
    await t.app.extras.scheduler.tick();
    expect((await a.get('/v1/connectors/connection/get', { code: 'ErpKeyHeader' })).status).toBe('exception');
    erp.down = false;
  });

  it('refuses calls through a disabled connection until it is enabled again', async () => {
    expect((await a.post('/v1/connectors/connection/enable', { code: 'ErpKeyHeader', enabled: false })).status).toBe('disabled');
    const refused = await run('GetErpKeyHeader');
    expect(refused.body).toMatchObject({ successful: false, errorCode: 420002, errorMessage: '连接“ERP key”已停用，请先启用' });
    expect((await a.post('/v1/connectors/connection/enable', { code: 'ErpKeyHeader', enabled: true })).status).toBe('normal');
    expect((await run('GetErpKeyHeader')).body.successful).toBe(true);
  });

  it('bounds the time and the size of an answer', async () => {
    await saveConnector('Slow', 'ErpBearer', { path: '/slow' });
    await saveConnector('Big', 'ErpBearer', { path: '/big' });
    const edb = engineDb(t.database.db as Db, admin.engineCode);
    const fail = (code: string, deps: Parameters<typeof callConnector>[4]) => callConnector(edb, admin.engineCode, code, {}, deps).then(() => null, (e: unknown) => e as AppError);
    expect(await fail('Slow', { http: fetch, timeoutMs: 200 })).toMatchObject({ code: 420008 });
    expect(await fail('Big', { http: fetch, maxBytes: 100_000 })).toMatchObject({ code: 420011, message: '外部系统的响应超过 98 KB' });
    const gone = await run('GetErpBearer', {});
    expect(gone.body.successful).toBe(true);
  });

  it('keeps a delivery log without the query (where an API key may travel), and the operation log masks secrets', async () => {
    const log = await a.get('/v1/connectors/log', { connectionCode: 'ErpKeyQuery' });
    expect(log.total).toBeGreaterThan(0);
    expect(log.items.find((i: { source: string }) => i.source === 'console')).toMatchObject({ connectionCode: 'ErpKeyQuery', connectorCode: 'GetErpKeyQuery', source: 'console', method: 'GET', url: `${erp.url}/key/customer`, httpStatus: 200, ok: true });
    const failures = await a.get('/v1/connectors/log', { connectionCode: 'ErpBearer' });
    expect(failures.items.some((i: { ok: boolean; error: string }) => !i.ok && i.error.includes('503'))).toBe(true);
    const oplog = await a.get('/v1/admin/oplog/list', { kind: 'connection' });
    expect(oplog.list.length).toBeGreaterThan(5);
    expect(JSON.stringify(oplog)).toContain('******');
    expect(JSON.stringify(oplog)).not.toContain(ERP.password);
  });

  it('refuses loopback and private addresses unless the platform allows them', async () => {
    const strict = await createTestApp({ database: t.database, config: { workerMode: 'off', outboundPrivate: false } });
    try {
      const s = orgClient(strict.app, admin);
      const loopback = await s.raw('POST', '/v1/connectors/connector/run', { code: 'GetErpBearer', values: { CustomerNo: 'C01' } });
      expect(loopback.body).toMatchObject({ successful: false, errorCode: 420009 });
      expect(loopback.body.errorMessage).toContain('平台内部网络');
      await s.post('/v1/connectors/connection/save', { code: 'Intranet', name: '内网', baseUrl: 'http://10.1.2.3:8080', authKind: 'none', healthPath: '' });
      const calls = erp.calls.length;
      const tested = await s.post('/v1/connectors/connection/test', { code: 'Intranet' });
      expect(tested).toMatchObject({ ok: false, connection: { status: 'exception', lastError: expect.stringContaining('10.1.2.3') } });
      expect(erp.calls.length).toBe(calls);
    } finally {
      await strict.close();
    }
  });

  it('answers bad input with 777 in Chinese and changes nothing; codes, removal and unknown names answer the catalogue', async () => {
    const bad = await a.raw('POST', '/v1/connectors/connection/save', { code: 'Bad', name: '坏', baseUrl: 'ftp://x', authKind: 'none' });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ successful: false, errorCode: 777 });
    const noSecret = await a.raw('POST', '/v1/connectors/connection/save', { code: 'NoSecret', name: '缺密钥', baseUrl: erp.url, authKind: 'bearer' });
    expect(noSecret.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'secret', message: '请填写密钥' }] } });
    expect((await a.raw('POST', '/v1/connectors/connection/save', { code: 'ErpBearer', name: '重复', baseUrl: erp.url, authKind: 'none' })).body.errorCode).toBe(420003);
    expect((await a.raw('POST', '/v1/connectors/connection/remove', { code: 'ErpBearer' })).body.errorCode).toBe(420004);
    expect((await run('NoSuch')).body.errorCode).toBe(420005);
    expect((await a.raw('GET', '/v1/connectors/connection/get', { code: 'NoSuch' })).body.errorCode).toBe(420001);
    expect((await a.get('/v1/connectors/connection/list')).items.map((c: { code: string }) => c.code)).not.toContain('Bad');
    await a.post('/v1/connectors/connector/remove', { code: 'GetErpHmac' }).catch(() => null);
    await a.post('/v1/connectors/connector/remove', { code: 'PostErpHmac' });
    expect(await a.post('/v1/connectors/connection/remove', { code: 'ErpHmac' })).toEqual({ code: 'ErpHmac' });
  });

  it('never answers a secret, and stores them sealed', async () => {
    const all = answers.join('\n');
    for (const secret of Object.values(ERP).filter((v) => v !== ERP.user && v !== ERP.clientId)) expect(all).not.toContain(secret);
    const rows = await engineDb(t.database.db as Db, admin.engineCode).selectFrom('connections').select('secrets').execute();
    expect(rows.every((r) => !r.secrets || r.secrets.startsWith('v1.'))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(ERP.bearer);
  });
});
