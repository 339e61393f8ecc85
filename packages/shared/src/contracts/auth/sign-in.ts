import { z } from 'zod';
import { AnyPassword, EngineCode, Mobile, Password, VerifyCode } from './fields.ts';

/** Scenes a verification code is sent for. */
export const VERIFY_CODE_SCENES = ['login', 'register', 'reset', 'bind'] as const;

/** POST /v1/captcha/verifycode/send */
export const SendVerifyCodeBody = z.strictObject({ mobile: Mobile, scene: z.enum(VERIFY_CODE_SCENES) });
export const SendVerifyCodeResult = z.object({
  /** Seconds the code stays valid. */
  expiresIn: z.number(),
  /** Seconds before another code may be requested. */
  resendAfter: z.number(),
});

/** The answer of every call that signs a person in. */
export const LoginResult = z.object({
  accessToken: z.string(),
  /** Seconds until the token expires (48 hours, domain.md §9). */
  expiresIn: z.number(),
  /** The engine the session starts in; null for an account that belongs to none. */
  engineCode: z.string().nullable(),
  authType: z.number().int().nullable(),
});
export type LoginResult = z.infer<typeof LoginResult>;

/** POST /v1/login/mobile/password (and /v1/login/tokens/password) */
export const PasswordLoginBody = z.strictObject({ mobile: Mobile, password: AnyPassword, engineCode: EngineCode.optional() });

/** GET /v1/login/mobile/verifycode */
export const VerifyCodeLoginQuery = z.strictObject({ mobile: Mobile, code: VerifyCode, engineCode: EngineCode.optional() });

/** PUT /v1/login/password/reset */
export const ResetPasswordBody = z.strictObject({ mobile: Mobile, code: VerifyCode, password: Password });

/** POST /v1/login/h3/guest: an Anonymous session in an engine, with no data access. */
export const GuestLoginBody = z.strictObject({ engineCode: EngineCode });

/** GET /v1/token/refresh */
export const TokenRefreshResult = z.object({ accessToken: z.string(), expiresIn: z.number() });

/** POST /v1/external/login, SSO and chat-platform logins answer IntegrationNotConfigured until configured. */
export const ExternalLoginBody = z.strictObject({ code: z.string().min(1), engineCode: EngineCode });
