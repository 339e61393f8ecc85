import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient, type RequestOptions } from '../../../lib/api-client.ts';

export type LoginResult = z.infer<typeof contracts.LoginResult>;
export type SendVerifyCodeBody = z.infer<typeof contracts.SendVerifyCodeBody>;
export type SendVerifyCodeResult = z.infer<typeof contracts.SendVerifyCodeResult>;
export type VerifyCodeScene = SendVerifyCodeBody['scene'];
export type PasswordLoginBody = z.infer<typeof contracts.PasswordLoginBody>;
export type VerifyCodeLoginQuery = z.infer<typeof contracts.VerifyCodeLoginQuery>;
export type ResetPasswordBody = z.infer<typeof contracts.ResetPasswordBody>;
export type GuestLoginBody = z.infer<typeof contracts.GuestLoginBody>;
export type ExternalLoginBody = z.infer<typeof contracts.ExternalLoginBody>;
export type RegisterValidateResult = z.infer<typeof contracts.RegisterValidateResult>;
export type ScaleListResult = z.infer<typeof contracts.ScaleListResult>;
export type RegisterEngineBody = z.infer<typeof contracts.RegisterEngineBody>;

/** GET /v1/login/sso with an engine code: where the identity provider wants the browser. */
export type SsoStartResult = z.infer<typeof contracts.SsoStartResult>;
/** GET /v1/login/sso with the provider's code and state: the session, and where the person was heading. */
export type SsoLoginResult = z.infer<typeof contracts.SsoLoginResult>;

/** The chat platforms one can scan with. */
export type ChatPlatform = contracts.ChatProviderName;
export const CHAT_PLATFORMS: ChatPlatform[] = ['dingtalk', 'wxwork', 'feishu', 'wechat'];

// Entry forms show business errors next to the fields themselves (ui.md "Behaviour").
const formCall: RequestOptions = { disableBizError: true };

export const authApi = {
  sendVerifyCode: (body: SendVerifyCodeBody) =>
    apiClient.post<SendVerifyCodeResult>('/v1/captcha/verifycode/send', body, formCall),
  passwordLogin: (body: PasswordLoginBody) => apiClient.post<LoginResult>('/v1/login/mobile/password', body, formCall),
  verifyCodeLogin: (query: VerifyCodeLoginQuery) =>
    apiClient.get<LoginResult>('/v1/login/mobile/verifycode', { ...formCall, query }),
  resetPassword: (body: ResetPasswordBody) => apiClient.put<Record<string, never>>('/v1/login/password/reset', body, formCall),
  guestLogin: (body: GuestLoginBody) => apiClient.post<LoginResult>('/v1/login/h3/guest', body, formCall),
  ssoLogin: (engineCode: string, redirectUrl?: string) =>
    apiClient.get<SsoStartResult>('/v1/login/sso', { ...formCall, query: { engineCode, ...(redirectUrl ? { redirectUrl } : {}) } }),
  ssoComplete: (query: Record<string, string>) => apiClient.get<SsoLoginResult>('/v1/login/sso', { ...formCall, query }),
  /** GET /v1/login/{platform}/scan with an engine code: the platform's QR page to open. */
  chatScanStart: (provider: ChatPlatform, engineCode: string, redirectUrl?: string) =>
    apiClient.get<SsoStartResult>(`/v1/login/${provider}/scan`, { ...formCall, query: { engineCode, ...(redirectUrl ? { redirectUrl } : {}) } }),
  /** The same with the platform's code and state: the session, and where the person was heading. */
  chatScanComplete: (provider: ChatPlatform, query: Record<string, string>) => apiClient.get<SsoLoginResult>(`/v1/login/${provider}/scan`, { ...formCall, query }),
  /**
   * The official account's scan (decision 0097): the scene's state for the browser that started it, waiting up to
   * `wait` seconds for the scan.
   */
  wechatScene: (scene: string, key: string, wait: number) =>
    apiClient.get<contracts.WechatSceneState>('/v1/login/wechat/scene', { ...formCall, query: { scene, key, wait }, timeoutMs: (wait + 15) * 1000 }),
  /** Mobile binding of a chat-platform person the platform gave no number (200504 and its securityToken). */
  bindMobileCode: (securityToken: string, mobile: string) => apiClient.post<SendVerifyCodeResult>('/v1/account/sendmobileverifycode', { securityToken, mobile }, formCall),
  bindMobile: (body: { securityToken: string; mobile: string; code: string }) => apiClient.post<LoginResult>('/v1/account/bindmobile', body, formCall),
  externalLogin: (body: ExternalLoginBody) => apiClient.post<LoginResult>('/v1/external/login', body, formCall),
  /** GET /v1/token/exchange with a code: the session another client handed over (decision 0079). */
  tokenExchange: (code: string) => apiClient.get<LoginResult>('/v1/token/exchange', { ...formCall, query: { code } }),
  validateMobile: (mobile: string) =>
    apiClient.get<RegisterValidateResult>('/v1/register/validate', { ...formCall, query: { mobile } }),
  getScaleList: () => apiClient.get<ScaleListResult>('/v1/register/getscalelist'),
  registerEngine: (body: RegisterEngineBody) => apiClient.post<LoginResult>('/v1/register/engine', body, formCall),
  // Signing out must finish even when the server is unreachable; the page clears the cookies regardless.
  logout: () => apiClient.get<Record<string, never>>('/Login/Logout', { disableBizError: true, disableSysError: true }),
};

/** Codes meaning "this sign-in method is not set up" (calls.md §8; SSO has its own 2080xx range). */
export const NOT_CONFIGURED_CODES: ReadonlySet<number | string> = new Set([200901, 208001]);
