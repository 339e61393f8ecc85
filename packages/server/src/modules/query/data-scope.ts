import type { RawBuilder, SqlBool } from 'kysely';
import type { DataScope } from '@tritium/shared/query/index';
import { anyScopeSql, scopeBranches, scopeSql, type ScopeTarget } from '../permission/scope-sql.ts';
import { MAIN, type CompileContext } from './filter-compiler.ts';
import { scopeTargetOf } from '../business-data/record-policy.ts';

// The query engine's two scope conditions (docs/decisions/0013, 0037), compiled by the permission module: the scope a
// call asks for (a view's own / own department), and the scopes the caller's permission groups let them see.

const targetOf = (ctx: CompileContext): ScopeTarget => scopeTargetOf(ctx.form, ctx.userId, MAIN);

/** The scope a call asks for. */
export function scopeCondition(ctx: CompileContext, scope: DataScope): RawBuilder<SqlBool> {
  return scopeSql(ctx.edb, targetOf(ctx), scope);
}

/** What the caller may see of the form at all (their permission groups' view scopes). */
export function permittedCondition(ctx: CompileContext): RawBuilder<SqlBool> {
  return anyScopeSql(ctx.edb, targetOf(ctx), ctx.form.rights.viewScopes);
}

/** The same as disjoint branches for counting (null: count with the one condition); docs/decisions/0063. */
export function permittedBranches(ctx: CompileContext): RawBuilder<SqlBool>[] | null {
  return scopeBranches(ctx.edb, targetOf(ctx), ctx.form.rights.viewScopes);
}
