import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DataScope } from '@tritium/shared/constants/org';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// Data scopes (domain.md §6; docs/decisions/0013, 0037) as one condition of the statement that reads the records:
// own = OwnerId is the person; own department = OwnerDeptId is one of their departments (org_user_departments, not
// the departments below); relevant = they are named in a user field of the record (CreatedBy, OwnerId, any user or
// multi-user control) or are a participant of the record's flow; the two "and" scopes are the unions; all = every
// record. The query engine's requested scope and the policy's permitted scopes both compile here.

export interface ScopeTarget {
  /** The alias of the form's main table in the statement. */
  alias: string;
  userId: string;
  schemaCode: string;
  /** The main table's user columns: `multi` for multi-user (text[]) columns. */
  userColumns: readonly { code: string; multi: boolean }[];
}

const builder = (edb: EngineExecutor) => edb as unknown as Kysely<any>;

export function scopeSql(edb: EngineExecutor, target: ScopeTarget, scope: DataScope): RawBuilder<SqlBool> {
  const ref = (code: string) => sql.ref(`${target.alias}.${code}`);
  const own = sql<SqlBool>`${ref('OwnerId')} = ${target.userId}`;
  // An array read once before the scan (an InitPlan): the condition stays parallel-safe, and a person is in few
  // departments, so the per-row test is short (bench/query-million.ts, docs/decisions/0057).
  const ownDept = () =>
    sql<SqlBool>`${ref('OwnerDeptId')} = any(array(${builder(edb).selectFrom('org_user_departments').select('department_id').where('user_id', '=', target.userId)}))`;
  const relevant = () => {
    const named = target.userColumns.map((c) => (c.multi ? sql<SqlBool>`${target.userId}::text = any(${ref(c.code)})` : sql<SqlBool>`${ref(c.code)} = ${target.userId}`));
    const inFlow = inFlowSql(edb, target);
    return sql<SqlBool>`(${sql.join([...named, inFlow], sql` or `)})`;
  };
  switch (scope) {
    case 'own': return own;
    case 'ownDept': return ownDept();
    case 'relevant': return relevant();
    case 'ownAndRelevant': return sql<SqlBool>`(${own} or ${relevant()})`;
    case 'ownAndOwnDept': return sql<SqlBool>`(${own} or ${ownDept()})`;
    default: return sql<SqlBool>`true`;
  }
}

/** Any of the scopes (the union of a person's permission groups); none at all lets no record through. */
export function anyScopeSql(edb: EngineExecutor, target: ScopeTarget, scopes: readonly DataScope[]): RawBuilder<SqlBool> {
  if (scopes.includes('all')) return sql<SqlBool>`true`;
  if (!scopes.length) return sql<SqlBool>`false`;
  return sql<SqlBool>`(${sql.join(scopes.map((s) => scopeSql(edb, target, s)), sql` or `)})`;
}

/**
 * The person is a participant of the record's flow (approvers read what their work item shows). An uncorrelated
 * IN: PostgreSQL reads the person's records once into a hash (the participant index) and probes it per row; the
 * correlated EXISTS it replaces ran one index lookup per row — 3× the time of a scoped count at 1,000,000 records
 * (docs/decisions/0057). Not an array: a person in hundreds of flows would make the per-row test linear.
 */
export function inFlowSql(edb: EngineExecutor, target: ScopeTarget): RawBuilder<SqlBool> {
  const ref = sql.ref(`${target.alias}.ObjectId`);
  return sql<SqlBool>`${ref} in (${builder(edb)
    .selectFrom('wf_instances as pi')
    .innerJoin('wf_work_items as pw', 'pw.instance_id', 'pi.id')
    .select('pi.object_id')
    .where('pi.schema_code', '=', target.schemaCode)
    .where('pw.participant', '=', target.userId)})`;
}
