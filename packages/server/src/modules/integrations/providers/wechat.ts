import { ChatPlatformError, type ChatProvider, type ChatProviderSettings } from './chat-provider.ts';
import { fetchJson } from './platform-http.ts';

// WeChat's website login (decision 0078): the QR page of open.weixin.qq.com (/connect/qrconnect, scope snsapi_login)
// sends the browser back with a code; api.weixin.qq.com exchanges it for the person's access token with their openid
// and unionid (/sns/oauth2/access_token), then tells who they are (/sns/userinfo). Answers carry errcode/errmsg only
// on failure. WeChat has no directory and gives no mobile number: a person is known by their binding (unionid, else
// openid), made the first time by proving a number of the engine's user (0061). The settings' AppKey holds the AppID.

/** 40013 invalid appid, 40125 invalid appsecret, 41002/41004 appid or secret missing. */
const CREDENTIAL_CODES = new Set([40013, 40125, 41002, 41004]);
/** 40029 invalid code, 40163 code been used. */
const AUTH_CODE_CODES = new Set([40029, 40163]);

const PUBLIC_HOSTS = { api: 'https://api.weixin.qq.com', open: 'https://open.weixin.qq.com' };

function host(settings: ChatProviderSettings, which: keyof typeof PUBLIC_HOSTS): string {
  return settings.baseUrl.replace(/\/+$/, '') === PUBLIC_HOSTS.api ? PUBLIC_HOSTS[which] : settings.baseUrl;
}

async function request(settings: ChatProviderSettings, path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
  const url = new URL(path, host(settings, 'api'));
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const { status, body } = await fetchJson(settings.http, 'WeChat', url);
  const code = body.errcode;
  if (typeof code === 'number' && code !== 0) {
    const kind = CREDENTIAL_CODES.has(code) ? 'credentials' : AUTH_CODE_CODES.has(code) ? 'auth-code' : 'other';
    throw new ChatPlatformError(code, `WeChat ${path}: ${code} ${String(body.errmsg ?? '')}`, kind);
  }
  if (status >= 400) throw new ChatPlatformError(status, `WeChat answered ${status}`, 'unreachable');
  return body;
}

export const wechatProvider: ChatProvider = {
  name: 'wechat',
  defaultBaseUrl: PUBLIC_HOSTS.api,

  scanUrl(settings, { state, redirectUri }) {
    const url = new URL('/connect/qrconnect', host(settings, 'open'));
    for (const [name, value] of Object.entries({ appid: settings.appKey, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_login', state })) url.searchParams.set(name, value);
    url.hash = 'wechat_redirect';
    return url.toString();
  },

  async userByAuthCode(settings, code) {
    const token = await request(settings, '/sns/oauth2/access_token', { appid: settings.appKey, secret: settings.appSecret, code, grant_type: 'authorization_code' });
    const openid = String(token.openid ?? '');
    if (!openid) throw new ChatPlatformError('openid', 'WeChat named no person for the code', 'auth-code');
    const info = await request(settings, '/sns/userinfo', { access_token: String(token.access_token), openid, lang: 'zh_CN' });
    const unionid = String(info.unionid ?? token.unionid ?? '');
    return { id: unionid || openid, name: String(info.nickname ?? ''), departmentIds: [], leaderOf: [], active: true };
  },
};
