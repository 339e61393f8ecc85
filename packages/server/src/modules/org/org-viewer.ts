import { sql, type ExpressionBuilder } from 'kysely';
import { EXTERNAL_ROOT_NODE_ID, UserAuthType } from '@tritium/shared/constants/org';
import { AppError } from '../../lib/app-error.ts';
import type { Actor } from '../../plugins/auth.ts';
import { subtreeIds, type EngineExecutor } from './org.repo.ts';

// Who reads the organisation (docs/decisions/0010). Internal members read all of it; an external user (auth type
// External 5, or an external membership) reads only their own external organisation: the subtrees of the
// departments directly under 外部组织 that they belong to, the users in them, and themselves. The viewer is
// resolved once per request (orgReadContextOf) and every read query applies it in SQL through the filters below.

export type Viewer =
  | { kind: 'internal' }
  | {
      kind: 'external';
      userId: string;
      /** The tops of the caller's own external organisations (departments whose parent is the external root). */
      orgIds: string[];
    };

export const INTERNAL_VIEWER: Viewer = { kind: 'internal' };

export function isExternalActor(actor: Pick<Actor, 'authType' | 'isExternal'>): boolean {
  return actor.authType === UserAuthType.External || actor.isExternal === true;
}

/** The external organisations a user belongs to: the ancestors (or themselves) of their departments directly under 外部组织. */
export async function resolveViewer(edb: EngineExecutor, actor: Pick<Actor, 'authType' | 'isExternal' | 'userId'>): Promise<Viewer> {
  if (!isExternalActor(actor)) return INTERNAL_VIEWER;
  const userId = actor.userId!;
  const rows = await edb
    .withRecursive('up(id, parent_id, is_external)', (qc) =>
      qc
        .selectFrom('org_units as d')
        .innerJoin('org_user_departments as ud', 'ud.department_id', 'd.id')
        .select(['d.id', 'd.parent_id', 'd.is_external'])
        .where('ud.user_id', '=', userId)
        // UNION: a corrupt cycle terminates.
        .union(qc.selectFrom('org_units as p').innerJoin('up', 'up.parent_id', 'p.id').select(['p.id', 'p.parent_id', 'p.is_external'])),
    )
    .selectFrom('up')
    .select('up.id')
    .distinct()
    .where('up.parent_id', '=', EXTERNAL_ROOT_NODE_ID)
    .where('up.is_external', '=', true)
    .orderBy('up.id')
    .execute();
  return { kind: 'external', userId, orgIds: rows.map((r) => r.id) };
}

// An id no unit has (ids are non-empty text), so that an external user of no organisation sees no department.
const NO_ID = '';

/** The departments an external viewer may see (a subquery); undefined for an internal viewer (no limit). */
export function visibleDepartmentIds(edb: EngineExecutor, viewer: Viewer) {
  if (viewer.kind === 'internal') return undefined;
  return subtreeIds(edb, viewer.orgIds.length ? viewer.orgIds : [NO_ID]);
}

/** A filter on a unit id column (e.g. 'u.id'): the unit is visible (only departments of the viewer's organisation). */
export function visibleUnit(edb: EngineExecutor, viewer: Viewer, idColumn: string) {
  return (eb: ExpressionBuilder<any, any>) => {
    const ids = visibleDepartmentIds(edb, viewer);
    return ids ? eb(sql.ref<string>(idColumn), 'in', ids) : eb.lit(true);
  };
}

/** A filter on a user id column (e.g. 'u.id'): the user is visible (the viewer, or a member of a visible department). */
export function visibleUser(edb: EngineExecutor, viewer: Viewer, idColumn: string) {
  return (eb: ExpressionBuilder<any, any>) => {
    const ids = visibleDepartmentIds(edb, viewer);
    if (viewer.kind === 'internal' || !ids) return eb.lit(true);
    const id = sql.ref<string>(idColumn);
    return eb.or([
      eb(id, '=', viewer.userId),
      eb.exists(edb.selectFrom('org_user_departments as vd').select('vd.user_id').where('vd.user_id', '=', id).where('vd.department_id', 'in', ids)),
    ]);
  };
}

/** Role, role-group and post reads are the internal organisation's: an external viewer is refused (100403). */
export function assertInternalViewer(viewer: Viewer): void {
  if (viewer.kind !== 'internal') throw new AppError('Forbidden');
}

/** Whether the viewer may see the unit (one query for an external viewer, none for an internal one). */
export async function isVisibleUnit(edb: EngineExecutor, viewer: Viewer, id: string): Promise<boolean> {
  if (viewer.kind === 'internal') return true;
  return !!(await edb.selectFrom('org_units as u').select('u.id').where('u.id', '=', id).where(visibleUnit(edb, viewer, 'u.id')).executeTakeFirst());
}
