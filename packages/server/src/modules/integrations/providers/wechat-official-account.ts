import { createHash } from 'node:crypto';
import { textOf, xmlFields } from './push-xml.ts';
import { ChatPlatformError, type CallbackPush, type ChatProviderSettings } from './chat-provider.ts';
import { cachedToken, fetchJson, withAppToken } from './platform-http.ts';
import { dingDecrypt as unseal, dingSignature as sealSignature, sameText } from './dingtalk-events.ts';

// A WeChat official account's own scan (decision 0097), as its API documents it: the account's access token
// (GET /cgi-bin/token, grant_type client_credential; 7200 s), a temporary QR code with a text scene
// (POST /cgi-bin/qrcode/create, action_name QR_STR_SCENE) whose image is mp.weixin.qq.com/cgi-bin/showqrcode?ticket=,
// and the follower's details (GET /cgi-bin/user/info: the unionid when the account is bound to an open platform).
// Scanning makes WeChat push an event to the account's server address: SCAN (a follower; EventKey the scene) or
// subscribe (a new follower; EventKey qrscene_<scene>), FromUserName the openid. Plain mode signs the query only
// (signature = SHA-1 of the Token, timestamp and nonce, sorted and joined); safe mode (encrypt_type=aes) also seals the
// message in <Encrypt> with the EncodingAESKey as WeCom does (msg_signature over the four; receiver id the AppID).

/** 40013 invalid appid, 40125 invalid appsecret, 41002/41004 appid or secret missing, 40164 caller's IP not allowed. */
const CREDENTIAL_CODES = new Set([40013, 40125, 41002, 41004, 40164]);
/** 40001 invalid or not the latest token, 40014 invalid token, 42001 token expired: fetch a new one once. */
const TOKEN_CODES = new Set([40001, 40014, 42001]);

const PUBLIC_HOSTS = { api: 'https://api.weixin.qq.com', mp: 'https://mp.weixin.qq.com' };

function host(settings: ChatProviderSettings, which: keyof typeof PUBLIC_HOSTS): string {
  return settings.baseUrl.replace(/\/+$/, '') === PUBLIC_HOSTS.api ? PUBLIC_HOSTS[which] : settings.baseUrl.replace(/\/+$/, '');
}

async function call(settings: ChatProviderSettings, path: string, query: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const url = new URL(path, host(settings, 'api'));
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const { status, body: answer } = await fetchJson(settings.http, 'WeChat', url, body === undefined ? {} : { body });
  const code = answer.errcode;
  if (typeof code === 'number' && code !== 0) {
    throw new ChatPlatformError(code, `WeChat ${path}: ${code} ${String(answer.errmsg ?? '')}`, CREDENTIAL_CODES.has(code) ? 'credentials' : 'other');
  }
  if (status >= 400) throw new ChatPlatformError(status, `WeChat answered ${status}`, 'unreachable');
  return answer;
}

function accountToken(settings: ChatProviderSettings, fresh: boolean): Promise<string> {
  const secretHash = createHash('sha256').update(settings.appSecret).digest('hex');
  return cachedToken(`wechat-oa|${settings.baseUrl}|${settings.appKey}|${secretHash}`, fresh, async () => {
    const answer = await call(settings, '/cgi-bin/token', { grant_type: 'client_credential', appid: settings.appKey, secret: settings.appSecret });
    if (typeof answer.access_token !== 'string') throw new ChatPlatformError('access_token', 'WeChat gave no access token', 'other');
    return { token: answer.access_token, expiresIn: Number(answer.expires_in) || 7200 };
  });
}

/** A call with the account's token: fetched again once when WeChat says it is invalid or expired. */
function withAccountToken<T>(settings: ChatProviderSettings, run: (token: string) => Promise<T>): Promise<T> {
  return withAppToken((fresh) => accountToken(settings, fresh), (error) => TOKEN_CODES.has(Number(error.platformCode)), run);
}

export interface SceneQr {
  ticket: string;
  /** The QR image for the browser (WeChat's showqrcode). */
  qrUrl: string;
  expireSeconds: number;
}

/** A temporary QR code of the account carrying `scene` (1 to 64 characters). */
export async function createSceneQr(settings: ChatProviderSettings, scene: string, seconds: number): Promise<SceneQr> {
  const answer = await withAccountToken(settings, (token) =>
    call(settings, '/cgi-bin/qrcode/create', { access_token: token }, { expire_seconds: seconds, action_name: 'QR_STR_SCENE', action_info: { scene: { scene_str: scene } } }),
  );
  const ticket = typeof answer.ticket === 'string' ? answer.ticket : '';
  if (!ticket) throw new ChatPlatformError('ticket', 'WeChat gave no QR ticket', 'other');
  const qrUrl = new URL('/cgi-bin/showqrcode', host(settings, 'mp'));
  qrUrl.searchParams.set('ticket', ticket);
  return { ticket, qrUrl: qrUrl.toString(), expireSeconds: Number(answer.expire_seconds) || seconds };
}

/** Who scanned: the unionid when WeChat gives one (the account is bound to an open platform), else the openid. */
export async function followerIdentity(settings: ChatProviderSettings, openid: string): Promise<{ subject: string; name: string }> {
  const info = await withAccountToken(settings, (token) => call(settings, '/cgi-bin/user/info', { access_token: token, openid, lang: 'zh_CN' }));
  const unionid = typeof info.unionid === 'string' ? info.unionid : '';
  return { subject: unionid || openid, name: typeof info.nickname === 'string' ? info.nickname : '' };
}

/** The plain-mode signature: SHA-1 of the Token, timestamp and nonce, sorted and joined. */
export function pushSignature(token: string, timestamp: string, nonce: string): string {
  return createHash('sha1').update([token, timestamp, nonce].sort().join('')).digest('hex');
}

export interface PushKeys {
  token: string;
  /** The EncodingAESKey; absent: safe-mode pushes cannot be opened. */
  aesKey?: string;
}

/** What a push that checked out says: the URL check's echo, a scan of a scene, or something else to acknowledge. */
export type OpenedAccountPush = { kind: 'verify'; echo: string } | { kind: 'scan'; scene: string; openid: string } | { kind: 'other' };

/** Checks a push as WeChat signs it and opens it; null when a signature or the sealed text does not hold. */
export function openAccountPush(appId: string, keys: PushKeys, { method, query, body }: CallbackPush): OpenedAccountPush | null {
  const { signature = '', timestamp = '', nonce = '' } = query;
  if (!signature || !timestamp || !nonce || !sameText(pushSignature(keys.token, timestamp, nonce), signature)) return null;
  if (method === 'GET') return { kind: 'verify', echo: query.echostr ?? '' };
  let message = xmlFields(body);
  if (query.encrypt_type === 'aes') {
    const sealed = textOf(message?.Encrypt);
    const msgSignature = query.msg_signature ?? '';
    if (!keys.aesKey || !sealed || !msgSignature || !sameText(sealSignature(keys.token, timestamp, nonce, sealed), msgSignature)) return null;
    const opened = unseal(keys.aesKey, sealed);
    if (!opened || opened.ownerKey !== appId) return null;
    message = xmlFields(opened.message);
  }
  if (!message) return null;
  const event = textOf(message.Event);
  const openid = textOf(message.FromUserName);
  if (textOf(message.MsgType) !== 'event' || !openid || (event !== 'SCAN' && event !== 'subscribe')) return { kind: 'other' };
  // A follow without a QR code carries no EventKey; a follow by a scene's code carries qrscene_<scene>.
  const key = textOf(message.EventKey);
  const scene = event === 'subscribe' ? (key.startsWith('qrscene_') ? key.slice('qrscene_'.length) : '') : key;
  return scene ? { kind: 'scan', scene, openid } : { kind: 'other' };
}
