import type { Transaction } from 'kysely';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { contracts } from '@tritium/shared';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { findUserByMobile, findUsers, insertUsers, isWithin, setUserDepartments, type EngineExecutor, type UserRow } from '../org/org.repo.ts';
import { assertAllFound, unique } from '../org/org.policy.ts';
import { lockOrganisation } from '../org/org.service.ts';
import { joinOrInvite } from '../org/invitation.service.ts';
import { deleteMemberLinks, findOfEngine, insertMemberLink, memberLinks, type AssociationRow } from './associated-org.repo.ts';
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
 * The host user for a partner person: a new external user in the bound department, or the one they had before
 * (removed from the association earlier, so disabled in that department), enabled again. A number that is already
 * somebody else in the host is refused (220007).
 */
async function hostUserFor(hostEdb: EngineExecutor, departmentId: string, person: UserRow): Promise<string> {
  const existing = await findUserByMobile(hostEdb, person.mobile);
  if (existing) {
    const isFormerMember = existing.is_external && existing.main_department_id !== null && (await isWithin(hostEdb, existing.main_department_id, departmentId));
    if (!isFormerMember) throw new AppError('MobileAlreadyInEngine', { detail: { mobile: person.mobile, userId: person.id } });
    await hostEdb.updateTable('org_users').set({ state: 'active' }).where('id', '=', existing.id).execute();
    return existing.id;
  }
  const id = newId();
  await insertUsers(hostEdb, [{ id, account_id: null, name: person.name, mobile: person.mobile, auth_type: UserAuthType.External, is_external: true, main_department_id: departmentId }]);
  await setUserDepartments(hostEdb, id, [departmentId], departmentId);
  return id;
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
    for (const person of added) {
      const hostUserId = await hostUserFor(hostEdb, departmentId, person);
      await joinOrInvite(trx, hostEdb, row.host_engine_code, { id: hostUserId, mobile: person.mobile, is_external: true });
      await insertMemberLink(trx, id, person.id, hostUserId);
    }
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
