import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DataScope } from '@tritium/shared/query/index';
import { anyDb } from '../business-data/runtime-form.ts';
import { MAIN, type CompileContext } from './filter-compiler.ts';
import { userColumns } from './query-fields.ts';

// Data scopes (domain.md §6; docs/decisions/0013) as one condition of the same statement:
// own = OwnerId is the caller; own department = OwnerDeptId is one of the caller's departments (org_user_departments,
// not the departments below); relevant = the caller is in a user field of the record (CreatedBy, OwnerId, or any
// user / multi-user control); the two "and" scopes are the unions; all = every record.

export function scopeCondition(ctx: CompileContext, scope: DataScope): RawBuilder<SqlBool> {
  const ref = (code: string) => sql.ref(`${MAIN}.${code}`);
  const own = sql<SqlBool>`${ref('OwnerId')} = ${ctx.userId}`;
  const ownDept = sql<SqlBool>`${ref('OwnerDeptId')} in (${anyDb(ctx.edb).selectFrom('org_user_departments').select('department_id').where('user_id', '=', ctx.userId)})`;
  const relevant = () =>
    sql<SqlBool>`(${sql.join(
      userColumns(ctx.form).map((c) => (c.dataType === 'users' ? sql`${ctx.userId}::text = any(${ref(c.code)})` : sql`${ref(c.code)} = ${ctx.userId}`)),
      sql` or `,
    )})`;
  switch (scope) {
    case 'own': return own;
    case 'ownDept': return ownDept;
    case 'relevant': return relevant();
    case 'ownAndRelevant': return sql<SqlBool>`(${own} or ${relevant()})`;
    case 'ownAndOwnDept': return sql<SqlBool>`(${own} or ${ownDept})`;
    default: return sql<SqlBool>`true`;
  }
}
