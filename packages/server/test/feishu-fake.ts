import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { serveFake } from './fake-http.ts';
import { readBody } from './oidc-issuer.ts';
import { qrLogins, type QrLogins } from './qr-login-fake.ts';
import type { FakeWorkMessage } from './dingtalk-fake.ts';

// A local Feishu open platform (issue 25) for the adapter's calls: the authorize page (QR on a computer, see
// qr-login-fake.ts), POST /open-apis/authen/v2/oauth/token, GET /open-apis/authen/v1/user_info, the tenant token
// (POST /open-apis/auth/v3/tenant_access_token/internal) and the contact API (departments' children with fetch_child,
// users by department; page_size and page_token). Answers carry { code, msg }: 20002 wrong client secret, 20003
// unknown code, 20010 the person may not use the app, 10014 wrong app secret, 99991663 unknown tenant token.
// One department (GET /open-apis/contact/v3/departments/:id; 40004 outside the app's range) and one person
// (GET /open-apis/contact/v3/users/:id; 41050 outside the range) for the incremental sync. Event subscription:
// `signedPush` sends a v2 event as Feishu does with an Encrypt Key ({ encrypt }: AES-256-CBC, key the SHA-256 of the
// Encrypt Key, a random IV before the text; X-Lark-Request-Timestamp/Nonce/Signature over the body as sent), and
// `urlVerification` the challenge Feishu sends when the request URL is saved.

export interface FakeFeishuDepartment {
  open_department_id: string;
  parent_department_id: string;
  name: string;
  leader_user_id?: string;
}

export interface FakeFeishuUser {
  user_id: string;
  open_id: string;
  union_id: string;
  name: string;
  mobile?: string;
  email?: string;
  employee_no?: string;
  department_ids: string[];
  status: { is_activated: boolean; is_frozen: boolean; is_resigned: boolean };
}

export interface FakeFeishu {
  url: string;
  appId: string;
  appSecret: string;
  departments: FakeFeishuDepartment[];
  users: FakeFeishuUser[];
  /** A one-use code; an unknown user_id is a person the app may not serve (20010). */
  codeFor(userId: string): string;
  qr: QrLogins;
  /** The redirect_uri each token exchange named. */
  tokenRedirects: (string | undefined)[];
  calls: Map<string, number>;
  verificationToken: string;
  encryptKey: string;
  /** A contact event (contact.user.updated_v3…) about `object`, sealed and signed; `headers` to send with `body`. */
  signedPush(eventType: string, object: Record<string, unknown>, options?: FeishuPushOptions): { headers: Record<string, string>; body: string };
  /** The url_verification push with its challenge (sealed, not signed, as Feishu sends it). */
  urlVerification(challenge: string, options?: FeishuPushOptions): { headers: Record<string, string>; body: string };
  /**
   * The person signed in to the Feishu client: while set, the authorize page answers at once with a code for them
   * (a web app opened inside the client); null: it shows the QR code.
   */
  clientUser: string | null;
  /** Messages received (POST /open-apis/im/v1/messages), by receive_id. */
  messages: Map<string, FakeWorkMessage[]>;
  /** Codes the next message calls answer, one per call (99991400: too many). */
  failMessages: number[];
  close(): Promise<void>;
}

export interface FeishuPushOptions {
  /** A forged push: signed with another key, carrying another verification token, or not sealed at all. */
  tamper?: 'signature' | 'token' | 'plain';
}

const PAGE = 50;

function encrypt(encryptKey: string, text: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', createHash('sha256').update(encryptKey).digest(), iv);
  return Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}

export async function startFakeFeishu(): Promise<FakeFeishu> {
  const codes = new Map<string, string>();
  const userTokens = new Map<string, string>();
  const tenantTokens = new Set<string>();
  const fake: FakeFeishu = {
    url: '',
    appId: `cli_${randomBytes(8).toString('hex')}`,
    appSecret: randomBytes(24).toString('base64url'),
    departments: [],
    users: [],
    codeFor(userId) {
      const code = randomBytes(16).toString('hex');
      codes.set(code, userId);
      return code;
    },
    qr: undefined as unknown as QrLogins,
    clientUser: null,
    messages: new Map(),
    failMessages: [],
    tokenRedirects: [],
    calls: new Map(),
    verificationToken: randomBytes(12).toString('base64url'),
    encryptKey: randomBytes(12).toString('hex'),
    signedPush(eventType, object, options = {}) {
      const event = {
        schema: '2.0',
        header: { event_id: randomBytes(16).toString('hex'), event_type: eventType, create_time: String(Date.now()), token: options.tamper === 'token' ? 'not-the-token' : fake.verificationToken, app_id: fake.appId, tenant_key: 'tenant01' },
        event: { object },
      };
      const body = options.tamper === 'plain' ? JSON.stringify(event) : JSON.stringify({ encrypt: encrypt(fake.encryptKey, JSON.stringify(event)) });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = randomBytes(8).toString('hex');
      const key = options.tamper === 'signature' ? 'another-key' : fake.encryptKey;
      const signature = createHash('sha256').update(timestamp + nonce + key + body).digest('hex');
      return { headers: { 'content-type': 'application/json; charset=utf-8', 'x-lark-request-timestamp': timestamp, 'x-lark-request-nonce': nonce, 'x-lark-signature': signature }, body };
    },
    urlVerification(challenge, options = {}) {
      const event = { challenge, token: options.tamper === 'token' ? 'not-the-token' : fake.verificationToken, type: 'url_verification' };
      return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(options.tamper === 'plain' ? event : { encrypt: encrypt(fake.encryptKey, JSON.stringify(event)) }) };
    },
    close: async () => undefined,
  };
  fake.qr = qrLogins(() => fake.url, (userId) => fake.codeFor(userId), 'code');
  const served = await serveFake(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = url.pathname.replace(/^(\/open-apis\/contact\/v3\/(?:departments|users))\/(?!0\/children$|find_by_department$)[^/]+$/, '$1/:id');
    fake.calls.set(route, (fake.calls.get(route) ?? 0) + 1);
    if (req.method === 'GET' && url.pathname === '/open-apis/authen/v1/authorize' && fake.clientUser && url.searchParams.get('client_id') === fake.appId) {
      const target = new URL(url.searchParams.get('redirect_uri') ?? '');
      target.searchParams.set('code', fake.codeFor(fake.clientUser));
      target.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: target.toString() });
      return res.end();
    }
    if (await fake.qr.handle(req, res, url, { path: '/open-apis/authen/v1/authorize', clientParam: 'client_id', clientId: fake.appId, title: '飞书扫码登录' })) return;
    const send = (body: Record<string, unknown>) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const data = (payload: unknown) => send({ code: 0, msg: 'success', data: payload });
    const body = req.method === 'POST' ? (JSON.parse((await readBody(req)) || '{}') as Record<string, string>) : {};
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const page = <T>(items: T[]) => {
      const start = Number(url.searchParams.get('page_token') || 0);
      const size = Math.min(Number(url.searchParams.get('page_size') || PAGE), PAGE);
      const more = start + size < items.length;
      return data({ items: items.slice(start, start + size), has_more: more, ...(more ? { page_token: String(start + size) } : {}) });
    };
    switch (url.pathname) {
      case '/open-apis/authen/v2/oauth/token': {
        if (body.client_id !== fake.appId || body.client_secret !== fake.appSecret) return send({ code: 20002, error: 'invalid_client', error_description: 'The client secret is invalid.' });
        fake.tokenRedirects.push(body.redirect_uri);
        const userId = codes.get(body.code ?? '');
        codes.delete(body.code ?? '');
        if (body.grant_type !== 'authorization_code' || !userId) return send({ code: 20003, error: 'invalid_grant', error_description: 'The authorization code is not found.' });
        if (!fake.users.some((u) => u.user_id === userId)) return send({ code: 20010, error: 'invalid_grant', error_description: 'The user does not have permission to use this app.' });
        const token = `u-${randomBytes(16).toString('hex')}`;
        userTokens.set(token, userId);
        return send({ code: 0, access_token: token, expires_in: 7200, token_type: 'Bearer', scope: '' });
      }
      case '/open-apis/authen/v1/user_info': {
        const user = fake.users.find((u) => u.user_id === userTokens.get(bearer));
        if (!user) return send({ code: 99991668, msg: 'Invalid access token for authorization.' });
        return data({ name: user.name, en_name: '', open_id: user.open_id, union_id: user.union_id, user_id: user.user_id, email: user.email, mobile: user.mobile ? `+86${user.mobile}` : undefined, employee_no: user.employee_no, tenant_key: 'tenant01' });
      }
      case '/open-apis/auth/v3/tenant_access_token/internal': {
        if (body.app_id !== fake.appId || body.app_secret !== fake.appSecret) return send({ code: 10014, msg: 'app secret invalid' });
        const token = `t-${randomBytes(16).toString('hex')}`;
        tenantTokens.add(token);
        return send({ code: 0, msg: 'ok', tenant_access_token: token, expire: 7200 });
      }
    }
    if (!tenantTokens.has(bearer)) return send({ code: 99991663, msg: 'Invalid access token for authorization.' });
    if (req.method === 'POST' && url.pathname === '/open-apis/im/v1/messages') {
      const idType = url.searchParams.get('receive_id_type');
      if (idType !== 'user_id' && idType !== 'open_id') return send({ code: 99992402, msg: 'field validation failed: receive_id_type' });
      const failure = fake.failMessages.shift();
      if (failure !== undefined) return send({ code: failure, msg: failure === 99991400 ? 'request trigger frequency limit' : 'failed' });
      const user = fake.users.find((u) => (idType === 'open_id' ? u.open_id : u.user_id) === body.receive_id);
      if (!user) return send({ code: 230013, msg: 'Bot has NO availability to this user.' });
      if (body.msg_type !== 'interactive') return send({ code: 230001, msg: 'unsupported msg_type' });
      const card = JSON.parse(body.content ?? '{}') as { header?: { title?: { content?: string } }; elements?: { tag: string; text?: { content?: string }; actions?: { tag: string; url?: string }[] }[] };
      const title = card.header?.title?.content ?? '';
      const text = (card.elements ?? []).filter((e) => e.tag === 'div').map((e) => e.text?.content ?? '').join('\n');
      const button = (card.elements ?? []).flatMap((e) => e.actions ?? []).find((a) => a.tag === 'button');
      if (!title || !button?.url) return send({ code: 230099, msg: 'Failed to create card content' });
      fake.messages.set(body.receive_id!, [...(fake.messages.get(body.receive_id!) ?? []), { title, text, url: button.url, body }]);
      return data({ message_id: `om_${randomBytes(12).toString('hex')}`, msg_type: 'interactive', chat_id: `oc_${randomBytes(8).toString('hex')}` });
    }
    if (url.pathname === '/open-apis/contact/v3/departments/0/children') return page(fake.departments);
    if (url.pathname === '/open-apis/contact/v3/users/find_by_department') {
      const id = url.searchParams.get('department_id') ?? '';
      return page(fake.users.filter((u) => u.department_ids.includes(id)));
    }
    const one = /^\/open-apis\/contact\/v3\/(departments|users)\/([^/]+)$/.exec(url.pathname);
    if (one?.[1] === 'departments') {
      const d = fake.departments.find((x) => x.open_department_id === decodeURIComponent(one[2]!));
      return d ? data({ department: { ...d, department_id: d.open_department_id, status: { is_deleted: false } } }) : send({ code: 40004, msg: 'no dept authority error' });
    }
    if (one?.[1] === 'users') {
      const id = decodeURIComponent(one[2]!);
      const byOpenId = url.searchParams.get('user_id_type') === 'open_id';
      const u = fake.users.find((x) => (byOpenId ? x.open_id : x.user_id) === id);
      return u ? data({ user: { ...u, mobile: u.mobile ? `+86${u.mobile}` : undefined } }) : send({ code: 41050, msg: 'no user authority error' });
    }
    return send({ code: 1254000, msg: 'unknown path' });
  });
  fake.url = served.url;
  fake.close = served.close;
  return fake;
}
