import type { Db } from '../../db/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import {
  clearPasswordFailuresUnlessLocked,
  findAccountById,
  findAccountByMobile,
  insertAccountIfAbsent,
  recordPasswordFailure,
  updateAccount,
  type AccountRow,
} from '../account/account.repo.ts';
import { newId } from '../../lib/ids.ts';
import { findEngine, findEngineMember, listMemberships } from '../engine/engine.repo.ts';
import { assertEngineUsable, engineStateError } from '../engine/engine-state.ts';
import { claimInvitations, invitedName } from '../org/invitation.service.ts';
import type { TokenClaims, TokenService } from './token.service.ts';
import type { VerifyCodeService } from './verify-code.service.ts';

/** Repeated wrong passwords lock the account for a while (calls.md §8: 201202). */
export const PASSWORD_LOCK = { maxFailures: 5, lockMinutes: 15 } as const;

export interface LoginResultData {
  accessToken: string;
  expiresIn: number;
  engineCode: string | null;
  authType: number | null;
}

export interface SignInDeps {
  db: Db;
  tokens: TokenService;
  codes: VerifyCodeService;
}

/**
 * Chooses the engine a session starts in and issues its token. `bindEngine`: the token opens only that engine (a
 * sign-in one engine's outside identity provider vouched for says nothing about the person's other engines).
 */
export async function startSession(deps: SignInDeps, account: AccountRow, preferred?: string, options: { bindEngine?: boolean } = {}): Promise<LoginResultData> {
  const { db, tokens } = deps;
  if (account.state === 'disabled') throw new AppError('UserDisabled');
  await claimInvitations(db, account);
  const { engineCode, authType } = await chooseEngine(db, account, preferred);
  if (engineCode && engineCode !== account.last_engine_code) await updateAccount(db, account.id, { last_engine_code: engineCode });
  const issued = await tokens.issue(account.id, 'user', options.bindEngine && engineCode ? engineCode : undefined);
  return { accessToken: issued.accessToken, expiresIn: issued.expiresIn, engineCode, authType };
}

/**
 * The engine a session works in: the one asked for, else the one used last, then primary engines, then external
 * ones. Throws the refusal when the account has engines and none is usable (engine state, user disabled or removed).
 */
async function chooseEngine(db: Db, account: AccountRow, preferred?: string): Promise<{ engineCode: string | null; authType: number | null }> {
  const memberships = await listMemberships(db, account.id);
  if (preferred) {
    if (!memberships.some((m) => m.engine_code === preferred)) {
      throw new AppError((await findEngine(db, preferred)) ? 'EngineNotJoined' : 'EngineNotExist');
    }
    const member = await findEngineMember(db, account.id, preferred);
    if (!member) throw new AppError('EngineNotJoined');
    assertEngineUsable(member.engine);
    if (member.userState === 'disabled') throw new AppError('UserDisabled');
    return { engineCode: preferred, authType: member.authType };
  }
  const ordered = [...memberships].sort((a, b) => Number(b.engine_code === account.last_engine_code) - Number(a.engine_code === account.last_engine_code));
  let firstRefusal: AppError | undefined;
  for (const m of ordered) {
    const member = await findEngineMember(db, account.id, m.engine_code);
    if (!member) continue;
    const refusal = engineStateError(member.engine.state) ?? (member.userState === 'disabled' ? new AppError('UserDisabled') : undefined);
    if (refusal) {
      firstRefusal ??= refusal;
      continue;
    }
    return { engineCode: m.engine_code, authType: member.authType };
  }
  if (firstRefusal) throw firstRefusal;
  return { engineCode: null, authType: null };
}

/**
 * Sign-in and reset codes go only to registered numbers, and sign-in codes also to numbers an administrator invited
 * (their first sign-in creates the account); register and bind codes go to any number.
 */
export async function sendVerifyCode(deps: SignInDeps, mobile: string, scene: 'login' | 'register' | 'reset' | 'bind', clientAddress?: string) {
  if (scene === 'login' || scene === 'reset') {
    const known = (await findAccountByMobile(deps.db, mobile)) ?? (scene === 'login' ? await invitedName(deps.db, mobile) : undefined);
    if (!known) throw new AppError('MobileNotExist');
  }
  return deps.codes.send(mobile, scene, clientAddress);
}

export async function passwordLogin(deps: SignInDeps, input: { mobile: string; password: string; engineCode?: string }) {
  const account = await findAccountByMobile(deps.db, input.mobile);
  if (!account) throw new AppError('UserNotExist');
  const lockedError = (lockedUntil: Date | null) =>
    new AppError('PasswordErrorTooMany', lockedUntil ? { detail: { lockedUntil: new Date(lockedUntil).toISOString() } } : {});
  // Saves the hashing while locked; the decision itself is taken after it, from the counting statements below.
  if (account.locked_until && account.locked_until.getTime() > Date.now()) throw lockedError(account.locked_until);
  // scrypt runs on the thread pool, so parallel attempts all reach this point with the row read above: each one
  // counts itself in one statement and is answered from what that statement returns (docs/decisions/0027).
  if (!(await verifyPassword(input.password, account.password_hash))) {
    const after = await recordPasswordFailure(deps.db, account.id, PASSWORD_LOCK);
    if (!after) throw new AppError('UserNotExist');
    if (after.isLocked) throw lockedError(after.lockedUntil);
    throw new AppError('PasswordInvalid', { detail: { remainingAttempts: PASSWORD_LOCK.maxFailures - after.failures } });
  }
  // A right password while a parallel attempt locked the account is refused like any other during the lock.
  if (!(await clearPasswordFailuresUnlessLocked(deps.db, account.id))) {
    const now = await findAccountById(deps.db, account.id);
    throw lockedError(now?.locked_until ?? null);
  }
  return startSession(deps, account, input.engineCode);
}

export async function verifyCodeLogin(deps: SignInDeps, input: { mobile: string; code: string; engineCode?: string }) {
  let account = await findAccountByMobile(deps.db, input.mobile);
  if (!account) {
    // An invited number joins by proving it with a code: its account is made now, with the invited name and no
    // password (one can be set through password reset); startSession then claims the invitations.
    const name = await invitedName(deps.db, input.mobile);
    if (!name) throw new AppError('MobileNotExist');
    await deps.codes.consume(input.mobile, 'login', input.code);
    account = await insertAccountIfAbsent(deps.db, { id: newId(), mobile: input.mobile, name, passwordHash: null });
    return startSession(deps, account, input.engineCode);
  }
  await deps.codes.consume(input.mobile, 'login', input.code);
  // Proving the number by code lifts a password lock-out.
  if (account.locked_until) await updateAccount(deps.db, account.id, { failed_password_count: 0, locked_until: null });
  return startSession(deps, account, input.engineCode);
}

/** Sets a new password and revokes every token issued before (architecture.md §6). */
export async function resetPassword(deps: SignInDeps, input: { mobile: string; code: string; password: string }) {
  const account = await findAccountByMobile(deps.db, input.mobile);
  if (!account) throw new AppError('MobileNotExist');
  await deps.codes.consume(input.mobile, 'reset', input.code);
  await updateAccount(deps.db, account.id, {
    password_hash: await hashPassword(input.password),
    failed_password_count: 0,
    locked_until: null,
    tokens_valid_after: new Date(),
  });
}

/** An Anonymous session (auth type 4) in one engine, with no data access. */
export async function guestLogin(deps: SignInDeps, engineCode: string): Promise<LoginResultData> {
  const engine = await findEngine(deps.db, engineCode);
  if (!engine) throw new AppError('EngineNotExist');
  assertEngineUsable(engine);
  const issued = await deps.tokens.issue('guest', 'guest', engineCode);
  return { accessToken: issued.accessToken, expiresIn: issued.expiresIn, engineCode, authType: 4 };
}

/**
 * A fresh token for a valid one; the old one is revoked. The person is checked again first, as a sign-in would: a
 * disabled account, or a user disabled in or removed from the engine the client works in, gets no new token
 * (403 with the refusal's code), rather than one that is refused only when it is used.
 */
export async function refreshToken(deps: SignInDeps, claims: TokenClaims, engineCode?: string) {
  try {
    if (claims.kind === 'guest') {
      const engine = await findEngine(deps.db, claims.eng ?? '');
      if (!engine) throw new AppError('EngineNotExist');
      assertEngineUsable(engine);
    } else {
      const account = await findAccountById(deps.db, claims.sub);
      if (!account) throw new AppError('NotAuth');
      if (account.state === 'disabled') throw new AppError('UserDisabled');
      // A token bound to one engine is renewed for that engine only.
      if (claims.eng && engineCode && engineCode !== claims.eng) throw new AppError('EngineAccessDenied');
      await chooseEngine(deps.db, account, claims.eng ?? engineCode);
    }
  } catch (error) {
    if (error instanceof AppError && error.status === 200) throw new AppError(error.errorName, { status: 403, detail: error.detail });
    throw error;
  }
  const issued = await deps.tokens.issue(claims.sub, claims.kind, claims.eng);
  await deps.tokens.revoke(claims);
  return { accessToken: issued.accessToken, expiresIn: issued.expiresIn };
}
