import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DataScope } from '@tritium/shared/constants/org';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { idParam, idsOfType } from '../../db/uuid-ids.ts';

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
  /** The main table's system id columns (OwnerId, OwnerDeptId, CreatedBy …) are uuid (docs/decisions/0128). */
  uuidIds?: boolean;
}

const builder = (edb: EngineExecutor) => edb as unknown as Kysely<any>;

/** One "or" term of a scope: the column (or the flow) it tests, and whether a system index answers it. */
interface ScopeTerm {
  key: string;
  indexed: boolean;
  sql: RawBuilder<SqlBool>;
}

// The order the terms are counted in (scopeBranches): the main table's system indexes cover the terms before theirs
// (form-design/ddl-executor.ts), so each branch's "not an earlier term" is read from its index alone.
const TERM_ORDER = ['OwnerDeptId', 'OwnerId', 'CreatedBy', 'flow'];

function scopeTerms(edb: EngineExecutor, target: ScopeTarget, scope: DataScope): ScopeTerm[] | 'all' {
  const ref = (code: string) => sql.ref(`${target.alias}.${code}`);
  const uuid = target.uuidIds === true;
  const isSystem = (code: string) => code === 'CreatedBy' || code === 'OwnerId';
  // The caller's id as the column's type takes it: a uuid column never reads a text that is not one (decision 0128).
  const me = (code: string) => (isSystem(code) ? idParam(uuid, target.userId) : target.userId);
  const own: ScopeTerm = { key: 'OwnerId', indexed: true, sql: sql<SqlBool>`${ref('OwnerId')} = ${me('OwnerId')}` };
  // An array read once before the scan (an InitPlan): the condition stays parallel-safe, and a person is in few
  // departments, so the per-row test is short (bench/query-million.ts, docs/decisions/0057).
  const departments = builder(edb).selectFrom('org_user_departments').select('department_id').where('user_id', '=', target.userId);
  const ownDept = (): ScopeTerm => ({
    key: 'OwnerDeptId',
    indexed: true,
    sql: uuid ? sql<SqlBool>`${ref('OwnerDeptId')} = any(array${idsOfType(true, departments)})` : sql<SqlBool>`${ref('OwnerDeptId')} = any(array(${departments}))`,
  });
  const relevant = (): ScopeTerm[] => [
    ...target.userColumns.map((c) => ({
      key: c.code,
      indexed: isSystem(c.code),
      sql: c.multi ? sql<SqlBool>`${target.userId}::text = any(${ref(c.code)})` : sql<SqlBool>`${ref(c.code)} = ${me(c.code)}`,
    })),
    { key: 'flow', indexed: true, sql: inFlowSql(edb, target) },
  ];
  switch (scope) {
    case 'own': return [own];
    case 'ownDept': return [ownDept()];
    case 'relevant': return relevant();
    case 'ownAndRelevant': return [own, ...relevant()];
    case 'ownAndOwnDept': return [own, ownDept()];
    default: return 'all';
  }
}

const orOf = (terms: readonly ScopeTerm[]) => (terms.length ? sql<SqlBool>`(${sql.join(terms.map((t) => t.sql), sql` or `)})` : sql<SqlBool>`false`);

/** The terms of any of the scopes, each once; 'all' when one of them is every record. */
function unionTerms(edb: EngineExecutor, target: ScopeTarget, scopes: readonly DataScope[]): ScopeTerm[] | 'all' {
  const terms = new Map<string, ScopeTerm>();
  for (const scope of scopes) {
    const of = scopeTerms(edb, target, scope);
    if (of === 'all') return 'all';
    for (const t of of) if (!terms.has(t.key)) terms.set(t.key, t);
  }
  return [...terms.values()];
}

export function scopeSql(edb: EngineExecutor, target: ScopeTarget, scope: DataScope): RawBuilder<SqlBool> {
  const terms = scopeTerms(edb, target, scope);
  return terms === 'all' ? sql<SqlBool>`true` : orOf(terms);
}

/** Any of the scopes (the union of a person's permission groups); none at all lets no record through. */
export function anyScopeSql(edb: EngineExecutor, target: ScopeTarget, scopes: readonly DataScope[]): RawBuilder<SqlBool> {
  const terms = unionTerms(edb, target, scopes);
  return terms === 'all' ? sql<SqlBool>`true` : orOf(terms);
}

/**
 * The same records as `anyScopeSql`, as disjoint branches for counting them (docs/decisions/0063): branch i is term i
 * and none of the terms before it, so the count of the union is the sum of the branches' counts — each an index scan
 * of the system index on its column (index-only where the table is vacuumed), instead of a scan of the whole table
 * testing every row. Null when there is no gain: every record ('all'), at most one term, or a term no system index
 * answers (a user control of the form: the one scan of the "or" is cheaper than a scan per branch).
 */
export function scopeBranches(edb: EngineExecutor, target: ScopeTarget, scopes: readonly DataScope[]): RawBuilder<SqlBool>[] | null {
  const terms = unionTerms(edb, target, scopes);
  if (terms === 'all' || terms.length < 2 || terms.some((t) => !t.indexed)) return null;
  const ordered = [...terms].sort((x, y) => TERM_ORDER.indexOf(x.key) - TERM_ORDER.indexOf(y.key));
  return ordered.map((t, i) => sql<SqlBool>`${sql.join([t.sql, ...ordered.slice(0, i).map((e) => sql<SqlBool>`(${e.sql}) is not true`)], sql` and `)}`);
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
