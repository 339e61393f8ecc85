import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { AssociatedOrgTable, PlatformDb } from '../../db/types.ts';

type Executor = Kysely<PlatformDb> | Transaction<PlatformDb>;

export type AssociationRow = Selectable<AssociatedOrgTable>;

/** An association with both engines' names and its member count, as the lists present it. */
export interface AssociationListRow extends AssociationRow {
  host_engine_name: string;
  partner_engine_name: string | null;
  member_count: number;
}

export async function insertAssociation(db: Executor, row: Pick<Insertable<AssociatedOrgTable>, 'id' | 'host_engine_code' | 'associated_code' | 'code_expires' | 'created_by'>): Promise<void> {
  await db.insertInto('platform.associated_orgs').values(row).execute();
}

export async function findByCode(db: Executor, code: string): Promise<AssociationRow | undefined> {
  return db.selectFrom('platform.associated_orgs').selectAll().where('associated_code', '=', code).executeTakeFirst();
}

/** An association the engine takes part in (as host or partner); another engine's id is not found. */
export async function findOfEngine(db: Executor, id: string, engineCode: string, forUpdate = false): Promise<AssociationRow | undefined> {
  return db
    .selectFrom('platform.associated_orgs')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('host_engine_code', '=', engineCode), eb('partner_engine_code', '=', engineCode)]))
    .$if(forUpdate, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** Every association the engine takes part in, newest first, with names and member counts (one statement). */
export async function listOfEngine(db: Executor, engineCode: string, id?: string): Promise<AssociationListRow[]> {
  const rows = await db
    .selectFrom('platform.associated_orgs as a')
    .innerJoin('platform.engines as h', 'h.engine_code', 'a.host_engine_code')
    .leftJoin('platform.engines as p', 'p.engine_code', 'a.partner_engine_code')
    .selectAll('a')
    .select(['h.engine_name as host_engine_name', 'p.engine_name as partner_engine_name'])
    .select((eb) =>
      eb.selectFrom('platform.associated_org_members as m').select((m) => m.fn.countAll<number>().as('n')).whereRef('m.association_id', '=', 'a.id').as('member_count'),
    )
    .where((eb) => eb.or([eb('a.host_engine_code', '=', engineCode), eb('a.partner_engine_code', '=', engineCode)]))
    .$if(id !== undefined, (q) => q.where('a.id', '=', id!))
    .orderBy('a.created_time', 'desc')
    .orderBy('a.id')
    .execute();
  return rows.map((r) => ({ ...r, member_count: Number(r.member_count ?? 0) }));
}

/** The partners the host is associated with now, among the given engines. */
export async function activePartnersAmong(db: Executor, hostEngineCode: string, engineCodes: string[]): Promise<Set<string>> {
  if (!engineCodes.length) return new Set();
  const rows = await db
    .selectFrom('platform.associated_orgs')
    .select('partner_engine_code')
    .where('host_engine_code', '=', hostEngineCode)
    .where('partner_engine_code', 'in', engineCodes)
    .where('state', '=', 'active')
    .execute();
  return new Set(rows.map((r) => r.partner_engine_code!));
}

/**
 * Turns a pending, unexpired link into an active association with the partner; answers false when the link was
 * used, withdrawn or expired meanwhile (the row is claimed by this one statement, so a link is accepted once).
 */
export async function activate(db: Executor, id: string, partnerEngineCode: string, departmentId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('platform.associated_orgs')
    .set({ state: 'active', partner_engine_code: partnerEngineCode, department_id: departmentId, accepted_time: now })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('code_expires', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markEnded(db: Executor, id: string, byEngine: string, now: Date): Promise<void> {
  await db.updateTable('platform.associated_orgs').set({ state: 'ended', ended_time: now, ended_by_engine: byEngine }).where('id', '=', id).execute();
}

export async function memberLinks(db: Executor, associationId: string, partnerUserIds?: string[]) {
  if (partnerUserIds && !partnerUserIds.length) return [];
  return db
    .selectFrom('platform.associated_org_members')
    .select(['partner_user_id', 'host_user_id'])
    .where('association_id', '=', associationId)
    .$if(!!partnerUserIds, (q) => q.where('partner_user_id', 'in', partnerUserIds!))
    .orderBy('created_time')
    .orderBy('partner_user_id')
    .execute();
}

export async function insertMemberLinks(db: Executor, associationId: string, links: { partnerUserId: string; hostUserId: string }[]): Promise<void> {
  if (!links.length) return;
  await db
    .insertInto('platform.associated_org_members')
    .values(links.map((l) => ({ association_id: associationId, partner_user_id: l.partnerUserId, host_user_id: l.hostUserId })))
    .execute();
}

export async function deleteMemberLinks(db: Executor, associationId: string, partnerUserIds: string[]): Promise<void> {
  if (!partnerUserIds.length) return;
  await db.deleteFrom('platform.associated_org_members').where('association_id', '=', associationId).where('partner_user_id', 'in', partnerUserIds).execute();
}
