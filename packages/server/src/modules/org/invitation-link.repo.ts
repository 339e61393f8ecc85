import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { InvitationLinkTable, PlatformDb } from '../../db/types.ts';
import type { EngineExecutor } from './org.repo.ts';

type Executor = Kysely<PlatformDb> | Transaction<PlatformDb>;

export type InvitationLinkRow = Selectable<InvitationLinkTable>;

/** The console lists this many of an engine's newest links. */
export const LINK_LIST_LIMIT = 100;

export async function insertLink(db: Executor, row: Pick<Insertable<InvitationLinkTable>, 'id' | 'engine_code' | 'token_hash' | 'department_id' | 'created_by' | 'expires_time'>): Promise<void> {
  await db.insertInto('platform.invitation_links').values(row).execute();
}

/** The link of a token's hash; `forUpdate` holds it against a revocation until the transaction ends. */
export async function findLinkByHash(db: Executor, tokenHash: string, forUpdate = false): Promise<InvitationLinkRow | undefined> {
  return db
    .selectFrom('platform.invitation_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** An engine's links, newest first (or the one of `id`); another engine's id is not found. */
export async function listLinksOfEngine(db: Executor, engineCode: string, id?: string): Promise<InvitationLinkRow[]> {
  return db
    .selectFrom('platform.invitation_links')
    .selectAll()
    .where('engine_code', '=', engineCode)
    .$if(id !== undefined, (q) => q.where('id', '=', id!))
    .orderBy('created_time', 'desc')
    .orderBy('id', 'desc')
    .limit(LINK_LIST_LIMIT)
    .execute();
}

/** Turns an engine's link off; answers false when the engine has no such link or it was off already. */
export async function revokeLink(db: Executor, engineCode: string, id: string, userId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('platform.invitation_links')
    .set({ revoked_time: now, revoked_by: userId })
    .where('id', '=', id)
    .where('engine_code', '=', engineCode)
    .where('revoked_time', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countJoin(db: Executor, id: string): Promise<void> {
  await db
    .updateTable('platform.invitation_links')
    .set((eb) => ({ join_count: eb('join_count', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Names of departments and users of one engine by id (for the list and the join page). */
export async function namesOf(edb: EngineExecutor, departmentIds: string[], userIds: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (departmentIds.length) {
    for (const u of await edb.selectFrom('org_units').select(['id', 'name']).where('id', 'in', departmentIds).execute()) names.set(u.id, u.name);
  }
  if (userIds.length) {
    for (const u of await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', userIds).execute()) names.set(u.id, u.name);
  }
  return names;
}
