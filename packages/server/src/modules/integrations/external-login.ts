import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { LoginResultData, SignInDeps } from '../auth/sign-in.service.ts';
import { claimSignInFlow, createSignInFlow } from './sign-in-flows.ts';
import { startUserSession } from './identity-sign-in.ts';

// External login codes (POST /v1/external/login; docs/decisions/0073). A system the organisation trusts — a portal
// its people already signed in to — asks the open API for a code for one of the engine's users (CreateExternalLoginCode,
// with the engine's secret, as an administrator) and sends the person to /entry/login/ext with it. The code is
// random, lives a few minutes, works once and only for its engine; the session it starts is bound to that engine.

const PROVIDER = 'external';
export const EXTERNAL_CODE_DEFAULT_SECONDS = 300;
export const EXTERNAL_CODE_MAX_SECONDS = 600;
const ERRORS = { invalid: 'SecurityTokenExpired', expired: 'SecurityTokenExpired' } as const;

/** A one-use login code for an active user of the engine; answers the code and the web page that takes it. */
export async function createExternalLoginCode(db: Db, engineCode: string, userId: string, seconds = EXTERNAL_CODE_DEFAULT_SECONDS) {
  const user = await engineDb(db, engineCode).selectFrom('org_users').select(['id', 'state']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('UserNotExist');
  if (user.state === 'disabled') throw new AppError('UserDisabled');
  const code = await createSignInFlow(db, { engineCode, provider: PROVIDER, minutes: seconds / 60, returnTo: null, payload: { userId } });
  const query = new URLSearchParams({ engineCode, externalCode: code });
  return { code, expiresIn: seconds, loginPath: `/entry/login/ext?${query}` };
}

/** POST /v1/external/login: the code's user signs in; unknown, used, expired or another engine's codes are refused alike. */
export async function externalLogin(deps: SignInDeps, body: { code: string; engineCode: string }): Promise<LoginResultData> {
  const flow = await claimSignInFlow(deps.db, body.code, PROVIDER, ERRORS);
  if (flow.engine_code !== body.engineCode) throw new AppError(ERRORS.invalid);
  const { userId } = flow.payload as unknown as { userId: string };
  return startUserSession(deps, flow.engine_code, userId);
}
