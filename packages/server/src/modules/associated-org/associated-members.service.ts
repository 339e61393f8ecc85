import type { Transaction } from 'kysely';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { contracts } from '@tritium/shared';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { findUsers, insertUsers, subtreeIds, type EngineExecutor, type UserRow } from '../org/org.repo.ts';
import { assertAllFound, unique } from '../org/org.policy.ts';
import { lockOrganisation } from '../org/org.service.ts';
import { joinOrInviteMany } from '../org/invitation.service.ts';
import { deleteMemberLinks, findOfEngine, insertMemberLinks, memberLinks, type AssociationRow } from './associated-org.repo.ts';
import { boundDepartment, type AssociationDeps } from './bound-department.ts';

// Which of the partner's people work in the host (docs/decisions/0091): the partner's administrator chooses them;
// each becomes an external user (auth type External 5, membership is_external) of the host's bound department, and
// sees the host in their engine switcher as a non-primary engine, with what docs/decisions/0010 lets external users see.

const edbOf = (trx: Transaction<PlatformDb> | Db, engineCode: string): EngineExecutor => engineDb(trx as unknown as Db, engineCode);

/** An active association of the engine; another engine's, unknown or ended ones are 205005. */
async function activeAssociationOrThrow(trx: Transaction<PlatformDb> | Db, engineCode: string, id: string, forUpdate = false): Promise<AssociationRow> {
  const row = await findOfEngine(trx, id, engineCode, forUpdate);
  if (!row || row.state !== 'active') throw new AppError('AssociationUnavailable', { detail: { id } });
  return row;
}

/** The partner's people who work in the host, with their host user ids. Both sides' administrators may read it. */
export async function listAssociatedMembers(deps: AssociationDeps, engineCode: string, id: string): Promise<contracts.AssociatedMemberDto[]> {
  const row = await findOfEngine(deps.db, id, engineCode);
  if (!row) throw new AppError('AssociationUnavailable', { detail: { id } });
  const links = await memberLinks(deps.db, id);
  if (!links.length) return [];
  const hostUsers = new Map((await findUsers(edbOf(deps.db, row.host_engine_code), links.map((l) => l.host_user_id))).map((u) => [u.id, u]));
  return links.flatMap((link) => {
    const user = hostUsers.get(link.host_user_id);
    return user ? [{ userId: link.partner_user_id, name: user.name, mobile: user.mobile, hostUserId: user.id, isJoined: user.account_id !== null }] : [];
  });
}

/**
 * The host users for partner people, set-wise: new external users in the bound department, or the ones they had
 * before (taken out of the association earlier, so disabled in that department), enabled again. A number that is
 * already somebody else in the host is refused (220007). Answers the host user id of each person.
 */
async function hostUsersFor(hostEdb: EngineExecutor, departmentId: string, people: UserRow[]): Promise<Map<string, string>> {
  const existing = await hostEdb
    .selectFrom('org_users')
    .select(['id', 'mobile', 'is_external', 'main_department_id'])
    .where('mobile', 'in', people.map((p) => p.mobile))
    .execute();
  const inDepartment = new Set((await subtreeIds(hostEdb, [departmentId]).execute()).map((r) => r.id));
  const stranger = existing.find((u) => !u.is_external || !u.main_department_id || !inDepartment.has(u.main_department_id));
  if (stranger) throw new AppError('MobileAlreadyInEngine', { detail: { mobile: stranger.mobile, userId: people.find((p) => p.mobile === stranger.mobile)!.id } });
  const former = new Map(existing.map((u) => [u.mobile, u.id]));
  if (former.size) await hostEdb.updateTable('org_users').set({ state: 'active' }).where('id', 'in', [...former.values()]).execute();
  const fresh = people.filter((p) => !former.has(p.mobile)).map((p) => ({ person: p, id: newId() }));
  // New users get the bound department as their main (and only) department with the insert.
  await insertUsers(
    hostEdb,
    fresh.map(({ person, id }) => ({ id, account_id: null, name: person.name, mobile: person.mobile, auth_type: UserAuthType.External, is_external: true, main_department_id: departmentId })),
  );
  return new Map([...people.map((p): [string, string] => [p.id, former.get(p.mobile) ?? fresh.find((f) => f.person.id === p.id)!.id])]);
}

/**
 * The partner's administrator lets some of their people work in the host. Only the partner chooses (the host's
 * administrator gets 205004); only active internal users of the partner; people already taking part are left as
 * they are. Answers how many were added.
 */
export async function addAssociatedMembers(deps: AssociationDeps, engineCode: string, id: string, userIds: string[]): Promise<{ changed: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await activeAssociationOrThrow(trx, engineCode, id, true);
    if (row.partner_engine_code !== engineCode) throw new AppError('NotOrganisationAdministrator', { detail: { engineCode: row.partner_engine_code } });
    const ids = unique(userIds);
    const people = await findUsers(edbOf(trx, engineCode), ids);
    assertAllFound(ids, people, 'User');
    const outside = people.filter((p) => p.is_external || p.state !== 'active').map((p) => p.id);
    if (outside.length) throw new AppError('OrgScopeMismatch', { message: '只能选择本组织在职的内部成员', detail: { userIds: outside } });
    const already = new Set((await memberLinks(trx, id, ids)).map((l) => l.partner_user_id));
    const added = people.filter((p) => !already.has(p.id));
    if (!added.length) return { changed: 0 };
    await lockOrganisation(trx, row.host_engine_code);
    const departmentId = await boundDepartment(trx, row);
    const hostEdb = edbOf(trx, row.host_engine_code);
    const hostUserOf = await hostUsersFor(hostEdb, departmentId, added);
    await joinOrInviteMany(trx, hostEdb, row.host_engine_code, added.map((p) => ({ id: hostUserOf.get(p.id)!, mobile: p.mobile, is_external: true })));
    await insertMemberLinks(trx, id, added.map((p) => ({ partnerUserId: p.id, hostUserId: hostUserOf.get(p.id)! })));
    return { changed: added.length };
  });
}

/**
 * Takes people out of the association (either side may): they lose their membership of the host at once (the next
 * request with their token is refused); their host user stays, disabled, with what they wrote.
 */
export async function removeAssociatedMembers(deps: AssociationDeps, engineCode: string, id: string, userIds: string[]): Promise<{ changed: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await activeAssociationOrThrow(trx, engineCode, id, true);
    await lockOrganisation(trx, row.host_engine_code);
    const links = await memberLinks(trx, id, unique(userIds));
    await detachMembers(trx, row, links);
    return { changed: links.length };
  });
}

/** Ends the host membership of the given people (default: everyone of the association) and drops their links. */
export async function detachMembers(trx: Transaction<PlatformDb>, row: AssociationRow, links?: { partner_user_id: string; host_user_id: string }[]): Promise<void> {
  const chosen = links ?? (await memberLinks(trx, row.id));
  if (!chosen.length) return;
  const hostUserIds = chosen.map((l) => l.host_user_id);
  await trx.deleteFrom('platform.memberships').where('engine_code', '=', row.host_engine_code).where('user_id', 'in', hostUserIds).execute();
  await trx.deleteFrom('platform.invitations').where('engine_code', '=', row.host_engine_code).where('user_id', 'in', hostUserIds).execute();
  await edbOf(trx, row.host_engine_code).updateTable('org_users').set({ state: 'disabled' }).where('id', 'in', hostUserIds).execute();
  await deleteMemberLinks(trx, row.id, chosen.map((l) => l.partner_user_id));
}
