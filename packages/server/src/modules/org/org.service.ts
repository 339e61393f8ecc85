import { sql, type Transaction } from 'kysely';
import type { contracts } from '@tritium/shared';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { ancestorsOf, departmentContents, findUnit, type EngineExecutor } from './org.repo.ts';
import { selectDepartments, selectUsers } from './org-query.repo.ts';
import { presentDepartment, presentUser } from './org.presenter.ts';
import { assertDepartment } from './org.policy.ts';
import { INTERNAL_VIEWER, visibleUnit, visibleUser, type Viewer } from './org-viewer.ts';
import type { RequestOrigin } from '../audit/oplog.ts';

/** Who acts in which engine: every organisation service call starts from it. */
export interface OrgContext {
  db: Db;
  engineCode: string;
  /** The engine's company root (platform.engines.company_id). */
  companyId: string;
  /** The acting user. */
  userId: string;
  /** The request the change comes from, for the operation log (docs/decisions/0113). */
  origin?: RequestOrigin;
}

export function engineOf(ctx: OrgContext): EngineExecutor {
  return engineDb(ctx.db, ctx.engineCode);
}

/**
 * Runs an organisation change in one transaction. Changes of one engine's organisation are serialised by an
 * advisory lock, so that two concurrent moves cannot build a cycle and two demotions cannot remove the last
 * Administrator. Inside, only the transaction is used (docs/decisions/0001).
 */
export async function inOrgTransaction<T>(ctx: OrgContext, work: (tx: { trx: Transaction<PlatformDb>; edb: EngineExecutor }) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockOrganisation(trx, ctx.engineCode);
    return work({ trx, edb: engineDb(trx as unknown as Db, ctx.engineCode) });
  });
}

/** Holds the engine's organisation lock until the transaction ends. */
export async function lockOrganisation(trx: Transaction<PlatformDb>, engineCode: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`tritium:org:${engineCode}`}))`.execute(trx);
}

/** A department; one the viewer may not see is not found. */
export async function loadDepartment(edb: EngineExecutor, id: string, viewer: Viewer = INTERNAL_VIEWER): Promise<contracts.DepartmentDto> {
  const row = await selectDepartments(edb, viewer).where('u.id', '=', id).where('u.unit_type', 'in', ['Company', 'OrganizationUnit']).where(visibleUnit(edb, viewer, 'u.id')).executeTakeFirst();
  if (!row) throw new AppError('UnitNotFound', { detail: { id, expected: 'OrganizationUnit' } });
  return presentDepartment(row);
}

export async function loadDepartmentDetail(edb: EngineExecutor, id: string, viewer: Viewer = INTERNAL_VIEWER): Promise<contracts.DepartmentDetailDto> {
  assertDepartment(await findUnit(edb, id), id);
  const department = await loadDepartment(edb, id, viewer);
  // The path of a department the viewer sees holds only departments they see, and for an external viewer 外部组织.
  const path = (await ancestorsOf(edb, id)).filter((a) => a.id !== id).map(({ id: ancestorId, name }) => ({ id: ancestorId, name }));
  return { ...department, path, ...(await departmentContents(edb, id)) };
}

/**
 * A user with departments (main first), roles and posts. A user the viewer may not see is not found; an external
 * viewer sees only the departments of their own organisation and no roles or posts.
 */
export async function loadUserDetail(edb: EngineExecutor, id: string, viewer: Viewer = INTERNAL_VIEWER): Promise<contracts.UserDetailDto> {
  const row = await selectUsers(edb, viewer).where('u.id', '=', id).where(visibleUser(edb, viewer, 'u.id')).executeTakeFirst();
  if (!row) throw new AppError('UnitNotFound', { detail: { id, expected: 'User' } });
  const user = presentUser(row);
  const internal = viewer.kind === 'internal';
  const departments = await edb
    .selectFrom('org_user_departments as l')
    .innerJoin('org_units as d', 'd.id', 'l.department_id')
    .select(['d.id', 'd.name', 'l.is_main', 'd.manager_id', 'd.is_external'])
    .where('l.user_id', '=', id)
    .where(visibleUnit(edb, viewer, 'd.id'))
    .orderBy('l.is_main', 'desc')
    .orderBy('d.name_pinyin')
    .orderBy('d.id')
    .execute();
  const roles = await edb
    .selectFrom('org_role_members as l')
    .innerJoin('org_units as r', 'r.id', 'l.role_id')
    .select(['r.id', 'r.name', 'r.parent_id'])
    .where('l.user_id', '=', id)
    .where(sql<boolean>`${internal}`)
    .orderBy('r.name_pinyin')
    .orderBy('r.id')
    .execute();
  const posts = await edb
    .selectFrom('org_user_posts as l')
    .innerJoin('org_units as p', 'p.id', 'l.post_id')
    .select(['p.id', 'p.name'])
    .where('l.user_id', '=', id)
    .where(sql<boolean>`${internal}`)
    .orderBy('p.name_pinyin')
    .orderBy('p.id')
    .execute();
  const { email } = await edb.selectFrom('org_users').select('email').where('id', '=', id).executeTakeFirstOrThrow();
  return {
    ...user,
    email,
    departments: departments.map((d) => ({ id: d.id, name: d.name, isMain: d.is_main, isManager: d.manager_id === id, isExternal: d.is_external })),
    roles: roles.map((r) => ({ id: r.id, name: r.name, groupId: r.parent_id })),
    posts: posts.map((p) => ({ id: p.id, name: p.name })),
  };
}
