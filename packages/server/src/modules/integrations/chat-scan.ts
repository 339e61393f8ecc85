import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { chatLogin, usableSettings, type ChatDeps } from './chat-sign-in.ts';
import { claimSignInFlow, createSignInFlow } from './sign-in-flows.ts';
import { allowedReturnTo } from './sso.service.ts';
import type { ChatProviderName } from './providers/chat-provider.ts';
import { chatProvider } from './providers/registry.ts';
import { startAccountScan } from './wechat-account-scan.ts';

// QR login through a chat platform (issue 25, docs/decisions/0059): the login page asks for the platform's QR page
// with a one-use state; the platform shows the code, and after the scan sends the browser back to this site's page
// of that platform (/entry/login/<platform>) with a code and the state, which the page hands over here once.

/** The page of this site the platform sends the browser back to; registered with the platform as the callback. */
export const chatScanCallbackPath = (provider: ChatProviderName) => `/entry/login/${provider}`;

/**
 * Starts a QR login of an engine: a flow row and the platform's QR page to open. An engine that signs in by its WeChat
 * official account gets this site's QR page instead, with the scene's browser key (decision 0097).
 */
export async function startChatScan(db: Db, http: typeof fetch, provider: ChatProviderName, engineCode: string, redirectUrl: string | undefined, callbackUrl: string): Promise<contracts.SsoStartResult> {
  const settings = await usableSettings(db, http, engineCode, provider);
  if (provider === 'wechat' && settings.wechatMethod === 'officialAccount') return startAccountScan(db, http, engineCode, redirectUrl, new URL(callbackUrl).origin);
  const returnTo = allowedReturnTo(redirectUrl, callbackUrl);
  const state = await createSignInFlow(db, { engineCode, provider, returnTo, minutes: contracts.CHAT_SCAN_MINUTES });
  return { redirectUrl: chatProvider(provider).scanUrl(settings, { state, redirectUri: callbackUrl }) };
}

/** Completes a QR login from the platform's answer: the state once, then the code's person in the flow's engine. */
export async function completeChatScan(deps: ChatDeps, provider: ChatProviderName, query: contracts.ChatScanQuery, callbackUrl: string): Promise<contracts.SsoLoginResult> {
  const code = query.authCode ?? query.code;
  if (!code) throw new AppError('ArgumentIsNull', { detail: { field: 'code' } });
  const flow = await claimSignInFlow(deps.db, query.state ?? '', provider, { invalid: 'ChatScanStateInvalid', expired: 'ChatScanStateExpired' });
  const session = await chatLogin(deps, provider, 'scan', flow.engine_code, code, callbackUrl);
  return { ...session, returnTo: flow.return_to };
}
