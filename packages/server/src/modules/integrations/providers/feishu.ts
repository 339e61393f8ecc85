import { ChatPlatformError, type ChatProvider, type ChatProviderSettings, type PlatformDepartment, type PlatformUser } from './chat-provider.ts';
import { cachedToken, fetchJson, withAppToken } from './platform-http.ts';
import { feishuCallbacks } from './feishu-events.ts';
import { readDirectoryPart } from './directory-part.ts';
import { normaliseMobile } from '../identity-sign-in.ts';

// Feishu's open platform: sign-in by its OAuth2 — the authorize page (accounts.feishu.cn, which shows the QR code on a
// computer) or the code the Feishu client hands a web app — exchanged at /open-apis/authen/v2/oauth/token for the
// user's token, the person from /open-apis/authen/v1/user_info; the directory with the app's tenant token
// (/open-apis/auth/v3/tenant_access_token/internal) from /open-apis/contact/v3. Answers carry { code, msg }; 0 is
// success. The settings' AppKey holds the App ID.

/** 20002 wrong client secret (v2 token), 10003/10014 wrong app id or secret (tenant token). */
const CREDENTIAL_CODES = new Set([20002, 10003, 10014]);
/** 20003 unknown code, 20004 expired code, 20005 used code. */
const AUTH_CODE_CODES = new Set([20003, 20004, 20005]);
/** 20010: the person may not use the app (outside its range). */
const NOT_MEMBER_CODES = new Set([20010]);
/** 99991663/99991664: the tenant token is unknown or expired. */
export const TOKEN_EXPIRED = new Set([99991663, 99991664]);

/** Outside the app's contact range (no longer visible to it): 40004 for a department, 41050 for a person. */
const GONE_DEPARTMENT_CODES = new Set([40004]);
const GONE_USER_CODES = new Set([41050]);

const PUBLIC_HOSTS = { api: 'https://open.feishu.cn', accounts: 'https://accounts.feishu.cn' };

function host(settings: ChatProviderSettings, which: keyof typeof PUBLIC_HOSTS): string {
  return settings.baseUrl.replace(/\/+$/, '') === PUBLIC_HOSTS.api ? PUBLIC_HOSTS[which] : settings.baseUrl;
}

export async function request(settings: ChatProviderSettings, path: string, init: { body?: unknown; token?: string; query?: Record<string, string> } = {}): Promise<Record<string, unknown>> {
  const url = new URL(path, host(settings, 'api'));
  for (const [name, value] of Object.entries(init.query ?? {})) url.searchParams.set(name, value);
  const { status, body } = await fetchJson(settings.http, 'Feishu', url, { body: init.body, headers: init.token ? { authorization: `Bearer ${init.token}` } : {} });
  if (typeof body.code !== 'number') throw new ChatPlatformError(status, `Feishu answered ${status} without code`, 'unreachable');
  if (body.code !== 0) {
    const code = body.code;
    const kind = CREDENTIAL_CODES.has(code) ? 'credentials' : AUTH_CODE_CODES.has(code) ? 'auth-code' : NOT_MEMBER_CODES.has(code) ? 'not-member' : 'other';
    throw new ChatPlatformError(code, `Feishu ${path}: ${code} ${String(body.msg ?? body.error_description ?? '')}`, kind);
  }
  return body;
}

/** Also the work notifications' token (modules/chat-apps). */
export function tenantToken(settings: ChatProviderSettings, fresh: boolean): Promise<string> {
  return cachedToken(`feishu|${settings.baseUrl}|${settings.appKey}|${settings.appSecret}`, fresh, async () => {
    const answer = await request(settings, '/open-apis/auth/v3/tenant_access_token/internal', { body: { app_id: settings.appKey, app_secret: settings.appSecret } });
    return { token: String(answer.tenant_access_token), expiresIn: Number(answer.expire ?? 7200) };
  });
}

/** A GET with the tenant token; an unknown or expired token is fetched again once. */
function appGet(settings: ChatProviderSettings, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
  return withAppToken(
    (fresh) => tenantToken(settings, fresh),
    (error) => TOKEN_EXPIRED.has(Number(error.platformCode)),
    (token) => request(settings, path, { token, query }),
  );
}

/** Every page of a contact list (page_token until has_more is false). */
async function allPages<T>(settings: ChatProviderSettings, path: string, query: Record<string, string>): Promise<T[]> {
  const items: T[] = [];
  let pageToken = '';
  for (;;) {
    const answer = await appGet(settings, path, { ...query, page_size: '50', ...(pageToken ? { page_token: pageToken } : {}) });
    const data = answer.data as { items?: T[]; has_more?: boolean; page_token?: string };
    items.push(...(data.items ?? []));
    if (!data.has_more || !data.page_token) return items;
    pageToken = data.page_token;
  }
}

interface FeishuUser {
  user_id?: string;
  open_id: string;
  name: string;
  mobile?: string;
  email?: string;
  employee_no?: string;
  department_ids?: string[];
  status?: { is_activated?: boolean; is_frozen?: boolean; is_resigned?: boolean };
}

interface FeishuDepartment {
  open_department_id: string;
  parent_department_id: string;
  name: string;
  leader_user_id?: string;
  status?: { is_deleted?: boolean };
}

function toUser(u: FeishuUser, leaderOf: string[] = []): PlatformUser {
  return {
    id: u.user_id || u.open_id,
    name: u.name,
    // Feishu gives numbers with the country code (+8613800000000).
    mobile: normaliseMobile(u.mobile) ?? (u.mobile || undefined),
    email: u.email || undefined,
    employeeNo: u.employee_no || undefined,
    departmentIds: u.department_ids ?? [],
    leaderOf,
    active: !u.status || (!u.status.is_frozen && !u.status.is_resigned),
  };
}

export const feishuProvider: ChatProvider = {
  name: 'feishu',
  defaultBaseUrl: PUBLIC_HOSTS.api,

  scanUrl(settings, { state, redirectUri }) {
    const url = new URL('/open-apis/authen/v1/authorize', host(settings, 'accounts'));
    for (const [name, value] of Object.entries({ client_id: settings.appKey, response_type: 'code', redirect_uri: redirectUri, state })) url.searchParams.set(name, value);
    return url.toString();
  },

  async userByAuthCode(settings, code, _kind, redirectUri) {
    const token = await request(settings, '/open-apis/authen/v2/oauth/token', {
      body: { grant_type: 'authorization_code', client_id: settings.appKey, client_secret: settings.appSecret, code, ...(redirectUri ? { redirect_uri: redirectUri } : {}) },
    });
    const info = await request(settings, '/open-apis/authen/v1/user_info', { token: String(token.access_token) });
    return toUser(info.data as FeishuUser);
  },

  async directory(settings) {
    // The root is department "0"; fetch_child lists the whole tree, which is ordered into parents before children.
    const list = await allPages<FeishuDepartment>(settings, '/open-apis/contact/v3/departments/0/children', {
      fetch_child: 'true',
      department_id_type: 'open_department_id',
      user_id_type: 'user_id',
    });
    const departments: PlatformDepartment[] = [{ id: '0', parentId: null, name: '' }];
    const known = new Set(['0']);
    for (let level = list.filter((d) => known.has(d.parent_department_id)); level.length; level = list.filter((d) => !known.has(d.open_department_id) && known.has(d.parent_department_id))) {
      for (const d of level) {
        departments.push({ id: d.open_department_id, parentId: d.parent_department_id, name: d.name });
        known.add(d.open_department_id);
      }
    }
    const leaders = new Map<string, string[]>();
    for (const d of list) if (d.leader_user_id) leaders.set(d.leader_user_id, [...(leaders.get(d.leader_user_id) ?? []), d.open_department_id]);
    const users = new Map<string, PlatformUser>();
    for (const department of departments) {
      const members = await allPages<FeishuUser>(settings, '/open-apis/contact/v3/users/find_by_department', { department_id: department.id, department_id_type: 'open_department_id', user_id_type: 'user_id' });
      for (const u of members) {
        const user = toUser(u, leaders.get(u.user_id ?? '') ?? []);
        if (!users.has(user.id)) users.set(user.id, user);
      }
    }
    return { departments, users: [...users.values()] };
  },

  callbacks: feishuCallbacks,

  /**
   * One department by GET /open-apis/contact/v3/departments/:id (status.is_deleted, or outside the app's range: gone),
   * one person by GET /open-apis/contact/v3/users/:id (resigned people come back with status.is_resigned and are
   * disabled as in the full sync; outside the range: gone). A department read names its leader, who is then among the
   * people read so that the manager is set as the full sync sets it.
   */
  async directoryPart(settings, ids) {
    const departments = new Map<string, FeishuDepartment>();
    const get = (path: string, query: Record<string, string>) => appGet(settings, path, query);
    const idType = (id: string) => (id.startsWith('ou_') ? 'open_id' : 'user_id');
    const part = await readDirectoryPart(
      {
        root: '0',
        async department(id) {
          const d = ((await get(`/open-apis/contact/v3/departments/${encodeURIComponent(id)}`, { department_id_type: 'open_department_id', user_id_type: 'user_id' })).data as { department: FeishuDepartment }).department;
          if (d.status?.is_deleted) return null;
          departments.set(d.open_department_id, d);
          return { id: d.open_department_id, parentId: d.parent_department_id, name: d.name };
        },
        async user(id) {
          const u = ((await get(`/open-apis/contact/v3/users/${encodeURIComponent(id)}`, { user_id_type: idType(id), department_id_type: 'open_department_id' })).data as { user: FeishuUser }).user;
          return toUser(u);
        },
        goneDepartmentCodes: GONE_DEPARTMENT_CODES,
        goneUserCodes: GONE_USER_CODES,
        moreUsers: () => [...departments.values()].map((d) => d.leader_user_id ?? '').filter(Boolean),
      },
      ids,
    );
    for (const user of part.users) user.leaderOf = [...departments.values()].filter((d) => d.leader_user_id === user.id).map((d) => d.open_department_id);
    return part;
  },
};
