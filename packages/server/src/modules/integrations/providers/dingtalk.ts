import { ChatPlatformError, type ChatProvider, type ChatProviderSettings, type PlatformDepartment, type PlatformUser } from './chat-provider.ts';
import { cachedToken, fetchJson, withAppToken } from './platform-http.ts';
import { dingtalkCallbacks } from './dingtalk-events.ts';
import { readDirectoryPart } from './directory-part.ts';

// DingTalk's server API (oapi): an app access token from /gettoken (AppKey, AppSecret; 7200 s), the user of a
// temporary auth code (/topapi/v2/user/getuserinfo, then /topapi/v2/user/get), sub-departments
// (/topapi/v2/department/listsub) and the users of a department by cursor (/topapi/v2/user/list). Every answer carries
// errcode/errmsg; 0 is success. QR login is DingTalk's OAuth2 (login.dingtalk.com/oauth2/auth, then
// api.dingtalk.com's user access token and "me", then oapi's userid of that unionid).

const ROOT_DEPARTMENT = 1;
const PAGE_SIZE = 100;
/** Codes DingTalk answers for wrong AppKey/AppSecret, and for an unknown or used auth code. */
const CREDENTIAL_CODES = new Set([40089, 40001, 40013]);
const AUTH_CODE_CODES = new Set([40078, 40003]);
/** 60121: no such user in the organisation (getbyunionid of a person outside it). */
const NOT_MEMBER_CODES = new Set([60121]);

interface DingAnswer {
  errcode: number;
  errmsg: string;
  [key: string]: unknown;
}

interface DingUser {
  userid: string;
  name: string;
  mobile?: string;
  email?: string;
  job_number?: string;
  dept_id_list?: number[];
  leader_in_dept?: { dept_id: number; leader: boolean }[];
  active?: boolean;
}

function toUser(u: DingUser): PlatformUser {
  return {
    id: u.userid,
    name: u.name,
    mobile: u.mobile || undefined,
    email: u.email || undefined,
    employeeNo: u.job_number || undefined,
    departmentIds: (u.dept_id_list ?? []).map(String),
    leaderOf: (u.leader_in_dept ?? []).filter((l) => l.leader).map((l) => String(l.dept_id)),
    active: u.active !== false,
  };
}

const PUBLIC_HOSTS = { oapi: 'https://oapi.dingtalk.com', api: 'https://api.dingtalk.com', login: 'https://login.dingtalk.com' };

/** DingTalk serves oapi, the newer api and the login pages from three hosts; any other base URL serves all three. */
function host(settings: ChatProviderSettings, which: keyof typeof PUBLIC_HOSTS): string {
  return settings.baseUrl.replace(/\/+$/, '') === PUBLIC_HOSTS.oapi ? PUBLIC_HOSTS[which] : settings.baseUrl;
}

async function request(settings: ChatProviderSettings, url: URL, body?: unknown): Promise<DingAnswer> {
  const { status, body: answer } = await fetchJson(settings.http, 'DingTalk', url, { body });
  if (typeof answer.errcode !== 'number') throw new ChatPlatformError(status, `DingTalk answered ${status} without errcode`, 'unreachable');
  if (answer.errcode !== 0) {
    const code = answer.errcode;
    const kind = CREDENTIAL_CODES.has(code) ? 'credentials' : AUTH_CODE_CODES.has(code) ? 'auth-code' : NOT_MEMBER_CODES.has(code) ? 'not-member' : 'other';
    throw new ChatPlatformError(code, `DingTalk ${url.pathname}: ${code} ${String(answer.errmsg)}`, kind);
  }
  return answer as DingAnswer;
}

/** Also the work notifications' and attendance's token (modules/chat-apps). */
export function accessToken(settings: ChatProviderSettings, fresh: boolean): Promise<string> {
  return cachedToken(`dingtalk|${settings.baseUrl}|${settings.appKey}|${settings.appSecret}`, fresh, async () => {
    const url = new URL('/gettoken', host(settings, 'oapi'));
    url.searchParams.set('appkey', settings.appKey);
    url.searchParams.set('appsecret', settings.appSecret);
    const answer = await request(settings, url);
    return { token: String(answer.access_token), expiresIn: Number(answer.expires_in ?? 7200) };
  });
}

/** An oapi call with the app token; an expired token (42001, 40014) is fetched again once. */
export function call(settings: ChatProviderSettings, path: string, body: unknown): Promise<DingAnswer> {
  return withAppToken(
    (fresh) => accessToken(settings, fresh),
    (error) => error.platformCode === 42001 || error.platformCode === 40014,
    (token) => {
      const url = new URL(path, host(settings, 'oapi'));
      url.searchParams.set('access_token', token);
      return request(settings, url, body);
    },
  );
}

/**
 * The newer api (api.dingtalk.com): HTTP errors with a string code. A wrong clientId/clientSecret is a credentials
 * failure, anything else about the code (unknown, used, expired) an auth-code one.
 */
async function newApi(settings: ChatProviderSettings, path: string, init: { body?: unknown; userToken?: string }): Promise<Record<string, unknown>> {
  const { status, body } = await fetchJson(settings.http, 'DingTalk', new URL(path, host(settings, 'api')), {
    body: init.body,
    headers: init.userToken ? { 'x-acs-dingtalk-access-token': init.userToken } : {},
  });
  if (status >= 200 && status < 300) return body;
  const code = String(body.code ?? status);
  const kind = /client|appkey|appsecret/i.test(code) ? 'credentials' : status >= 500 ? 'unreachable' : 'auth-code';
  throw new ChatPlatformError(code, `DingTalk ${path}: ${status} ${code} ${String(body.message ?? '')}`, kind);
}

async function userById(settings: ChatProviderSettings, userid: string): Promise<PlatformUser> {
  const detail = await call(settings, '/topapi/v2/user/get', { userid, language: 'zh_CN' });
  return toUser(detail.result as DingUser);
}

export const dingtalkProvider: ChatProvider = {
  name: 'dingtalk',
  defaultBaseUrl: 'https://oapi.dingtalk.com',

  scanUrl(settings, { state, redirectUri }) {
    const url = new URL('/oauth2/auth', host(settings, 'login'));
    for (const [name, value] of Object.entries({ redirect_uri: redirectUri, response_type: 'code', client_id: settings.appKey, scope: 'openid', state, prompt: 'consent' })) url.searchParams.set(name, value);
    return url.toString();
  },

  async userByAuthCode(settings, code, kind) {
    if (kind === 'scan') {
      const token = await newApi(settings, '/v1.0/oauth2/userAccessToken', { body: { clientId: settings.appKey, clientSecret: settings.appSecret, code, grantType: 'authorization_code' } });
      const me = await newApi(settings, '/v1.0/contact/users/me', { userToken: String(token.accessToken) });
      const byUnion = await call(settings, '/topapi/user/getbyunionid', { unionid: String(me.unionId) });
      return userById(settings, String((byUnion.result as { userid: string }).userid));
    }
    const info = await call(settings, '/topapi/v2/user/getuserinfo', { code });
    const userid = (info.result as { userid?: string } | undefined)?.userid;
    if (!userid) throw new ChatPlatformError(40078, 'the auth code names no user of the organisation', 'auth-code');
    return userById(settings, userid);
  },

  async directory(settings) {
    const departments: PlatformDepartment[] = [{ id: String(ROOT_DEPARTMENT), parentId: null, name: '' }];
    // Breadth first from the root: parents always come before their children.
    for (let i = 0; i < departments.length; i++) {
      const answer = await call(settings, '/topapi/v2/department/listsub', { dept_id: Number(departments[i]!.id) });
      for (const d of (answer.result as { dept_id: number; name: string; parent_id: number }[]) ?? []) {
        departments.push({ id: String(d.dept_id), parentId: String(d.parent_id), name: d.name });
      }
    }
    const users = new Map<string, PlatformUser>();
    for (const department of departments) {
      let cursor = 0;
      for (;;) {
        const answer = await call(settings, '/topapi/v2/user/list', { dept_id: Number(department.id), cursor, size: PAGE_SIZE, language: 'zh_CN' });
        const page = answer.result as { has_more: boolean; next_cursor?: number; list: DingUser[] };
        for (const u of page.list ?? []) if (!users.has(u.userid)) users.set(u.userid, toUser(u));
        if (!page.has_more) break;
        cursor = Number(page.next_cursor);
      }
    }
    return { departments, users: [...users.values()] };
  },

  callbacks: dingtalkCallbacks,

  directoryPart: (settings, ids) =>
    readDirectoryPart(
      {
        root: String(ROOT_DEPARTMENT),
        async department(id) {
          const d = (await call(settings, '/topapi/v2/department/get', { dept_id: Number(id), language: 'zh_CN' })).result as { dept_id: number; name: string; parent_id: number };
          return { id: String(d.dept_id), parentId: String(d.parent_id), name: d.name };
        },
        user: (id) => userById(settings, id),
        goneDepartmentCodes: new Set([60003]),
        goneUserCodes: new Set([60121]),
      },
      ids,
    ),
};
