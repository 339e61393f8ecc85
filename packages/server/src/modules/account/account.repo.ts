import { sql, type Kysely, type Transaction } from 'kysely';
import type { AccountTable, PlatformDb } from '../../db/types.ts';

type Executor = Kysely<PlatformDb> | Transaction<PlatformDb>;

export type AccountRow = Omit<AccountTable, 'failed_password_count' | 'tokens_valid_after' | 'created_time'> & {
  failed_password_count: number;
  tokens_valid_after: Date;
  created_time: Date;
};

export async function findAccountByMobile(db: Executor, mobile: string): Promise<AccountRow | undefined> {
  return (await db.selectFrom('platform.accounts').selectAll().where('mobile', '=', mobile).executeTakeFirst()) as AccountRow | undefined;
}

export async function findAccountById(db: Executor, id: string): Promise<AccountRow | undefined> {
  return (await db.selectFrom('platform.accounts').selectAll().where('id', '=', id).executeTakeFirst()) as AccountRow | undefined;
}

export async function updateAccount(
  db: Executor,
  id: string,
  values: Partial<Pick<AccountTable, 'password_hash' | 'locked_until' | 'last_engine_code' | 'state'>> & { failed_password_count?: number; tokens_valid_after?: Date },
) {
  await db.updateTable('platform.accounts').set(values).where('id', '=', id).execute();
}

/** Creates the account unless the number already has one (two first sign-ins at once); answers the account. */
export async function insertAccountIfAbsent(db: Executor, values: { id: string; mobile: string; name: string; passwordHash: string | null }): Promise<AccountRow> {
  await db
    .insertInto('platform.accounts')
    .values({ id: values.id, mobile: values.mobile, name: values.name, password_hash: values.passwordHash, state: 'active', locked_until: null, last_engine_code: null })
    .onConflict((oc) => oc.column('mobile').doNothing())
    .execute();
  return (await findAccountByMobile(db, values.mobile))!;
}

/**
 * Counts one wrong password in a single statement, so that parallel attempts count one each (docs/decisions/0027).
 * The failure that reaches `maxFailures` locks the account for `lockMinutes` and starts the count again; a wrong
 * password while the account is locked changes nothing. Answers the state after the statement.
 */
export async function recordPasswordFailure(db: Executor, id: string, rule: { maxFailures: number; lockMinutes: number }) {
  const locked = sql<boolean>`locked_until is not null and locked_until > now()`;
  const reaches = sql<boolean>`failed_password_count + 1 >= ${rule.maxFailures}`;
  const row = await db
    .updateTable('platform.accounts')
    .set({
      failed_password_count: sql`case when ${locked} then failed_password_count when ${reaches} then 0 else failed_password_count + 1 end`,
      locked_until: sql`case when ${locked} then locked_until when ${reaches} then now() + ${`${rule.lockMinutes} minutes`}::interval else locked_until end`,
    })
    .where('id', '=', id)
    .returning(['failed_password_count', 'locked_until', sql<boolean>`locked_until is not null and locked_until > now()`.as('is_locked')])
    .executeTakeFirst();
  return row ? { failures: Number(row.failed_password_count), lockedUntil: row.locked_until, isLocked: row.is_locked } : undefined;
}

/**
 * A right password clears the failure count, unless a parallel attempt locked the account meanwhile: answers false
 * then, and the sign-in is refused (the check and the change are one statement).
 */
export async function clearPasswordFailuresUnlessLocked(db: Executor, id: string): Promise<boolean> {
  const row = await db
    .updateTable('platform.accounts')
    .set({ failed_password_count: 0, locked_until: null })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', sql<Date>`now()`)]))
    .returning('id')
    .executeTakeFirst();
  return !!row;
}
