import { randomBytes } from 'node:crypto';
import { serveFake } from './fake-http.ts';
import { seal, sign } from './dingtalk-fake.ts';
import { qrLogins, type QrLogins } from './qr-login-fake.ts';
import { readBody } from './oidc-issuer.ts';
import type { FakeWorkMessage } from './dingtalk-fake.ts';

// A local WeCom server (issue 25) speaking qyapi's protocol for the adapter's calls — GET /cgi-bin/gettoken,
// /cgi-bin/auth/getuserinfo, /cgi-bin/user/get, /cgi-bin/department/list, /cgi-bin/department/get,
// /cgi-bin/user/list — with WeCom's answer
// shape ({ errcode, errmsg, ... }) and codes: 40013 unknown corpid, 40001 wrong secret, 40014 unknown access token,
// 40029 unknown or used code, 60111 unknown userid, 60123 unknown department; and the QR login page
// (/wwopen/sso/qrConnect, see qr-login-fake.ts).
// The callback service for contact changes: `signedPush` seals a change_contact event as WeCom does (the XML message
// sealed like DingTalk's pushes with the EncodingAESKey and the CorpID, inside <xml><ToUserName/><AgentID/><Encrypt/>,
// msg_signature, timestamp and nonce in the query) and `urlCheck` the GET WeCom sends when the URL is saved.

export interface FakeWxDepartment {
  id: number;
  name: string;
  parentid: number;
  order: number;
}

export interface FakeWxUser {
  userid: string;
  name: string;
  mobile?: string;
  email?: string;
  department: number[];
  main_department: number;
  is_leader_in_dept: number[];
  /** 1 active, 2 disabled, 4 not activated, 5 left. */
  status: number;
}

export interface FakeWeCom {
  url: string;
  corpId: string;
  secret: string;
  departments: FakeWxDepartment[];
  users: FakeWxUser[];
  /** A one-use code (what the QR page's redirect or the client's OAuth2 yields); an unknown userid is an outsider. */
  codeFor(userid: string): string;
  qr: QrLogins;
  calls: Map<string, number>;
  /** The callback service's Token and EncodingAESKey (43 characters). */
  callbackToken: string;
  callbackAesKey: string;
  /** A change_contact push (fields of the event, e.g. { ChangeType: 'update_user', UserID: 'lisi' }) as WeCom sends it. */
  signedPush(fields: Record<string, string>, options?: WeComPushOptions): { query: Record<string, string>; body: string };
  /** The GET of WeCom's URL check: the query with an encrypted echostr, and the plain text it expects back. */
  urlCheck(options?: WeComPushOptions): { query: Record<string, string>; expected: string };
  /** The app's AgentId: messages name it (agentid), the in-client OAuth2 page too. */
  agentId: string;
  /**
   * The person signed in to the WeCom client: while set, the in-client OAuth2 page (/connect/oauth2/authorize) answers
   * at once with a code for them; null: it waits like the QR page.
   */
  clientUser: string | null;
  /** Messages received (/cgi-bin/message/send), by userid. */
  messages: Map<string, FakeWorkMessage[]>;
  /** Errcodes the next message calls answer, one per call (45009: too many). */
  failMessages: number[];
  /** Punches /cgi-bin/checkin/getcheckindata serves. */
  checkins: FakeWxCheckin[];
  /** Each getcheckindata call: its window and people. */
  checkinCalls: { starttime: number; endtime: number; useridlist: string[] }[];
  close(): Promise<void>;
}

/** A punch of getcheckindata (its fields as WeCom answers them). */
export interface FakeWxCheckin {
  userid: string;
  checkin_type: '上班打卡' | '下班打卡' | '外出打卡';
  /** '' when normal; 时间异常, 地点异常, 未打卡… joined by ';'. */
  exception_type: string;
  /** Unix seconds. */
  checkin_time: number;
  location_title: string;
  location_detail: string;
}

export interface WeComPushOptions {
  /** A forged push: signed with another token, or sealed for another organisation. */
  tamper?: 'signature' | 'receiver';
}

export async function startFakeWeCom(): Promise<FakeWeCom> {
  const tokens = new Set<string>();
  const codes = new Map<string, string>();
  const fake: FakeWeCom = {
    url: '',
    corpId: `ww${randomBytes(8).toString('hex')}`,
    secret: randomBytes(24).toString('base64url'),
    departments: [{ id: 1, name: '企业', parentid: 0, order: 100000000 }],
    users: [],
    codeFor(userid) {
      const code = randomBytes(16).toString('hex');
      codes.set(code, userid);
      return code;
    },
    qr: undefined as unknown as QrLogins,
    calls: new Map(),
    agentId: String(1000000 + Math.floor(Math.random() * 9000)),
    clientUser: null,
    messages: new Map(),
    failMessages: [],
    checkins: [],
    checkinCalls: [],
    callbackToken: randomBytes(8).toString('hex'),
    callbackAesKey: randomBytes(32).toString('base64').slice(0, 43),
    signedPush(fields, options = {}) {
      const cdata = (value: string) => `<![CDATA[${value}]]>`;
      const message = `<xml><ToUserName>${cdata(fake.corpId)}</ToUserName><FromUserName>${cdata('sys')}</FromUserName><CreateTime>${Math.floor(Date.now() / 1000)}</CreateTime><MsgType>${cdata('event')}</MsgType><Event>${cdata('change_contact')}</Event>${Object.entries(fields)
        .map(([name, value]) => `<${name}>${cdata(value)}</${name}>`)
        .join('')}</xml>`;
      const { query, encrypt } = sealed(message, options);
      return { query, body: `<xml><ToUserName>${cdata(fake.corpId)}</ToUserName><AgentID>${cdata('1000002')}</AgentID><Encrypt>${cdata(encrypt)}</Encrypt></xml>` };
    },
    urlCheck(options = {}) {
      const expected = randomBytes(10).toString('hex');
      const { query, encrypt } = sealed(expected, options);
      return { query: { ...query, echostr: encrypt }, expected };
    },
    close: async () => undefined,
  };
  function sealed(message: string, options: WeComPushOptions) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(5).toString('hex');
    const encrypt = seal(fake.callbackAesKey, options.tamper === 'receiver' ? 'wwsomeoneelse' : fake.corpId, message);
    const signature = sign(options.tamper === 'signature' ? 'not-the-token' : fake.callbackToken, timestamp, nonce, encrypt);
    return { query: { msg_signature: signature, timestamp, nonce }, encrypt };
  }
  fake.qr = qrLogins(() => fake.url, (userid) => fake.codeFor(userid), 'code');
  const served = await serveFake(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const q = url.searchParams;
    fake.calls.set(url.pathname, (fake.calls.get(url.pathname) ?? 0) + 1);
    if (await fake.qr.handle(req, res, url, { path: '/wwopen/sso/qrConnect', clientParam: 'appid', clientId: fake.corpId, title: '企业微信扫码登录' })) return;
    // OAuth2 inside the WeCom client (open.weixin.qq.com/connect/oauth2/authorize): snsapi_base answers at once.
    if (req.method === 'GET' && url.pathname === '/connect/oauth2/authorize') {
      if (q.get('appid') !== fake.corpId || q.get('response_type') !== 'code' || !q.get('redirect_uri')) {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('参数错误');
      }
      if (fake.clientUser) {
        const target = new URL(q.get('redirect_uri')!);
        target.searchParams.set('code', fake.codeFor(fake.clientUser));
        target.searchParams.set('state', q.get('state') ?? '');
        res.writeHead(302, { location: target.toString() });
        return res.end();
      }
    }
    if (await fake.qr.handle(req, res, url, { path: '/connect/oauth2/authorize', clientParam: 'appid', clientId: fake.corpId, title: '企业微信授权' })) return;
    const send = (body: Record<string, unknown>) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const ok = (extra: Record<string, unknown>) => send({ errcode: 0, errmsg: 'ok', ...extra });
    if (url.pathname === '/cgi-bin/gettoken') {
      if (q.get('corpid') !== fake.corpId) return send({ errcode: 40013, errmsg: 'invalid corpid' });
      if (q.get('corpsecret') !== fake.secret) return send({ errcode: 40001, errmsg: 'invalid credential' });
      const token = randomBytes(16).toString('hex');
      tokens.add(token);
      return ok({ access_token: token, expires_in: 7200 });
    }
    if (!tokens.has(q.get('access_token') ?? '')) return send({ errcode: 40014, errmsg: 'invalid access_token' });
    switch (url.pathname) {
      case '/cgi-bin/auth/getuserinfo': {
        const userid = codes.get(q.get('code') ?? '');
        codes.delete(q.get('code') ?? '');
        if (!userid) return send({ errcode: 40029, errmsg: 'invalid code' });
        if (!fake.users.some((u) => u.userid === userid)) return ok({ openid: `o-${userid}`, external_userid: '' });
        return ok({ userid, user_ticket: randomBytes(8).toString('hex'), expires_in: 1800 });
      }
      case '/cgi-bin/user/get': {
        const user = fake.users.find((u) => u.userid === q.get('userid'));
        return user ? ok({ ...user }) : send({ errcode: 60111, errmsg: 'invalid string value `userid`' });
      }
      case '/cgi-bin/department/get': {
        const department = fake.departments.find((d) => d.id === Number(q.get('id')));
        return department ? ok({ department: { ...department, name_en: '', department_leader: fake.users.filter((u) => u.is_leader_in_dept.some((l, i) => l === 1 && u.department[i] === department.id)).map((u) => u.userid) } }) : send({ errcode: 60123, errmsg: 'invalid party id' });
      }
      case '/cgi-bin/department/list':
        return ok({ department: fake.departments.map((d) => ({ ...d, department_leader: [] })) });
      case '/cgi-bin/user/list': {
        const id = Number(q.get('department_id'));
        if (!fake.departments.some((d) => d.id === id)) return send({ errcode: 60123, errmsg: 'invalid party id' });
        return ok({ userlist: fake.users.filter((u) => u.department.includes(id)) });
      }
      case '/cgi-bin/message/send': {
        if (req.method !== 'POST') return send({ errcode: 43001, errmsg: 'require POST method' });
        const body = JSON.parse((await readBody(req)) || '{}') as { touser?: string; msgtype?: string; agentid?: number; textcard?: { title?: string; description?: string; url?: string; btntxt?: string } };
        if (String(body.agentid) !== fake.agentId) return send({ errcode: 40056, errmsg: 'invalid agentid' });
        const failure = fake.failMessages.shift();
        if (failure !== undefined) return send({ errcode: failure, errmsg: failure === 45009 ? 'api freq out of limit' : 'failed' });
        const card = body.textcard;
        if (body.msgtype !== 'textcard' || !card?.title || !card.description || !card.url) return send({ errcode: 44004, errmsg: 'empty content' });
        const invalid: string[] = [];
        for (const userid of String(body.touser ?? '').split('|').filter(Boolean)) {
          if (!fake.users.some((u) => u.userid === userid)) invalid.push(userid);
          else fake.messages.set(userid, [...(fake.messages.get(userid) ?? []), { title: card.title, text: card.description, url: card.url, body: body as Record<string, unknown> }]);
        }
        return ok({ invaliduser: invalid.join('|'), invalidparty: '', invalidtag: '', unlicenseduser: '', msgid: randomBytes(8).toString('hex'), response_code: '' });
      }
      case '/cgi-bin/checkin/getcheckindata': {
        if (req.method !== 'POST') return send({ errcode: 43001, errmsg: 'require POST method' });
        const body = JSON.parse((await readBody(req)) || '{}') as { opencheckindatatype?: number; starttime?: number; endtime?: number; useridlist?: string[] };
        const starttime = Number(body.starttime);
        const endtime = Number(body.endtime);
        const users = body.useridlist ?? [];
        fake.checkinCalls.push({ starttime, endtime, useridlist: users });
        if (![1, 2, 3].includes(Number(body.opencheckindatatype))) return send({ errcode: 301023, errmsg: 'invalid opencheckindatatype' });
        if (!(starttime <= endtime) || endtime - starttime >= 30 * 86_400) return send({ errcode: 301024, errmsg: 'time range exceed 30 days' });
        if (!users.length || users.length > 100) return send({ errcode: 301025, errmsg: 'useridlist size exceed 100' });
        return ok({ checkindata: fake.checkins.filter((c) => users.includes(c.userid) && c.checkin_time >= starttime && c.checkin_time <= endtime).map((c) => ({ ...c, groupname: '默认打卡规则', notes: '', wifiname: '', wifimac: '', mediaids: [], sch_checkin_time: c.checkin_time, groupid: 1, schedule_id: 0, timeline_id: 1 })) });
      }
      default:
        return send({ errcode: 40035, errmsg: 'invalid args' });
    }
  });
  fake.url = served.url;
  fake.close = served.close;
  return fake;
}
