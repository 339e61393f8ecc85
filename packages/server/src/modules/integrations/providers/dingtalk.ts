import { ChatPlatformError, type ChatProvider, type ChatProviderSettings, type PlatformDepartment, type PlatformUser } from './chat-provider.ts';

// DingTalk's server API (oapi): an app access token from /gettoken (AppKey, AppSecret; 7200 s), the user of a
// temporary auth code (/topapi/v2/user/getuserinfo, then /topapi/v2/user/get), sub-departments
// (/topapi/v2/department/listsub) and the users of a department by cursor (/topapi/v2/user/list). Every answer carries
// errcode/errmsg; 0 is success.

const ROOT_DEPARTMENT = 1;
const PAGE_SIZE = 100;
/** Codes DingTalk answers for wrong AppKey/AppSecret, and for an unknown or used auth code. */
const CREDENTIAL_CODES = new Set([40089, 40001, 40013]);
const AUTH_CODE_CODES = new Set([40078, 40003]);

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

const tokens = new Map<string, { token: string; until: number }>();

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

async function request(url: URL, body?: unknown): Promise<DingAnswer> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new ChatPlatformError('network', `DingTalk cannot be reached: ${(error as Error).message}`, 'unreachable');
  }
  const answer = (await res.json().catch(() => undefined)) as DingAnswer | undefined;
  if (!answer || typeof answer.errcode !== 'number') throw new ChatPlatformError(res.status, `DingTalk answered ${res.status} without errcode`, 'unreachable');
  if (answer.errcode !== 0) {
    const kind = CREDENTIAL_CODES.has(answer.errcode) ? 'credentials' : AUTH_CODE_CODES.has(answer.errcode) ? 'auth-code' : 'other';
    throw new ChatPlatformError(answer.errcode, `DingTalk ${url.pathname}: ${answer.errcode} ${answer.errmsg}`, kind);
  }
  return answer;
}

async function accessToken(settings: ChatProviderSettings, fresh = false): Promise<string> {
  const key = `${settings.baseUrl}|${settings.appKey}|${settings.appSecret}`;
  const cached = tokens.get(key);
  if (!fresh && cached && cached.until > Date.now()) return cached.token;
  const url = new URL('/gettoken', settings.baseUrl);
  url.searchParams.set('appkey', settings.appKey);
  url.searchParams.set('appsecret', settings.appSecret);
  const answer = await request(url);
  const token = String(answer.access_token);
  // Renewed a few minutes before DingTalk's expiry.
  tokens.set(key, { token, until: Date.now() + (Number(answer.expires_in ?? 7200) - 300) * 1000 });
  return token;
}

/** A call with the app token; an expired token (42001, 40014) is fetched again once. */
async function call(settings: ChatProviderSettings, path: string, body: unknown): Promise<DingAnswer> {
  for (let attempt = 0; ; attempt++) {
    const url = new URL(path, settings.baseUrl);
    url.searchParams.set('access_token', await accessToken(settings, attempt > 0));
    try {
      return await request(url, body);
    } catch (error) {
      if (attempt === 0 && error instanceof ChatPlatformError && (error.platformCode === 42001 || error.platformCode === 40014)) continue;
      throw error;
    }
  }
}

export const dingtalkProvider: ChatProvider = {
  name: 'dingtalk',
  defaultBaseUrl: 'https://oapi.dingtalk.com',

  async userByAuthCode(settings, code) {
    const info = await call(settings, '/topapi/v2/user/getuserinfo', { code });
    const userid = (info.result as { userid?: string } | undefined)?.userid;
    if (!userid) throw new ChatPlatformError(40078, 'the auth code names no user of the organisation', 'auth-code');
    const detail = await call(settings, '/topapi/v2/user/get', { userid, language: 'zh_CN' });
    return toUser(detail.result as DingUser);
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
};
