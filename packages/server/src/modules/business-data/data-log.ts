import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { sameValue } from './field-values.ts';
import type { CheckedInput } from './record-input.ts';
import { dataLogsOf, insertDataLog } from './records.repo.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from './runtime-form.ts';
import { canReadRecord } from './record-policy.ts';
import { isHidden } from '../permission/form-rights.ts';
import { AppError } from '../../lib/app-error.ts';
import { findRecord } from './records.repo.ts';

// The data log (domain.md §3 form attribute enableDataLog; docs/decisions/0007): one row per save that changed
// values, each change {code, from, to}; a sub-table's change carries its rows before and after (without row ids).

export interface DataChange {
  code: string;
  from: unknown;
  to: unknown;
}

const withoutIds = (rows: Record<string, unknown>[] | undefined) => (rows ?? []).map(({ ObjectId: _id, ...rest }) => rest);

export function changesOf(form: RuntimeForm, before: Record<string, unknown> | undefined, after: CheckedInput, beforeChildren: Record<string, Record<string, unknown>[]>): DataChange[] {
  const changes: DataChange[] = [];
  for (const field of form.fields) {
    if (!(field.code in after.values)) continue;
    const from = before?.[field.code] ?? null;
    const to = after.values[field.code] ?? null;
    if (!sameValue(from, to)) changes.push({ code: field.code, from, to });
  }
  for (const [code, rows] of after.children) {
    const from = withoutIds(beforeChildren[code]);
    const to = rows.map((r) => r.values);
    if (!sameValue(from, to)) changes.push({ code, from, to });
  }
  return changes;
}

export async function writeDataLog(edb: EngineExecutor, form: RuntimeForm, objectId: string, userId: string, changes: DataChange[]): Promise<void> {
  await insertDataLog(edb, { id: newId(), schema_code: form.node.code, object_id: objectId, user_id: userId, changes });
}

/** POST /v1/form/datalog/list: a record's changes, newest first; whoever may read the record reads its log. */
export async function listDataLog(ctx: NodeContext, body: { schemaCode: string; objectId: string }) {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const row = await findRecord(edb, form, body.objectId);
  if (!row || !(await canReadRecord(edb, form, row, ctx.userId))) {
    // A removed record keeps its log readable only while the record exists (no orphan reads across permissions).
    throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
  }
  const rows = await dataLogsOf(edb, form.node.code, body.objectId);
  const visible = (changes: DataChange[]) => (form.rights.fields.size ? withoutHidden(form, changes) : changes);
  return {
    list: rows.map((r) => ({ id: r.id, userId: r.user_id, time: new Date(r.time).toISOString(), changes: visible(typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes) })),
  };
}

/** A log entry as the caller may read it: no change of a hidden field, no hidden column in a sub-table's rows. */
function withoutHidden(form: RuntimeForm, changes: DataChange[]): DataChange[] {
  const hidden = (code: string) => isHidden(form.rights, code);
  const rows = (grid: string, value: unknown) =>
    Array.isArray(value) ? value.map((r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => !hidden(`${grid}.${k}`)))) : value;
  return changes
    .filter((c) => !hidden(c.code))
    .map((c) => (form.grids.some((g) => g.code === c.code) ? { ...c, from: rows(c.code, c.from), to: rows(c.code, c.to) } : c));
}
