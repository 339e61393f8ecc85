import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPort, startFakeHttp, startFakeSmtp, type FakeHttp, type FakeSmtp } from '../../../../test/channel-fakes.ts';
import { outboundFetch } from '../../../lib/outbound-http.ts';
import { ChannelError, type OutgoingMessage } from './channel.ts';
import { channelAdapters } from './channel-adapters.ts';
import { smsParts } from './sms.adapter.ts';
import type { EmailSettings, RobotSettings } from './channel-settings.ts';

// The adapters against real protocol peers on 127.0.0.1: an SMTP server, an SMS provider, robot webhooks.

const adapters = channelAdapters(fetch);
const email = adapters.get('email')!;
const sms = adapters.get('sms')!;
const robot = adapters.get('robot')!;

const message: OutgoingMessage = {
  category: 'workflow',
  title: '请审批：采购申请 <PO-7>',
  content: '王五提交了采购申请\n金额 <b>1200</b> 元',
  link: 'https://tritium.example.com/form/D0001?objectId=abc&mode=work',
  recipient: { userId: 'u1', name: '李四', email: 'lisi@example.com', mobile: '13900001111' },
};

async function failureOf(work: Promise<unknown>): Promise<ChannelError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChannelError);
  return error as ChannelError;
}

describe('e-mail over SMTP', () => {
  let smtp: FakeSmtp;
  let settings: EmailSettings;
  beforeAll(async () => {
    smtp = await startFakeSmtp({ user: 'mailer', password: 'smtp-pass-1' });
    settings = { host: '127.0.0.1', port: smtp.port, secure: false, user: 'mailer', password: 'smtp-pass-1', fromAddress: 'noreply@tritium.test', fromName: '氚通知' };
  });
  afterAll(() => smtp.close());

  it('delivers an HTML mail with the escaped content and a link back to the record, and a plain-text alternative', async () => {
    const detail = await email.send(settings, message);
    expect(detail).toMatch(/250/);
    const received = smtp.mails.at(-1)!;
    expect(received.recipients).toEqual(['lisi@example.com']);
    expect(received.from).toBe('noreply@tritium.test');
    expect(received.mail.subject).toBe(message.title);
    const html = String(received.mail.html);
    expect(html).toContain('href="https://tritium.example.com/form/D0001?objectId=abc&amp;mode=work"');
    expect(html).toContain('金额 &lt;b&gt;1200&lt;/b&gt; 元');
    expect(html).not.toContain('<b>1200</b>');
    expect(received.mail.text).toContain('https://tritium.example.com/form/D0001?objectId=abc&mode=work');
    expect(received.mail.text).toContain('王五提交了采购申请');
  });

  it('a refused sign-in is a failure that is not retried', async () => {
    const error = await failureOf(email.send({ ...settings, password: 'wrong' }, message));
    expect(error.retryable).toBe(false);
  });

  it('a recipient without an e-mail address is not retried', async () => {
    const error = await failureOf(email.send(settings, { ...message, recipient: { ...message.recipient, email: null } }));
    expect(error.retryable).toBe(false);
  });

  it('a server that does not answer is retried', async () => {
    const error = await failureOf(email.send({ ...settings, port: await closedPort() }, message));
    expect(error.retryable).toBe(true);
  });
});

describe('SMS over an HTTP provider', () => {
  let provider: FakeHttp;
  beforeAll(async () => {
    provider = await startFakeHttp();
  });
  afterAll(() => provider.close());
  beforeEach(() => {
    provider.answer = () => ({ status: 200, body: { ok: true } });
  });

  it('posts the mobile number and the text filled from the template, with the token', async () => {
    await sms.send({ url: `${provider.url}/send`, token: 'sms-token-9', template: '【氚】{title}，详情：{link}' }, message);
    const request = provider.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe('/send');
    expect(request.headers.authorization).toBe('Bearer sms-token-9');
    expect(request.body).toEqual({ mobile: '13900001111', content: `【氚】${message.title}，详情：${message.link}` });
  });

  it('a 500 answer is retryable and a 400 answer is not', async () => {
    const settings = { url: provider.url, token: '', template: '' };
    provider.answer = () => ({ status: 500, body: { error: 'busy' } });
    expect((await failureOf(sms.send(settings, message))).retryable).toBe(true);
    provider.answer = () => ({ status: 400, body: { error: 'bad mobile' } });
    const refused = await failureOf(sms.send(settings, message));
    expect(refused.retryable).toBe(false);
    expect(refused.message).toContain('400');
  });

  it('a text over 200 characters goes as several messages of at most 200 (domain.md §5)', async () => {
    const before = provider.requests.length;
    const long = { ...message, title: '长', content: '汇'.repeat(450), link: null };
    const detail = await sms.send({ url: provider.url, token: '', template: '' }, long);
    const sent = provider.requests.slice(before).map((r) => (r.body as { content: string }).content);
    expect(sent.map((text) => [...text].length)).toEqual([200, 200, 53]);
    expect(sent.join('')).toBe(`【长】${'汇'.repeat(450)}`);
    expect(detail.split('; ')).toHaveLength(3);
    expect(smsParts('😀'.repeat(201)).map((p) => [...p].length)).toEqual([200, 1]);
  });

  it('no answer at all is retryable', async () => {
    const error = await failureOf(sms.send({ url: `http://127.0.0.1:${await closedPort()}/`, token: '', template: '' }, message));
    expect(error.retryable).toBe(true);
  });
});

describe('robot webhooks', () => {
  let platform: FakeHttp;
  beforeAll(async () => {
    platform = await startFakeHttp();
  });
  afterAll(() => platform.close());

  const robotOf = (over: Partial<RobotSettings>): RobotSettings => ({ id: 'r', name: '审批群', platform: 'dingtalk', webhookUrl: '', secret: '', ...over });

  it('DingTalk: a markdown message signed with timestamp and sign in the query', async () => {
    const secret = 'SEC0123456789abcdef';
    platform.answer = (request) => {
      // DingTalk's check: HMAC-SHA256 over "timestamp\nsecret" keyed by the secret, base64.
      const timestamp = request.url.searchParams.get('timestamp')!;
      const expected = createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
      const fresh = Math.abs(Date.now() - Number(timestamp)) < 60_000;
      return request.url.searchParams.get('sign') === expected && fresh ? { status: 200, body: { errcode: 0, errmsg: 'ok' } } : { status: 200, body: { errcode: 310000, errmsg: 'sign not match' } };
    };
    const settings = { robots: [robotOf({ webhookUrl: `${platform.url}/robot/send?access_token=tok-ding`, secret })] };
    await robot.send(settings, message);
    const request = platform.requests.at(-1)!;
    expect(request.url.searchParams.get('access_token')).toBe('tok-ding');
    // The raw query carries the signature URL-encoded (base64's + / = would otherwise change meaning).
    expect(request.url.search).not.toMatch(/sign=[^&]*[+/=]/);
    expect(request.body.msgtype).toBe('markdown');
    expect(request.body.markdown.title).toBe(message.title);
    expect(request.body.markdown.text).toContain(`(${message.link})`);

    const wrongSecret = { robots: [robotOf({ webhookUrl: `${platform.url}/robot/send?access_token=tok-ding`, secret: 'another' })] };
    const error = await failureOf(robot.send(wrongSecret, message));
    expect(error.message).toContain('310000');
    expect(error.retryable).toBe(false);
  });

  it('a webhook into the platform’s own network is refused for good when private addresses are not allowed', async () => {
    const strict = channelAdapters(outboundFetch({ allowPrivate: false })).get('robot')!;
    const before = platform.requests.length;
    const error = await failureOf(strict.send({ robots: [robotOf({ webhookUrl: `${platform.url}/robot/send?access_token=t` })] }, message));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("platform's own network");
    expect(platform.requests.length).toBe(before);
  });

  it('WeCom: a markdown message; errcode 0 is success', async () => {
    platform.answer = () => ({ status: 200, body: { errcode: 0, errmsg: 'ok' } });
    await robot.send({ robots: [robotOf({ platform: 'wecom', webhookUrl: `${platform.url}/cgi-bin/webhook/send?key=k1` })] }, message);
    const request = platform.requests.at(-1)!;
    expect(request.url.searchParams.get('key')).toBe('k1');
    expect(request.body.msgtype).toBe('markdown');
    expect(request.body.markdown.content).toContain(`**${message.title}**`);
    expect(request.body.markdown.content).toContain(message.link);
  });

  it('Feishu: a post message with timestamp and sign in the body; code != 0 is a failure', async () => {
    const secret = 'feishu-secret-42';
    platform.answer = (request) => {
      // Feishu's check: HMAC-SHA256 keyed by "timestamp\nsecret" over nothing, base64.
      const expected = createHmac('sha256', `${request.body.timestamp}\n${secret}`).update('').digest('base64');
      return request.body.sign === expected ? { status: 200, body: { code: 0, msg: 'success' } } : { status: 200, body: { code: 19021, msg: 'sign match fail' } };
    };
    await robot.send({ robots: [robotOf({ platform: 'feishu', webhookUrl: `${platform.url}/open-apis/bot/v2/hook/h1`, secret })] }, message);
    const request = platform.requests.at(-1)!;
    expect(Math.abs(Number(request.body.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(request.body.msg_type).toBe('post');
    const post = request.body.content.post.zh_cn;
    expect(post.title).toBe(message.title);
    expect(JSON.stringify(post.content)).toContain(message.link);

    const error = await failureOf(robot.send({ robots: [robotOf({ platform: 'feishu', webhookUrl: `${platform.url}/open-apis/bot/v2/hook/h1`, secret: 'wrong' })] }, message));
    expect(error.message).toContain('19021');
    expect(error.retryable).toBe(false);
  });

  it('every robot gets the message even when one fails; the failure is retryable when the platform answered 5xx', async () => {
    platform.answer = (request) => (request.url.pathname === '/down' ? { status: 502, body: {} } : { status: 200, body: { errcode: 0 } });
    const before = platform.requests.length;
    const settings = { robots: [robotOf({ name: '坏的', platform: 'wecom', webhookUrl: `${platform.url}/down` }), robotOf({ name: '好的', platform: 'wecom', webhookUrl: `${platform.url}/up` })] };
    const error = await failureOf(robot.send(settings, message));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('坏的');
    expect(platform.requests.slice(before).map((r) => r.url.pathname).sort()).toEqual(['/down', '/up']);
  });
});
