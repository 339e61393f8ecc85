import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { serveFake } from './fake-http.ts';
import { readBody } from './oidc-issuer.ts';
import { qrLogins, type QrLogins } from './qr-login-fake.ts';

// A local DingTalk server (issue 25) for the sign-in and directory-sync tests and the benchmark: the oapi endpoints the
// adapter uses, with DingTalk's answer shapes ({ errcode, errmsg, result }) and its error codes — 40089 wrong
// AppKey/AppSecret, 40014 unknown access token, 40078 unknown auth code, 60003 unknown department, 60121 unknown user.
// QR login is DingTalk's OAuth2: the login page (/oauth2/auth, see qr-login-fake.ts), the user access token
// (POST /v1.0/oauth2/userAccessToken), the person (GET /v1.0/contact/users/me) and the userid of a unionid
// (POST /topapi/user/getbyunionid); the newer API answers errors with an HTTP status and { code, message }.
// Event subscription by HTTP push: `push` sends a contact-change event to a callback URL as DingTalk does (the JSON
// { encrypt } with msg_signature, timestamp and nonce; AES-256-CBC, PKCS#7 to 32 bytes, the AppKey appended) and
// reads the answer as DingTalk does: the encrypted, signed word "success", or the push counts as failed.

export interface FakeDingDepartment {
  dept_id: number;
  name: string;
  parent_id: number;
}

export interface FakeDingUser {
  userid: string;
  unionid: string;
  name: string;
  mobile?: string;
  email?: string;
  job_number?: string;
  dept_id_list: number[];
  leader_in_dept: { dept_id: number; leader: boolean }[];
  active: boolean;
}

export interface PushOptions {
  /** A forged push: signed with another token, or encrypted for another app. */
  tamper?: 'signature' | 'owner';
}

export interface FakeDingTalk {
  url: string;
  appKey: string;
  appSecret: string;
  departments: FakeDingDepartment[];
  users: FakeDingUser[];
  /** A one-use temporary auth code for a user (what the client's free login or a QR scan yields). */
  authCodeFor(userid: string): string;
  /** Requests by path. */
  calls: Map<string, number>;
  /** The QR-login page; a test confirms a scan with confirmScan(fake.url, state, userid). */
  qr: QrLogins;
  /** The event subscription's keys, as the developer console shows them. */
  callbackToken: string;
  callbackAesKey: string;
  /**
   * Pushes an event (EventType and its fields) to a callback URL; `accepted` when the answer is DingTalk's encrypted
   * "success" signed with the same keys. `tamper` changes the request after signing (a forged push).
   */
  push(callbackUrl: string, event: Record<string, unknown>, options?: PushOptions): Promise<{ accepted: boolean; status: number; body: unknown }>;
  /** The query and body of a push, for a test that sends it itself (inject). */
  signedPush(event: Record<string, unknown>, options?: PushOptions): { query: Record<string, string>; body: { encrypt: string } };
  /** Whether an answer is DingTalk's expected one: "success", encrypted and signed with the subscription's keys. */
  acceptsAnswer(body: unknown): boolean;
  /** The app's AgentId: work messages name it (agent_id), any other is refused. */
  agentId: string;
  /**
   * The person signed in to the DingTalk client: while set, the OAuth2 page (/oauth2/auth) answers at once with a code
   * for them, as inside the client (no QR code); null: the page waits for a scan.
   */
  clientUser: string | null;
  /** Work messages received (asyncsend_v2), by userid. */
  messages: Map<string, FakeWorkMessage[]>;
  /** Errcodes the next work-message calls answer, one per call (-1: busy). */
  failMessages: number[];
  /** Punch records /attendance/list serves. */
  punches: FakeDingPunch[];
  /** Each /attendance/list call: its days, people and page. */
  attendanceCalls: { workDateFrom: string; workDateTo: string; userIdList: string[]; offset: number; limit: number }[];
  close(): Promise<void>;
}

/** A work message as a platform received it: the card's title, text and button link, and the request body. */
export interface FakeWorkMessage {
  title: string;
  text: string;
  url: string;
  body: Record<string, unknown>;
}

/** A record of /attendance/list (its fields as DingTalk answers them). */
export interface FakeDingPunch {
  id: number;
  userId: string;
  checkType: 'OnDuty' | 'OffDuty';
  timeResult: 'Normal' | 'Early' | 'Late' | 'SeriousLate' | 'Absenteeism' | 'NotSigned';
  locationResult: 'Normal' | 'Outside' | 'NotSigned';
  /** Milliseconds. */
  userCheckTime: number;
  /** The day's midnight (China time) in milliseconds. */
  workDate: number;
}

export async function startFakeDingTalk(): Promise<FakeDingTalk> {
  const tokens = new Set<string>();
  const codes = new Map<string, string>();
  const scanCodes = new Map<string, string>();
  const userTokens = new Map<string, string>();
  const fake: FakeDingTalk = {
    url: '',
    appKey: `ding${randomBytes(6).toString('hex')}`,
    appSecret: randomBytes(24).toString('base64url'),
    departments: [],
    users: [],
    calls: new Map(),
    qr: qrLogins(
      () => fake.url,
      (userid) => {
        const code = randomBytes(16).toString('hex');
        scanCodes.set(code, userid);
        return code;
      },
      'authCode',
    ),
    callbackToken: randomBytes(9).toString('hex'),
    // 43 characters of base64: 32 bytes without the final '='.
    callbackAesKey: randomBytes(32).toString('base64').slice(0, 43),
    signedPush(event, options = {}) {
      const timestamp = String(Date.now());
      const nonce = randomBytes(6).toString('hex');
      const encrypt = seal(fake.callbackAesKey, options.tamper === 'owner' ? 'dingsomeoneelse' : fake.appKey, JSON.stringify(event));
      let signature = sign(fake.callbackToken, timestamp, nonce, encrypt);
      if (options.tamper === 'signature') signature = sign('not-the-token', timestamp, nonce, encrypt);
      return { query: { signature, msg_signature: signature, timestamp, nonce }, body: { encrypt } };
    },
    acceptsAnswer(answer) {
      const body = answer as Record<string, string> | null;
      if (!body?.encrypt) return false;
      if (body.msg_signature !== sign(fake.callbackToken, String(body.timeStamp), String(body.nonce), body.encrypt)) return false;
      try {
        return unseal(fake.callbackAesKey, body.encrypt) === 'success';
      } catch {
        return false;
      }
    },
    async push(callbackUrl, event, options = {}) {
      const { query, body: sent } = fake.signedPush(event, options);
      const url = new URL(callbackUrl);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) });
      const body = await res.json().catch(() => null);
      return { accepted: fake.acceptsAnswer(body), status: res.status, body };
    },
    authCodeFor(userid) {
      const code = randomBytes(16).toString('hex');
      codes.set(code, userid);
      return code;
    },
    agentId: String(1000 + Math.floor(Math.random() * 9000)),
    clientUser: null,
    messages: new Map(),
    failMessages: [],
    punches: [],
    attendanceCalls: [],
    close: async () => undefined,
  };
  const served = await serveFake(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.calls.set(url.pathname, (fake.calls.get(url.pathname) ?? 0) + 1);
    const send = (body: Record<string, unknown>) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ request_id: randomBytes(6).toString('hex'), ...body }));
    };
    const ok = (extra: Record<string, unknown>) => send({ errcode: 0, errmsg: 'ok', ...extra });
    if (req.method === 'GET' && url.pathname === '/gettoken') {
      if (url.searchParams.get('appkey') !== fake.appKey || url.searchParams.get('appsecret') !== fake.appSecret) {
        return send({ errcode: 40089, errmsg: '不合法的corpid或corpsecret' });
      }
      const token = randomBytes(16).toString('hex');
      tokens.add(token);
      return ok({ access_token: token, expires_in: 7200 });
    }
    if (req.method === 'GET' && url.pathname === '/oauth2/auth' && fake.clientUser && url.searchParams.get('client_id') === fake.appKey) {
      // Inside the client the person is known: the page sends the browser back at once with a one-use code.
      const scanCode = randomBytes(16).toString('hex');
      scanCodes.set(scanCode, fake.clientUser);
      const target = new URL(url.searchParams.get('redirect_uri') ?? '');
      target.searchParams.set('authCode', scanCode);
      target.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: target.toString() });
      return res.end();
    }
    if (await fake.qr.handle(req, res, url, { path: '/oauth2/auth', clientParam: 'client_id', clientId: fake.appKey, title: '钉钉扫码登录' })) return;
    const newApiError = (status: number, code: string, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ code, message, requestid: randomBytes(6).toString('hex') }));
    };
    // A person who scans but is not in the organisation: known to DingTalk by a unionid only.
    const unionOf = (userid: string) => fake.users.find((u) => u.userid === userid)?.unionid ?? `un-${userid}`;
    if (req.method === 'POST' && url.pathname === '/v1.0/oauth2/userAccessToken') {
      const body = JSON.parse((await readBody(req)) || '{}') as Record<string, string>;
      if (body.clientId !== fake.appKey || body.clientSecret !== fake.appSecret) return newApiError(400, 'InvalidClientIdOrSecret', '无效的clientId或者clientSecret');
      const userid = scanCodes.get(body.code ?? '');
      scanCodes.delete(body.code ?? '');
      if (body.grantType !== 'authorization_code' || !userid) return newApiError(400, 'InvalidAuthCode', '不合法的临时授权码');
      const token = randomBytes(16).toString('hex');
      userTokens.set(token, userid);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return res.end(JSON.stringify({ accessToken: token, refreshToken: randomBytes(16).toString('hex'), expireIn: 7200, corpId: 'dingcorp01' }));
    }
    if (req.method === 'GET' && url.pathname === '/v1.0/contact/users/me') {
      const userid = userTokens.get(String(req.headers['x-acs-dingtalk-access-token'] ?? ''));
      if (!userid) return newApiError(401, 'InvalidAuthentication', '不合法的access_token');
      const user = fake.users.find((u) => u.userid === userid);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return res.end(JSON.stringify({ nick: user?.name ?? userid, unionId: unionOf(userid), openId: `open-${userid}`, mobile: user?.mobile, stateCode: '86', email: user?.email }));
    }
    if (req.method !== 'POST') return send({ errcode: 43001, errmsg: '需要POST请求' });
    if (!tokens.has(url.searchParams.get('access_token') ?? '')) return send({ errcode: 40014, errmsg: '不合法的access_token' });
    const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
    switch (url.pathname) {
      case '/topapi/v2/user/getuserinfo': {
        const userid = codes.get(String(body.code));
        codes.delete(String(body.code));
        if (!userid) return send({ errcode: 40078, errmsg: '不存在的临时授权码' });
        const user = fake.users.find((u) => u.userid === userid)!;
        return ok({ result: { userid, unionid: user.unionid, name: user.name, device_id: 'dev', sys: false, sys_level: 0 } });
      }
      case '/topapi/user/getbyunionid': {
        const user = fake.users.find((u) => u.unionid === body.unionid);
        if (!user) return send({ errcode: 60121, errmsg: '找不到该用户' });
        return ok({ result: { contact_type: 0, userid: user.userid } });
      }
      case '/topapi/v2/user/get': {
        const user = fake.users.find((u) => u.userid === body.userid);
        if (!user) return send({ errcode: 60121, errmsg: '找不到该用户' });
        return ok({ result: user });
      }
      case '/topapi/v2/department/get': {
        const department = fake.departments.find((d) => d.dept_id === Number(body.dept_id));
        if (!department) return send({ errcode: 60003, errmsg: '部门不存在' });
        return ok({ result: { ...department, order: 0, create_dept_group: false, auto_add_user: false } });
      }
      case '/topapi/v2/department/listsub': {
        const id = Number(body.dept_id ?? 1);
        if (id !== 1 && !fake.departments.some((d) => d.dept_id === id)) return send({ errcode: 60003, errmsg: '部门不存在' });
        return ok({
          result: fake.departments.filter((d) => d.parent_id === id).map((d) => ({ ...d, create_dept_group: false, auto_add_user: false })),
        });
      }
      case '/topapi/v2/user/list': {
        const id = Number(body.dept_id);
        if (id !== 1 && !fake.departments.some((d) => d.dept_id === id)) return send({ errcode: 60003, errmsg: '部门不存在' });
        const cursor = Number(body.cursor ?? 0);
        const size = Math.min(Number(body.size ?? 100), 100);
        const members = fake.users.filter((u) => u.dept_id_list.includes(id));
        const list = members.slice(cursor, cursor + size);
        const more = cursor + size < members.length;
        return ok({ result: { has_more: more, ...(more ? { next_cursor: cursor + size } : {}), list } });
      }
      case '/topapi/message/corpconversation/asyncsend_v2': {
        if (String(body.agent_id) !== fake.agentId) return send({ errcode: 400002, errmsg: '不合法的agent_id' });
        const failure = fake.failMessages.shift();
        if (failure !== undefined) return send({ errcode: failure, errmsg: failure === -1 ? '系统繁忙' : '发送失败' });
        const msg = body.msg as { msgtype?: string; action_card?: { title?: string; markdown?: string; single_title?: string; single_url?: string } } | undefined;
        const card = msg?.action_card;
        if (msg?.msgtype !== 'action_card' || !card?.title || !card.markdown || !card.single_title || !card.single_url) return send({ errcode: 40035, errmsg: '不合法的参数: action_card' });
        for (const userid of String(body.userid_list ?? '').split(',').filter(Boolean)) {
          fake.messages.set(userid, [...(fake.messages.get(userid) ?? []), { title: card.title, text: card.markdown, url: card.single_url, body }]);
        }
        return ok({ task_id: Math.floor(Math.random() * 1e9) });
      }
      case '/attendance/list': {
        const from = Date.parse(`${String(body.workDateFrom).replace(' ', 'T')}+08:00`);
        const to = Date.parse(`${String(body.workDateTo).replace(' ', 'T')}+08:00`);
        const users = (body.userIdList as string[] | undefined) ?? [];
        const offset = Number(body.offset ?? 0);
        const limit = Number(body.limit ?? 50);
        fake.attendanceCalls.push({ workDateFrom: String(body.workDateFrom), workDateTo: String(body.workDateTo), userIdList: users, offset, limit });
        if (!(from <= to) || to - from > 7 * 86_400_000) return send({ errcode: 400035, errmsg: '查询时间跨度不能超过7天' });
        if (!users.length || users.length > 50) return send({ errcode: 400034, errmsg: 'userIdList不能为空且不能超过50个' });
        if (!(limit >= 1 && limit <= 50)) return send({ errcode: 400036, errmsg: 'limit不能超过50' });
        const matching = fake.punches.filter((p) => users.includes(p.userId) && p.workDate >= from && p.workDate <= to);
        const page = matching.slice(offset, offset + limit);
        return ok({ hasMore: offset + limit < matching.length, recordresult: page.map((p) => ({ ...p, baseCheckTime: p.userCheckTime, sourceType: 'ATM', recordId: p.id + 1_000_000, groupId: 1, planId: 1 })) });
      }
      default:
        return send({ errcode: 40035, errmsg: '不合法的参数' });
    }
  });
  fake.url = served.url;
  fake.close = served.close;
  return fake;
}

// The push encryption, written from DingTalk's description independently of the server's own code; WeCom's pushes
// are sealed the same way (wecom-fake.ts).
export function sign(token: string, timestamp: string, nonce: string, encrypt: string): string {
  return createHash('sha1').update([token, timestamp, nonce, encrypt].sort().join('')).digest('hex');
}

export function seal(aesKey: string, owner: string, text: string): string {
  const key = Buffer.from(`${aesKey}=`, 'base64');
  const message = Buffer.from(text);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(message.length);
  const plain = Buffer.concat([randomBytes(16), size, message, Buffer.from(owner)]);
  const pad = 32 - (plain.length % 32);
  const cipher = createCipheriv('aes-256-cbc', key, key.subarray(0, 16)).setAutoPadding(false);
  return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString('base64');
}

export function unseal(aesKey: string, encrypt: string): string {
  const key = Buffer.from(`${aesKey}=`, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', key, key.subarray(0, 16)).setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(Buffer.from(encrypt, 'base64')), decipher.final()]);
  const body = plain.subarray(0, plain.length - plain[plain.length - 1]!);
  return body.subarray(20, 20 + body.readUInt32BE(16)).toString();
}

/**
 * A directory of `departmentCount` departments (ten top-level ones, the rest spread under them) and `userCount` users,
 * each in one department, the first user of each department its manager. Mobile numbers start with `mobilePrefix`.
 */
export function fillDirectory(fake: FakeDingTalk, departmentCount: number, userCount: number, mobilePrefix = '177'): void {
  fake.departments = [];
  for (let i = 0; i < departmentCount; i++) {
    const id = 100 + i;
    const parent = i < 10 ? 1 : 100 + (i % 10);
    fake.departments.push({ dept_id: id, name: `部门${String(i + 1).padStart(3, '0')}`, parent_id: parent });
  }
  fake.users = [];
  for (let i = 0; i < userCount; i++) {
    const dept = 100 + (i % departmentCount);
    const first = i < departmentCount;
    fake.users.push({
      userid: `u${i}`,
      unionid: `union${i}`,
      name: `员工${i}`,
      mobile: `${mobilePrefix}${String(i).padStart(11 - mobilePrefix.length, '0')}`,
      job_number: `E${i}`,
      dept_id_list: [dept],
      leader_in_dept: [{ dept_id: dept, leader: first }],
      active: true,
    });
  }
}
