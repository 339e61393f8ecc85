import { ChatPlatformError, type ChatProvider, type ChatProviderSettings, type PlatformDepartment, type PlatformUser } from './chat-provider.ts';
import { cachedToken, fetchJson, withAppToken } from './platform-http.ts';
import { wxworkCallbacks } from './wxwork-events.ts';
import { readDirectoryPart } from './directory-part.ts';

// WeCom's server API (qyapi): the app's token from /cgi-bin/gettoken (corpid, the app's Secret; 7200 s), the person of
// a code — from the QR login page (wwopen/sso/qrConnect) or OAuth2 inside the WeCom client — by
// /cgi-bin/auth/getuserinfo then /cgi-bin/user/get, departments from /cgi-bin/department/list and their members from
// /cgi-bin/user/list. Every answer carries errcode/errmsg; 0 is success. The settings' AppKey holds the CorpID.

/** 40013 unknown corpid, 40001 wrong secret, 40056/40057 wrong agentid; 40029 unknown or used code. */
const CREDENTIAL_CODES = new Set([40001, 40013, 40056, 40057, 48002]);
const AUTH_CODE_CODES = new Set([40029, 40163]);
/** 60111 unknown userid, 60011 outside the app's visible range. */
const NOT_MEMBER_CODES = new Set([60111, 60011]);

interface WxUser {
  userid: string;
  name: string;
  mobile?: string;
  email?: string;
  department?: number[];
  main_department?: number;
  is_leader_in_dept?: number[];
  /** 1 active, 2 disabled, 4 not yet activated, 5 left. */
  status?: number;
  extattr?: unknown;
}

/** WeCom's root department (the organisation) is always 1. */
const ROOT_DEPARTMENT = 1;

const PUBLIC_HOSTS = { api: 'https://qyapi.weixin.qq.com', qr: 'https://open.work.weixin.qq.com' };

function host(settings: ChatProviderSettings, which: keyof typeof PUBLIC_HOSTS): string {
  return settings.baseUrl.replace(/\/+$/, '') === PUBLIC_HOSTS.api ? PUBLIC_HOSTS[which] : settings.baseUrl;
}

export async function request(settings: ChatProviderSettings, url: URL): Promise<Record<string, unknown>> {
  const { status, body } = await fetchJson(settings.http, 'WeCom', url);
  if (typeof body.errcode !== 'number') throw new ChatPlatformError(status, `WeCom answered ${status} without errcode`, 'unreachable');
  if (body.errcode !== 0) {
    const code = body.errcode;
    const kind = CREDENTIAL_CODES.has(code) ? 'credentials' : AUTH_CODE_CODES.has(code) ? 'auth-code' : NOT_MEMBER_CODES.has(code) ? 'not-member' : 'other';
    throw new ChatPlatformError(code, `WeCom ${url.pathname}: ${code} ${String(body.errmsg)}`, kind);
  }
  return body;
}

/** Also the work notifications' and attendance's token (modules/chat-apps). */
export function accessToken(settings: ChatProviderSettings, fresh: boolean): Promise<string> {
  return cachedToken(`wxwork|${settings.baseUrl}|${settings.appKey}|${settings.appSecret}`, fresh, async () => {
    const url = new URL('/cgi-bin/gettoken', host(settings, 'api'));
    url.searchParams.set('corpid', settings.appKey);
    url.searchParams.set('corpsecret', settings.appSecret);
    const answer = await request(settings, url);
    return { token: String(answer.access_token), expiresIn: Number(answer.expires_in ?? 7200) };
  });
}

/** A GET with the app token; an expired or unknown token (42001, 40014) is fetched again once. */
function call(settings: ChatProviderSettings, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
  return withAppToken(
    (fresh) => accessToken(settings, fresh),
    (error) => error.platformCode === 42001 || error.platformCode === 40014,
    (token) => {
      const url = new URL(path, host(settings, 'api'));
      url.searchParams.set('access_token', token);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      return request(settings, url);
    },
  );
}

function toUser(u: WxUser): PlatformUser {
  const departments = (u.department ?? []).map(String);
  const main = u.main_department === undefined ? undefined : String(u.main_department);
  const ordered = main && departments.includes(main) ? [main, ...departments.filter((d) => d !== main)] : departments;
  return {
    id: u.userid,
    name: u.name,
    mobile: u.mobile || undefined,
    email: u.email || undefined,
    departmentIds: ordered,
    leaderOf: departments.filter((_, i) => u.is_leader_in_dept?.[i] === 1),
    active: u.status === undefined || u.status === 1 || u.status === 4,
  };
}

export const wxworkProvider: ChatProvider = {
  name: 'wxwork',
  defaultBaseUrl: PUBLIC_HOSTS.api,

  scanUrl(settings, { state, redirectUri }) {
    const url = new URL('/wwopen/sso/qrConnect', host(settings, 'qr'));
    for (const [name, value] of Object.entries({ appid: settings.appKey, agentid: settings.agentId, redirect_uri: redirectUri, state })) url.searchParams.set(name, value);
    return url.toString();
  },

  async userByAuthCode(settings, code) {
    const info = await call(settings, '/cgi-bin/auth/getuserinfo', { code });
    // A person outside the organisation gets an openid, not a userid.
    if (typeof info.userid !== 'string' || !info.userid) throw new ChatPlatformError(60111, 'the code names no member of the organisation', 'not-member');
    return toUser((await call(settings, '/cgi-bin/user/get', { userid: info.userid })) as unknown as WxUser);
  },

  async directory(settings) {
    const list = (await call(settings, '/cgi-bin/department/list', {})).department as { id: number; name: string; parentid: number }[];
    // Parents before children: the root (parentid 0) first, then breadth first.
    const departments: PlatformDepartment[] = [];
    const known = new Set<string>();
    let level = list.filter((d) => d.parentid === 0 || !list.some((p) => p.id === d.parentid));
    while (level.length) {
      for (const d of level) {
        departments.push({ id: String(d.id), parentId: departments.length && known.has(String(d.parentid)) ? String(d.parentid) : null, name: d.name });
        known.add(String(d.id));
      }
      level = list.filter((d) => !known.has(String(d.id)) && known.has(String(d.parentid)));
    }
    const users = new Map<string, PlatformUser>();
    for (const department of departments) {
      const answer = await call(settings, '/cgi-bin/user/list', { department_id: department.id });
      for (const u of (answer.userlist as WxUser[]) ?? []) if (!users.has(u.userid)) users.set(u.userid, toUser(u));
    }
    return { departments, users: [...users.values()] };
  },

  callbacks: wxworkCallbacks,

  /** One department by /cgi-bin/department/get (60123: gone), one person by /cgi-bin/user/get (60111: gone). */
  directoryPart: (settings, ids) =>
    readDirectoryPart(
      {
        root: String(ROOT_DEPARTMENT),
        async department(id) {
          const d = (await call(settings, '/cgi-bin/department/get', { id })).department as { id: number; name: string; parentid: number };
          return { id: String(d.id), parentId: d.parentid ? String(d.parentid) : null, name: d.name };
        },
        user: async (id) => toUser((await call(settings, '/cgi-bin/user/get', { userid: id })) as unknown as WxUser),
        goneDepartmentCodes: new Set([60123]),
        goneUserCodes: new Set([60111]),
      },
      ids,
    ),
};
