import { createHash, randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { serveFake } from './fake-http.ts';
import { readBody } from './oidc-issuer.ts';
import { seal, sign } from './dingtalk-fake.ts';
import { qrLogins, type QrLogins } from './qr-login-fake.ts';

// A local WeChat (issue 25, decision 0078) for scan sign-in and binding by WeChat's website login (OAuth2, scope
// snsapi_login): the QR page (/connect/qrconnect, see qr-login-fake.ts), the user access token of a code
// (GET /sns/oauth2/access_token) and the person (GET /sns/userinfo). Answers as WeChat's: JSON without errcode on
// success; { errcode, errmsg } otherwise — 40013 invalid appid, 40125 invalid appsecret, 40029 invalid code, 40163 code
// been used, 40001/42001 invalid or expired access token, 41002/41004 appid or secret missing.
//
// And an official account (decision 0097) with the same AppID and AppSecret: its access token (GET /cgi-bin/token,
// grant_type client_credential), temporary QR codes with a scene (POST /cgi-bin/qrcode/create, QR_STR_SCENE or
// QR_SCENE; 60 s unless expire_seconds says otherwise, at most 30 days), the code's image (GET /cgi-bin/showqrcode
// ?ticket=; WeChat answers a JPEG, this one a PNG) and a follower (GET /cgi-bin/user/info). `scan` is a phone scanning
// such a code: the account's server gets the SCAN (follower) or subscribe (new follower) event as WeChat pushes it —
// XML signed with the server Token in the query, sealed with the EncodingAESKey in safe mode.

export interface AccountScanOptions {
  /** A new follower: subscribe with EventKey qrscene_<scene>; otherwise SCAN with the scene. */
  subscribe?: boolean;
  /** Safe mode: the message sealed in <Encrypt>, encrypt_type=aes and msg_signature in the query. */
  safeMode?: boolean;
  /** Sign with another token (a forged push). */
  wrongToken?: boolean;
}

export interface FakeOfficialAccount {
  /** The server Token and EncodingAESKey entered in the account's console (and on the settings screen). */
  token: string;
  aesKey: string;
  /** The account's original id (gh_…), the ToUserName of its pushes. */
  ghId: string;
  /** The server address the pushes go to (the engine's push route). */
  pushUrl: string;
  /** Codes made so far by ticket: the scene and until when the code works. */
  codes: Map<string, { scene: string; expiresAt: number }>;
  /** Makes every account token issued so far invalid (the next call answers `code`: 40001 or 42001). */
  invalidateTokens(code?: 40001 | 42001): void;
  /** The phone scans the code of `ticket` as `openid`: WeChat pushes the event; null when the code has expired. */
  scan(ticket: string, openid: string, options?: AccountScanOptions): Promise<{ status: number; body: string } | null>;
  /** The URL check WeChat makes when the address is saved in the console: the answer's text. */
  verify(): Promise<{ status: number; body: string; echostr: string }>;
}

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
  account: FakeOfficialAccount;
  calls: Map<string, number>;
  /** The next `count` requests to `path` are answered together, once all have arrived (to make callers race). */
  holdTogether(path: string, count: number): void;
  close(): Promise<void>;
}

export async function startFakeWechat(): Promise<FakeWechat> {
  const codes = new Map<string, string>();
  const used = new Set<string>();
  const tokens = new Map<string, string>();
  /** The account's tokens: valid, or refused with the code they now answer. */
  const accountTokens = new Map<string, 0 | 40001 | 42001>();
  let held: { path: string; count: number; waiting: (() => void)[] } | null = null;
  const account: FakeOfficialAccount = {
    token: randomBytes(8).toString('hex'),
    aesKey: randomBytes(32).toString('base64').slice(0, 43),
    ghId: `gh_${randomBytes(6).toString('hex')}`,
    pushUrl: '',
    codes: new Map(),
    invalidateTokens(code = 40001) {
      for (const token of accountTokens.keys()) accountTokens.set(token, code);
    },
    async scan(ticket, openid, options = {}) {
      const code = account.codes.get(ticket);
      if (!code || code.expiresAt <= Date.now()) return null;
      const message =
        `<xml><ToUserName><![CDATA[${account.ghId}]]></ToUserName><FromUserName><![CDATA[${openid}]]></FromUserName>` +
        `<CreateTime>${Math.floor(Date.now() / 1000)}</CreateTime><MsgType><![CDATA[event]]></MsgType>` +
        `<Event><![CDATA[${options.subscribe ? 'subscribe' : 'SCAN'}]]></Event>` +
        `<EventKey><![CDATA[${options.subscribe ? 'qrscene_' : ''}${code.scene}]]></EventKey><Ticket><![CDATA[${ticket}]]></Ticket></xml>`;
      const token = options.wrongToken ? 'not-the-token' : account.token;
      const query = pushQuery(token);
      let body = message;
      if (options.safeMode) {
        const encrypt = seal(account.aesKey, fake.appId, message);
        query.set('encrypt_type', 'aes');
        query.set('msg_signature', sign(token, query.get('timestamp')!, query.get('nonce')!, encrypt));
        body = `<xml><ToUserName><![CDATA[${account.ghId}]]></ToUserName><Encrypt><![CDATA[${encrypt}]]></Encrypt></xml>`;
      }
      const res = await fetch(`${account.pushUrl}?${query}`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body });
      return { status: res.status, body: await res.text() };
    },
    async verify() {
      const query = pushQuery(account.token);
      const echostr = randomBytes(9).toString('hex');
      query.set('echostr', echostr);
      const res = await fetch(`${account.pushUrl}?${query}`);
      return { status: res.status, body: await res.text(), echostr };
    },
  };
  /** The query WeChat signs every push with: signature = SHA-1 of the token, timestamp and nonce, sorted and joined. */
  function pushQuery(token: string): URLSearchParams {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = String(Math.floor(Math.random() * 1e10));
    const signature = createHash('sha1').update([token, timestamp, nonce].sort().join('')).digest('hex');
    return new URLSearchParams({ signature, timestamp, nonce, openid: 'o-push' });
  }
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
    account,
    holdTogether(path, count) {
      held = { path, count, waiting: [] };
    },
    close: async () => undefined,
  };
  const served = await serveFake(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.calls.set(url.pathname, (fake.calls.get(url.pathname) ?? 0) + 1);
    if (held && held.path === url.pathname) {
      const gate = held;
      await new Promise<void>((resolve) => {
        gate.waiting.push(resolve);
        if (gate.waiting.length === gate.count) {
          held = null;
          for (const release of gate.waiting) release();
        }
      });
    }
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
    const answered = await accountApi(req, url);
    if (answered === undefined) return error(40066, 'invalid url');
    if (Buffer.isBuffer(answered)) {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(answered);
    }
    if (answered === null) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<html><body>invalid ticket</body></html>');
    }
    return send(answered as Record<string, unknown>);
  });

  /** The official account's API; undefined for paths it does not have, null for a showqrcode of no code. */
  async function accountApi(req: import('node:http').IncomingMessage, url: URL): Promise<Record<string, unknown> | Buffer | null | undefined> {
    const q = url.searchParams;
    const failure = (errcode: number, errmsg: string) => ({ errcode, errmsg: `${errmsg} rid: ${randomBytes(4).toString('hex')}` });
    /** The access token's refusal, if any. */
    const tokenRefusal = () => {
      const state = accountTokens.get(q.get('access_token') ?? '');
      if (state === undefined) return failure(40001, 'invalid credential, access_token is invalid or not latest');
      return state === 0 ? null : failure(state, state === 42001 ? 'access_token expired' : 'invalid credential, access_token is invalid or not latest');
    };
    if (req.method === 'GET' && url.pathname === '/cgi-bin/token') {
      if (q.get('grant_type') !== 'client_credential') return failure(40002, 'invalid grant_type');
      if (!q.get('appid')) return failure(41002, 'appid missing');
      if (!q.get('secret')) return failure(41004, 'appsecret missing');
      if (q.get('appid') !== fake.appId) return failure(40013, 'invalid appid');
      if (q.get('secret') !== fake.appSecret) return failure(40125, 'invalid appsecret');
      const token = randomBytes(24).toString('hex');
      accountTokens.set(token, 0);
      return { access_token: token, expires_in: 7200 };
    }
    if (req.method === 'POST' && url.pathname === '/cgi-bin/qrcode/create') {
      const refused = tokenRefusal();
      if (refused) return refused;
      let body: { expire_seconds?: number; action_name?: string; action_info?: { scene?: { scene_str?: string; scene_id?: number } } };
      try {
        body = JSON.parse(await readBody(req)) as typeof body;
      } catch {
        return failure(47001, 'data format error');
      }
      const scene = body.action_name === 'QR_STR_SCENE' ? body.action_info?.scene?.scene_str : body.action_name === 'QR_SCENE' ? String(body.action_info?.scene?.scene_id ?? '') : undefined;
      if (scene === undefined) return failure(40052, 'invalid action name');
      if (!scene || scene.length > 64) return failure(40053, 'invalid action info');
      const seconds = Math.min(Math.max(Number(body.expire_seconds) || 60, 60), 2_592_000);
      const ticket = `gQ${randomBytes(30).toString('base64')}`;
      account.codes.set(ticket, { scene, expiresAt: Date.now() + seconds * 1000 });
      return { ticket, expire_seconds: seconds, url: `http://weixin.qq.com/q/${randomBytes(12).toString('base64url')}` };
    }
    if (req.method === 'GET' && url.pathname === '/cgi-bin/showqrcode') {
      const ticket = q.get('ticket') ?? '';
      if (!account.codes.has(ticket)) return null;
      return QRCode.toBuffer(`${fake.url}/qr/account?ticket=${encodeURIComponent(ticket)}`, { type: 'png', margin: 2, width: 258 });
    }
    if (req.method === 'GET' && url.pathname === '/cgi-bin/user/info') {
      const refused = tokenRefusal();
      if (refused) return refused;
      const openid = q.get('openid') ?? '';
      const person = fake.people.find((p) => p.openid === openid);
      if (!person) return failure(40003, 'invalid openid');
      return {
        subscribe: 1,
        openid,
        language: 'zh_CN',
        subscribe_time: Math.floor(Date.now() / 1000),
        remark: '',
        groupid: 0,
        tagid_list: [],
        subscribe_scene: 'ADD_SCENE_QR_CODE',
        qr_scene: 0,
        qr_scene_str: '',
        ...(person.unionid ? { unionid: person.unionid } : {}),
      };
    }
    return undefined;
  }
  fake.url = served.url;
  fake.close = served.close;
  return fake;
}
