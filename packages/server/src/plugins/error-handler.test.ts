import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('error envelope', () => {
  it('answers an unknown API path with 404 and the envelope', async () => {
    const res = await call(t.app, 'GET', '/v1/no/such/path');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ successful: false, errorCode: 100404, errorType: 'BIZ' });
  });

  it('serves paths case-insensitively as the spec writes them', async () => {
    const res = await call(t.app, 'GET', '/V1/REGISTER/GetScaleList');
    expect(res.body.successful).toBe(true);
  });

  it('hides the internals of a fault and gives a request id that is also in the header', async () => {
    const failing = await buildApp({ config: { ...loadConfig({}), rateLimit: false, jwtSecret: 'x'.repeat(32) }, db: t.database.db, logger: false });
    failing.get('/v1/test/boom', { config: { access: 'public' } }, async () => {
      throw new Error('select * from secret_table where password = 1');
    });
    const res = await failing.inject({ method: 'GET', url: '/v1/test/boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({ successful: false, errorCode: 888, errorType: 'SYS' });
    expect(JSON.stringify(body)).not.toContain('secret_table');
    expect(body.requestId).toBe(res.headers['x-request-id']);
    await failing.close();
  });

  it('refuses to start with a route that declares no access', async () => {
    const app = await buildApp({ config: { ...loadConfig({}), rateLimit: false, jwtSecret: 'x'.repeat(32) }, db: t.database.db, logger: false });
    expect(() => app.get('/v1/test/undeclared', async () => ({}))).toThrow(/declares no access/);
    await app.close();
  });

  it('says plainly that chat-platform and SSO logins are not configured, and refuses an unknown external login code', async () => {
    // WeCom and Feishu answer 200901 for an engine that has not set them up (DingTalk too: integrations/dingtalk.test.ts).
    const { engineCode } = await registerPerson(t.app);
    expect((await call(t.app, 'GET', '/v1/login/wxwork/corp', { query: { code: 'x', engineCode } })).body.errorCode).toBe(200901);
    expect((await call(t.app, 'POST', '/v1/login/feishu/corp', { body: { code: 'x', engineCode } })).body.errorCode).toBe(200901);
    expect((await call(t.app, 'GET', '/v1/login/sso')).body.errorCode).toBe(208001);
    expect((await call(t.app, 'POST', '/v1/external/login', { body: { code: 'abc', engineCode: 'abcd1234' } })).body.errorCode).toBe(201001);
  });
});

describe('OpenAPI', () => {
  it('publishes every sign-in path with its schemas', async () => {
    const res = await call(t.app, 'GET', '/v1/openapi.json');
    const paths = Object.keys(res.body.paths);
    for (const p of ['/v1/captcha/verifycode/send', '/v1/login/mobile/password', '/v1/login/mobile/verifycode', '/v1/login/password/reset', '/v1/register/validate', '/v1/register/engine', '/v1/register/getscalelist', '/v1/user/info', '/v1/user/reload', '/v1/token/refresh', '/Login/Logout', '/v1/login/h3/guest', '/v1/engine/current', '/v1/engine/connected', '/v1/switch/batch', '/v1/log']) {
      expect(paths).toContain(p);
    }
    const body = res.body.paths['/v1/login/mobile/password'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['mobile', 'password']));
  });

  it('serves Swagger UI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});

describe('client error log', () => {
  it('stores what the web client reports', async () => {
    const res = await call(t.app, 'POST', '/v1/log', { body: { Content: '页面出错', LogTime: new Date().toISOString(), Level: 'Error', Route: '/entry/', BreadCrumb: ['/entry/', 'click 登录'] } });
    expect(res.body).toEqual({ successful: true, data: {} });
    const row = await t.database.db.selectFrom('platform.error_logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.content).toBe('页面出错');
  });
});
