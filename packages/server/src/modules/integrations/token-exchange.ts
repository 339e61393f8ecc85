import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Actor } from '../../plugins/auth.ts';
import { findAccountById } from '../account/account.repo.ts';
import { startSession, type LoginResultData, type SignInDeps } from '../auth/sign-in.service.ts';
import { claimSignInFlow, createSignInFlow } from './sign-in-flows.ts';

// Token exchange (GET /v1/token/exchange; docs/decisions/0079): a signed-in person hands their session to another
// client — from the DingTalk, WeCom or Feishu client to the computer's browser — without signing in again. The
// session trades itself for a one-use code that lives a minute; the other client trades the code for a session of
// its own: the same account, the same engine, bound to that engine when the first one was. Never wider.

const PROVIDER = 'token-exchange';
const ERRORS = { invalid: 'SecurityTokenExpired', expired: 'SecurityTokenExpired' } as const;

interface Handoff {
  accountId: string;
  /** The first session was bound to its engine (an outside sign-in): so is the new one. */
  bound: boolean;
}

/**
 * The session's one-use code and the page of this site that takes it. The engine is the one the caller works in (the
 * EngineCode header; a bound session's own); the exchange checks the membership again when the code is used.
 */
export async function createExchangeCode(deps: SignInDeps, actor: Actor | undefined, engineCode: string | undefined, redirectUrl?: string): Promise<contracts.TokenExchangeCode> {
  if (!actor || actor.isGuest || !actor.accountId) throw new AppError('NotAuth', { status: 401 });
  const bound = actor.claims.eng;
  if (bound && engineCode && engineCode !== bound) throw new AppError('EngineAccessDenied');
  const payload: Handoff = { accountId: actor.accountId, bound: !!bound };
  const code = await createSignInFlow(deps.db, { engineCode: bound ?? engineCode ?? '', provider: PROVIDER, minutes: contracts.TOKEN_EXCHANGE_SECONDS / 60, returnTo: null, payload: { ...payload } });
  const query = new URLSearchParams({ code, ...(redirectUrl ? { redirectUrl } : {}) });
  return { code, expiresIn: contracts.TOKEN_EXCHANGE_SECONDS, openPath: `/entry/login/exchange?${query}` };
}

/** The code's session, once: unknown, used or expired codes are refused alike (201001). */
export async function redeemExchangeCode(deps: SignInDeps, code: string): Promise<LoginResultData> {
  const flow = await claimSignInFlow(deps.db, code, PROVIDER, ERRORS);
  const handoff = flow.payload as unknown as Handoff;
  const account = await findAccountById(deps.db, handoff.accountId);
  if (!account) throw new AppError(ERRORS.invalid);
  return startSession(deps, account, flow.engine_code || undefined, { bindEngine: handoff.bound });
}
