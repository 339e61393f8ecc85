import { contracts } from '@tritium/shared';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { LoginResultData, SignInDeps } from '../auth/sign-in.service.ts';
import { signInWithIdentity, type VerifiedIdentity } from './identity-sign-in.ts';
import { claimSignInFlow, createSignInFlow, peekSignInFlow } from './sign-in-flows.ts';

// Mobile binding (issue 25, docs/decisions/0061): a chat-platform person the engine cannot match — no binding yet and
// no mobile number at the platform — gets a one-use ticket (a sign-in flow carrying the person) and 200504; with it
// they prove a mobile number by text message, and the engine's user of that number is bound to them and signed in.

const BIND = 'mobile-bind';
const TICKET_ERRORS = { invalid: 'SecurityTokenExpired', expired: 'SecurityTokenExpired' } as const;

/** The 200504 answer that starts a binding. */
export async function mobileBindingRequired(deps: SignInDeps, engineCode: string, identity: VerifiedIdentity): Promise<AppError> {
  const securityToken = await createSignInFlow(deps.db, { engineCode, provider: BIND, returnTo: null, minutes: contracts.BIND_TICKET_MINUTES, payload: { ...identity } });
  return new AppError('MobileNotExist', { detail: { securityToken, provider: identity.provider, name: identity.name ?? '' } });
}

async function ticket(deps: SignInDeps, securityToken: string) {
  return peekSignInFlow(deps.db, securityToken, BIND, TICKET_ERRORS);
}

/** POST /v1/account/sendmobileverifycode: a code to the number, for a valid ticket only. */
export async function sendBindCode(deps: SignInDeps, body: { securityToken: string; mobile: string }, clientAddress?: string) {
  await ticket(deps, body.securityToken);
  return deps.codes.send(body.mobile, 'bind', clientAddress);
}

/** POST /Account/ValidateMobile: whether the ticket's engine has a user with this number (said before a code is sent). */
export async function validateBindMobile(deps: SignInDeps, body: { securityToken: string; mobile: string }): Promise<{ exists: boolean }> {
  const flow = await ticket(deps, body.securityToken);
  const user = await engineDb(deps.db, flow.engine_code).selectFrom('org_users').select('id').where('mobile', '=', body.mobile).executeTakeFirst();
  return { exists: !!user };
}

/** POST /v1/account/bindmobile: the code proves the number; the ticket is used once; the person is bound and signed in. */
export async function bindMobile(deps: SignInDeps, body: { securityToken: string; mobile: string; code: string }): Promise<LoginResultData> {
  const pending = await ticket(deps, body.securityToken);
  await deps.codes.consume(body.mobile, 'bind', body.code);
  await assertOneWechat(deps, pending.engine_code, pending.payload as unknown as VerifiedIdentity, body.mobile);
  const flow = await claimSignInFlow(deps.db, body.securityToken, BIND, TICKET_ERRORS);
  const person = flow.payload as unknown as VerifiedIdentity;
  return signInWithIdentity(deps, flow.engine_code, { ...person, mobile: body.mobile }, { matchBy: 'mobile', createUsers: false, unknown: 'UserNotExist' });
}

/**
 * One WeChat per user (decision 0078): a user of the number who is bound to another WeChat already is refused
 * (206001), so that a second person's WeChat cannot take over the account by knowing its number and code.
 */
async function assertOneWechat(deps: SignInDeps, engineCode: string, person: VerifiedIdentity, mobile: string): Promise<void> {
  if (person.provider !== 'wechat') return;
  const other = await engineDb(deps.db, engineCode)
    .selectFrom('org_users as u')
    .innerJoin('org_user_identities as i', 'i.user_id', 'u.id')
    .select('i.subject')
    .where('u.mobile', '=', mobile)
    .where('i.provider', '=', 'wechat')
    .where('i.subject', '<>', person.subject)
    .executeTakeFirst();
  if (other) throw new AppError('OfficialAccountBindError');
}
