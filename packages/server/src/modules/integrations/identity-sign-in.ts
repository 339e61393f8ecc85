import { MOBILE_PATTERN } from '@tritium/shared/validation/patterns';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { findAccountByMobile, insertAccountIfAbsent } from '../account/account.repo.ts';
import { findEngine } from '../engine/engine.repo.ts';
import { assertEngineUsable } from '../engine/engine-state.ts';
import { startSession, type LoginResultData, type SignInDeps } from '../auth/sign-in.service.ts';
import { createUser } from '../org/user-admin.service.ts';

// Sign-in with an identity an outside provider vouched for (issue 25), shared by every provider: the identity is
// bound to one user of the engine (org_user_identities), found the first time by a claim (mobile, e-mail or employee
// number) and, when the engine allows it, created. The session it starts is bound to that engine alone.

export type IdentityMatch = 'mobile' | 'email' | 'employeeNo';

export interface VerifiedIdentity {
  /** The provider's row name ('oidc', 'dingtalk', ...). */
  provider: string;
  /** Stable at the provider (for OIDC: issuer and sub); null when it is not (a SAML transient NameID): never bound. */
  subject: string | null;
  name?: string;
  mobile?: string;
  email?: string;
  employeeNo?: string;
}

/** A mobile number in the form the platform keeps (11 digits), from "+86 138-0000-0000" and the like. */
export function normaliseMobile(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  let digits = String(value).replace(/[^\d]/g, '');
  if (digits.length === 13 && digits.startsWith('86')) digits = digits.slice(2);
  return MOBILE_PATTERN.test(digits) ? digits : undefined;
}

async function findUserId(db: Db, engineCode: string, identity: VerifiedIdentity, matchBy: IdentityMatch): Promise<string | undefined> {
  const edb = engineDb(db, engineCode);
  const bound = identity.subject === null ? undefined : await edb.selectFrom('org_user_identities').select('user_id').where('provider', '=', identity.provider).where('subject', '=', identity.subject).executeTakeFirst();
  if (bound) return bound.user_id;
  const value = matchBy === 'mobile' ? identity.mobile : matchBy === 'email' ? identity.email?.toLowerCase() : identity.employeeNo;
  if (!value) return undefined;
  let query = edb.selectFrom('org_users').select('id');
  if (matchBy === 'mobile') query = query.where('mobile', '=', value);
  else if (matchBy === 'email') query = query.where((e) => e(e.fn('lower', ['email']), '=', value));
  else query = query.where('employee_no', '=', value);
  const found = await query.orderBy('created_time').limit(2).execute();
  // Two users with the same e-mail or employee number: which one is meant cannot be told, so neither is.
  return found.length === 1 ? found[0]!.id : undefined;
}

/**
 * The session of the engine's user this identity belongs to. Unknown identities are refused (208005) unless the
 * engine creates users on first sign-in and the provider gave a mobile number.
 */
export async function signInWithIdentity(deps: SignInDeps, engineCode: string, identity: VerifiedIdentity, options: IdentityOptions): Promise<LoginResultData> {
  return startUserSession(deps, engineCode, await userOfIdentity(deps.db, engineCode, identity, options));
}

export interface IdentityOptions {
  matchBy: IdentityMatch;
  createUsers: boolean;
  unknown?: 'SsoUserNotFound' | 'UserNotExist';
}

/** The id of the engine's user this identity belongs to (bound now if it was found or created by the claim). */
export async function userOfIdentity(db: Db, engineCode: string, identity: VerifiedIdentity, options: IdentityOptions): Promise<string> {
  const engine = await findEngine(db, engineCode);
  if (!engine) throw new AppError('EngineNotExist');
  assertEngineUsable(engine);
  let userId = await findUserId(db, engineCode, identity, options.matchBy);
  if (!userId) {
    if (!options.createUsers || !identity.mobile) throw new AppError(options.unknown ?? 'SsoUserNotFound');
    const name = identity.name?.trim().slice(0, 32) || identity.mobile;
    const created = await createUser(
      { db, engineCode, companyId: engine.company_id, userId: 'system' },
      { name, mobile: identity.mobile, departmentIds: [engine.company_id], ...(identity.email ? { email: identity.email } : {}) },
    );
    userId = created.id;
    if (identity.employeeNo) await engineDb(db, engineCode).updateTable('org_users').set({ employee_no: identity.employeeNo }).where('id', '=', userId).execute();
  }
  if (identity.subject === null) return userId;
  const edb = engineDb(db, engineCode);
  // Any unique rule may stop the binding: (provider, subject), or one WeChat per user (org_user_identities_one_wechat).
  const bound = await edb.insertInto('org_user_identities').values({ provider: identity.provider, subject: identity.subject, user_id: userId }).onConflict((oc) => oc.doNothing()).returning('user_id').executeTakeFirst();
  // A WeChat's binding is the user's proof for later scans: one that lost a race to another WeChat of the user is refused
  // (206001, decision 0078) rather than signed in unbound.
  if (!bound && identity.provider === 'wechat') {
    const holder = await edb.selectFrom('org_user_identities').select('user_id').where('provider', '=', 'wechat').where('subject', '=', identity.subject).executeTakeFirst();
    if (holder?.user_id !== userId) throw new AppError('OfficialAccountBindError');
  }
  return userId;
}

/**
 * The session of one user of the engine, bound to that engine, for a person an outside party vouched for (a provider's
 * identity, an external login code). A disabled user is refused; a removed one is unknown (UserNotExist).
 */
export async function startUserSession(deps: SignInDeps, engineCode: string, userId: string): Promise<LoginResultData> {
  const { db } = deps;
  const user = await engineDb(db, engineCode).selectFrom('org_users').select(['id', 'mobile', 'name', 'account_id', 'state']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('UserNotExist');
  if (user.state === 'disabled') throw new AppError('UserDisabled');
  // A user the administrator added but who never signed in has no account yet: the identity proves the person, so
  // the account is made now (no password) and claims the invitation in startSession.
  const account = user.account_id
    ? await db.selectFrom('platform.accounts').selectAll().where('id', '=', user.account_id).executeTakeFirstOrThrow()
    : ((await findAccountByMobile(db, user.mobile)) ?? (await insertAccountIfAbsent(db, { id: newId(), mobile: user.mobile, name: user.name, passwordHash: null })));
  return startSession(deps, account, engineCode, { bindEngine: true });
}
