import { sql, type Transaction } from 'kysely';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor, UserRow } from './org.repo.ts';
import { lockOrganisation } from './org.service.ts';

/**
 * Gives a user record to a person: the account that has the user's mobile number joins at once (it becomes that
 * user and a member of the engine); any other number is remembered as an invitation that the number's next
 * sign-in or registration claims. Runs inside the caller's transaction. Answers whether the user joined.
 */
export async function joinOrInvite(trx: Transaction<PlatformDb>, edb: EngineExecutor, engineCode: string, user: Pick<UserRow, 'id' | 'mobile' | 'is_external'>): Promise<boolean> {
  return (await joinOrInviteMany(trx, edb, engineCode, [user])).size === 1;
}

/**
 * joinOrInvite for several users at once, in a fixed number of statements (an association's people, docs/decisions/0091).
 * A number whose account is already a member of the engine is refused (220007) before anything is written. Answers
 * the ids of the users who joined.
 */
export async function joinOrInviteMany(trx: Transaction<PlatformDb>, edb: EngineExecutor, engineCode: string, users: Pick<UserRow, 'id' | 'mobile' | 'is_external'>[]): Promise<Set<string>> {
  if (!users.length) return new Set();
  const accounts = await trx.selectFrom('platform.accounts').select(['id', 'mobile']).where('mobile', 'in', users.map((u) => u.mobile)).execute();
  const accountOf = new Map(accounts.map((a) => [a.mobile, a.id]));
  if (accounts.length) {
    const member = await trx.selectFrom('platform.memberships').select('account_id').where('engine_code', '=', engineCode).where('account_id', 'in', accounts.map((a) => a.id)).executeTakeFirst();
    if (member) throw new AppError('MobileAlreadyInEngine');
  }
  await trx.deleteFrom('platform.invitations').where('engine_code', '=', engineCode).where('user_id', 'in', users.map((u) => u.id)).execute();
  const joining = users.filter((u) => accountOf.has(u.mobile));
  const invited = users.filter((u) => !accountOf.has(u.mobile));
  if (invited.length) await trx.insertInto('platform.invitations').values(invited.map((u) => ({ engine_code: engineCode, mobile: u.mobile, user_id: u.id }))).execute();
  if (joining.length) {
    // Each user becomes the account of its own number (one statement for all).
    await edb
      .updateTable('org_users')
      .set({ account_id: sql<string>`(select a.id from platform.accounts a where a.mobile = org_users.mobile)` })
      .where('id', 'in', joining.map((u) => u.id))
      .execute();
    await trx
      .insertInto('platform.memberships')
      .values(joining.map((u) => ({ account_id: accountOf.get(u.mobile)!, engine_code: engineCode, user_id: u.id, is_external: u.is_external })))
      .execute();
  }
  return new Set(joining.map((u) => u.id));
}

/**
 * Called by every sign-in and registration (startSession): the account claims the invitations of its mobile
 * number and becomes the invited user, with the name and departments the administrator gave.
 */
export async function claimInvitations(db: Db, account: { id: string; mobile: string }): Promise<void> {
  const invitations = await db.selectFrom('platform.invitations').select(['engine_code', 'user_id']).where('mobile', '=', account.mobile).execute();
  for (const invitation of invitations) {
    await db.transaction().execute(async (trx) => {
      await lockOrganisation(trx, invitation.engine_code);
      const edb = engineDb(trx as unknown as Db, invitation.engine_code);
      const user = await edb.selectFrom('org_users').select(['id', 'account_id', 'mobile', 'is_external']).where('id', '=', invitation.user_id).executeTakeFirst();
      const membership = await trx
        .selectFrom('platform.memberships')
        .select('user_id')
        .where('account_id', '=', account.id)
        .where('engine_code', '=', invitation.engine_code)
        .executeTakeFirst();
      if (user && user.account_id === null && user.mobile === account.mobile && !membership) {
        await edb.updateTable('org_users').set({ account_id: account.id }).where('id', '=', user.id).execute();
        await trx
          .insertInto('platform.memberships')
          .values({ account_id: account.id, engine_code: invitation.engine_code, user_id: user.id, is_external: user.is_external })
          .execute();
      }
      await trx.deleteFrom('platform.invitations').where('engine_code', '=', invitation.engine_code).where('mobile', '=', account.mobile).execute();
    });
  }
}

/** The name an administrator gave a number that has no account yet; undefined when nobody invited it. */
export async function invitedName(db: Db, mobile: string): Promise<string | undefined> {
  const invitation = await db
    .selectFrom('platform.invitations')
    .select(['engine_code', 'user_id'])
    .where('mobile', '=', mobile)
    .orderBy('created_time')
    .limit(1)
    .executeTakeFirst();
  if (!invitation) return undefined;
  const user = await engineDb(db, invitation.engine_code).selectFrom('org_users').select('name').where('id', '=', invitation.user_id).executeTakeFirst();
  return user?.name;
}
