import { randomBytes } from 'node:crypto';
import { serveFake } from './fake-http.ts';
import { qrLogins, type QrLogins } from './qr-login-fake.ts';

// A local WeChat (issue 25, decision 0078) for scan sign-in and binding by WeChat's website login (OAuth2, scope
// snsapi_login): the QR page (/connect/qrconnect, see qr-login-fake.ts), the user access token of a code
// (GET /sns/oauth2/access_token) and the person (GET /sns/userinfo). Answers as WeChat's: JSON without errcode on
// success; { errcode, errmsg } otherwise — 40013 invalid appid, 40125 invalid appsecret, 40029 invalid code, 40163 code
// been used, 40001/42001 invalid or expired access token, 41002/41004 appid or secret missing.

export interface FakeWechatPerson {
  openid: string;
  unionid: string;
  nickname: string;
}

export interface FakeWechat {
  url: string;
  appId: string;
  appSecret: string;
  people: FakeWechatPerson[];
  /** A one-use code for a person (what the scan yields). */
  codeFor(openid: string): string;
  qr: QrLogins;
  calls: Map<string, number>;
  close(): Promise<void>;
}

export async function startFakeWechat(): Promise<FakeWechat> {
  const codes = new Map<string, string>();
  const used = new Set<string>();
  const tokens = new Map<string, string>();
  const fake: FakeWechat = {
    url: '',
    appId: `wx${randomBytes(8).toString('hex')}`,
    appSecret: randomBytes(16).toString('hex'),
    people: [],
    calls: new Map(),
    codeFor(openid) {
      const code = randomBytes(16).toString('hex');
      codes.set(code, openid);
      return code;
    },
    qr: qrLogins(() => fake.url, (openid) => fake.codeFor(openid), 'code'),
    close: async () => undefined,
  };
  const served = await serveFake(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.calls.set(url.pathname, (fake.calls.get(url.pathname) ?? 0) + 1);
    const send = (body: Record<string, unknown>) => {
      // WeChat answers text/plain JSON.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(JSON.stringify(body));
    };
    const error = (errcode: number, errmsg: string) => send({ errcode, errmsg: `${errmsg}, rid: ${randomBytes(4).toString('hex')}` });
    if (await fake.qr.handle(req, res, url, { path: '/connect/qrconnect', clientParam: 'appid', clientId: fake.appId, title: '微信登录' })) return;
    const q = url.searchParams;
    if (req.method === 'GET' && url.pathname === '/sns/oauth2/access_token') {
      if (!q.get('appid')) return error(41002, 'appid missing');
      if (!q.get('secret')) return error(41004, 'appsecret missing');
      if (q.get('appid') !== fake.appId) return error(40013, 'invalid appid');
      if (q.get('secret') !== fake.appSecret) return error(40125, 'invalid appsecret');
      const code = q.get('code') ?? '';
      if (used.has(code)) return error(40163, 'code been used');
      const openid = codes.get(code);
      if (!openid || q.get('grant_type') !== 'authorization_code') return error(40029, 'invalid code');
      codes.delete(code);
      used.add(code);
      const person = fake.people.find((p) => p.openid === openid);
      const token = randomBytes(16).toString('hex');
      tokens.set(token, openid);
      return send({ access_token: token, expires_in: 7200, refresh_token: randomBytes(16).toString('hex'), openid, scope: 'snsapi_login', ...(person ? { unionid: person.unionid } : {}) });
    }
    if (req.method === 'GET' && url.pathname === '/sns/userinfo') {
      const openid = tokens.get(q.get('access_token') ?? '');
      if (!openid) return error(40001, 'invalid credential, access_token is invalid or not latest');
      if (q.get('openid') !== openid) return error(40003, 'invalid openid');
      const person = fake.people.find((p) => p.openid === openid);
      return send({ openid, nickname: person?.nickname ?? '微信用户', sex: 0, province: '', city: '', country: '', headimgurl: '', privilege: [], ...(person ? { unionid: person.unionid } : {}) });
    }
    return error(40066, 'invalid url');
  });
  fake.url = served.url;
  fake.close = served.close;
  return fake;
}
