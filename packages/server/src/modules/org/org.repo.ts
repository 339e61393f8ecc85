import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { EXTERNAL_ROOT_NODE_ID } from '@tritium/shared/constants/org';
import type { EngineDb, OrgUnitTable, OrgUserTable } from '../../db/types.ts';
import { nameKeys } from './pinyin.ts';

/** Queries of one engine schema: engineDb(db or transaction, engineCode). */
export type EngineExecutor = Kysely<EngineDb>;

/** Unit types that form the department tree (the company root is the top department). */
export const DEPARTMENT_TYPES = ['Company', 'OrganizationUnit'] as const;

export type UnitRow = Pick<OrgUnitTable, 'id' | 'parent_id' | 'unit_type' | 'name' | 'entry_id' | 'manager_id'> & {
  state: string;
  is_external: boolean;
  sort_key: number;
};

export type UserRow = Pick<OrgUserTable, 'id' | 'account_id' | 'name' | 'mobile' | 'auth_type' | 'state' | 'main_department_id'> & { is_external: boolean };

const unitColumns = ['id', 'parent_id', 'unit_type', 'name', 'entry_id', 'manager_id', 'state', 'is_external', 'sort_key'] as const;
const userColumns = ['id', 'account_id', 'name', 'mobile', 'auth_type', 'state', 'main_department_id', 'is_external'] as const;

export function isDepartment(unit: Pick<UnitRow, 'unit_type'>): boolean {
  return (DEPARTMENT_TYPES as readonly string[]).includes(unit.unit_type);
}

/** The company root and the external root: never moved, removed or renamed. */
export function isRootUnit(unit: Pick<UnitRow, 'id' | 'unit_type'>): boolean {
  return unit.unit_type === 'Company' || unit.id === EXTERNAL_ROOT_NODE_ID;
}

export async function findUnit(edb: EngineExecutor, id: string): Promise<UnitRow | undefined> {
  return edb.selectFrom('org_units').select(unitColumns).where('id', '=', id).executeTakeFirst();
}

export async function findUnits(edb: EngineExecutor, ids: string[]): Promise<UnitRow[]> {
  if (!ids.length) return [];
  return edb.selectFrom('org_units').select(unitColumns).where('id', 'in', ids).execute();
}

export async function findUser(edb: EngineExecutor, id: string): Promise<UserRow | undefined> {
  return edb.selectFrom('org_users').select(userColumns).where('id', '=', id).executeTakeFirst();
}

export async function findUsers(edb: EngineExecutor, ids: string[]): Promise<UserRow[]> {
  if (!ids.length) return [];
  return edb.selectFrom('org_users').select(userColumns).where('id', 'in', ids).execute();
}

export async function findUserByMobile(edb: EngineExecutor, mobile: string): Promise<UserRow | undefined> {
  return edb.selectFrom('org_users').select(userColumns).where('mobile', '=', mobile).executeTakeFirst();
}

/** The columns every org unit answer starts from (id, parentId, name, state, isExternal, entryId, unitType). */
export interface UnitBaseRow {
  id: string;
  parent_id: string | null;
  name: string;
  state: string;
  is_external: boolean;
  entry_id: string | null;
  unit_type: string;
}

export interface NewUnit {
  id: string;
  parent_id: string | null;
  unit_type: OrgUnitTable['unit_type'];
  name: string;
  is_external?: boolean;
  manager_id?: string | null;
  sort_key?: number;
  entry_id?: string | null;
}

/** Inserts units with their search keys. */
export async function insertUnits(edb: EngineExecutor, units: NewUnit[]): Promise<void> {
  if (!units.length) return;
  await edb
    .insertInto('org_units')
    .values(units.map((u) => ({ ...u, entry_id: u.entry_id ?? null, ...nameKeys(u.name) })))
    .execute();
}

export async function updateUnit(edb: EngineExecutor, id: string, patch: { name?: string; parent_id?: string; manager_id?: string | null; sort_key?: number }) {
  await edb
    .updateTable('org_units')
    .set({ ...patch, ...(patch.name === undefined ? {} : nameKeys(patch.name)) })
    .where('id', '=', id)
    .execute();
}

export async function deleteUnit(edb: EngineExecutor, id: string): Promise<void> {
  await edb.deleteFrom('org_units').where('id', '=', id).execute();
}

/** The next position at the end of a parent's children of one type. */
export async function nextSortKey(edb: EngineExecutor, parentId: string | null, unitType: string): Promise<number> {
  const row = await edb
    .selectFrom('org_units')
    .select((eb) => eb.fn.max('sort_key').as('m'))
    .$call((qb) => (parentId === null ? qb.where('parent_id', 'is', null) : qb.where('parent_id', '=', parentId)))
    .where('unit_type', '=', unitType)
    .executeTakeFirst();
  return row?.m === null || row?.m === undefined ? 0 : Number(row.m) + 1;
}

export async function siblingNameTaken(edb: EngineExecutor, parentId: string, unitType: string, name: string, exceptId?: string): Promise<boolean> {
  const row = await edb
    .selectFrom('org_units')
    .select('id')
    .where('parent_id', '=', parentId)
    .where('unit_type', '=', unitType)
    .where('name', '=', name)
    .$if(!!exceptId, (qb) => qb.where('id', '<>', exceptId!))
    .executeTakeFirst();
  return !!row;
}

/** The ids of the departments at rootIds and below them (a subquery). */
export function subtreeIds(edb: EngineExecutor, rootIds: string[] | Expression<string>) {
  return edb
    .withRecursive('subtree(id)', (qc) =>
      qc
        .selectFrom('org_units')
        .select('id')
        .where('id', 'in', rootIds as string[])
        .union(qc.selectFrom('org_units as c').innerJoin('subtree as s', 's.id', 'c.parent_id').select('c.id').where('c.unit_type', '=', 'OrganizationUnit')),
    )
    .selectFrom('subtree')
    .select('subtree.id');
}

/** The unit and its ancestors up to the root, with their distance from the unit (0 for itself). */
export async function ancestorsOf(edb: EngineExecutor, id: string): Promise<{ id: string; name: string; depth: number }[]> {
  const rows = await edb
    .withRecursive('up(id, parent_id, name, depth)', (qc) =>
      qc
        .selectFrom('org_units')
        .select(['id', 'parent_id', 'name', sql<number>`0`.as('depth')])
        .where('id', '=', id)
        .union(
          qc
            .selectFrom('org_units as p')
            .innerJoin('up', 'up.parent_id', 'p.id')
            .select(['p.id', 'p.parent_id', 'p.name', sql<number>`up.depth + 1`.as('depth')])
            .where(sql<SqlBool>`up.depth < 1000`),
        ),
    )
    .selectFrom('up')
    .select(['up.id', 'up.name', 'up.depth'])
    .orderBy('up.depth', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, depth: Number(r.depth) }));
}

/** Whether `id` is `ancestorId` or lies below it. */
export async function isWithin(edb: EngineExecutor, id: string, ancestorId: string): Promise<boolean> {
  return (await ancestorsOf(edb, id)).some((a) => a.id === ancestorId);
}

/** What keeps a department from being removed. */
export async function departmentContents(edb: EngineExecutor, id: string): Promise<{ childCount: number; userCount: number }> {
  const children = await edb.selectFrom('org_units').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirstOrThrow();
  const users = await edb.selectFrom('org_user_departments').select((eb) => eb.fn.countAll<number>().as('n')).where('department_id', '=', id).executeTakeFirstOrThrow();
  return { childCount: Number(children.n), userCount: Number(users.n) };
}

export interface NewUser {
  id: string;
  account_id: string | null;
  name: string;
  mobile: string;
  auth_type: number;
  is_external: boolean;
  state?: 'active' | 'disabled';
}

/** Inserts users with their search keys; departments are set apart (setUserDepartments). */
export async function insertUsers(edb: EngineExecutor, users: (NewUser & { main_department_id: string })[]): Promise<void> {
  if (!users.length) return;
  await edb
    .insertInto('org_users')
    .values(users.map((u) => ({ ...u, state: u.state ?? 'active', ...nameKeys(u.name, u.mobile) })))
    .execute();
  await edb
    .insertInto('org_user_departments')
    .values(users.map((u) => ({ user_id: u.id, department_id: u.main_department_id, is_main: true })))
    .execute();
}

export async function updateUser(
  edb: EngineExecutor,
  current: Pick<UserRow, 'id' | 'name' | 'mobile'>,
  patch: { name?: string; mobile?: string; email?: string | null; auth_type?: number; state?: 'active' | 'disabled'; account_id?: string },
): Promise<void> {
  const rekey = patch.name !== undefined || patch.mobile !== undefined;
  await edb
    .updateTable('org_users')
    .set({ ...patch, ...(rekey ? nameKeys(patch.name ?? current.name, patch.mobile ?? current.mobile) : {}) })
    .where('id', '=', current.id)
    .execute();
}

/** Replaces a user's departments; mainId must be one of departmentIds. */
export async function setUserDepartments(edb: EngineExecutor, userId: string, departmentIds: string[], mainId: string): Promise<void> {
  await edb.deleteFrom('org_user_departments').where('user_id', '=', userId).execute();
  await edb
    .insertInto('org_user_departments')
    .values(departmentIds.map((id) => ({ user_id: userId, department_id: id, is_main: id === mainId })))
    .execute();
  await edb.updateTable('org_users').set({ main_department_id: mainId }).where('id', '=', userId).execute();
}

export async function userDepartmentIds(edb: EngineExecutor, userId: string): Promise<string[]> {
  const rows = await edb.selectFrom('org_user_departments').select('department_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.department_id);
}

/** Replaces the user's roles (table org_role_members) or posts (org_user_posts). */
export async function setUserLinks(edb: EngineExecutor, kind: 'role' | 'post', userId: string, unitIds: string[]): Promise<void> {
  if (kind === 'role') {
    await edb.deleteFrom('org_role_members').where('user_id', '=', userId).execute();
    if (unitIds.length) await edb.insertInto('org_role_members').values(unitIds.map((id) => ({ role_id: id, user_id: userId }))).execute();
  } else {
    await edb.deleteFrom('org_user_posts').where('user_id', '=', userId).execute();
    if (unitIds.length) await edb.insertInto('org_user_posts').values(unitIds.map((id) => ({ post_id: id, user_id: userId }))).execute();
  }
}

/** Adds users to a role or post (those already in it stay); answers how many were added. */
export async function addLinks(edb: EngineExecutor, kind: 'role' | 'post', unitId: string, userIds: string[]): Promise<number> {
  const result =
    kind === 'role'
      ? await edb.insertInto('org_role_members').values(userIds.map((u) => ({ role_id: unitId, user_id: u }))).onConflict((oc) => oc.doNothing()).executeTakeFirst()
      : await edb.insertInto('org_user_posts').values(userIds.map((u) => ({ post_id: unitId, user_id: u }))).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function removeLinks(edb: EngineExecutor, kind: 'role' | 'post', unitId: string, userIds: string[]): Promise<number> {
  const result =
    kind === 'role'
      ? await edb.deleteFrom('org_role_members').where('role_id', '=', unitId).where('user_id', 'in', userIds).executeTakeFirst()
      : await edb.deleteFrom('org_user_posts').where('post_id', '=', unitId).where('user_id', 'in', userIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Active Administrators other than `exceptUserId`. */
export async function countOtherActiveAdministrators(edb: EngineExecutor, exceptUserId: string): Promise<number> {
  const row = await edb
    .selectFrom('org_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('auth_type', '=', 1)
    .where('state', '=', 'active')
    .where('id', '<>', exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Moves users out of one department into another, or into one department only (fromId null). */
export async function moveUserDepartments(edb: EngineExecutor, userIds: string[], toId: string, fromId: string | null): Promise<void> {
  if (fromId === null) {
    await edb.deleteFrom('org_user_departments').where('user_id', 'in', userIds).execute();
    await edb.insertInto('org_user_departments').values(userIds.map((u) => ({ user_id: u, department_id: toId, is_main: true }))).execute();
    await edb.updateTable('org_users').set({ main_department_id: toId }).where('id', 'in', userIds).execute();
    return;
  }
  if (fromId === toId) return;
  const mainMovers = await edb.selectFrom('org_users').select('id').where('id', 'in', userIds).where('main_department_id', '=', fromId).execute();
  await edb.deleteFrom('org_user_departments').where('department_id', '=', fromId).where('user_id', 'in', userIds).execute();
  await edb
    .insertInto('org_user_departments')
    .values(userIds.map((u) => ({ user_id: u, department_id: toId, is_main: false })))
    .onConflict((oc) => oc.columns(['user_id', 'department_id']).doNothing())
    .execute();
  const movedMain = mainMovers.map((m) => m.id);
  if (movedMain.length) {
    await edb.updateTable('org_user_departments').set({ is_main: true }).where('department_id', '=', toId).where('user_id', 'in', movedMain).execute();
    await edb.updateTable('org_users').set({ main_department_id: toId }).where('id', 'in', movedMain).execute();
  }
}

/** Users among userIds that are not in the department. */
export async function usersNotInDepartment(edb: EngineExecutor, userIds: string[], departmentId: string): Promise<string[]> {
  const inside = await edb.selectFrom('org_user_departments').select('user_id').where('department_id', '=', departmentId).where('user_id', 'in', userIds).execute();
  const found = new Set(inside.map((r) => r.user_id));
  return userIds.filter((id) => !found.has(id));
}
