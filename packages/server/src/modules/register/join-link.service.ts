import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { newId } from '../../lib/ids.ts';
import { findAccountById, findAccountByMobile, insertAccountIfAbsent, type AccountRow } from '../account/account.repo.ts';
import { startSession, type SignInDeps } from '../auth/sign-in.service.ts';
import { assertInvitationLinkUsable, joinByInvitationLink } from '../org/invitation-link.service.ts';

type JoinInput = z.output<typeof contracts.JoinByLinkBody>;

/**
 * The account that joins: the mobile number proven by a 'register' code (a number new to the platform gets its
 * account, with the name given), or else the signed-in account.
 */
async function joiningAccount(deps: SignInDeps, signedInAccountId: string | null, input: JoinInput): Promise<AccountRow> {
  if (!input.mobile && !input.code && signedInAccountId) {
    const account = await findAccountById(deps.db, signedInAccountId);
    if (!account) throw new AppError('NotAuth');
    return account;
  }
  const missing = (['mobile', 'code'] as const).filter((k) => !input[k]).map((path) => ({ path, message: path === 'mobile' ? '请输入手机号' : '请输入验证码' }));
  if (missing.length) throw parameterError(missing);
  const existing = await findAccountByMobile(deps.db, input.mobile!);
  if (!existing && !input.userName) throw parameterError([{ path: 'userName', message: '请输入姓名' }]);
  await deps.codes.consume(input.mobile!, 'register', input.code!);
  if (existing) return existing;
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return insertAccountIfAbsent(deps.db, { id: newId(), mobile: input.mobile!, name: input.userName!, passwordHash });
}

/**
 * /entry/join/<token>: the person joins the link's engine and their session starts there. The link is checked
 * first, so an unusable link spends no code and makes no account.
 */
export async function joinByLink(deps: SignInDeps, signedInAccountId: string | null, input: JoinInput): Promise<z.infer<typeof contracts.JoinByLinkResult>> {
  await assertInvitationLinkUsable(deps.db, input.token);
  const account = await joiningAccount(deps, signedInAccountId, input);
  if (account.state === 'disabled') throw new AppError('UserDisabled');
  const { engineCode, alreadyMember } = await joinByInvitationLink(deps.db, input.token, account);
  return { ...(await startSession(deps, account, engineCode)), alreadyMember };
}
