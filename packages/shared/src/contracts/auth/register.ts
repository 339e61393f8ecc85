import { z } from 'zod';
import { EngineName, Mobile, Password, PersonName, VerifyCode } from './fields.ts';

/** GET /v1/register/validate */
export const RegisterValidateQuery = z.strictObject({ mobile: Mobile });
export const RegisterValidateResult = z.object({
  /** True when an account with this mobile number exists: registering adds an engine to it. */
  registered: z.boolean(),
});

/** GET /v1/register/getscalelist */
export const ScaleItem = z.object({ code: z.string(), name: z.string() });
export const ScaleListResult = z.object({ list: z.array(ScaleItem) });

/**
 * POST /v1/register/engine. Signed in: creates another engine for the current account (mobile and code not
 * needed). Signed out: the mobile number is proven by a 'register' code; a new account also sets a password.
 */
export const RegisterEngineBody = z.strictObject({
  mobile: Mobile.optional(),
  code: VerifyCode.optional(),
  password: Password.optional(),
  userName: PersonName.optional(),
  engineName: EngineName,
  scale: z.string().max(32).optional(),
});
