import { sql, type ExpressionBuilder, type JoinBuilder, type SelectQueryBuilder } from 'kysely';
import { EXTERNAL_ROOT_NODE_ID, type OrgScope } from '@tritium/shared/constants/org';
import type { UnitBaseRow } from './org.repo.ts';
import { subtreeIds, type EngineExecutor } from './org.repo.ts';
import { countAll, likePattern, paged, scopeFilter, type PageRequest, type Paged } from './org-paging.ts';
import { INTERNAL_VIEWER, visibleUnit, visibleUser, type Viewer } from './org-viewer.ts';

// Lists of departments, users, roles, role groups and posts.

// ---- Departments ----

export interface DepartmentRow {
  id: string;
  parent_id: string | null;
  unit_type: string;
  name: string;
  state: string;
  is_external: boolean;
  entry_id: string | null;
  sort_key: number;
  manager_id: string | null;
  manager_name: string | null;
  has_child: boolean;
}

/**
 * Departments with their manager's name and whether they have sub-departments. A manager the viewer may not see
 * (an internal manager of an external department, for an external viewer) is left out: managerId and managerName null.
 */
export function selectDepartments(edb: EngineExecutor, viewer: Viewer = INTERNAL_VIEWER) {
  return edb
    .selectFrom('org_units as u')
    .select(['u.id', 'u.parent_id', 'u.unit_type', 'u.name', 'u.state', 'u.is_external', 'u.entry_id', 'u.sort_key'])
    .select((eb) =>
      (viewer.kind === 'internal'
        ? sql<string | null>`u.manager_id`
        : sql<string | null>`(${eb.selectFrom('org_users as m').select('m.id').whereRef('m.id', '=', 'u.manager_id').where(visibleUser(edb, viewer, 'm.id'))})`
      ).as('manager_id'),
    )
    // A lookup per department (most have no manager) rather than a join that reads every user.
    .select((eb) => eb.selectFrom('org_users as m').select('m.name').whereRef('m.id', '=', 'u.manager_id').where(visibleUser(edb, viewer, 'm.id')).as('manager_name'))
    .select((eb) =>
      eb
        .exists(eb.selectFrom('org_units as c').select('c.id').whereRef('c.parent_id', '=', 'u.id').where('c.unit_type', '=', 'OrganizationUnit'))
        .$castTo<boolean>()
        .as('has_child'),
    );
}


export interface DepartmentListFilter {
  /** Children of this unit; undefined: the roots of the scope. */
  parentId?: string;
  recursive: boolean;
  keyword?: string;
  scope: OrgScope;
}

export async function listDepartments(edb: EngineExecutor, filter: DepartmentListFilter, page: PageRequest, viewer: Viewer): Promise<Paged<DepartmentRow>> {
  const rows = selectDepartments(edb, viewer)
    .where('u.unit_type', 'in', ['Company', 'OrganizationUnit'])
    .where(scopeFilter(filter.scope))
    .where(visibleUnit(edb, viewer, 'u.id'))
    .$if(filter.parentId !== undefined && !filter.recursive, (qb) => qb.where('u.parent_id', '=', filter.parentId!))
    .$if(filter.parentId !== undefined && filter.recursive, (qb) => qb.where('u.id', 'in', subtreeIds(edb, [filter.parentId!])).where('u.id', '<>', filter.parentId!))
    .$if(filter.parentId === undefined && !filter.recursive, (qb) => qb.where(rootsOf(viewer)))
    .$if(!!filter.keyword, (qb) => qb.where('u.search_text', 'like', likePattern(filter.keyword!)))
    .orderBy(sql`u.parent_id is not null`)
    .orderBy('u.is_external')
    .orderBy('u.sort_key')
    .orderBy('u.name_pinyin')
    .orderBy('u.id');
  return paged(edb, rows as SelectQueryBuilder<any, any, DepartmentRow>, page);
}

/**
 * The roots a picker starts from (on org_units as u): the company and 外部组织 for an internal viewer; the tops of
 * their own organisations (the departments directly under 外部组织, limited by visibleUnit) for an external one.
 */
export function rootsOf(viewer: Viewer) {
  return (eb: ExpressionBuilder<any, any>) =>
    viewer.kind === 'internal' ? eb.or([eb('u.unit_type', '=', 'Company'), eb('u.id', '=', EXTERNAL_ROOT_NODE_ID)]) : eb('u.parent_id', '=', EXTERNAL_ROOT_NODE_ID);
}

export async function departmentsByIds(edb: EngineExecutor, ids: string[], viewer: Viewer): Promise<DepartmentRow[]> {
  return selectDepartments(edb, viewer).where('u.id', 'in', ids).where(visibleUnit(edb, viewer, 'u.id')).where('u.unit_type', 'in', ['Company', 'OrganizationUnit']).orderBy('u.sort_key').orderBy('u.name_pinyin').orderBy('u.id').execute();
}

// ---- Users ----

export interface UserListRow {
  id: string;
  account_id: string | null;
  name: string;
  mobile: string;
  auth_type: number;
  state: string;
  is_external: boolean;
  main_department_id: string | null;
  main_department_name: string | null;
}

const userListColumns = ['u.id', 'u.account_id', 'u.name', 'u.mobile', 'u.auth_type', 'u.state', 'u.is_external', 'md.name as main_department_name'] as const;

/**
 * The join of a user (u) to their main department (md) as the viewer may see it: a main department outside an
 * external viewer's organisation (a colleague also in another external organisation) joins nothing.
 */
export function mainDepartmentJoin(edb: EngineExecutor, viewer: Viewer) {
  return (join: JoinBuilder<any, any>) => join.onRef('md.id', '=', 'u.main_department_id').on(visibleUnit(edb, viewer, 'md.id'));
}

/** The main department id, null where mainDepartmentJoin joined nothing for an external viewer. */
export function mainDepartmentId(viewer: Viewer) {
  return sql<string | null>`${sql.ref(viewer.kind === 'internal' ? 'u.main_department_id' : 'md.id')}`;
}

export function selectUsers(edb: EngineExecutor, viewer: Viewer = INTERNAL_VIEWER) {
  return edb
    .selectFrom('org_users as u')
    .leftJoin('org_units as md', mainDepartmentJoin(edb, viewer))
    .select(userListColumns)
    .select(mainDepartmentId(viewer).as('main_department_id'));
}

export interface UserListFilter {
  departmentId?: string;
  recursive: boolean;
  roleId?: string;
  postId?: string;
  keyword?: string;
  state: 'active' | 'disabled' | 'all';
  authTypes?: number[];
  scope: OrgScope;
}

/** The users a filter selects among those the viewer may see, as a query on org_users as u (shared by lists, search and counts). */
export function filteredUsers(edb: EngineExecutor, f: Omit<UserListFilter, 'roleId' | 'postId'> & { roleId?: string; postId?: string }, viewer: Viewer) {
  return edb
    .selectFrom('org_users as u')
    .where(scopeFilter(f.scope))
    .where(visibleUser(edb, viewer, 'u.id'))
    .$if(f.state !== 'all', (qb) => qb.where('u.state', '=', f.state as 'active' | 'disabled'))
    .$if(!!f.keyword, (qb) => qb.where('u.search_text', 'like', likePattern(f.keyword!)))
    .$if(!!f.authTypes?.length, (qb) => qb.where('u.auth_type', 'in', f.authTypes!))
    .$if(!!f.departmentId, (qb) =>
      qb.where((eb) =>
        eb.exists(
          eb
            .selectFrom('org_user_departments as ud')
            .select('ud.user_id')
            .whereRef('ud.user_id', '=', 'u.id')
            .where('ud.department_id', 'in', f.recursive ? subtreeIds(edb, [f.departmentId!]) : [f.departmentId!]),
        ),
      ),
    )
    .$if(!!f.roleId, (qb) => qb.where((eb) => eb.exists(eb.selectFrom('org_role_members as rm').select('rm.user_id').whereRef('rm.user_id', '=', 'u.id').where('rm.role_id', '=', f.roleId!))))
    .$if(!!f.postId, (qb) => qb.where((eb) => eb.exists(eb.selectFrom('org_user_posts as up').select('up.user_id').whereRef('up.user_id', '=', 'u.id').where('up.post_id', '=', f.postId!))));
}

export async function listUsers(edb: EngineExecutor, filter: UserListFilter, page: PageRequest, viewer: Viewer): Promise<Paged<UserListRow>> {
  const rows = filteredUsers(edb, filter, viewer)
    .leftJoin('org_units as md', mainDepartmentJoin(edb, viewer))
    .select(userListColumns)
    .select(mainDepartmentId(viewer).as('main_department_id'))
    .orderBy('u.name_pinyin')
    .orderBy('u.id');
  return paged(edb, rows as SelectQueryBuilder<any, any, UserListRow>, page, filteredUsers(edb, filter, viewer).select(countAll));
}

export async function usersByIds(edb: EngineExecutor, ids: string[], viewer: Viewer): Promise<UserListRow[]> {
  return selectUsers(edb, viewer).where('u.id', 'in', ids).where(visibleUser(edb, viewer, 'u.id')).orderBy('u.name_pinyin').orderBy('u.id').execute();
}

// ---- Roles, role groups, posts ----

export interface RoleRow extends UnitBaseRow {
  group_name: string | null;
  member_count: number;
}

export function selectRoles(edb: EngineExecutor) {
  return edb
    .selectFrom('org_units as u')
    .leftJoin('org_units as g', 'g.id', 'u.parent_id')
    .where('u.unit_type', '=', 'Role')
    .select(['u.id', 'u.parent_id', 'u.name', 'u.state', 'u.is_external', 'u.entry_id', 'u.unit_type', 'g.name as group_name'])
    .select((eb) => eb.selectFrom('org_role_members as rm').select((e) => e.fn.countAll<number>().as('n')).whereRef('rm.role_id', '=', 'u.id').as('member_count'));
}

export async function listRoles(edb: EngineExecutor, filter: { groupId?: string; keyword?: string; ids?: string[] }, page: PageRequest): Promise<Paged<RoleRow>> {
  const rows = selectRoles(edb)
    .$if(!!filter.groupId, (qb) => qb.where('u.parent_id', '=', filter.groupId!))
    .$if(!!filter.ids, (qb) => qb.where('u.id', 'in', filter.ids!))
    .$if(!!filter.keyword, (qb) => qb.where('u.search_text', 'like', likePattern(filter.keyword!)))
    .orderBy('g.sort_key')
    .orderBy('g.id')
    .orderBy('u.sort_key')
    .orderBy('u.name_pinyin')
    .orderBy('u.id');
  return paged(edb, rows as SelectQueryBuilder<any, any, RoleRow>, page);
}

export interface GroupRow extends UnitBaseRow {
  count: number;
}

/** Role groups with their role count, or posts with their holder count. */
export async function listGroupsOrPosts(edb: EngineExecutor, unitType: 'RoleGroup' | 'Post', filter: { keyword?: string; ids?: string[] }, page: PageRequest): Promise<Paged<GroupRow>> {
  const rows = edb
    .selectFrom('org_units as u')
    .where('u.unit_type', '=', unitType)
    .$if(!!filter.ids, (qb) => qb.where('u.id', 'in', filter.ids!))
    .$if(!!filter.keyword, (qb) => qb.where('u.search_text', 'like', likePattern(filter.keyword!)))
    .select(['u.id', 'u.parent_id', 'u.name', 'u.state', 'u.is_external', 'u.entry_id', 'u.unit_type'])
    .select((eb) =>
      (unitType === 'RoleGroup'
        ? eb.selectFrom('org_units as r').select((e) => e.fn.countAll<number>().as('n')).whereRef('r.parent_id', '=', 'u.id').where('r.unit_type', '=', 'Role')
        : eb.selectFrom('org_user_posts as up').select((e) => e.fn.countAll<number>().as('n')).whereRef('up.post_id', '=', 'u.id')
      ).as('count'),
    )
    .orderBy('u.sort_key')
    .orderBy('u.name_pinyin')
    .orderBy('u.id');
  return paged(edb, rows as SelectQueryBuilder<any, any, GroupRow>, page);
}

