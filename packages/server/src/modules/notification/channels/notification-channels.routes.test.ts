import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, TEST_SECRET_KEY, type TestApp } from '../../../../test/helpers.ts';
import { addMember, engineDb, orgClient, type OrgClient, type Person, recordingClient } from '../../../../test/org-helpers.ts';
import { startFakeHttp, startFakeSmtp, type FakeHttp, type FakeSmtp } from '../../../../test/channel-fakes.ts';
import { loadChannelSettings } from './channel-settings.ts';
import { loadSecretKey } from './secret-box.ts';

// The administrator's channel settings over the API: secrets write-only and encrypted at rest, test messages that
// really go out, members refused, bad input answered from the catalogue.

const SMTP_PASSWORD = 'smtp-Pa55-secret';
const SMS_TOKEN = 'sms-token-secret-77';
const DING_SECRET = 'SECding-signing-secret';
const DING_TOKEN = 'ding-access-token-secret';

describe('notification channel settings', () => {
  let t: TestApp;
  let admin: Person;
  let a: OrgClient;
  let smtp: FakeSmtp;
  let web: FakeHttp;
  const bodies: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerPerson(t.app, { userName: '管理员甲' });
    const client = orgClient(t.app, admin);
    // Every answer is kept, to check at the end that no secret left the server.
    a = recordingClient(client, bodies);
    smtp = await startFakeSmtp({ user: 'mailer', password: SMTP_PASSWORD });
    web = await startFakeHttp();
  });
  afterAll(async () => {
    await smtp?.close();
    await web?.close();
    await t?.close();
  });

  const emailBody = (over: Record<string, unknown> = {}) => ({
    enabled: true,
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    user: 'mailer',
    password: SMTP_PASSWORD,
    fromAddress: 'noreply@tritium.test',
    fromName: '氚',
    ...over,
  });

  it('starts empty, saves e-mail settings, and answers only whether the password is set', async () => {
    const empty = await a.get('/v1/notification/channel/list');
    expect(empty.email).toMatchObject({ configured: false, hasPassword: false });
    expect(empty.robots).toEqual([]);

    const saved = await a.post('/v1/notification/channel/email/save', emailBody());
    expect(saved.email).toMatchObject({ configured: true, enabled: true, host: '127.0.0.1', user: 'mailer', hasPassword: true });
    expect(saved.email).not.toHaveProperty('password');

    const row = await engineDb(t.database.db, admin.engineCode).selectFrom('notification_channels').selectAll().where('kind', '=', 'email').executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(SMTP_PASSWORD);
  });

  it('a save without the password keeps the stored one: the test mail signs in and reaches the administrator', async () => {
    await a.post('/v1/notification/channel/email/save', emailBody({ password: undefined, fromName: '氚平台' }));
    // The administrator's address, set where the console edits a user.
    const edb = engineDb(t.database.db, admin.engineCode);
    const me = await edb.selectFrom('org_users').select('id').where('mobile', '=', admin.mobile).executeTakeFirstOrThrow();
    expect((await a.raw('POST', '/v1/org/user/update', { id: me.id, email: 'not an address' })).body).toMatchObject({ successful: false, errorCode: 777 });
    expect(await a.post('/v1/org/user/update', { id: me.id, email: 'admin@example.com' })).toMatchObject({ email: 'admin@example.com' });

    const result = await a.post('/v1/notification/channel/test', { kind: 'email' });
    expect(result).toMatchObject({ sent: true });
    const mail = smtp.mails.at(-1)!;
    expect(mail.recipients).toEqual(['admin@example.com']);
    expect(mail.mail.subject).toBe('Tritium 通知测试');
    expect(String(mail.mail.html)).toMatch(/href="http:\/\/[^"]+\/admin\/notification-channels"/);

    const other = await a.post('/v1/notification/channel/test', { kind: 'email', to: 'other@example.com' });
    expect(other.sent).toBe(true);
    expect(smtp.mails.at(-1)!.recipients).toEqual(['other@example.com']);
  });

  it('a test that fails answers the reason instead of an error', async () => {
    await a.post('/v1/notification/channel/email/save', emailBody({ password: 'not-the-password' }));
    const result = await a.post('/v1/notification/channel/test', { kind: 'email' });
    expect(result.sent).toBe(false);
    expect(result.detail).toMatch(/auth|535|Invalid/i);
    await a.post('/v1/notification/channel/email/save', emailBody());
  });

  it('the core reads decrypted settings of enabled channels only', async () => {
    const edb = engineDb(t.database.db, admin.engineCode);
    expect(await loadChannelSettings(edb, 'email')).toMatchObject({ host: '127.0.0.1', password: SMTP_PASSWORD, fromName: '氚' });
    await a.post('/v1/notification/channel/email/save', emailBody({ enabled: false, password: '' }));
    expect(await loadChannelSettings(edb, 'email')).toBeNull();
    expect(await loadChannelSettings(edb, 'sms')).toBeNull();
    expect(await loadChannelSettings(edb, 'robot')).toBeNull();
  });

  it('SMS: the test message reaches the provider with the token, and the token is never answered', async () => {
    web.answer = () => ({ status: 200, body: { ok: true } });
    const saved = await a.post('/v1/notification/channel/sms/save', { enabled: true, url: `${web.url}/sms`, token: SMS_TOKEN, template: '{title}：{content}' });
    expect(saved.sms).toMatchObject({ configured: true, hasToken: true, url: `${web.url}/sms` });
    const result = await a.post('/v1/notification/channel/test', { kind: 'sms' });
    expect(result.sent).toBe(true);
    const request = web.requests.at(-1)!;
    expect(request.headers.authorization).toBe(`Bearer ${SMS_TOKEN}`);
    expect(request.body.mobile).toBe(admin.mobile);

    web.answer = () => ({ status: 503, body: { error: 'down' } });
    const failed = await a.post('/v1/notification/channel/test', { kind: 'sms' });
    expect(failed).toMatchObject({ sent: false });
    expect(failed.detail).toContain('503');
  });

  it('robots: add, test with a DingTalk signature, update keeping the secret, remove', async () => {
    web.answer = (request) => {
      const timestamp = request.url.searchParams.get('timestamp');
      const expected = createHmac('sha256', DING_SECRET).update(`${timestamp}\n${DING_SECRET}`).digest('base64');
      return request.url.searchParams.get('sign') === expected ? { status: 200, body: { errcode: 0, errmsg: 'ok' } } : { status: 200, body: { errcode: 310000, errmsg: 'sign not match' } };
    };
    const webhookUrl = `${web.url}/robot/send?access_token=${DING_TOKEN}`;
    const added = await a.post('/v1/notification/channel/robot/add', { name: '审批群', platform: 'dingtalk', webhookUrl, secret: DING_SECRET });
    expect(added).toMatchObject({ name: '审批群', platform: 'dingtalk', enabled: true, hasSecret: true });
    expect(added.webhookUrlMasked).not.toContain(DING_TOKEN);

    expect(await a.post('/v1/notification/channel/test', { kind: 'robot', robotId: added.id })).toMatchObject({ sent: true });
    expect(web.requests.at(-1)!.url.searchParams.get('access_token')).toBe(DING_TOKEN);

    // Renamed without address or secret: both are kept, so the signature still matches.
    const renamed = await a.post('/v1/notification/channel/robot/update', { id: added.id, name: '审批通知群', platform: 'dingtalk', enabled: true });
    expect(renamed).toMatchObject({ name: '审批通知群', hasSecret: true, webhookUrlMasked: added.webhookUrlMasked });
    expect(await a.post('/v1/notification/channel/test', { kind: 'robot', robotId: added.id })).toMatchObject({ sent: true });
    const edb = engineDb(t.database.db, admin.engineCode);
    expect((await loadChannelSettings(edb, 'robot'))?.robots).toEqual([{ id: added.id, name: '审批通知群', platform: 'dingtalk', webhookUrl, secret: DING_SECRET }]);

    // Without the secret the platform refuses the signature: the answer says so.
    await a.post('/v1/notification/channel/robot/update', { id: added.id, name: '审批通知群', platform: 'dingtalk', enabled: true, clearSecret: true });
    const unsigned = await a.post('/v1/notification/channel/test', { kind: 'robot', robotId: added.id });
    expect(unsigned.sent).toBe(false);
    expect(unsigned.detail).toContain('310000');

    const list = await a.get('/v1/notification/channel/list');
    expect(list.robots.map((r: { id: string }) => r.id)).toEqual([added.id]);
    expect(await a.post('/v1/notification/channel/robot/remove', { id: added.id })).toEqual({ id: added.id });
    expect((await a.get('/v1/notification/channel/list')).robots).toEqual([]);
  });

  it('after the server key changes, stored secrets show as set but are refused until entered again', async () => {
    const added = await a.post('/v1/notification/channel/robot/add', { name: '旧钥匙群', platform: 'wecom', webhookUrl: `${web.url}/old` });
    await loadSecretKey(t.database.db, 'another-server-key');
    try {
      const list = await a.get('/v1/notification/channel/list');
      expect(list.email.hasPassword).toBe(true);
      expect((await a.raw('POST', '/v1/notification/channel/test', { kind: 'email' })).body).toMatchObject({ successful: false, errorCode: 340005 });
      const rename = await a.raw('POST', '/v1/notification/channel/robot/update', { id: added.id, name: '新名字', platform: 'wecom', enabled: true, secret: 'x' });
      expect(rename.body).toMatchObject({ successful: false, errorCode: 340005 });
      // A new address replaces what can no longer be read.
      web.answer = () => ({ status: 200, body: { errcode: 0 } });
      await a.post('/v1/notification/channel/robot/update', { id: added.id, name: '新名字', platform: 'wecom', enabled: true, webhookUrl: `${web.url}/new` });
      expect(await a.post('/v1/notification/channel/test', { kind: 'robot', robotId: added.id })).toMatchObject({ sent: true });
      expect(web.requests.at(-1)!.url.pathname).toBe('/new');
    } finally {
      await loadSecretKey(t.database.db, TEST_SECRET_KEY);
      await a.post('/v1/notification/channel/robot/remove', { id: added.id });
    }
  });

  it('bad input gets a catalogue error, never a 5xx', async () => {
    const unknownId = '0193a0c0-0000-7000-8000-000000000000';
    const cases: [string, unknown, number][] = [
      ['/v1/notification/channel/email/save', emailBody({ port: 'twenty-five' }), 777],
      ['/v1/notification/channel/email/save', emailBody({ fromAddress: 'not-an-address' }), 777],
      ['/v1/notification/channel/email/save', { ...emailBody(), extra: 1 }, 777],
      ['/v1/notification/channel/sms/save', { enabled: true, url: 'ftp://example.com/x', template: '' }, 777],
      ['/v1/notification/channel/sms/save', { enabled: 'yes', url: 'http://example.com', template: '' }, 777],
      ['/v1/notification/channel/robot/add', { name: '群', platform: 'slack', webhookUrl: 'https://example.com/hook' }, 777],
      ['/v1/notification/channel/robot/add', { name: '群', platform: 'wecom', webhookUrl: 'not a url' }, 777],
      ['/v1/notification/channel/robot/update', { id: unknownId, name: '群', platform: 'wecom', enabled: true }, 340003],
      ['/v1/notification/channel/robot/update', { id: 'not-a-uuid', name: '群', platform: 'wecom', enabled: true }, 777],
      ['/v1/notification/channel/robot/remove', { id: unknownId }, 340003],
      ['/v1/notification/channel/test', { kind: 'robot' }, 340001],
      ['/v1/notification/channel/test', { kind: 'robot', robotId: unknownId }, 340003],
      ['/v1/notification/channel/test', { kind: 'sms', to: 'call me' }, 340001],
      ['/v1/notification/channel/test', { kind: 'fax' }, 777],
      ['/v1/notification/channel/test', [], 777],
    ];
    for (const [url, body, code] of cases) {
      const res = await a.raw('POST', url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(res.body, `${url} ${JSON.stringify(body)}`).toMatchObject({ successful: false, errorCode: code });
    }
  });

  it('a channel that was never set up cannot be tested', async () => {
    const other = await registerPerson(t.app, { engineName: '另一家公司' });
    const res = await orgClient(t.app, other).raw('POST', '/v1/notification/channel/test', { kind: 'sms' });
    expect(res.body).toMatchObject({ successful: false, errorCode: 340002 });
  });

  it('members who are not administrators are refused every call', async () => {
    const member = await addMember(t, admin, { name: '成员乙' });
    const calls: [string, string, unknown][] = [
      ['GET', '/v1/notification/channel/list', undefined],
      ['POST', '/v1/notification/channel/email/save', emailBody()],
      ['POST', '/v1/notification/channel/sms/save', { enabled: true, url: 'http://example.com', template: '' }],
      ['POST', '/v1/notification/channel/robot/add', { name: '群', platform: 'wecom', webhookUrl: 'https://example.com/hook' }],
      ['POST', '/v1/notification/channel/test', { kind: 'email' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(t.app, method, url, { token: member.token, engineCode: member.engineCode, body });
      expect(res.status, url).toBe(403);
      expect(res.body, url).toMatchObject({ successful: false, errorCode: 100403 });
    }
  });

  it('no answer carried a secret', () => {
    expect(bodies.length).toBeGreaterThan(10);
    const all = bodies.join('\n');
    for (const secret of [SMTP_PASSWORD, SMS_TOKEN, DING_SECRET, DING_TOKEN]) expect(all).not.toContain(secret);
  });
});
