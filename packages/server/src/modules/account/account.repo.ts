import type { Kysely, Transaction } from 'kysely';
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
