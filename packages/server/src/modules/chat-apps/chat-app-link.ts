import { WORKBENCH_PATH } from '@tritium/shared/constants/entry-routes';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { loadChatSettings } from '../integrations/chat-sign-in.ts';
import { chatScanCallbackPath } from '../integrations/chat-scan.ts';
import { createSignInFlow } from '../integrations/sign-in-flows.ts';
import { chatProvider } from '../integrations/providers/registry.ts';
import type { ChatProviderSettings } from '../integrations/providers/chat-provider.ts';
import { engineDb } from '../../db/database.ts';
import { findEngine } from '../engine/engine.repo.ts';
import type { ChatAppPlatform } from './chat-app-send.ts';

// The card's link (docs/decisions/0123 "Chat apps"): this site's /v1/chat-apps/open/<platform>/<engine>?to=<path>.
// Tapped inside the chat client it starts the platform's in-client sign-in — a one-use state that keeps the path — and
// sends the client to the platform's authorisation page, which inside the client answers at once (no QR code) with a
// code to this site's page of that platform (/entry/login/<platform>); that page completes the sign-in as the QR login
// does and opens the path. Only a path of this site is ever kept: the link cannot send anyone elsewhere.

export const OPEN_PATH = '/v1/chat-apps/open';

/** The card's link for a record's (or any page's) path. */
export function openLink(siteUrl: string, platform: ChatAppPlatform, engineCode: string, path: string | null): string {
  const url = new URL(`${OPEN_PATH}/${platform}/${encodeURIComponent(engineCode)}`, siteUrl);
  url.searchParams.set('to', path ?? WORKBENCH_PATH);
  return url.toString();
}

/**
 * A path of this site only: starting with one '/', no scheme, no host, no backslash (browsers read '/\\evil' as
 * '//evil'), no control characters; the entry pages are refused too, so the link cannot loop through a sign-in page.
 */
export function sitePath(to: string): string {
  if (!to.startsWith('/') || to.startsWith('//') || /[\\\u0000-\u001f]/.test(to)) throw new AppError('ChatAppReturnNotAllowed');
  const base = 'https://site.invalid';
  const url = new URL(to, base);
  if (url.origin !== base || /^\/entry(\/|$)/i.test(url.pathname)) throw new AppError('ChatAppReturnNotAllowed');
  return `${url.pathname}${url.search}${url.hash}`;
}

/** WeCom's OAuth2 page inside its client (open.weixin.qq.com); a test or a private deployment serves it at the base URL. */
function wxworkClientAuthorizeUrl(settings: ChatProviderSettings, state: string, redirectUri: string): string {
  const publicApi = settings.baseUrl.replace(/\/+$/, '') === 'https://qyapi.weixin.qq.com';
  const url = new URL('/connect/oauth2/authorize', publicApi ? 'https://open.weixin.qq.com' : settings.baseUrl);
  for (const [name, value] of Object.entries({ appid: settings.appKey, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_base', state, agentid: settings.agentId })) url.searchParams.set(name, value);
  return `${url.toString()}#wechat_redirect`;
}

/**
 * Where the card's link sends the client: the platform's in-client authorisation with a new one-use state holding the
 * path. The engine's app not (or no longer) usable: the platform's sign-in page of this site, which says so and keeps
 * the path for after any other sign-in.
 */
export async function startInClientSignIn(db: Db, http: typeof fetch, siteUrl: string, platform: ChatAppPlatform, engineCode: string, to: string): Promise<string> {
  const path = sitePath(to);
  const callbackUrl = new URL(chatScanCallbackPath(platform), siteUrl).toString();
  const engine = await findEngine(db, engineCode);
  const stored = engine ? await loadChatSettings(engineDb(db, engineCode), platform) : null;
  if (!stored?.enabled || !stored.appKey || !stored.appSecret) {
    const page = new URL(chatScanCallbackPath(platform), siteUrl);
    page.searchParams.set('engineCode', engineCode);
    page.searchParams.set('redirectUrl', path);
    return page.toString();
  }
  const settings: ChatProviderSettings = { baseUrl: stored.baseUrl, appKey: stored.appKey, appSecret: stored.appSecret, corpId: stored.corpId, agentId: stored.agentId, http };
  const state = await createSignInFlow(db, { engineCode, provider: platform, returnTo: path, minutes: contracts.CHAT_SCAN_MINUTES });
  if (platform === 'wxwork') return wxworkClientAuthorizeUrl(settings, state, callbackUrl);
  // DingTalk's and Feishu's OAuth2 pages answer at once inside their clients (no QR code there).
  return chatProvider(platform).scanUrl(settings, { state, redirectUri: callbackUrl });
}
