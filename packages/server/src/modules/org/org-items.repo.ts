import { sql, type SelectQueryBuilder } from 'kysely';
import type { OrgScope } from '@tritium/shared/constants/org';
import { escapeLike, searchKeyword } from './pinyin.ts';
import type { UnitBaseRow } from './org.repo.ts';
import { subtreeIds, type EngineExecutor } from './org.repo.ts';
import { filteredUsers, mainDepartmentId, mainDepartmentJoin, rootsOf } from './org-query.repo.ts';
import { visibleDepartmentIds, visibleUnit, visibleUser, type Viewer } from './org-viewer.ts';
import { paged, type PageRequest, type Paged } from './org-paging.ts';

// Answers that mix users with departments and roles (search, picker lists, units by id), users' associations,
// and unit ranges.

// ---- Mixed answers: search, org list, units by id ----

export interface ItemRow extends UnitBaseRow {
  has_child: boolean;
  mobile: string | null;
  auth_type: number | null;
  parent_name: string | null;
}

type ItemSelection = ItemRow & { kind_rank: number; match_rank: number; sort_rank: number; name_pinyin: string };

type ItemKind = 'User' | 'OrganizationUnit' | 'Role' | 'Post' | 'RoleGroup' | 'Company';

interface ItemFilter {
  ids?: string[];
  names?: string[];
  keyword?: string;
  /** Users linked to, and departments inside, this subtree. */
  withinDepartmentId?: string;
  /** Direct children of a department: its sub-departments and its users. */
  childrenOf?: string;
  /** Only the roots of the scope (the company, the external root). */
  rootsOnly?: boolean;
  state: 'active' | 'disabled' | 'all';
  scope: OrgScope;
  /** Who reads: an external viewer sees only their own organisation's departments and users (no roles, groups, posts). */
  viewer: Viewer;
}

/**
 * One query over users and units with the same columns, so that a mixed list is ordered and paged in SQL.
 * Ordering: departments before users before roles (org list) and, with a keyword, names that start with it first.
 */
function itemsQuery(edb: EngineExecutor, kinds: ItemKind[], f: ItemFilter) {
  const keyword = f.keyword ? searchKeyword(f.keyword) : undefined;
  const startsWith = keyword ? `${escapeLike(keyword)}%` : undefined;
  const userKinds = kinds.includes('User');
  const unitKinds = kinds.filter((k) => k !== 'User');
  const unitTypes = unitKinds.flatMap((k) => (k === 'OrganizationUnit' ? ['OrganizationUnit', 'Company'] : [k]));

  const users = filteredUsers(edb, { recursive: true, departmentId: f.withinDepartmentId, keyword: f.keyword, state: f.state, scope: f.scope }, f.viewer)
    .leftJoin('org_units as md', mainDepartmentJoin(edb, f.viewer))
    .$if(!!f.ids, (qb) => qb.where('u.id', 'in', f.ids!))
    .$if(!!f.names, (qb) => qb.where('u.name', 'in', f.names!))
    .$if(!!f.childrenOf, (qb) =>
      qb.where((eb) => eb.exists(eb.selectFrom('org_user_departments as ud').select('ud.user_id').whereRef('ud.user_id', '=', 'u.id').where('ud.department_id', '=', f.childrenOf!))),
    )
    .$if(!!f.rootsOnly, (qb) => qb.where(sql<boolean>`false`))
    .select([
      'u.id',
      mainDepartmentId(f.viewer).as('parent_id'),
      'u.name',
      'u.state',
      'u.is_external',
      sql<string | null>`null::text`.as('entry_id'),
      sql<string>`'User'`.as('unit_type'),
      sql<boolean>`false`.as('has_child'),
      'u.mobile',
      'u.auth_type',
      'md.name as parent_name',
      sql<number>`1`.as('kind_rank'),
      (startsWith ? sql<number>`case when u.search_text like ${startsWith} then 0 else 1 end` : sql<number>`0`).as('match_rank'),
      sql<number>`0`.as('sort_rank'),
      'u.name_pinyin',
    ]);

  // Siblings in a picker keep the administrator's order; search results go by name.
  const bySortKey = !!f.childrenOf || !!f.rootsOnly;
  const units = edb
    .selectFrom('org_units as u')
    .leftJoin('org_units as p', 'p.id', 'u.parent_id')
    .where('u.unit_type', 'in', unitTypes.length ? unitTypes : ['-'])
    .where((eb) => (f.scope === 'all' ? eb.lit(true) : eb('u.is_external', '=', f.scope === 'external')))
    .where(visibleUnit(edb, f.viewer, 'u.id'))
    .$if(!!keyword, (qb) => qb.where('u.search_text', 'like', `%${escapeLike(keyword!)}%`))
    .$if(!!f.ids, (qb) => qb.where('u.id', 'in', f.ids!))
    .$if(!!f.names, (qb) => qb.where('u.name', 'in', f.names!))
    .$if(!!f.withinDepartmentId, (qb) =>
      qb.where((eb) => eb.or([eb('u.unit_type', 'not in', ['Company', 'OrganizationUnit']), eb('u.id', 'in', subtreeIds(edb, [f.withinDepartmentId!]))])),
    )
    .$if(!!f.childrenOf, (qb) => qb.where('u.parent_id', '=', f.childrenOf!).where('u.unit_type', '=', 'OrganizationUnit'))
    .$if(!!f.rootsOnly, (qb) => qb.where(rootsOf(f.viewer)))
    .select((eb) => [
      'u.id',
      'u.parent_id',
      'u.name',
      'u.state',
      'u.is_external',
      'u.entry_id',
      'u.unit_type',
      // In a picker a department opens onto sub-departments or members; a role group onto roles.
      eb
        .or([
          eb.exists(eb.selectFrom('org_units as c').select('c.id').whereRef('c.parent_id', '=', 'u.id').where('c.unit_type', 'in', ['OrganizationUnit', 'Role'])),
          eb.exists(eb.selectFrom('org_user_departments as cu').select('cu.user_id').whereRef('cu.department_id', '=', 'u.id')),
        ])
        .$castTo<boolean>()
        .as('has_child'),
      sql<string | null>`null::text`.as('mobile'),
      sql<number | null>`null::integer`.as('auth_type'),
      'p.name as parent_name',
      sql<number>`case when u.unit_type in ('Company', 'OrganizationUnit') then 0 else 2 end`.as('kind_rank'),
      (startsWith ? sql<number>`case when u.search_text like ${startsWith} then 0 else 1 end` : sql<number>`0`).as('match_rank'),
      (bySortKey ? sql<number>`u.sort_key` : sql<number>`0`).as('sort_rank'),
      'u.name_pinyin',
    ]);

  const usersPart = users.$castTo<ItemSelection>();
  const unitsPart = units.$castTo<ItemSelection>();
  if (userKinds && unitKinds.length) return edb.selectFrom(usersPart.unionAll(unitsPart).as('x'));
  return edb.selectFrom((userKinds ? usersPart : unitsPart).as('x'));
}

const itemColumns = ['x.id', 'x.parent_id', 'x.name', 'x.state', 'x.is_external', 'x.entry_id', 'x.unit_type', 'x.has_child', 'x.mobile', 'x.auth_type', 'x.parent_name'] as const;

async function listItems(edb: EngineExecutor, kinds: ItemKind[], filter: ItemFilter, page: PageRequest): Promise<Paged<ItemRow>> {
  const rows = itemsQuery(edb, kinds, filter)
    .select(itemColumns)
    .orderBy('x.kind_rank')
    .orderBy('x.match_rank')
    .orderBy('x.sort_rank')
    .orderBy('x.name_pinyin')
    .orderBy('x.id');
  return paged(edb, rows as SelectQueryBuilder<any, any, ItemRow>, page);
}

export function searchUnits(edb: EngineExecutor, kinds: ItemKind[], filter: { keyword: string; departmentId?: string; state: ItemFilter['state']; scope: OrgScope }, page: PageRequest, viewer: Viewer) {
  return listItems(edb, kinds, { keyword: filter.keyword, withinDepartmentId: filter.departmentId, state: filter.state, scope: filter.scope, viewer }, page);
}

export function unitsByName(edb: EngineExecutor, kinds: ItemKind[], filter: { names: string[]; state: ItemFilter['state']; scope: OrgScope }, page: PageRequest, viewer: Viewer) {
  return listItems(edb, kinds, { names: filter.names, state: filter.state, scope: filter.scope, viewer }, page);
}

/** Units of every type by id: ids of other engines, and units the viewer may not see, are simply not there. */
export function unitsByIds(edb: EngineExecutor, ids: string[], page: PageRequest, viewer: Viewer) {
  return listItems(edb, ['User', 'OrganizationUnit', 'Role', 'RoleGroup', 'Post'], { ids, state: 'all', scope: 'all', viewer }, page);
}

/** What a picker shows under a department (or the roots of the scope). */
export function childrenOf(edb: EngineExecutor, parentId: string | undefined, kinds: ('User' | 'OrganizationUnit')[], filter: { state: ItemFilter['state']; scope: OrgScope }, page: PageRequest, viewer: Viewer) {
  const f = { state: filter.state, scope: filter.scope, viewer };
  return listItems(edb, kinds, parentId ? { childrenOf: parentId, ...f } : { rootsOnly: true, ...f }, page);
}

// ---- Associations and ranges ----

export interface AssociationRow {
  user_id: string;
  unit_id: string;
  unit_type: string;
  name: string;
  is_main: boolean;
  is_manager: boolean;
}

/** Of the users the viewer may see: their departments the viewer may see, and (internal viewers only) their roles and posts. */
export async function listAssociations(edb: EngineExecutor, userIds: string[], kinds: ('OrganizationUnit' | 'Role' | 'Post')[], page: PageRequest, viewer: Viewer): Promise<Paged<AssociationRow>> {
  const internal = viewer.kind === 'internal';
  const departments = edb
    .selectFrom('org_user_departments as l')
    .innerJoin('org_units as u', 'u.id', 'l.department_id')
    .where('l.user_id', 'in', userIds)
    .where(visibleUser(edb, viewer, 'l.user_id'))
    .where(visibleUnit(edb, viewer, 'u.id'))
    .where(sql<boolean>`${kinds.includes('OrganizationUnit')}`)
    .select(['l.user_id', 'u.id as unit_id', 'u.unit_type', 'u.name', 'l.is_main', sql<boolean>`coalesce(u.manager_id = l.user_id, false)`.as('is_manager'), sql<number>`0`.as('kind_rank'), 'u.name_pinyin']);
  const roles = edb
    .selectFrom('org_role_members as l')
    .innerJoin('org_units as u', 'u.id', 'l.role_id')
    .where('l.user_id', 'in', userIds)
    .where(sql<boolean>`${internal && kinds.includes('Role')}`)
    .select(['l.user_id', 'u.id as unit_id', 'u.unit_type', 'u.name', sql<boolean>`false`.as('is_main'), sql<boolean>`false`.as('is_manager'), sql<number>`1`.as('kind_rank'), 'u.name_pinyin']);
  const posts = edb
    .selectFrom('org_user_posts as l')
    .innerJoin('org_units as u', 'u.id', 'l.post_id')
    .where('l.user_id', 'in', userIds)
    .where(sql<boolean>`${internal && kinds.includes('Post')}`)
    .select(['l.user_id', 'u.id as unit_id', 'u.unit_type', 'u.name', sql<boolean>`false`.as('is_main'), sql<boolean>`false`.as('is_manager'), sql<number>`2`.as('kind_rank'), 'u.name_pinyin']);
  const rows = edb
    .selectFrom(departments.unionAll(roles).unionAll(posts).as('x'))
    .select(['x.user_id', 'x.unit_id', 'x.unit_type', 'x.name', 'x.is_main', 'x.is_manager'])
    .orderBy('x.user_id')
    .orderBy('x.kind_rank')
    .orderBy(sql`x.is_main`, 'desc')
    .orderBy('x.name_pinyin')
    .orderBy('x.unit_id');
  return paged(edb, rows as SelectQueryBuilder<any, any, AssociationRow>, page);
}

/**
 * The units among unitIds that lie within the range: departments inside a range department's subtree; users in
 * such a department, in a range role or holding a range post; and any unit named in the range itself.
 *
 * An external viewer learns nothing beyond their own organisation: units and users they may not see are never in
 * range, only visible departments count as range departments, and roles and posts do not count.
 */
export async function unitsInRange(edb: EngineExecutor, unitIds: string[], rangeIds: string[], viewer: Viewer): Promise<Set<string>> {
  const internal = viewer.kind === 'internal';
  const visibleTree = visibleDepartmentIds(edb, viewer);
  const inTree = subtreeIds(edb, rangeIds);
  const units = edb
    .selectFrom('org_units as u')
    .select('u.id')
    .where('u.id', 'in', unitIds)
    .where(visibleUnit(edb, viewer, 'u.id'))
    .where((eb) => eb.or([eb('u.id', 'in', rangeIds), eb('u.id', 'in', inTree)]));
  const users = edb
    .selectFrom('org_users as u')
    .select('u.id')
    .where('u.id', 'in', unitIds)
    .where(visibleUser(edb, viewer, 'u.id'))
    .where((eb) =>
      eb.or([
        eb('u.id', 'in', rangeIds),
        eb.exists(
          eb
            .selectFrom('org_user_departments as ud')
            .select('ud.user_id')
            .whereRef('ud.user_id', '=', 'u.id')
            .where('ud.department_id', 'in', inTree)
            .$if(!!visibleTree, (qb) => qb.where('ud.department_id', 'in', visibleTree!)),
        ),
        ...(internal
          ? [
              eb.exists(eb.selectFrom('org_role_members as rm').select('rm.user_id').whereRef('rm.user_id', '=', 'u.id').where('rm.role_id', 'in', rangeIds)),
              eb.exists(eb.selectFrom('org_user_posts as up').select('up.user_id').whereRef('up.user_id', '=', 'u.id').where('up.post_id', 'in', rangeIds)),
            ]
          : []),
      ]),
    );
  const rows = await units.union(users).execute();
  return new Set(rows.map((r) => r.id));
}

