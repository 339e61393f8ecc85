import type { ErrorName } from './catalogue.ts';

/**
 * Catalogue codes that no server code raises, each with the reason it stays in the catalogue. The server's
 * catalogue test (server/src/lib/catalogue-raised.test.ts) fails for any other code nothing raises, and for an entry
 * here that is raised after all.
 */
export const DOCUMENTED_UNUSED: Readonly<Partial<Record<ErrorName, string>>> = {
  TypeInvalid: 'calls.md §8 login code; every sign-in route has its own path and a fixed type, so no request names a login type to refuse',
  SystemError: 'calls.md §8 login code; a failing sign-in answers 888 (ServerSystemError) or the platform codes 2007xx–2009xx',
  DingTalkAuthed: 'calls.md §8 login code; a person already bound to a chat platform is signed in by that binding rather than refused',
  UserDisableAuthorized: 'calls.md §8 login code; there is no per-user switch that forbids sign-in by authorisation, a disabled user gets 200502',
  EngineCodeInvalid: 'calls.md §8 login code; a malformed engine code is refused by the contracts (777) and an unknown one answers 200601',
  CaptchaRisk: 'calls.md §8 captcha risk codes 2021xx–2029xx; no risk-scoring captcha service is built, abuse is limited by rate limits (100429, 201102)',
  UpdatePasswordFailed: 'calls.md §8 login code; a password change either succeeds or is refused for a stated reason (201101, 201201, 777)',
  CaptchaVerifyLimited: 'calls.md §8 login code; no captcha is built, repeated verification is limited by 201102 and 100429',
  AgentInfoError: 'calls.md §8 agent errors 2031xx; a chat platform\'s wrong app credentials answer 207001 (AppInfoError) for every provider',
  MethodNotAllowed: 'an unknown method on a known path answers 404 (NotFound) as Fastify routes by method and path together',
  MobileAlreadyRegistered: 'registering with a number that has an account gives that account the new organisation (register.service.ts) instead of refusing',
  PasswordRequired: 'a new account registered without a password answers 777 naming the password field with this text (register.service.ts)',
  DataFolderLocked: 'a second process on the same data folder stops at start-up (DataDirLockedError, lib/data-lock.ts) before any request is served',
  PermissionGroupInvalid: 'invalid permission group settings answer 777 naming each field at fault (permission.service.ts)',
  PrintFileExpired: 'an expired print file is reported in the print task\'s progress (state and message), not as a refused call',
};
