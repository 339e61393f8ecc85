import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { PlatformDb, SignLinkTable } from '../../db/types.ts';

type Executor = Kysely<PlatformDb> | Transaction<PlatformDb>;
type FileValue = { id: string; name: string; size: number; contentType: string };

export type SignLinkRow = Selectable<SignLinkTable>;

export async function insertSignLink(db: Executor, row: Omit<Insertable<SignLinkTable>, 'used_time' | 'file' | 'created_time'>): Promise<void> {
  await db.insertInto('platform.sign_links').values(row).execute();
}

/** The link of a token's hash; `forUpdate` holds it until the transaction ends (one signature a link). */
export async function findSignLink(db: Executor, tokenHash: string, forUpdate = false): Promise<SignLinkRow | undefined> {
  return db.selectFrom('platform.sign_links').selectAll().where('token_hash', '=', tokenHash).$if(forUpdate, (q) => q.forUpdate()).executeTakeFirst();
}

export async function markSigned(db: Executor, id: string, file: FileValue): Promise<void> {
  await db.updateTable('platform.sign_links').set({ used_time: new Date(), file: JSON.stringify(file) }).where('id', '=', id).execute();
}
